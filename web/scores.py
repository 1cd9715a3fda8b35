"""The scoreboard: per-round history, running totals and an inline SVG chart.

Works on any game's state (``players``, ``scores``, ``rounds`` with
``{"round", "winner", "deltas"}``) and the header's scoring options. The chart
is plain SVG geometry computed here; names reach the page only through Jinja's
autoescaping.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

PALETTE = (
    "#d62828",
    "#1d70b8",
    "#2a9d3f",
    "#e0a100",
    "#7b3fa0",
    "#e76f51",
    "#264653",
    "#8d6e63",
    "#00897b",
    "#c2185b",
)


@dataclass
class Board:
    """What the scoreboard shows."""

    players: list[str]
    rounds: list[dict[str, Any]]  # round, winner, deltas, totals (running)
    totals: dict[str, int]
    scoring: str  # japan | international | other
    limit: int | None  # rounds (japan) or target (international)
    over: bool = False
    winner: Any = None
    chart: dict[str, Any] = field(default_factory=dict)


def _number(value: Any) -> int:
    return (
        int(value)
        if isinstance(value, (int, float)) and not isinstance(value, bool)
        else 0
    )


def build_board(state: Mapping[str, Any], header: Mapping[str, Any]) -> Board:
    """The scoreboard for ``state`` (a game's ``state()`` or ``public_view()``)."""
    players = [str(p) for p in state.get("players") or header.get("players") or []]
    options = header.get("options") or {}
    scoring = str(
        options.get("scoring") or ("japan" if "rounds" in options else "international")
    )
    limit = options.get("rounds") if scoring == "japan" else options.get("target", 500)
    running = {p: 0 for p in players}
    rounds = []
    kept = state.get("rounds")  # a count, not records, in a tgus-t state
    for i, item in enumerate(kept if isinstance(kept, list) else [], start=1):
        if not isinstance(item, Mapping):
            continue
        deltas = {p: _number((item.get("deltas") or {}).get(p)) for p in players}
        for p in players:
            running[p] += deltas[p]
        rounds.append(
            {
                "round": item.get("round", i),
                "winner": item.get("winner"),
                "deltas": deltas,
                "totals": dict(running),
            }
        )
    scores = state.get("scores") or {}
    totals = {p: _number(scores.get(p, running[p])) for p in players}
    board = Board(
        players,
        rounds,
        totals,
        scoring,
        limit if isinstance(limit, int) else None,
        bool(state.get("over")),
        state.get("winner"),
    )
    board.chart = chart(players, rounds)
    return board


def chart(
    players: list[str],
    rounds: list[dict[str, Any]],
    width: int = 420,
    height: int = 240,
    pad: int = 40,
    label_room: int = 110,
) -> dict[str, Any]:
    """SVG geometry of each player's running total after each round (0 first).

    The chart is drawn in a 420-unit-wide box with 15-unit labels, so that on a
    phone (about 350 px wide) a label is still 12 px or more.
    """
    series = {p: [0] + [r["totals"][p] for r in rounds] for p in players}
    values = [v for vals in series.values() for v in vals] or [0]
    low, high = min(values + [0]), max(values + [0])
    if high == low:
        high = low + 1
    steps = max(len(rounds), 1)
    inner_w, inner_h = width - 2 * pad - label_room, height - 2 * pad

    def x(i: int) -> float:
        return round(pad + inner_w * i / steps, 1)

    def y(v: float) -> float:
        return round(pad + inner_h * (high - v) / (high - low), 1)

    lines = []
    for n, (player, vals) in enumerate(series.items()):
        points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(vals))
        short = player if len(player) <= 12 else player[:11] + "…"
        lines.append(
            {
                "player": player,
                "label": short,
                "color": PALETTE[n % len(PALETTE)],
                "points": points,
                "last": vals[-1],
                "lx": x(len(vals) - 1),
                "ly": y(vals[-1]),
            }
        )
    placed: list[float] = []  # keep the end labels one line (16 units) apart
    for item in sorted(lines, key=lambda item: item["ly"]):
        if placed and item["ly"] < placed[-1] + 16:
            item["ly"] = round(placed[-1] + 16, 1)
        placed.append(item["ly"])
    ticks = [{"x": x(i), "label": str(i)} for i in range(steps + 1)]
    return {
        "width": width,
        "height": height,
        "lines": lines,
        "zero": y(0),
        "left": pad,
        "right": pad + inner_w,
        "top": pad,
        "bottom": height - pad,
        "ticks": ticks,
        "high": high,
        "low": low,
        "y_high": y(high),
        "y_low": y(low),
    }
