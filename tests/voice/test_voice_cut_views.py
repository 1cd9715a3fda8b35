"""The neural UNO spotter's cut views: a call said over the end of another
voice's word (a colour named for a wild while the next player calls) is heard,
because each window is also scored with only its last frames kept; the decision
rule that counts a cut view's hit; and cut views that cost nothing where nothing
is said."""

from __future__ import annotations

import math
import shutil

import numpy as np
import pytest

from voicetest_audio import RATE, noise
from voice.audio import to_pcm16
from voice.kws import KwsConfig, NeuralSpotter, replay
from voice.spotter import Spotter, SpotterConfig, load_model


def cut_trace(full: list[float], cut: list[float], t0: float = 1.0,
              hop: float = 0.05) -> list[tuple]:
    """A recorded trace of a spotter with cut views: ``(t, prob, level, None,
    cut)`` per window."""
    return [(t0 + i * hop, p, -30.0, None, c) for i, (p, c) in enumerate(zip(full, cut))]


def test_a_run_of_cut_view_hits_fires_one_call():
    cfg = KwsConfig(threshold=0.8, min_hits=3, cut_keep=(50, 70), cut_threshold=0.9)
    low = [0.1] * 6
    ((start, end, prob, decided),) = replay(
        cut_trace(low, [0.0, 0.95, 0.92, 0.97, 0.1, 0.0]), cfg)
    assert prob == 0.97 and math.isclose(end, 1.0) and math.isclose(decided, 1.15)
    # under the cut views' own threshold (though over the call threshold): nothing
    assert replay(cut_trace(low, [0.0, 0.85, 0.88, 0.89, 0.1, 0.0]), cfg) == []
    # a window is a hit by either view: two whole-window hits and one cut view's
    mixed = replay(cut_trace([0.1, 0.85, 0.1, 0.9, 0.1, 0.1],
                             [0.0, 0.2, 0.95, 0.3, 0.0, 0.0]), cfg)
    assert len(mixed) == 1
    # a setting without cut views ignores what the trace recorded of them
    bare = KwsConfig(threshold=0.8, min_hits=3)
    assert replay(cut_trace(low, [0.0, 0.95, 0.92, 0.97, 0.1, 0.0]), bare) == []


def test_the_listener_scores_cut_views_by_default():
    config = SpotterConfig()
    assert config.cut_keep and all(0 < k < 100 for k in config.cut_keep)
    spotter = Spotter(config=config)
    kws = spotter._neural.config
    assert kws.cut_keep == tuple(config.cut_keep)
    assert kws.cut_threshold == config.cut_threshold
    assert kws.cut_noise == config.cut_noise
    assert Spotter(config=SpotterConfig(cut_keep=()))._neural.config.cut_keep == ()


def test_cut_views_are_scored_only_where_something_is_said():
    """Noise alone: the network says noise, no cut view is scored (one pass a
    window); the trace keeps its three fields."""
    cfg = KwsConfig(threshold=0.8, min_hits=3, cut_keep=(50, 70), cut_noise=0.5)
    spotter = NeuralSpotter(load_model(), cfg, record=True)
    pcm = to_pcm16(noise(3.0, level=0.01, seed=4), RATE)
    for i in range(0, len(pcm), 3200):
        spotter.feed(pcm[i:i + 3200])
    assert spotter.trace and all(len(w) == 3 for w in spotter.trace)


@pytest.fixture
def speak():
    """espeak-ng speech with its silence trimmed (as the games' sound tracks
    say it), or skip."""
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (Debian package espeak-ng)")
    from voice.audio import say

    return say


def voiced_rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(x[np.abs(x) > 0.02 * np.abs(x).max()] ** 2)))


def talk_in_noise(speak, text: str, voice: str) -> np.ndarray:
    """``text`` said by ``voice`` one second into quiet noise, 3 s longer than it."""
    sentence = speak(text, voice, 160)
    x = noise(len(sentence) / RATE + 3.0, level=0.002, seed=2)
    x[RATE:RATE + len(sentence)] += sentence / voiced_rms(sentence) * 0.1
    return x


def overlapped(speak, first: tuple[str, str], call: tuple[str, str],
               over: float, seed: int) -> tuple[np.ndarray, float]:
    """``first`` (text, voice) said so that it ends ``over`` seconds after the
    call (text, voice) begins, in noise at 10 dB; the audio and the call's end."""
    word, uno = speak(*first, 160), speak(*call, 165)
    word, uno = word / voiced_rms(word) * 0.1, uno / voiced_rms(uno) * 0.1
    x = noise(4.0, level=0.1 / 10 ** (10 / 20), seed=seed)
    begin = int(1.5 * RATE)
    x[begin + int(over * RATE) - len(word):begin + int(over * RATE)] += word
    x[begin:begin + len(uno)] += uno
    return x, (begin + len(uno)) / RATE


def hear(x: np.ndarray, config: SpotterConfig) -> list:
    spotter = Spotter(config=config)
    pcm = to_pcm16(x, RATE)
    found = []
    for i in range(0, len(pcm), 3200):
        found += spotter.feed(pcm[i:i + 3200])
    return found + spotter.flush()


@pytest.mark.parametrize("first,call,over", [
    (("Green!", "en+f3"), ("Uno!", "en-us"), 0.2),
    (("Red!", "en-us"), ("ウノ!", "ja+f2"), 0.27),
])
@pytest.mark.parametrize("seed", [0, 1])
def test_a_call_said_over_the_end_of_a_colour_is_heard(speak, first, call, over,
                                                       seed):
    x, end = overlapped(speak, first, call, over, seed)
    found = hear(x, SpotterConfig())
    assert [d.word for d in found] == ["uno"]
    assert end - 0.4 <= found[0].end <= end + 0.3
    # the whole window alone hears speech running into the call: no call
    assert hear(x, SpotterConfig(cut_keep=())) == []


@pytest.mark.parametrize("text,voice", [
    ("Red seven, and you know what, no.", "en-us"),
    ("つぎは あなたの ばんです、 その あとは わたしの。", "ja+f2"),
])
def test_talk_is_not_a_call_in_the_cut_views_either(speak, text, voice):
    x = talk_in_noise(speak, text, voice)
    assert hear(x, SpotterConfig()) == []
