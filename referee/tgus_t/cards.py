"""The 東幻符闘祭 deck of tgus-t1 and tgus-t2: labels, counts and precedence.

000 names the deck's cards (Hit+2, Reverse Hit+2, Wild Hit+4, Hit+?, Counter,
Change, Replace, Gamble) but prints no deck list, so the counts below are the
project's interpretation (docs/cards-tgus-t.md): the standard UNO layout with
Draw Two renamed Hit+2, one Reverse Hit+2 a colour, and colourless specials. 000
itself fixes three Counters (a Gamble played with them is "the fourth Counter").
A table whose deck differs sets the ``deck_size`` option so the pile count stays
right.

Labels have the spec's shape: ``red-hit2``, ``blue-reverse-hit2``, and
colourless ``wild-hit4``, ``wild-hit-x`` (Hit+?), ``counter``, ``change``,
``replace``, ``gamble``; ``red-7``, ``red-skip``, ``red-reverse`` and ``wild``
are the standard labels. All Hit+2 is no card: it is an effect a Gamble names.
"""

from __future__ import annotations

from referee.cards import COLORS, NUMBERS, Card, register_label

# Coloured picture values of this deck (besides skip/reverse of the standard deck).
COLORED_SPECIALS: tuple[str, ...] = ("hit2", "reverse-hit2")
#: Colourless cards of this deck, in label form.
COLORLESS: tuple[str, ...] = (
    "wild",
    "wild-hit4",
    "wild-hit-x",
    "counter",
    "change",
    "replace",
    "gamble",
)
#: Effects a Gamble may take (000 T1: its own "hand of two", a plain wild, every
#: picture effect; T2 adds All Hit+2).
GAMBLE_EFFECTS: tuple[str, ...] = (
    "wild",
    "skip",
    "reverse",
    "hit2",
    "reverse-hit2",
    "wild-hit4",
    "wild-hit-x",
    "counter",
    "change",
    "replace",
    "hand2",
)
ALL_HIT2 = "all-hit2"
#: The Gamble's own printed effect: its player's hand becomes two cards (000 §T1).
HAND2 = "hand2"
#: How the deck prints the effects, for the rulings' text.
NAMES: dict[str, str] = {
    "hit2": "Hit+2",
    "reverse-hit2": "Reverse Hit+2",
    "wild-hit4": "Wild Hit+4",
    "wild-hit-x": "Hit+?",
    "counter": "Counter",
    ALL_HIT2: "All Hit+2",
}

# Copies of each card in one deck (interpretation: see the module docstring).
_PER_COLOR = {
    "0": 1,
    **{n: 2 for n in NUMBERS[1:]},
    "skip": 2,
    "reverse": 2,
    "hit2": 2,
    "reverse-hit2": 1,
}
_COLORLESS_COUNT = {
    "wild": 4,
    "wild-hit4": 4,
    "wild-hit-x": 2,
    "counter": 3,
    "change": 2,
    "replace": 2,
    "gamble": 1,
}

# Short forms accepted when parsing; ``card.short`` prints the long upper-case form
# (``RHIT2``, ``WILD-HIT4``), which parses too.
_SHORT = {"H2": "hit2", "RH2": "reverse-hit2"}
_COLORLESS_SHORT = {
    "WH4": "wild-hit4",
    "WHX": "wild-hit-x",
    "CO": "counter",
    "CH": "change",
    "RP": "replace",
    "GB": "gamble",
}


def _register() -> None:
    for color in COLORS:
        for value in COLORED_SPECIALS:
            card = Card(color, value)
            register_label(card.label, lambda c=card: c)
            register_label(card.short, lambda c=card: c)  # what card.short prints
        for short, value in _SHORT.items():
            card = Card(color, value)
            register_label(color[0] + short, lambda c=card: c)
    for value in COLORLESS:
        if value != "wild":  # the standard label already parses
            card = Card(None, value)
            register_label(value, lambda c=card: c)
    for short, value in _COLORLESS_SHORT.items():
        card = Card(None, value)
        register_label(short, lambda c=card: c)


_register()


def deck() -> list[Card]:
    """Every card of one 東幻符闘祭 deck (122 cards, see docs/cards-tgus-t.md)."""
    cards: list[Card] = []
    for color in COLORS:
        for value, count in _PER_COLOR.items():
            cards += [Card(color, value)] * count
    for value, count in _COLORLESS_COUNT.items():
        cards += [Card(None, value)] * count
    return cards


def deck_counts() -> dict[str, int]:
    """Label -> copies in one deck, for the documentation and the tests."""
    out: dict[str, int] = {}
    for card in deck():
        out[card.label] = out.get(card.label, 0) + 1
    return out


def effect_of(card: Card, gamble_effect: str | None = None) -> str:
    """The effect a card has when played: its value, or what a Gamble names."""
    if card.value == "gamble" and gamble_effect:
        return gamble_effect
    return card.value
