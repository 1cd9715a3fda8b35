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
from .plays import card_name, off_deck, off_deck_text
from .state import Say, UnoState


def read_start(o: UnoOptions, ev: Event,
               say: Say) -> tuple[Card, str | None, list[Ruling]]:
    """The card a ``start`` turns, its colour, and a refusal if it is off-deck."""
    card = Card.from_label(ev.data.get("card")) if "card" in ev.data else None
    if card is None:
        raise GameError("a start event needs the turned 'card'")
    color = color_of(ev)
    if off_deck((card,), o.deck) is not None:
        return card, color, [say(
            ev.index, "info", "deck", f"{off_deck_text(card, o.deck)}, so this start "
            "is ignored: take it back and turn another card.")]
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
        why = ("a Wild Draw Four may not start a round" if card.value == "wild-draw4"
               else "this table returns action cards turned first")
        return say(index, "info", "first-card",
                   f"The {card_name(card)} goes back into the pile and another card "
                   f"is turned, because {why}.")
    r = f"Round {s.round} starts with the {card_name(card)}"
    if card.value == "draw2":
        s.turn, s.pending, s.pending_kind = left, 2, "draw2"
        return say(index, "pending", "first-card",
                   f"{r} as if dealer {dealer} had played it: {names[left]} draws 2 "
                   "and loses the turn.", player=names[left], draw=2)
    if card.value == "skip":
        s.turn = s.step(left, 1)
        text = (f"{r} as if dealer {dealer} had played it: {names[left]} is skipped "
                f"and {names[s.turn]} plays first.")
    elif card.value == "reverse":
        s.direction = -1
        s.turn = s.dealer
        text = f"{r}: dealer {dealer} plays first and play goes counter-clockwise."
    elif card.is_wild:
        s.turn, s.color, s.wild_player = left, color, left
        named = f" and names {color}" if color else " and names the colour"
        text = f"{r}: {names[left]}, left of dealer {dealer}, plays first{named}."
    else:
        s.turn = left
        text = f"{r}: {names[left]}, left of dealer {dealer}, plays first."
    return say(index, "ok", "first-card", text)
