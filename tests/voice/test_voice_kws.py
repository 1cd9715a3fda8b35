"""The neural UNO-call spotter: calls heard and placed, noise and talk ignored,
custom words still heard by keyword search, a missing or broken model reported or
replaced, and a training recipe that keeps eval_voice's material out."""

from __future__ import annotations

import importlib.util
import logging
import math
from pathlib import Path

import numpy as np
import pytest

from referee.cli import main
from voicetest_audio import RATE, noise, read
from voice.audio import to_pcm16
from voice.bridge import listen_into
from voice.kws import DEFAULT_MODEL, Decider, KwsConfig, ModelError, log_mel, replay
from voice.spotter import Spotter, SpotterConfig
from voice.words import parse_words

ROOT = Path(__file__).resolve().parents[2]


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


def test_features_are_the_same_in_training_and_streaming():
    from voice.train import fast_log_mel

    x = np.random.default_rng(1).standard_normal((3, 16240)).astype(np.float32) * 0.1
    assert np.allclose(fast_log_mel(x), log_mel(x), atol=1e-3)
    assert np.allclose(log_mel(x[0]), log_mel(x)[0])


def test_training_examples_are_labelled_windows():
    from voice.train import SAMPLES, Mixer

    rng = np.random.default_rng(3)
    clips = [rng.standard_normal(int(RATE * rng.uniform(0.2, 0.9))).astype(np.float32)
             * 0.1 for _ in range(20)]
    bank = {f"train_{k}": clips for k in ("calls", "leads", "talk", "confusables")}
    beds = {"white": rng.standard_normal(3 * RATE).astype(np.float32)}
    mixer = Mixer(bank, beds, "train", seed=1)
    feats, labels = mixer.batch(60)
    assert feats.shape == (60, 100, 40) and np.isfinite(feats).all()
    assert set(labels.tolist()) == {0, 1, 2}
    x, _ = mixer.example()
    assert len(x) == SAMPLES and np.abs(x).max() <= 1.0


def test_calls_after_talk_are_an_option_that_leaves_the_recipe_alone():
    """``--after-talk`` puts a whole talk sentence before some calls; left at 0
    the examples are those of the shipped recipe, draw for draw."""
    from voice.train import Mixer

    rng = np.random.default_rng(3)
    silent = [np.zeros(int(RATE * 0.3), np.float32)]
    call = [np.ones(int(RATE * 0.3), np.float32) * 0.1]
    talk = [np.ones(int(RATE * 0.6), np.float32) * 0.1]
    bank = {"train_calls": call, "train_leads": silent, "train_talk": talk,
            "train_confusables": silent}
    beds = {"white": rng.standard_normal(3 * RATE).astype(np.float32) * 1e-6}
    plain, zero = Mixer(bank, beds, "train", 5), Mixer(bank, beds, "train", 5, 0.0)
    for _ in range(20):
        (a, la), (b, lb) = plain.example(), zero.example()
        assert la == lb and np.array_equal(a, b)

    def talk_first(mixer: Mixer) -> int:
        """Calls with sound more than 0.25 s before the call's own 0.3 s."""
        n = 0
        for _ in range(300):
            x, label = mixer.example()
            if label != 0:
                continue
            loud = np.flatnonzero(np.abs(x) > 0.3 * np.abs(x).max())
            n += (loud[-1] - loud[0]) / RATE > 0.55
        return n

    on, off = talk_first(Mixer(bank, beds, "train", 5, 1.0)), \
        talk_first(Mixer(bank, beds, "train", 5))
    assert on >= 20 and on >= 4 * off


def test_chatter_is_an_option_that_puts_talk_under_more_examples():
    """``--chatter`` draws the noise of that share of the examples from the
    babble and crowd beds; left at 0 the examples are the shipped recipe's."""
    from voice.train import Mixer

    rng = np.random.default_rng(4)
    silent = [np.zeros(int(RATE * 0.3), np.float32)]
    bank = {"train_calls": silent, "train_leads": silent, "train_talk": silent,
            "train_confusables": silent}
    talking = rng.standard_normal(3 * RATE).astype(np.float32)
    # only talk is heard: an example drawn on the white bed stays silent
    beds = {"white": np.zeros(3 * RATE, np.float32), "babble": talking,
            "crowd": talking}
    plain, zero = Mixer(bank, beds, "train", 5), Mixer(bank, beds, "train", 5,
                                                       chatter=0.0)
    for _ in range(20):
        (a, la), (b, lb) = plain.example(), zero.example()
        assert la == lb and np.array_equal(a, b)

    def silent_share(mixer: Mixer) -> float:
        quiet = [np.abs(mixer.example()[0]).max() < 1e-3 for _ in range(300)]
        return float(np.mean(quiet))

    assert silent_share(Mixer(bank, beds, "train", 5, chatter=1.0)) == 0.0
    assert silent_share(Mixer(bank, beds, "train", 5)) > 0.15


def test_babble_negatives_are_talk_without_a_call_labelled_noise():
    """``--babble-negatives`` makes that share of the examples babble or crowd
    with nobody calling, labelled noise; left at 0 the examples are the shipped
    recipe's."""
    from voice.kws import CLASSES
    from voice.train import Mixer

    rng = np.random.default_rng(4)
    call = [np.ones(int(RATE * 0.3), np.float32) * 0.1]
    bank = {"train_calls": call, "train_leads": call, "train_talk": call,
            "train_confusables": call}
    talking = rng.standard_normal(3 * RATE).astype(np.float32)
    beds = {"white": np.zeros(3 * RATE, np.float32), "babble": talking,
            "crowd": talking * 0.5}
    plain, zero = Mixer(bank, beds, "train", 5), Mixer(bank, beds, "train", 5,
                                                       babble_negatives=0.0)
    for _ in range(20):
        (a, la), (b, lb) = plain.example(), zero.example()
        assert la == lb and np.array_equal(a, b)
    noise = CLASSES.index("noise")
    every = [Mixer(bank, beds, "train", 5, babble_negatives=1.0).example()
             for _ in range(50)]
    assert all(label == noise for _, label in every)
    assert all(np.abs(x).max() > 1e-3 for x, _ in every)  # talk is heard
    mixer = Mixer(bank, beds, "train", 6, babble_negatives=0.3)
    labels = [mixer.example()[1] for _ in range(600)]
    share = labels.count(noise) / len(labels)
    assert 0.3 + 0.7 * 0.18 - 0.07 < share < 0.3 + 0.7 * 0.18 + 0.07


def test_long_talk_beds_are_long_unit_level_and_not_a_loop():
    """``--talk-beds S``: babble and crowd beds S seconds long at unit RMS, made
    of the talk without repeating one stretch (what a 40 s bed does)."""
    from voice.train import long_talk_beds

    rng = np.random.default_rng(3)
    talk = [rng.standard_normal(int(RATE * rng.uniform(1, 2))).astype(np.float32)
            for _ in range(30)]
    beds = long_talk_beds(np.random.default_rng(1), talk, 90)
    assert set(beds) == {"babble", "crowd"}
    for bed in beds.values():
        assert len(bed) == 90 * RATE
        assert abs(float(np.sqrt(np.mean(bed ** 2))) - 1.0) < 1e-3
        first, later = bed[RATE:2 * RATE], bed[41 * RATE:42 * RATE]
        assert not np.allclose(first, later)
    other = long_talk_beds(np.random.default_rng(2), talk, 90)
    assert not np.allclose(beds["babble"][:RATE], other["babble"][:RATE])


def test_eval_voice_reports_a_missing_model(capsys, monkeypatch, tmp_path):
    spec = importlib.util.spec_from_file_location("eval_voice",
                                                  ROOT / "benchmarks/eval_voice.py")
    ev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ev)
    missing = tmp_path / "nothing.pt"
    monkeypatch.setattr("sys.argv", ["eval_voice", "--model", str(missing)])
    assert ev.main() == 2
    assert "keyword model not found" in capsys.readouterr().out


def test_training_data_keeps_eval_voice_material_out():
    from voice import train

    spec = importlib.util.spec_from_file_location("eval_voice",
                                                  ROOT / "benchmarks/eval_voice.py")
    ev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ev)
    ours = train.TALK_EN + train.TALK_JA + train.LEAD_EN + train.LEAD_JA + \
        train.CONFUSABLE_EN + train.CONFUSABLE_JA + train.CALL_EN + train.CALL_JA + \
        train.TALK_OU + train.CONFUSABLE_OU + train.CALL_OU
    theirs = ev.TALK_EN + ev.TALK_JA + ev.LEADS_EN + ev.LEADS_JA + ev.EN_CALLS + \
        ev.JA_CALLS + [text for text, _lang in ev.CONFUSABLE]
    assert not set(ours) & set(theirs)
    for text in ours:  # not even inside a longer sentence
        assert not any(t.lower() in text.lower() for t in theirs if len(t) > 4), text
    train_bases = set(train.EN_VOICES + train.OTHER_VOICES + train.OU_VOICES +
                      train.UNO_VOICES)
    eval_bases = {v.split("+")[0] for v in ev.EN_VOICES + ev.JA_VOICES}
    assert not train_bases & eval_bases
    eval_variants = {v.split("+")[1] for v in ev.EN_VOICES + ev.JA_VOICES if "+" in v}
    assert not set(train.VARIANTS) & eval_variants
    rng = __import__("random").Random(0)
    for _ in range(200):
        speed, pitch = train._speed_pitch(rng)
        assert speed not in {120, 150, 175, 200} and pitch not in {30, 50, 70, 90}
        assert train._voice(rng, train.JA_VOICES) != "ja"


def test_the_british_vowel_voices_say_the_call_with_it():
    """The recipe's British "oh" comes from espeak phonemes read by non-English
    tables; the English tables would read them as another sound."""
    import shutil
    import subprocess

    from voice import train

    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (Debian package espeak-ng)")

    def ipa(voice: str, text: str) -> str:
        return subprocess.run(["espeak-ng", "-q", "-v", voice, "--ipa", text],
                              capture_output=True, text=True, check=True).stdout
    for voice in train.OU_VOICES:
        assert "uːnəʊ" in ipa(voice, train.CALL_OU[0]), voice
    assert "əʊ" not in ipa("en-gb-scotland", train.CALL_OU[0])


def test_a_wider_network_is_saved_with_its_shape_and_loads(tmp_path):
    """``--width`` trains another width; the checkpoint says so, and the numpy
    runtime (folded layers) gives the same probabilities as the torch network."""
    import argparse

    import torch

    from voice.kws import KwsModel, build_model
    from voice.train import _save

    torch.manual_seed(0)
    net = build_model(width=32).eval()
    args = argparse.Namespace(seed=7, batch=8, lr=1e-3, width=32)
    path = tmp_path / "w32.pt"
    _save(net, args, 1, path)
    loaded = KwsModel(path)
    assert loaded.meta["arch"] == {"width": 32}
    feats = np.random.default_rng(0).normal(-5, 2, (3, 20, 40)).astype(np.float32)
    from voice.kws import normalise

    with torch.no_grad():
        want = torch.softmax(
            net(torch.from_numpy(normalise(feats))), dim=1).numpy()
    assert np.allclose(loaded.probabilities(feats), want, atol=1e-4)


def test_an_ensemble_averages_its_members_and_is_joined_from_trained_files(
    tmp_path, monkeypatch
):
    """``--ensemble A B`` writes one file holding both networks; the runtime's
    probability is the mean of the members' (checked against torch); a member
    of another seed (another speech bank split) is refused."""
    import argparse

    import torch

    from voice import train
    from voice.kws import KwsModel, build_model, normalise

    files = []
    nets = []
    for k in range(2):
        torch.manual_seed(k)
        net = build_model(width=16).eval()
        args = argparse.Namespace(seed=7, batch=8, lr=1e-3, width=16, member_seed=k)
        files.append(tmp_path / f"m{k}.pt")
        train._save(net, args, 1, files[-1])
        nets.append(net)
    tuned = []
    monkeypatch.setattr(train, "make_bank", lambda path, seed: {"val_talk": []})
    monkeypatch.setattr(train, "make_noise", lambda rng, talk: {})
    monkeypatch.setattr(train, "_tune_and_save",
                        lambda args, bank, noise: tuned.append(args.out))
    out = tmp_path / "ens.pt"
    assert train.main(["--ensemble", *map(str, files), "--out", str(out),
                       "--data", str(tmp_path)]) == 0
    assert tuned == [str(out)]
    ens = KwsModel(out)
    assert len(ens.models) == 2
    assert [m["member_seed"] for m in ens.meta["members"]] == [0, 1]
    feats = np.random.default_rng(1).normal(-5, 2, (4, 20, 40)).astype(np.float32)
    with torch.no_grad():
        x = torch.from_numpy(normalise(feats))
        want = sum(torch.softmax(n(x), dim=1) for n in nets).numpy() / 2
    assert np.allclose(ens.probabilities(feats), want, atol=1e-4)
    assert not np.allclose(KwsModel(files[0]).probabilities(feats), want, atol=1e-3)
    other = tmp_path / "other.pt"
    train._save(nets[0], argparse.Namespace(seed=8, batch=8, lr=1e-3, width=16),
                1, other)
    assert train.main(["--ensemble", str(files[0]), str(other), "--out",
                       str(tmp_path / "bad.pt"), "--data", str(tmp_path)]) == 2

