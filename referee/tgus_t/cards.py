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

from collections.abc import Iterable, Mapping
from typing import Any

from referee.cards import COLORS, NUMBERS, Card, register_label
from referee.text import (COLOR_NAMES, Text, define, define_cards, formatter,
                          list_of, standard_card_name)

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


# -- how the deck's cards and effects are said ---------------------------------------
#: The deck's names in Japanese, as 000 writes them in its prose (ヒット2,
#: リバースヒット2, ワイルド・ヒット4, ヒット?, カウンター, チェンジ, リプレイス,
#: ギャンブル); All Hit+2 has no Japanese name in 000: オールヒット2.
JA_NAMES: dict[str, str] = {
    "wild": "ワイルド",
    "skip": "スキップ",
    "reverse": "リバース",
    "hit2": "ヒット2",
    "reverse-hit2": "リバースヒット2",
    "wild-hit4": "ワイルド・ヒット4",
    "wild-hit-x": "ヒット?",
    "counter": "カウンター",
    "change": "チェンジ",
    "replace": "リプレイス",
    "gamble": "ギャンブル",
    ALL_HIT2: "オールヒット2",
    HAND2: "手札を二枚にする効果",
}


def card_name(label: str, lang: str = "en") -> str:
    """A card of this deck as the rulings say it: its label in English (as the
    rulings always have), 000's Japanese name in Japanese ("赤のヒット2",
    "ワイルド・ヒット4"); a card of another deck by its standard UNO name."""
    if lang != "ja":
        return label
    if label in COLORLESS:
        return JA_NAMES[label]
    colour, _, value = label.partition("-")
    if colour in COLORS and (value in NUMBERS or value in JA_NAMES):
        return f"{COLOR_NAMES['ja'][colour]}の{JA_NAMES.get(value, value)}"
    return standard_card_name(label, "ja")


define_cards("tgus-t", card_name)


def effect_name(effect: str, lang: str = "en") -> str:
    """An effect (a card's value, what a Gamble names) by its printed name:
    "Hit+2", "Counter"; "ヒット2", "カウンター"."""
    if lang == "ja":
        return JA_NAMES.get(effect, effect)
    return NAMES.get(effect, effect)


@formatter("tgus-t-played")
def _played(args: Mapping[str, Any], lang: str) -> str:
    """Cards played together: "red-7 + blue-7", "赤の7と青の7"."""
    labels = [str(x) for x in args["labels"]]
    if lang == "ja":
        return list_of([card_name(x, "ja") for x in labels], "ja")
    return " + ".join(labels)


def played(cards: Iterable[Any]) -> Text:
    """The cards of one play, for a ruling's text."""
    return Text("@tgus-t-played", labels=[str(getattr(c, "label", c)) for c in cards])


@formatter("tgus-t-effect")
def _effect(args: Mapping[str, Any], lang: str) -> str:
    effect, style = str(args["effect"]), str(args.get("style", "id"))
    if lang == "ja":
        name = effect_name(effect, "ja")
        return f"「{name}」" if style == "quote" else name
    if style == "name":
        return effect_name(effect)
    if style == "cap":
        return effect.capitalize()
    if style == "quote":
        return repr(effect)
    return effect


def effect(name: str, style: str = "id") -> Text:
    """An effect: English as its id (``"id"``), its printed name (``"name"``),
    capitalised (``"cap"``) or quoted (``"quote"``); Japanese by 000's name."""
    return Text("@tgus-t-effect", effect=str(name), style=style)


@formatter("tgus-t-effects")
def _effects(args: Mapping[str, Any], lang: str) -> str:
    """Effects listed: ``"or"``: "Hit+2, Hit+? or Counter" (printed names),
    ``"ids"``: "wild, skip, reverse"; Japanese "ヒット2、ヒット?かカウンター"."""
    effects, style = [str(e) for e in args["effects"]], str(args.get("style", "or"))
    if lang == "ja":
        names = [effect_name(e, "ja") for e in effects]
        if style == "ids" or len(names) < 2:
            return "、".join(names)
        return "、".join(names[:-1]) + "または" + names[-1]
    if style == "ids":
        return ", ".join(effects)
    names = [effect_name(e) for e in effects]
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


def effects(names: Iterable[str], style: str = "or") -> Text:
    """Several effects, for a ruling's text (see :func:`_effects`)."""
    return Text("@tgus-t-effects", effects=[str(n) for n in names], style=style)


@formatter("tgus-t-quote")
def _quote(args: Mapping[str, Any], lang: str) -> str:
    value = args["value"]
    said = value.render(lang) if isinstance(value, Text) else str(value)
    return f"「{said}」" if lang == "ja" else repr(str(value))


def quote(value: Any) -> Any:
    """What someone wrote or said, quoted: 'Reimu' (a Python repr, as the
    rulings always wrote it), 「Reimu」; a value that is no string as its repr."""
    if isinstance(value, str):
        return Text("@tgus-t-quote", value=value)
    if value is None:
        return Text("tgus-t.nothing")
    return repr(value)


define({"tgus-t.nothing": {"en": "None", "ja": "なし"}})
