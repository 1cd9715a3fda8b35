"""Draws and passes: the half of the uno turn machine that takes cards.

Part of :class:`referee.uno.turns.TurnsMixin` (kept apart to stay small). A
draw pays what a player owes (a penalty, a Draw Two / Wild Draw Four) or is
the turn's one voluntary draw; a draw that should not have happened is
``illegal`` with the remedy of returning the cards, and the state then counts
as if the remedy were carried out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import parse_cards
from ..game import GameError
from ..log import Event
from ..rulings import Ruling
from .plays import cards_n

if TYPE_CHECKING:  # pragma: no cover
    from .engine import UnoGame

_IN_PLAY = ("turn", "drawn")


class DrawsMixin:
    """``on_draw``, ``take`` and ``on_pass``."""

    # -- draw ------------------------------------------------------------------------
    def on_draw(self: "UnoGame", ev: Event) -> list[Ruling]:
        """``draw``: pays a penalty or a Draw Two / Wild Draw Four, or a turn's draw."""
        s = self.s
        count = ev.data.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise GameError(
                f"a draw's 'count' must be a positive whole number, got {count!r}")
        drawn = ev.data.get("cards")
        drawn_cards = parse_cards(drawn) if drawn is not None else None
        if s.phase in ("setup", "restart"):
            raise_p, _ = self.who(ev, None)
            return [self.ruling(
                ev.index, "illegal", "draw",
                "No round is under way (the first card is not turned), so the cards "
                "go back to the pile.", raise_p)]
        debtors = [i for i, c in enumerate(s.owed) if c]
        default = s.turn if s.phase in ("turn", "drawn", "challenge") else None
        free = default is None or (not s.owed[default] and not s.pending)
        if free and len(debtors) == 1:
            default = debtors[0]
        p, implied = self.who(ev, default)
        if p is None:
            raise GameError("a draw needs a 'player' here: nobody owes cards")
        note = (f" (no player was logged, so it is taken as {self.nm(p)}'s)" if implied
                else "")
        out: list[Ruling] = []
        left = count
        if s.phase == "challenge" and p == s.challenger and not s.owed[p]:
            s.phase, s.challenger = "turn", None
            out.append(self.ruling(ev.index, "info", "wd4-challenge",
                                   f"{self.nm(p)} draws instead of waiting for the "
                                   "accused's hand, so the challenge is dropped."))
        if s.owed[p]:
            pay = min(left, s.owed[p])
            left -= pay
            out += self.take(ev.index, p, pay)
            s.owed[p] -= pay
            if s.owed[p] and not s.draw_pile and s.discard <= 1:
                s.owed[p] = 0
            if s.owed[p]:
                out.append(self.ruling(ev.index, "pending", "draw",
                                       f"{self.nm(p)} drew {pay}{note} and still owes "
                                       f"{s.owed[p]}.", p, s.owed[p]))
            else:
                out.append(self.ruling(
                    ev.index, "ok", "draw",
                    f"{self.nm(p)} drew the {cards_n(pay)} owed{note}."))
            if s.phase == "scoring":
                out += self.maybe_score(ev.index)
        if left and p == s.turn and s.phase == "turn" and s.pending:
            out += self.close_windows(ev.index, p, played=False)
            pay = min(left, s.pending)
            left -= pay
            out += self.take(ev.index, p, pay)
            s.pending -= pay
            if s.pending and not s.draw_pile and s.discard <= 1:
                s.pending = 0
            if s.pending:
                out.append(self.ruling(ev.index, "pending", "draw",
                                       f"{self.nm(p)} drew {pay}{note} and still owes "
                                       f"{s.pending}.", p, s.pending))
            else:
                s.pending_kind, s.wd4 = None, None
                s.turn = s.step(p, 1)
                out.append(self.ruling(
                    ev.index, "ok", "draw",
                    f"{self.nm(p)} drew the cards owed{note} and loses the turn; it "
                    f"is {self.nm(s.turn)}'s turn."))
        elif left and p == s.turn and s.phase == "turn":
            out += self.close_windows(ev.index, p, played=False)
            left -= 1
            out += self.take(ev.index, p, 1)
            s.phase = "drawn"
            s.drawn_card = drawn_cards[-1] if drawn_cards and count == 1 else None
            out.append(self.ruling(
                ev.index, "ok", "draw",
                f"{self.nm(p)} draws a card{note} and may play that card or pass."))
        if left:
            why = ("has already drawn this turn" if s.phase == "drawn" and p == s.turn
                   else "owes no cards" if p == s.turn and s.phase == "turn"
                   else "may not draw now (it is not their turn and they owe no cards)")
            if p == s.turn and s.phase == "turn" and not s.pending:
                why = "may draw only one card"
            out.append(self.ruling(
                ev.index, "illegal", "draw",
                f"{self.nm(p)}{note} {why}, so {cards_n(left)} go back to the pile.",
                p))
        return out

    def take(self: "UnoGame", index: int, p: int, count: int) -> list[Ruling]:
        """Move ``count`` cards from the pile to ``p``'s hand (reshuffle if needed)."""
        s = self.s
        out = []
        if count > s.draw_pile and s.discard > 1:
            out.append(self.ruling(
                index, "info", "reshuffle",
                "The draw pile ran out, so the discards except the top card are "
                "shuffled into a new pile."))
        got = s.take_from_pile(count)
        s.hand_counts[p] += got
        if got:
            s.called[p] = False
            s.catchable.pop(p, None)
        if got < count:
            out.append(self.ruling(index, "info", "reshuffle",
                                   f"Only {cards_n(got)} could be drawn, so "
                                   f"{self.nm(p)} is excused the other {count - got}."))
        return out

    # -- pass ------------------------------------------------------------------------
    def on_pass(self: "UnoGame", ev: Event) -> list[Ruling]:
        """``pass``: ends the turn after a draw."""
        s = self.s
        p, implied = self.who(ev, s.turn)
        if s.phase not in _IN_PLAY:
            return [self.ruling(
                ev.index, "info", "pass",
                f"Nothing is waiting on {self.nm(p)} to play now, so the pass is "
                "ignored.")]
        if p != s.turn:
            return [self.ruling(
                ev.index, "illegal", "turn",
                f"It is {self.nm(s.turn)}'s turn, not {self.nm(p)}'s, so the pass is "
                "ignored.", p)]
        note = self.implied_note(p, implied)
        if s.phase == "drawn":
            out = self.close_windows(ev.index, p, played=False)
            s.turn, s.phase, s.drawn_card = s.step(p, 1), "turn", None
            s.wd4_returned = None
            return out + [self.ruling(ev.index, "ok", "pass",
                                      f"{self.nm(p)} passes after drawing{note}; it is "
                                      f"{self.nm(s.turn)}'s turn.")]
        if s.pending:
            return [self.ruling(
                ev.index, "illegal", "pass",
                f"{self.nm(p)} must first draw the {s.pending} cards owed{note}, so "
                "the pass is ignored.", p, s.pending)]
        return [self.ruling(
            ev.index, "illegal", "pass",
            f"{self.nm(p)} must draw a card before passing{note}, so it is still "
            f"{self.nm(p)}'s turn.", p)]
