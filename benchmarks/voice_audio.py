"""The held-out test material of ``benchmarks/eval_voice.py``: its voices, calls,
lead phrases, table talk and sound-alikes, spoken by espeak-ng, and its noise beds.

None of it is in the spotter's training material (``training/voice/speech.py``;
``tests/training/test_voice_training.py`` checks it).
"""

from __future__ import annotations

import random
import subprocess

import numpy as np

from voice.audio import RATE, say  # noqa: F401 (say: used by the evaluations)

EN_VOICES = ["en", "en-us", "en-gb-x-rp", "en+f3", "en+m3", "en-us+f2", "en+f4"]
JA_VOICES = ["ja", "ja+f2", "ja+m3", "ja+f4"]
EN_CALLS = ["Uno!", "uno", "UNO!", "Uno."]
JA_CALLS = ["ウノ", "ウノ!", "うの"]
LEADS_EN = ["Red seven.", "Draw two, sorry.", "Blue skip."]
LEADS_JA = ["あかの なな。", "スキップ。"]
TALK_EN = [
    "Your turn, Bob.", "I have two cards left.", "Red seven on the pile.",
    "Draw four and pick a colour.", "Green skip, you lose your turn.",
    "Who is dealing the next round?", "That is twenty points for me.",
    "Reverse, back to Alice.", "Shuffle the deck please.", "Can I play the wild card?",
    "Nine, eight, seven, six, five.", "Carol plays a blue three.",
    "Wait, whose turn is it?",
    "Pass the snacks over here.", "I will challenge that draw four.",
    "Yellow reverse and then green.", "Hold on, let me count my cards.",
    "Dave, you forgot to draw.", "Number one is the lowest card.",
    "That was a great game, let us play again.",
]
TALK_JA = [
    "つぎは あなたの ばんです。", "あおの ななを だします。", "いちまい ひきます。",
    "のこり にまいです。", "ドロー ツー を だしました。", "いろは みどりに します。",
    "たろうさん の ばんですよ。", "はなこさん、 カードを ひいて。", "いち、に、さん、よん、ご。",
    "スキップ です。", "リバース で もどります。", "おかし たべる?",
    "じゅってん です。", "しゃっふる して ください。",
]
CONFUSABLE = [("you know", "en"), ("oh no", "en"), ("Yuno", "en"), ("who knows", "en"),
              ("no way", "en"), ("you know what, red seven", "en"),
              ("きょうの ゲーム", "ja"), ("ゆうのすけ", "ja"), ("うのう", "ja"),
              ("どうの こうの", "ja")]
NOISES = ["whitenoise", "pinknoise", "brownnoise", "shuffle", "chatter"]


def sox_noise(kind: str, seconds: float, rng: random.Random | None = None) -> np.ndarray:
    """Stationary noise from sox's synth effect, unit RMS, the same on every run.

    sox is run with ``-R`` (its fixed random numbers), so a length always gives
    the same samples; ``rng`` (the evaluation's seeded generator) then turns the
    buffer round by a random offset, so that calls differ but runs repeat.
    """
    raw = subprocess.run(["sox", "-R", "-n", "-r", str(RATE), "-c", "1", "-b", "16",
                          "-e", "signed-integer", "-t", "raw", "-", "synth",
                          f"{seconds:.2f}", kind], capture_output=True, check=True).stdout
    x = np.frombuffer(raw, "<i2").astype(np.float32)
    if rng is not None and len(x):
        x = np.roll(x, rng.randrange(len(x)))
    return x / (np.sqrt(np.mean(x**2)) + 1e-9)


def noise_bed(kind: str, seconds: float, rng: random.Random,
              babble: list[np.ndarray]) -> np.ndarray:
    """Unit-RMS noise of a kind: sox noise, card-shuffling bursts, or chatter."""
    n = int(seconds * RATE)
    if kind in ("whitenoise", "pinknoise", "brownnoise"):
        return sox_noise(kind, seconds + 0.1, rng)[:n]
    x = np.zeros(n, np.float32)
    if kind == "shuffle":  # riffles: trains of 20-60 ms clicks of filtered noise
        base = sox_noise("pinknoise", 2.0, rng)
        pos = 0
        while pos < n:
            pos += int(rng.uniform(0.02, 0.12) * RATE)
            size = int(rng.uniform(0.02, 0.06) * RATE)
            if pos + size >= n:
                break
            start = rng.randrange(0, len(base) - size)
            x[pos:pos + size] += base[start:start + size] * np.hanning(size) * \
                rng.uniform(0.3, 1.0)
            if rng.random() < 0.05:
                pos += int(rng.uniform(0.3, 1.5) * RATE)  # between riffles
        x += 0.05 * sox_noise("brownnoise", seconds + 0.1, rng)[:n]
    else:  # chatter: three voices talking over each other, further away
        for _ in range(3):
            pos = rng.randrange(0, RATE)
            while pos < n:
                clip = babble[rng.randrange(len(babble))]
                end = min(n, pos + len(clip))
                x[pos:end] += clip[:end - pos]
                pos = end + int(rng.uniform(0.1, 0.8) * RATE)
    return x / (np.sqrt(np.mean(x**2)) + 1e-9)


def rms(x: np.ndarray) -> float:
    voiced = x[np.abs(x) > 0.02 * np.max(np.abs(x))]
    return float(np.sqrt(np.mean(voiced**2)))
