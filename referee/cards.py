"""Card labels, short forms, points and decks for the standard UNO deck.

A card is a small frozen value with a parse/print pair, in the manner of
python-chess's ``Move.from_uci`` / ``move.uci()``::

    >>> Card.from_label("R7").label
    'red-7'
    >>> Card.from_label("wild-draw4").short
    'W4'

The label doubles as the detector's class name (see ``CLASSES``). Cards of
other physical decks (the tgus-t deck) define their own labels of the same
shape in their own module and register them with :func:`register_label`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Iterable

from .text import Text, define

define({
    "game.label-not-string": {
        "en": "a card label must be a string, got {value}",
        "ja": "カードのラベルは文字列で指定します（{value}は使えません）",
    },
    "game.unknown-label": {
        "en": "unknown card label {value}",
        "ja": "{value}というカードのラベルはありません",
    },
    "game.labels-not-list": {
        "en": "cards must be a list of labels, got {value}",
        "ja": "カードはラベルのリストで指定します（{value}は使えません）",
    },
})

COLORS: tuple[str, ...] = ("red", "yellow", "green", "blue")
NUMBERS: tuple[str, ...] = tuple(str(n) for n in range(10))
ACTIONS: tuple[str, ...] = ("skip", "reverse", "draw2")
WILDS: tuple[str, ...] = ("wild", "wild-draw4", "wild-shuffle", "wild-custom")

_COLOR_SHORT = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
_VALUE_SHORT = {"S": "skip", "R": "reverse", "D2": "draw2", "D": "draw2"}
_WILD_SHORT = {"W": "wild", "W4": "wild-draw4", "WS": "wild-shuffle",
               "WC": "wild-custom"}
_WILD_TO_SHORT = {v: k for k, v in _WILD_SHORT.items()}
_VALUE_TO_SHORT = {"skip": "S", "reverse": "R", "draw2": "D2"}

# Labels of cards from other decks: label -> Card factory (filled by register_label).
_EXTRA_LABELS: dict[str, Callable[[], "Card"]] = {}
# Text -> Card for texts already parsed by Card.from_label (cleared by register_label).
_PARSED: dict[str, "Card"] = {}


class CardError(ValueError):
    """A card label that names no card."""


@dataclass(frozen=True, order=True)
class Card:
    """One physical card.

    Attributes:
        color: ``red``/``yellow``/``green``/``blue``, or ``None`` for a wild
            (the colour a wild names when played lives on the play, not here).
        value: ``0``..``9``, ``skip``, ``reverse``, ``draw2``, or the wild's
            label (``wild``, ``wild-draw4`` ...), or another deck's value.
    """

    color: str | None
    value: str

    @classmethod
    def from_label(cls, text: str) -> "Card":
        """Parse a label (``red-7``, ``wild-draw4``) or a short form (``R7``)."""
        if cls is Card and type(text) is str:
            card = _PARSED.get(text)
            if card is None:
                card = cls._parse(text)
                if len(_PARSED) < 4096:  # labels seen before parse from a cache
                    _PARSED[text] = card
            return card
        return cls._parse(text)

    @classmethod
    def _parse(cls, text: str) -> "Card":
        if not isinstance(text, str):
            raise CardError(Text("game.label-not-string", value=repr(text)))
        raw = text.strip()
        low = raw.lower()
        if low in WILDS:
            return cls(None, low)
        if low in _EXTRA_LABELS:
            return _EXTRA_LABELS[low]()
        if "-" in low:
            color, _, value = low.partition("-")
            if color in COLORS and (value in NUMBERS or value in ACTIONS):
                return cls(color, value)
            raise CardError(Text("game.unknown-label", value=repr(text)))
        up = raw.upper()
        if up in _WILD_SHORT:
            return cls(None, _WILD_SHORT[up])
        if len(up) >= 2 and up[0] in _COLOR_SHORT:
            color, rest = _COLOR_SHORT[up[0]], up[1:]
            if rest in NUMBERS:
                return cls(color, rest)
            if rest in _VALUE_SHORT:
                return cls(color, _VALUE_SHORT[rest])
        raise CardError(Text("game.unknown-label", value=repr(text)))

    @property
    def label(self) -> str:
        """The canonical label, e.g. ``red-7`` or ``wild``."""
        return self.value if self.color is None else f"{self.color}-{self.value}"

    @property
    def short(self) -> str:
        """The short form, e.g. ``R7``, ``BD2``, ``W4``."""
        if self.color is None:
            return _WILD_TO_SHORT.get(self.value, self.value.upper())
        value = _VALUE_TO_SHORT.get(self.value, self.value.upper())
        return self.color[0].upper() + value

    @property
    def is_wild(self) -> bool:
        return self.color is None

    @property
    def is_number(self) -> bool:
        return self.value in NUMBERS

    @property
    def is_action(self) -> bool:
        """Skip, Reverse, Draw Two or any wild (the "picture" cards)."""
        return not self.is_number

    @property
    def number(self) -> int | None:
        return int(self.value) if self.is_number else None

    @property
    def points(self) -> int:
        """Official points (001): face value; Skip/Reverse/Draw Two 20; wilds 50."""
        if self.is_number:
            return int(self.value)
        if self.color is not None:
            return 20
        return 50

    def __str__(self) -> str:
        return self.label


def parse_cards(items: Iterable[str]) -> list[Card]:
    """Parse a list of labels; raises :class:`CardError` naming the first bad one."""
    if isinstance(items, str) or not isinstance(items, (list, tuple)):
        raise CardError(Text("game.labels-not-list", value=repr(items)))
    return [Card.from_label(x) for x in items]


def register_label(label: str, factory: Callable[[], Card]) -> None:
    """Let ``Card.from_label`` parse a label of another deck (lower-case)."""
    _EXTRA_LABELS[label.lower()] = factory
    _PARSED.clear()


def standard_deck(extra_wilds: bool = False) -> list[Card]:
    """The 108-card deck, or the 112 one with Wild Shuffle Hands and 3 white wilds."""
    deck: list[Card] = []
    for color in COLORS:
        deck.append(Card(color, "0"))
        for value in NUMBERS[1:] + ACTIONS:
            deck += [Card(color, value), Card(color, value)]
    deck += [Card(None, "wild")] * 4 + [Card(None, "wild-draw4")] * 4
    if extra_wilds:
        deck += [Card(None, "wild-shuffle")] + [Card(None, "wild-custom")] * 3
    return deck


def shuffled(cards: Iterable[Card],
             seed: int | random.Random | None = None) -> list[Card]:
    """A shuffled copy, deterministic for an int seed."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    out = list(cards)
    rng.shuffle(out)
    return out


#: Detector class names, in class-id order: 54 classic classes plus the two newer wilds.
CLASSES: tuple[str, ...] = tuple(
    [f"{c}-{v}" for c in COLORS for v in NUMBERS + ACTIONS] + list(WILDS)
)
