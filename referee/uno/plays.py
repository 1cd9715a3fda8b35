"""Legality of plays: matching, multi-play, stacking answers, Wild Draw Four guilt.

Pure functions of cards and a few state values, shared by the engine and the
random-playout simulator (which knows the hands).
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from ..cards import ACTIONS, COLORS, NUMBERS, WILDS, Card, parse_cards
from ..text import Text, card, cards, color, count, define
from .options import UnoOptions

define({
    "uno.off-deck": {
        "en": "The {card} is not a card of this game's {deck}-card deck",
        "ja": "{card}はこのゲームの{deck}枚のデッキにないカードです"},
    "uno.multi-one-a-turn": {
        "en": "only one card may be played a turn",
        "ja": "1回の手番で出せるのは1枚だけです"},
    "uno.multi-pairs": {
        "en": "only two identical number cards may be played together",
        "ja": "一緒に出せるのは同じ数字カード2枚だけです"},
    "uno.multi-same": {
        "en": "cards played together must share their number or symbol",
        "ja": "一緒に出すカードは数字か記号が同じでなければなりません"},
    "uno.owes-first": {
        "en": "a player who owes cards must draw them first",
        "ja": "引くべきカードがある人はまずそれを引かなければなりません"},
    "uno.no-match": {
        "en": "it matches neither the colour ({color}) nor the {face}",
        "ja": "色（{color}）にも{face}にも合いません"},
    "uno.face-top": {"en": "top card", "ja": "場のカード"},
    "uno.face-number": {"en": "number", "ja": "数字"},
    "uno.face-symbol": {"en": "symbol", "ja": "記号"},
})


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


def off_deck_text(card: Card, deck: int) -> Text:
    """``The red hit2 is not a card of this game's 108-card deck`` (no full stop:
    a part of a sentence)."""
    return Text("uno.off-deck", card=card_name(card), deck=deck)


def card_name(one: Card) -> Text:
    """A card as a person says it: ``red 7``, ``blue Skip``, ``Wild Draw Four``;
    ``赤の7`` in Japanese (:func:`referee.text.card`)."""
    return card(one)


def cards_name(several: Sequence[Card]) -> Text:
    """Cards as a person says them: ``red 7, blue 7 and green 7``."""
    return cards(several)


def cards_n(n: int) -> Text:
    """``1 card``, ``3 cards``; ``3枚``."""
    return count(n, "card")


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


def multi_problem(cards: Sequence[Card], opts: UnoOptions) -> Text | None:
    """Why several cards may not go down together, or ``None`` when they may."""
    if len(cards) < 2:
        return None
    if opts.multi_play == "off":
        return Text("uno.multi-one-a-turn")
    first = cards[0]
    if opts.multi_play == "pairs":
        if len(cards) > 2 or not all(c.is_number and c == first for c in cards):
            return Text("uno.multi-pairs")
        return None
    if not all(c.value == first.value for c in cards):
        return Text("uno.multi-same")
    return None


def playable(one: Card, top: Card | None, colour: str | None, pending: int,
             pending_kind: str | None, opts: UnoOptions) -> bool:
    """Whether ``one`` may be the (first) card of a play now (no reason said)."""
    if pending:
        return opts.stacking and is_answer(one, pending_kind, top, colour,
                                           opts.stack_table())
    return matches(one, top, colour)


def first_card_problem(one: Card, top: Card | None, colour: str | None, pending: int,
                       pending_kind: str | None, opts: UnoOptions) -> Text | None:
    """Why ``one`` may not be the (first) card of a play now, or ``None``.

    A part of a sentence (no capital, no full stop)."""
    if playable(one, top, colour, pending, pending_kind, opts):
        return None
    if pending:
        return Text("uno.owes-first")
    return Text("uno.no-match", color=color(str(colour)), face=_top_face(top))


def _top_face(top: Card | None) -> Text:
    if top is None or top.color is None:
        return Text("uno.face-top")
    return Text("uno.face-number" if top.is_number else "uno.face-symbol")


def legal_cards(hand: Iterable[Card], top: Card | None, colour: str | None,
                pending: int, pending_kind: str | None,
                opts: UnoOptions) -> list[Card]:
    """The cards of ``hand`` that may start a play now (not judging Wild Draw Fours)."""
    return [c for c in hand if playable(c, top, colour, pending, pending_kind, opts)]


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
