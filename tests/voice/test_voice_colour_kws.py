"""The colour spotter (``models/colour-kws.pt``): the shipped model hears a
colour said on its own and names it, stays silent on talk, and a file that is not
a colour model is refused with a clear message; the listener falls back to
keyword search without one."""

from __future__ import annotations

import dataclasses

import logging
import math

import numpy as np
import pytest

from voice.audio import RATE, to_pcm16
from voice.detection import SpotterConfig
from voice.kws import (COLOUR_CLASSES, COLOUR_MODEL, DEFAULT_MODEL, Decider,
                       KwsConfig, KwsModel, ModelError, NeuralSpotter, replay)
from voice.spotter import Spotter
from voice.words import colour_of, parse_words
from voicetest_audio import noise


def _track(say, items, snr: float = 20.0, seed: int = 5):
    """The clips said 2 s apart over noise at ``snr`` dB; (audio, marks)."""
    parts, marks, pos = [np.zeros(RATE, np.float32)], [], RATE
    for text, voice in items:
        clip = say(text, voice)
        clip = clip / np.sqrt(np.mean(clip[np.abs(clip) > 0.01] ** 2)) * 0.1
        parts += [clip, np.zeros(2 * RATE, np.float32)]
        marks.append((pos / RATE, (pos + len(clip)) / RATE, text))
        pos += len(clip) + 2 * RATE
    audio = np.concatenate(parts)
    return audio + noise(len(audio) / RATE, 0.1 / 10 ** (snr / 20), seed), marks


def _colours(audio: np.ndarray) -> list:
    spotter = Spotter(parse_words(None), colours=True)
    assert spotter.colour_fallback is None
    pcm = to_pcm16(audio, RATE)
    out = []
    for i in range(0, len(pcm), 3200):
        out += spotter.feed(pcm[i:i + 3200])
    return [d for d in out + spotter.flush() if colour_of(d.word)]


@pytest.mark.parametrize("text,voice", [("Blue!", "en-us"), ("あお!", "ja")])
def test_the_shipped_spotter_hears_blue_in_light_noise(say, text, voice):
    audio, ((start, end, _t),) = _track(say, [(text, voice)])
    (det,) = _colours(audio)
    assert det.word == "blue" and det.engine == "neural"
    assert start - 0.3 <= det.end <= end + 1.0 and 0.5 < det.score <= 1.0


def test_the_shipped_spotter_is_silent_on_talk_without_a_colour(say):
    audio, _ = _track(say, [("Whose turn is it after the next draw?", "en-us"),
                            ("つぎは だれの ばん ですか。", "ja")])
    assert _colours(audio) == []


@pytest.mark.parametrize("content", [b"", b"\x00" * 64, b"not a model at all" * 50])
def test_a_corrupt_colour_model_is_refused_with_a_clear_message(tmp_path, content):
    path = tmp_path / "colour-kws.pt"
    path.write_bytes(content)
    with pytest.raises(ModelError, match="cannot load keyword model .*colour-kws.pt"):
        KwsModel(path, COLOUR_CLASSES)
    with pytest.raises(ModelError, match="cannot load keyword model"):
        Spotter(parse_words(None), SpotterConfig(engine="neural",
                                                 colour_model=str(path)),
                colours=True)


def test_the_uno_model_is_not_a_colour_model_and_back():
    with pytest.raises(ModelError, match="not a colour keyword model"):
        KwsModel(DEFAULT_MODEL, COLOUR_CLASSES)
    with pytest.raises(ModelError, match="not an uno keyword model"):
        KwsModel(COLOUR_MODEL)


def test_without_a_colour_model_colours_fall_back_to_keyword_search(tmp_path,
                                                                    caplog):
    config = SpotterConfig(colour_model=str(tmp_path / "gone.pt"))
    with caplog.at_level(logging.WARNING, logger="tableref.voice"):
        spotter = Spotter(parse_words(None), config, colours=True)
    assert "not found" in spotter.colour_fallback
    assert spotter._colours is not None and spotter._neural is not None
    assert "hearing colours with keyword search" in caplog.text
    plain = Spotter(parse_words(None), SpotterConfig(engine="pocketsphinx"),
                    colours=True)
    assert plain._colour_neural is None and plain.colour_fallback is None


def test_a_colour_call_is_named_by_its_surest_class_over_the_run():
    cfg = KwsConfig(threshold=0.8, min_hits=3)
    parts = [[0.5, 0.4, 0.0, 0.0], [0.2, 0.7, 0.0, 0.0], [0.1, 0.8, 0.0, 0.0]]
    trace = [(1.0 + 0.05 * i, sum(p), -30.0, p) for i, p in enumerate(parts)]
    ((start, end, prob, decided, index),) = replay(trace, cfg)
    assert COLOUR_CLASSES[index] == "blue" and math.isclose(prob, 0.9)
    assert math.isclose(end, 0.95) and math.isclose(decided, 1.1)
    decider = Decider(cfg)  # the UNO call's windows carry no parts: 4-tuples
    calls = [c for i in range(3) for c in decider.step(1 + 0.05 * i, 0.9, -30.0)]
    assert len(calls) == 1 and len(calls[0]) == 4


class _Fixed:
    """A stand-in colour model: every window gives these probabilities."""

    classes = COLOUR_CLASSES

    def __init__(self, probs: list[float]):
        self.probs = np.asarray(probs, np.float32)

    def probabilities(self, feats: np.ndarray) -> np.ndarray:
        return np.tile(self.probs, (len(feats), 1))


def test_the_streaming_spotter_sums_the_colours_and_names_the_likeliest():
    loud = to_pcm16(np.random.default_rng(0).standard_normal(2 * RATE) * 0.1, RATE)
    spotter = NeuralSpotter(_Fixed([0.1, 0.05, 0.6, 0.1, 0.1, 0.05]),
                            KwsConfig(threshold=0.8, min_hits=2), record=True)
    calls = spotter.feed(loud)
    assert len(calls) >= 1 and all(len(c) == 5 for c in calls)
    assert {COLOUR_CLASSES[c[4]] for c in calls} == {"green"}
    assert math.isclose(spotter.trace[0][1], 0.85, abs_tol=1e-5)
    quiet = NeuralSpotter(_Fixed([0.3, 0.2, 0.2, 0.0, 0.2, 0.1]),
                          KwsConfig(threshold=0.8, min_hits=2))
    assert quiet.feed(loud) == []


def _heard(word: str, start: float, end: float) -> "Detection":
    from voice.detection import Detection

    return Detection(word, start, end, 0, math.inf, end - start, math.inf, 0.8,
                     "neural")


def test_a_colour_said_over_the_end_of_a_call_counts_but_the_call_is_no_colour():
    """Two players: "UNO!" and "Red!" 0.2 s over it. The loud stretch runs from
    the call's start to the colour's end, so both hits overlap; the colour ends
    later and is another word. A colour hit ending with the call is the call."""
    config = SpotterConfig()
    spotter = Spotter(parse_words(None), config, colours=True)
    call = _heard("uno", 1.0, 1.3)
    later = spotter._colour_hits([call], [_heard("red", 1.0, 1.55)])
    assert [d.word for d in later] == ["red"]
    spotter = Spotter(parse_words(None), config, colours=True)
    same = _heard("red", 1.0, 1.3 + config.same_word / 2)
    assert spotter._colour_hits([call], [same]) == []
    # two colours on one stretch: only the surer
    spotter = Spotter(parse_words(None), config, colours=True)
    hits = [_heard("red", 1.0, 1.3), _heard("blue", 1.0, 1.6)]
    assert len(spotter._colour_hits([], hits)) == 1


def _colour_trace(sums: list[float], colour: int = 2) -> list[tuple]:
    """Colour windows 50 ms apart from 1 s, all of one colour."""
    out = []
    for i, p in enumerate(sums):
        parts = [0.0] * 4
        parts[colour] = p
        out.append((round(1.0 + 0.05 * i, 3), p, -30.0, parts))
    return out


def test_the_mean_of_windows_hears_a_word_hovering_under_the_threshold():
    """A colour said over other voices: its windows hover around 0.7, dipping
    under 0.8 now and then; a single window decides nothing, their mean does."""
    hover = [0.1] * 5 + [0.75, 0.85, 0.7, 0.82, 0.76, 0.84, 0.72, 0.8] + [0.1] * 6
    single = KwsConfig(threshold=0.75, min_hits=4)
    assert replay(_colour_trace(hover), single) == []
    mean = KwsConfig(threshold=0.75, min_hits=4, smooth=3)
    ((start, end, prob, decided, index),) = replay(_colour_trace(hover), mean)
    assert COLOUR_CLASSES[index] == "green"
    # the decision is made a window later than its averaged window's time, and
    # the word's end is placed where the averaged run began
    assert decided > end + 0.05 * 4 and 1.2 <= end <= 1.35


def test_the_mean_of_windows_ignores_a_short_spike():
    spike = [0.1] * 5 + [0.99, 0.99] + [0.1] * 5
    assert len(replay(_colour_trace(spike), KwsConfig(threshold=0.9, min_hits=2))) == 1
    assert replay(_colour_trace(spike),
                  KwsConfig(threshold=0.9, min_hits=2, smooth=5)) == []
    with pytest.raises(ValueError, match="odd"):
        Decider(KwsConfig(smooth=2))


def test_the_spotter_takes_the_mean_from_the_model_file_or_the_config(tmp_path):
    import torch

    from voice.spotter import load_model

    blob = torch.load(COLOUR_MODEL, map_location="cpu", weights_only=True)
    blob["meta"] = dict(blob["meta"], smooth=5)
    path = tmp_path / "colour-mean5.pt"
    torch.save(blob, path)
    assert load_model(str(path), colours=True).meta["smooth"] == 5
    heard = Spotter(parse_words(None), SpotterConfig(colour_model=str(path)),
                    colours=True)
    assert heard._colour_neural.config.smooth == 5
    told = Spotter(parse_words(None), SpotterConfig(colour_model=str(path),
                                                    colour_smooth=3), colours=True)
    assert told._colour_neural.config.smooth == 3


def test_streaming_with_the_mean_of_windows_decides_as_its_replay(say):
    """The spotter fed in chunks and its recorded windows replayed under the
    same setting give the same colours at the same times."""
    audio, ((start, end, _t),) = _track(say, [("Green.", "en-gb-x-rp")], snr=10.0)
    model = KwsModel(COLOUR_MODEL, COLOUR_CLASSES)
    cfg = KwsConfig(threshold=0.75, min_hits=4, smooth=5)
    spotter = NeuralSpotter(model, cfg, record=True)
    pcm = to_pcm16(audio, RATE)
    calls = [c for i in range(0, len(pcm), 1600) for c in spotter.feed(pcm[i:i + 1600])]
    calls += spotter.flush()
    assert [COLOUR_CLASSES[c[4]] for c in calls] == ["green"]
    assert start - 0.3 <= calls[0][1] <= end + 1.0
    again = replay(spotter.trace, cfg)
    assert [(c[1], c[3], c[4]) for c in again] == [(c[1], c[3], c[4]) for c in calls]


def test_a_run_between_two_colours_is_named_only_when_one_holds_the_margin():
    split = [[0.45, 0.4, 0.0, 0.0]] * 4  # heard a colour, but which?
    sure = [[0.8, 0.1, 0.0, 0.0]] * 4
    trace = lambda parts, t0: [(t0 + 0.05 * i, sum(p), -30.0, p)  # noqa: E731
                               for i, p in enumerate(parts)]
    cfg = KwsConfig(threshold=0.7, min_hits=4, margin=0.8)
    assert replay(trace(split, 1.0), cfg) == []
    assert [COLOUR_CLASSES[c[4]] for c in replay(trace(split, 1.0),
                                                 KwsConfig(threshold=0.7, min_hits=4))] \
        == ["red"]
    assert [COLOUR_CLASSES[c[4]] for c in replay(trace(sure, 1.0), cfg)] == ["red"]
    # the unnamed run still keeps the spotter quiet for the refractory time
    assert replay(trace(split, 1.0) + trace(sure, 1.3), cfg) == []
    assert len(replay(trace(split, 1.0) + trace(sure, 2.1), cfg)) == 1


def test_the_game_listener_decides_colours_with_the_gate_setting():
    base = SpotterConfig()
    model = KwsModel(COLOUR_MODEL, COLOUR_CLASSES)
    listing = Spotter(parse_words(None), base, colours=True)._colour_neural.config
    assert (listing.threshold, listing.min_hits, listing.margin) == (
        model.meta["threshold"], model.meta["min_hits"], 0.0)
    game = Spotter(parse_words(None), base, colours=True, gated=True)
    cfg = game._colour_neural.config
    assert (cfg.threshold, cfg.min_hits, cfg.margin) == (
        base.gate_colour_threshold, base.gate_colour_min_hits, base.gate_colour_margin)
    assert cfg.smooth == listing.smooth == model.meta["smooth"]
    told = Spotter(parse_words(None), SpotterConfig(colour_threshold=0.9,
                                                    gate_colour_min_hits=None),
                   colours=True, gated=True)._colour_neural.config
    assert (told.threshold, told.min_hits) == (0.9, model.meta["min_hits"])
    # the UNO spotter decides the same with and without the gate; the game's
    # listener only adds its likely calls
    ungated = Spotter(parse_words(None), base)._neural.config
    assert game._neural.config.likely_cut_threshold == base.likely_cut_threshold
    assert dataclasses.replace(game._neural.config, likely_cut_threshold=None) == ungated


def test_listen_into_builds_a_gated_spotter(monkeypatch):
    import voice.bridge as bridge

    seen = {}

    class Stop(Exception):
        pass

    def fake(words, config=None, colours=False, gated=False):
        seen.update(colours=colours, gated=gated)
        raise Stop

    monkeypatch.setattr(bridge, "Spotter", fake)
    with pytest.raises(Stop):
        bridge.listen_into(lambda e: None, dict, file="nothing.wav")
    assert seen == {"colours": True, "gated": True}
