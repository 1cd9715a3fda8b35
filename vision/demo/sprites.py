"""Card faces, the card back and the table top for the demo renderer.

Card faces come from the synthetic card renderer ``datasets.cards.render_card``
(the detector's training data uses it too) when that module is installed; a
plain drawing of the same layout (colour, white oval, value) stands in
otherwise, so the demo can always be rebuilt.
"""

from __future__ import annotations

import numpy as np
import cv2

from referee.cards import Card

from ..markers import marker_image

PX_MM = 2.0  # sprite resolution
CARD_PX = (int(56 * PX_MM), int(87 * PX_MM))
BGR = {
    "red": (40, 40, 215),
    "yellow": (30, 200, 240),
    "green": (60, 160, 40),
    "blue": (200, 110, 20),
    None: (25, 25, 25),
}
SYMBOL = {
    "skip": "S",
    "reverse": "R",
    "draw2": "+2",
    "wild": "W",
    "wild-draw4": "+4",
    "wild-shuffle": "WS",
    "wild-custom": "WC",
}


def _rounded_mask(w: int, h: int, r: int) -> np.ndarray:
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (r, 0), (w - r - 1, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - r - 1), 255, -1)
    for cx, cy in ((r, r), (w - r - 1, r), (r, h - r - 1), (w - r - 1, h - r - 1)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


def _from_pil(image) -> np.ndarray:
    rgba = np.asarray(image.convert("RGBA"))
    bgra = rgba[:, :, [2, 1, 0, 3]].copy()
    if bgra.shape[:2] != (CARD_PX[1], CARD_PX[0]):
        bgra = cv2.resize(bgra, CARD_PX, interpolation=cv2.INTER_AREA)
    return bgra


def card_sprite(label: str) -> np.ndarray:
    """A BGRA image of a card face, ``CARD_PX`` in size."""
    try:
        from datasets.cards import render_card  # type: ignore[import-not-found]

        return _from_pil(render_card(label, design="modern", height=CARD_PX[1]))
    except Exception:  # the synthetic renderer is optional here
        return _drawn_face(label)


def _drawn_face(label: str) -> np.ndarray:
    card = Card.from_label(label)
    w, h = CARD_PX
    img = np.full((h, w, 3), 255, np.uint8)
    cv2.rectangle(img, (7, 7), (w - 8, h - 8), BGR[card.color], -1)
    oval = np.zeros((h, w), np.uint8)
    cv2.ellipse(
        oval, (w // 2, h // 2), (w // 2 - 12, h // 3), -30, 0, 360, 255, -1, cv2.LINE_AA
    )
    img[oval > 0] = (255, 255, 255)
    text = SYMBOL.get(card.value, card.value)
    colour = BGR[card.color] if card.color else (30, 30, 30)
    size = 1.6 if len(text) == 1 else 1.1
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, size, 4)
    cv2.putText(
        img,
        text,
        ((w - tw) // 2, (h + th) // 2),
        cv2.FONT_HERSHEY_DUPLEX,
        size,
        colour,
        4,
        cv2.LINE_AA,
    )
    cv2.putText(
        img,
        text,
        (12, 30),
        cv2.FONT_HERSHEY_DUPLEX,
        0.6,
        (255, 255, 255),
        2,
        cv2.LINE_AA,
    )
    if card.color is None:
        for k, c in enumerate(("red", "yellow", "green", "blue")):
            cv2.ellipse(
                img, (w // 2, h // 2), (18, 18), 0, 90 * k, 90 * (k + 1), BGR[c], -1
            )
    return np.dstack([img, _rounded_mask(w, h, 8)])


def card_back_sprite() -> np.ndarray:
    """A BGRA image of the card back."""
    try:
        from datasets.cards import card_back  # type: ignore[import-not-found]

        return _from_pil(card_back(height=CARD_PX[1]))
    except Exception:
        w, h = CARD_PX
        img = np.full((h, w, 3), 20, np.uint8)
        cv2.ellipse(
            img,
            (w // 2, h // 2),
            (w // 2 - 10, h // 3),
            -30,
            0,
            360,
            (30, 30, 200),
            -1,
            cv2.LINE_AA,
        )
        cv2.putText(
            img,
            "UNO",
            (w // 2 - 30, h // 2 + 10),
            cv2.FONT_HERSHEY_DUPLEX,
            1.0,
            (40, 220, 240),
            3,
            cv2.LINE_AA,
        )
        return np.dstack([img, _rounded_mask(w, h, 8)])


def table_background(
    H: np.ndarray,
    frame: tuple[int, int],
    area=(560.0, 420.0),
    margin: float = 90.0,
    marker_mm: float = 48.0,
) -> np.ndarray:
    """The empty table with the four corner markers, as the camera sees it.

    Args:
        H: table millimetres -> image pixels.
        frame: image width, height.
        area: play area (the markers' centres are its corners).
        margin: table cloth drawn around the play area, millimetres.
        marker_mm: printed marker side.
    """
    rng = np.random.default_rng(5)
    k = 2  # canvas pixels per millimetre
    w, h = int(k * (area[0] + 2 * margin)), int(k * (area[1] + 2 * margin))
    cloth = np.zeros((h, w, 3), np.float32)
    cloth[:] = (70, 110, 45)
    noise = cv2.GaussianBlur(rng.normal(0, 14, (h, w)).astype(np.float32), (0, 0), 3)
    cloth += noise[:, :, None] * np.array([0.6, 1.0, 0.5], np.float32)
    cloth = np.clip(cloth, 0, 255).astype(np.uint8)
    side = int(k * marker_mm)
    quiet = 14 * k
    for i, (x, y) in enumerate(((0, 0), (area[0], 0), area, (0, area[1]))):
        cx, cy = int(k * (x + margin)), int(k * (y + margin))
        x0, y0 = cx - side // 2, cy - side // 2
        cv2.rectangle(
            cloth,
            (x0 - quiet, y0 - quiet),
            (x0 + side + quiet, y0 + side + quiet),
            (245, 245, 245),
            -1,
        )
        cloth[y0 : y0 + side, x0 : x0 + side] = marker_image(i, side)[:, :, None]
    shift = np.array([[1 / k, 0, -margin], [0, 1 / k, -margin], [0, 0, 1]], np.float64)
    out = cv2.warpPerspective(
        cloth,
        H @ shift,
        frame,
        flags=cv2.INTER_AREA,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(40, 55, 75),
    )
    return out
