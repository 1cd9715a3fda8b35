"""Classifier crops: deterministic, balanced, with a background class."""

from __future__ import annotations

import numpy as np

from datasets.crops import (
    BACKGROUND,
    _covered_layout,
    background_crop,
    card_crop,
    covered_crop,
    covered_share,
    crop_set,
)
from referee.cards import CLASSES


def test_crop_set_is_deterministic_and_balanced() -> None:
    x1, y1 = crop_set(130, seed=4, size=32)
    x2, y2 = crop_set(130, seed=4, size=32)
    assert x1.shape == (130, 32, 32, 3) and x1.dtype == np.uint8
    assert np.array_equal(x1, x2) and np.array_equal(y1, y2)
    counts = np.bincount(y1, minlength=BACKGROUND + 1)
    assert counts[BACKGROUND] == round(130 * 0.1)
    assert counts[:BACKGROUND].max() - counts[:BACKGROUND].min() <= 1
    x3, _ = crop_set(130, seed=5, size=32)
    assert not np.array_equal(x1, x3)


def test_crop_set_draws_from_the_asked_print_variants(monkeypatch) -> None:
    """``variants`` bounds the print variants the crops use (8: the other type too)."""
    import datasets.crops as crops

    seen: list[int] = []
    real = crops._warp_card

    def spy(canvas, label, design, variant, quad, tint):  # noqa: ANN001, ANN202
        seen.append(variant)
        return real(canvas, label, design, variant, quad, tint)

    monkeypatch.setattr(crops, "_warp_card", spy)
    crop_set(60, seed=2, size=24, background_share=0.0)
    assert seen and max(seen) <= 3
    seen.clear()
    crop_set(60, seed=2, size=24, background_share=0.0, variants=8)
    assert max(seen) >= 4 and min(seen) <= 3


def test_card_crop_shows_the_card_colour() -> None:
    """A red card's crop under neutral-ish light is mostly red where it is saturated."""
    reds = 0
    for i in range(8):
        crop = card_crop(np.random.default_rng(i), "red-4", 48).astype(int)
        b, g, r = crop[..., 0], crop[..., 1], crop[..., 2]
        reds += ((r > g + 40) & (r > b + 40)).mean() > 0.15
    assert reds >= 5


def test_background_crop_shape() -> None:
    crop = background_crop(np.random.default_rng(0), 40)
    assert crop.shape == (40, 40, 3) and crop.dtype == np.uint8
    assert BACKGROUND == len(CLASSES)


def test_background_crops_vary_and_include_busy_patterns() -> None:
    """"No card" crops are not all flat table: many carry strong edges (stripes,
    checks, dots, scribbles), the things a box finder mistakes for cards."""
    import cv2

    busy = 0
    crops = [background_crop(np.random.default_rng([7, i]), 64) for i in range(40)]
    for crop in crops:
        edges = cv2.Canny(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), 60, 150)
        busy += (edges > 0).mean() > 0.08
    assert 5 <= busy <= 35, f"{busy} of 40 busy"
    assert len({c.tobytes() for c in crops}) == 40


def test_ornaments_add_busier_surfaces_and_leave_the_default_alone() -> None:
    """``ornaments`` (a recipe option) turns some busy-pattern crops into tiles,
    tread plate, lattices or clutter; without it the crops are draw for draw
    those of the recipe before the option."""
    import cv2

    from datasets.crops import _ornament

    plain = [background_crop(np.random.default_rng([7, i]), 64) for i in range(60)]
    again = [background_crop(np.random.default_rng([7, i]), 64, False) for i in range(60)]
    assert all(np.array_equal(a, b) for a, b in zip(plain, again))
    rich = [background_crop(np.random.default_rng([7, i]), 64, True) for i in range(60)]
    changed = sum(not np.array_equal(a, b) for a, b in zip(plain, rich))
    assert 3 <= changed <= 30, f"{changed} of 60 changed"
    edges = []
    for i in range(24):
        img = np.clip(_ornament(np.random.default_rng([8, i]), 64), 0, 255)
        assert img.shape == (64, 64, 3)
        grey = cv2.cvtColor(img.astype(np.uint8), cv2.COLOR_BGR2GRAY)
        edges.append(np.abs(np.diff(grey.astype(np.float32), axis=1)).mean())
    assert np.median(edges) > 3.0, f"ornaments too flat: {np.median(edges):.1f}"


def _rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)


def test_covered_share_measures_what_lies_on_a_card() -> None:
    card = _rect(0, 0, 64, 100)
    assert covered_share(card, []) == (0.0, True)
    share, readable = covered_share(card, [_rect(-10, -10, 80, 120)])
    assert share == 1.0 and not readable
    # all but the top-left corner (its index) hidden: still readable
    share, readable = covered_share(card, [_rect(20, 20, 90, 130)])
    assert share > 0.4 and readable
    # the left half hidden: the centre is gone, but the bottom-right index shows
    share, readable = covered_share(card, [_rect(-10, -10, 32, 120)])
    assert 0.4 <= share <= 0.6 and readable
    # a card on top turned by 45 degrees (either winding of its corners)
    turned = np.array([[32, -40], [110, 50], [32, 140], [-46, 50]], float)
    assert covered_share(card, [turned]) == covered_share(card, [turned[::-1]])


def test_covered_layouts_fan_or_pile_cards_on_the_covered_one() -> None:
    fans = 0
    for i in range(40):
        rng = np.random.default_rng(i)
        quad, below, above = _covered_layout(rng, float(rng.uniform(-3, 3)))
        assert 1 <= len(above) <= 4 and len(below) <= 1
        share, _ = covered_share(quad, above)
        assert share > 0  # something always lies on it
        # a fanned hand: each next card turned the same step further (up to
        # the corners' perspective jitter)
        axes = [(q[2] + q[3] - q[0] - q[1]) / 2 for q in [quad, *above]]
        turns = np.diff(np.unwrap([np.arctan2(a[1], a[0]) for a in axes]))
        fans += len(turns) > 1 and np.ptp(turns) < 0.2
    assert 10 <= fans <= 35


def test_covered_crops_are_deterministic_and_differ_from_whole_ones() -> None:
    one = covered_crop(np.random.default_rng(3), "blue-5", 32, 8)
    assert one.shape == (32, 32, 3) and one.dtype == np.uint8
    assert np.array_equal(one, covered_crop(np.random.default_rng(3), "blue-5", 32, 8))
    assert not np.array_equal(one, card_crop(np.random.default_rng(3), "blue-5", 32, 8))


def test_crop_set_swaps_a_share_for_covered_crops_and_keeps_the_rest() -> None:
    plain, labels = crop_set(200, seed=6, size=24)
    mixed, labels2 = crop_set(200, seed=6, size=24, covered=0.3)
    assert np.array_equal(labels, labels2)
    same = np.array([np.array_equal(a, b) for a, b in zip(plain, mixed)])
    cards = labels != BACKGROUND
    assert same[~cards].all()  # "no card" crops untouched
    assert 0.2 <= 1 - same[cards].mean() <= 0.4


def test_held_crops_are_deterministic_and_differ_from_flat_ones() -> None:
    from datasets.held_views import held_crop, person_crop

    one = held_crop(np.random.default_rng(4), "green-7", 32, 8)
    assert one.shape == (32, 32, 3) and one.dtype == np.uint8
    assert np.array_equal(one, held_crop(np.random.default_rng(4), "green-7", 32, 8))
    assert not np.array_equal(one, card_crop(np.random.default_rng(4), "green-7", 32, 8))
    person = person_crop(np.random.default_rng(4), 32)
    assert person.shape == (32, 32, 3) and person.dtype == np.uint8


def test_held_crops_show_the_card_colour() -> None:
    """A held red card is redder than a held blue one, on average over views."""
    from datasets.held_views import held_crop

    def mean(label):  # noqa: ANN001, ANN202
        crops = [held_crop(np.random.default_rng([9, i]), label, 32, 4, 0.0)
                 for i in range(12)]
        return np.mean([c.reshape(-1, 3).mean(0) for c in crops], axis=0)

    red, blue = mean("red-5"), mean("blue-5")  # BGR
    assert red[2] - red[0] > blue[2] - blue[0]


def test_crop_set_swaps_a_share_for_held_crops_and_keeps_the_rest() -> None:
    plain, labels = crop_set(200, seed=6, size=24)
    held, labels2 = crop_set(200, seed=6, size=24, held=0.3)
    assert np.array_equal(labels, labels2)
    same = np.array([np.array_equal(a, b) for a, b in zip(plain, held)])
    cards = labels != BACKGROUND
    assert same[~cards].all()  # "no card" crops untouched
    assert 0.2 <= 1 - same[cards].mean() <= 0.4
    people, _ = crop_set(200, seed=6, size=24, held=0.3, held_background=0.5)
    same_bg = np.array([np.array_equal(a, b) for a, b in zip(held, people)])
    assert same_bg[cards].all()  # card crops untouched
    assert 0 < 1 - same_bg[~cards].mean() < 1


def test_crop_set_renders_the_same_crops_in_several_processes() -> None:
    one, labels = crop_set(160, seed=2, size=16, held=0.3, held_background=0.3)
    many, labels2 = crop_set(160, seed=2, size=16, held=0.3, held_background=0.3,
                             workers=2)
    assert np.array_equal(labels, labels2)
    assert np.array_equal(one, many)
