"""How large a box on the table plane is, measured in cards lying flat."""

from __future__ import annotations

import numpy as np


def card_scale(w: float, h: float, card: tuple[float, float]) -> float:
    """How much larger than a card lying flat an upright box of ``w`` x ``h`` is.

    A card of sides ``a`` x ``b`` turned by any angle and scaled by ``s`` has
    the box ``w = s(a cos + b sin)``, ``h = s(a sin + b cos)``, so
    ``P = (w + h) / (a + b)`` and ``Q = (h - w) / (b - a)`` give
    ``s = sqrt((P² + Q²) / 2)`` whatever the angle. A card held above the table
    is nearer the camera and measures ``s > 1`` on the table plane.
    """
    a, b = min(card), max(card)
    p = (w + h) / (a + b)
    q = (h - w) / (b - a) if b > a else 0.0
    if abs(q) > p:  # a landscape card: swap the roles of w and h
        q = (w - h) / (b - a)
    return float(np.sqrt((p * p + q * q) / 2))
