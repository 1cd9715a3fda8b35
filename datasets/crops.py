"""Card crops for the card classifier: what the detector's boxes look like, fast.

``card_crop(rng, label, size)`` draws one square crop as the runtime makes it from
a detector box: a card (either design) at any rotation, with some perspective,
seen through a slightly loose or tight axis-aligned box (so table shows in the
corners; sometimes cut by the frame's edge, as in a close-up), sometimes a second
card behind it or fingers over it, then the same lighting and degradations as the
scenes (casts, glare, blur, noise, JPEG).
``crop_set(n, seed, size)`` makes a labelled array set, deterministic per seed.
"""

from __future__ import annotations

import numpy as np

from datasets.cards import DESIGNS
from datasets.scenes import _SKINS, _TEX, _background, _degrade, _light, _texture
from referee.cards import CLASSES

_BACKGROUNDS: list[np.ndarray] = []


def _backdrop(rng: np.random.Generator, size: int) -> np.ndarray:
    """A random patch of a procedural table surface."""
    if not _BACKGROUNDS:
        bg_rng = np.random.default_rng(12345)
        _BACKGROUNDS.extend(_background(bg_rng, 192)[0] for _ in range(24))
    bg = _BACKGROUNDS[int(rng.integers(len(_BACKGROUNDS)))]
    scale = rng.uniform(0.3, 1.0)
    span = int(192 * scale)
    x, y = (int(v) for v in rng.integers(0, 192 - span + 1, 2))
    import cv2

    patch = cv2.resize(bg[y : y + span, x : x + span], (size, size))
    return patch * rng.uniform(0.6, 1.3, 3).astype(np.float32)


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


def card_crop(
    rng: np.random.Generator, label: str, size: int = 64, variants: int = 4
) -> np.ndarray:
    """One (size, size, 3) uint8 BGR crop of a card of ``label`` as a box shows it.

    The print variant is drawn from the first ``variants`` of
    :func:`datasets.cards.render_card` (2, 3: the other print of some symbols;
    4-7: another type).
    """
    import cv2

    design = str(rng.choice(DESIGNS))
    variant = int(rng.integers(variants))
    angle = float(
        rng.uniform(-np.pi, np.pi) if rng.random() < 0.5 else rng.normal(0, 0.25)
    )
    quad = _card_quad(rng, angle, 100.0)
    lo, hi, span = _detector_box(rng, quad, 0.12)
    if rng.random() < 0.15:  # a close-up: the frame's edge cuts the card
        side = int(rng.integers(4))
        cut = rng.uniform(0.05, 0.25) * span[side % 2]
        if side < 2:
            lo[side % 2] += cut
        else:
            hi[side % 2] -= cut
    to_crop = np.array([size / (hi[0] - lo[0]), size / (hi[1] - lo[1])])
    canvas = _backdrop(rng, size)
    tint = rng.uniform(0.85, 1.1, 3).astype(np.float32)
    if rng.random() < 0.3:  # a card behind, peeking out
        other = str(CLASSES[int(rng.integers(len(CLASSES)))])
        shift = rng.normal(0, 35, 2)
        back = _card_quad(rng, float(rng.uniform(-np.pi, np.pi)), 100.0) + shift
        _warp_card(canvas, other, design, variant, (back - lo) * to_crop, tint)
    _warp_card(canvas, label, design, variant, (quad - lo) * to_crop, tint)
    if rng.random() < 0.25:  # fingers over an edge
        skin = tuple(
            float(v) for v in _SKINS[rng.integers(len(_SKINS))] * rng.uniform(0.75, 1.1)
        )
        edge = rng.integers(4)
        for k in range(int(rng.integers(1, 4))):
            t = rng.uniform(0.1, 0.9)
            p = [(t * size, 0), (size, t * size), (t * size, size), (0, t * size)][edge]
            q = (
                size / 2 + rng.normal(0, size * 0.15),
                size / 2 + rng.normal(0, size * 0.15),
            )
            q = (
                p[0] + (q[0] - p[0]) * rng.uniform(0.2, 0.45),
                p[1] + (q[1] - p[1]) * rng.uniform(0.2, 0.45),
            )
            cv2.line(
                canvas,
                (int(p[0]), int(p[1])),
                (int(q[0]), int(q[1])),
                skin,
                max(2, int(size * rng.uniform(0.08, 0.14))),
            )
    return _degrade(rng, _light(rng, canvas))


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
#: :func:`datasets.scenes._visible`): its centre or either corner index.
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
    front), as in the scenes' fanned hands (``datasets.scenes._layout``: each
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


def covered_crop(
    rng: np.random.Generator, label: str, size: int = 64, variants: int = 4
) -> np.ndarray:
    """A crop of a card of ``label`` that other cards partly cover, as the box of
    a card in a fanned hand or lower in a pile shows it.

    The crop is the covered card's box (a little loose or tight, as in
    :func:`card_crop`); the cards on top (one to four, the same print) hide a
    quarter to most of it and run out of the box, but its centre or one corner
    index stays in view: the scenes' rule for labelling a card
    (``datasets.scenes._visible``), so the held-out scenes ask the classifier
    to name such boxes.
    """
    design = str(rng.choice(DESIGNS))
    variant = int(rng.integers(variants))
    tint = rng.uniform(0.85, 1.1, 3).astype(np.float32)
    for _ in range(20):
        angle = float(
            rng.uniform(-np.pi, np.pi) if rng.random() < 0.5 else rng.normal(0, 0.25)
        )
        quad, below, above = _covered_layout(rng, angle)
        share, readable = covered_share(quad, above)
        if readable and share >= 0.25:
            break
    lo, hi, _ = _detector_box(rng, quad, 0.1)
    to_crop = np.array([size / (hi[0] - lo[0]), size / (hi[1] - lo[1])])
    canvas = _backdrop(rng, size)
    for q in below:
        other = str(CLASSES[int(rng.integers(len(CLASSES)))])
        _warp_card(canvas, other, design, variant, (q - lo) * to_crop, tint)
    _warp_card(canvas, label, design, variant, (quad - lo) * to_crop, tint)
    for q in above:
        other = str(CLASSES[int(rng.integers(len(CLASSES)))])
        _warp_card(canvas, other, design, variant, (q - lo) * to_crop, tint)
    return _degrade(rng, _light(rng, canvas))


BACKGROUND = len(CLASSES)  # class id of "no card here" in crop sets


def _pattern(rng: np.random.Generator, size: int) -> np.ndarray:
    """A busy non-card surface: stripes, waves, checks, dots or scribbles, in two
    colours (fabric, tiles, bokeh, wallpaper: what a box finder mistakes for cards)."""
    import cv2

    a, b = (rng.uniform(0, 255, 3) for _ in range(2))
    if rng.random() < 0.5:  # black and white, as many prints are
        a, b = np.full(3, rng.uniform(0, 60)), np.full(3, rng.uniform(190, 255))
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    kind = rng.integers(5)
    if kind == 0 or kind == 1:  # straight or wavy stripes
        theta = rng.uniform(0, np.pi)
        u = xx * np.cos(theta) + yy * np.sin(theta)
        if kind == 1:
            u = u + rng.uniform(3, 12) * np.sin(
                (xx * np.sin(theta) - yy * np.cos(theta)) / rng.uniform(4, 15)
            )
        mask = np.sin(u * 2 * np.pi / rng.uniform(5, 24)) > rng.uniform(-0.4, 0.4)
    elif kind == 2:  # checks / tiles
        period = rng.uniform(6, 26)
        mask = ((xx // period + yy // period) % 2).astype(bool)
    else:
        canvas = np.zeros((size, size), np.uint8)
        if kind == 3:  # dots, bokeh
            for _ in range(int(rng.integers(4, 30))):
                x, y = (int(v) for v in rng.integers(0, size, 2))
                cv2.circle(canvas, (x, y), int(rng.integers(2, size // 5)), 255, -1)
        else:  # scribbles
            for _ in range(int(rng.integers(3, 12))):
                pts = rng.integers(0, size, (int(rng.integers(3, 7)), 2)).astype(np.int32)
                cv2.polylines(canvas, [pts], False, 255, int(rng.integers(1, 5)))
        mask = canvas > 0
    img = np.where(mask[..., None], a, b).astype(np.float32)
    return cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.3, 1.5)))


def _ornament(rng: np.random.Generator, size: int) -> np.ndarray:
    """Busier non-card surfaces than :func:`_pattern`: a repeated ornamental tile
    (a motif mirrored four ways, in three or four colours), diamond tread plate, a
    woven lattice, or a jumble of shaded objects with highlights (a market stall,
    a cluttered shelf, glasses by a phone): the kinds of image a card finder boxed
    in real photos of anything but cards."""
    import cv2

    kind = rng.integers(4)
    colours = [rng.uniform(0, 255, 3) for _ in range(4)]
    if kind == 0:  # ornamental tiles: a motif mirrored into a square, repeated
        half = int(rng.integers(6, max(7, size // 3)))
        motif = np.empty((half, half, 3), np.float32)
        motif[:] = colours[0]
        for _ in range(int(rng.integers(2, 7))):
            c = tuple(float(v) for v in colours[int(rng.integers(1, 4))])
            x, y = (int(v) for v in rng.integers(0, half, 2))
            if rng.random() < 0.5:
                cv2.ellipse(motif, (x, y), (int(rng.integers(1, half)),
                            int(rng.integers(1, half))), float(rng.uniform(0, 180)),
                            0, 360, c, int(rng.choice([-1, 1, 2])))
            else:
                cv2.line(motif, (x, y), tuple(int(v) for v in rng.integers(0, half, 2)),
                         c, int(rng.integers(1, 3)))
        tile = np.concatenate([motif, motif[:, ::-1]], 1)
        tile = np.concatenate([tile, tile[::-1]], 0)
        if rng.random() < 0.5:  # grout between tiles
            tile[:1], tile[:, :1] = colours[3] * 0.5, colours[3] * 0.5
        reps = size // len(tile) + 2
        img = np.tile(tile, (reps, reps, 1))
        x, y = (int(v) for v in rng.integers(0, len(tile), 2))
        img = np.ascontiguousarray(img[y : y + size, x : x + size])
    elif kind == 1:  # tread plate: raised bars in two directions on grey metal
        grey = rng.uniform(80, 200)
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
        img = np.repeat((grey + 25 * np.sin(xx / rng.uniform(10, 40)
                                            + yy / rng.uniform(10, 40)))[..., None], 3, 2)
        period = int(rng.integers(8, 18))
        length, width = period * 0.45, max(1.0, period * 0.12)
        for j in range(-1, size // period + 2):
            for i in range(-1, size // period + 2):
                cx, cy = i * period + (period // 2) * (j % 2), j * period
                angle = 45.0 if (i + j) % 2 else -45.0
                for dx, shade in ((1, 0.55), (-1, 1.45)):  # shadow, then highlight
                    cv2.ellipse(img, (cx + dx, cy + dx), (int(length), int(width)),
                                angle, 0, 360, (grey * shade,) * 3, -1)
                cv2.ellipse(img, (cx, cy), (int(length), int(width)), angle, 0, 360,
                            (grey * 1.1,) * 3, -1)
    elif kind == 2:  # a woven lattice: two families of shaded bars, dark gaps
        img = np.empty((size, size, 3), np.float32)
        img[:] = colours[0] * 0.25
        period = rng.uniform(7, 20)
        bar = period * rng.uniform(0.4, 0.7)
        theta = rng.uniform(0, np.pi)
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
        lit = colours[1] * 0.3 + 170
        first = None
        for th in (theta, theta + np.pi / 2):
            u = (xx * np.cos(th) + yy * np.sin(th)) % period
            on = u < bar
            if first is None:
                first = on
            else:  # under the first family every other crossing
                v = (xx * -np.sin(th) + yy * np.cos(th)) % (2 * period)
                on &= ~((v < period) & first)
            shade = 0.6 + 0.4 * np.sin(np.pi * np.clip(u / bar, 0, 1))
            img = np.where(on[..., None], lit * shade[..., None], img)
    else:  # a jumble of shaded objects with specular highlights
        img = np.empty((size, size, 3), np.float32)
        img[:] = colours[0] * 0.5
        for _ in range(int(rng.integers(5, 16))):
            c = rng.uniform(0, 255, 3)
            x, y = (int(v) for v in rng.integers(-size // 8, size + size // 8, 2))
            axes = (int(rng.integers(3, size // 3)), int(rng.integers(3, size // 3)))
            angle = float(rng.uniform(0, 180))
            if rng.random() < 0.35:  # a rim or a frame (glasses, a coil, a bowl)
                cv2.ellipse(img, (x, y), axes, angle, 0, 360,
                            tuple(float(v) for v in c * 0.4), int(rng.integers(2, 5)))
                continue
            for shrink, gain in ((1.0, 0.55), (0.75, 0.85), (0.45, 1.15)):
                cv2.ellipse(img, (x, y), (max(1, int(axes[0] * shrink)),
                            max(1, int(axes[1] * shrink))), angle, 0, 360,
                            tuple(float(v) for v in np.minimum(c * gain, 255)), -1)
            if rng.random() < 0.5:
                cv2.circle(img, (x - axes[0] // 4, y - axes[1] // 4),
                           max(1, min(axes) // 4), (245.0, 245.0, 245.0), -1)
    return cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.3, 1.2)))


def background_crop(rng: np.random.Generator, size: int = 64,
                    ornaments: bool = False) -> np.ndarray:
    """A crop a detector might wrongly box: table, busy patterns, shapes, a card
    back, a white object (paper, a cup, a phone), fingers. With ``ornaments``,
    some busy patterns are :func:`_ornament` ones (tiles, tread plate, lattice,
    clutter); without, the draws are those of the shipped recipe before it."""
    import cv2

    canvas = _backdrop(rng, size)
    kind = rng.random()
    if kind < 0.2:  # a card back
        quad = _card_quad(
            rng, float(rng.uniform(-np.pi, np.pi)), size * rng.uniform(0.6, 1.0)
        )
        _warp_card(
            canvas, "back", "classic", 0, quad + size / 2, np.ones(3, np.float32)
        )
    elif kind < 0.35:  # coloured shapes
        for _ in range(int(rng.integers(1, 5))):
            colour = tuple(float(v) for v in rng.uniform(0, 255, 3))
            x, y = (int(v) for v in rng.integers(0, size, 2))
            cv2.rectangle(
                canvas,
                (x, y),
                (x + int(rng.integers(5, size)), y + int(rng.integers(5, size))),
                colour,
                -1,
            )
    elif kind < 0.6:  # a busy pattern
        if ornaments and rng.random() < 0.6:
            canvas = _ornament(rng, size)
        else:
            canvas = _pattern(rng, size)
    elif kind < 0.75:  # a white or dark object with rounded corners, some marks
        shade = rng.uniform(200, 255) if rng.random() < 0.7 else rng.uniform(5, 40)
        x1, y1 = (int(v) for v in rng.integers(-size // 4, size // 2, 2))
        x2, y2 = (int(v) for v in rng.integers(size // 2, size + size // 4, 2))
        cv2.rectangle(canvas, (x1, y1), (x2, y2), (shade,) * 3, -1)
        if rng.random() < 0.6:
            ink = tuple(float(v) for v in rng.uniform(0, 255, 3))
            cv2.ellipse(
                canvas,
                (int(rng.integers(x1, max(x1 + 1, x2))), int(rng.integers(y1, max(y1 + 1, y2)))),
                (int(rng.integers(3, size // 3)), int(rng.integers(3, size // 3))),
                float(rng.uniform(0, 180)),
                0,
                360,
                ink,
                int(rng.choice([-1, 2, 4])),
            )
    elif kind < 0.88:  # a hand
        skin = tuple(float(v) for v in _SKINS[rng.integers(len(_SKINS))])
        cv2.ellipse(
            canvas,
            (size // 2, size // 2),
            (size // 3, size // 2),
            float(rng.uniform(0, 180)),
            0,
            360,
            skin,
            -1,
        )
    return _degrade(rng, _light(rng, canvas))


def crop_set(
    count: int,
    seed: int,
    size: int = 64,
    background_share: float = 0.1,
    variants: int = 4,
    ornaments: bool = False,
    covered: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Balanced labelled crops: (N, size, size, 3) uint8 BGR and (N,) int64 labels.

    About ``background_share`` of them are :func:`background_crop` (label
    :data:`BACKGROUND`), the rest cycle through every card label, each in one of
    the first ``variants`` print variants. ``ornaments`` gives the background
    crops the busier surfaces of :func:`_ornament` too. A share ``covered`` of
    the card crops (chosen per crop from the seed and its index, so the others
    are the crops a set without them has) are :func:`covered_crop`.
    """
    rng = np.random.default_rng(seed)
    n_bg = int(round(count * background_share))
    labels = np.concatenate(
        [np.arange(count - n_bg) % len(CLASSES), np.full(n_bg, BACKGROUND)]
    )
    rng.shuffle(labels)
    images = np.empty((count, size, size, 3), np.uint8)
    for i, cid in enumerate(labels):
        sample_rng = np.random.default_rng([seed, i])
        if cid == BACKGROUND:
            images[i] = background_crop(sample_rng, size, ornaments)
        elif covered and np.random.default_rng([seed, i, 1]).random() < covered:
            images[i] = covered_crop(sample_rng, CLASSES[int(cid)], size, variants)
        else:
            images[i] = card_crop(sample_rng, CLASSES[int(cid)], size, variants)
    return images, labels.astype(np.int64)


__all__ = [
    "BACKGROUND",
    "background_crop",
    "card_crop",
    "covered_crop",
    "covered_share",
    "crop_set",
    "_TEX",
]
