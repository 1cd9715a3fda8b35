"""Synthetic table scenes with card labels, for training the card detector.

``compose_scene(rng, imgsz)`` draws one square BGR image: a procedural table
surface (wood, cloth, felt, paper, patterned, dark, a blurry room), seen top-down
or obliquely, with cards laid out as scattered singles, piles (top card whole, the
ones below partly hidden), fanned hands, rows of cards side by side (optional),
or one large card held up, partly covered by skin-coloured fingers, or
(optional) one card near the camera, then lit and degraded (shadows, glare, white-balance
casts, blur, noise, JPEG). Every card whose identity can still be read (most of
its centre or one corner index is visible) is labelled with its whole-card
quadrilateral; fully hidden cards and card backs are not.

Everything is drawn with numpy and OpenCV at the output size, so a 320 px scene
takes a few milliseconds; the result depends only on the generator passed in.

The renderer is split by job: :mod:`datasets.scene_surface` (table, camera,
light, degradation) and :mod:`datasets.scene_layout` (card placement, hands,
fingers, visibility); this module composes a scene from them and re-exports
their names.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from datasets.cards import CARD_ASPECT, DESIGNS
from datasets.scene_layout import (
    _TEX,
    _TEXTURES,
    _fingers,
    _layout,
    _marker_texture,
    _markers,
    _paste,
    _placement,
    _texture,
    _tilt,
    _visible,
)
from datasets.scene_surface import (
    _SKINS,
    CASTS,
    _background,
    _camera,
    _degrade,
    _light,
    _smooth_noise,
)
from referee.cards import CLASSES

__all__ = [
    "CASTS",
    "Scene",
    "compose_scene",
    "compose_single",
    "_SKINS",
    "_TEX",
    "_TEXTURES",
    "_background",
    "_camera",
    "_degrade",
    "_fingers",
    "_layout",
    "_light",
    "_marker_texture",
    "_markers",
    "_paste",
    "_placement",
    "_smooth_noise",
    "_texture",
    "_visible",
]


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


def compose_scene(
    rng: np.random.Generator,
    imgsz: int = 640,
    empty_fraction: float = 0.08,
    closeup_fraction: float = 0.0,
    laid_fraction: float = 0.0,
    marker_fraction: float = 0.0,
    near_fraction: float = 0.0,
    aspect_fraction: float = 0.0,
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
        near_fraction: share of the scenes with cards that show one card near
            the camera: 3-95 % of the frame (log-uniform), turned any way
            (mostly upright or sideways), tilted out of the picture's plane,
            for 60 % held up before a blurred person (else on the table), often
            with fingers over it, cut by the frame's edge when large, moving
            (motion blur) or seen at a webcam's lower resolution. 0 draws
            exactly the scenes of earlier versions.
        aspect_fraction: share of scenes cut to a frame of another shape (4:3,
            3:4, 16:9 or 9:16; a photo or a webcam frame), labelled by the same
            rule within the cut frame. 0 draws exactly the scenes of earlier
            versions.

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
        elif near_fraction > 0 and rng.random() < near_fraction:
            mode = "near"
            if rng.random() < 0.6:  # held up before a person
                from datasets.held_views import _person_backdrop

                canvas = _person_backdrop(rng, size)
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
            placed = _placement(cx, cy, h, angle)
            # a card near the camera faces it, tilted out of its plane
            matrix = _tilt(rng, placed, 0.3) if mode == "near" else cam @ placed
            level = matrix @ np.diag([up, up, 1.0])
            _paste(canvas, owner, bgr * tint, alpha, level, ident, shadow)
            if not back:
                cards.append((ident, CLASSES.index(label), matrix))
        if cards and (mode == "held" or rng.random() < (0.7 if mode == "near" else 0.3)):
            ident, _, matrix = cards[int(rng.integers(len(cards)))]
            tw, th = _TEX * CARD_ASPECT, _TEX
            quad = cv2.perspectiveTransform(
                np.float32([[[0, 0], [tw, 0], [tw, th], [0, th]]]), matrix
            )[0]
            _fingers(rng, canvas, owner, quad)
    elif marker_fraction > 0 and rng.random() < marker_fraction:
        _markers(rng, canvas, owner, cam, [])
    lit = _light(rng, canvas)
    if cards and mode == "near":
        lit = _near_camera(rng, lit)
    scene = Scene(_degrade(rng, lit))
    shift = np.zeros(2, np.float32)
    if aspect_fraction > 0 and rng.random() < aspect_fraction:
        scene.image, shift = _reframe(rng, scene.image, owner)
    tw, th = _TEX * CARD_ASPECT, _TEX
    unit = np.float32([[[0, 0], [tw, 0], [tw, th], [0, th]]])
    ids, quads = [], []
    for ident, class_id, matrix in cards:
        if _visible(owner, matrix, ident):
            quad = cv2.perspectiveTransform(unit, matrix)[0] - shift
            ids.append(class_id)
            quads.append(quad)
    scene.class_ids = ids
    scene.corners = np.array(quads, np.float32).reshape(-1, 4, 2)
    return scene


def _near_camera(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """A card near a webcam: the card moving (motion blur along a line) for 35 %,
    a webcam's lower resolution for 40 % (float BGR in and out)."""
    from datasets.held_views import motion_blur

    size = img.shape[0]
    if rng.random() < 0.35:
        img = motion_blur(img, rng, 1, max(3, size // 40))
    if rng.random() < 0.4:
        low = float(rng.uniform(0.3, 0.8))
        small = cv2.resize(img, None, fx=low, fy=low, interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (size, size), interpolation=cv2.INTER_LINEAR)
    return img


ASPECTS = (4 / 3, 3 / 4, 16 / 9, 9 / 16)


def _reframe(
    rng: np.random.Generator, image: np.ndarray, owner: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``image`` cut to a frame of one of :data:`ASPECTS` at a random place;
    ``owner`` (the scene's pixel owners) loses what lies outside, so the
    labelling rule sees only the cut frame. Returns the frame and its top-left
    corner in the square's pixels."""
    size = image.shape[0]
    aspect = float(ASPECTS[int(rng.integers(len(ASPECTS)))])
    w, h = (size, round(size / aspect)) if aspect > 1 else (round(size * aspect), size)
    x0, y0 = int(rng.integers(size - w + 1)), int(rng.integers(size - h + 1))
    keep = np.zeros(owner.shape, bool)
    keep[y0 : y0 + h, x0 : x0 + w] = True
    owner[~keep] = -2
    return (np.ascontiguousarray(image[y0 : y0 + h, x0 : x0 + w]),
            np.float32([x0, y0]))


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
