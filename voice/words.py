"""Call words and their pronunciations in the recogniser's phone set.

The listener spots words with the US English acoustic model that ships inside the
``pocketsphinx`` wheel (39 ARPAbet phones). A call word therefore needs one or more
phone strings. They come from, in order:

1. an explicit entry ``word=PH ON ES`` (``"taro=T AA R OW"``),
2. the built-in table for the UNO call (English "uno" and Japanese "ウノ" both
   sound u-n-o),
3. kana (hiragana or katakana), converted syllable by syllable,
4. the CMU dictionary bundled with pocketsphinx (English words and many names),
5. romaji read the Japanese way (``"yuki"`` -> ``Y UW K IY``).

Examples:
    >>> parse_words("uno,ウノ")[0].name
    'uno'
    >>> kana_phones("ウノ")
    'UW N OW'
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass

PHONES = frozenset(
    "AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH "
    "T TH UH UW V W Y Z ZH".split()
)

# "uno" as said at a table: Spanish/Japanese u-no, the CMU "AH N OW", a rounded end.
UNO_PRONUNCIATIONS = ("UW N OW", "AH N OW", "UW N AO")
UNO_ALIASES = frozenset({"uno", "ウノ", "うの", "ｳﾉ"})
DEFAULT_WORDS = "uno,ウノ"

# A wild's colour, said in English or Japanese (赤 aka, 青 ao, 緑 midori, 黄 kiiro):
# (the name reported, the colour, phone strings). Japanese r is a flap, which
# English ears (and the English model) often take for D.
COLOUR_WORDS = (
    ("red", "red", ("R EH D",)),
    ("blue", "blue", ("B L UW",)),
    ("green", "green", ("G R IY N",)),
    ("yellow", "yellow", ("Y EH L OW",)),
    ("赤", "red", ("AA K AA", "AA K AH")),
    ("青", "blue", ("AA OW", "AA AO")),
    ("緑", "green", ("M IY D OW R IY", "M IY D OW D IY")),
    ("黄", "yellow", ("K IY R OW", "K IY IY R OW", "K IY D OW")),
)
COLOUR_ALIASES = {
    "赤": "赤", "あか": "赤", "アカ": "赤", "aka": "赤", "赤色": "赤",
    "青": "青", "あお": "青", "アオ": "青", "ao": "青", "青色": "青",
    "緑": "緑", "みどり": "緑", "ミドリ": "緑", "midori": "緑", "緑色": "緑",
    "黄": "黄", "きいろ": "黄", "キイロ": "黄", "kiiro": "黄", "黄色": "黄",
}
COLOUR_SPEC = ",".join(name for name, _c, _p in COLOUR_WORDS)

_VOWELS = {"a": "AA", "i": "IY", "u": "UW", "e": "EH", "o": "OW"}
_CONSONANTS = {
    "ky": "K Y", "gy": "G Y", "sh": "SH", "ch": "CH", "ts": "T S", "ny": "N Y",
    "hy": "HH Y", "my": "M Y", "ry": "R Y", "by": "B Y", "py": "P Y", "j": "JH",
    "k": "K", "g": "G", "s": "S", "z": "Z", "t": "T", "d": "D", "n": "N", "h": "HH",
    "f": "F", "b": "B", "p": "P", "m": "M", "y": "Y", "r": "R", "w": "W", "v": "V",
    "l": "L",
}
_KANA_ROWS = {
    "": "あいうえお", "k": "かきくけこ", "g": "がぎぐげご", "s": "さしすせそ",
    "z": "ざじずぜぞ", "t": "たちつてと", "d": "だぢづでど", "n": "なにぬねの",
    "h": "はひふへほ", "b": "ばびぶべぼ", "p": "ぱぴぷぺぽ", "m": "まみむめも",
    "r": "らりるれろ",
}
_KANA = {kana: cons + vowel for cons, row in _KANA_ROWS.items()
         for kana, vowel in zip(row, "aiueo")}
_KANA.update({"し": "shi", "ち": "chi", "つ": "tsu", "ふ": "fu", "じ": "ji", "ぢ": "ji",
              "づ": "zu", "や": "ya", "ゆ": "yu", "よ": "yo", "わ": "wa", "を": "o",
              "ん": "N", "ゔ": "vu"})
_SMALL = {"ゃ": "a", "ゅ": "u", "ょ": "o", "ぁ": "a", "ぃ": "i", "ぅ": "u", "ぇ": "e",
          "ぉ": "o"}


class WordError(ValueError):
    """A call word that cannot be turned into phones."""


@dataclass(frozen=True)
class CallWord:
    """A word to spot and the phone strings it may be said with.

    Attributes:
        name: the word as reported (``"uno"``, ``"ウノ"``, ``"taro"``).
        pronunciations: ARPAbet phone strings, at least two phones each.
    """

    name: str
    pronunciations: tuple[str, ...]


def _to_hiragana(text: str) -> str:
    return "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in text)


def kana_phones(text: str) -> str:
    """Phones for a word written in kana, read the Japanese way.

    Raises:
        WordError: a character that is not kana.
    """
    text = _to_hiragana(text)
    romaji: list[str] = []
    for i, ch in enumerate(text):
        if ch in ("ー", "っ", "ッ"):
            continue  # a long vowel or a pause: the same phones, held longer
        if ch in _SMALL:
            if romaji and romaji[-1] not in ("N",):
                prev = romaji.pop()
                stem = prev[:-1]
                if stem in ("sh", "ch", "j"):
                    romaji.append(stem + _SMALL[ch])
                elif stem:
                    romaji.append(stem + "y" + _SMALL[ch])
                else:
                    romaji += [prev, _SMALL[ch]]
            continue
        if ch not in _KANA:
            raise WordError(f"cannot read {text!r}: {ch!r} (position {i}) is not kana")
        romaji.append(_KANA[ch])
    return " ".join(romaji_phones(r) if r != "N" else "N" for r in romaji)


def romaji_phones(text: str) -> str:
    """Phones for a word in Latin letters read as Japanese romaji (``"yuki"``).

    Raises:
        WordError: letters that do not form romaji syllables.
    """
    word = text.lower().replace("-", "")
    out: list[str] = []
    i = 0
    while i < len(word):
        ch = word[i]
        if ch in _VOWELS:
            out.append(_VOWELS[ch])
            i += 1
            continue
        if ch == "n" and (i + 1 == len(word) or word[i + 1] not in "aiueoy"):
            out.append("N")
            i += 1
            continue
        if i + 1 < len(word) and word[i + 1] == ch:  # double consonant: a short pause
            i += 1
            continue
        for size in (2, 1):
            cons = word[i:i + size]
            vowel_next = i + size < len(word) and word[i + size] in _VOWELS
            if cons in _CONSONANTS and vowel_next:
                out.append(_CONSONANTS[cons])
                i += size
                break
        else:
            raise WordError(f"cannot read {text!r} as romaji at {word[i:]!r}; give its "
                            f"phones as {text}=PH ON ES")
    return " ".join(out)


@functools.lru_cache(maxsize=1)
def _cmudict_path() -> str | None:
    try:
        from pocketsphinx import get_model_path
    except ImportError:
        return None
    path = os.path.join(get_model_path(), "en-us", "cmudict-en-us.dict")
    return path if os.path.exists(path) else None


def cmudict_phones(word: str) -> tuple[str, ...]:
    """All pronunciations of ``word`` in the bundled CMU dictionary (maybe none)."""
    path = _cmudict_path()
    if path is None:
        return ()
    key = word.lower()
    found: list[str] = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            head, _, phones = line.strip().partition(" ")
            if head == key or (head.startswith(key + "(") and head.endswith(")")):
                found.append(phones.strip())
    return tuple(found)


def _check(name: str, phones: str) -> str:
    parts = phones.upper().split()
    bad = [p for p in parts if p not in PHONES]
    if bad:
        raise WordError(f"{name!r}: unknown phones {' '.join(bad)} (use ARPAbet: "
                        f"{' '.join(sorted(PHONES))})")
    if len(parts) < 2:
        raise WordError(f"{name!r}: a call word needs at least two phones, "
                        f"got {phones!r}")
    return " ".join(parts)


def call_word(spec: str) -> CallWord:
    """One call word from ``"uno"``, ``"ウノ"``, ``"Taro"`` or ``"taro=T AA R OW"``.

    Raises:
        WordError: an empty word, unknown phones, or a word that cannot be read.
    """
    name, sep, phones = (s.strip() for s in spec.partition("="))
    if not name:
        raise WordError(f"empty call word in {spec!r}")
    colour = _COLOUR_ENTRY.get(COLOUR_ALIASES.get(name.lower(), name.lower()))
    if sep:
        prons = tuple(_check(name, p) for p in phones.split("|"))
    elif colour is not None:
        name, prons = colour[0], colour[2]
    elif name.lower() in UNO_ALIASES:
        prons = UNO_PRONUNCIATIONS
    elif any("\u3040" <= c <= "\u30ff" for c in name):
        prons = (_check(name, kana_phones(name)),)
    else:
        found = cmudict_phones(name)
        prons = tuple(_check(name, p) for p in found) or (
            _check(name, romaji_phones(name)),)
    return CallWord(name, tuple(dict.fromkeys(prons)))


_COLOUR_ENTRY = {name: entry for entry in COLOUR_WORDS for name in (entry[0],)}


def colour_of(name: str) -> str | None:
    """The wild colour a heard word names (``"赤"`` -> ``"red"``), or None for a
    word that is not a colour."""
    key = COLOUR_ALIASES.get(name.lower(), name.lower())
    entry = _COLOUR_ENTRY.get(key)
    return entry[1] if entry else None


def colour_words() -> list[CallWord]:
    """The colour words of :data:`COLOUR_WORDS` as call words."""
    return [CallWord(name, prons) for name, _colour, prons in COLOUR_WORDS]


def parse_words(text: str | None) -> list[CallWord]:
    """Call words from a comma-separated list; words that sound the same merge.

    ``"uno,ウノ"`` gives one word (``uno``) because both have the same phones.

    Raises:
        WordError: as :func:`call_word`, or an empty list.
    """
    words: list[CallWord] = []
    seen: set[tuple[str, ...]] = set()
    for spec in (text if text is not None else DEFAULT_WORDS).split(","):
        if not spec.strip():
            continue
        word = call_word(spec)
        if word.pronunciations not in seen:
            seen.add(word.pronunciations)
            words.append(word)
    if not words:
        raise WordError(f"no call words in {text!r}")
    return words
