"""``tableref serve``'s camera path completes its events as ``watch`` does
(vision.handsfree.HandsFree, kept by web.camera.Camera): a copy of the top card
put down by the player who has just drawn waits for the camera's next move,
which sets it aside or lets it stand (the watch path's tests are in
tests/vision/test_handsfree.py)."""

from __future__ import annotations

import sys
import types

import pytest

from web.camera import Camera
from web.commands import _camera_event, _game_state

UNO = {"game": "uno", "rules": "official", "players": ["A", "B", "C"],
       "dealer": "C", "hand_size": 5, "options": {}}


def cam(kind, t, **kw):
    return {"type": kind, "source": "vision", "t": t, **kw}


class Replay:
    """A pipeline that sends the camera events it was given, then ends."""

    events: list[dict] = []
    made: list["Replay"] = []

    def __init__(self, source, on_event=None, **kwargs):
        self.on_event = on_event
        self.sent = 0
        Replay.made.append(self)

    def run(self, stop):
        for e in self.events:
            self.on_event(dict(e))
            self.sent += 1

    def status(self):
        return {"state": "ended", "message": "end of video", "frames": self.sent}


@pytest.fixture
def table(app, client):
    resp = client.post("/api/games", json=UNO)
    assert resp.status_code == 201, resp.get_json()
    return app.extensions["tableref.table"]


def serve_camera(table, monkeypatch, *events):
    """The camera started as ``serve`` starts it, fed ``events``; it has ended."""
    monkeypatch.setitem(sys.modules, "vision.pipeline",
                        types.SimpleNamespace(TablePipeline=Replay))
    monkeypatch.setattr(Replay, "events", list(events))
    camera = Camera()
    assert camera.start("0", table.referee.header.to_dict(),
                        lambda e: _camera_event(table, camera, e),
                        game_state=lambda: _game_state(table))
    camera.thread.join(10)
    assert not camera.thread.is_alive() and not camera.refused
    return camera


def moves(table, n):
    return [(e["type"], e.get("player")) for e in table.referee.events][-n:]


SKIP = (cam("start", 1, card="green-3"),
        cam("play", 2, cards=["green-skip"], reach_from="A"),  # B skipped
        cam("draw", 3, count=1, reach_from="C"),
        cam("play", 4, cards=["green-skip"], reach_from="C"))  # a copy? held


def test_a_copy_after_a_draw_is_held_until_the_cameras_next_move(table, monkeypatch):
    camera = serve_camera(table, monkeypatch, *SKIP)
    assert camera.handsfree.held is not None  # nothing has settled it yet
    assert moves(table, 1) == [("draw", "C")]
    assert table.referee.state()["turn"] == "C"


def test_the_next_seat_moving_where_the_copy_skips_it_sets_the_copy_aside(
        table, monkeypatch):
    # A, the seat after C, draws: C passed; the copy was the top card's box moving
    camera = serve_camera(table, monkeypatch, *SKIP,
                          cam("draw", 6, count=1, reach_from="A"))
    assert moves(table, 3) == [("draw", "C"), ("pass", "C"), ("draw", "A")]
    assert [e["cards"] for e in camera.handsfree.set_aside] == [["green-skip"]]
    assert camera.handsfree.held is None
    assert [(r["t"], r["stood"]) for r in camera.handsfree.ruled] == [(6, False)]


def test_the_seat_the_copy_hands_the_turn_to_moving_lets_it_stand(table, monkeypatch):
    # B moves next: C played the drawn copy, skipping A
    camera = serve_camera(table, monkeypatch, *SKIP,
                          cam("play", 6, cards=["green-4"], reach_from="B"))
    assert moves(table, 3) == [("draw", "C"), ("play", "C"), ("play", "B")]
    assert table.referee.events[-2]["cards"] == ["green-skip"]
    assert not camera.handsfree.set_aside and table.referee.state()["turn"] == "C"
    assert [(r["t"], r["stood"]) for r in camera.handsfree.ruled] == [(6, True)]


def test_a_number_copy_is_set_aside_when_the_drawer_plays(table, monkeypatch):
    camera = serve_camera(table, monkeypatch,
                          cam("start", 1, card="green-3"),
                          cam("draw", 2, count=1, reach_from="A"),
                          cam("play", 3, cards=["green-3"], reach_from="A"),
                          cam("play", 4, cards=["green-8"], reach_from="A"))
    kinds = [(e["type"], e.get("player"), tuple(e.get("cards") or ()))
             for e in table.referee.events]
    assert kinds[-2:] == [("draw", "A", ()), ("play", "A", ("green-8",))]
    assert camera.handsfree.set_aside and table.referee.state()["turn"] == "B"


def test_events_sent_without_a_started_camera_hold_a_copy_too(table):
    """A camera event recorded before any camera was started (a replayed demo
    log) gets a completion that reads the live game's state, so a drawn copy
    is held there as well."""
    camera = Camera()
    assert camera.handsfree is None
    for e in SKIP:
        _camera_event(table, camera, dict(e))
    assert not camera.refused
    assert camera.handsfree.held is not None
    assert moves(table, 1) == [("draw", "C")]


class Listener:
    """The serve listener's hook: notes the table's top card each time the
    camera path asks it to try its waiting colours again."""

    def __init__(self, table) -> None:
        self.table, self.tops = table, []

    def retry_colours(self) -> None:
        self.tops.append(self.table.referee.state()["top"])


def test_a_copy_that_stands_lets_the_listener_try_its_colours_at_once(table):
    """A colour heard while the copy was held can name it as soon as it
    stands, before the settling move is ruled (which would otherwise infer
    the colour)."""
    table.listener = listener = Listener(table)
    camera = Camera()
    for e in (*SKIP, cam("play", 6, cards=["green-4"], reach_from="B")):
        _camera_event(table, camera, dict(e))
    assert not camera.refused
    assert listener.tops == ["green-skip"]  # the copy stood, B's card not yet in
    assert moves(table, 2) == [("play", "C"), ("play", "B")]


def test_a_copy_set_aside_asks_the_listener_nothing(table):
    table.listener = listener = Listener(table)
    camera = Camera()
    for e in (*SKIP, cam("draw", 6, count=1, reach_from="A")):
        _camera_event(table, camera, dict(e))
    assert listener.tops == []


def test_a_tgus_t_card_seen_again_out_of_turn_is_taken_out_as_a_stored_correction(
        app, client):
    """On a tgus-t table, a camera play that only the top card seen again
    explains (an arm passing over the pile) is deleted through the table's
    corrections, so the store keeps the change like a person's."""
    header = {"game": "uno", "rules": "tgus-t1", "players": ["A", "B", "C"],
              "dealer": "C", "hand_size": 5, "options": {}}
    assert client.post("/api/games", json=header).status_code == 201
    table = app.extensions["tableref.table"]
    camera = Camera()
    for e in (cam("start", 1, card="red-5"),
              cam("play", 2, cards=["red-7"], reach_from="A"),
              cam("play", 3, cards=["red-7"], reach_from="C")):
        _camera_event(table, camera, dict(e))
    assert not camera.refused
    assert [e["type"] for e in table.referee.events] == ["start", "play"]
    assert not [r for r in table.referee.rulings if r.ruling == "illegal"]
    # the store holds the corrected log, and the change is undoable
    assert [e["type"] for e in table.store.events(table.gid)] == ["start", "play"]
    assert table.undo()["undid"] == "delete"
    assert len(table.referee.events) == 3
