"""The table under the cards, the camera, the light and the image's wear.

Part of the scene renderer (:mod:`datasets.scenes` composes): procedural table
surfaces (wood, cloth, felt, paper, patterned, dark, a blurry room), the
homography of a top-down or oblique camera, lighting (shadows, glare,
white-balance casts) and degradation (blur, noise, JPEG). numpy and OpenCV only.
"""

from __future__ import annotations

import cv2
import numpy as np

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


