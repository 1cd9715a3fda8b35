"""A likely UNO call heard beside the camera's recording (``serve --listen
FILE``) counts only for a player who went down to one card by a play close to
it (:class:`voice.attribution.DownClock`, ``vision.hearing.Hearing.downs``).
Who went down and when is not a line of the log: a server started again on
the same store reads it again from the resumed game's log
(:meth:`vision.hearing.Hearing.rebuild`, taken up by ``web.pending``), so the
call still counts after a restart, as if the server had not stopped."""

from __future__ import annotations

import io

import pytest

from tests.web.test_camera_restart import Server
from vision.config import ListenConfig
from vision.live import LiveTable
from web.commands import _camera_ended, _camera_event, _hearing

bridge = pytest.importorskip("voice.bridge")

TWO_EACH = {"game": "uno", "rules": "official", "players": ["A", "B", "C"],
            "dealer": "C", "hand_size": 2, "options": {}}
LIKELY = {"type": "uno", "source": "voice", "t": 3.8, "word": "uno",
          "score": 0.5, "likely": True}


def cam(kind, t, **kw):
    return {"type": kind, "source": "vision", "t": t, **kw}


# A plays down to one card at 3.0 without a call; the likely call comes 0.8 s
# after (within listen.likely_play_s); B's draw at 6.0 lets it out, past the
# wait for a play, to the attributor (A went down and had not called)
STEPS = (("cam", cam("start", 1.0, card="red-7")),
         ("cam", cam("play", 3.0, cards=["red-3"], reach_from="A")),
         ("hear", LIKELY),
         ("cam", cam("draw", 6.0, count=1, reach_from="B")),
         ("cam", cam("play", 9.0, cards=["red-9"], reach_from="C")))


def listening(server: Server) -> None:
    """The server's table holds a sound track's heard events (``serve
    --listen FILE`` beside the camera's recording), as serve makes it."""
    listen = ListenConfig()
    server.table.hearing = _hearing(listen, listen.colour_after_s)


def feed(server: Server, steps) -> None:
    table = server.table
    for kind, e in steps:
        if kind == "hear":
            with table.lock:  # as serve's listener holds it (web.commands._listen)
                table.pending.take_up(table.camera)
                table.hearing.hear(dict(e))
                table.pending.save()
        else:
            _camera_event(table, table.camera, dict(e))
    assert not table.camera.refused, table.camera.last_refusal


def uninterrupted(steps) -> list[dict]:
    live = LiveTable({"type": "game", **TWO_EACH}, out=io.StringIO())
    live.attribute = bridge.Attributor(after=ListenConfig().colour_after_s)
    for kind, e in steps:
        (live.hear if kind == "hear" else live.append)(dict(e))
    live.finish()
    return live.referee.events


def calls(events) -> list:
    return [(e["player"], e.get("likely")) for e in events if e["type"] == "uno"]


def test_without_a_restart_the_likely_call_counts():
    assert calls(uninterrupted(STEPS)) == [("A", True)]


@pytest.mark.parametrize("durable", [True, False], ids=["sqlite", "memory"])
@pytest.mark.parametrize("stop", [1, 2, 3], ids=[
    "before-the-play-down", "after-the-play-down", "call-held-at-the-restart"])
def test_a_likely_call_still_counts_after_a_restart(tmp_path, durable, stop):
    """Stopped before A's play down to one card (the resumed hearing must
    know the hands as they were, to see A go down), after it (it must know
    when A went down), or with the call heard and held for the camera (kept
    beside the store, its player's play before the restart)."""
    server = Server(tmp_path, durable)
    assert server.app.test_client().post("/api/games", json=TWO_EACH).status_code == 201
    listening(server)
    feed(server, STEPS[:stop])
    server.restart()
    assert server.table.referee is not None  # the game was resumed
    listening(server)  # serve makes its hearing again at its start
    feed(server, STEPS[stop:])
    _camera_ended(server.table, server.table.camera)
    events = server.table.referee.events
    assert calls(events) == [("A", True)]
    assert events == uninterrupted(STEPS)
    assert server.table.store.events(server.table.gid) == events


def test_a_new_game_starts_with_nothing_of_the_last_ones_downs(tmp_path):
    """A's play down to one card in the last game does not let a likely call
    count in the next one, where A holds two cards and draws (the call is
    dropped: A went down to one card by no play close to it)."""
    server = Server(tmp_path, durable=True)
    client = server.app.test_client()
    assert client.post("/api/games", json=TWO_EACH).status_code == 201
    listening(server)
    feed(server, STEPS[:2])  # A went down at 3.0
    assert client.post("/api/games", json=TWO_EACH).status_code == 201
    feed(server, (("cam", cam("start", 1.0, card="red-7")),
                  ("hear", LIKELY),
                  ("cam", cam("draw", 6.0, count=1, reach_from="A"))))
    _camera_ended(server.table, server.table.camera)
    assert calls(server.table.referee.events) == []


def test_a_call_held_when_a_new_game_begins_makes_no_event_in_it(tmp_path):
    """A call heard in the last game, held for the camera when a new game
    begins, is not let into the new one (where A's play down to one card
    would name A the caller): it was heard in the last game."""
    server = Server(tmp_path, durable=True)
    client = server.app.test_client()
    assert client.post("/api/games", json=TWO_EACH).status_code == 201
    listening(server)
    feed(server, STEPS[:2] + (("hear", {"type": "uno", "source": "voice",
                                        "t": 3.8}),))
    assert server.table.hearing.held  # the camera has not reached it
    assert client.post("/api/games", json=TWO_EACH).status_code == 201
    feed(server, (("cam", cam("start", 5.0, card="red-7")),
                  ("cam", cam("play", 6.0, cards=["red-3"], reach_from="A")),
                  ("cam", cam("draw", 9.0, count=1, reach_from="B"))))
    _camera_ended(server.table, server.table.camera)
    assert [e["type"] for e in server.table.referee.events] == [
        "start", "play", "draw"]
    assert calls(server.table.store.events(1)) == []  # nor in the last game's log


def test_a_log_the_hearing_cannot_read_again_leaves_the_game_going(
        tmp_path, monkeypatch, caplog):
    from vision.hearing import Hearing

    def broken(self, referee, new_game=False):
        raise RuntimeError("broken")

    server = Server(tmp_path, durable=True)
    assert server.app.test_client().post("/api/games", json=TWO_EACH).status_code == 201
    listening(server)
    feed(server, STEPS[:2])
    server.restart()
    listening(server)
    monkeypatch.setattr(Hearing, "rebuild", broken)
    feed(server, STEPS[2:])
    assert server.table.referee.events[-1]["cards"] == ["red-9"]
    assert any("not read again from the log" in r.getMessage()
               for r in caplog.records)
