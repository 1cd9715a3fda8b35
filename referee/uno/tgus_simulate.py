"""Random playouts of the tgus presets: the core simulator taught the TGUS table habits.

:class:`TgusSimulator` extends :class:`referee.uno.simulate.Simulator` (which
knows every hand and checks the referee's counts after each event) with what a
TGUS table does: the rock-paper-scissors direction, per-player hands from the
success weight, play on until one player is left, the self-reported picture
leftover (tgus-1), the white wild as Downpour or all-mighty card, face-down
plays and doubts (tgus-3), no passing-on after a lost challenge (tgus-2) and
the odd stop by points (tgus-3). Every legal move must still be ruled legal.
"""

from __future__ import annotations

from typing import Any

from ..cards import COLORS, Card, standard_deck
from .plays import matches
from .simulate import SimulationError, Simulation, Simulator
from .tgus import ALL_MIGHTY_EFFECTS, picture_only


class TgusSimulator(Simulator):
    """A :class:`Simulator` for ``rules`` tgus-1, tgus-2 or tgus-3."""

    def in_players(self) -> list[int]:
        s = self.game.s
        return [q for q in range(s.n) if q not in s.out]

    # -- round set-up ----------------------------------------------------------------
    def deal(self) -> None:
        s = self.game.s
        sizes = s.start_sizes or [self.o.hand_size] * s.n
        deck = standard_deck(extra_wilds=self.deck_size == 112)
        self.rng.shuffle(deck)
        self.pile, self.discard = deck, []
        self.hands = [[self.pile.pop() for _ in range(k)] for k in sizes]

    def turn_first_card(self) -> None:
        super().turn_first_card()
        s = self.game.s
        if self.o.direction_rps and s.phase == "turn" and self.rng.random() < 0.9:
            winner = s.step(s.turn, self.rng.choice((1, -1)))
            self.emit({"type": "direction", "direction": self.rng.choice((1, -1)),
                       "winner": s.players[winner]})

    def reveal_for_scoring(self) -> None:
        s = self.game.s
        for p in range(s.n):
            if p != s.round_winner and p not in s.revealed:
                if self.check and p in s.out and self.hands[p]:
                    raise SimulationError(f"{s.players[p]} is out but holds "
                                          f"{self.hands[p]}")
                before = len(s.rounds)
                self.emit({"type": "reveal", "player": s.players[p],
                           "cards": [c.label for c in self.hands[p]]})
                if len(s.rounds) > before:
                    self.check_round(s.rounds[-1])
                return

    # -- the loop ----------------------------------------------------------------------
    def step(self) -> None:
        s, o, tg, rng = self.game.s, self.o, self.game.tg, self.rng
        if s.phase in ("turn", "drawn"):
            if o.picture_leftover and self.report_leftover():
                return
            if tg.face_down is not None and tg.doubter is None and rng.random() < 0.4:
                self.doubt()
                return
            if o.stop_by_points and rng.random() < 0.002:
                self.emit({"type": "stop", "player": s.players[s.turn]})
                return
            if (o.face_down and not s.pending and s.phase == "turn"
                    and tg.face_down_left[s.turn] and len(self.hands[s.turn]) > 1
                    and rng.random() < 0.05):
                self.face_down(s.turn)
                return
        super().step()

    def report_leftover(self) -> bool:
        """A player holding only picture cards reports it (and then draws 2)."""
        s = self.game.s
        for p in self.in_players():
            if picture_only(self.hands[p]) and not s.owed[p] and self.available() >= 1:
                obj: dict[str, Any] = {"type": "picture-leftover",
                                       "player": s.players[p]}
                if self.rng.random() < 0.3:
                    obj["cards"] = [c.label for c in self.hands[p]]
                self.emit(obj)
                return True
        return False

    def face_down(self, p: int) -> None:
        s = self.game.s
        card = self.rng.choice(self.hands[p])
        self.fd_card = (card, s.top, s.color)
        self.put(p, [card])
        self.emit({"type": "face-down", "player": s.players[p]})

    def doubt(self) -> None:
        s, tg = self.game.s, self.game.tg
        fd = tg.face_down
        assert fd is not None
        doubter = self.rng.choice([q for q in self.in_players() if q != fd.player])
        card, top, color = self.fd_card
        self.emit({"type": "doubt", "player": s.players[doubter]})
        out = self.emit({"type": "reveal", "player": s.players[fd.player],
                         "cards": [card.label]})
        loser = doubter if matches(card, top, color) else fd.player
        if self.check and not any(r.player == s.players[loser] and r.draw for r in out):
            raise SimulationError(f"doubt on {card}: expected {s.players[loser]} to "
                                  f"draw, got {[r.to_dict() for r in out]}")

    # -- moves -------------------------------------------------------------------------
    def group(self, p: int, first: Card) -> list[Card]:
        if first.value == "wild-custom" and self.o.white_wild == "all-mighty":
            return [first]
        return super().group(p, first)

    def may_finish(self, p: int, cards: list[Card]) -> bool:
        o = self.o
        if len(cards) == len(self.hands[p]) and self.rng.random() < 0.8:
            if o.number_finish and not all(c.is_number for c in cards):
                return False
            if o.picture_leftover and picture_only(cards):
                return False
        return super().may_finish(p, cards)

    def act(self, p: int) -> None:
        s, o, tg = self.game.s, self.o, self.game.tg
        no_pass = o.after_failed_challenge == "draw"
        if s.pending and tg.failed_challenger == p and no_pass:
            self.pay_pending(p)
            return
        super().act(p)

    def play(self, p: int, cards: list[Card], jump: bool = False) -> None:
        s, o, rng = self.game.s, self.o, self.rng
        left = len(self.hands[p]) - len(cards)
        calls = left <= 1 and len(self.hands[p]) <= 2 and not s.called[p]
        if calls and rng.random() < 0.7:
            self.emit({"type": "uno", "player": s.players[p]})
        obj: dict[str, Any] = {"type": "play", "player": s.players[p],
                               "cards": [c.label for c in cards]}
        acts_as = cards[-1].value
        if cards[-1].value == "wild-custom" and o.white_wild == "all-mighty":
            allowed = list(ALL_MIGHTY_EFFECTS)
            if s.pending:
                table = o.stack_table()
                allowed = [v for v in allowed if (s.pending_kind, v) in table]
            acts_as = rng.choice(allowed)
            obj["as"] = acts_as
        if cards[-1].is_wild:
            obj["color"] = rng.choice(COLORS)
        self.put(p, cards)
        self.emit(obj)
        if acts_as == "wild-shuffle" and self.hands[p]:
            seats = self.in_players()
            pool = [c for q in seats for c in self.hands[q]]
            rng.shuffle(pool)
            for q in seats:
                self.hands[q] = []
            for j, card in enumerate(pool):
                self.hands[s.step(p, j % len(seats) + 1)].append(card)


def simulate_tgus(seed: int, players: int = 4, rules: str = "tgus-3",
                  options: dict[str, Any] | None = None, **kw: Any) -> Simulation:
    """Play one tgus game with every invariant checked; see :class:`TgusSimulator`."""
    return TgusSimulator(seed, players, options, rules=rules, **kw).run()
