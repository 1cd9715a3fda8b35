"""Card crops for the card classifier: what the detector's boxes look like, fast.

``card_crop(rng, label, size)`` draws one square crop as the runtime makes it from
a detector box: a card (either design) at any rotation, with some perspective,
seen through a slightly loose or tight axis-aligned box (so table shows in the
corners; sometimes cut by the frame's edge, as in a close-up), sometimes a second
card behind it or fingers over it, then the same lighting and degradations as the
scenes (casts, glare, blur, noise, JPEG).
``crop_set(n, seed, size)`` makes a labelled array set, deterministic per seed.

The crop renderer is split by job: :mod:`datasets.crop_geometry` (quads, boxes,
covering), :mod:`datasets.crop_backgrounds` (the "no card here" crops); this
module draws the card crops and the labelled sets and re-exports their names.
"""

from __future__ import annotations

import numpy as np

from datasets.cards import DESIGNS
from datasets.crop_backgrounds import (
    _backdrop,
    _ornament,
    background_crop,
)
from datasets.crop_geometry import (
    _card_quad,
    _covered_layout,
    _detector_box,
    _warp_card,
    covered_share,
)
from datasets.scene_layout import _TEX
from datasets.scene_surface import _SKINS, _degrade, _light
from referee.cards import CLASSES


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


def covered_crop(
    rng: np.random.Generator, label: str, size: int = 64, variants: int = 4
) -> np.ndarray:
    """A crop of a card of ``label`` that other cards partly cover, as the box of
    a card in a fanned hand or lower in a pile shows it.

    The crop is the covered card's box (a little loose or tight, as in
    :func:`card_crop`); the cards on top (one to four, the same print) hide a
    quarter to most of it and run out of the box, but its centre or one corner
    index stays in view: the scenes' rule for labelling a card
    (``datasets.scene_layout._visible``), so the held-out scenes ask the classifier
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

def crop_set(
    count: int,
    seed: int,
    size: int = 64,
    background_share: float = 0.1,
    variants: int = 4,
    ornaments: bool = False,
    covered: float = 0.0,
    held: float = 0.0,
    held_hand: float = 0.5,
    held_tilt: float = 0.25,
    held_background: float = 0.0,
    workers: int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """Balanced labelled crops: (N, size, size, 3) uint8 BGR and (N,) int64 labels.

    About ``background_share`` of them are :func:`background_crop` (label
    :data:`BACKGROUND`), the rest cycle through every card label, each in one of
    the first ``variants`` print variants. ``ornaments`` gives the background
    crops the busier surfaces of :func:`_ornament` too. A share ``covered`` of
    the card crops (chosen per crop from the seed and its index, so the others
    are the crops a set without them has) are :func:`covered_crop`; a share
    ``held`` of the other card crops (chosen the same way) are
    :func:`datasets.held_views.held_crop` (a card held up before a webcam; a share
    ``held_hand`` of them with a hand over it, one side up to ``held_tilt``
    shorter), and a share ``held_background`` of the background crops are
    :func:`datasets.held_views.person_crop` (a person, no card).

    Every crop depends on the seed and its index alone, so ``workers``
    processes render the same set as one.
    """
    rng = np.random.default_rng(seed)
    n_bg = int(round(count * background_share))
    labels = np.concatenate(
        [np.arange(count - n_bg) % len(CLASSES), np.full(n_bg, BACKGROUND)]
    )
    rng.shuffle(labels)
    opts = (seed, size, variants, ornaments, covered, held, held_hand, held_tilt,
            held_background)
    if workers <= 1 or count < 128:
        images = _render(labels, 0, opts)
    else:
        import multiprocessing

        step = max(64, -(-count // (8 * workers)))
        jobs = [(labels[a : a + step], a, opts) for a in range(0, count, step)]
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            images = np.concatenate(pool.starmap(_render, jobs, chunksize=1))
    return images, labels.astype(np.int64)


def _render(labels: np.ndarray, first: int, opts: tuple) -> np.ndarray:
    """The crops of ``labels``, the first of them index ``first`` of the set
    (:func:`crop_set`'s options ``opts``)."""
    from datasets.held_views import held_crop, person_crop

    (seed, size, variants, ornaments, covered, held, held_hand, held_tilt,
     held_background) = opts
    images = np.empty((len(labels), size, size, 3), np.uint8)
    for j, cid in enumerate(labels):
        i = first + j
        sample_rng = np.random.default_rng([seed, i])
        if cid == BACKGROUND:
            if (held_background
                    and np.random.default_rng([seed, i, 3]).random() < held_background):
                images[j] = person_crop(sample_rng, size)
            else:
                images[j] = background_crop(sample_rng, size, ornaments)
        elif covered and np.random.default_rng([seed, i, 1]).random() < covered:
            images[j] = covered_crop(sample_rng, CLASSES[int(cid)], size, variants)
        elif held and np.random.default_rng([seed, i, 2]).random() < held:
            images[j] = held_crop(sample_rng, CLASSES[int(cid)], size, variants,
                                  held_hand, held_tilt)
        else:
            images[j] = card_crop(sample_rng, CLASSES[int(cid)], size, variants)
    return images


__all__ = [
    "BACKGROUND",
    "background_crop",
    "card_crop",
    "covered_crop",
    "covered_share",
    "crop_set",
    "_TEX",
    "_backdrop",
    "_card_quad",
    "_covered_layout",
    "_detector_box",
    "_ornament",
    "_warp_card",
]
