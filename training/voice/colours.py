"""The colour spotter's speech bank (``--words colours``): the four wild colours
said on their own in English and Japanese, lead phrases, table talk with and
without colour words inside, colour words inside longer words, sound-alikes and
the UNO call, spoken by espeak-ng in training voices only.

Kept out, for ``benchmarks/eval_colours.py`` (held-out and tuning voices) and
``benchmarks/eval_voice.py``: the voices ``en``, ``en-us``, ``en-gb-x-rp``,
``en-gb-scotland`` and the variants f1, f2, f3, f4, m1, m3; the speeds
120/130/150/160/175/190/200 and pitches 30/35/50/60/70/80/90; their lead phrases
("Wild card.", "Wild.", 「ワイルド。」, 「ワイルド カード。」) and their talk sentences.
The Japanese base voice is the only one espeak-ng has, so the Japanese words share
it (with other variants). espeak-ng reads no kanji: the Japanese words are kana.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import numpy as np

from .speech import (CALL_EN, CALL_JA, TALK_EN, TALK_JA, _espeak, _split, _unpack,
                     said_in_turn)

COLOURS = ("red", "blue", "green", "yellow")
EN_VOICES = ["en-gb-x-gbclan", "en-gb-x-gbcwmd", "en-029", "en-us-nyc"]
JA_VOICES = ["ja"]
# read the Japanese words in romaji the way Japanese says them (a-ka, a-o, mi-do-ri)
ROMAJI_VOICES = ["es", "es-419", "it", "pt", "eo", "la", "id", "fi"]
VARIANTS = ["", "m2", "m4", "m5", "m6", "m7", "f5", "klatt", "klatt2", "klatt4",
            "Andy", "Annie", "Alex", "Alicia", "Denis", "Mike", "anika", "aunty",
            "boris", "david", "ed", "john", "linda", "max", "paul", "rob", "steph",
            "quincy", "grandma", "grandpa", "whisperf", "croak", "norbert", "victor",
            "travis", "shelby"]
HELD_OUT_SPEEDS = {120, 130, 150, 160, 175, 190, 200}
HELD_OUT_PITCHES = {30, 35, 50, 60, 70, 80, 90}
SAY_EN = {"red": ["red", "Red!", "red.", "Red?", "RED", "red,", "Red!!"],
          "blue": ["blue", "Blue!", "blue.", "Blue?", "BLUE", "blue,", "Blue!!"],
          "green": ["green", "Green!", "green.", "Green?", "GREEN", "green,"],
          "yellow": ["yellow", "Yellow!", "yellow.", "Yellow?", "YELLOW", "yellow,"]}
SAY_JA = {"red": ["あか", "あか!", "あか。", "アカ", "あか?", "あかー"],
          "blue": ["あお", "あお!", "あお。", "アオ", "あお?", "あおー"],
          "green": ["みどり", "みどり!", "みどり。", "ミドリ", "みどり?"],
          "yellow": ["きいろ", "きいろ!", "きいろ。", "キイロ", "きいろ?"]}
SAY_ROMAJI = {"red": ["aka", "aka!"], "blue": ["ao", "ao!"],
              "green": ["midori", "midori!"], "yellow": ["kiiro", "kiiro!"]}
LEAD_EN = ["I play a wild.", "Wild, then.", "Colour change.", "My colour is",
           "Okay, I choose", "Let me see,", "Wild draw four,", "New colour,",
           "Hmm.", "So,", "Changing it to", "I'll make it", "The colour is now"]
LEAD_JA = ["ワイルドで", "いろは", "じゃあ", "えっと、", "いろを かえます。",
           "ワイルド ドロー フォー。", "うーん、", "はい、"]
# colours inside sentences and longer words (speech, not a colour named)
TALK_COLOUR_EN = [
    "The red four is mine.", "A blue seven, nice.", "Green three goes down.",
    "Yellow eight on top.", "Red and blue make purple.", "Is the green one yours?",
    "Yellow cards are rare today.", "The blue pile is bigger.", "Red reverse for you.",
    "She likes the green sleeves.", "Blue skip, sorry Tom.", "A yellow two then.",
    "Fred read the rules.", "The greenhouse is warm.", "My bluetooth is off.",
    "Yellowstone was lovely.", "Reddish, not really.", "Bluebirds sing early.",
    "Greenwich is far away.", "A yellowish light.", "Redo that move please.",
]
TALK_COLOUR_JA = [
    "あかの ろく です。", "あおの にを だす。", "みどりの カード ある?",
    "きいろの よん です。", "あかい カードが すき。", "あおい そら。",
    "みどりかわ さんの ばん。", "きいろい ほう。", "あかりを つけて。",
    "あおもりの りんご。", "みどりの ななと はち。", "きいろ と あかの カード。",
    "あかちゃんが ねてる。", "あおやま さん、 どうぞ。",
]
CONFUSABLE_EN = ["bed", "read", "said", "head", "bread", "glue", "clue", "true",
                 "grin", "queen", "seen", "mean", "bean", "fellow", "hello",
                 "mellow", "yell", "low", "rule", "blew it", "gray", "brown",
                 "black", "white", "pink", "orange", "purple", "wild", "draw two",
                 "skip", "reverse", "uno", "done", "ready", "bridge", "lean"]
CONFUSABLE_JA = ["あさ", "はか", "さか", "かお", "あう", "たお", "ひだり", "みなり",
                 "とり", "しろ", "くろ", "ひろ", "きろ", "ちいろ", "いろ", "あい",
                 "あき", "みどう", "おか", "あかり", "あおい", "きいろい", "あかい",
                 "ワイルド", "スキップ", "リバース", "ももいろ", "ちゃいろ"]
BANK_FILE = "colour-bank-v1.npz"


def _say(rng: random.Random, text: str, bases: list[str]) -> np.ndarray:
    base = rng.choice(bases)
    variant = rng.choice(VARIANTS)
    voice = f"{base}+{variant}" if variant else base
    while True:
        speed, pitch = rng.randint(100, 240), rng.randint(10, 99)
        if speed not in HELD_OUT_SPEEDS and pitch not in HELD_OUT_PITCHES:
            break
    return _espeak(text, voice, speed, pitch, gap=rng.choice([0, 0, 1, 3]))


def _ends_with_colour(sentence: str) -> bool:
    last = sentence.lower().strip(" .!?,。!?、").split()[-1:]
    return bool(last) and last[0].strip(" .!?,。!?、") in COLOURS


def _word(rng: random.Random, colour: str, i: int) -> np.ndarray:
    kind = i % 9
    if kind < 4:
        return _say(rng, rng.choice(SAY_EN[colour]), EN_VOICES)
    if kind < 8:
        return _say(rng, rng.choice(SAY_JA[colour]), JA_VOICES)
    return _say(rng, rng.choice(SAY_ROMAJI[colour]), ROMAJI_VOICES)


def make_colour_bank(path: Path, seed: int, per_colour: int = 500, talk: int = 1400,
                     confusables: int = 700) -> dict[str, list[np.ndarray]]:
    """Synthesise the colour bank (or load it from ``path``): train and validation
    lists ``{split}_{colour}`` of each colour said on its own, ``{split}_leads``,
    ``{split}_talk`` (the UNO recipe's talk that does not end on a colour, and
    talk with colours inside) and ``{split}_confusables`` (sound-alikes, colour
    words inside longer words, other game words, the UNO call)."""
    if path.is_file():
        with np.load(path, allow_pickle=False) as z:
            return {k: _unpack(z[k], z[k + "_len"]) for k in z.files
                    if not k.endswith("_len")}
    rng = random.Random(seed)
    bank: dict[str, list[np.ndarray]] = {}
    plain_en = [s for s in TALK_EN if not _ends_with_colour(s)]
    talk_en, val_talk_en = _split(plain_en + TALK_COLOUR_EN, rng)
    talk_ja, val_talk_ja = _split(TALK_JA + TALK_COLOUR_JA, rng)
    conf_en, val_conf_en = _split(CONFUSABLE_EN + CALL_EN, rng)
    conf_ja, val_conf_ja = _split(CONFUSABLE_JA + CALL_JA, rng)
    t0 = time.time()
    for split, scale, (t_en, t_ja, c_en, c_ja) in (
            ("train", 1.0, (talk_en, talk_ja, conf_en, conf_ja)),
            ("val", 0.25, (val_talk_en, val_talk_ja, val_conf_en, val_conf_ja))):
        for colour in COLOURS:
            bank[f"{split}_{colour}"] = [_word(rng, colour, i)
                                         for i in range(int(per_colour * scale))]
        ours = {"say": _say, "voices": (EN_VOICES, JA_VOICES)}
        bank[f"{split}_leads"] = said_in_turn(rng, LEAD_EN, LEAD_JA, int(300 * scale),
                                              **ours)
        bank[f"{split}_talk"] = said_in_turn(rng, t_en, t_ja, int(talk * scale), **ours)
        bank[f"{split}_confusables"] = said_in_turn(rng, c_en, c_ja,
                                                    int(confusables * scale), **ours)
        print(f"colour bank {split}: {sum(len(bank[f'{split}_{c}']) for c in COLOURS)}"
              f" colour words ({time.time() - t0:.0f} s)", flush=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    packed = {}
    for key, clips in bank.items():
        packed[key] = np.concatenate(clips)
        packed[key + "_len"] = np.array([len(c) for c in clips])
    np.savez(path, **packed)
    return bank
