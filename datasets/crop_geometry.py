"""Crop geometry: a card's corners in a crop, the detector's box around it, the
cards that cover it and how much of it they hide, and warping a face onto a quad.

Part of the crop renderer (:mod:`datasets.crops` re-exports ``covered_share``).
"""

from __future__ import annotations

import numpy as np

from datasets.scene_layout import _texture


def _card_quad(rng: np.random.Generator, angle: float, height: float) -> np.ndarray:
    """Corners (TL, TR, BR, BL) of a card of ``height`` at ``angle`` around (0, 0)."""
    from datasets.cards import CARD_ASPECT

    w, h = height * CARD_ASPECT, height
    quad = np.array(
        [[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]
    )
    c, s = np.cos(angle), np.sin(angle)
    quad = quad @ np.array([[c, s], [-s, c]])
    return quad + rng.normal(0, 0.04 * height, (4, 2))  # perspective


def _warp_card(
    canvas: np.ndarray,
    label: str,
    design: str,
    variant: int,
    quad: np.ndarray,
    tint: np.ndarray,
) -> None:
    import cv2

    bgr, alpha, up = _texture(label, design, variant, float(np.ptp(quad[:, 1])))
    th, tw = alpha.shape
    src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])
    matrix = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    size = canvas.shape[0]
    a = cv2.warpPerspective(alpha, matrix, (size, size), flags=cv2.INTER_LINEAR)
    face = cv2.warpPerspective(bgr * tint, matrix, (size, size), flags=cv2.INTER_LINEAR)
    canvas[:] = canvas * (1 - a[..., None]) + face * a[..., None]


def _detector_box(
    rng: np.random.Generator, quad: np.ndarray, loose: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The detector's box of a card at ``quad``: its bounds, each side up to
    ``loose`` of the card's extent looser or half that tighter. Returns the
    box's corners and the card's extent."""
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    span = hi - lo
    lo = lo + rng.uniform(-loose, loose / 2, 2) * span
    hi = hi + rng.uniform(-loose / 2, loose, 2) * span
    return lo, hi, span


def _inside_quad(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Which ``points`` (N, 2) lie inside the convex ``quad`` (4, 2), either winding."""
    edge = np.roll(quad, -1, axis=0) - quad
    rel = points[:, None, :] - quad[None, :, :]
    cross = edge[None, :, 0] * rel[..., 1] - edge[None, :, 1] * rel[..., 0]
    return np.all(cross >= 0, axis=1) | np.all(cross <= 0, axis=1)


def _on_card(quad: np.ndarray, fx: np.ndarray, fy: np.ndarray) -> np.ndarray:
    """Points at fractions (``fx`` across, ``fy`` down) of a card's face, in the
    picture (bilinear in the corners TL, TR, BR, BL: near enough for the little
    perspective of :func:`_card_quad`)."""
    fx, fy = fx[:, None], fy[:, None]
    top = quad[0] + (quad[1] - quad[0]) * fx
    bottom = quad[3] + (quad[2] - quad[3]) * fx
    return top + (bottom - top) * fy


#: Points of a card's face whose view makes it readable (as
#: :func:`datasets.scene_layout._visible`): its centre or either corner index.
_READABLE = {
    name: (np.repeat(xs, 3), np.tile(ys, 3))
    for name, xs, ys in (
        ("centre", np.array([0.35, 0.5, 0.65]), np.array([0.38, 0.5, 0.62])),
        ("tl", np.array([0.13, 0.2, 0.27]), np.array([0.08, 0.13, 0.18])),
        ("br", np.array([0.73, 0.8, 0.87]), np.array([0.82, 0.87, 0.92])),
    )
}
_STEPS = np.linspace(0.05, 0.95, 8)
_GRID = (np.repeat(_STEPS, 8), np.tile(_STEPS, 8))  # the whole face


def _covered_layout(
    rng: np.random.Generator, angle: float
) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """The covered card's corners and the cards below and on top of it (back to
    front), as in the scenes' fanned hands (``datasets.scene_layout._layout``: each
    next card turned a little further about a point below the cards) or piles
    (cards turned any way, shifted by about a tenth of a card)."""
    quad = _card_quad(rng, angle, 100.0)
    below: list[np.ndarray] = []
    above: list[np.ndarray] = []
    if rng.random() < 0.6:  # a fanned hand
        spread = rng.uniform(0.12, 0.3) * (1 if rng.random() < 0.5 else -1)
        reach = 35.0
        pivot = -reach * np.array([np.sin(angle), -np.cos(angle)])
        for k in range(1, int(rng.integers(1, 5)) + 1):
            a = angle + k * spread
            centre = pivot + reach * np.array([np.sin(a), -np.cos(a)])
            above.append(_card_quad(rng, a, 100.0) + centre)
        if rng.random() < 0.5:
            a = angle - spread
            centre = pivot + reach * np.array([np.sin(a), -np.cos(a)])
            below.append(_card_quad(rng, a, 100.0) + centre)
    else:  # lower in a pile
        for _ in range(int(rng.integers(1, 4))):
            turn = float(rng.uniform(-np.pi, np.pi))
            above.append(_card_quad(rng, turn, 100.0) + rng.normal(0, 14, 2))
        if rng.random() < 0.5:
            turn = float(rng.uniform(-np.pi, np.pi))
            below.append(_card_quad(rng, turn, 100.0) + rng.normal(0, 14, 2))
    return quad, below, above


def covered_share(quad: np.ndarray, above: list[np.ndarray]) -> tuple[float, bool]:
    """How much of the card at ``quad`` the cards ``above`` hide (0-1), and
    whether it stays readable (its centre or one corner index mostly in view)."""
    def hidden(fx: np.ndarray, fy: np.ndarray) -> np.ndarray:
        pts = _on_card(quad, fx, fy)
        out = np.zeros(len(pts), bool)
        for q in above:
            out |= _inside_quad(pts, q)
        return out

    share = float(hidden(*_GRID).mean())
    readable = any((~hidden(*xy)).mean() >= 0.75 for xy in _READABLE.values())
    return share, readable

