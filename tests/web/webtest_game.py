"""A small fake game for the page's tests, and the header that starts it.

The fake game (``webtest``) is a tiny UNO-like game written for these tests so
that the page can be tested without depending on any real engine's rulings:
colour/value matching, turns, draws, UNO calls and catches, round ends with
japan or international scoring, and one secret (``box``) that its public view
hides, as overflow hides the box counts.
"""

from __future__ import annotations

from typing import Any

from referee.game import Game, GameError
from referee.rulings import Ruling


class WebTestGame(Game):
    """A fake game for the page's tests (registered by a fixture, see conftest)."""

    name = "webtest"

    @classmethod
    def presets(cls) -> dict[str, Any]:
        return {"webtest": None, "webtest-plus": None}

    def __init__(self, header):
        super().__init__(header)
        self.size = header.hand_size or 3
        self.options = dict(header.options)
        self.hands = {p: self.size for p in self.players}
        self.scores = {p: 0 for p in self.players}
        self.rounds: list[dict] = []
        self.top: str | None = None
        self.color: str | None = None
        self.turn_i = 0
        self.uno: set[str] = set()
        self.box = 0

    def _r(self, event, kind, rule, text, **kw) -> list[Ruling]:
        return [Ruling(event.index, kind, f"webtest.{rule}", text, **kw)]

    @property
    def turn(self) -> str:
        return self.players[self.turn_i % len(self.players)]

    def _advance(self) -> None:
        self.turn_i = (self.turn_i + 1) % len(self.players)

    def apply(self, event):
        kind = event.type
        player = event.player or self.turn
        if player not in self.players:
            raise GameError(f"{player!r} is not playing")
        if kind == "start":
            card = event.get("card")
            if not isinstance(card, str) or "-" not in card:
                raise GameError("a start needs a card like red-7")
            self.top, self.color = card, card.split("-")[0]
            self.hands = {p: self.size for p in self.players}
            self.uno.clear()
            self.turn_i = len(self.rounds) % len(
                self.players
            )  # the first player rotates
            return self._r(event, "ok", "start", f"The round starts on {card}.")
        if kind == "play":
            cards = event.get("cards")
            if not isinstance(cards, list) or not cards:
                raise GameError("a play needs cards")
            card = cards[0]
            color, _, value = card.partition("-")
            if player != self.turn:
                return self._r(
                    event,
                    "illegal",
                    "turn",
                    f"It is {self.turn}'s turn, not {player}'s: {player} takes "
                    f"{card} back.",
                    player=player,
                )
            top_color, _, top_value = (self.top or "-").partition("-")
            if self.top and color != self.color and value != top_value:
                return self._r(
                    event,
                    "illegal",
                    "match",
                    f"{card} matches neither {self.color} nor {top_value}: "
                    f"{player} takes it back and draws 1.",
                    player=player,
                    draw=1,
                )
            self.top, self.color = card, event.get("color") or color
            self.hands[player] -= 1
            self.box += 1
            if self.hands[player] == 0:
                return self._round_end(event, player)
            self._advance()
            return self._r(event, "ok", "play", f"{player} played {card}.")
        if kind == "draw":
            count = event.get("count", 1)
            self.hands[player] += count
            self.uno.discard(player)
            return self._r(event, "ok", "draw", f"{player} drew {count}.")
        if kind == "pass":
            self._advance()
            return self._r(event, "ok", "pass", f"{player} passed.")
        if kind == "uno":
            self.uno.add(player)
            return self._r(event, "ok", "uno", f"{player} called UNO.")
        if kind == "catch":
            target = event.get("target")
            if self.hands.get(target) == 1 and target not in self.uno:
                self.hands[target] += 2
                return self._r(
                    event,
                    "penalty",
                    "uno-call",
                    f"{target} did not call UNO and was caught by {player}: "
                    f"{target} draws 2.",
                    player=target,
                    draw=2,
                )
            return self._r(event, "info", "uno-call", f"{target} owes no UNO call.")
        if kind in ("challenge", "reveal"):
            return self._r(event, "info", kind, f"{player}: {kind} noted.")
        raise GameError(f"unknown event type {kind!r}")

    def _round_end(self, event, winner):
        japan = self.options.get("scoring", "japan") == "japan"
        deltas = {
            p: (-5 * n if japan else 0) for p, n in self.hands.items() if p != winner
        }
        deltas[winner] = 5 * sum(n for p, n in self.hands.items() if p != winner)
        for p, d in deltas.items():
            self.scores[p] += d
        self.rounds.append(
            {"round": len(self.rounds) + 1, "winner": winner, "deltas": deltas}
        )
        text = f"{winner} went out and scores {deltas[winner]}."
        return self._r(event, "round-end", "score", text, scores=dict(self.scores))

    @property
    def over(self) -> bool:
        japan = self.options.get("scoring", "japan") == "japan"
        if japan:
            return len(self.rounds) >= self.options.get("rounds", 2)
        return max(self.scores.values()) >= self.options.get("target", 500)

    def state(self):
        return {
            "game": "webtest",
            "rules": self.header.rules,
            "players": list(self.players),
            "turn": self.turn,
            "direction": 1,
            "top": self.top,
            "color": self.color,
            "pending_draw": 0,
            "hand_counts": dict(self.hands),
            "uno": sorted(self.uno),
            "catchable": [
                p for p, n in self.hands.items() if n == 1 and p not in self.uno
            ],
            "scores": dict(self.scores),
            "rounds": list(self.rounds),
            "over": self.over,
            "winner": None,
            "box": self.box,
        }

    def public_view(self):
        view = self.state()
        del view["box"]
        return view


PLAYERS = ["あいこ", "<b>Ben</b>", "Chie"]


def header(**options: Any) -> dict[str, Any]:
    """A webtest header with the test players (one of them is markup, one Japanese)."""
    return {
        "type": "game",
        "game": "webtest",
        "rules": "webtest",
        "players": PLAYERS,
        "hand_size": 2,
        "options": options or {"scoring": "japan", "rounds": 2},
    }
