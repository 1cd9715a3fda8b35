"""``tableref serve``'s camera path re-reads a tgus-t game as ``watch`` does
(web.reread over vision.reread_tgus_t): a camera event whose lines stay ruled
illegal asks for a re-read, which runs off the camera's callback and is stored
as a correction of the earlier event, announced with a ruling that says why in
the viewer's language."""

from __future__ import annotations

import threading

import pytest

from referee.text import render_data
from tests.vision.live_events import blocking_reread
from web.camera import Camera
from web.commands import _camera_event

TGUS_T = {"game": "uno", "rules": "tgus-t1", "players": ["A", "B", "C"],
          "dealer": "C", "hand_size": 5, "options": {}}


def cam(kind, t, **kw):
    return {"type": kind, "source": "vision", "t": t, **kw}


# A's Gamble was said to be a Hit+? (not heard): read as it came, A's reach
# into the draw pile and the card landing from A's seat leave lines ruled
# illegal that no one-line amendment explains
GAMBLE = (cam("start", 1, card="red-5"),
          cam("play", 3, cards=["gamble"], reach_from="A"),
          cam("draw", 4, count=1, reach_from="A"),
          cam("play", 5, cards=["blue-7"], reach_from="A"))


@pytest.fixture
def table(app, client):
    assert client.post("/api/games", json=TGUS_T).status_code == 201
    return app.extensions["tableref.table"]


def camera_for(table, mode):
    camera = Camera()
    camera.reread_mode = mode
    table.camera = camera  # as serve sets it
    return camera


def feed(table, camera, *events):
    for e in events:
        _camera_event(table, camera, dict(e))
    assert not camera.refused, camera.last_refusal


def kinds(events):
    return [e["type"] for e in events]


def illegal(table):
    return [r for r in table.referee.rulings if r.ruling == "illegal"]


def test_a_re_read_is_stored_as_a_correction_with_a_ruling_that_says_why(table):
    camera = camera_for(table, "inline")
    feed(table, camera, *GAMBLE)
    assert kinds(table.referee.events) == ["start", "play", "turned"]
    assert table.referee.events[1]["effect"] == "wild-hit-x"
    assert not illegal(table)
    # the store holds the corrected log
    assert kinds(table.store.events(table.gid)) == ["start", "play", "turned"]
    assert table.store.events(table.gid)[1]["effect"] == "wild-hit-x"
    # announced as a change of the Gamble's line; its new ruling names its
    # rule and says why, in each language
    change = table.last_change
    assert change["action"] == "correct" and change["line"] == 2
    gamble = [r for r in change["added"] if r["event"] == 2]
    assert gamble and gamble[-1]["rule"].startswith("tgus-t1.")
    msg = gamble[-1]["msg"]
    assert "Gamble had the effect wild-hit-x" in render_data(msg, "en")
    assert "ギャンブル" in render_data(msg, "ja")
    kinds_on_feed = [kind for _, kind, _, _ in table.feed]
    assert "change" in kinds_on_feed
    # the camera carries on with the reading's completion: B owes 7
    assert table.referee.state()["pending_draw"] == 7
    feed(table, camera, cam("draw", 6, count=7, reach_from="B"))
    assert kinds(table.referee.events)[-1] == "draw"
    assert table.referee.state()["turn"] == "C" and not illegal(table)


def test_the_camera_callback_does_not_run_the_re_read(table):
    camera = camera_for(table, "manual")
    feed(table, camera, *GAMBLE)
    # asked for, not run: the log is as the camera read it
    assert camera.rereads.worker.pending == 1
    assert "effect" not in table.referee.events[1]
    assert illegal(table)
    feed(table, camera, cam("draw", 6, count=7, reach_from="B"))  # goes in meanwhile
    camera.rereads.wait()
    assert kinds(table.referee.events) == ["start", "play", "turned", "draw"]
    assert kinds(table.store.events(table.gid)) == kinds(table.referee.events)
    assert not illegal(table)


def test_the_serve_worker_is_a_thread_of_its_own(table, monkeypatch):
    started, release, threads = blocking_reread(monkeypatch)
    camera = camera_for(table, "thread")
    feed(table, camera, *GAMBLE)  # returns while the re-read runs
    assert started.wait(30)
    assert threads[0] is not threading.current_thread()
    assert "effect" not in table.referee.events[1]
    release.set()
    camera.rereads.worker.close()
    assert table.referee.events[1]["effect"] == "wild-hit-x"
    assert not illegal(table)


def test_a_persons_correction_ends_the_re_reads(table):
    camera = camera_for(table, "manual")
    feed(table, camera, *GAMBLE)
    table.delete(4)  # the person's word stands
    camera.rereads.wait()
    assert "effect" not in table.referee.events[1]
    assert camera.rereads.stopped


def test_a_standard_game_keeps_no_re_reads(app, client):
    header = {**TGUS_T, "rules": "official"}
    assert client.post("/api/games", json=header).status_code == 201
    table = app.extensions["tableref.table"]
    camera = camera_for(table, "inline")
    feed(table, camera, cam("start", 1, card="red-5"),
         cam("play", 2, cards=["red-7"], reach_from="A"))
    assert camera.rereads is None
