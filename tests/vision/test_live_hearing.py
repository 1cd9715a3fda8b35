"""A recording heard beside a video (issue 25, items 5 and 6): heard events wait
for the camera to reach their time and are attributed then; a colour said
before the camera has seen its wild waits for the wild a few seconds."""

from __future__ import annotations

import io

import pytest

from vision.live import LiveTable
from tests.vision.live_events import cam

bridge = pytest.importorskip("voice.bridge")

HEADER = {"type": "game", "game": "uno", "rules": "official",
          "players": ["A", "B", "C"], "dealer": "C", "hand_size": 5, "options": {}}


def heard(kind, t, **kw):
    return {"type": kind, "source": "voice", "t": t, **kw}


def table() -> LiveTable:
    live = LiveTable(dict(HEADER), out=io.StringIO())
    live.attribute = bridge.Attributor()
    live.append(cam("start", 1.0, card="red-7"))
    live.append(cam("play", 2.0, cards=["red-3"], reach_from="A"))
    return live


def colours(live):
    return [(e.get("player"), e["color"], e.get("source"))
            for e in live.referee.events if e["type"] == "color"]


def test_a_colour_said_before_the_camera_sees_the_wild_names_it():
    live = table()
    live.hear(heard("color", 3.2, color="blue"))
    live.append(cam("play", 3.6, cards=["wild"], reach_from="B"))
    assert colours(live) == [("B", "blue", "voice")]
    colour = [e for e in live.referee.events if e["type"] == "color"][0]
    assert colour["t"] >= 3.6  # written when it could be attributed
    live.append(cam("play", 5.0, cards=["blue-2"], reach_from="C"))
    assert colours(live) == [("B", "blue", "voice")]  # nothing inferred as well


def test_the_last_colour_heard_names_the_wild():
    live = table()
    live.hear(heard("color", 3.0, color="red"))
    live.hear(heard("color", 3.3, color="blue"))  # "red... no, blue"
    live.append(cam("play", 3.6, cards=["wild"], reach_from="B"))
    assert colours(live) == [("B", "blue", "voice")]


def test_a_colour_no_wild_comes_for_is_dropped_after_the_wait():
    live = table()
    live.hear(heard("color", 3.0, color="green"))  # table talk
    live.append(cam("play", 3.5, cards=["red-4"], reach_from="B"))
    assert live.waiting  # it may still name a wild the camera has not seen
    live.append(cam("play", 3.0 + live.colour_wait + 0.5, cards=["red-9"],
                    reach_from="C"))
    assert not live.waiting
    live.append(cam("play", 8.0, cards=["wild"], reach_from="A"))
    live.finish()
    assert colours(live) == []


def test_a_colour_heard_late_after_its_wild_still_names_it():
    live = table()
    live.append(cam("play", 3.0, cards=["wild"], reach_from="B"))
    live.hear(heard("color", 4.0, color="yellow"))
    live.finish()
    assert colours(live) == [("B", "yellow", "voice")]


def test_an_uno_call_is_attributed_when_the_camera_reaches_it():
    live = LiveTable(dict(HEADER, hand_size=2), out=io.StringIO())
    live.attribute = bridge.Attributor()
    live.append(cam("start", 1.0, card="red-7"))
    live.hear(heard("uno", 2.5))  # A holds two cards and is to play
    live.append(cam("play", 3.0, cards=["red-3"], reach_from="A"))
    calls = [e for e in live.referee.events if e["type"] == "uno"]
    assert [c["player"] for c in calls] == ["A"]
    assert [e["type"] for e in live.referee.events] == ["start", "uno", "play"]


def _drawer_and_next_both_hold_two() -> LiveTable:
    """A drew her second card and will pass; B, next, holds two as well."""
    live = LiveTable(dict(HEADER, hand_size=3), out=io.StringIO())
    live.attribute = bridge.Attributor()
    for e in (cam("start", 1.0, card="red-7"),
              cam("play", 5.0, cards=["red-3"], reach_from="A"),
              cam("play", 10.0, cards=["red-4"], reach_from="B"),
              cam("play", 15.0, cards=["red-5"], reach_from="C")):
        live.append(e)
    live.hear(heard("uno", 19.5))
    for e in (cam("play", 20.0, cards=["red-6"], reach_from="A"),
              cam("draw", 25.0, count=1, reach_from="B"),
              cam("play", 26.0, cards=["red-8"], reach_from="B"),
              cam("draw", 30.0, count=1, reach_from="C"),
              cam("draw", 35.0, count=1, reach_from="A")):
        live.append(e)
    state = live.referee.state()
    assert state["phase"] == "drawn" and state["turn"] == "A"
    assert state["hand_counts"] == {"A": 2, "B": 2, "C": 3}
    return live


def calls(live):
    return [e["player"] for e in live.referee.events if e["type"] == "uno"]


def test_the_play_an_uno_call_comes_with_names_the_caller():
    live = _drawer_and_next_both_hold_two()
    live.hear(heard("uno", 36.0))  # B, about to play the next-to-last card
    live.append(cam("play", 36.8, cards=["red-9"], reach_from="B"))
    assert calls(live) == ["A", "B"]
    kinds = [e["type"] for e in live.referee.events[-3:]]
    assert kinds == ["pass", "uno", "play"]  # A passed; B called, then played


def test_the_drawer_calls_when_she_plays_the_drawn_card():
    live = _drawer_and_next_both_hold_two()
    live.hear(heard("uno", 36.0))
    live.append(cam("play", 36.8, cards=["red-2"], reach_from="A"))
    assert calls(live) == ["A", "A"]


def test_a_call_no_play_follows_is_left_to_the_attributor():
    live = _drawer_and_next_both_hold_two()
    live.hear(heard("uno", 36.0))
    live.append(cam("draw", 36.5, count=1, reach_from="A"))  # no play yet: waits
    assert calls(live) == ["A"] and live.calls
    live.append(cam("draw", 36.0 + live.uno_wait + 1, count=1, reach_from="B"))
    assert not live.calls  # waited out: judged on the state of then


def test_while_a_question_is_open_the_play_after_a_call_names_the_caller():
    live = _drawer_and_next_both_hold_two()
    live.append(cam("play", 36.0, cards=["green-1"], reach_from="C"))  # held
    assert any(q["open"] for q in live.asked)
    assert live.referee.state()["hand_counts"]["C"] == 3  # it changed nothing
    live.hear(heard("uno", 40.0))
    live.append(cam("play", 40.6, cards=["red-1"], reach_from="C"))
    assert calls(live) == ["A", "C"]


def test_the_waits_are_config_fields():
    from types import SimpleNamespace

    from vision.config import ListenConfig, PipelineConfig

    short = ListenConfig(colour_wait_s=1.0)
    live = LiveTable(dict(HEADER), out=io.StringIO(), config=short)
    live.attribute = bridge.Attributor()
    live.append(cam("start", 1.0, card="red-7"))
    live.append(cam("play", 2.0, cards=["red-3"], reach_from="A"))
    live.hear(heard("color", 3.0, color="green"))
    live.append(cam("play", 4.5, cards=["red-4"], reach_from="B"))
    assert not live.waiting  # 1.5 s later: past the table's own 1 s wait
    assert table().colour_wait > 1.5  # the default keeps it longer
    other = LiveTable(dict(HEADER), out=io.StringIO())
    other.pipeline = SimpleNamespace(
        config=PipelineConfig().updated({"listen.uno_wait_s": 2.0})
    )
    assert other.uno_wait == 2.0  # the pipeline's configuration


def test_a_colour_heard_while_a_drawn_wild_is_held_names_it_once_it_stands():
    # C draws, then the camera sees C put down a wild on the wild: held until
    # the next move; "blue" is heard meanwhile; A's move lets the copy stand,
    # and the table's hook (HandsFree.on_stood) names its colour from the
    # sound before A's blue play is completed (which would infer it)
    def game(hook=True):
        live = table()
        live.hear(heard("color", 3.3, color="green"))
        live.append(cam("play", 3.0, cards=["wild"], reach_from="B"))
        live.append(cam("draw", 5.0, count=1, reach_from="C"))
        live.append(cam("play", 6.0, cards=["wild"], reach_from="C"))
        assert live.doubt is not None
        if not hook:
            live.handsfree.on_stood = None
        live.hear(heard("color", 6.4, color="blue"))
        live.append(cam("play", 8.0, cards=["blue-2"], reach_from="A"))
        return live

    live = game()
    assert colours(live) == [("B", "green", "voice"), ("C", "blue", "voice")]
    kinds = [(e["type"], e.get("player")) for e in live.referee.events][-3:]
    assert kinds == [("play", "C"), ("color", "C"), ("play", "A")]
    live = game(hook=False)  # without it, the play names the colour instead
    assert [c[2] for c in colours(live)] == ["voice", "vision"]
