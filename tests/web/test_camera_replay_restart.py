"""``tableref serve`` started again on a game whose camera plays a recording
(a video file, the bundled demo) plays it again from its start: the camera
events this game already took from it are not taken twice (web.pending), so
the game goes on as if the server had not stopped. A live camera's clock
starts again at the restart: its events are all taken."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.web.test_camera_restart import SKIP, STOOD, UNO, Server, cam, uninterrupted
from web.commands import _camera_ended

VIDEO = "/recordings/table.mp4"
MORE = (cam("play", 7, cards=["green-5"], reach_from="C"),
        cam("play", 8, cards=["green-5"], reach_from="A"),  # same time: two events
        cam("play", 8, cards=["green-1"], reach_from="B"))


def playing(server: Server, source: str, live: bool) -> None:
    """The server's camera plays ``source`` (a pipeline stand-in)."""
    camera = server.table.camera
    camera.source = source
    camera.pipeline = SimpleNamespace(source=SimpleNamespace(live=live))


def begun(tmp_path: Path, durable: bool, live: bool = False) -> Server:
    server = Server(tmp_path, durable)
    playing(server, VIDEO, live)
    assert server.app.test_client().post("/api/games", json=UNO).status_code == 201
    return server


@pytest.mark.parametrize("durable", [True, False], ids=["sqlite", "memory"])
@pytest.mark.parametrize("stop", [2, len(SKIP), len(SKIP) + 3])
def test_a_recording_played_again_after_a_restart_is_not_taken_twice(
        tmp_path, durable, stop):
    events = SKIP + STOOD + MORE
    server = begun(tmp_path, durable)
    server.feed(events[:stop])
    server.restart()
    playing(server, VIDEO, live=False)
    server.feed(events)  # from the recording's start again
    _camera_ended(server.table, server.table.camera)
    assert server.table.referee.events == uninterrupted(UNO, events)


def test_another_recording_or_a_live_camera_is_taken_whole(tmp_path):
    server = begun(tmp_path, True)
    server.feed(SKIP[:2])
    server.restart()
    playing(server, "/recordings/another.mp4", live=False)
    server.feed(SKIP[2:3])  # its clock is its own: t 3 taken
    assert len(server.table.referee.events) > 2
    lines = len(server.table.referee.events)
    server.restart()
    playing(server, "0", live=True)  # a live camera: its clock starts at the start
    server.feed((cam("play", 1, cards=["green-9"], reach_from="C"),))
    assert len(server.table.referee.events) > lines


def test_what_was_taken_of_a_recording_is_kept_beside_the_store(tmp_path):
    server = begun(tmp_path, True)
    server.feed(SKIP + STOOD)
    saved = Path(f"{server.database}-camera") / f"game-{server.table.gid}.json"
    assert json.loads(saved.read_text())["replay"] == {
        "source": VIDEO, "camera": {"t": 6.0, "at_t": 1}, "heard": None}


def test_a_sound_track_heard_again_after_a_restart_is_not_held_twice(tmp_path):
    """Heard beside the recording (``serve --listen FILE``), the track plays
    again from its start too: what this game already heard is not held again
    (web.pending.Pending.heard, asked before the table's hearing holds it)."""
    heard = [{"type": "uno", "source": "voice", "t": t} for t in (2.5, 3.5, 3.5)]
    server = begun(tmp_path, True)
    pending = server.table.pending
    with server.table.lock:
        assert [pending.heard(e) for e in heard[:2]] == [True, True]
    server.feed(SKIP[:2])
    server.restart()
    playing(server, VIDEO, live=False)
    pending = server.table.pending
    with server.table.lock:
        assert [pending.heard(e) for e in heard] == [False, False, True]
        assert pending.heard({"type": "uno", "source": "voice", "t": 4.0})


@pytest.mark.parametrize("durable", [True, False], ids=["sqlite", "memory"])
def test_saved_state_older_than_the_log_does_not_stand_a_copy_twice(
        tmp_path, durable, caplog):
    """The server stopped after a camera event's lines were stored and before
    what the camera path then held was saved: the copy held in the older
    saved state already stood, and is not taken up to stand again."""
    server = Server(tmp_path, durable)
    assert server.app.test_client().post("/api/games", json=UNO).status_code == 201
    server.feed(SKIP)  # a copy held, saved
    table = server.table
    with table.lock:
        older = table.pending.data()
    server.feed(STOOD)  # the copy stood with B's move
    _save_as(table, older)  # as if the saving after it never happened
    server.restart()
    after = (cam("play", 7, cards=["green-5"], reach_from="B"),)  # no drawer's move
    server.feed(after)
    assert server.table.referee.events == uninterrupted(UNO, SKIP + STOOD + after)
    assert any("older than the stored log" in r.getMessage() for r in caplog.records)


def _save_as(table, data) -> None:
    from web.pending import _save

    _save(table.store, table.gid, json.dumps(data))


def test_the_count_of_events_dropped_while_paused_is_kept(tmp_path):
    """Pending.dropped: what a paused table had dropped, for the resumed
    table to show (web.table reads it when it resumes a game)."""
    server = Server(tmp_path, True)
    client = server.app.test_client()
    assert client.post("/api/games", json=UNO).status_code == 201
    server.feed(SKIP[:1])
    assert client.post("/api/pause", json={"paused": True}).status_code == 200
    server.feed(SKIP[1:3])
    assert server.table.dropped == 2
    server.restart()
    assert server.table.paused and server.table.pending.dropped == 2
    assert server.table.dropped == 2  # the resumed table shows it


def listening(server: Server, target: str, monkeypatch, **kwargs):
    """``serve --listen target`` (``kwargs``: ``_listen``'s, e.g. ``listen``
    for a track beside the camera): the listener's append, its thread stubbed."""
    import voice.bridge
    from web import commands

    got = {}
    monkeypatch.setattr(voice.bridge, "listen_into",
                        lambda append, state, **kw: got.setdefault("append", append))
    assert commands._listen(server.table, target, **kwargs)
    return got["append"]


def test_the_listener_beside_a_recording_holds_what_a_restart_hears_again(
        tmp_path, monkeypatch):
    """``serve --listen FILE`` beside the camera's recording: the listener's
    events go through Pending.heard before the table's hearing holds them."""
    from web import commands

    track = tmp_path / "table.flac"
    track.write_bytes(b"")
    heard = [{"type": "uno", "source": "voice", "t": t} for t in (2.5, 3.5)]

    def listened(server):
        held = []
        server.table.hearing = SimpleNamespace(hear=held.append, held=held,
                                               waiting=[], calls=[])
        monkeypatch.setattr(commands, "_hearing", lambda *a: server.table.hearing)
        return listening(server, str(track), monkeypatch, listen=object()), held

    server = begun(tmp_path, True)
    append, held = listened(server)
    for e in heard:
        append(dict(e))
    assert [e["t"] for e in held] == [2.5, 3.5]
    server.restart()
    playing(server, VIDEO, live=False)
    append, held = listened(server)
    for e in heard + [{"type": "uno", "source": "voice", "t": 4.0}]:
        append(dict(e))
    assert [e["t"] for e in held] == [4.0]
