"""Training crops of the corner-index reader (:mod:`vision.corner_index`).

:func:`corner_crop` draws a rendered card (either design, any of its eight
prints) held up before a camera: turned up to 20 degrees, either way up, one
side up to 40 % shorter (tilted out of the picture's plane), over a blurred
backdrop or another card (a fan), boxed by a finder whose sides move a little;
then cuts that box's :data:`vision.corner_index.REGION` straight to the
reader's input at a webcam's resolution (the card 50-330 pixels tall), with
fingers over it, light casts and exposure, glare, blur or motion blur, noise
and JPEG. The label is the symbol's index in :data:`vision.corner_index.SYMBOLS`.
"""

from __future__ import annotations

import numpy as np

from referee.cards import CLASSES


def corner_crop(rng: np.random.Generator, label: str | None = None,
                card: np.ndarray | None = None, turn: float = 20.0,
                squeeze: float = 0.4) -> tuple[np.ndarray, int]:
    """One (h, w, 3) uint8 BGR crop (:data:`vision.corner_index.INPUT`) and its
    symbol index; ``label``: a card of :data:`referee.cards.CLASSES` (``None``:
    one drawn). ``card``: the face to draw instead of a rendered one (BGR,
    upright or upside down: a photo's card, cut from its finder box, for the
    reader's deck adaptation, :func:`vision.corner_index.adapt`); ``label`` is
    then its label. ``turn``: the most the card is turned (degrees);
    ``squeeze``: the most one side is shortened."""
    import cv2

    from datasets.cards import CARD_ASPECT, DESIGNS
    from datasets.scene_layout import _texture
    from datasets.scene_surface import _SKINS
    from vision.corner_index import INPUT, REGION, symbol_index

    label = label or str(CLASSES[int(rng.integers(len(CLASSES)))])
    face_texture = _texture if card is None else _photo_texture(card)
    out_w, out_h = INPUT
    # the card in scene units (its height 1), turned and tilted
    a = CARD_ASPECT
    quad = np.array([[-a / 2, -0.5], [a / 2, -0.5], [a / 2, 0.5], [-a / 2, 0.5]])
    side = int(rng.integers(4))
    squeeze = float(rng.uniform(0, squeeze)) if rng.random() < 0.7 else 0.0
    p, q = quad[side].copy(), quad[(side + 1) % 4].copy()
    mid = (p + q) / 2
    quad[side], quad[(side + 1) % 4] = p + (mid - p) * squeeze, q + (mid - q) * squeeze
    angle = np.radians(float(rng.uniform(-turn, turn)) + (180.0 if rng.random() < 0.5 else 0))
    c, s = np.cos(angle), np.sin(angle)
    quad = quad @ np.array([[c, s], [-s, c]]) + rng.normal(0, 0.01, (4, 2))
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    span = hi - lo
    jitter = rng.normal(0, 0.04, 4)
    if rng.random() < 0.2:  # the box cut short on one side, or loose
        k = int(rng.integers(4))
        jitter[k] += float(rng.uniform(-0.12, 0.15)) * (1 if k < 2 else -1)
    bx1, by1 = lo + jitter[:2] * span
    bx2, by2 = hi + jitter[2:] * span
    bw, bh = bx2 - bx1, by2 - by1
    rx0, ry0 = bx1 + REGION[0] * bw, by1 + REGION[1] * bh
    rx1, ry1 = bx1 + REGION[2] * bw, by1 + REGION[3] * bh
    # the webcam's pixels on the card: the card 50-330 px tall in the frame
    card_px = float(np.exp(rng.uniform(np.log(50), np.log(330))))
    region_px_h = (ry1 - ry0) * card_px
    res = min(1.0, region_px_h / out_h)
    n_w, n_h = max(8, round(out_w * res)), max(6, round(out_h * res))
    sx, sy = n_w / (rx1 - rx0), n_h / (ry1 - ry0)
    to_crop = np.array([[sx, 0, -rx0 * sx], [0, sy, -ry0 * sy], [0, 0, 1]])
    # backdrop: a blurred room or person, or another card of a fan
    back = np.empty((n_h, n_w, 3), np.float32)
    back[:] = rng.uniform(15, 200, 3)
    back += cv2.resize(rng.uniform(-50, 50, (3, 3, 3)).astype(np.float32), (n_w, n_h))
    if rng.random() < 0.3:
        skin = _SKINS[rng.integers(len(_SKINS))] * rng.uniform(0.6, 1.1)
        back[:] = back * 0.3 + skin * 0.7
    if rng.random() < 0.15:  # another card behind it, offset (a fan)
        other = str(CLASSES[int(rng.integers(len(CLASSES)))])
        shift = rng.uniform(-0.5, 0.5, 2) * [a, 1.0]
        fan = np.radians(float(rng.uniform(-25, 25)))
        c2, s2 = np.cos(fan), np.sin(fan)
        oquad = (quad - quad.mean(0)) @ np.array([[c2, s2], [-s2, c2]]) + quad.mean(0) + shift
        _paste(back, other, str(rng.choice(DESIGNS)), int(rng.integers(8)), oquad,
               to_crop, card_px, _texture)
    design = str(rng.choice(DESIGNS))
    variant = int(rng.integers(8))
    img = back
    _paste(img, label, design, variant, quad, to_crop, card_px, face_texture,
           tint=rng.uniform(0.85, 1.1, 3).astype(np.float32))
    # fingers over the corner
    if rng.random() < 0.25:
        skin = tuple(float(v) for v in _SKINS[rng.integers(len(_SKINS))]
                     * rng.uniform(0.7, 1.1))
        for _ in range(int(rng.integers(1, 3))):
            p0 = rng.uniform([0, 0], [n_w, n_h])
            d = rng.normal(0, 1, 2)
            d /= max(float(np.linalg.norm(d)), 1e-6)
            p1 = p0 + d * n_w * float(rng.uniform(0.3, 1.0))
            cv2.line(img, (int(p0[0]), int(p0[1])), (int(p1[0]), int(p1[1])), skin,
                     max(1, int(n_h * rng.uniform(0.12, 0.3))))
    # light: a cast and exposure, sometimes glare
    gains = rng.uniform([0.5, 0.7, 0.5], [1.2, 1.2, 1.6]).astype(np.float32)
    img = img * gains * float(rng.uniform(0.5, 1.3))
    if rng.random() < 0.25:
        yy, xx = np.mgrid[0:n_h, 0:n_w].astype(np.float32)
        gx, gy = rng.uniform([0, 0], [n_w, n_h])
        r = float(rng.uniform(0.1, 0.4)) * n_w
        img += float(rng.uniform(50, 160)) * np.exp(
            -((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r))[:, :, None]
    r = rng.random()
    if r < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.3, 1.0)))
    elif r < 0.55:  # motion blur
        k = int(rng.integers(1, max(2, n_w // 14)))
        kernel = np.zeros((2 * k + 1, 2 * k + 1), np.float32)
        kernel[k, :] = 1
        rot = cv2.getRotationMatrix2D((k, k), float(rng.uniform(0, 180)), 1)
        kernel = cv2.warpAffine(kernel, rot, kernel.shape)
        img = cv2.filter2D(img, -1, kernel / max(float(kernel.sum()), 1e-6))
    img = img + rng.normal(0, float(rng.uniform(1, 10)), img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY,
                                            int(rng.integers(30, 90))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if (n_w, n_h) != (out_w, out_h):
        img = cv2.resize(img, (out_w, out_h), interpolation=cv2.INTER_LINEAR)
    return img, symbol_index(label)


def _photo_texture(card: np.ndarray):  # noqa: ANN202
    """:func:`datasets.scene_layout._texture`'s answer for one photo's card face
    ``card`` (BGR): the face as float BGR taken down by area near the height
    asked, an opaque alpha."""
    import cv2

    face = np.asarray(card, np.float32)

    def texture(label: str, design: str, variant: int, height: float):  # noqa: ARG001
        h = face.shape[0]
        f = min(1.0, float(height) / max(h, 1))
        img = face if f >= 0.99 else cv2.resize(
            face, (max(2, round(face.shape[1] * f)), max(2, round(h * f))),
            interpolation=cv2.INTER_AREA)
        return img, np.ones(img.shape[:2], np.float32), h / img.shape[0]

    return texture


def card_face(frame: np.ndarray, box, turn_aspect: float = 1.2,  # noqa: ANN001
              height: int = 400) -> np.ndarray:
    """The card in ``frame``'s box ``xyxy`` (a photo's finder box) cut out and
    made to stand up (a box at least ``turn_aspect`` times as wide as high is
    turned a quarter: either way, as the card's two indices are opposite
    corners), taken down to at most ``height`` pixels tall: the face
    :func:`corner_crop` draws for a photo."""
    import cv2

    fh, fw = frame.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in np.asarray(box).reshape(4))
    x1, y1 = max(0, int(round(x1))), max(0, int(round(y1)))
    x2, y2 = min(fw, int(round(x2))), min(fh, int(round(y2)))
    face = np.ascontiguousarray(frame[y1:max(y2, y1 + 2), x1:max(x2, x1 + 2), :3])
    if face.shape[1] >= turn_aspect * face.shape[0]:
        face = np.ascontiguousarray(np.rot90(face, 1))
    if face.shape[0] > height:
        f = height / face.shape[0]
        face = cv2.resize(face, (max(2, round(face.shape[1] * f)), height),
                          interpolation=cv2.INTER_AREA)
    return face


def _paste(img: np.ndarray, label: str, design: str, variant: int,  # noqa: PLR0913
           quad: np.ndarray, to_crop: np.ndarray, card_px: float, texture,  # noqa: ANN001
           tint: np.ndarray | None = None) -> None:
    """Warp the card ``label`` (corners ``quad`` in scene units) into ``img``
    through ``to_crop`` (scene units -> ``img``'s pixels), in place."""
    import cv2

    h, w = img.shape[:2]
    bgr, alpha, _ = texture(label, design, variant, card_px * 2)
    th, tw = alpha.shape
    src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])
    dst = (np.hstack([quad, np.ones((4, 1))]) @ to_crop.T)[:, :2].astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    a = cv2.warpPerspective(alpha, m, (w, h), flags=cv2.INTER_AREA)
    face = cv2.warpPerspective(bgr if tint is None else bgr * tint, m, (w, h),
                               flags=cv2.INTER_AREA)
    img[:] = img * (1 - a[..., None]) + face * a[..., None]


def corner_set(count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``count`` crops of cards drawn evenly over :data:`referee.cards.CLASSES`
    (seeded): (N, h, w, 3) uint8 and (N,) symbol indices."""
    rng = np.random.default_rng(seed)
    labels = [str(CLASSES[i % len(CLASSES)]) for i in range(count)]
    order = rng.permutation(count)
    xs, ys = [], []
    for i in order:
        x, y = corner_crop(rng, labels[i])
        xs.append(x)
        ys.append(y)
    return np.stack(xs), np.array(ys, np.int64)
