"""The end of the demo's recorded log, replayed where the camera cannot run
(``_demo_fallback``, web.camera.LogPlayer), is the camera's end
(web.commands._camera_ended): the page then shows what it shows at the end of
a video file the camera played."""

from __future__ import annotations

from types import SimpleNamespace

from tests.web.test_camera_restart import SKIP, STOOD, UNO, Server, uninterrupted
from tests.web.test_web_replay_sources_restart import begun, replayed
from web.camera import NO_SOURCE
from web.commands import _camera_ended


def camera_run(tmp_path, events):
    """The same events from the camera, whose source then ends."""
    (tmp_path / "camera").mkdir()
    server = Server(tmp_path / "camera", True)
    assert server.app.test_client().post("/api/games", json=UNO).status_code == 201
    server.feed(events)
    _camera_ended(server.table, server.table.camera)
    return server


def shown(server):
    client = server.app.test_client()
    out = {url: client.get(url).get_json() for url in ("/api/events", "/api/state")}
    out["/api/state"].pop("seq")  # the feed's position, a clock's
    return out


def test_a_copy_held_at_the_end_of_the_replayed_log_stands_as_at_a_cameras_end(
        tmp_path, monkeypatch):
    server = begun(tmp_path, True)
    replayed(server, SKIP, monkeypatch)  # ends with a copy held for a next move
    events = server.table.referee.events
    assert events == uninterrupted(UNO, SKIP)
    assert events[-1]["cards"] == ["green-skip"]
    assert events == camera_run(tmp_path, SKIP).table.referee.events
    assert server.table.store.events(server.table.gid) == events


def test_the_page_at_the_end_of_a_replayed_log_is_the_page_at_a_cameras_end(
        tmp_path, monkeypatch):
    server = begun(tmp_path, True)
    replayed(server, SKIP + STOOD, monkeypatch)
    camera = camera_run(tmp_path, SKIP + STOOD)
    assert server.table.referee.events == camera.table.referee.events
    assert shown(server) == shown(camera)


def test_a_replay_stopped_with_the_server_does_not_end_the_source(tmp_path, monkeypatch):
    """Stopped (the server stops), the copy held is kept for the restart
    (web.pending), not stood: the log plays on after it."""
    server = begun(tmp_path, True)
    replayed(server, SKIP, monkeypatch, stop=len(SKIP))
    assert len(server.table.referee.events) == len(uninterrupted(UNO, SKIP)) - 1


def test_the_camera_no_longer_says_it_replays_once_the_log_has_ended(
        tmp_path, monkeypatch):
    server = begun(tmp_path, True)
    server.table.camera.replaying(NO_SOURCE)  # as serve starts it with no source
    replayed(server, SKIP, monkeypatch, stop=2)  # stopped with the server
    status = server.app.test_client().get("/api/camera").get_json()
    assert status["message"] == "no camera source; replaying the demo table log instead"
    assert "ended" not in status
    server.restart()
    server.table.camera.replaying(NO_SOURCE)
    replayed(server, SKIP, monkeypatch)  # played again from its start, to its end
    client = server.app.test_client()
    status = client.get("/api/camera").get_json()
    assert status["state"] == "unavailable"  # no frames to show: the page shows none
    assert status["message"] == "no camera source; the demo table log has ended"
    assert status["ended"] == "log" and status["stand_in"] is True
    ja = client.get("/api/camera?lang=ja").get_json()["message"]
    assert ja == "カメラ入力がありません。デモの記録の再生は終わりました"
    page = client.get("/?lang=ja").get_data(as_text=True)
    assert ja in page and "has ended" not in page


def test_a_camera_that_failed_says_why_and_that_the_log_replayed_instead_ended(
        tmp_path, monkeypatch):
    server = begun(tmp_path, True)
    camera = server.table.camera
    camera.error = "the camera could not start on 7: no such device"
    camera.failure = "camera_not_found"  # as its source says a camera not there
    replayed(server, SKIP, monkeypatch, stop=1)
    assert camera.status()["message"] == (
        "the camera could not start on 7: no such device; "
        "replaying the demo table log instead")
    replayed(server, SKIP, monkeypatch)
    client = server.app.test_client()
    assert client.get("/api/camera").get_json()["message"] == (
        "the camera could not start on 7: no such device; the demo table log has ended")
    assert client.get("/api/camera?lang=ja").get_json()["message"] == (
        "7 でカメラを起動できません: カメラが見つからない（no such device）。"
        "デモの記録の再生は終わりました")


def test_a_pipeline_that_gave_up_is_named_as_the_cause(tmp_path, monkeypatch):
    """The pipeline ran and gave up on its source: its words are the cause."""
    server = begun(tmp_path, True)
    camera = server.table.camera
    camera.error = None
    camera.pipeline = SimpleNamespace(
        status=lambda: {"state": "error",
                        "message": "cannot open 0; gave up after 3 retries"},
        source=SimpleNamespace(live=True))
    replayed(server, SKIP, monkeypatch)
    assert camera.status()["message"] == (
        "cannot open 0; gave up after 3 retries; the demo table log has ended")
