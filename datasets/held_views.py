"""Views of a card held up before a webcam, for the crop classifier's training.

Both the per-deck enrollment (:mod:`vision.enroll`, from a photo's card) and the
shipped classifier's recipe (:func:`held_crop`, from a rendered card,
``training.classifier.CLASSIFIER_RECIPE``'s ``held``) draw these:

- :func:`_held_box`: a finder's box around a held card (looser, or cut by the
  frame's edge);
- :func:`_scene_view`: the card turned and tilted out of the picture's plane
  before a blurred person and room, at a webcam's lower resolution;
- :func:`_held_view`: fingers over an edge, light casts, motion blur, noise,
  JPEG, either way up; with :func:`_hand_over` a hand over part of the card.
"""

from __future__ import annotations

import numpy as np


def held_crop(
    rng: np.random.Generator, label: str, size: int = 64, variants: int = 4,
    hand: float = 0.5, tilt: float = 0.25,
) -> np.ndarray:
    """One (size, size, 3) uint8 BGR crop of a rendered card of ``label`` as a
    finder boxes it when the card is held up before a webcam: the card (either
    design, one of the first ``variants`` prints) drawn flat, then seen as
    :func:`_scene_view` (tilted, one side up to ``tilt`` shorter, before a
    person, the box loose or cut by :func:`_held_box`) and :func:`_held_view`
    (a share ``hand`` with a hand over it) -- the enrollment's held views of a
    photo (:func:`vision.enroll.augmented_crops`), made from a rendered card."""
    from datasets.cards import CARD_ASPECT, DESIGNS
    from datasets.crop_backgrounds import _backdrop
    from datasets.crop_geometry import _warp_card

    design = str(rng.choice(DESIGNS))
    variant = int(rng.integers(variants))
    side = 2 * size  # drawn at twice the crop's size, as enrollment's copies
    canvas = _backdrop(rng, side)
    h = side * float(rng.uniform(0.7, 0.9))
    w = h * CARD_ASPECT
    x1, y1 = (side - w) / 2, (side - h) / 2
    quad = np.array([[x1, y1], [x1 + w, y1], [x1 + w, y1 + h], [x1, y1 + h]])
    if rng.random() < 0.5:  # upside down (the corner indices are either way)
        quad = quad[[2, 3, 0, 1]]
    tint = rng.uniform(0.85, 1.1, 3).astype(np.float32)
    _warp_card(canvas, label, design, variant, quad, tint)
    card = np.array([x1, y1, x1 + w, y1 + h])
    crop = _scene_view(np.clip(canvas, 0, 255).astype(np.uint8), card,
                       _held_box(rng), size, rng, tilt)
    return _held_view(crop, rng, hand)


def motion_blur(img: np.ndarray, rng: np.random.Generator, least: int,
                most: int) -> np.ndarray:
    """``img`` smeared along a line of ``least`` to ``most`` - 1 pixels each way,
    at a random angle (a card moving in front of the camera)."""
    import cv2

    k = int(rng.integers(least, most))
    kernel = np.zeros((2 * k + 1, 2 * k + 1), np.float32)
    kernel[k, :] = 1
    rot = cv2.getRotationMatrix2D((k, k), float(rng.uniform(0, 180)), 1)
    kernel = cv2.warpAffine(kernel, rot, kernel.shape)
    return cv2.filter2D(img, -1, kernel / max(float(kernel.sum()), 1e-6))


def _scene_view(small: np.ndarray, card: np.ndarray, jitter: np.ndarray,
                size: int, rng: np.random.Generator, tilt: float) -> np.ndarray:
    """A ``size`` crop of the card ``card`` (xyxy in ``small``'s pixels) as a
    finder boxes it in a webcam frame of the card held up before a person: the
    card turned up to 20 degrees and tilted out of the picture's plane (one side
    up to ``tilt`` shorter, a perspective warp), the box around it moved by
    ``jitter`` (:func:`_held_box`: looser, or cut), what the box holds beside
    the card a person and a room (a blurred backdrop, a patch of skin or
    cloth) rather than the photo's table, at a lower resolution."""
    import cv2

    x1, y1, x2, y2 = (float(v) for v in card)
    src = np.float32([[x1, y1], [x2, y1], [x2, y2], [x1, y2]])
    w, h = max(x2 - x1, 2.0), max(y2 - y1, 2.0)
    quad = np.float64([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2],
                       [-w / 2, h / 2]])
    side = int(rng.integers(4))
    squeeze = float(rng.uniform(0.0, tilt))
    a, b = quad[side].copy(), quad[(side + 1) % 4].copy()
    mid = (a + b) / 2
    quad[side], quad[(side + 1) % 4] = a + (mid - a) * squeeze, b + (mid - b) * squeeze
    angle = np.radians(float(rng.uniform(-20, 20)))
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    quad = quad @ turn.T
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    span = hi - lo
    # the finder's box: the card's bounding box, its sides moved by the jitter
    bx1, by1 = lo + jitter[:2] * span
    bx2, by2 = hi + jitter[2:] * span
    scale = np.array([size / max(bx2 - bx1, 1e-3), size / max(by2 - by1, 1e-3)])
    dst = ((quad - [bx1, by1]) * scale).astype(np.float32)
    persp = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(small.astype(np.float32), persp, (size, size),
                                 flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.ones(small.shape[:2], np.float32), persp,
                               (size, size), flags=cv2.INTER_LINEAR)
    inside = np.zeros((size, size), np.float32)
    cv2.fillConvexPoly(inside, np.round(dst).astype(np.int32), 1.0)
    mask = (mask * cv2.GaussianBlur(inside, (0, 0), 0.7))[:, :, None]
    back = _person_backdrop(rng, size)
    img = back * (1 - mask) + warped * mask
    low = float(rng.uniform(0.35, 1.0))  # the webcam's lower resolution
    if low < 0.95:
        img = cv2.resize(cv2.resize(img, None, fx=low, fy=low,
                                    interpolation=cv2.INTER_AREA), (size, size))
    return np.clip(img, 0, 255).astype(np.uint8)


def _person_backdrop(rng: np.random.Generator, size: int) -> np.ndarray:
    """A (size, size, 3) float BGR backdrop of a person and a room behind a held
    card, out of focus: a colour with a coarse shading, for 60 % a face, neck or
    arm (a skin-coloured ellipse), blurred."""
    import cv2

    from datasets.scene_surface import _SKINS

    back = np.empty((size, size, 3), np.float32)
    back[:] = rng.uniform(20, 170, 3)
    back += cv2.resize(rng.uniform(-45, 45, (3, 3, 3)).astype(np.float32), (size, size))
    if rng.random() < 0.6:  # a face, a neck or an arm behind the card
        skin = _SKINS[rng.integers(len(_SKINS))] * rng.uniform(0.6, 1.1)
        centre = (int(rng.uniform(0, size)), int(rng.uniform(0, size)))
        axes = (int(size * rng.uniform(0.2, 0.5)), int(size * rng.uniform(0.25, 0.6)))
        cv2.ellipse(back, centre, axes, float(rng.uniform(0, 180)), 0, 360,
                    tuple(float(v) for v in skin), -1)
    back = cv2.GaussianBlur(back, (0, 0), float(rng.uniform(1, 3)))
    return back


def _held_box(rng: np.random.Generator) -> np.ndarray:
    """Moves of the box's sides (x1, y1, x2, y2, in card sizes) for a held card:
    a finder's box is looser on a blurred card in a hand, and a card close to
    the camera is cut by the frame's edge."""
    jitter = rng.normal(0, 0.06, 4)
    if rng.random() < 0.3:
        side = int(rng.integers(4))
        cut = float(rng.uniform(0.05, 0.25))
        jitter[side] += cut if side < 2 else -cut
    return jitter


def _held_view(crop: np.ndarray, rng: np.random.Generator,
               hand: float = 0.0) -> np.ndarray:
    """A crop made to look like a card held up before a webcam: fingers over an
    edge, the classifier's training light (casts, shadow, glare, exposure) and
    degradations (blur or motion blur, noise, JPEG), either way up; a share
    ``hand`` with a hand over the card as well (:func:`_hand_over`)."""
    import cv2

    from datasets.scene_surface import _SKINS, _degrade, _light

    size = crop.shape[0]
    img = crop.copy()
    if hand > 0 and rng.random() < hand:
        img = _hand_over(img, rng)
    if rng.random() < 0.6:  # fingers or a thumb over an edge
        skin = tuple(float(v) for v in
                     _SKINS[rng.integers(len(_SKINS))] * rng.uniform(0.7, 1.1))
        edge = int(rng.integers(4))
        for _ in range(int(rng.integers(1, 4))):
            t = rng.uniform(0.1, 0.9)
            p = [(t * size, 0), (size, t * size), (t * size, size), (0, t * size)][edge]
            reach = rng.uniform(0.15, 0.4)
            q = (p[0] + (size / 2 - p[0]) * reach, p[1] + (size / 2 - p[1]) * reach)
            cv2.line(img, (int(p[0]), int(p[1])), (int(q[0]), int(q[1])), skin,
                     max(2, int(size * rng.uniform(0.1, 0.18))))
    img = _light(rng, img.astype(np.float32))
    if rng.random() < 0.4:  # the card moving in the hand
        img = motion_blur(img, rng, 2, 7)
    out = _degrade(rng, img)
    if rng.random() < 0.5:
        out = np.ascontiguousarray(out[::-1, ::-1])
    return out


def _hand_over(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``crop`` with a hand over a part of the card: a palm over one edge with
    two to four fingers reaching across the card from it, or (one time in four)
    a flat patch of skin, shadow or backdrop over a corner, hiding up to about
    a quarter of the crop (the fingers of :func:`_held_view` may come on
    top)."""
    import cv2

    from datasets.scene_surface import _SKINS

    size = crop.shape[0]
    img = crop.copy()
    skin = _SKINS[rng.integers(len(_SKINS))] * rng.uniform(0.6, 1.15)
    if rng.random() < 0.25:  # a patch over a corner
        fill = (skin if rng.random() < 0.5
                else rng.uniform(10, 120, 3).astype(np.float32))
        w, h = (int(size * v) for v in rng.uniform(0.2, 0.4, 2))
        x = 0 if rng.random() < 0.5 else size - w
        y = 0 if rng.random() < 0.5 else size - h
        img[y : y + h, x : x + w] = np.clip(fill, 0, 255).astype(np.uint8)
        return img
    edge = int(rng.integers(4))
    t = float(rng.uniform(0.25, 0.75))
    px, py = [(t * size, size), (0, t * size), (t * size, 0), (size, t * size)][edge]
    colour = tuple(float(v) for v in skin)
    cv2.ellipse(img, (int(px), int(py)),
                (int(size * rng.uniform(0.15, 0.25)), int(size * rng.uniform(0.08, 0.15))),
                [0.0, 90.0, 0.0, 90.0][edge] + float(rng.uniform(-25, 25)), 0, 360,
                colour, -1)
    toward = np.array([size / 2 - px, size / 2 - py], np.float64)
    toward /= max(float(np.linalg.norm(toward)), 1e-6)
    normal = np.array([-toward[1], toward[0]])
    for f in range(int(rng.integers(2, 5))):
        start = np.array([px, py]) + normal * (f - 1.5) * size * 0.1
        end = start + toward * float(rng.uniform(0.15, 0.35)) * size
        shade = tuple(v * float(rng.uniform(0.85, 1.05)) for v in colour)
        cv2.line(img, (int(start[0]), int(start[1])), (int(end[0]), int(end[1])),
                 shade, max(2, int(size * rng.uniform(0.08, 0.13))))
    return img


def person_crop(rng: np.random.Generator, size: int = 64) -> np.ndarray:
    """A "no card" crop of what a finder may box around a person holding cards:
    :func:`_person_backdrop` seen through :func:`_held_view` (fingers, a hand,
    light, blur, noise, JPEG) with no card in it."""
    back = np.clip(_person_backdrop(rng, size), 0, 255).astype(np.uint8)
    return _held_view(back, rng, 0.5)


__all = ["held_crop", "motion_blur"]
