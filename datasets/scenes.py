"""Synthetic table scenes with card labels, for training the card detector.

``compose_scene(rng, imgsz)`` draws one square BGR image: a procedural table
surface (wood, cloth, felt, paper, patterned, dark, a blurry room), seen top-down
or obliquely, with cards laid out as scattered singles, piles (top card whole, the
ones below partly hidden), fanned hands, rows of cards side by side (optional),
or one large card held up, partly covered by skin-coloured fingers, then lit and degraded (shadows, glare, white-balance
casts, blur, noise, JPEG). Every card whose identity can still be read (most of
its centre or one corner index is visible) is labelled with its whole-card
quadrilateral; fully hidden cards and card backs are not.

Everything is drawn with numpy and OpenCV at the output size, so a 320 px scene
takes a few milliseconds; the result depends only on the generator passed in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from datasets.cards import CARD_ASPECT, DESIGNS, card_back, render_card
from referee.cards import CLASSES

_TEX = 512  # card texture height in pixels (warped down to the scene)
_SKINS = np.array(
    [
        [60, 90, 150],
        [80, 120, 190],
        [100, 150, 220],
        [40, 65, 110],
        [120, 170, 230],
        [70, 105, 165],
    ],
    dtype=np.float32,
)  # BGR


@dataclass
class Scene:
    """One rendered scene.

    Attributes:
        image: (H, W, 3) uint8 BGR.
        class_ids: class index into ``referee.cards.CLASSES`` per labelled card.
        corners: (N, 4, 2) float32 card corners in pixels (TL, TR, BR, BL of the face).
    """

    image: np.ndarray
    class_ids: list[int] = field(default_factory=list)
    corners: np.ndarray = field(default_factory=lambda: np.zeros((0, 4, 2), np.float32))

    def boxes(self) -> np.ndarray:
        """(N, 4) axis-aligned xyxy boxes of the corners, clipped to the image."""
        if not len(self.corners):
            return np.zeros((0, 4), np.float32)
        h, w = self.image.shape[:2]
        lo, hi = self.corners.min(axis=1), self.corners.max(axis=1)
        box = np.concatenate([lo, hi], axis=1)
        return np.clip(box, 0, [w, h, w, h]).astype(np.float32)


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


def _smooth_noise(rng: np.random.Generator, size: int, cells: int) -> np.ndarray:
    small = rng.random((cells, cells)).astype(np.float32)
    return cv2.resize(small, (size, size), interpolation=cv2.INTER_CUBIC)


def _background(rng: np.random.Generator, size: int) -> tuple[np.ndarray, str]:
    """A table surface (float32 BGR 0..255) and its kind."""
    kind = str(
        rng.choice(
            ["wood", "cloth", "felt", "paper", "pattern", "dark", "room"],
            p=[0.22, 0.14, 0.14, 0.12, 0.12, 0.12, 0.14],
        )
    )
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size
    base = rng.uniform(20, 235, 3).astype(np.float32)
    if kind == "wood":
        base = np.array(
            [rng.uniform(30, 110), rng.uniform(60, 140), rng.uniform(100, 200)],
            np.float32,
        )
        warp = _smooth_noise(rng, size, 4) * rng.uniform(2, 8)
        grain = np.sin((yy * rng.uniform(20, 80) + warp) * np.pi) * 0.5 + 0.5
        shade = 0.7 + 0.3 * grain + 0.15 * (_smooth_noise(rng, size, 32) - 0.5)
        img = base[None, None] * shade[..., None]
        if rng.random() < 0.5:
            img = np.ascontiguousarray(img.transpose(1, 0, 2))
    elif kind == "cloth":
        period = rng.uniform(0.03, 0.12)
        a = ((xx // period) % 2).astype(np.float32)
        b = ((yy // period) % 2).astype(np.float32)
        light = np.array([235, 240, 240], np.float32) * rng.uniform(0.8, 1.0)
        mix = (a + b)[..., None] / 2
        img = light * (1 - mix) + base * mix
    elif kind == "felt":
        img = base[None, None] * (0.85 + 0.3 * _smooth_noise(rng, size, 64))[..., None]
    elif kind == "paper":
        img = np.full((size, size, 3), rng.uniform(200, 250), np.float32)
        img *= (0.95 + 0.05 * _smooth_noise(rng, size, 8))[..., None]
    elif kind == "pattern":
        img = np.empty((size, size, 3), np.float32)
        img[:] = base
        other = rng.uniform(20, 235, 3)
        for _ in range(int(rng.integers(10, 60))):
            c = tuple(
                float(v)
                for v in (other if rng.random() < 0.7 else rng.uniform(0, 255, 3))
            )
            x, y = (int(v) for v in rng.integers(0, size, 2))
            r = int(rng.integers(3, max(4, size // 10)))
            if rng.random() < 0.5:
                cv2.circle(img, (x, y), r, c, -1)
            else:
                cv2.line(img, (x - 3 * r, y), (x + 3 * r, y + r), c, max(1, r // 2))
    elif kind == "dark":
        img = np.full((size, size, 3), rng.uniform(5, 45), np.float32)
        img *= (0.8 + 0.4 * _smooth_noise(rng, size, 6))[..., None]
    else:  # a blurry room, sometimes a face: the frames of a webcam held up
        img = np.empty((size, size, 3), np.float32)
        img[:] = rng.uniform(120, 230, 3)
        for _ in range(int(rng.integers(3, 9))):
            x0, y0 = (int(v) for v in rng.integers(-size // 4, size, 2))
            x1, y1 = (
                x0 + int(rng.integers(size // 8, size)),
                y0 + int(rng.integers(size // 8, size)),
            )
            cv2.rectangle(
                img,
                (x0, y0),
                (x1, y1),
                tuple(float(v) for v in rng.uniform(10, 240, 3)),
                -1,
            )
        if rng.random() < 0.6:
            skin = _SKINS[rng.integers(len(_SKINS))] * rng.uniform(0.7, 1.1)
            c = (int(rng.uniform(0.2, 0.8) * size), int(rng.uniform(0.2, 0.7) * size))
            cv2.ellipse(
                img,
                c,
                (size // 6, size // 4),
                0,
                0,
                360,
                tuple(float(v) for v in skin),
                -1,
            )
            cv2.ellipse(
                img,
                (c[0], c[1] - size // 5),
                (size // 5, size // 8),
                0,
                180,
                360,
                (20.0, 20.0, 25.0),
                -1,
            )
        img = cv2.GaussianBlur(img, (0, 0), size / 80)
    return np.clip(img, 0, 255).astype(np.float32), kind


def _camera(rng: np.random.Generator, size: int) -> np.ndarray:
    """A homography for a top-down (identity-ish) or oblique view of the table."""
    src = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    if rng.random() < 0.45:
        return np.eye(3, dtype=np.float64)
    squeeze = rng.uniform(0.05, 0.3) * size
    jitter = rng.normal(0, 0.03 * size, (4, 2))
    dst = src + jitter
    dst[0, 0] += squeeze
    dst[1, 0] -= squeeze
    dst[0:2, 1] += rng.uniform(0, 0.15) * size
    if rng.random() < 0.5:  # the far edge may be at any side
        dst = np.roll(dst, int(rng.integers(1, 4)), axis=0)
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32)).astype(np.float64)


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


CASTS = {"teal": 0.1, "warm": 0.3, "cool": 0.5, "neutral": 0.8}


def _light(
    rng: np.random.Generator, img: np.ndarray, force: str | None = None
) -> np.ndarray:
    """Shadows, glare, white-balance casts and exposure (float BGR in, float out).

    ``force`` picks the cast (a key of :data:`CASTS`) without changing the draws.
    """
    size = img.shape[0]
    if rng.random() < 0.5:  # a soft shadow band or vignette
        g = _smooth_noise(rng, size, 3)
        img *= (1 - rng.uniform(0.2, 0.6) * g)[..., None]
    if rng.random() < 0.3:  # glare
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
        cx, cy = rng.uniform(0, size, 2)
        sx, sy = rng.uniform(0.03, 0.2, 2) * size
        blob = np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2))
        img += (rng.uniform(80, 220) * blob)[..., None]
    cast = rng.random()
    if force is not None:
        cast = CASTS[force]
    gains = np.ones(3, np.float32)
    mix = np.eye(3, dtype=np.float32)
    if cast < 0.25:  # green/yellow webcam cast: blue turns teal
        gains = np.array(
            [rng.uniform(0.6, 0.9), rng.uniform(1.0, 1.15), rng.uniform(0.85, 1.05)]
        )
        mix[1, 0] = rng.uniform(0.1, 0.35)  # green picks up blue
    elif cast < 0.45:  # warm light: yellow and red drift together
        gains = np.array(
            [rng.uniform(0.55, 0.85), rng.uniform(0.85, 1.0), rng.uniform(1.0, 1.2)]
        )
        mix[2, 1] = rng.uniform(0.0, 0.2)
    elif cast < 0.6:  # cool light
        gains = np.array(
            [rng.uniform(1.0, 1.2), rng.uniform(0.95, 1.05), rng.uniform(0.7, 0.95)]
        )
    else:
        gains = rng.uniform(0.9, 1.1, 3)
    mix = mix / mix.sum(axis=1, keepdims=True)
    img = img @ (mix * gains[:, None]).T.astype(np.float32)
    exposure = rng.uniform(0.55, 1.35)
    gamma = rng.uniform(0.75, 1.3)
    img = 255 * (np.clip(img * exposure, 0, 255) / 255) ** gamma
    return img


def _degrade(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Blur, noise and JPEG artefacts (float in, uint8 out)."""
    size = img.shape[0]
    r = rng.random()
    if r < 0.25:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.6) * size / 640)
    elif r < 0.4:  # motion blur
        k = int(rng.integers(3, max(4, size // 40)))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2] = 1 / k
        rot = cv2.getRotationMatrix2D(
            (k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1
        )
        kernel = cv2.warpAffine(kernel, rot, (k, k))
        img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    if rng.random() < 0.6:
        img = img + rng.normal(0, rng.uniform(2, 12), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        ok, buf = cv2.imencode(
            ".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 90))]
        )
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def compose_scene(
    rng: np.random.Generator,
    imgsz: int = 640,
    empty_fraction: float = 0.08,
    closeup_fraction: float = 0.0,
    laid_fraction: float = 0.0,
    marker_fraction: float = 0.0,
) -> Scene:
    """Draw one labelled table scene.

    Args:
        rng: the only source of randomness (same state, same scene).
        imgsz: side of the square output image in pixels.
        empty_fraction: share of scenes with no cards at all.
        closeup_fraction: share of the scenes with cards that show one card close
            up (30-85 % of the frame, sometimes cut by its edge), as a phone photo
            of a card does. 0 draws exactly the scenes of earlier versions.
        laid_fraction: share of the scenes with cards that lay them side by
            side in rows, touching, overlapping a little or with small gaps (a
            hand shown at the round's end, a narabe-runo path). 0 draws exactly
            the scenes of earlier versions.
        marker_fraction: share of scenes with one to four of the table's
            printed ArUco markers on their white squares (unlabelled; most
            right beside a card). 0 draws exactly the scenes of earlier versions.

    Returns:
        The :class:`Scene` with its labelled cards.
    """
    size = int(imgsz)
    canvas, kind = _background(rng, size)
    cam = _camera(rng, size)
    if not np.allclose(cam, np.eye(3)):
        canvas = cv2.warpPerspective(
            canvas, cam, (size, size), borderMode=cv2.BORDER_REFLECT
        )
    owner = np.full((size, size), -2, np.int32)
    cards: list[tuple[int, int, np.ndarray]] = []
    if rng.random() >= empty_fraction:
        mode = str(
            rng.choice(["scatter", "pile", "hand", "held"], p=[0.4, 0.15, 0.2, 0.25])
        )
        if kind == "room":
            mode = "held"
        if closeup_fraction > 0 and rng.random() < closeup_fraction:
            mode = "closeup"
        elif laid_fraction > 0 and kind != "room" and rng.random() < laid_fraction:
            mode = "laid"
        design = str(rng.choice(DESIGNS))
        variant = int(rng.integers(2))
        shadow = rng.uniform(0, 0.02) * size if rng.random() < 0.6 else 0.0
        tint = rng.uniform(0.85, 1.1, 3).astype(np.float32)
        placements = _layout(rng, size, mode)
        if marker_fraction > 0 and rng.random() < marker_fraction:
            _markers(rng, canvas, owner, cam, placements)
        for ident, (cx, cy, h, angle) in enumerate(placements):
            back = rng.random() < 0.06
            label = "back" if back else str(CLASSES[int(rng.integers(len(CLASSES)))])
            bgr, alpha, up = _texture(label, design, variant, h)
            matrix = cam @ _placement(cx, cy, h, angle)
            level = matrix @ np.diag([up, up, 1.0])
            _paste(canvas, owner, bgr * tint, alpha, level, ident, shadow)
            if not back:
                cards.append((ident, CLASSES.index(label), matrix))
        if cards and (mode == "held" or rng.random() < 0.3):
            ident, _, matrix = cards[int(rng.integers(len(cards)))]
            tw, th = _TEX * CARD_ASPECT, _TEX
            quad = cv2.perspectiveTransform(
                np.float32([[[0, 0], [tw, 0], [tw, th], [0, th]]]), matrix
            )[0]
            _fingers(rng, canvas, owner, quad)
    elif marker_fraction > 0 and rng.random() < marker_fraction:
        _markers(rng, canvas, owner, cam, [])
    scene = Scene(_degrade(rng, _light(rng, canvas)))
    tw, th = _TEX * CARD_ASPECT, _TEX
    unit = np.float32([[[0, 0], [tw, 0], [tw, th], [0, th]]])
    ids, quads = [], []
    for ident, class_id, matrix in cards:
        if _visible(owner, matrix, ident):
            quad = cv2.perspectiveTransform(unit, matrix)[0]
            ids.append(class_id)
            quads.append(quad)
    scene.class_ids = ids
    scene.corners = np.array(quads, np.float32).reshape(-1, 4, 2)
    return scene


def compose_single(
    rng: np.random.Generator,
    label: str,
    imgsz: int = 320,
    design: str | None = None,
    angle: float | None = None,
    cast: str | None = None,
) -> Scene:
    """One card of a given label on a table, for targeted tests (hard pairs).

    Args:
        rng: the source of randomness.
        label: the card's label (of ``CLASSES``).
        imgsz: image side in pixels.
        design: ``modern``/``classic`` or ``None`` for either.
        angle: rotation in radians (``None``: upright give or take 0.3).
        cast: a white-balance cast of :data:`CASTS` or ``None`` for any.
    """
    size = int(imgsz)
    canvas, _ = _background(rng, size)
    owner = np.full((size, size), -2, np.int32)
    design = design or str(rng.choice(DESIGNS))
    area = rng.uniform(0.08, 0.3)
    h = float(np.sqrt(area * size * size / CARD_ASPECT))
    theta = float(rng.normal(0, 0.3) if angle is None else angle)
    bgr, alpha, up = _texture(label, design, int(rng.integers(2)), h)
    matrix = _placement(
        size / 2 + rng.normal(0, size * 0.05),
        size / 2 + rng.normal(0, size * 0.05),
        h,
        theta,
    )
    _paste(
        canvas,
        owner,
        bgr * rng.uniform(0.9, 1.05, 3).astype(np.float32),
        alpha,
        matrix @ np.diag([up, up, 1.0]),
        0,
        rng.uniform(0, 0.01) * size,
    )
    scene = Scene(_degrade(rng, _light(rng, canvas, cast)))
    tw, th = _TEX * CARD_ASPECT, _TEX
    quad = cv2.perspectiveTransform(
        np.float32([[[0, 0], [tw, 0], [tw, th], [0, th]]]), matrix
    )[0]
    scene.class_ids = [CLASSES.index(label)]
    scene.corners = quad[None].astype(np.float32)
    return scene
