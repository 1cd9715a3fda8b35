"""The speech bank: the call, lead phrases, table talk and sound-alikes, spoken by
espeak-ng in the training voices (never ``benchmarks/eval_voice.py``'s)."""

from __future__ import annotations

import io
import random
import subprocess
import time
import wave
from pathlib import Path

import numpy as np

from voice.audio import RATE

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


def said_in_turn(rng: random.Random, english: list[str], japanese: list[str], n: int,
                 every: int = 2, say=None, voices=None) -> list[np.ndarray]:
    """``n`` clips of lines drawn from ``english`` and ``japanese``: a Japanese
    line every ``every``-th clip (the first one), the English voices for the
    rest. ``say`` and ``voices`` (English, Japanese) are this bank's unless given."""
    say = say or _say
    en_voices, ja_voices = voices or (EN_VOICES, JA_VOICES)
    return [say(rng, rng.choice(english), en_voices) if i % every else
            say(rng, rng.choice(japanese), ja_voices) for i in range(n)]


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
        bank[f"{split}_leads"] = said_in_turn(rng, l_en, l_ja, int(300 * n_scale))
        bank[f"{split}_talk"] = said_in_turn(rng, t_en, t_ja, int(talk * n_scale), every=3)
        bank[f"{split}_confusables"] = said_in_turn(rng, c_en, c_ja,
                                                    int(confusables * n_scale))
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
