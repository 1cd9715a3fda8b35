"""The UNO-call spotter's training recipe: its examples, its network files, and
the material it keeps out of ``benchmarks/eval_voice.py``."""

from __future__ import annotations


import numpy as np
import pytest

from training.voice import cli, fit, speech
from voice.audio import RATE
from voice.kws import log_mel



def test_features_are_the_same_in_training_and_streaming():
    from training.voice.mixing import fast_log_mel

    x = np.random.default_rng(1).standard_normal((3, 16240)).astype(np.float32) * 0.1
    assert np.allclose(fast_log_mel(x), log_mel(x), atol=1e-3)
    assert np.allclose(log_mel(x[0]), log_mel(x)[0])


def test_training_examples_are_labelled_windows():
    from training.voice.mixing import SAMPLES, Mixer

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
    from training.voice.mixing import Mixer

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
    from training.voice.mixing import Mixer

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
    from training.voice.mixing import Mixer

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
    from training.voice.mixing import long_talk_beds

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


def test_training_data_keeps_eval_voice_material_out():
    import benchmarks.voice_audio as ev

    ours = speech.TALK_EN + speech.TALK_JA + speech.LEAD_EN + speech.LEAD_JA + \
        speech.CONFUSABLE_EN + speech.CONFUSABLE_JA + speech.CALL_EN + speech.CALL_JA + \
        speech.TALK_OU + speech.CONFUSABLE_OU + speech.CALL_OU
    theirs = ev.TALK_EN + ev.TALK_JA + ev.LEADS_EN + ev.LEADS_JA + ev.EN_CALLS + \
        ev.JA_CALLS + [text for text, _lang in ev.CONFUSABLE]
    assert not set(ours) & set(theirs)
    for text in ours:  # not even inside a longer sentence
        assert not any(t.lower() in text.lower() for t in theirs if len(t) > 4), text
    train_bases = set(speech.EN_VOICES + speech.OTHER_VOICES + speech.OU_VOICES +
                      speech.UNO_VOICES)
    eval_bases = {v.split("+")[0] for v in ev.EN_VOICES + ev.JA_VOICES}
    assert not train_bases & eval_bases
    eval_variants = {v.split("+")[1] for v in ev.EN_VOICES + ev.JA_VOICES if "+" in v}
    assert not set(speech.VARIANTS) & eval_variants
    rng = __import__("random").Random(0)
    for _ in range(200):
        speed, pitch = speech._speed_pitch(rng)
        assert speed not in {120, 150, 175, 200} and pitch not in {30, 50, 70, 90}
        assert speech._voice(rng, speech.JA_VOICES) != "ja"


def test_the_british_vowel_voices_say_the_call_with_it():
    """The recipe's British "oh" comes from espeak phonemes read by non-English
    tables; the English tables would read them as another sound."""
    import shutil
    import subprocess

    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (Debian package espeak-ng)")

    def ipa(voice: str, text: str) -> str:
        return subprocess.run(["espeak-ng", "-q", "-v", voice, "--ipa", text],
                              capture_output=True, text=True, check=True).stdout
    for voice in speech.OU_VOICES:
        assert "uːnəʊ" in ipa(voice, speech.CALL_OU[0]), voice
    assert "əʊ" not in ipa("en-gb-scotland", speech.CALL_OU[0])


def test_a_wider_network_is_saved_with_its_shape_and_loads(tmp_path):
    """``--width`` trains another width; the checkpoint says so, and the numpy
    runtime (folded layers) gives the same probabilities as the torch network."""
    import argparse

    import torch

    from voice.kws import KwsModel, build_model
    from training.voice.fit import _save

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

    from voice.kws import KwsModel, build_model, normalise

    files = []
    nets = []
    for k in range(2):
        torch.manual_seed(k)
        net = build_model(width=16).eval()
        args = argparse.Namespace(seed=7, batch=8, lr=1e-3, width=16, member_seed=k)
        files.append(tmp_path / f"m{k}.pt")
        fit._save(net, args, 1, files[-1])
        nets.append(net)
    tuned = []
    monkeypatch.setattr(fit, "make_bank", lambda path, seed: {"val_talk": []})
    monkeypatch.setattr(fit, "make_noise", lambda rng, talk: {})
    monkeypatch.setattr(fit, "_tune_and_save",
                        lambda args, bank, noise: tuned.append(args.out))
    out = tmp_path / "ens.pt"
    assert cli.main(["--ensemble", *map(str, files), "--out", str(out),
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
    fit._save(nets[0], argparse.Namespace(seed=8, batch=8, lr=1e-3, width=16),
                1, other)
    assert cli.main(["--ensemble", str(files[0]), str(other), "--out",
                       str(tmp_path / "bad.pt"), "--data", str(tmp_path)]) == 2
