"""Draws and passes: the half of the uno turn machine that takes cards.

Plain functions over the state. A draw pays what a player owes (a penalty, a
Draw Two / Wild Draw Four) or is the turn's one voluntary draw; a draw that
should not have happened is ``illegal`` with the remedy of returning the
cards, and the state then counts as if the remedy were carried out.
:meth:`referee.uno.game.UnoGame.on_draw` calls these steps in order.
"""

from __future__ import annotations

from typing import NamedTuple

from ..cards import Card, parse_cards
from ..game import GameError
from ..log import Event
from ..rulings import Ruling
from .calls import close_windows
from .options import UnoOptions
from .plays import cards_n
from .state import Say, UnoState

_IN_PLAY = ("turn", "drawn")


class Draw(NamedTuple):
    """A ``draw`` event read: who, how many, and the cards if logged."""

    player: int
    count: int
    cards: list[Card] | None
    note: str  # " (player taken from the turn)", once a round (UnoState.implied_note)


def read_draw(s: UnoState, ev: Event, say: Say) -> Draw | list[Ruling]:
    """The draw an event asks for, or the rulings refusing it outright."""
    count = ev.data.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise GameError(f"a draw's 'count' must be a positive whole number, got "
                        f"{count!r}")
    drawn = ev.data.get("cards")
    drawn_cards = parse_cards(drawn) if drawn is not None else None
    if s.phase in ("setup", "restart"):
        who, _ = s.who(ev, None)
        return [say(ev.index, "illegal", "draw",
                    "No round is under way (the first card is not turned), so the "
                    "cards go back to the pile.", player=s.name(who))]
    debtors = [i for i, c in enumerate(s.owed) if c]
    default = s.turn if s.phase in ("turn", "drawn", "challenge") else None
    free = default is None or (not s.owed[default] and not s.pending)
    if free and len(debtors) == 1:
        default = debtors[0]
    p, implied = s.who(ev, default)
    if p is None:
        raise GameError("a draw needs a 'player' here: nobody owes cards")
    note = s.implied_note(p, implied, "turn" if p == s.turn else "cards owed")
    return Draw(p, count, drawn_cards, note)


def drop_challenge(s: UnoState, index: int, p: int, say: Say) -> list[Ruling]:
    """A challenger who draws instead of waiting drops the challenge."""
    if s.phase == "challenge" and p == s.challenger and not s.owed[p]:
        s.phase, s.challenger = "turn", None
        return [say(index, "info", "wd4-challenge",
                    f"{s.players[p]} draws instead of waiting for the accused's hand, "
                    "so the challenge is dropped.")]
    return []


def take(s: UnoState, index: int, p: int, count: int, say: Say) -> list[Ruling]:
    """Move ``count`` cards from the pile to ``p``'s hand (reshuffle if needed)."""
    out = []
    if count > s.draw_pile and s.discard > 1:
        out.append(say(index, "info", "reshuffle",
                       "The draw pile ran out, so the discards except the top card "
                       "are shuffled into a new pile."))
    got = s.take_from_pile(count)
    s.hand_counts[p] += got
    if got:
        s.called[p] = False
        s.catchable.pop(p, None)
    if got < count:
        out.append(say(index, "info", "reshuffle",
                       f"Only {cards_n(got)} could be drawn, so {s.players[p]} is "
                       f"excused the other {count - got}."))
    return out


def pay_owed(s: UnoState, index: int, d: Draw, left: int,
             say: Say) -> tuple[list[Ruling], int]:
    """Pay what ``d.player`` owes (a penalty); returns rulings and cards left over."""
    p = d.player
    pay = min(left, s.owed[p])
    out = take(s, index, p, pay, say)
    s.owed[p] -= pay
    if s.owed[p] and not s.draw_pile and s.discard <= 1:
        s.owed[p] = 0
    if s.owed[p]:
        out.append(say(index, "pending", "draw",
                       f"{s.players[p]} drew {pay}{d.note} and still owes "
                       f"{s.owed[p]}.", player=s.players[p], draw=s.owed[p]))
    else:
        out.append(say(index, "ok", "draw",
                       f"{s.players[p]} drew the {cards_n(pay)} owed{d.note}."))
    return out, left - pay


def pay_pending(s: UnoState, o: UnoOptions, index: int, d: Draw, left: int,
                say: Say) -> tuple[list[Ruling], int]:
    """Pay a Draw Two / Wild Draw Four debt; returns rulings and cards left over."""
    p = d.player
    out = close_windows(s, o, index, p, False, say)
    pay = min(left, s.pending)
    out += take(s, index, p, pay, say)
    s.pending -= pay
    if s.pending and not s.draw_pile and s.discard <= 1:
        s.pending = 0
    if s.pending:
        out.append(say(index, "pending", "draw",
                       f"{s.players[p]} drew {pay}{d.note} and still owes "
                       f"{s.pending}.", player=s.players[p], draw=s.pending))
    return out, left - pay


def lose_turn(s: UnoState, index: int, p: int, note: str, say: Say) -> list[Ruling]:
    """The debt is paid: the player loses the turn (001 ドロー2)."""
    s.pending_kind, s.wd4 = None, None
    s.turn = s.step(p, 1)
    return [say(index, "ok", "draw",
                f"{s.players[p]} drew the cards owed{note} and loses the turn; it is "
                f"{s.players[s.turn]}'s turn.")]


def draw_one(s: UnoState, o: UnoOptions, index: int, d: Draw,
             say: Say) -> list[Ruling]:
    """The turn's one voluntary draw: then play that card or pass."""
    p = d.player
    out = close_windows(s, o, index, p, False, say)
    out += take(s, index, p, 1, say)
    s.phase = "drawn"
    s.drawn_card = d.cards[-1] if d.cards and d.count == 1 else None
    out.append(say(index, "ok", "draw",
                   f"{s.players[p]} draws a card{d.note} and may play that card or "
                   "pass."))
    return out


def refuse_rest(s: UnoState, index: int, d: Draw, left: int, say: Say) -> Ruling:
    """Cards drawn beyond what was owed or allowed go back to the pile."""
    p = d.player
    why = ("has already drawn this turn" if s.phase == "drawn" and p == s.turn
           else "owes no cards" if p == s.turn and s.phase == "turn"
           else "may not draw now (it is not their turn and they owe no cards)")
    if p == s.turn and s.phase == "turn" and not s.pending:
        why = "may draw only one card"
    return say(index, "illegal", "draw",
               f"{s.players[p]}{d.note} {why}, so {cards_n(left)} "
               f"{'goes' if left == 1 else 'go'} back to the pile.",
               player=s.players[p])


def on_pass(s: UnoState, o: UnoOptions, ev: Event, say: Say) -> list[Ruling]:
    """``pass``: ends the turn after a draw."""
    p, implied = s.who(ev, s.turn)
    assert p is not None
    name = s.players[p]
    if s.phase not in _IN_PLAY:
        return [say(ev.index, "info", "pass",
                    f"Nothing is waiting on {name} to play now, so the pass is "
                    "ignored.")]
    if p != s.turn:
        return [say(ev.index, "illegal", "turn",
                    f"It is {s.players[s.turn]}'s turn, not {name}'s, so the pass is "
                    "ignored.", player=name)]
    note = s.implied_note(p, implied)
    if s.phase == "drawn":
        out = close_windows(s, o, ev.index, p, False, say)
        s.turn, s.phase, s.drawn_card = s.step(p, 1), "turn", None
        s.wd4_returned = None
        return out + [say(ev.index, "ok", "pass",
                          f"{name} passes after drawing{note}; it is "
                          f"{s.players[s.turn]}'s turn.")]
    if s.pending:
        return [say(ev.index, "illegal", "pass",
                    f"{name} must first draw the {cards_n(s.pending)} owed{note}, so "
                    "the pass is ignored.", player=name, draw=s.pending)]
    return [say(ev.index, "illegal", "pass",
                f"{name} must draw a card before passing{note}, so it is still "
                f"{name}'s turn.", player=name)]
