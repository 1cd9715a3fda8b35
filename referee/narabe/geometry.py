"""Table-grid geometry for narabe-runo: cells, adjacency, the score-card boundary.

A cell is one card's footprint on the table, in card units, the start card at
``(0, 0)`` unless placed elsewhere. Cards are treated as unit squares centred on
their cell; the boundary is the convex hull of the score cards' squares (the
outer score cards "joined by straight lines", 003 §場外禁止ルール). All
arithmetic is on doubled integer coordinates, so it is exact.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ..text import Text, define

define({
    "narabe.bad-at": {
        "en": "'at' must be [x, y] in card units, got {raw}",
        "ja": "「at」はカード単位の[x, y]で指定します（{raw}は使えません）",
    },
})

Cell = tuple[int, int]
Point = tuple[int, int]


def cell_of(raw: Any) -> Cell:
    """The grid cell of an ``"at": [x, y]`` value (numbers, rounded half up).

    Raises:
        ValueError (GameError): ``raw`` is not a pair of finite numbers.
    """
    from ..game import GameError

    if (
        not isinstance(raw, (list, tuple))
        or len(raw) != 2
        or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            for v in raw
        )
    ):
        raise GameError(Text("narabe.bad-at", raw=repr(raw)))
    return (math.floor(raw[0] + 0.5), math.floor(raw[1] + 0.5))


def adjacent(a: Cell, b: Cell) -> bool:
    """True when the two cells share a side (above, below, left or right)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def _corners(cell: Cell) -> list[Point]:
    x, y = 2 * cell[0], 2 * cell[1]
    return [(x - 1, y - 1), (x + 1, y - 1), (x + 1, y + 1), (x - 1, y + 1)]


def _cross(o: Point, a: Point, b: Point) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def hull(points: Iterable[Point]) -> list[Point]:
    """Convex hull, counter-clockwise (Andrew's monotone chain)."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts
    lower: list[Point] = []
    upper: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and _cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and _cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def outside_boundary(cell: Cell, spots: Iterable[Cell]) -> bool:
    """True when the card on ``cell`` lies wholly outside the score cards' hull.

    Touching the boundary only along an edge or a corner counts as outside
    (no part of the card is inside). No score cards: nothing is outside.
    """
    poly = hull(c for s in spots for c in _corners(s))
    if not poly:
        return False
    square = _corners(cell)
    axes = [(1, 0), (0, 1)]
    for i, a in enumerate(poly):
        b = poly[(i + 1) % len(poly)]
        axes.append((b[1] - a[1], a[0] - b[0]))
    for ax in axes:
        p1 = [ax[0] * x + ax[1] * y for x, y in poly]
        p2 = [ax[0] * x + ax[1] * y for x, y in square]
        if max(p1) <= min(p2) or max(p2) <= min(p1):
            return True
    return False
