"""Helpers of the uno scenario tests: replay a short table log and look up rulings.

Seats A B C D clockwise, dealer D unless a test says otherwise, so A plays
first; lines count from the header (line 0), the first event is line 1.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest


@dataclass
class Res:
    """Rulings (as dicts) and the final state of a replayed scenario."""

    rulings: list[dict[str, Any]]
    state: dict[str, Any]
    game: Any

    def at(self, line: int) -> list[dict[str, Any]]:
        return [r for r in self.rulings if r["event"] == line]

    def one(self, line: int, rule: str | None = None) -> dict[str, Any]:
        found = [r for r in self.at(line) if rule is None or r["rule"] == rule]
        assert len(found) == 1, (
            f"line {line}: expected one {rule or 'ruling'}, got {found}")
        return found[0]

    def kinds(self, line: int) -> list[str]:
        return [r["ruling"] for r in self.at(line)]

    def last(self) -> dict[str, Any]:
        return self.rulings[-1]

    def with_rule(self, rule: str) -> list[dict[str, Any]]:
        return [r for r in self.rulings if r["rule"] == rule]


def header(players=("A", "B", "C", "D"), dealer: str | None = "D",
           rules: str = "official",
           options: dict | None = None, **extra: Any) -> dict[str, Any]:
    head = {"type": "game", "game": "uno", "rules": rules, "players": list(players),
            "options": options or {}, **extra}
    if dealer is not None:
        head["dealer"] = dealer
    return head


def run(events: list[dict[str, Any]], **kw: Any) -> Res:
    """Replay header(**kw) + events."""
    from referee.game import replay

    lines = [json.dumps(header(**kw))] + [json.dumps(e) for e in events]
    result = replay(lines)
    return Res([r.to_dict() for r in result.rulings], result.state(), result.game)


def start(card: str = "red-5", **extra: Any) -> dict[str, Any]:
    return {"type": "start", "card": card, **extra}


def play(player: str | None, *cards: str, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "play", "cards": list(cards), **extra}
    if player is not None:
        out["player"] = player
    return out


def draw(player: str | None, count: int = 1, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "draw", "count": count, **extra}
    if player is not None:
        out["player"] = player
    return out


def ev(kind: str, player: str | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": kind, **extra}
    if player is not None:
        out["player"] = player
    return out


def reveal(player: str, *cards: str) -> dict[str, Any]:
    return {"type": "reveal", "player": player, "cards": list(cards)}


def test_helpers_find_rulings():
    res = Res([{"event": 1, "ruling": "ok", "rule": "x.a", "text": "t"},
               {"event": 2, "ruling": "info", "rule": "x.b", "text": "t"}], {}, None)
    assert res.kinds(2) == ["info"] and res.one(1)["rule"] == "x.a"
    with pytest.raises(AssertionError):
        res.one(3)
