"""tgus-3's face-down plays, doubts, and the stop of a game that drags on.

Part of :class:`referee.uno.tgus_rules.TgusMixin` (kept apart to stay small).
A face-down card leaves its player's hand and skips their turn; the face-up
card below still decides what may be played. Until the next action at the
table any other player may call a doubt; the card is then shown (on the
``doubt`` event as ``card`` or by a ``reveal``) and the loser draws 4.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import Card, parse_cards
from ..game import GameError
from ..log import Event
from ..rulings import Ruling
from .plays import card_name, hand_points, off_deck, off_deck_text
from .tgus import FaceDown, doubt_loser

if TYPE_CHECKING:  # pragma: no cover
    from .engine import UnoGame


class FaceDownMixin:
    """``on_face_down``, ``on_doubt``, ``on_stop`` and the reveal/scoring they need."""

    def _close_face_down(self: "UnoGame") -> None:
        """The next action at the table closes the doubt window (unless one is open)."""
        tg = self.tg
        if tg.doubter is None:
            tg.face_down = None

    def _face_down_problem(self: "UnoGame", p: int) -> str | None:
        s, o, tg = self.s, self.options, self.tg
        name = self.nm(p)
        if not o.face_down:
            return (f"This preset does not use face-down plays, so {name} takes the "
                    "card back")
        if s.phase not in ("turn", "drawn") or p != s.turn:
            who = f"{self.nm(s.turn)}'s" if s.phase in ("turn", "drawn") else "nobody's"
            return f"It is {who} turn, so {name} takes the face-down card back"
        if s.pending:
            return (f"{name} owes {s.pending} cards, which a face-down play cannot "
                    f"dodge (interpreted), so {name} takes the card back")
        if s.hand_counts[p] <= 1:
            return (f"A face-down play may never be used to go out, so {name} takes "
                    "the card back")
        if tg.face_down_left[p] <= 0:
            return (f"{name} has used all {o.face_down} face-down plays of this game, "
                    "so the card goes back to the hand")
        return None

    def on_face_down(self: "UnoGame", ev: Event) -> list[Ruling]:
        s, tg = self.s, self.tg
        p, implied = self.who(ev, s.turn if s.phase in ("turn", "drawn") else None)
        if p is None:
            raise GameError("a face-down play needs the 'player'")
        problem = self._face_down_problem(p)
        if problem:
            return [self.ruling(ev.index, "illegal", "face-down", problem + ".", p,
                                s.pending or None)]
        card = Card.from_label(ev.data["card"]) if "card" in ev.data else None
        if card is not None and off_deck((card,), self.options.deck) is not None:
            return [self.ruling(ev.index, "illegal", "deck", off_deck_text(
                card, self.options.deck) + f": {self.nm(p)} takes it back.", p)]
        out = self._first_action(ev.index)
        tg.doubter = None
        out += self.close_windows(ev.index, p, played=True)
        tg.failed_challenger = tg.took_draw = None
        s.hand_counts[p] -= 1
        s.discard += 1
        s.phase, s.drawn_card = "turn", None
        if s.hand_counts[p] == 1 and not s.called[p]:
            s.catchable[p] = ev.index
        elif s.hand_counts[p] != 1:
            s.called[p] = False
        tg.face_down_left[p] -= 1
        tg.face_down = FaceDown(p, s.top, s.color, ev.index) if s.top else None
        tg.face_down_card = card
        s.turn = s.step(p, 1)
        note = self.implied_note(p, implied)
        return out + [self.ruling(
            ev.index, "ok", "face-down", f"{self.nm(p)} plays a card face down{note} "
            f"to skip the turn ({tg.face_down_left[p]} left this game); anyone may "
            f"doubt it before {self.nm(s.turn)} acts.")]

    def on_doubt(self: "UnoGame", ev: Event) -> list[Ruling]:
        s, o, tg = self.s, self.options, self.tg
        p, _ = self.who(ev, None)
        if p is None:
            raise GameError("a doubt needs the 'player' who calls it")
        if not o.face_down:
            return [self.ruling(ev.index, "info", "doubt", "This preset has no "
                                "face-down plays, so there is nothing to doubt.")]
        fd = tg.face_down
        if fd is None or tg.doubter is not None:
            why = ("a doubt is already being settled" if tg.doubter is not None
                   else "no face-down card can be doubted now (a doubt must come "
                   "before the next player acts)")
            return [self.ruling(ev.index, "info", "doubt", f"{self.nm(p)} called "
                                f"doubt, but {why}, so nothing happens.")]
        if p == fd.player:
            return [self.ruling(ev.index, "illegal", "doubt", f"{self.nm(p)} cannot "
                                "doubt their own face-down card.", p)]
        if p in s.out:
            return [self.ruling(ev.index, "illegal", "doubt", f"{self.nm(p)} is "
                                "already out of this game, so only the players still "
                                "in may doubt.", p)]
        tg.doubter = p
        if "card" in ev.data:
            card = Card.from_label(ev.data["card"])
            if off_deck((card,), o.deck) is not None:
                return [self.ruling(
                    ev.index, "illegal", "deck", off_deck_text(card, o.deck) + ": "
                    f"{self.nm(fd.player)} shows the face-down card (reveal).",
                    fd.player)]
            return self._settle_doubt(ev.index, card)
        if tg.face_down_card is not None:
            return self._settle_doubt(ev.index, tg.face_down_card)
        return [self.ruling(ev.index, "pending", "doubt", f"{self.nm(p)} doubts "
                            f"{self.nm(fd.player)}'s face-down card: "
                            f"{self.nm(fd.player)} shows it (reveal).", fd.player)]

    def _settle_doubt(self: "UnoGame", index: int, card: Card) -> list[Ruling]:
        s, o, tg = self.s, self.options, self.tg
        fd, doubter = tg.face_down, tg.doubter
        assert fd is not None and doubter is not None
        _, playable = doubt_loser(fd, card, self.nm(doubter))
        loser = doubter if playable else fd.player
        tg.face_down, tg.doubter, tg.face_down_card = None, None, None
        s.owed[loser] += o.doubt_penalty
        top = card_name(fd.top)
        could = "could" if playable else "could not"
        return [self.ruling(index, "penalty", "doubt", "The face-down card is the "
                            f"{card_name(card)}, which {could} have been played on the "
                            f"{top} ({fd.color}), so {self.nm(loser)} draws "
                            f"{o.doubt_penalty}.", loser, o.doubt_penalty,
                            doubt={"card": card.label, "playable": playable})]

    def on_reveal(self: "UnoGame", ev: Event) -> list[Ruling]:
        tg = self.tg
        fd = tg.face_down
        by_accused = fd is not None and ev.data.get("player") == self.nm(fd.player)
        if tg.doubter is not None and fd is not None and by_accused:
            cards = parse_cards(ev.data.get("cards", []))
            bad = off_deck(cards, self.options.deck)
            if bad is not None:
                return [self.ruling(
                    ev.index, "illegal", "deck", off_deck_text(bad, self.options.deck)
                    + ": show the face-down card again.", fd.player)]
            if len(cards) != 1:
                return [self.ruling(ev.index, "illegal", "doubt", "A doubt is settled "
                                    "by showing the one face-down card, not "
                                    f"{len(cards)}; show it again.", fd.player)]
            return self._settle_doubt(ev.index, cards[0])
        return super().on_reveal(ev)  # type: ignore[misc]

    # -- stop by points ----------------------------------------------------------------
    def on_stop(self: "UnoGame", ev: Event) -> list[Ruling]:
        s, o, tg = self.s, self.options, self.tg
        if not o.stop_by_points:
            return [self.ruling(ev.index, "info", "points-end", "This preset does not "
                                "stop a game by points, so play goes on.")]
        if s.phase not in ("turn", "drawn"):
            return [self.ruling(ev.index, "info", "points-end", "No round is being "
                                "played, so there is nothing to stop.")]
        tg.stopped = True
        self._close_face_down()
        s.phase = "scoring"
        s.catchable.clear()
        if s.pending:
            s.owed[s.turn] += s.pending
        s.pending, s.pending_kind = 0, None
        s.round_winner = tg.ranking.order[0] if tg.ranking.order else None
        for q in tg.ranking.order[1:]:
            s.revealed[q] = []
        still = ", ".join(self.nm(q) for q in self.in_players())
        return [self.ruling(ev.index, "pending", "points-end", "The game is stopped "
                            f"and ends by official point scoring: {still} show their "
                            "hands (reveal).")]

    def maybe_score(self: "UnoGame", index: int) -> list[Ruling]:
        s, tg = self.s, self.tg
        if not tg.stopped:
            return super().maybe_score(index)  # type: ignore[misc]
        still = self.in_players()
        if not all(q in s.revealed and not s.owed[q] for q in still):
            return []
        if s.round_winner is None:
            s.round_winner = min(still, key=lambda q: (hand_points(s.revealed[q]), q))
        return self.finish_round(index)
