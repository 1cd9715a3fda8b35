"""Zones: named polygons on the table plane (millimetres), and the standard layout.

- ``discard`` and ``draw``: the two piles of classic UNO;
- ``trick``: where junocos tricks are played;
- ``field``: the narabe-runo play field;
- ``box`` and ``limit-red`` / ``limit-yellow`` / ``limit-green`` / ``limit-blue``:
  overflow's box and its four limit cards on the four sides of the box;
- ``seat:NAME``: each player's area, a wedge from the centre to the table edge
  in seating order (seat 0 nearest the camera, then clockwise as seen from
  above).

:mod:`vision.geometry` (the homography onto this plane) builds on it and
re-exports its names.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

CARD_MM = (56.0, 87.0)  # width, height of a standard UNO card
TABLE_MM = (560.0, 420.0)  # default play area between the markers (about A2)


class CalibrationError(ValueError):
    """Calibration input that cannot give a homography (and why)."""



@dataclass
class Zone:
    """A named polygon on the table plane (millimetres)."""

    name: str
    polygon: np.ndarray

    def __post_init__(self) -> None:
        self.polygon = np.asarray(self.polygon, dtype=np.float32).reshape(-1, 2)
        if len(self.polygon) < 3:
            raise CalibrationError(f"zone {self.name!r} needs at least 3 points")

    def contains(self, points: np.ndarray) -> np.ndarray:
        """Boolean mask: which of the (N, 2) table points lie inside (edge included)."""
        pts = np.asarray(points, dtype=np.float32).reshape(-1, 2)
        poly = self.polygon.reshape(-1, 1, 2)
        return np.array(
            [
                cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0
                for x, y in pts
            ],
            dtype=bool,
        )

    @property
    def centre(self) -> np.ndarray:
        return self.polygon.mean(axis=0)


def _rect(cx: float, cy: float, w: float, h: float) -> list[tuple[float, float]]:
    return [
        (cx - w / 2, cy - h / 2),
        (cx + w / 2, cy - h / 2),
        (cx + w / 2, cy + h / 2),
        (cx - w / 2, cy + h / 2),
    ]


def seat_angles(n: int) -> list[float]:
    """Angle (radians, image convention with y down) of each seat's direction."""
    return [math.pi / 2 + i * 2 * math.pi / n for i in range(n)]


def default_zones(
    players: Sequence[str],
    size: tuple[float, float] = TABLE_MM,
    card: tuple[float, float] = CARD_MM,
) -> dict[str, Zone]:
    """The standard layout of every game's zones on a ``size`` play area."""
    w, h = size
    cw, ch = card
    cx, cy = w / 2, h / 2
    zones = {
        "discard": Zone("discard", _rect(cx + 0.9 * cw, cy, 2.6 * cw, 1.9 * ch)),
        "draw": Zone("draw", _rect(cx - 1.4 * cw, cy, 2.0 * cw, 1.6 * ch)),
        "trick": Zone("trick", _rect(cx, cy, 0.55 * w, 0.45 * h)),
        "field": Zone("field", _rect(cx, cy, 0.8 * w, 0.7 * h)),
        "box": Zone("box", _rect(cx, cy, 2.2 * cw, 1.6 * ch)),
        "limit-red": Zone("limit-red", _rect(cx, cy - 1.35 * ch, 1.6 * ch, 1.1 * ch)),
        "limit-yellow": Zone(
            "limit-yellow", _rect(cx + 1.1 * cw + 0.65 * ch, cy, 1.3 * ch, 1.6 * ch)
        ),
        "limit-green": Zone(
            "limit-green", _rect(cx, cy + 1.35 * ch, 1.6 * ch, 1.1 * ch)
        ),
        "limit-blue": Zone(
            "limit-blue", _rect(cx - 1.1 * cw - 0.65 * ch, cy, 1.3 * ch, 1.6 * ch)
        ),
    }
    n = len(players)
    reach = 2 * (w + h)
    table = np.array(_rect(cx, cy, w, h), dtype=np.float32)
    for i, (name, angle) in enumerate(zip(players, seat_angles(n))):
        half = math.pi / n if n > 1 else math.pi
        wedge = [(cx, cy)]
        for k in range(9):  # an arc of points far outside the table
            a = angle - half + k * (2 * half) / 8
            wedge.append((cx + reach * math.cos(a), cy + reach * math.sin(a)))
        wedge_arr = np.array(wedge, dtype=np.float32)
        if n > 1:
            area, poly = cv2.intersectConvexConvex(table, wedge_arr)
            poly = poly.reshape(-1, 2) if poly is not None else table
        else:
            poly = table
        zones[f"seat:{name}"] = Zone(f"seat:{name}", poly)
    return zones


