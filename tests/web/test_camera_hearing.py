"""``tableref serve`` holds a sound track's heard events as ``tableref watch``
does (web.recover and vision.live.LiveTable share vision.hearing.Hearing):
UNO calls and wild colours heard beside a video wait for the camera to reach
their time, a call for the play it comes with, a colour for its wild, so the
page and the command line give the same log and rulings on the same camera
and heard events."""

from __future__ import annotations

import io

import pytest

from tests.vision.live_events import cam
from vision.config import ListenConfig
from vision.live import LiveTable
from web.camera import Camera
from web.commands import _camera_ended, _camera_event, _hearing

bridge = pytest.importorskip("voice.bridge")

HEADER = {"type": "game", "game": "uno", "rules": "official",
          "players": ["A", "B", "C"], "dealer": "C", "hand_size": 5, "options": {}}


def heard(kind, t, **kw):
    return ("hear", {"type": kind, "source": "voice", "t": t, **kw})


def seen(kind, t, **kw):
    return ("cam", cam(kind, t, **kw))


DRAWER_AND_NEXT_HOLD_TWO = (  # tests.vision.test_live_hearing, hand_size 3
    seen("start", 1.0, card="red-7"),
    seen("play", 5.0, cards=["red-3"], reach_from="A"),
    seen("play", 10.0, cards=["red-4"], reach_from="B"),
    seen("play", 15.0, cards=["red-5"], reach_from="C"),
    heard("uno", 19.5),
    seen("play", 20.0, cards=["red-6"], reach_from="A"),
    seen("draw", 25.0, count=1, reach_from="B"),
    seen("play", 26.0, cards=["red-8"], reach_from="B"),
    seen("draw", 30.0, count=1, reach_from="C"),
    seen("draw", 35.0, count=1, reach_from="A"),
)
OPENING = (
    seen("start", 1.0, card="red-7"),
    seen("play", 2.0, cards=["red-3"], reach_from="A"),
)
CASES = {
    # the play a call comes with names the caller (B, not A who drew)
    "call-before-its-play": (dict(HEADER, hand_size=3), (
        *DRAWER_AND_NEXT_HOLD_TWO,
        heard("uno", 36.0),
        seen("play", 36.8, cards=["red-9"], reach_from="B"),
    )),
    # a call no play follows in time: the attributor on the state of then
    "call-waited-out": (dict(HEADER, hand_size=3), (
        *DRAWER_AND_NEXT_HOLD_TWO,
        heard("uno", 36.0),
        seen("draw", 36.5, count=1, reach_from="A"),
        seen("draw", 40.0, count=1, reach_from="B"),
    )),
    # a question open: the play after the call names the caller
    "call-while-a-question-is-open": (dict(HEADER, hand_size=3), (
        *DRAWER_AND_NEXT_HOLD_TWO,
        seen("play", 36.0, cards=["green-1"], reach_from="C"),
        heard("uno", 40.0),
        seen("play", 40.6, cards=["red-1"], reach_from="C"),
    )),
    # a colour said before the wild is seen, the last one heard naming it; a
    # colour heard while a drawn wild is held names it once it stands
    "colours-and-a-held-wild": (HEADER, (
        *OPENING,
        heard("color", 3.2, color="red"),
        heard("color", 3.3, color="green"),
        seen("play", 3.6, cards=["wild"], reach_from="B"),
        seen("draw", 5.0, count=1, reach_from="C"),
        seen("play", 6.0, cards=["wild"], reach_from="C"),
        heard("color", 6.4, color="blue"),
        seen("play", 8.0, cards=["blue-2"], reach_from="A"),
    )),
    # table talk waited out; a colour heard after the last camera event
    "colours-at-the-end": (HEADER, (
        *OPENING,
        heard("color", 3.0, color="green"),
        seen("play", 3.5, cards=["red-4"], reach_from="B"),
        seen("play", 8.0, cards=["red-9"], reach_from="C"),
        seen("play", 9.0, cards=["wild"], reach_from="A"),
        heard("color", 10.0, color="yellow"),
    )),
}


def page(app, client, header, steps):
    resp = client.post("/api/games", json=header)
    assert resp.status_code == 201, resp.get_json()
    table = app.extensions["tableref.table"]
    table.camera = camera = Camera()
    table.hearing = _hearing(ListenConfig(), ListenConfig().colour_after_s)
    for kind, e in steps:
        if kind == "hear":
            with table.lock:
                table.hearing.hear(dict(e))
        else:
            _camera_event(table, camera, dict(e))
    _camera_ended(table, camera)  # the video's end
    assert not camera.refused, camera.last_refusal
    return table


def cli(header, steps) -> LiveTable:
    live = LiveTable(dict(header), out=io.StringIO())
    live.attribute = bridge.Attributor(after=ListenConfig().colour_after_s)
    for kind, e in steps:
        (live.hear if kind == "hear" else live.append)(dict(e))
    live.finish()
    return live


def rulings(referee) -> list[tuple]:
    return [(r.event, r.ruling, r.rule, r.text) for r in referee.rulings]


@pytest.mark.parametrize("name", list(CASES))
def test_the_page_holds_heard_events_as_the_command_line(app, client, name):
    header, steps = CASES[name]
    table = page(app, client, header, steps)
    live = cli(header, steps)
    assert [e for e in live.referee.events if e.get("source") == "voice"]
    assert table.referee.events == live.referee.events
    assert rulings(table.referee) == rulings(live.referee)
    assert table.store.events(table.gid) == table.referee.events


def test_the_play_a_call_comes_with_names_the_caller_on_the_page(app, client):
    header, steps = CASES["call-before-its-play"]
    table = page(app, client, header, steps)
    uno = [e for e in table.referee.events if e["type"] == "uno"]
    assert [e["player"] for e in uno] == ["A", "B"]
    kinds = [e["type"] for e in table.referee.events[-3:]]
    assert kinds == ["pass", "uno", "play"]


def test_a_paused_table_drops_what_it_hears(app, client):
    header, steps = CASES["call-before-its-play"]
    table = page(app, client, header, steps[:-2])
    table.paused = True
    with table.lock:
        table.hearing.hear(dict(steps[-2][1]))
    _camera_event(table, table.camera, dict(steps[-1][1]))
    assert [e["type"] for e in table.referee.events].count("uno") == 1


def test_serve_hears_a_sound_track_beside_the_camera_as_watch_does(
        app, client, tmp_path, monkeypatch):
    # the listener reads the file ahead on the video's clock, its events
    # without a player; the table holds them for the camera
    got: dict = {}

    def listen_into(append, state, **kwargs):
        got.update(kwargs)
        append({"type": "uno", "source": "voice", "t": 2.5})
        return type("Handle", (), {"heard_until": float("inf")})()

    monkeypatch.setattr(bridge, "listen_into", listen_into)
    from web.commands import _listen

    track = tmp_path / "track.wav"
    track.write_bytes(b"")
    client.post("/api/games", json=dict(HEADER, hand_size=2))
    table = app.extensions["tableref.table"]
    table.camera = camera = Camera()
    table.listener = _listen(table, str(track), 3.0, ListenConfig())
    assert got["attribute_later"] and got["file"] == str(track)
    assert "realtime" not in got and callable(got["clock"])
    assert table.hearing.held and not table.referee.events[1:]
    _camera_event(table, camera, cam("start", 1.0, card="red-7"))
    _camera_event(table, camera, cam("play", 3.0, cards=["red-3"], reach_from="A"))
    assert [(e["type"], e.get("player")) for e in table.referee.events] == [
        ("start", None), ("uno", "A"), ("play", "A")]
