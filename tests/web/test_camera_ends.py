"""Why the camera's events stopped coming (web.camera.Camera.ended): its
source ran out by itself, or the camera was lost. Either way a copy held for
the camera's next move stands (as ``tableref watch`` closes); only a source
that ran out by itself has a tgus-t game's last play read as the players'
last cards put down together. The camera says which, in the viewer's
language."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.vision.test_out_together_tgus_t import DOWN, HEADER, camera as tgus_t_events
from tests.web.test_camera_restart import SKIP, UNO, Server, uninterrupted
from web.commands import _camera_ended


class Pipeline:
    """A pipeline stand-in whose run ends as a source does: ``ended`` (a file
    played out), ``error`` (a source it gave up on) or raising (lost)."""

    def __init__(self, end: str):
        self.end = end
        self.state = {"state": "running", "message": "reading 0"}
        self.source = SimpleNamespace(live=end != "ended")

    def run(self, stop):
        if self.end == "raise":
            raise OSError("the device went away")
        self.state = {"state": self.end, "message": {
            "ended": "file table.mp4 has ended",
            "error": "cannot open 0; gave up after 3 retries"}[self.end]}

    def status(self):
        return dict(self.state)


def run_to_the_end(server: Server, end: str) -> None:
    """The camera's pipeline runs and its events stop as ``end`` says."""
    camera = server.table.camera
    camera.pipeline, camera.error = Pipeline(end), None
    camera.on_end = lambda: _camera_ended(server.table, camera)
    camera._run()


def begun(tmp_path, header) -> Server:
    server = Server(tmp_path, True)
    assert server.app.test_client().post(
        "/api/games", json={k: v for k, v in header.items() if k != "type"}
    ).status_code == 201
    return server


def test_a_lost_camera_says_so_and_its_held_copy_stands(tmp_path):
    server = begun(tmp_path, UNO)
    server.feed(SKIP)  # the last play: a copy held for the camera's next move
    run_to_the_end(server, "raise")
    assert server.table.referee.events == uninterrupted(UNO, SKIP)
    client = server.app.test_client()
    status = client.get("/api/camera").get_json()
    assert status["state"] == "unavailable" and status["ended"] == "lost"
    assert status["message"] == "the camera pipeline stopped: the device went away"
    assert client.get("/api/camera?lang=ja").get_json()["message"] == (
        "カメラ処理が止まりました: 入出力のエラー（the device went away）")
    for url in ("/", "/?lang=ja", "/table", "/partials?view=table"):
        assert client.get(url).status_code == 200, url


def test_a_source_given_up_on_is_a_lost_camera(tmp_path):
    server = begun(tmp_path, UNO)
    server.feed(SKIP)
    run_to_the_end(server, "error")
    assert server.table.referee.events == uninterrupted(UNO, SKIP)
    status = server.app.test_client().get("/api/camera").get_json()
    assert status["ended"] == "lost" and status["state"] == "error"
    assert status["message"] == "cannot open 0; gave up after 3 retries"


@pytest.mark.parametrize("end", ["raise", "error"])
def test_a_tgus_t_game_whose_camera_was_lost_is_not_read_as_over(tmp_path, end):
    server = begun(tmp_path, HEADER)
    server.feed(tgus_t_events(*DOWN, ("B", "red-9")))
    run_to_the_end(server, end)
    state = server.table.referee.state()
    assert not state["over"] and state["hand_counts"]["B"] == 1


def test_a_tgus_t_game_whose_recording_ran_out_is_read_as_over(tmp_path):
    server = begun(tmp_path, HEADER)
    server.feed(tgus_t_events(*DOWN, ("B", "red-9")))
    run_to_the_end(server, "ended")
    state = server.table.referee.state()
    assert state["over"] and state["ranking"] == ["B", "A"]
    status = server.app.test_client().get("/api/camera").get_json()
    assert status["ended"] == "source"
    assert status["message"] == "file table.mp4 has ended"


def test_a_camera_stopped_by_the_server_has_not_ended(tmp_path):
    server = begun(tmp_path, UNO)
    server.feed(SKIP)
    camera = server.table.camera
    camera.stop.set()  # the server stops: the copy is kept for a restart
    run_to_the_end(server, "ended")
    assert len(server.table.referee.events) == len(uninterrupted(UNO, SKIP)) - 1
    assert camera.ended is None and "ended" not in camera.status()
