"""The frame the page shows: zones, cards (red when a hand touches them), arm
tips and the events of the frame, drawn over the working image."""

from __future__ import annotations

from typing import Any, Sequence

import cv2
import numpy as np

from .detections import Detections
from .geometry import TableGeometry
from .hands import Reach


def draw_overlay(
    image: np.ndarray,
    dets: Detections,
    events: list[dict[str, Any]],
    geo: TableGeometry,
    game: str,
    reaches: Sequence[Reach] = (),
) -> np.ndarray:
    """A copy of ``image`` with the game's zones, ``dets``, ``reaches`` and
    ``events`` drawn on it."""
    out = image.copy()
    shown = {
        "uno": ("discard", "draw"),
        "junocos": ("trick",),
        "narabe-runo": ("field",),
        "overflow": (
            "box",
            "limit-red",
            "limit-yellow",
            "limit-green",
            "limit-blue",
        ),
    }.get(game, ())
    for name in shown:
        if name in geo.zones:
            poly = geo.to_image(geo.zones[name].polygon).astype(np.int32)
            cv2.polylines(out, [poly], True, (255, 200, 0), 1, cv2.LINE_AA)
    touched = dets.data.get("touched", np.zeros(len(dets), bool))
    for i, (label, conf, box) in enumerate(dets):
        x0, y0, x1, y1 = (int(v) for v in box)
        colour = (0, 0, 255) if touched[i] else (0, 220, 0)
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, 1)
        cv2.putText(
            out,
            label,
            (x0, max(10, y0 - 3)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.4,
            colour,
            1,
            cv2.LINE_AA,
        )
    for reach in reaches:
        tip = geo.to_image(np.array([reach.tip]))[0].astype(int)
        cv2.circle(out, (int(tip[0]), int(tip[1])), 6, (0, 0, 255), 2)
    for k, event in enumerate(events):
        text = (
            event["type"]
            + " "
            + " ".join(event.get("cards", [event.get("card", "")]))
        )
        cv2.putText(
            out,
            text.strip(),
            (8, 20 + 18 * k),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.55,
            (0, 255, 255),
            2,
            cv2.LINE_AA,
        )
    return out
