"""Where the cards of a scene lie and what of them can be seen.

Part of the scene renderer (:mod:`datasets.scenes` composes): card textures,
layouts (scattered singles, piles, fanned hands, rows, one card held up, one
card near the camera),
warping a card onto the table, markers, fingers, and the visibility test that
decides which cards are labelled.
"""

from __future__ import annotations

import cv2
import numpy as np

from datasets.cards import CARD_ASPECT, card_back, render_card
from datasets.scene_surface import _SKINS

_TEX = 512  # card texture height in pixels (warped down to the scene)


def _texture(
    label: str, design: str, variant: int, height: float
) -> tuple[np.ndarray, np.ndarray, float]:
    """A card face as float BGR and alpha arrays from a pyramid level near ``height``.

    Returns the arrays and the scale from texture-level pixels to full ``_TEX`` pixels.
    """
    level = 0
    while level < 3 and _TEX >> (level + 1) >= 1.5 * height:
        level += 1
    key = (label, design, variant, level)
    if key not in _TEXTURES:
        if label == "back":
            rgba = np.asarray(card_back(_TEX))
        else:
            rgba = np.asarray(render_card(label, design, _TEX, variant))
        for _ in range(level):
            rgba = cv2.pyrDown(rgba)
        bgr = rgba[:, :, 2::-1].astype(np.float32)
        _TEXTURES[key] = (
            np.ascontiguousarray(bgr),
            rgba[:, :, 3].astype(np.float32) / 255,
        )
    bgr, alpha = _TEXTURES[key]
    return bgr, alpha, _TEX / bgr.shape[0]


_TEXTURES: dict[tuple[str, str, int, int], tuple[np.ndarray, np.ndarray]] = {}


def _placement(cx: float, cy: float, height: float, angle: float) -> np.ndarray:
    """Affine (3x3) mapping texture pixels to table pixels."""
    scale = height / _TEX
    tw, th = round(_TEX * CARD_ASPECT), _TEX
    c, s = np.cos(angle) * scale, np.sin(angle) * scale
    return np.array(
        [
            [c, -s, cx - c * tw / 2 + s * th / 2],
            [s, c, cy - s * tw / 2 - c * th / 2],
            [0, 0, 1],
        ],
        dtype=np.float64,
    )


def _layout(
    rng: np.random.Generator, size: int, mode: str
) -> list[tuple[float, float, float, float]]:
    """Card placements (cx, cy, height, angle) in back-to-front order."""

    def height_for(area: float) -> float:
        return float(np.sqrt(area * size * size / CARD_ASPECT))

    out = []
    if mode == "closeup":  # one card filling much of the frame, maybe cut by an edge
        h = height_for(rng.uniform(0.3, 0.85))
        out.append(
            (
                size / 2 + rng.normal(0, 0.12) * size,
                size / 2 + rng.normal(0, 0.12) * size,
                h,
                rng.normal(0, 0.2) if rng.random() < 0.7 else rng.uniform(-np.pi, np.pi),
            )
        )
    elif mode == "near":  # one card near the camera: held up, or a close photo
        h = height_for(float(np.exp(rng.uniform(np.log(0.03), np.log(0.95)))))
        turn = rng.random()
        if turn < 0.6:
            angle = rng.normal(0, 0.25)
        elif turn < 0.8:  # sideways
            angle = rng.choice([-1.0, 1.0]) * np.pi / 2 + rng.normal(0, 0.2)
        else:
            angle = rng.uniform(-np.pi, np.pi)
        spread = 0.3 if h < size * 0.5 else 0.12
        out.append(
            (
                size / 2 + rng.uniform(-spread, spread) * size,
                size / 2 + rng.uniform(-spread, spread) * size,
                h,
                float(angle),
            )
        )
    elif mode == "held":
        h = height_for(rng.uniform(0.12, 0.4))
        out.append(
            (
                rng.uniform(0.3, 0.7) * size,
                rng.uniform(0.3, 0.7) * size,
                h,
                rng.normal(0, 0.15),
            )
        )
    elif mode == "pile":
        h = height_for(float(np.exp(rng.uniform(np.log(0.04), np.log(0.3)))))
        cx, cy = rng.uniform(0.25, 0.75, 2) * size
        for _ in range(int(rng.integers(2, 7))):
            out.append(
                (
                    cx + rng.normal(0, h * 0.12),
                    cy + rng.normal(0, h * 0.12),
                    h,
                    rng.uniform(-np.pi, np.pi),
                )
            )
    elif mode == "hand":
        n = int(rng.integers(3, 10))
        h = height_for(float(np.exp(rng.uniform(np.log(0.04), np.log(0.2)))))
        px, py = rng.uniform(0.3, 0.7, 2) * size
        base = rng.uniform(-np.pi, np.pi)
        spread = rng.uniform(0.12, 0.3)
        for i in range(n):
            a = base + (i - (n - 1) / 2) * spread
            out.append((px + np.sin(a) * h * 0.35, py - np.cos(a) * h * 0.35, h, a))
    elif mode == "laid":  # cards laid side by side in rows: a hand shown, a path
        h = height_for(float(np.exp(rng.uniform(np.log(0.02), np.log(0.1)))))
        w = h * CARD_ASPECT
        rows, cols = int(rng.integers(1, 4)), int(rng.integers(2, 8))
        # neighbours touch, overlap a little or leave a gap, along and across
        gap_x = w * rng.uniform(-0.06, 0.15)
        gap_y = h * rng.uniform(-0.04, 0.15)
        angle = rng.normal(0, 0.12) if rng.random() < 0.6 else rng.uniform(-np.pi, np.pi)
        c, s = np.cos(angle), np.sin(angle)
        ox, oy = rng.uniform(0.3, 0.7, 2) * size
        for r in range(rows):
            for k in range(cols):
                if rng.random() < 0.15:
                    continue  # a hole in the row
                u = (k - (cols - 1) / 2) * (w + gap_x) + rng.normal(0, w * 0.02)
                v = (r - (rows - 1) / 2) * (h + gap_y) + rng.normal(0, h * 0.02)
                out.append(
                    (ox + c * u - s * v, oy + s * u + c * v, h,
                     angle + rng.normal(0, 0.03))
                )
    else:  # scatter
        for _ in range(int(rng.integers(2, 10))):
            area = float(np.exp(rng.uniform(np.log(0.03), np.log(0.12))))
            out.append(
                (
                    rng.uniform(0.1, 0.9) * size,
                    rng.uniform(0.1, 0.9) * size,
                    height_for(area),
                    rng.uniform(-np.pi, np.pi),
                )
            )
    return out


def _tilt(rng: np.random.Generator, matrix: np.ndarray, most: float) -> np.ndarray:
    """``matrix`` (texture to frame) with the card tilted out of the picture's
    plane: one side of the card up to ``most`` shorter than the other, a
    perspective warp about the card, as a card held up or photographed at a
    slant shows itself."""
    tw, th = _TEX * CARD_ASPECT, _TEX
    unit = np.float32([[[0, 0], [tw, 0], [tw, th], [0, th]]])
    quad = cv2.perspectiveTransform(unit, matrix)[0].astype(np.float64)
    side = int(rng.integers(4))
    squeeze = float(rng.uniform(0.0, most))
    a, b = quad[side].copy(), quad[(side + 1) % 4].copy()
    mid = (a + b) / 2
    dst = quad.copy()
    dst[side], dst[(side + 1) % 4] = a + (mid - a) * squeeze, b + (mid - b) * squeeze
    # the near side looks larger: the opposite side grows by part of the squeeze
    c, d = quad[(side + 2) % 4].copy(), quad[(side + 3) % 4].copy()
    mid2 = (c + d) / 2
    grow = squeeze * float(rng.uniform(0.0, 0.5))
    dst[(side + 2) % 4], dst[(side + 3) % 4] = c + (c - mid2) * grow, d + (d - mid2) * grow
    persp = cv2.getPerspectiveTransform(quad.astype(np.float32), dst.astype(np.float32))
    return persp.astype(np.float64) @ matrix


def warm_textures(workers: int = 1) -> None:
    """Fill the texture cache with every face (and the back) of both designs and
    the scenes' two prints at every pyramid level, ``workers`` processes
    drawing them side by side; processes forked afterwards share the cache."""
    from datasets.cards import DESIGNS
    from referee.cards import CLASSES

    keys = [(label, design, variant) for label in ["back", *CLASSES]
            for design in DESIGNS for variant in (0, 1)]
    if workers > 1:
        import multiprocessing as mp

        with mp.get_context("fork").Pool(workers) as pool:
            for part in pool.imap_unordered(_faces, keys, chunksize=4):
                _TEXTURES.update(part)
    else:
        for key in keys:
            _TEXTURES.update(_faces(key))


def _faces(key: tuple[str, str, int]) -> dict:
    """The texture cache's entries of one face at every pyramid level."""
    label, design, variant = key
    heights = [_TEX / (1 << level) / 1.5 * 0.8 for level in range(4)]
    out = {}
    for level, height in enumerate(heights):
        _texture(label, design, variant, height)
        out[(label, design, variant, level)] = _TEXTURES[(label, design, variant, level)]
    return out


def _paste(
    canvas: np.ndarray,
    owner: np.ndarray,
    bgr: np.ndarray,
    alpha: np.ndarray,
    matrix: np.ndarray,
    ident: int,
    shadow: float,
) -> None:
    size = canvas.shape[0]
    a = cv2.warpPerspective(alpha, matrix, (size, size), flags=cv2.INTER_LINEAR)
    if shadow > 0:
        sh = cv2.GaussianBlur(
            np.roll(a, (int(shadow), int(shadow)), (0, 1)), (0, 0), max(1.0, shadow)
        )
        canvas *= (1 - 0.45 * sh)[..., None]
    face = cv2.warpPerspective(bgr, matrix, (size, size), flags=cv2.INTER_LINEAR)
    canvas[:] = canvas * (1 - a[..., None]) + face * a[..., None]
    owner[a > 0.5] = ident


def _marker_texture(rng: np.random.Generator, px: int = 96) -> np.ndarray:
    """A printed ArUco marker (``DICT_4X4_50``, any id) on its white square, as
    the table's corner markers are cut out (BGR float, ``px`` square)."""
    inner = int(px * rng.uniform(0.6, 0.8))
    code = cv2.aruco.generateImageMarker(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
        int(rng.integers(50)),
        inner,
    )
    paper = np.full((px, px), rng.uniform(215, 255), np.float32)
    at = (px - inner) // 2
    paper[at : at + inner, at : at + inner] = code.astype(np.float32) * paper[0, 0] / 255
    if rng.random() < 0.5:  # the cut line printed around it
        cv2.rectangle(paper, (0, 0), (px - 1, px - 1), float(rng.uniform(60, 160)), 1)
    return np.repeat(paper[..., None], 3, axis=2)


def _markers(
    rng: np.random.Generator,
    canvas: np.ndarray,
    owner: np.ndarray,
    cam: np.ndarray,
    cards: list[tuple[float, float, float, float]],
) -> None:
    """Paste one to four table markers (not cards: never labelled), most of them
    right beside a card, as hands are laid out next to the corner markers."""
    size = canvas.shape[0]
    ref = cards[0][2] if cards else size * float(rng.uniform(0.15, 0.35))
    px = 96
    for _ in range(int(rng.integers(1, 5))):
        side = ref * CARD_ASPECT * rng.uniform(1.0, 1.5)
        if cards and rng.random() < 0.7:
            cx, cy, h, angle = cards[int(rng.integers(len(cards)))]
            way = rng.uniform(-np.pi, np.pi)
            reach = h / 2 + side / 2 + side * rng.uniform(0.0, 0.15)
            cx, cy = cx + np.cos(way) * reach, cy + np.sin(way) * reach
            angle += rng.normal(0, 0.1)
        else:
            cx, cy = rng.uniform(0.05, 0.95, 2) * size
            angle = rng.uniform(-np.pi, np.pi)
        scale = side / px
        c, s = np.cos(angle) * scale, np.sin(angle) * scale
        place = np.array(
            [
                [c, -s, cx - c * px / 2 + s * px / 2],
                [s, c, cy - s * px / 2 - c * px / 2],
                [0, 0, 1],
            ],
            dtype=np.float64,
        )
        alpha = np.ones((px, px), np.float32)
        _paste(canvas, owner, _marker_texture(rng, px), alpha, cam @ place, -3, 0.0)


def _fingers(
    rng: np.random.Generator, canvas: np.ndarray, owner: np.ndarray, near: np.ndarray
) -> None:
    """Skin-coloured finger shapes over the edge of a card at corners ``near``."""
    size = canvas.shape[0]
    skin = tuple(
        float(v) for v in _SKINS[rng.integers(len(_SKINS))] * rng.uniform(0.75, 1.1)
    )
    centre = near.mean(axis=0)
    edge = near[rng.integers(4)] * 0.5 + near[rng.integers(4)] * 0.5
    direction = edge - centre
    direction /= np.linalg.norm(direction) + 1e-6
    card_h = float(np.linalg.norm(near[0] - near[3]))
    width = max(2, int(card_h * rng.uniform(0.08, 0.14)))
    mask = np.zeros((size, size), np.uint8)
    normal = np.array([-direction[1], direction[0]])
    for k in range(int(rng.integers(1, 5))):
        start = edge + normal * (k - 1.5) * width * 1.9 + direction * card_h * 0.8
        end = (
            edge
            - direction * card_h * rng.uniform(0.05, 0.35)
            + normal * (k - 1.5) * width * 1.9
        )
        cv2.line(
            mask,
            tuple(int(v) for v in start),
            tuple(int(v) for v in end),
            255,
            width * 2,
        )
    m = mask.astype(np.float32)[..., None] / 255
    shade = cv2.GaussianBlur(m, (0, 0), max(1.0, width / 2))
    shade = shade[..., None] if shade.ndim == 2 else shade
    colour = np.array(skin, np.float32) * (0.75 + 0.25 * shade)
    canvas[:] = canvas * (1 - m) + colour * m
    owner[mask > 0] = -1


def _visible(owner: np.ndarray, matrix: np.ndarray, ident: int) -> bool:
    """Is the card's identity readable: most of its centre, or one corner index?"""
    tw, th = _TEX * CARD_ASPECT, _TEX
    regions = {
        "centre": [
            (tw * fx, th * fy) for fx in (0.35, 0.5, 0.65) for fy in (0.38, 0.5, 0.62)
        ],
        "tl": [
            (tw * fx, th * fy) for fx in (0.13, 0.2, 0.27) for fy in (0.08, 0.13, 0.18)
        ],
        "br": [
            (tw * fx, th * fy) for fx in (0.73, 0.8, 0.87) for fy in (0.82, 0.87, 0.92)
        ],
    }
    size = owner.shape[0]
    for points in regions.values():
        pts = cv2.perspectiveTransform(np.float32([points]), matrix)[0]
        xi, yi = np.round(pts[:, 0]).astype(int), np.round(pts[:, 1]).astype(int)
        inside = (xi >= 0) & (xi < size) & (yi >= 0) & (yi < size)
        hits = np.zeros(len(pts), bool)
        hits[inside] = owner[yi[inside], xi[inside]] == ident
        if hits.mean() >= 0.75:
            return True
    return False


