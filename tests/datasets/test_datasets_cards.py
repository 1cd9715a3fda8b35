"""The card-face renderer: every class, both designs, deterministic, distinguishable."""

from __future__ import annotations

import numpy as np
import pytest

from datasets import cards
from datasets.cards import CARD_ASPECT, DESIGNS, card_back, render_card
from referee.cards import CLASSES

H = 120
# The coloured body between the top border and the centre circle, clear of the index.
BODY = np.s_[12:22, 34:42]


def _rgba(label: str, design: str, variant: int = 0, height: int = H) -> np.ndarray:
    return np.asarray(render_card(label, design, height, variant)).astype(np.int16)


@pytest.mark.parametrize("design", DESIGNS)
def test_every_class_renders_with_transparent_rounded_corners(design: str) -> None:
    for variant in (0, 1, 2, 3):
        for label in CLASSES:
            img = render_card(label, design, H, variant)
            assert img.mode == "RGBA"
            assert img.size == (round(H * CARD_ASPECT), H)
            alpha = np.asarray(img)[:, :, 3]
            assert alpha[0, 0] == 0 and alpha[-1, -1] == 0, label  # rounded corners
            assert alpha[H // 2, img.width // 2] == 255, label
            assert alpha.mean() > 240, label


@pytest.mark.parametrize("design", DESIGNS)
def test_all_faces_of_a_design_differ(design: str) -> None:
    faces = {label: _rgba(label, design) for label in CLASSES}
    labels = list(faces)
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            diff = np.abs(faces[a] - faces[b]).mean()
            assert diff > 1.0, f"{a} and {b} look the same ({diff:.2f})"


def test_designs_differ_and_variants_differ_for_classic() -> None:
    assert np.abs(_rgba("red-7", "modern") - _rgba("red-7", "classic")).mean() > 5
    assert (
        np.abs(_rgba("red-7", "classic", 0) - _rgba("red-7", "classic", 1)).mean() > 5
    )


@pytest.mark.parametrize("design", DESIGNS)
def test_other_prints_change_only_their_symbols(design: str) -> None:
    """Variants 2 and 3 draw the other common print of a 3 (flat top), of the
    reverse arrows, (classic) of the wild, and (modern) every centre symbol edged
    in black; the wild draw four stays as it is."""
    changed = {"red-3", "blue-3", "green-reverse", "yellow-reverse"}
    if design == "classic":
        changed.add("wild")
    else:
        changed |= {"red-7", "blue-skip", "green-draw2"}
    for label in sorted(changed | {"red-7", "blue-skip", "green-draw2", "wild-draw4"}):
        diff = np.abs(_rgba(label, design, 0) - _rgba(label, design, 2)).mean()
        if label in changed:
            assert diff > 1.0, f"{label}: the other print looks the same ({diff:.2f})"
        else:
            assert diff == 0, f"{label} changed with the print variant"
    # The flat-topped 3 still differs from an 8, and the reverse from a 4.
    for a, b in (("red-3", "red-8"), ("red-reverse", "red-4")):
        assert np.abs(_rgba(a, design, 2) - _rgba(b, design, 2)).mean() > 1.0


def test_rendering_is_deterministic() -> None:
    first = _rgba("blue-9", "classic", 1)
    cards.render_card.cache_clear()
    cards._render_base.cache_clear()
    assert np.array_equal(first, _rgba("blue-9", "classic", 1))


@pytest.mark.parametrize("design", DESIGNS)
def test_nine_is_not_a_six_upside_down(design: str) -> None:
    """The underline tells 6 from 9: a 9 is not a 6 turned 180 degrees."""
    six = _rgba("green-6", design, height=240)
    nine = _rgba("green-9", design, height=240)
    turned = six[::-1, ::-1]
    # Without an underline the centre of a 6 turned over would nearly equal a 9's.
    h, w = six.shape[:2]
    centre = np.s_[h // 4 : 3 * h // 4, w // 6 : 5 * w // 6]
    assert np.abs(turned[centre] - nine[centre]).mean() > 3


@pytest.mark.parametrize("label,channel", [("red-3", 0), ("green-3", 1), ("blue-3", 2)])
def test_card_colour_shows_in_the_body(label: str, channel: int) -> None:
    rgb = _rgba(label, "modern")[:, :, :3]
    strip = rgb[BODY].reshape(-1, 3).mean(axis=0)
    assert strip.argmax() == channel, strip


def test_yellow_and_wild_bodies() -> None:
    yellow = _rgba("yellow-1", "modern")[:, :, :3][BODY].reshape(-1, 3).mean(0)
    assert yellow[0] > 180 and yellow[1] > 150 and yellow[2] < 100
    wild = _rgba("wild", "modern")[:, :, :3][BODY].mean()
    assert wild < 60  # black body


def test_short_forms_and_errors() -> None:
    assert np.array_equal(_rgba("R7", "modern"), _rgba("red-7", "modern"))
    with pytest.raises(ValueError):
        render_card("purple-3")
    with pytest.raises(ValueError):
        render_card("red-3", design="retro")
    with pytest.raises(ValueError):
        render_card("red-3", height=4)


def test_card_back() -> None:
    back = card_back(H)
    assert back.mode == "RGBA" and back.size == (round(H * CARD_ASPECT), H)
    assert np.asarray(back)[0, 0, 3] == 0
