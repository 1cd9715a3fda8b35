"""``tableref serve`` started again plays two more sources again from their
start: the demo's recorded log, replayed where the camera cannot run
(``_demo_fallback``, web.camera.LogPlayer), and an audio file heard on its own
in real time (``serve --listen FILE`` with no camera). What the resumed game
already took from the same source is not taken twice (web.pending); another
log or file, or a microphone, is taken whole."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.web.test_camera_replay_restart import listening
from tests.web.test_camera_restart import SKIP, STOOD, UNO, Server, cam, uninterrupted
from web import commands
from web.camera import LogPlayer

MORE = (cam("play", 7, cards=["green-5"], reach_from="C"),
        cam("play", 8, cards=["green-5"], reach_from="A"),  # same time: two events
        cam("play", 8, cards=["green-1"], reach_from="B"))
LOG = SKIP + STOOD + MORE


def begun(tmp_path: Path, durable: bool) -> Server:
    server = Server(tmp_path, durable)
    assert server.app.test_client().post("/api/games", json=UNO).status_code == 201
    return server


def replayed(server: Server, events, monkeypatch, stop: int | None = None) -> None:
    """The demo fallback plays ``events`` in the camera's stead (it cannot
    run), stopped after ``stop`` events (``None``: all), and ends."""
    made: list[LogPlayer] = []

    class Player(LogPlayer):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            each, count = self.append, [0]

            def append(event):
                each(event)
                count[0] += 1
                if stop is not None and count[0] >= stop:
                    self.stop.set()  # the server stops here

            self.append = append

        def start(self):
            super().start()
            made.append(self)  # started: joined below
            return self

    monkeypatch.setattr(commands, "LogPlayer", Player)
    table = server.table
    commands._demo_fallback(table, table.camera, [dict(e) for e in events], 0.0,
                            wait=0.0)
    deadline = time.monotonic() + 30
    while not made and time.monotonic() < deadline:
        time.sleep(0.01)
    assert made, "the demo log was not replayed"
    made[0].thread.join(30)
    assert not made[0].thread.is_alive()
    assert not table.camera.refused, table.camera.last_refusal


@pytest.mark.parametrize("durable", [True, False], ids=["sqlite", "memory"])
@pytest.mark.parametrize("stop", [2, len(SKIP), len(LOG) - 1])
def test_the_demo_log_replayed_again_after_a_restart_is_not_taken_twice(
        tmp_path, monkeypatch, durable, stop):
    server = begun(tmp_path, durable)
    replayed(server, LOG, monkeypatch, stop)
    assert server.table.referee.events  # taken before the stop
    server.restart()
    replayed(server, LOG, monkeypatch)  # from the log's start again
    commands._camera_ended(server.table, server.table.camera)
    assert server.table.referee.events == uninterrupted(UNO, LOG)
    assert server.table.store.events(server.table.gid) == server.table.referee.events


def test_what_was_taken_of_the_demo_log_is_kept_beside_the_store(tmp_path, monkeypatch):
    server = begun(tmp_path, True)
    replayed(server, SKIP, monkeypatch)
    saved = Path(f"{server.database}-camera") / f"game-{server.table.gid}.json"
    replay = json.loads(saved.read_text())["replay"]
    assert replay["source"] == LogPlayer(SKIP, print).source
    assert replay["camera"] == {"t": 4.0, "at_t": 1}


def test_another_log_is_taken_whole(tmp_path, monkeypatch):
    server = begun(tmp_path, True)
    replayed(server, SKIP[:3], monkeypatch)
    lines = len(server.table.referee.events)
    server.restart()
    other = (cam("play", 1, cards=["green-9"], reach_from="A"),)  # its own clock
    replayed(server, other, monkeypatch)
    assert len(server.table.referee.events) > lines
    assert server.table.referee.events[-1]["cards"] == ["green-9"]


def calls(ts, player="A"):
    return [{"type": "uno", "player": player, "source": "voice", "t": t} for t in ts]


def heard_then_restarted(tmp_path: Path, durable: bool, track: Path, monkeypatch):
    """A game whose listener heard ``track`` alone (calls at 2.5 and 3.5 s),
    then a restart."""
    server = begun(tmp_path, durable)
    server.feed(SKIP[:1])
    append = listening(server, str(track), monkeypatch)
    for e in calls((2.5, 3.5)):
        append(dict(e))
    assert voiced(server) == [2.5, 3.5]
    server.restart()
    return server


def voiced(server: Server) -> list[float]:
    return [e["t"] for e in server.table.referee.events if e.get("source") == "voice"]


@pytest.mark.parametrize("durable", [True, False], ids=["sqlite", "memory"])
def test_a_file_heard_again_after_a_restart_is_not_recorded_twice(
        tmp_path, monkeypatch, durable):
    track = tmp_path / "table.wav"
    track.write_bytes(b"")
    server = heard_then_restarted(tmp_path, durable, track, monkeypatch)
    append = listening(server, str(track), monkeypatch)
    for e in calls((2.5, 3.5, 3.5, 4.0)):  # from the file's start again
        append(dict(e))
    assert voiced(server) == [2.5, 3.5, 3.5, 4.0]
    assert server.table.store.events(server.table.gid) == server.table.referee.events


def test_another_file_or_a_microphone_is_taken_whole(tmp_path, monkeypatch):
    track, other = tmp_path / "table.wav", tmp_path / "other.wav"
    for path in (track, other):
        path.write_bytes(b"")
    server = heard_then_restarted(tmp_path, True, track, monkeypatch)
    append = listening(server, str(other), monkeypatch)
    append(calls((2.5,))[0])
    assert voiced(server) == [2.5, 3.5, 2.5]
    server.restart()
    append = listening(server, "0", monkeypatch)  # a microphone: its own clock
    append(calls((1.0,))[0])
    assert voiced(server) == [2.5, 3.5, 2.5, 1.0]
