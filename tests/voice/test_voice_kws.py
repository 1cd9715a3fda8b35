"""The neural UNO-call spotter: calls heard and placed, noise and talk ignored,
custom words still heard by keyword search, a missing or broken model reported or
replaced, and a training recipe that keeps eval_voice's material out."""

from __future__ import annotations

import logging
import math

import numpy as np
import pytest

from tableref.cli import main
from voicetest_audio import RATE, noise, read
from voice.audio import to_pcm16
from voice.bridge import listen_into
from voice.kws import DEFAULT_MODEL, Decider, KwsConfig, ModelError, replay
from voice.spotter import Spotter, SpotterConfig
from voice.words import parse_words



def run(samples: np.ndarray, words: str | None = None, config=None,
        chunk: float = 0.1):
    spotter = Spotter(parse_words(words), config)
    pcm = to_pcm16(samples, RATE)
    step = int(chunk * RATE) * 2
    found = []
    for i in range(0, len(pcm), step):
        found += spotter.feed(pcm[i:i + step])
    return found + spotter.flush(), spotter


def padded(x: np.ndarray, before: float = 0.8, after: float = 1.2) -> np.ndarray:
    return np.concatenate([np.zeros(int(before * RATE), np.float32), x,
                           np.zeros(int(after * RATE), np.float32)])


def voiced_rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(x[np.abs(x) > 0.02 * np.abs(x).max()] ** 2)))


def test_the_shipped_model_hears_the_uno_call(uno_en):
    found, spotter = run(read(uno_en))
    assert spotter.engine == "neural" and spotter.fallback is None
    assert [(d.word, d.engine) for d in found] == [("uno", "neural")]


def test_chunk_size_does_not_change_what_is_heard(uno_ja):
    x = read(uno_ja)
    by_100ms, _ = run(x)
    by_30ms, _ = run(x, chunk=0.03)
    assert len(by_100ms) == len(by_30ms) == 1
    assert abs(by_100ms[0].end - by_30ms[0].end) <= 0.05


@pytest.mark.parametrize("seed", [11, 12])
def test_a_call_in_noise_at_10_db_is_heard_where_it_was_said(uno_en, seed):
    x = read(uno_en)[int(0.5 * RATE):int(1.05 * RATE)]
    bed = noise(5.0, level=voiced_rms(x) / 10 ** (10 / 20), seed=seed)
    bed[2 * RATE:2 * RATE + len(x)] += x
    found, _ = run(bed)
    assert [d.word for d in found] == ["uno"]
    word_start, word_end = 2.0 + 0.1, 2.0 + len(x) / RATE
    assert word_start - 0.5 <= found[0].start < found[0].end <= word_end + 0.3


def test_a_japanese_call_after_a_sentence_is_heard_once(say):
    sentence, call = say("みどりの ご を だします。", "ja+m1"), say("ウノ!", "ja+m1")
    gap = np.zeros(int(0.4 * RATE), np.float32)
    x = padded(np.concatenate([sentence, gap, call]))
    x = x + noise(len(x) / RATE, 0.003, seed=4)[:len(x)]
    found, _ = run(x)
    assert len(found) == 1
    assert found[0].end >= (0.8 * RATE + len(sentence) + len(gap)) / RATE


@pytest.mark.parametrize("text", ["Let me count my cards first.",
                                  "Pick a colour, any colour."])
def test_a_sentence_without_the_word_is_not_a_call(say, text):
    x = padded(say(text, "en-gb-x-rp"))
    x = x + noise(len(x) / RATE, 0.003, seed=8)[:len(x)]
    found, _ = run(x)
    assert found == []


def test_loud_noise_bursts_are_not_calls():
    rng = np.random.default_rng(5)
    x = noise(8.0, 0.002, seed=6)
    for start in rng.uniform(0.5, 7.0, 12):  # card slaps and riffles
        i = int(start * RATE)
        size = int(rng.uniform(0.01, 0.08) * RATE)
        x[i:i + size] += rng.standard_normal(size).astype(np.float32) * 0.3 * \
            np.hanning(size).astype(np.float32)
    found, _ = run(x)
    assert found == []


def test_custom_words_are_still_heard_beside_the_neural_call(say):
    taro, call = say("たろう!", "ja"), say("Uno!", "en-us")
    first = np.concatenate([np.zeros(RATE // 2, np.float32), taro,
                            np.zeros(RATE, np.float32)])
    first = first + noise(len(first) / RATE, 0.003, seed=9)[:len(first)]
    second = np.concatenate([call, np.zeros(RATE, np.float32)])
    second = second + noise(len(second) / RATE, 0.003, seed=10)[:len(second)]
    x = np.concatenate([first, second])
    found, spotter = run(x, words="uno,たろう")
    assert spotter.engine == "neural+pocketsphinx"
    assert [(d.word, d.engine) for d in found] == [("たろう", "pocketsphinx"),
                                                   ("uno", "neural")]


def test_a_heard_call_is_attributed_to_the_player_who_must_call(uno_ja):
    state = {"players": ["A", "B", "C"], "hand_counts": {"A": 5, "B": 1, "C": 4},
             "turn": "C", "direction": 1, "uno": [], "catchable": ["B"]}
    got = []
    handle = listen_into(got.append, lambda: state, file=str(uno_ja))
    handle.join(30)
    assert handle.error is None and [e["player"] for e in got] == ["B"]
    assert got[0]["source"] == "voice" and got[0]["score"] > 0.5
    assert handle.detections[0].engine == "neural"


def test_a_missing_model_falls_back_to_keyword_search(uno_en, tmp_path, caplog):
    config = SpotterConfig(model=str(tmp_path / "gone.pt"))
    with caplog.at_level(logging.WARNING, logger="tableref.voice"):
        found, spotter = run(read(uno_en), config=config)
    assert spotter.engine == "pocketsphinx" and "not found" in spotter.fallback
    assert "gone.pt" in caplog.text and "keyword search" in caplog.text
    assert [(d.word, d.engine) for d in found] == [("uno", "pocketsphinx")]


@pytest.mark.parametrize("content", [b"", b"not a model at all" * 50])
def test_a_broken_model_is_a_clear_error_when_neural_is_required(tmp_path, content):
    path = tmp_path / "broken.pt"
    path.write_bytes(content)
    with pytest.raises(ModelError, match="cannot load keyword model .*broken.pt"):
        Spotter(parse_words(None), SpotterConfig(engine="neural", model=str(path)))


def test_a_model_of_another_kind_is_refused(tmp_path):
    import torch

    path = tmp_path / "other.pt"
    blob = torch.load(DEFAULT_MODEL, weights_only=True)
    blob["meta"] = dict(blob["meta"], classes=["cat", "dog", "noise"])
    torch.save(blob, path)
    with pytest.raises(ModelError, match="not an uno keyword model"):
        Spotter(parse_words(None), SpotterConfig(engine="neural", model=str(path)))


def test_an_unknown_engine_is_refused():
    with pytest.raises(ValueError, match="unknown spotter engine 'vosk'"):
        Spotter(parse_words(None), SpotterConfig(engine="vosk"))


def test_listen_reports_the_fallback_and_still_hears(uno_en, tmp_path, capsys):
    corrupt = tmp_path / "uno-kws.pt"
    corrupt.write_bytes(b"\x00" * 64)
    assert main(["listen", "--file", str(uno_en), "--model", str(corrupt)]) == 0
    out, err = capsys.readouterr()
    assert "cannot load keyword model" in err and "keyword search" in err
    assert out.split()[1] == "uno"


def test_listen_with_a_required_but_missing_model_exits_2(uno_en, tmp_path, capsys):
    args = ["listen", "--file", str(uno_en), "--engine", "neural", "--model",
            str(tmp_path / "none.pt")]
    assert main(args) == 2
    assert "keyword model not found" in capsys.readouterr().err


def test_listen_refuses_a_threshold_outside_0_1(uno_en, capsys):
    assert main(["listen", "--file", str(uno_en), "--threshold", "1.5"]) == 2
    assert "--threshold must be between 0 and 1" in capsys.readouterr().err


def test_a_stricter_threshold_hears_less(uno_ja):
    heard, _ = run(read(uno_ja))
    deaf, _ = run(read(uno_ja), config=SpotterConfig(threshold=1.0))
    assert len(heard) == 1 and deaf == []


def trace(probs: list[float], level: float = -30.0, hop: float = 0.05):
    return [(1.0 + i * hop, p, level) for i, p in enumerate(probs)]


def test_consecutive_windows_fire_one_call_then_the_spotter_rests():
    cfg = KwsConfig(threshold=0.9, min_hits=2, refractory=1.0)
    assert replay(trace([0.1, 0.95, 0.1, 0.97, 0.2]), cfg) == []  # lone spikes
    calls = replay(trace([0.1, 0.95, 0.99, 0.98, 0.97, 0.1, 0.95, 0.96]), cfg)
    assert len(calls) == 1  # the second run is inside the refractory second
    start, end, prob, decided = calls[0]
    assert prob == 0.99 and math.isclose(end, 1.0) and math.isclose(decided, 1.1)
    far = [0.1, 0.95, 0.99] + [0.1] * 25 + [0.95, 0.99]
    assert len(replay(trace(far), cfg)) == 2


def test_silence_never_fires_and_a_run_at_the_end_is_flushed():
    cfg = KwsConfig(threshold=0.9, min_hits=2)
    assert replay(trace([0.99] * 10, level=-90.0), cfg) == []
    decider = Decider(cfg)
    assert decider.step(1.0, 0.99, -30.0) == []
    assert len(decider.flush(1.1)) == 1


def test_eval_voice_reports_a_missing_model(capsys, monkeypatch, tmp_path):
    import benchmarks.eval_voice as ev

    missing = tmp_path / "nothing.pt"
    monkeypatch.setattr("sys.argv", ["eval_voice", "--model", str(missing)])
    assert ev.main() == 2
    assert "keyword model not found" in capsys.readouterr().out


def _one_member(layers: dict, x: np.ndarray) -> np.ndarray:
    """One folded network (``voice.kws._fold``) run alone on normalised
    ``(batch, bands, frames)`` features, written out layer by layer: the
    reference the ensemble's one-pass forward is held to."""
    def conv(x, w, b, pad):
        k, t = w.shape[2], x.shape[2]
        xp = np.pad(x, ((0, 0), (0, 0), (pad, pad)))
        out = b[None, :, None] + np.matmul(w[:, :, 0], xp[:, :, :t])
        for i in range(1, k):
            out += np.matmul(w[:, :, i], xp[:, :, i:i + t])
        return out

    def depthwise(x, w, b, stride):
        k, t = w.shape[1], x.shape[2]
        xp = np.pad(x, ((0, 0), (0, 0), (k // 2, k // 2)))
        out = np.zeros((x.shape[0], x.shape[1], (t - 1) // stride + 1), np.float32)
        for i in range(k):
            out += w[None, :, i:i + 1] * xp[:, :, i:i + t:stride]
        return out + b[None, :, None]

    stem_w, stem_b = layers["stem"]
    x = np.maximum(conv(x, stem_w, stem_b, 1), 0.0)
    for dw_w, dw_b, pw_w, pw_b, stride in layers["blocks"]:
        y = np.maximum(depthwise(x, dw_w, dw_b, stride), 0.0)
        y = np.matmul(pw_w, y) + pw_b[None, :, None]
        x = np.maximum(y + x if stride == 1 else y, 0.0)
    head_w, head_b = layers["head"]
    logits = x.mean(axis=2) @ head_w.T + head_b
    logits -= logits.max(axis=1, keepdims=True)
    e = np.exp(logits)
    return e / e.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("colours", [False, True])
def test_an_ensemble_scored_in_one_pass_gives_each_members_own_numbers(colours):
    """The members of an ensemble are run side by side in one pass: the window
    probabilities are the mean of each member run on its own, to float32
    rounding (a BLAS may sum a product of another shape in another order: bit
    for bit on an AVX2 CPU, a few units in the last place with AVX-512)."""
    from voice.kws import normalise
    from voice.spotter import load_model

    model = load_model(colours=colours)
    rng = np.random.default_rng(5)
    for batch in (1, 2, 7):
        feats = rng.normal(-5.0, 3.0, (batch, 100, 40)).astype(np.float32)
        x = normalise(feats).transpose(0, 2, 1)
        members = [_one_member(layers, x) for layers in model._members]
        expected = (sum(members) / len(members)).astype(np.float32)
        np.testing.assert_allclose(model.probabilities(feats), expected,
                                   rtol=1e-5, atol=1e-7)
