"""What a box with no card in it shows: table patches, busy patterns and
ornaments, shapes, a card back, white objects, fingers.

Part of the crop renderer (:mod:`datasets.crops` re-exports ``background_crop``).
"""

from __future__ import annotations

import numpy as np

from datasets.crop_geometry import _card_quad, _warp_card
from datasets.scene_surface import _SKINS, _background, _degrade, _light


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

