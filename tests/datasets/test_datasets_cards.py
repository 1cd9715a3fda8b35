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


@pytest.mark.parametrize("design", DESIGNS)
def test_another_type_changes_digits_and_reverse_only(design: str) -> None:
    """Variants 4-7 print 0-3 in another type: thicker, wider digits (upright in
    the classic design), an S of staggered reverse arrows, the wild draw four's
    cards on a plain white field, (modern) shadows falling down-left; other symbols
    stay."""
    for label in ("red-3", "blue-8", "green-1", "yellow-reverse", "wild-draw4"):
        diff = np.abs(_rgba(label, design, 0) - _rgba(label, design, 4)).mean()
        assert diff > 1.0, f"{label}: the other type looks the same ({diff:.2f})"
    # Other symbols stay; in the modern design their shadow falls the other way.
    kept = ("wild", "wild-shuffle")
    if design == "classic":
        kept += ("red-skip", "green-draw2")
    for label in kept:
        assert np.array_equal(_rgba(label, design, 1), _rgba(label, design, 5)), label
    if design == "modern":
        plain = _rgba("red-skip", design, 1)[..., :3].sum(-1)
        other = _rgba("red-skip", design, 5)[..., :3].sum(-1)
        darker = other < plain - 60  # where the new shadow fell
        w = darker.shape[1]
        assert darker.sum() > 20
        assert darker[:, : w // 2].sum() > 2 * darker[:, w // 2 :].sum()
    # The heavier 3 (narrower counters) still differs from the heavier 8.
    assert np.abs(_rgba("red-3", design, 4) - _rgba("red-8", design, 4)).mean() > 1.0
    # Thicker strokes: more of the centre is symbol colour than in variant 0.
    h, w = H, round(H * CARD_ASPECT)
    centre = np.s_[h // 3 : 2 * h // 3, w // 4 : 3 * w // 4]
    plain = _rgba("blue-1", design, 1)[centre][..., :3]
    heavy = _rgba("blue-1", design, 5)[centre][..., :3]
    white = lambda a: (a.min(axis=-1) > 200).mean()  # noqa: E731
    assert white(heavy) < white(plain)


@pytest.mark.parametrize("heavy", (False, True))
def test_the_hooked_reverse_is_an_s_cut_along_its_diagonal(heavy: bool) -> None:
    """The current deck's reverse: the same arrow twice, turned half a turn about
    the centre; their shafts lie side by side across the up-right diagonal with
    a gap along it, and the arrow heads sit at the up-right and down-left ends."""
    size = 200
    m = np.asarray(cards._hooked_reverse_mask(size, heavy)).astype(np.int16)
    assert np.abs(m - m[::-1, ::-1]).mean() < 2.0  # point symmetric
    c = size // 2
    on = lambda x, y: m[round(y), round(x)] > 127  # noqa: E731
    assert not on(c, c)  # the gap runs through the centre, along the diagonal
    step = 0.08 * size / np.sqrt(2)  # across the diagonal, up-left and down-right
    assert on(c - step, c - step) and on(c + step, c + step)
    ends = 0.3 * size / np.sqrt(2)  # along it: the heads
    assert on(c + ends, c - ends) and on(c - ends, c + ends)
    assert not on(c + ends, c + ends) and not on(c - ends, c - ends)


def test_the_modern_print_draws_the_hooked_reverse_and_keeps_it_apart() -> None:
    """Modern variants 0, 1, 4 and 5 print the hooked S, 2 and 3 (the other print)
    the arrows in line; the hooked reverse still differs from a 4 and a skip."""
    hooked = _rgba("green-reverse", "modern", 0)
    assert np.abs(hooked - _rgba("green-reverse", "modern", 2)).mean() > 1.0
    for other in ("green-4", "green-skip", "green-2"):
        assert np.abs(hooked - _rgba(other, "modern", 0)).mean() > 1.0, other


def test_the_modern_type_prints_the_flat_topped_three() -> None:
    """The current deck's type has a 3 with a flat top bar (as the other print's
    3); other digits and the other types keep theirs."""
    from referee.cards import Card

    def mask(label: str, **kw) -> np.ndarray:
        return np.asarray(cards._symbol_mask(Card.from_label(label), 100, False, **kw))

    flat = mask("red-3", heavy=True, flat=True)
    assert np.array_equal(flat, mask("red-3", heavy=True, alt=True))
    rounded = mask("red-3", heavy=True)
    assert flat.shape != rounded.shape or not np.array_equal(flat, rounded)
    # A flat top: the glyph's first rows are a bar, wider than a round top's.
    def top_width(m: np.ndarray) -> int:
        rows = np.flatnonzero((m > 127).any(axis=1))
        return int((m[rows[0] + 2] > 127).sum())

    assert top_width(flat) > 1.5 * top_width(rounded)
    eight = mask("red-8", heavy=True)
    assert np.array_equal(mask("red-8", heavy=True, flat=True), eight)


def test_the_other_type_prints_a_one_without_a_foot() -> None:
    """DejaVu's 1 stands on a foot serif as wide as the glyph; printed decks' 1 is a
    flag and a stem, so the bottom of the other type's 1 is only the stem."""
    for oblique in (False, True):
        plain = np.asarray(cards._text_mask("1", 200, oblique, False)) > 127
        heavy = np.asarray(cards._text_mask("1", 200, oblique, False, heavy=True)) > 127
        foot = lambda m: m[-max(2, m.shape[0] // 20) :].any(axis=0).sum() / m.shape[1]  # noqa: E731
        assert foot(plain) > 0.8 and foot(heavy) < 0.6, (oblique, foot(plain), foot(heavy))


def test_variants_wrap_around_after_eight() -> None:
    assert np.array_equal(_rgba("red-3", "modern", 9), _rgba("red-3", "modern", 1))


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
