"""Train the neural UNO-call spotter (``models/uno-kws.pt``) from synthesised speech.

Reproduce the shipped model (needs the Debian package espeak-ng; about 30 min on
one core of the shared machine: 2 min of speech, 20-25 min of training, 4 min of
threshold tuning)::

    .venv/bin/python -m voice.train                     # data in /tmp/kws-data
    .venv/bin/python -m voice.train --data DIR --out models/uno-kws.pt --steps 6000

Stages, all seeded (``--seed``, default 7):

1. **Speech bank** (espeak-ng, one process at a time, cached in ``DIR/``
   :data:`BANK_FILE`): the call word in the training voices (:data:`EN_VOICES`,
   :data:`JA_VOICES`, :data:`OTHER_VOICES`) with random variants, speeds and
   pitches; lead phrases; table talk in English and Japanese that does not contain
   the word (:data:`TALK_EN`, :data:`TALK_JA`); confusables (:data:`CONFUSABLE`).
   Then, with its own generator, the British "oh" (əʊ) that no English training
   voice says: the call given as espeak phonemes to voices that realise them so
   (:data:`OU_VOICES`, :data:`CALL_OU`), talk and sound-alikes with the same vowel
   (:data:`TALK_OU`, :data:`CONFUSABLE_OU`), and "uno!" read by other languages'
   voices (:data:`UNO_VOICES`).
2. **Noise bank** (numpy): white, pink, brown, mains hum, card-shuffling riffles,
   clatter (clicks), and babble made of the talk.
3. **Training**: every example is one second mixed on the fly: a call (whole
   word in the window, sometimes after a lead phrase or before more talk), other
   speech (talk, confusables, a call cut short), or noise alone; noise at -5..30 dB
   SNR; random gain, reverb and filtering; the time and frequency masking of
   SpecAugment. Classes: ``uno``, ``speech``, ``noise``.
4. **Threshold** on validation streams made from held-out talk sentences, calls
   and sound-alikes (never from ``benchmarks/eval_voice.py``): the setting that
   hears most calls at 10 dB while giving no false alarm in 45 min of held-out
   talk and 45 min of noise (sound-alikes are reported, not used to choose).
   ``--tune-only`` repeats this stage for the model in ``--out``.

Held out for ``benchmarks/eval_voice.py``, which is the honest test: its voices
(en, en-us, en-gb-x-rp and the variants f2, f3, f4, m3; ja and ja+f2/m3/f4), its
speed grid (120/150/175/200) and pitch grid (30/50/70/90), its call, lead and talk
sentences and confusables. None of them appears here. The Japanese base voice is
the only one espeak-ng has, so the Japanese calls share it (with other variants).
"""

from __future__ import annotations

import argparse
import io
import json
import math
import random
import shutil
import subprocess
import sys
import time
import wave
from pathlib import Path

import numpy as np

from voice.audio import RATE
from voice.kws import CLASSES, HOP, WIN, WINDOW_FRAMES, KwsConfig, NeuralSpotter, \
    build_model, normalise, replay

SAMPLES = WIN + (WINDOW_FRAMES - 1) * HOP  # one window of audio
EN_VOICES = ["en-gb-scotland", "en-gb-x-gbclan", "en-gb-x-gbcwmd", "en-029",
             "en-us-nyc"]
JA_VOICES = ["ja"]  # the only Japanese voice; eval_voice's variants are excluded
OTHER_VOICES = ["es", "es-419", "it", "pt", "eo", "la"]  # say "uno" u-no too
VARIANTS = ["", "m1", "m2", "m4", "m5", "m6", "m7", "f1", "f5", "klatt", "klatt2",
            "klatt4", "Andy", "Annie", "Alex", "Alicia", "Denis", "Mike", "anika",
            "aunty", "boris", "david", "ed", "john", "linda", "max", "paul", "rob",
            "steph", "quincy", "grandma", "grandpa", "whisperf", "croak", "norbert",
            "victor", "travis", "shelby"]
HELD_OUT_SPEEDS = {120, 150, 175, 200}  # eval_voice's grid
HELD_OUT_PITCHES = {30, 50, 70, 90}
CALL_EN = ["uno!", "Uno?", "UNO", "uno.", "Uno!!", "uno,"]
CALL_JA = ["ウノ!!", "ウノ。", "うの!", "ウノー", "ウノ?"]
LEAD_EN = ["Green four.", "Yellow nine, ha.", "Wild, blue.", "Skip you.", "Here we go.",
           "Take that.", "Plus two for you.", "Reverse!", "Okay then.", "And a six.",
           "Green.", "Last card but one,", "Sorry Ann,", "Blue eight and"]
LEAD_JA = ["みどりの さん。", "リバース。", "これで", "よし、", "はい、 きいろ。",
           "ドロー ツー。", "あおの きゅう、", "ごめんね、"]
TALK_EN = [
    "Is it my go now?", "I think you skipped me.", "Put the green five down.",
    "Whose deal is it this time?", "Hand me the deck.", "Let me shuffle first.",
    "That is not fair at all.", "I need a yellow card.", "Seven cards each, right?",
    "Pick up two, my friend.", "Change the colour to red.", "Count the points.",
    "Do we play with stacking?", "Anyone want a drink?", "I have got nothing.",
    "Just one more round.", "My hand is terrible.", "Play faster, please.",
    "Reverse again, really?", "The wild card goes on anything.", "Who won last time?",
    "Take four and miss a go.", "Blue nine, blue two.", "I can match the number.",
    "Draw until you find one.", "Don't look at my cards.", "Eight, nine, ten.",
    "Forty two points so far.", "It is still Emma's turn.", "Tom, you are next.",
    "Yellow zero, then.", "Can you pass the chips?", "I forgot the rules.",
    "Hey, that was mine.", "We need another player.", "The pile is empty.",
    "Turn the top card over.", "Green, green, and green again.", "Nice move.",
    "Skip me one more time and I quit.", "Wait a second.", "Good game everybody.",
    "Let us keep score on paper.", "Three cards left for Sam.", "Mark has two.",
    "That makes one hundred.", "I will pick blue.", "How many do you have?",
    "You owe me a coffee.", "Ninety nine problems.", "No, not that one.",
    "Who is winning?", "Another game?", "One, two, three, four.", "I know, I know.",
    "Nope, not me.", "Hello everyone.", "The dog ate a card.", "Have you met Juno?",
    "Bruno is coming later.", "A tuna sandwich.", "Look at the moon.",
    "A unicorn card?", "The menu is over there.", "Luna plays red.",
    "Annie knows the rules.", "Unit one, unit two.", "It is noon already.",
]
TALK_JA = [
    "わたしの ばん ですか。", "あかの ごを だします。", "カードを にまい ひいて。",
    "つぎは だれ ですか。", "いろを あおに かえます。", "もう いっかい やろう。",
    "てが わるいなあ。", "はやく して ください。", "きいろの カードが ほしい。",
    "てんすうを かぞえよう。", "ワイルド カード です。", "おちゃ のむ?",
    "さんまい のこって います。", "これで おわり です。", "ちょっと まって。",
    "ずるい よ。", "だれが かったの?", "きのうの よるは たのしかった。",
    "うん、 そうだね。", "のの ちゃん の ばん。", "うえの さん が くる。",
    "うなぎ が たべたい。", "じゅうの カード。", "おのの さん。", "うみの しゃしん。",
    "ひゃく てん です。", "なな、 はち、 きゅう。", "ドロー フォー です。",
    "すきっぷ されました。", "しろい カード。", "さいごの いちまい。", "くうの ばしょ。",
    "にゅうの ふくろ。", "ぬのの バッグ。", "ふうせん。", "ゆきの ひ。",
]
CONFUSABLE_EN = ["no", "one", "you", "new", "Juno", "Bruno", "tuna", "Luna", "noon",
                 "menu", "uh, no", "who, no?", "a new one", "you knew", "oh, nah",
                 "uni", "unit", "annoy", "we know", "do know", "ammo", "no no no",
                 "you now", "you owe", "Oona", "una", "eunuch", "Yuna"]
CONFUSABLE_JA = ["うん", "のの", "うに", "うなぎ", "うえの", "おの", "ぬの", "くの",
                 "うんの", "すうの", "ふうの", "じゅうの", "きのうの", "のう", "うの み",
                 "うのはな"]
# The British "oh" (IPA əʊ) of eval_voice's en/en-gb-x-rp voices is said by no English
# training voice (they say oː or oʊ). These tables realise the espeak phonemes [[@U]]
# as əʊ (checked with ``espeak-ng -v VOICE -q --ipa "[['u:n@U]]"``): calls in them,
# and as many talk and sound-alikes with the same vowel, so that the vowel alone is
# not the call. Phoneme strings of eval_voice's phrases ("you know", "oh no", "who
# knows", "no way", "Yuno") are kept out too.
OU_VOICES = ["de", "sv", "fi", "nb", "ro", "hr", "id", "af", "cy"]
CALL_OU = ["[['u:n@U]]", "[['u:n@U]]!", "[['u:n@U]]?", "[['u:n@U]].", "[['un@U]]"]
UNO_VOICES = ["de", "pl", "cs", "hu", "tr", "ro", "hr", "fi", "sl", "ca", "lt"]
"""Voices that read the text "uno!" their own way, with a u-like first vowel."""
TALK_OU = [
    "[[aI d'@Unt n'@U]]", "[[l'ets g'@U]]", "[[n'@U, n'at j'et]]",
    "[[s'@U, h'u:z n'ekst]]", "[[g'@U @h'ed]]", "[[d'@Unt g'@U j'et]]",
    "[[n'@U k'a:dz l'eft]]", "[[j'u: g'@U n'aU]]", "[[@ l'@U k'a:d]]",
    "[[j'u: @U m'i: t'u:]]", "[[n'@U, s'@U n'@U]]", "[[s'@U l'@U]]",
    "[[t'@Uld j'u: s'@U]]", "[[aI n'@U, aI n'@U]]", "[[n'@U bl'u: k'a:dz]]",
    "[[@Uk'eI, g'@U @n]]", "[[n'@U m'O:]]", "[[s'@U m'eni k'a:dz]]",
    "[[h'@U m'eni t'u: g'@U]]", "[[s'@U b'@U@IN]]",
]
CONFUSABLE_OU = [
    "[[n'@U]]", "[[g'@U]]", "[[s'@U]]", "[[n'@U n'@U]]", "[[@n'@Ut]]", "[[l'@U@]]",
    "[[dZ'u:n@U]]", "[[n'u: w'an]]", "[[aI n'@U]]", "[[j'u: g'@U]]", "[[d'u: n'@U]]",
    "[[br'u:n@U]]", "[[pi:'an@U]]", "[[m'em@U]]", "[[n'@Ut]]", "[[n'@Un]]",
    "[[v'i:t@U]]", "[[@nn'@Un]]", "[[t'u: n'@U]]", "[[k'@Ud]]",
]
VAL_FRACTION = 0.2
BANK_FILE = "bank-v3.npz"  # named per recipe, so an older recipe's cache is not reused


def _espeak(text: str, voice: str, speed: int, pitch: int,
            amplitude: int = 100, gap: int = 0) -> np.ndarray:
    """espeak-ng speech at 16 kHz, float32, leading/trailing silence trimmed."""
    cmd = ["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-a",
           str(amplitude), "-g", str(gap), "--stdout", text]
    out = subprocess.run(cmd, capture_output=True, check=True).stdout
    with wave.open(io.BytesIO(out)) as w:
        rate = w.getframerate()
        x = np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(np.float32)
    x /= 32768.0
    loud = np.flatnonzero(np.abs(x) > 0.01 * max(np.abs(x).max(), 1e-6))
    x = x[loud[0]:loud[-1] + 1] if len(loud) else x
    n = int(len(x) * RATE / rate)
    return np.interp(np.arange(n) * rate / RATE, np.arange(len(x)), x).astype(
        np.float32)


def _voice(rng: random.Random, bases: list[str]) -> str:
    base = rng.choice(bases)
    # the plain Japanese voice is eval_voice's: always use a variant of it here
    variant = rng.choice(VARIANTS[1:] if base in JA_VOICES else VARIANTS)
    return f"{base}+{variant}" if variant else base


def _speed_pitch(rng: random.Random) -> tuple[int, int]:
    while True:
        speed, pitch = rng.randint(100, 240), rng.randint(10, 99)
        if speed not in HELD_OUT_SPEEDS and pitch not in HELD_OUT_PITCHES:
            return speed, pitch


def _say(rng: random.Random, text: str, bases: list[str]) -> np.ndarray:
    speed, pitch = _speed_pitch(rng)
    return _espeak(text, _voice(rng, bases), speed, pitch,
                   gap=rng.choice([0, 0, 1, 3]))


def _split(items: list[str], rng: random.Random) -> tuple[list[str], list[str]]:
    shuffled = items[:]
    rng.shuffle(shuffled)
    n_val = max(1, int(len(shuffled) * VAL_FRACTION))
    return shuffled[n_val:], shuffled[:n_val]


def make_bank(path: Path, seed: int, calls: int = 1600, talk: int = 1400,
              confusables: int = 700) -> dict[str, list[np.ndarray]]:
    """Synthesise the speech bank (or load it from ``path``): lists of clips for
    the train and validation splits of calls, leads, talk and confusables."""
    if path.is_file():
        with np.load(path, allow_pickle=False) as z:
            return {k: _unpack(z[k], z[k + "_len"]) for k in z.files
                    if not k.endswith("_len")}
    rng = random.Random(seed)
    bank: dict[str, list[np.ndarray]] = {}
    talk_en, val_talk_en = _split(TALK_EN, rng)
    talk_ja, val_talk_ja = _split(TALK_JA, rng)
    conf_en, val_conf_en = _split(CONFUSABLE_EN, rng)
    conf_ja, val_conf_ja = _split(CONFUSABLE_JA, rng)
    t0 = time.time()
    for split, n_scale, sets in (
            ("train", 1.0, (talk_en, talk_ja, conf_en, conf_ja, LEAD_EN, LEAD_JA)),
            ("val", 0.25, (val_talk_en, val_talk_ja, val_conf_en, val_conf_ja,
                           LEAD_EN, LEAD_JA))):
        t_en, t_ja, c_en, c_ja, l_en, l_ja = sets
        out_calls = []
        for i in range(int(calls * n_scale)):
            kind = i % 6
            if kind < 3:
                out_calls.append(_say(rng, rng.choice(CALL_EN), EN_VOICES))
            elif kind < 5:
                out_calls.append(_say(rng, rng.choice(CALL_JA), JA_VOICES))
            else:
                out_calls.append(_say(rng, "uno!", OTHER_VOICES))
        bank[f"{split}_calls"] = out_calls
        bank[f"{split}_leads"] = [
            _say(rng, rng.choice(l_en), EN_VOICES) if i % 2 else
            _say(rng, rng.choice(l_ja), JA_VOICES) for i in range(int(300 * n_scale))]
        bank[f"{split}_talk"] = [
            _say(rng, rng.choice(t_en), EN_VOICES) if i % 3 else
            _say(rng, rng.choice(t_ja), JA_VOICES) for i in range(int(talk * n_scale))]
        bank[f"{split}_confusables"] = [
            _say(rng, rng.choice(c_en), EN_VOICES) if i % 2 else
            _say(rng, rng.choice(c_ja), JA_VOICES)
            for i in range(int(confusables * n_scale))]
        print(f"speech bank {split}: {len(out_calls)} calls "
              f"({time.time() - t0:.0f} s)", flush=True)
    _add_ou(bank, seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    packed = {}
    for key, clips in bank.items():
        packed[key] = np.concatenate(clips)
        packed[key + "_len"] = np.array([len(c) for c in clips])
    np.savez(path, **packed)
    return bank


def _add_ou(bank: dict[str, list[np.ndarray]], seed: int, calls: int = 500,
            other: int = 150, talk: int = 300, confusables: int = 300) -> None:
    """Append the British-vowel material (:data:`OU_VOICES`) and other languages'
    "uno" (:data:`UNO_VOICES`) to ``bank``, with its own generator so that the rest
    of the bank stays as it was."""
    rng = random.Random(seed + 100)
    talk_ou, val_talk_ou = _split(TALK_OU, rng)
    conf_ou, val_conf_ou = _split(CONFUSABLE_OU, rng)
    for split, n_scale, t_ou, c_ou in (("train", 1.0, talk_ou, conf_ou),
                                       ("val", 0.25, val_talk_ou, val_conf_ou)):
        bank[f"{split}_calls"] += [
            _say(rng, rng.choice(CALL_OU), OU_VOICES)
            for _ in range(int(calls * n_scale))] + [
            _say(rng, "uno!", UNO_VOICES) for _ in range(int(other * n_scale))]
        bank[f"{split}_talk"] += [_say(rng, rng.choice(t_ou), OU_VOICES)
                                  for _ in range(int(talk * n_scale))]
        bank[f"{split}_confusables"] += [_say(rng, rng.choice(c_ou), OU_VOICES)
                                         for _ in range(int(confusables * n_scale))]
        print(f"speech bank {split}: {len(bank[f'{split}_calls'])} calls with the "
              "British vowel and other languages", flush=True)


def _unpack(flat: np.ndarray, lengths: np.ndarray) -> list[np.ndarray]:
    return np.split(flat, np.cumsum(lengths)[:-1])


def _coloured(rng: np.random.Generator, n: int, exponent: float) -> np.ndarray:
    """Noise with power falling as f**-exponent (0 white, 1 pink, 2 brown)."""
    spec = np.fft.rfft(rng.standard_normal(n))
    f = np.maximum(np.fft.rfftfreq(n, 1 / RATE), 20.0)
    x = np.fft.irfft(spec / f ** (exponent / 2), n)
    return (x / x.std()).astype(np.float32)


def make_noise(rng: np.random.Generator, talk: list[np.ndarray],
               seconds: float = 40.0) -> dict[str, np.ndarray]:
    """Unit-RMS noise beds of every kind, ``seconds`` long each."""
    n = int(seconds * RATE)
    beds = {"white": _coloured(rng, n, 0.0), "pink": _coloured(rng, n, 1.0),
            "brown": _coloured(rng, n, 2.0),
            "blue": _coloured(rng, n, -0.7)}
    t = np.arange(n) / RATE
    mains = rng.choice([50.0, 60.0])
    hum = sum(np.sin(2 * np.pi * mains * k * t + rng.uniform(0, 6)) / k
              for k in range(1, 8))
    beds["hum"] = hum + 0.3 * beds["pink"]
    base = _coloured(rng, n, 0.6)
    for name, (gap_lo, gap_hi, len_lo, len_hi) in {
            "shuffle": (0.01, 0.15, 0.01, 0.08), "clatter": (0.1, 1.2, 0.002, 0.03)
    }.items():
        x = np.zeros(n, np.float32)
        pos = 0
        while True:
            pos += int(rng.uniform(gap_lo, gap_hi) * RATE)
            size = max(int(rng.uniform(len_lo, len_hi) * RATE), 16)
            if pos + size >= n:
                break
            start = int(rng.integers(0, n - size))
            env = np.hanning(size) if name == "shuffle" else \
                np.exp(-np.arange(size) / (size / 4))
            x[pos:pos + size] += base[start:start + size] * env * rng.uniform(0.2, 1.0)
            if rng.random() < 0.04:
                pos += int(rng.uniform(0.2, 2.0) * RATE)
        beds[name] = x + 0.03 * beds["brown"]
    for name, voices in (("babble", 3), ("crowd", 6)):
        beds[name] = _talk_bed(rng, talk, n, voices)
    return {k: (v / (np.sqrt(np.mean(v ** 2)) + 1e-9)).astype(np.float32)
            for k, v in beds.items()}


def _talk_bed(rng: np.random.Generator, talk: list[np.ndarray], n: int,
              voices: int) -> np.ndarray:
    """``n`` samples of ``voices`` people talking at once, each saying one
    sentence of ``talk`` after another with short pauses."""
    x = np.zeros(n, np.float32)
    for _ in range(voices):
        pos = int(rng.integers(0, RATE))
        while pos < n:
            clip = talk[int(rng.integers(len(talk)))]
            clip = clip / (clip.std() + 1e-6) * rng.uniform(0.4, 1.0)
            end = min(n, pos + len(clip))
            x[pos:end] += clip[:end - pos]
            pos = end + int(rng.uniform(0.05, 1.0) * RATE)
    return x


def long_talk_beds(rng: np.random.Generator, talk: list[np.ndarray],
                   seconds: float) -> dict[str, np.ndarray]:
    """Babble (3 voices) and crowd (6) beds ``seconds`` long, unit RMS: with the
    40 s beds of :func:`make_noise` a network hears the same stretch of babble
    thousands of times and learns that stretch, not babble."""
    n = int(seconds * RATE)
    beds = {name: _talk_bed(rng, talk, n, voices)
            for name, voices in (("babble", 3), ("crowd", 6))}
    return {k: (v / (np.sqrt(np.mean(v ** 2)) + 1e-9)).astype(np.float32)
            for k, v in beds.items()}


def _rms(x: np.ndarray) -> float:
    voiced = x[np.abs(x) > 0.02 * (np.max(np.abs(x)) + 1e-9)]
    return float(np.sqrt(np.mean(voiced ** 2))) if len(voiced) else 1e-6


def _place(out: np.ndarray, clip: np.ndarray, at: int) -> None:
    """Add ``clip`` into ``out`` starting at sample ``at`` (may stick out)."""
    lo, hi = max(at, 0), min(at + len(clip), len(out))
    if hi > lo:
        out[lo:hi] += clip[lo - at:hi - at]


def fast_log_mel(x: np.ndarray) -> np.ndarray:
    """:func:`voice.kws.log_mel` of a ``(batch, samples)`` array, computed with
    torch's float32 FFT (several times faster; the same features to float
    precision)."""
    import torch

    from voice.kws import _FB, _HANN, NFFT

    frames = torch.from_numpy(np.ascontiguousarray(x, np.float32)).unfold(-1, WIN, HOP)
    spec = torch.fft.rfft(frames * torch.from_numpy(_HANN), NFFT)
    power = spec.real ** 2 + spec.imag ** 2
    return torch.log(power @ torch.from_numpy(_FB) + 1e-6).numpy()


class Mixer:
    """Makes labelled one-second examples from the banks (seeded)."""

    def __init__(self, bank: dict[str, list[np.ndarray]], noise: dict[str, np.ndarray],
                 split: str, seed: int, after_talk: float = 0.0,
                 chatter: float = 0.0, babble_negatives: float = 0.0):
        self.calls = bank[f"{split}_calls"]
        self.after_talk = after_talk
        self.chatter = chatter
        self.babble_negatives = babble_negatives
        self.leads = bank[f"{split}_leads"]
        self.talk = bank[f"{split}_talk"]
        self.confusables = bank[f"{split}_confusables"]
        self.noise = noise
        self.rng = np.random.default_rng(seed)

    def _pick(self, clips: list[np.ndarray]) -> np.ndarray:
        return clips[int(self.rng.integers(len(clips)))]

    def example(self) -> tuple[np.ndarray, int]:
        """One window of audio and its class index."""
        rng = self.rng
        # other people talking and nobody calling: a noise example on the babble
        # or crowd beds (drawn only when the option is on, so that the shipped
        # recipe's examples stay as they were)
        babble = bool(self.babble_negatives) and rng.random() < self.babble_negatives
        label = 2 if babble else int(rng.choice(3, p=[0.4, 0.42, 0.18]))
        fg = np.zeros(SAMPLES, np.float32)
        level = 1.0
        if label == 0:
            word = self._pick(self.calls)[:SAMPLES - 200]
            level = _rms(word)
            if rng.random() < 0.5:
                end = SAMPLES - int(rng.uniform(0, 0.3) * RATE)
            else:
                end = int(rng.integers(len(word), SAMPLES + 1))
            start = max(end - len(word), 0)
            _place(fg, word, start)
            if rng.random() < 0.35:
                lead = self._pick(self.leads)
                lead = lead / _rms(lead) * level * rng.uniform(0.5, 1.5)
                _place(fg, lead, start - int(rng.uniform(0.05, 0.5) * RATE) - len(lead))
            elif self.after_talk and rng.random() < self.after_talk:
                # a whole sentence said first, its end still in the window
                talk = self._pick(self.talk)
                talk = talk / _rms(talk) * level * rng.uniform(0.5, 1.5)
                _place(fg, talk, start - int(rng.uniform(0.2, 0.9) * RATE) - len(talk))
            if rng.random() < 0.15 and end < SAMPLES - 0.2 * RATE:
                after = self._pick(self.talk)
                after = after / _rms(after) * level * rng.uniform(0.5, 1.5)
                _place(fg, after, end + int(rng.uniform(0.15, 0.5) * RATE))
        elif label == 1:
            kind = rng.random()
            if kind < 0.45:
                clip = self._pick(self.talk)
            elif kind < 0.8:
                clip = self._pick(self.confusables)
            else:  # a call cut short: "u-n" or "-no"
                word = self._pick(self.calls)
                cut = int(len(word) * rng.uniform(0.3, 0.6))
                clip = word[:cut] if rng.random() < 0.6 else word[-cut:]
            level = _rms(clip)
            at = int(rng.integers(-len(clip) + int(0.2 * RATE),
                                  SAMPLES - int(0.1 * RATE)))
            _place(fg, clip, at)
            if rng.random() < 0.2:  # a call word cut by the window's end
                word = self._pick(self.calls)
                _place(fg, word / _rms(word) * level,
                       SAMPLES - int(len(word) * rng.uniform(0.35, 0.7)))
        if label != 2 or rng.random() < 0.3:
            fg = self._room(fg)
        if label == 2 and rng.random() < 0.3:  # distant talk under the noise
            clip = self._pick(self.talk)
            _place(fg, clip / _rms(clip) * 0.1,
                   int(rng.integers(-len(clip), SAMPLES)))
        if babble or (self.chatter and rng.random() < self.chatter):
            # other people talking: the noise the spotter confuses most
            kind = ("babble", "crowd")[int(rng.integers(2))]
        else:
            kind = list(self.noise)[int(rng.integers(len(self.noise)))]
        bed = self.noise[kind]
        at = int(rng.integers(0, len(bed) - SAMPLES))
        noise = bed[at:at + SAMPLES]
        if label == 2:
            mix = noise * rng.uniform(0.2, 1.0) + fg
        elif rng.random() < 0.08:
            mix = fg + noise * level * 10 ** (-rng.uniform(40, 60) / 20)
        else:
            snr = rng.uniform(-5, 30)
            mix = fg + noise * level / 10 ** (snr / 20)
        if rng.random() < 0.3:  # a second kind of noise, quieter
            other = self.noise[list(self.noise)[int(rng.integers(len(self.noise)))]]
            at = int(rng.integers(0, len(other) - SAMPLES))
            quieter = 10 ** (-rng.uniform(10, 35) / 20)
            mix = mix + other[at:at + SAMPLES] * level * quieter
        peak = np.max(np.abs(mix)) + 1e-9
        gain = 10 ** (rng.uniform(-40, -1) / 20) / peak
        mix = mix * gain + rng.standard_normal(SAMPLES).astype(np.float32) * 1e-5
        return mix.astype(np.float32), label

    def _room(self, x: np.ndarray) -> np.ndarray:
        """Random reverb and filtering (one FFT pass)."""
        rng = self.rng
        reverb, eq = rng.random() < 0.35, rng.random() < 0.4
        if not (reverb or eq):
            return x
        n = 2 ** int(math.ceil(math.log2(SAMPLES + 0.5 * RATE)))
        spec = np.fft.rfft(x, n)
        if reverb:
            t60 = rng.uniform(0.1, 0.6)
            length = int(min(t60, 0.5) * RATE)
            ir = rng.standard_normal(length) * np.exp(-6.9 * np.arange(length)
                                                     / (t60 * RATE))
            ir[0] = 1.0 / rng.uniform(0.3, 1.0)
            spec = spec * np.fft.rfft(ir / np.sqrt(np.sum(ir ** 2)), n)
        if eq:
            f = np.fft.rfftfreq(n, 1 / RATE)
            lo, hi = rng.uniform(50, 400), rng.uniform(3000, 8000)
            gain = 1 / np.sqrt(1 + (lo / np.maximum(f, 1)) ** 4) / \
                np.sqrt(1 + (f / hi) ** 4)
            gain *= (np.maximum(f, 100) / 1000) ** rng.uniform(-0.5, 0.5)
            spec = spec * gain
        return np.fft.irfft(spec, n)[:SAMPLES].astype(np.float32)

    def batch(self, size: int, augment: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Normalised features ``(size, WINDOW_FRAMES, N_MELS)`` and labels."""
        audio, labels = zip(*(self.example() for _ in range(size)))
        feats = fast_log_mel(np.stack(audio))
        if augment:
            feats = np.stack([self._spec_augment(f) for f in feats])
        return normalise(feats), np.array(labels)

    def _spec_augment(self, f: np.ndarray) -> np.ndarray:
        rng = self.rng
        f = f.copy()
        if rng.random() < 0.5:
            w = int(rng.integers(1, 6))
            b = int(rng.integers(0, f.shape[1] - w))
            f[:, b:b + w] = f.mean()
        if rng.random() < 0.3:
            w = int(rng.integers(1, 6))
            b = int(rng.integers(0, f.shape[0] - w))
            f[b:b + w] = f.mean(axis=0)
        return f


def validation_streams(bank: dict[str, list[np.ndarray]], noise: dict[str, np.ndarray],
                       seed: int, calls: int = 160, talk_minutes: float = 45.0,
                       noise_minutes: float = 45.0) -> dict:
    """Long validation recordings from the validation split: calls in noise at
    20, 10 and 0 dB SNR (with their marks), talk without the word (held-out
    sentences), noise alone, and the held-out sound-alikes one by one."""
    rng = np.random.default_rng(seed)
    kinds = list(noise)
    pos = [np.zeros(RATE, np.float32)]
    marks, t = [], RATE
    picked = [bank["val_calls"][i * len(bank["val_calls"]) // calls]
              for i in range(calls)]  # spread over every kind of call
    for word in picked:
        level = _rms(word)
        if rng.random() < 0.3:
            lead = bank["val_leads"][int(rng.integers(len(bank["val_leads"])))]
            pos += [lead / _rms(lead) * level,
                    np.zeros(int(rng.uniform(0.25, 0.5) * RATE), np.float32)]
            t += len(pos[-1]) + len(pos[-2])
        pos += [word, np.zeros(int(rng.uniform(1.5, 3.0) * RATE), np.float32)]
        marks.append((t / RATE, (t + len(word)) / RATE))
        t += len(word) + len(pos[-1])
    speech = np.concatenate(pos)
    level = _rms(np.concatenate(picked))
    snr_audio = {}
    for snr in (20, 10, 0):
        bed = np.concatenate([noise[kinds[(i + snr) % len(kinds)]]
                              for i in range(len(speech) // len(noise[kinds[0]]) + 2)])
        snr_audio[snr] = (speech + bed[:len(speech)] * level / 10 ** (snr / 20)) \
            * 0.3 / level
    parts, n = [], 0
    while n < talk_minutes * 60 * RATE:  # the held-out sentences, reshuffled
        clip = bank["val_talk"][int(rng.integers(len(bank["val_talk"])))]
        clip = clip / _rms(clip) * 0.2 * rng.uniform(0.5, 1.5)
        pause = np.zeros(int(rng.uniform(0.3, 2.0) * RATE), np.float32)
        parts += [clip, pause]
        n += len(clip) + len(pause)
    talk = np.concatenate(parts)
    talk = talk + 0.02 * noise["pink"][np.arange(len(talk)) % len(noise["pink"])]
    parts = []
    for clip in bank["val_confusables"]:
        parts += [clip / _rms(clip) * 0.2, np.zeros(2 * RATE, np.float32)]
    confusables = np.concatenate(parts)
    per = int(noise_minutes * 60 * RATE / len(kinds))
    noise_audio = np.concatenate([np.tile(noise[k], per // len(noise[k]) + 1)[:per]
                                  * 0.05 for k in kinds])
    return {"marks": marks, "snr": snr_audio, "talk": talk, "noise": noise_audio,
            "confusables": confusables, "n_confusables": len(bank["val_confusables"])}


def trace_of(model, audio: np.ndarray) -> list[tuple[float, float, float]]:
    """Every window's (t, prob, level) for a recording, fed in 0.1 s chunks."""
    from voice.audio import to_pcm16

    spotter = NeuralSpotter(model, KwsConfig(threshold=2.0), record=True)
    pcm = to_pcm16(audio, RATE)
    step = int(0.1 * RATE) * 2
    for i in range(0, len(pcm), step):
        spotter.feed(pcm[i:i + step])
    return spotter.trace


def tune(model, streams: dict, goal_fa: float = 0.5) -> dict:
    """Detection and false alarms per threshold; picks the setting with the best
    detection at 10 dB among those whose false alarms on validation talk and
    noise are at most ``goal_fa`` per hour (none in the validation hour)."""
    traces = {k: trace_of(model, v) for k, v in streams["snr"].items()}
    talk, noise = trace_of(model, streams["talk"]), trace_of(model, streams["noise"])
    confusables = trace_of(model, streams["confusables"])
    hours_talk = len(streams["talk"]) / RATE / 3600
    hours_noise = len(streams["noise"]) / RATE / 3600
    rows = []
    for thr in (0.5, 0.8, 0.85, 0.9, 0.93, 0.95, 0.96, 0.97, 0.98, 0.99):
        for hits in (1, 2, 3):
            cfg = KwsConfig(threshold=thr, min_hits=hits)
            det = {}
            for snr, tr in traces.items():
                found = [c[1] for c in replay(tr, cfg)]
                det[snr] = float(np.mean([any(s - 0.3 <= f <= e + 1.0 for f in found)
                                          for s, e in streams["marks"]]))
            row = {"threshold": thr, "min_hits": hits, "det": det,
                   "fa_talk": len(replay(talk, cfg)) / hours_talk,
                   "fa_noise": len(replay(noise, cfg)) / hours_noise,
                   "confusables": len(replay(confusables, cfg))
                   / streams["n_confusables"]}
            rows.append(row)
            print(f"thr {thr:<6} hits {hits}  det " +
                  " ".join(f"{s}dB {100 * d:5.1f}%" for s, d in det.items()) +
                  f"  FA/h talk {row['fa_talk']:.1f} noise {row['fa_noise']:.1f}"
                  f"  sound-alikes fired {100 * row['confusables']:.0f}%",
                  flush=True)
    ok = [r for r in rows if r["fa_talk"] <= goal_fa and r["fa_noise"] <= goal_fa]
    best = max(ok or rows, key=lambda r: (r["det"][10], -r["fa_talk"]))
    return {"rows": rows, "best": best}


def train(args: argparse.Namespace) -> int:
    """Build the banks, train, tune the threshold, save the model."""
    import torch

    torch.set_num_threads(1)
    member = args.seed if args.member_seed is None else args.member_seed
    torch.manual_seed(member)
    data = Path(args.data)
    if shutil.which("espeak-ng") is None and not (data / BANK_FILE).is_file():
        print("voice.train: espeak-ng is not installed (apt-get install espeak-ng)")
        return 2
    bank = make_bank(data / BANK_FILE, args.seed)
    noise = make_noise(np.random.default_rng(args.seed), bank["train_talk"])
    if args.talk_beds:
        # longer babble and crowd, drawn for this member from the training talk
        noise.update(long_talk_beds(np.random.default_rng(member + 1000),
                                    bank["train_talk"], args.talk_beds))
    val_noise = make_noise(np.random.default_rng(args.seed + 1), bank["val_talk"])
    mixer = Mixer(bank, noise, "train", member, args.after_talk, args.chatter,
                  args.babble_negatives)
    val_x, val_y = Mixer(bank, val_noise, "val", args.seed + 2).batch(1500, False)
    model = build_model(width=args.width)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=args.steps,
                                                pct_start=0.05)
    # a missed call costs less than a call heard in talk: weight speech up
    loss_fn = torch.nn.CrossEntropyLoss(weight=torch.tensor([1.0, 1.5, 1.0]),
                                        label_smoothing=0.02)
    t0 = time.time()
    for step in range(1, args.steps + 1):
        model.train()
        x, y = mixer.batch(args.batch)
        loss = loss_fn(model(torch.from_numpy(x)), torch.from_numpy(y))
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 250 == 0 or step == args.steps:
            model.eval()
            with torch.inference_mode():
                pred = model(torch.from_numpy(val_x)).argmax(1).numpy()
            acc = [(pred[val_y == c] == c).mean() for c in range(len(CLASSES))]
            print(f"step {step}: loss {loss.item():.3f}, validation recall " +
                  ", ".join(f"{n} {100 * a:.1f}%" for n, a in zip(CLASSES, acc)) +
                  f" ({time.time() - t0:.0f} s)", flush=True)
            _save(model, args, step, Path(args.out))
    _tune_and_save(args, bank, val_noise)
    return 0


def _tune_and_save(args: argparse.Namespace, bank: dict, val_noise: dict) -> None:
    """Tune the model (or ensemble) in ``args.out`` on the validation streams and
    write the setting into its file (the weights stay as they are)."""
    import torch

    from voice.kws import KwsModel

    streams = validation_streams(bank, val_noise, args.seed + 3)
    tuned = tune(KwsModel(args.out), streams)
    best = tuned["best"]
    blob = torch.load(args.out, map_location="cpu", weights_only=True)
    blob["meta"].update(threshold=best["threshold"], min_hits=best["min_hits"],
                        validation=best)
    torch.save(blob, args.out)
    print(f"saved {args.out}: threshold {best['threshold']}, min_hits "
          f"{best['min_hits']} (validation: {json.dumps(best)})")


def retune(args: argparse.Namespace) -> int:
    """Tune the threshold of an already trained model again (``--tune-only``)."""
    import torch

    torch.set_num_threads(1)
    bank = make_bank(Path(args.data) / BANK_FILE, args.seed)
    val_noise = make_noise(np.random.default_rng(args.seed + 1), bank["val_talk"])
    _tune_and_save(args, bank, val_noise)
    return 0


def ensemble(args: argparse.Namespace) -> int:
    """Join trained models of one shape into an ensemble in ``args.out`` (the
    members' window probabilities are averaged) and tune its threshold on the
    validation streams of ``--seed``. The members must share that speech bank
    and split (trained with the same ``--seed``; ``--member-seed`` differs)."""
    import torch

    from voice.kws import KwsModel

    torch.set_num_threads(1)
    members = [KwsModel(path) for path in args.ensemble]
    arch = members[0].meta.get("arch", {})
    for m in members:
        if m.meta.get("arch", {}) != arch or m.meta.get("seed") != args.seed:
            print(f"voice.train: {m.path} is not a member of this ensemble (arch "
                  f"{m.meta.get('arch')}, seed {m.meta.get('seed')}; want {arch}, "
                  f"seed {args.seed})")
            return 2
    meta = {k: v for k, v in members[0].meta.items()
            if k not in ("threshold", "min_hits", "validation", "member_seed")}
    meta["members"] = [{"file": Path(m.path).name,
                        "member_seed": m.meta.get("member_seed", m.meta.get("seed")),
                        "after_talk": m.meta.get("after_talk", 0.0),
                        "chatter": m.meta.get("chatter", 0.0),
                        "babble_negatives": m.meta.get("babble_negatives", 0.0),
                        "talk_beds": m.meta.get("talk_beds", 0.0),
                        "steps": m.meta.get("steps")} for m in members]
    states = [net.state_dict() for m in members for net in m.models]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    torch.save({"meta": meta, "states": states}, args.out)
    bank = make_bank(Path(args.data) / BANK_FILE, args.seed)
    val_noise = make_noise(np.random.default_rng(args.seed + 1), bank["val_talk"])
    _tune_and_save(args, bank, val_noise)
    return 0


def _save(model, args: argparse.Namespace, step: int, out: Path) -> None:
    """The network and its recipe (the threshold is added by tuning)."""
    import torch

    width = getattr(args, "width", 64)
    arch = {} if width == 64 else {"width": width}
    meta = {"classes": list(CLASSES), "arch": arch, "seed": args.seed, "steps": step,
            "batch": args.batch, "lr": args.lr, "window_frames": WINDOW_FRAMES}
    if getattr(args, "member_seed", None) is not None:
        meta["member_seed"] = args.member_seed
    if getattr(args, "after_talk", 0.0):
        meta["after_talk"] = args.after_talk
    if getattr(args, "chatter", 0.0):
        meta["chatter"] = args.chatter
    if getattr(args, "babble_negatives", 0.0):
        meta["babble_negatives"] = args.babble_negatives
    if getattr(args, "talk_beds", 0.0):
        meta["talk_beds"] = args.talk_beds
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"meta": meta, "state": model.state_dict()}, out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="/tmp/kws-data",
                        help="where the speech bank is cached (default %(default)s)")
    parser.add_argument("--out", default="models/uno-kws.pt")
    parser.add_argument("--steps", type=int, default=6000)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--member-seed", type=int, default=None,
                        help="seed of the weights and the training examples only "
                        "(the speech bank, its split and the validation stay "
                        "those of --seed): another member of an ensemble")
    parser.add_argument("--width", type=int, default=64,
                        help="channels of the network (build_model's width)")
    parser.add_argument("--after-talk", type=float, default=0.0,
                        help="share of the calls without a lead phrase that follow "
                        "a whole talk sentence 0.2-0.9 s earlier (default 0: the "
                        "shipped recipe)")
    parser.add_argument("--chatter", type=float, default=0.0,
                        help="share of the examples whose noise is other people "
                        "talking (babble or crowd), on top of its 2 in 9 among "
                        "the noise kinds (default 0: the shipped recipe)")
    parser.add_argument("--babble-negatives", type=float, default=0.0,
                        help="share of the examples that are other people talking "
                        "(babble or crowd) with no call, labelled noise (default "
                        "0: the shipped recipe)")
    parser.add_argument("--talk-beds", type=float, default=0.0, metavar="SECONDS",
                        help="train on babble and crowd beds this long, drawn for "
                        "this member, instead of the 40 s ones (default 0: the "
                        "shipped recipe)")
    parser.add_argument("--bank-only", action="store_true",
                        help="only synthesise the speech bank")
    parser.add_argument("--tune-only", action="store_true",
                        help="only tune the threshold of the model in --out")
    parser.add_argument("--ensemble", nargs="+", metavar="MODEL",
                        help="join these trained models into an ensemble in --out "
                        "and tune it")
    args = parser.parse_args(argv)
    if args.ensemble:
        return ensemble(args)
    if args.tune_only:
        return retune(args)
    if args.bank_only:
        make_bank(Path(args.data) / BANK_FILE, args.seed)
        return 0
    return train(args)


if __name__ == "__main__":
    sys.exit(main())
