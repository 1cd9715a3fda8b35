"""The colour spotter's recipe (``python -m training.voice --words colours``): its
command line, its labelled examples, its network file, and the material it keeps
out of ``benchmarks/eval_colours.py`` and ``benchmarks/eval_voice.py``."""

from __future__ import annotations

import argparse

import numpy as np
import pytest

from training.voice import cli, colours, fit, speech
from voice.audio import RATE
from voice.kws import CLASSES, COLOUR_CLASSES


def _parsed(monkeypatch, argv: list[str]) -> argparse.Namespace:
    got = []
    monkeypatch.setattr(cli, "train", lambda args: got.append(args) or 0)
    assert cli.main(argv) == 0
    return got[0]


def test_the_cli_trains_colours_into_their_own_file(monkeypatch):
    args = _parsed(monkeypatch, ["--words", "colours", "--steps", "3000",
                                 "--talk-beds", "600", "--data", "/tmp/x"])
    assert args.words == "colours" and args.out == "models/colour-kws.pt"
    assert (args.steps, args.talk_beds, args.data) == (3000, 600.0, "/tmp/x")
    assert fit._classes(args) == COLOUR_CLASSES
    plain = _parsed(monkeypatch, [])
    assert plain.words == "uno" and plain.out == "models/uno-kws.pt"
    assert fit._classes(plain) == CLASSES
    mine = _parsed(monkeypatch, ["--words", "colours", "--out", "/tmp/c.pt"])
    assert mine.out == "/tmp/c.pt"


def test_the_cli_refuses_other_words(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--words", "names"])
    assert "invalid choice: 'names'" in capsys.readouterr().err


def _bank(seed: int = 3) -> dict:
    """Colour words as 0.3 s tones of their own pitch (blue is 400 Hz, ...),
    talk as loud noise clips."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(0.3 * RATE)) / RATE
    bank = {f"train_{c}": [(0.1 * np.sin(2 * np.pi * 200 * (i + 1) * t)).astype(
        np.float32)] for i, c in enumerate(colours.COLOURS)}
    talk = [(rng.standard_normal(int(0.6 * RATE)) * 0.1).astype(np.float32)]
    bank.update(train_leads=talk, train_talk=talk, train_confusables=talk)
    return bank


def _placed(monkeypatch, mixer, n: int) -> list[tuple[int, list[tuple[int, int]]]]:
    """``n`` examples' labels with what was placed in them: (length, sample)."""
    from training.voice import mixing

    placed: list[tuple[int, int]] = []
    real = mixing.place
    monkeypatch.setattr(mixing, "place", lambda out, clip, at: (
        placed.append((len(clip), at)), real(out, clip, at))[1])
    out = []
    for _ in range(n):
        placed.clear()
        x, label = mixer.example()
        assert len(x) == mixing.SAMPLES and np.isfinite(x).all()
        out.append((label, placed[:]))
    return out


WORD, TALK = int(0.3 * RATE), int(0.6 * RATE)  # the lengths of _bank's clips


def test_colour_examples_have_one_class_per_colour_then_speech_and_noise(
        monkeypatch):
    from training.voice.mixing import SAMPLES, Mixer

    beds = {"white": np.random.default_rng(1).standard_normal(3 * RATE).astype(
        np.float32) * 1e-3}
    mixer = Mixer(_bank(), beds, "train", 4, keywords=colours.COLOURS)
    examples = _placed(monkeypatch, mixer, 400)
    for label, placed in examples:
        if label < 4:  # a colour said on its own: quiet for 0.12 s after it
            (at,) = [a for n, a in placed if n == WORD]
            assert at + WORD <= SAMPLES - int(0.12 * RATE)
            assert all(a >= at + WORD + int(0.35 * RATE) or a + n <= at
                       for n, a in placed if n == TALK)
    counts = np.bincount([label for label, _ in examples], minlength=6)
    assert all(counts[:4] > 20) and counts[4] > 100 and counts[5] > 30
    feats, y = mixer.batch(12)
    assert feats.shape == (12, 100, 40) and set(y.tolist()) <= set(range(6))


def test_a_colour_word_with_talk_right_after_it_is_speech(monkeypatch):
    """The "red seven" examples: a colour word and talk at once after it,
    labelled speech."""
    from training.voice.mixing import Mixer

    beds = {"white": np.zeros(3 * RATE, np.float32)}
    mixer = Mixer(_bank(), beds, "train", 5, keywords=colours.COLOURS)
    close = [label for label, placed in _placed(monkeypatch, mixer, 600)
             for n, at in placed if n == WORD
             if any(0 <= a - (at + WORD) <= int(0.1 * RATE)
                    for m, a in placed if m == TALK)]
    assert len(close) >= 20 and set(close) == {COLOUR_CLASSES.index("speech")}


def test_the_uno_recipe_is_unchanged_by_the_keyword_option():
    from training.voice.mixing import Mixer

    rng = np.random.default_rng(3)
    clips = [rng.standard_normal(int(RATE * 0.4)).astype(np.float32) * 0.1
             for _ in range(5)]
    bank = {f"train_{k}": clips for k in ("calls", "leads", "talk", "confusables")}
    beds = {"white": rng.standard_normal(3 * RATE).astype(np.float32)}
    a, b = Mixer(bank, beds, "train", 9), Mixer(bank, beds, "train", 9,
                                                keywords=("calls",))
    for _ in range(30):
        (xa, la), (xb, lb) = a.example(), b.example()
        assert la == lb and np.array_equal(xa, xb)


def test_low_snr_and_stretch_are_options_that_leave_the_recipe_alone(monkeypatch):
    """``--low-snr`` mixes that share of the speech examples at 0-12 dB and
    ``--stretch`` resamples half of the clips (speed and pitch); left at 0 the
    examples are the shipped recipe's, draw for draw."""
    from training.voice.mixing import Mixer, resample

    beds = {"white": np.random.default_rng(1).standard_normal(3 * RATE).astype(
        np.float32)}
    plain = Mixer(_bank(), beds, "train", 6, keywords=colours.COLOURS)
    zero = Mixer(_bank(), beds, "train", 6, keywords=colours.COLOURS, low_snr=0.0,
                 stretch=0.0)
    for _ in range(30):
        (a, la), (b, lb) = plain.example(), zero.example()
        assert la == lb and np.array_equal(a, b)
    low_mixer = Mixer(_bank(), beds, "train", 7, keywords=colours.COLOURS,
                      low_snr=0.5)
    snrs = np.array([low_mixer._snr() for _ in range(2000)])
    low = np.mean((snrs >= 0) & (snrs <= 12))
    assert snrs.min() >= -5 and snrs.max() <= 30
    assert 0.6 < low < 0.75  # half drawn in 0..12, and 12/35 of the rest
    shipped = np.array([plain._snr() for _ in range(2000)])
    assert 0.28 < np.mean((shipped >= 0) & (shipped <= 12)) < 0.41
    tone = _bank()["train_red"][0]
    assert len(resample(tone, 1.25)) == int(len(tone) / 1.25)
    assert np.allclose(resample(tone, 0.5)[::2][:len(tone) // 2 - 1],
                       tone[:len(tone) // 2 - 1], atol=1e-6)

    def whole(stretch: float) -> float:
        """The share of the clips placed at their bank length."""
        mixer = Mixer(_bank(), beds, "train", 8, keywords=colours.COLOURS,
                      stretch=stretch)
        n = [n for _, placed in _placed(monkeypatch, mixer, 300) for n, _ in placed]
        return np.mean([k in (WORD, TALK) for k in n])

    assert whole(0.2) < 0.7 * whole(0.0)


def test_the_low_snr_band_is_an_option(monkeypatch, capsys):
    """``--low-snr-band LO,HI`` moves the low-SNR share into that band; without
    it the band stays 0..12 dB, and a band that is not LO < HI is refused."""
    from training.voice.mixing import Mixer

    args = _parsed(monkeypatch, ["--words", "colours", "--low-snr", "0.6",
                                 "--low-snr-band=-5,10"])
    assert args.low_snr == 0.6 and args.low_snr_band == (-5.0, 10.0)
    assert _parsed(monkeypatch, ["--words", "colours"]).low_snr_band is None
    for bad in ("10,-5", "3", "a,b"):
        with pytest.raises(SystemExit):
            cli.main(["--words", "colours", f"--low-snr-band={bad}"])
        assert "--low-snr-band" in capsys.readouterr().err
    beds = {"white": np.random.default_rng(1).standard_normal(3 * RATE).astype(
        np.float32)}
    band = Mixer(_bank(), beds, "train", 7, keywords=colours.COLOURS,
                 low_snr=1.0, low_band=(-5.0, 10.0))
    snrs = np.array([band._snr() for _ in range(500)])
    assert snrs.min() >= -5 and snrs.max() <= 10 and snrs.min() < -4
    default = Mixer(_bank(), beds, "train", 7, keywords=colours.COLOURS,
                    low_snr=1.0)
    snrs = np.array([default._snr() for _ in range(500)])
    assert snrs.min() >= 0 and snrs.max() <= 12 and snrs.max() > 11


def test_a_colour_network_is_saved_with_its_classes_and_loads(tmp_path):
    import torch

    from voice.kws import KwsModel, ModelError, build_model

    torch.manual_seed(0)
    net = build_model(width=16, classes=6).eval()
    args = argparse.Namespace(seed=7, batch=8, lr=1e-3, width=16, words="colours")
    path = tmp_path / "colour.pt"
    fit._save(net, args, 1, path)
    model = KwsModel(path, COLOUR_CLASSES)
    assert model.meta["classes"] == list(COLOUR_CLASSES)
    feats = np.random.default_rng(0).normal(-5, 2, (2, 100, 40)).astype(np.float32)
    assert model.probabilities(feats).shape == (2, 6)
    with pytest.raises(ModelError, match="not an uno keyword model"):
        KwsModel(path)


def test_the_colour_bank_keeps_the_evaluations_material_out():
    import benchmarks.eval_colours as ec
    import benchmarks.voice_audio as ev

    ours = colours.LEAD_EN + colours.LEAD_JA + colours.TALK_COLOUR_EN + \
        colours.TALK_COLOUR_JA + colours.CONFUSABLE_EN + colours.CONFUSABLE_JA
    theirs = ev.TALK_EN + ev.TALK_JA + ev.LEADS_EN + ev.LEADS_JA + \
        [text for text, _lang in ev.CONFUSABLE] + \
        [lead for leads in ec.LEADS.values() for lead in leads]
    assert not set(ours) & set(theirs)
    for text in ours:  # not even inside a longer sentence
        assert not any(t.lower() in text.lower() for t in theirs if len(t) > 6), text
    held = [v for vs in list(ec.HELD_VOICES.values()) + list(ec.TUNE_VOICES.values())
            for v in vs] + ev.EN_VOICES + ev.JA_VOICES
    bases = {v.split("+")[0] for v in held} - {"ja"}  # espeak-ng's only Japanese
    assert not bases & set(colours.EN_VOICES + colours.ROMAJI_VOICES)
    variants = {v.split("+")[1] for v in held if "+" in v}
    assert not variants & set(colours.VARIANTS)
    speeds = set(ec.HELD_SPEEDS + ec.TUNE_SPEEDS) | {120, 150, 175, 200}
    pitches = set(ec.HELD_PITCHES + ec.TUNE_PITCHES) | {30, 50, 70, 90}
    assert speeds <= colours.HELD_OUT_SPEEDS and pitches <= colours.HELD_OUT_PITCHES


def test_the_colour_bank_draws_training_voices_and_no_talk_ending_on_a_colour(
        monkeypatch, tmp_path):
    """A sentence ending on a colour ("Luna plays red.") is what naming a colour
    sounds like: it is neither a colour nor talk to the recipe. Every clip is
    said by a training voice at a training speed and pitch."""
    said: list[tuple] = []

    def fake(text, voice, speed, pitch, amplitude=100, gap=0):
        said.append((text, voice, speed, pitch))
        return np.ones(800, np.float32) * 0.1

    monkeypatch.setattr(colours, "_espeak", fake)
    bank = colours.make_colour_bank(tmp_path / "b.npz", 1, per_colour=9, talk=300,
                                    confusables=20)
    assert len(bank["train_red"]) == 9 and len(bank["val_red"]) == 2
    texts = {t for t, *_ in said}
    assert not texts & {"Luna plays red.", "I will pick blue.",
                        "Change the colour to red."}
    assert texts & set(colours.TALK_COLOUR_EN) and texts & set(speech.TALK_EN)
    assert colours._ends_with_colour("Luna plays red.")
    assert not colours._ends_with_colour("Red seven on the pile.")
    for _text, voice, speed, pitch in said:
        base, _, variant = voice.partition("+")
        assert base in colours.EN_VOICES + colours.JA_VOICES + colours.ROMAJI_VOICES
        assert variant in colours.VARIANTS
        assert speed not in colours.HELD_OUT_SPEEDS
        assert pitch not in colours.HELD_OUT_PITCHES
    again = colours.make_colour_bank(tmp_path / "b.npz", 1)  # from the cache
    assert len(again["train_red"]) == 9


def test_overlap_after_runs_another_word_over_the_colours_end(monkeypatch):
    """``--overlap-after``: a colour named on its own whose end another voice's
    word already runs over (starting 0.08-0.25 s before it ends) keeps its
    colour; talk right after a colour stays speech; left at 0 the examples are
    the shipped recipe's, draw for draw."""
    from training.voice.mixing import Mixer

    beds = {"white": np.random.default_rng(1).standard_normal(3 * RATE).astype(
        np.float32) * 1e-3}
    plain = Mixer(_bank(), beds, "train", 6, keywords=colours.COLOURS)
    zero = Mixer(_bank(), beds, "train", 6, keywords=colours.COLOURS,
                 overlap_after=0.0)
    for _ in range(30):
        (a, la), (b, lb) = plain.example(), zero.example()
        assert la == lb and np.array_equal(a, b)
    mixer = Mixer(_bank(), beds, "train", 9, keywords=colours.COLOURS,
                  overlap_after=1.0)
    named = 0
    for label, placed in _placed(monkeypatch, mixer, 400):
        if label >= 4:
            continue
        named += 1
        (n0, at), rest = placed[0], placed[1:]
        assert n0 == WORD
        end = at + WORD
        over = [a for _, a in rest
                if int(0.08 * RATE) - 1 <= end - a <= int(0.25 * RATE) + 1]
        assert len(over) == 1
    assert named > 80
    close = [label for label, placed in _placed(monkeypatch, mixer, 600)
             for n, at in placed if n == WORD
             if any(0 <= a - (at + WORD) <= int(0.1 * RATE)
                    for m, a in placed if m == TALK)]
    assert len(close) >= 20 and set(close) == {COLOUR_CLASSES.index("speech")}
