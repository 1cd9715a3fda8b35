"""A camera replaced while a game runs (``serve``'s ``start_camera``, what the
setup page calls): what the old camera's path held (a drawn copy held for the
camera's next move, with its evidence frame) goes on with the new camera, as
after a restart; an event the old camera sends after it was stopped is not
taken into the game that runs then; no frame is left that no line names, and
every line's frame is there."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.serve_fakes import SCRIPTS, camera_runs, serve_app
from tests.web.test_camera_restart import SKIP, STOOD, UNO, cam, uninterrupted


@pytest.fixture(autouse=True)
def scripts():
    SCRIPTS.clear()
    yield SCRIPTS
    SCRIPTS.clear()


def begun(tmp_path, monkeypatch):
    app = serve_app(tmp_path, monkeypatch)
    resp = app.test_client().post("/api/games", json=UNO)
    assert resp.status_code == 201, resp.get_json()
    return app


def bare(events) -> list[dict]:
    """Events without their frames (the truth's lines have none)."""
    return [{k: v for k, v in e.items() if k != "evidence"} for e in events]


def frames_of(app, gid) -> tuple[list[str], set[str]]:
    """The frames game ``gid``'s lines name, and every frame file its store keeps."""
    store = app.extensions["tableref.store"]
    shown = [e["evidence"] for e in store.events(gid) if "evidence" in e]
    kept = {str(p) for p in (Path(store.evidence_dir) / str(gid)).glob("*")}
    return shown, kept


def nothing_lost_nothing_stray(app, gid) -> None:
    shown, kept = frames_of(app, gid)
    assert len(shown) == len(set(shown))
    assert kept == set(shown)
    store = app.extensions["tableref.store"]
    assert set(store.evidence(gid)) == set(shown)
    pipeline = Path(store.evidence_dir)
    assert not [p for p in pipeline.glob("camera-*/*") if p.is_file()]
    client = app.test_client()
    for url in ("/", "/table", "/api/state", "/api/camera", "/api/events"):
        assert client.get(url).status_code == 200, url


def test_a_copy_held_when_the_camera_is_replaced_goes_on_with_the_new_one(
        tmp_path, monkeypatch):
    app = begun(tmp_path, monkeypatch)
    table = app.extensions["tableref.table"]
    SCRIPTS["a.mp4"], SCRIPTS["b.mp4"] = list(SKIP), list(STOOD)
    old = camera_runs(app, "a.mp4")
    held = old.handsfree.held
    assert held is not None  # the last play: a copy held for the next move
    frame = held[0]["evidence"]
    new = camera_runs(app, "b.mp4")  # replaced while the game runs
    assert new is not old and old.stop.is_set()
    assert bare(table.referee.events) == uninterrupted(UNO, (*SKIP, *STOOD))
    assert frame in [e.get("evidence") for e in table.referee.events]
    assert Path(frame).is_file()
    nothing_lost_nothing_stray(app, table.gid)


def test_a_copy_held_when_the_camera_is_replaced_stands_at_the_new_ones_end(
        tmp_path, monkeypatch):
    from web.commands import _camera_ended

    app = begun(tmp_path, monkeypatch)
    table = app.extensions["tableref.table"]
    SCRIPTS["a.mp4"] = list(SKIP)
    camera_runs(app, "a.mp4")
    new = camera_runs(app, "b.mp4")  # replaced; it sees nothing before its end
    new.ended = "source"
    _camera_ended(table, new)
    assert bare(table.referee.events) == uninterrupted(UNO, SKIP)
    nothing_lost_nothing_stray(app, table.gid)


def test_an_event_a_replaced_camera_sends_late_stays_out_of_the_new_game(
        tmp_path, monkeypatch):
    app = begun(tmp_path, monkeypatch)
    table, store = app.extensions["tableref.table"], app.extensions["tableref.store"]
    first = table.gid
    SCRIPTS["a.mp4"] = list(SKIP[:2])
    SCRIPTS["a.mp4:late"] = [cam("draw", 3, count=1, reach_from="C")]
    old = camera_runs(app, "a.mp4")
    resp = app.test_client().post("/api/games", json={**UNO, "camera": "b.mp4"})
    assert resp.status_code == 201
    old.thread.join(10)  # its late event sent
    assert not old.thread.is_alive()
    assert store.events(table.gid) == []  # the new game took nothing of it
    assert [e["type"] for e in store.events(first)] == ["start", "play"]
    nothing_lost_nothing_stray(app, table.gid)
    nothing_lost_nothing_stray(app, first)


def test_the_demo_log_played_in_a_cameras_stead_stops_with_it(tmp_path, monkeypatch):
    """Where the camera cannot run, the demo's log plays in its stead; a new
    game set up with another camera ends it: its events go to no game."""
    import time

    from web import commands
    from web.camera import Camera, LogPlayer

    app = begun(tmp_path, monkeypatch)
    table, store = app.extensions["tableref.table"], app.extensions["tableref.store"]
    stand_in = Camera()
    table.camera = stand_in
    players: list[LogPlayer] = []

    class Player(LogPlayer):
        def start(self):
            players.append(self)
            return self  # not run: stepped by hand below

    monkeypatch.setattr(commands, "LogPlayer", Player)
    commands._demo_fallback(table, stand_in, [dict(e) for e in SKIP], 0.0, wait=0.0)
    deadline = time.monotonic() + 10
    while not players and time.monotonic() < deadline:
        time.sleep(0.01)
    assert players
    player = players[0]
    player.append(dict(SKIP[0]))  # the log's first event, taken
    first = table.gid
    assert len(store.events(first)) == 1
    stand_in.stop.set()  # the setup page starts another game and camera
    table.camera = Camera()
    assert player.stopped()
    player.append(dict(SKIP[1]))  # one in flight: not taken
    assert len(store.events(first)) == 1


def test_a_tgus_t_games_re_reads_go_on_with_the_camera_that_replaced_its_own(
        tmp_path, monkeypatch):
    """A re-read asked for by the old camera's events and not yet done is
    made with the new camera's, as after a restart (test_camera_reread_restart)."""
    from tests.web.test_camera_reread import GAMBLE, TGUS_T
    from tests.web.test_camera_reread_restart import OWED
    from tests.web.test_camera_reread_restart import uninterrupted as re_read

    (tmp_path / "uninterrupted").mkdir()
    app = serve_app(tmp_path, monkeypatch)
    resp = app.test_client().post("/api/games", json=TGUS_T)
    assert resp.status_code == 201, resp.get_json()
    table = app.extensions["tableref.table"]
    SCRIPTS["a.mp4"], SCRIPTS["b.mp4"] = list(GAMBLE), list(OWED)
    old = camera_runs(app, "a.mp4")
    assert old.rereads is not None and old.rereads.stopped is None
    new = camera_runs(app, "b.mp4")
    assert new.rereads is not None and new.rereads is not old.rereads
    new.rereads.wait()
    assert new.rereads.stopped is None
    events = bare(table.referee.events)
    assert events == re_read(tmp_path, GAMBLE + OWED, mode="thread")
    assert events[1]["effect"] == "wild-hit-x"
    assert not [r for r in table.referee.rulings if r.ruling == "illegal"]
