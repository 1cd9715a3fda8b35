"""Rule ``first-card``: the first card of a round (001 公式 3).

A Wild Draw Four (and, with ``first_action_returned``, any action card) goes
back into the pile and another card is turned; a Draw Two or Skip acts as if
the dealer had played it; a Reverse makes the dealer play first, counter-
clockwise; a Wild lets the player left of the dealer name the colour.
"""

from __future__ import annotations

from ..cards import Card
from ..game import GameError
from ..log import Event
from ..rulings import Ruling
from .calls import color_of
from .options import UnoOptions
from ..text import Text, color as colour_name, define
from .plays import card_name, off_deck, off_deck_text
from .state import Say, UnoState

define({
    "uno.start-needs-card": {
        "en": "a start event needs the turned 'card'",
        "ja": "開始の記録にはめくった 'card' が必要です",
    },
})

define({
    "uno.start-off-deck": {
        "en": "{off_deck}, so this start is ignored: take it back and turn another "
              "card.",
        "ja": ("{off_deck!c}、このスタートは無視し、"
               "戻して別のカードをめくってください。")},
    "uno.first-wd4": {"en": "a Wild Draw Four may not start a round",
                      "ja": "ワイルドドロー4ではラウンドを始められない"},
    "uno.first-action-returned": {
        "en": "this table returns action cards turned first",
        "ja": "このテーブルでは最初にめくったアクションカードを戻す"},
    "uno.first-returned": {
        "en": "The {card} goes back into the pile and another card is turned, because "
              "{why}.",
        "ja": "{why}ので、{card}を山札に戻して別のカードをめくります。"},
    "uno.first-draw2": {
        "en": "Round {round} starts with the {card} as if dealer {dealer} had played "
              "it: {left} draws 2 and loses the turn.",
        "ja": ("ラウンド{round}は{card}で始まり、親の{dealer}が出したものとして、"
               "{left}は2枚引いて手番を失います。")},
    "uno.first-skip": {
        "en": "Round {round} starts with the {card} as if dealer {dealer} had played "
              "it: {left} is skipped and {next} plays first.",
        "ja": ("ラウンド{round}は{card}で始まり、親の{dealer}が出したものとして、"
               "{left}はスキップされ、{next}から始めます。")},
    "uno.first-reverse": {
        "en": "Round {round} starts with the {card}: dealer {dealer} plays first and "
              "play goes counter-clockwise.",
        "ja": ("ラウンド{round}は{card}で始まり、親の{dealer}から始め、"
               "反時計回りに進みます。")},
    "uno.first-wild": {
        "en": "Round {round} starts with the {card}: {left}, left of dealer {dealer}, "
              "plays first and names {color}.",
        "ja": ("ラウンド{round}は{card}で始まり、親の{dealer}の左の{left}から始め、"
               "{left}が{color}を指定します。")},
    "uno.first-wild-unnamed": {
        "en": "Round {round} starts with the {card}: {left}, left of dealer {dealer}, "
              "plays first and names the colour.",
        "ja": ("ラウンド{round}は{card}で始まり、親の{dealer}の左の{left}から始め、"
               "{left}が色を指定します。")},
    "uno.first-card": {
        "en": "Round {round} starts with the {card}: {left}, left of dealer {dealer}, "
              "plays first.",
        "ja": ("ラウンド{round}は{card}で始まり、親の{dealer}の左の{left}から始めます"
               "。")},
})


def read_start(o: UnoOptions, ev: Event,
               say: Say) -> tuple[Card, str | None, list[Ruling]]:
    """The card a ``start`` turns, its colour, and a refusal if it is off-deck."""
    card = Card.from_label(ev.data.get("card")) if "card" in ev.data else None
    if card is None:
        raise GameError(Text("uno.start-needs-card"))
    color = color_of(ev)
    if off_deck((card,), o.deck) is not None:
        return card, color, [say(
            ev.index, "info", "deck",
            Text("uno.start-off-deck", off_deck=off_deck_text(card, o.deck)))]
    return card, color, []


def turn_first_card(s: UnoState, o: UnoOptions, index: int, card: Card,
                    color: str | None, say: Say) -> Ruling:
    """Deal if a round is due, turn ``card`` and apply its first-card effect."""
    if s.phase != "restart":
        s.deal()
    got = s.take_from_pile(1)
    s.discard = got
    s.top, s.color, s.phase = card, card.color, "turn"
    left = s.step(s.dealer, 1)
    names = s.players
    dealer = names[s.dealer]
    if card.value == "wild-draw4" or (o.first_action_returned and card.is_action):
        s.draw_pile += got
        s.discard = 0
        s.top, s.color, s.phase = None, None, "restart"
        why = Text("uno.first-wd4" if card.value == "wild-draw4"
                   else "uno.first-action-returned")
        return say(index, "info", "first-card",
                   Text("uno.first-returned", card=card_name(card), why=why))
    said = {"round": s.round, "card": card_name(card), "dealer": dealer,
            "left": names[left]}
    if card.value == "draw2":
        s.turn, s.pending, s.pending_kind = left, 2, "draw2"
        return say(index, "pending", "first-card", Text("uno.first-draw2", **said),
                   player=names[left], draw=2)
    if card.value == "skip":
        s.turn = s.step(left, 1)
        text = Text("uno.first-skip", next=names[s.turn], **said)
    elif card.value == "reverse":
        s.direction = -1
        s.turn = s.dealer
        del said["left"]
        text = Text("uno.first-reverse", **said)
    elif card.is_wild:
        s.turn, s.color, s.wild_player = left, color, left
        text = (Text("uno.first-wild", color=colour_name(color), **said) if color
                else Text("uno.first-wild-unnamed", **said))
    else:
        s.turn = left
        text = Text("uno.first-card", **said)
    return say(index, "ok", "first-card", text)
