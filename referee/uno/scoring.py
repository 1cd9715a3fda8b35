"""Round and game end: scoring from revealed hands, japan and international.

- japan (001 日本ルール): the winner scores the total of the other hands, each
  other player scores minus their own; the game ends after ``rounds`` rounds.
- international (001 国際ルール): the winner scores the total of the other
  hands, the others 0; the game ends when a total reaches ``target``.
- doubling (001 local 9): each losing hand counts (its UNO calls + 1) times;
  the winner receives the multiplied totals (the project's reading).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..rulings import Ruling
from .plays import hand_points

if TYPE_CHECKING:  # pragma: no cover
    from .engine import UnoGame


def round_deltas(hands: dict[int, int], multipliers: dict[int, int], winner: int,
                 n: int,
                 japan: bool) -> list[int]:
    """Score deltas per player from hand points (losers only) and multipliers."""
    deltas = [0] * n
    for p, points in hands.items():
        value = points * multipliers.get(p, 1)
        deltas[winner] += value
        if japan:
            deltas[p] -= value
    return deltas


class ScoringMixin:
    """``maybe_score``, ``finish_round``, ``abandon_round``."""

    def maybe_score(self: "UnoGame", index: int) -> list[Ruling]:
        """Score the round once every loser has shown their hand and drawn all owed."""
        s = self.s
        losers = [p for p in range(s.n) if p != s.round_winner]
        if all(p in s.revealed and not s.owed[p] for p in losers):
            return self.finish_round(index)
        return []

    def finish_round(self: "UnoGame", index: int, forced: bool = False) -> list[Ruling]:
        """Write the round's result, update scores, and end the game if it is over."""
        s, o = self.s, self.options
        winner = s.round_winner
        assert winner is not None
        losers = [p for p in range(s.n) if p != winner]
        hands = {p: hand_points(s.revealed.get(p, [])) for p in losers}
        mult = {p: (s.uno_calls[p] + 1 if o.doubling else 1) for p in losers}
        deltas = round_deltas(hands, mult, winner, s.n, o.scoring == "japan")
        for p, d in enumerate(deltas):
            s.scores[p] += d
        record: dict[str, Any] = {
            "round": s.round, "winner": self.nm(winner), "reason": "out",
            "deltas": dict(zip(self.players, deltas)),
            "hands": {self.nm(p): [c.label for c in s.revealed.get(p, [])]
                      for p in losers},
        }
        if o.doubling:
            record["multipliers"] = {self.nm(p): m for p, m in mult.items()}
        s.rounds.append(record)
        s.rounds_won += 1
        scores = dict(zip(self.players, s.scores))
        totals = ", ".join(f"{n} {v}" for n, v in scores.items())
        missing = [self.nm(p) for p in losers if p not in s.revealed]
        miss = (f" ({', '.join(missing)} never showed a hand, which counts 0)"
                if missing else "")
        doubled = " after doubling by UNO calls" if o.doubling else ""
        out = [self.ruling(index, "round-end", "scoring",
                           f"{self.nm(winner)} wins round {s.round} and scores "
                           f"{deltas[winner]}{doubled}{miss}; totals: {totals}.",
                           scores=scores, round=s.round, deltas=record["deltas"])]
        s.dealer = winner
        s.phase = "setup"
        s.owed = [0] * s.n
        if o.scoring == "japan":
            played = s.rounds_won
            done = played >= o.rounds
            why = f"after {played} round(s)"
        else:
            done = max(s.scores) >= o.target
            why = f"because a total reached {o.target}"
        if done:
            out.append(self.end_game(index, why))
        del forced
        return out

    def end_game(self: "UnoGame", index: int, why: str) -> Ruling:
        s = self.s
        s.phase = "over"
        best = max(s.scores)
        top = [p for p in range(s.n) if s.scores[p] == best]
        ranking = sorted(range(s.n), key=lambda p: -s.scores[p])
        scores = dict(zip(self.players, s.scores))
        if len(top) == 1:
            s.winner = top[0]
            head = f"{self.nm(top[0])} wins with {best} points"
        else:
            s.winner = None
            head = (
                f"{' and '.join(self.nm(p) for p in top)} tie for first with {best} "
                "points")
        return self.ruling(index, "game-end", "game-end",
                           f"The game ends {why}: {head}.", scores=scores,
                           ranking=[self.nm(p) for p in ranking])

    def abandon_round(self: "UnoGame", index: int) -> list[Ruling]:
        """A new ``start`` arrived while a round was still being played."""
        s = self.s
        s.rounds.append({"round": s.round, "winner": None, "reason": "abandoned",
                         "deltas": {n: 0 for n in self.players}, "hands": {}})
        s.phase = "setup"
        return [self.ruling(index, "info", "round-end",
                            f"Round {s.round} had no winner when a new first card was "
                            "turned, so it is abandoned without scores.")]
