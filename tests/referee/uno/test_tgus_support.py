"""Shared helpers of the TGUS scenario tests: run a short table log, look up rulings.

A scenario is a header plus a few events (line 1 onwards, the header is line 0)
and the rulings/state it must give, in the style of STYLE.md ("Tests set up a
position from text and a short move script, then assert").
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]


@dataclass
class Result:
    """Rulings (as dicts) and the final state of a replayed scenario."""

    rulings: list[dict[str, Any]]
    state: dict[str, Any]

    def at(self, line: int) -> list[dict[str, Any]]:
        """Every ruling answering ``line``."""
        return [r for r in self.rulings if r["event"] == line]

    def one(self, line: int, rule: str | None = None) -> dict[str, Any]:
        """The single ruling on ``line`` (with ``rule`` if given); fails otherwise."""
        found = [r for r in self.at(line) if rule is None or r["rule"] == rule]
        assert (
            len(found) == 1
        ), f"line {line}: expected one {rule or 'ruling'}, got {found}"
        return found[0]

    def kinds(self, line: int) -> list[str]:
        return [r["ruling"] for r in self.at(line)]

    def rules(self, line: int) -> list[str]:
        return [r["rule"] for r in self.at(line)]

    def with_rule(self, rule: str) -> list[dict[str, Any]]:
        return [r for r in self.rulings if r["rule"] == rule]


def run(
    rules: str,
    events: list[dict[str, Any]],
    *,
    players=("A", "B", "C", "D"),
    dealer: str = "D",
    hand_size: int | None = 7,
    options: dict | None = None,
    **header: Any,
) -> Result:
    """Replay header + events and return the rulings and the final state."""
    from referee.game import replay

    head = {
        "type": "game",
        "game": "uno",
        "rules": rules,
        "players": list(players),
        "dealer": dealer,
        "options": options or {},
        **header,
    }
    if hand_size is not None:
        head["hand_size"] = hand_size
    lines = [json.dumps(head)] + [json.dumps(e) for e in events]
    result = replay(lines)
    return Result([r.to_dict() for r in result.rulings], result.state())


def play(player: str, *cards: str, **extra: Any) -> dict[str, Any]:
    return {"type": "play", "player": player, "cards": list(cards), **extra}


def draw(player: str, count: int = 1) -> dict[str, Any]:
    return {"type": "draw", "player": player, "count": count}


def ev(kind: str, player: str | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": kind, **extra}
    if player is not None:
        out["player"] = player
    return out


def start(card: str = "red-7") -> dict[str, Any]:
    return {"type": "start", "card": card}


def test_result_lookup_helpers():
    res = Result(
        [
            {"event": 1, "ruling": "ok", "rule": "x.a", "text": "t"},
            {"event": 2, "ruling": "penalty", "rule": "x.b", "text": "t"},
            {"event": 2, "ruling": "info", "rule": "x.c", "text": "t"},
        ],
        {},
    )
    assert res.kinds(2) == ["penalty", "info"]
    assert res.rules(1) == ["x.a"]
    assert res.one(2, "x.c")["ruling"] == "info"
    assert res.with_rule("x.b")[0]["event"] == 2
    with pytest.raises(AssertionError):
        res.one(2)
