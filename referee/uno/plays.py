"""Legality of plays: matching, multi-play, stacking answers, Wild Draw Four guilt.

Pure functions of cards and a few state values, shared by the engine and the
random-playout simulator (which knows the hands).
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from ..cards import ACTIONS, COLORS, NUMBERS, WILDS, Card, parse_cards
from .options import UnoOptions

_NAMES = {"skip": "Skip", "reverse": "Reverse", "draw2": "Draw Two", "wild": "Wild",
          "wild-draw4": "Wild Draw Four", "wild-shuffle": "Wild Shuffle Hands",
          "wild-custom": "white Wild"}


_LABELS: dict[str, Card] = {}


def cards_of(raw: Any) -> list[Card]:
    """``parse_cards`` with a cache of labels already seen (replay speed).

    Raises:
        CardError: ``raw`` is not a list of card labels.
    """
    if type(raw) is list:
        try:
            return [_LABELS[x] for x in raw]
        except (KeyError, TypeError):
            pass
    cards = parse_cards(raw)
    if len(_LABELS) < 4096:
        _LABELS.update(zip(raw, cards))
    return cards


_COLOURS = frozenset(COLORS)
_COLOURED_VALUES = frozenset(NUMBERS + ACTIONS)
#: deck size -> its wild cards (the ``deck`` option: 108, or 112 with Wild
#: Shuffle Hands and the white wilds); every deck has each colour's 0-9,
#: Skip, Reverse and Draw Two.
DECK_WILDS: dict[int, frozenset[str]] = {
    108: frozenset(("wild", "wild-draw4")), 112: frozenset(WILDS)}


def off_deck(cards: Iterable[Card], deck: int) -> Card | None:
    """The first of ``cards`` that the ``deck``-card deck does not hold, or ``None``.

    Labels of other decks (the tgus-t deck's ``red-hit2``, ``counter`` ...)
    parse anywhere once registered, so the game checks its own deck.
    """
    wilds = DECK_WILDS.get(deck) or DECK_WILDS[112]
    for card in cards:  # by value: cheaper than hashing the card (replay speed)
        if card.color is None:
            if card.value not in wilds:
                return card
        elif card.color not in _COLOURS or card.value not in _COLOURED_VALUES:
            return card
    return None


def off_deck_text(card: Card, deck: int) -> str:
    """``The red hit2 is not a card of this game's 108-card deck``."""
    return f"The {card_name(card)} is not a card of this game's {deck}-card deck"


def card_name(card: Card) -> str:
    """A card as a person says it: ``red 7``, ``blue Skip``, ``Wild Draw Four``."""
    value = _NAMES.get(card.value, card.value)
    return value if card.color is None else f"{card.color} {value}"


def cards_name(cards: Sequence[Card]) -> str:
    if len(cards) == 1:
        return card_name(cards[0])
    names = [card_name(c) for c in cards]
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def cards_n(n: int) -> str:
    """``1 card``, ``3 cards``."""
    return f"{n} card" if n == 1 else f"{n} cards"


def matches(card: Card, top: Card | None, color: str | None) -> bool:
    """Whether ``card`` may go on ``top`` with ``color`` in force (no debt owed)."""
    if card.color is None or color is None:
        return True
    if card.color == color:
        return True
    return top is not None and top.color is not None and card.value == top.value


def is_answer(card: Card, pending_kind: str | None, top: Card | None, color: str | None,
              table: frozenset[tuple[str, str]]) -> bool:
    """Whether ``card`` may pass on a debt from ``pending_kind`` (stacking)."""
    return (pending_kind, card.value) in table and matches(card, top, color)


def multi_problem(cards: Sequence[Card], opts: UnoOptions) -> str | None:
    """Why several cards may not go down together, or ``None`` when they may."""
    if len(cards) < 2:
        return None
    if opts.multi_play == "off":
        return "only one card may be played a turn"
    first = cards[0]
    if opts.multi_play == "pairs":
        if len(cards) > 2 or not all(c.is_number and c == first for c in cards):
            return "only two identical number cards may be played together"
        return None
    if not all(c.value == first.value for c in cards):
        return "cards played together must share their number or symbol"
    return None


def first_card_problem(card: Card, top: Card | None, color: str | None, pending: int,
                       pending_kind: str | None, opts: UnoOptions) -> str | None:
    """Why ``card`` may not be the (first) card of a play now, or ``None``."""
    if pending:
        table = opts.stack_table()
        if opts.stacking and is_answer(card, pending_kind, top, color, table):
            return None
        return "a player who owes cards must draw them first"
    if not matches(card, top, color):
        return f"it matches neither the colour ({color}) nor the {_top_face(top)}"
    return None


def _top_face(top: Card | None) -> str:
    if top is None or top.color is None:
        return "top card"
    return "number" if top.is_number else "symbol"


def legal_cards(hand: Iterable[Card], top: Card | None, color: str | None, pending: int,
                pending_kind: str | None, opts: UnoOptions) -> list[Card]:
    """The cards of ``hand`` that may start a play now (not judging Wild Draw Fours)."""
    return [c for c in hand
            if first_card_problem(c, top, color, pending, pending_kind, opts) is None]


def wd4_offending_card(hand: Iterable[Card], prev_top: Card | None,
                       prev_color: str | None,
                       prev_pending: int, prev_kind: str | None,
                       opts: UnoOptions) -> Card | None:
    """A card that made a Wild Draw Four illegal, or ``None`` if it was legal.

    ``no-playable`` (001): any other card that could have been played then,
    wilds included; on a Draw Two owed (stacking), any other answer. ``no-current
    -colour``: a card of the colour in force.
    """
    for card in hand:
        if card.value == "wild-draw4":
            continue
        if prev_pending:
            if opts.stacking and is_answer(card, prev_kind, prev_top, prev_color,
                                           opts.stack_table()):
                return card
            continue
        if opts.wd4_rule == "no-current-colour":
            if prev_color is None or card.color == prev_color:
                return card
        elif matches(card, prev_top, prev_color):
            return card
    return None


def hand_points(cards: Iterable[Card]) -> int:
    return sum(c.points for c in cards)
