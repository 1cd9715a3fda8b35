"""Likely UNO calls in a recording heard beside a video (:mod:`vision.hearing`):
a call heard only by the listener's lower decision (``"likely": True``) counts
only at a play that leaves its player with one card, close to the call; an
ordinary call keeps its rules."""

from __future__ import annotations

import io

import pytest

from vision.config import ListenConfig
from vision.hearing import Hearing
from vision.live import LiveTable
from tests.vision.live_events import cam, uno_header

bridge = pytest.importorskip("voice.bridge")

LIKELY_PLAY_S = ListenConfig().likely_play_s


def call(t: float, likely: bool) -> dict:
    out = {"type": "uno", "source": "voice", "t": t, "word": "uno", "score": 0.5}
    return {**out, "likely": True} if likely else out


def two_cards_each(listen: ListenConfig | None = None) -> LiveTable:
    """A, B and C hold two cards each; A is to play."""
    live = LiveTable(uno_header(2), out=io.StringIO(), config=listen)
    live.attribute = bridge.Attributor()
    live.append(cam("start", 1.0, card="red-7"))
    state = live.referee.state()
    assert state["turn"] == "A" and state["hand_counts"] == {"A": 2, "B": 2, "C": 2}
    return live


def calls(live: LiveTable) -> list:
    return [e["player"] for e in live.referee.events if e["type"] == "uno"]


@pytest.mark.parametrize("likely", [False, True])
def test_a_call_at_a_two_card_play_names_its_player(likely):
    live = two_cards_each()
    live.hear(call(2.5, likely))
    live.append(cam("play", 3.0, cards=["red-3"], reach_from="A"))
    assert calls(live) == ["A"]
    assert [e["type"] for e in live.referee.events] == ["start", "uno", "play"]


@pytest.mark.parametrize("likely", [False, True])
def test_a_likely_call_long_before_the_two_card_play_is_dropped(likely):
    """A plays (with two cards) 3.5 s after the call: within the ordinary
    call's wait, too far for a likely call."""
    live = two_cards_each()
    gap = LIKELY_PLAY_S + 1.5
    assert gap < live.uno_wait
    live.hear(call(2.5, likely))
    live.append(cam("play", 2.5 + gap, cards=["red-3"], reach_from="A"))
    live.finish()
    assert calls(live) == ([] if likely else ["A"])


@pytest.mark.parametrize("likely", [False, True])
def test_a_likely_call_no_play_follows_is_dropped(likely):
    """A holds two cards and is to move, but draws: no play leaves anyone
    with one card; the ordinary call goes to the attributor on the state of
    then (A drew and passes, B plays next with two cards)."""
    live = two_cards_each()
    live.hear(call(2.5, likely))
    live.append(cam("draw", 3.0, count=1, reach_from="A"))
    live.append(cam("draw", 2.5 + live.uno_wait + 1, count=1, reach_from="B"))
    live.finish()
    assert calls(live) == ([] if likely else ["B"])


@pytest.mark.parametrize("likely", [False, True])
def test_a_likely_call_just_after_a_play_down_to_one_card_names_its_player(likely):
    live = two_cards_each()
    live.append(cam("play", 3.0, cards=["red-3"], reach_from="A"))  # no call yet
    assert live.referee.state()["catchable"] == ["A"]
    live.hear(call(3.0 + LIKELY_PLAY_S - 0.5, likely))
    live.append(cam("draw", 6.0, count=1, reach_from="B"))
    live.finish()
    assert calls(live) == ["A"]


@pytest.mark.parametrize("likely", [False, True])
def test_a_likely_call_long_after_the_play_down_to_one_card_is_dropped(likely):
    """A went down to one card 3.5 s before the call and is still catchable:
    an ordinary call is A's late call, a likely one is not."""
    live = two_cards_each()
    live.append(cam("play", 3.0, cards=["red-3"], reach_from="A"))
    assert live.referee.state()["catchable"] == ["A"]
    live.hear(call(3.0 + LIKELY_PLAY_S + 1.5, likely))
    live.append(cam("draw", 7.5, count=1, reach_from="B"))
    live.finish()
    assert calls(live) == ([] if likely else ["A"])


@pytest.mark.parametrize("likely", [False, True])
def test_a_likely_call_at_a_play_by_a_player_with_more_cards_is_dropped(likely):
    """B holds three cards (drew one) when it plays right after the call, and
    A went down to one card 3 s before it: the ordinary call is A's (down to
    one card, not called), the likely one nobody's."""
    live = two_cards_each()
    live.append(cam("play", 3.0, cards=["red-3"], reach_from="A"))
    live.append(cam("draw", 4.0, count=1, reach_from="B"))
    t = 3.0 + LIKELY_PLAY_S + 1.0
    live.hear(call(t, likely))
    live.append(cam("play", t + 0.5, cards=["red-5"], reach_from="B"))
    live.finish()
    assert calls(live) == ([] if likely else ["A"])


def test_while_a_question_is_open_a_likely_call_needs_two_cards_counted():
    """With a question open the play after an ordinary call names its player
    whatever the counts say; a likely call still needs two cards counted."""
    made = []
    for likely in (False, True):
        events: list = []
        hearing = Hearing(lambda e: events.append(e) or [],
                          lambda: {"players": ["A", "B", "C"], "turn": "A",
                                   "hand_counts": {"A": 4, "B": 2, "C": 2},
                                   "uno": [], "catchable": []},
                          doubt=lambda: True)
        hearing.attribute = bridge.Attributor()
        hearing.hear(call(2.5, likely))
        hearing.release(3.0)
        hearing.calls_before(3.0, cam("play", 3.0, cards=["red-3"], player="A"))
        made.append([e["player"] for e in events])
    assert made == [["A"], []]


def test_the_listener_marks_likely_calls_in_its_events():
    from voice.detection import Detection

    det = Detection("uno", 1.0, 1.4, 0, float("inf"), 0.4, float("inf"), 0.82,
                    engine="neural")
    assert "likely" not in bridge._unattributed(det, 1.4)
    import dataclasses

    likely = bridge._unattributed(dataclasses.replace(det, likely=True), 1.4)
    assert likely["likely"] is True and "player" not in likely


def test_the_attributor_drops_a_player_it_may_not_name():
    state = {"players": ["A", "B", "C"], "turn": "A",
             "hand_counts": {"A": 2, "B": 5, "C": 5}, "uno": [], "catchable": []}
    attributor = bridge.Attributor()
    heard = call(2.0, True)
    assert attributor(heard, state, accept=lambda p: "not now") is None
    assert attributor.recent == []  # nobody credited, so no repeat to skip
    assert attributor(heard, state, accept=lambda p: None)["player"] == "A"


def test_a_microphone_listener_takes_the_configs_window_by_default():
    from voice.attribution import LIKELY_PLAY_S as heard_live

    assert LIKELY_PLAY_S == heard_live


def test_the_window_is_the_configs():
    """The same call 3.5 s before the two-card play counts where
    ``listen.likely_play_s`` reaches that far."""
    gap = LIKELY_PLAY_S + 1.5
    live = two_cards_each(ListenConfig(likely_play_s=gap + 0.5))
    live.hear(call(2.5, True))
    live.append(cam("play", 2.5 + gap, cards=["red-3"], reach_from="A"))
    live.finish()
    assert calls(live) == ["A"]
