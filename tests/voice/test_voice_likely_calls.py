"""Likely calls: a call said over most of another voice's word keeps its cut
view just under the cut views' threshold; the game's listener decides a second
time on the same scores with a lower one and reports those calls as likely,
counted only for a player who went down to one card by a play close to the
call."""

from __future__ import annotations

import wave

import pytest

from test_voice_cut_views import cut_trace, overlapped, speak  # noqa: F401
from voicetest_audio import RATE
from voice.audio import to_pcm16
from voice.attribution import LIKELY_PLAY_S
from voice.bridge import listen_into
from voice.kws import LIKELY_HOLD, Decisions, KwsConfig, replay
from voice.spotter import Spotter, SpotterConfig

CFG = KwsConfig(threshold=0.8, min_hits=3, cut_keep=(50, 70), cut_threshold=0.9,
                likely_cut_threshold=0.8)
LOW = [0.1] * 30


def test_cut_views_just_under_their_threshold_make_a_likely_call():
    cuts = [0.0, 0.84, 0.83, 0.85, 0.79, 0.85] + [0.0] * 24
    calls, likely = replay(cut_trace(LOW, cuts), CFG, likely=True)
    assert calls == []
    ((start, end, prob, decided),) = likely
    assert prob == 0.85 and end == pytest.approx(1.0) and decided == pytest.approx(1.15)
    # without a likely threshold (or without cut views) there are none
    for cfg in (KwsConfig(threshold=0.8, min_hits=3, cut_keep=(50, 70),
                          cut_threshold=0.9),
                KwsConfig(threshold=0.8, min_hits=3, likely_cut_threshold=0.8)):
        assert replay(cut_trace(LOW, cuts), cfg, likely=True) == ([], [])


def test_a_likely_call_needs_a_voice_over_the_background():
    """The same cut views in a window that stands only 3.5 dB over the room
    (a card slapped down, no one speaking) make no likely call; a voice 10 dB
    over it does."""
    cuts = [0.0, 0.84, 0.83, 0.85, 0.79, 0.85] + [0.0] * 24

    def with_rise(rise: float) -> list[tuple]:
        return [row + (rise,) for row in cut_trace(LOW, cuts)]

    assert replay(with_rise(3.5), CFG, likely=True) == ([], [])
    assert len(replay(with_rise(10.0), CFG, likely=True)[1]) == 1


def test_a_word_both_decisions_hear_is_one_call_not_a_likely_one():
    """The likely decision fires first (its threshold is lower); the first
    decision then hears the same word within LIKELY_HOLD: no likely call."""
    cuts = [0.0, 0.84, 0.85, 0.86, 0.95, 0.93, 0.96] + [0.0] * 23
    calls, likely = replay(cut_trace(LOW, cuts), CFG, likely=True)
    assert len(calls) == 1 and likely == []
    # the calls without the likely ones are those of a setting without them
    bare = KwsConfig(threshold=0.8, min_hits=3, cut_keep=(50, 70), cut_threshold=0.9)
    assert replay(cut_trace(LOW, cuts), bare) == calls


def test_a_likely_call_waits_its_hold_for_the_first_decision():
    decisions = Decisions(CFG)
    cuts = [0.0, 0.84, 0.83, 0.85] + [0.0] * 26
    settled = []
    for t, prob, level, parts, cut in cut_trace(LOW, cuts):
        assert decisions.step(t, prob, level, parts, cut) == []
        if decisions.likely and not settled:
            settled.append(t)
    # decided at 1.15 s, let out once LIKELY_HOLD has passed with no call
    assert settled and settled[0] == pytest.approx(1.15 + LIKELY_HOLD, abs=0.051)
    # cut short before the hold is over, the end lets it out
    early = Decisions(CFG)
    for row in cut_trace(LOW[:5], cuts[:5]):
        early.step(*row)
    assert early.likely == [] and early.flush(1.2) == [] and len(early.likely) == 1


def spotted(x, gated: bool) -> list:
    spotter = Spotter(config=SpotterConfig(), gated=gated)
    pcm = to_pcm16(x, RATE)
    found = []
    for i in range(0, len(pcm), 3200):
        found += spotter.feed(pcm[i:i + 3200])
    return found + spotter.flush()


def over_most(speak, first, call, seed, share=0.75):
    """``first`` said over ``share`` of the call (the call's length as spoken)."""
    length = len(speak(*call, 165)) / RATE
    return overlapped(speak, first, call, share * length, seed)


@pytest.mark.parametrize("first,call,seed", [
    (("Green!", "en+f3"), ("Uno!", "en+f3"), 0),
    (("Green!", "en+f3"), ("Uno!", "en+f3"), 1),
    (("Red!", "en-us"), ("ウノ!", "ja+f2"), 1),
])
def test_a_call_said_over_most_of_a_colour_is_a_likely_call(speak, first, call,
                                                            seed):
    x, end = over_most(speak, first, call, seed)
    found = spotted(x, gated=True)
    assert [(d.word, d.likely) for d in found] == [("uno", True)]
    assert end - 0.4 <= found[0].end <= end + 0.3
    # an ungated spotter (tableref listen) hears nothing there
    assert spotted(x, gated=False) == []


def test_likely_calls_are_the_game_listeners_only():
    assert SpotterConfig().likely_cut_threshold is not None
    gated = Spotter(config=SpotterConfig(), gated=True)._neural.config
    assert gated.likely_cut_threshold == SpotterConfig().likely_cut_threshold
    assert gated.likely_min_rise == SpotterConfig().likely_min_rise_db
    assert Spotter(config=SpotterConfig())._neural.config.likely_cut_threshold is None
    off = Spotter(config=SpotterConfig(likely_cut_threshold=None), gated=True)
    assert off._neural.config.likely_cut_threshold is None


@pytest.mark.parametrize("text,voice", [
    ("Red seven, and you know what, no.", "en-us"),
    ("つぎは あなたの ばんです、 その あとは わたしの。", "ja+f2"),
])
def test_talk_makes_no_likely_call(speak, text, voice):
    from test_voice_cut_views import talk_in_noise

    x = talk_in_noise(speak, text, voice)
    assert spotted(x, gated=True) == []


def write_wav(path, x) -> str:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(to_pcm16(x, RATE))
    return str(path)


TWO = {"players": ["A", "B", "C"], "hand_counts": {"A": 5, "B": 2, "C": 4},
       "turn": "B", "direction": 1, "uno": [], "catchable": []}
#: B played down to one card without calling; C is to move
DOWN = {**TWO, "hand_counts": {"A": 5, "B": 1, "C": 4}, "turn": "C",
        "catchable": ["B"]}


def test_a_likely_call_no_play_comes_with_is_dropped(speak, tmp_path):
    """B holds two cards and is to move, but is never seen playing: the
    likely call is dropped (an ordinary call there counts for B); where
    nobody holds one or two cards it is dropped as any call is."""
    x, _end = over_most(speak, ("Green!", "en+f3"), ("Uno!", "en+f3"), 0)
    path = write_wav(tmp_path / "over.wav", x)
    for state in (TWO, {**TWO, "hand_counts": {"A": 5, "B": 6, "C": 4}}):
        got = []
        handle = listen_into(got.append, lambda: state, file=path, colours=False)
        handle.join(60)
        assert handle.error is None
        assert got == [] and [d.likely for d in handle.detections] == [True]


@pytest.mark.parametrize("after,counted", [(0.6, True), (-0.6, True),
                                           (LIKELY_PLAY_S + 1.0, False)])
def test_a_likely_call_counts_at_a_play_down_to_one_card_close_to_it(
        speak, tmp_path, after, counted):
    """A recording heard on a game clock (the video's time): B's play down to
    one card seen ``after`` seconds after the call's end (negative: before)."""
    import time

    x, end = over_most(speak, ("Green!", "en+f3"), ("Uno!", "en+f3"), 0)
    path = write_wav(tmp_path / "over.wav", x)
    start = time.monotonic()
    clock = lambda: time.monotonic() - start  # noqa: E731
    state = lambda: DOWN if clock() >= end + after else TWO  # noqa: E731
    got = []
    handle = listen_into(got.append, state, file=path, clock=clock,
                         colours=False)
    handle.join(60)
    assert handle.error is None and [d.likely for d in handle.detections] == [True]
    assert [(e["type"], e["player"], e.get("likely")) for e in got] == (
        [("uno", "B", True)] if counted else [])
