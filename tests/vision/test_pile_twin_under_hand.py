"""A twin put down under a hand that lingers on it: the finder's box of the
twin is short (under ``play.shrunk`` of a whole card: the fingers cover its
near end) while the hand stays. Where the referee expects the copy from the
arm at the pile and the top card's pixels, where no hand lies over them, are
sure a card lies on it, the box is that twin, a play before the hand leaves
(:meth:`vision.pile_memory.PileMemory._twin_under_hand`); the top card partly
covered by a hand leaves its pixels as they were, and waits."""

from __future__ import annotations

import pytest

from tests.vision.test_pile_twin_pixels import (
    PILE,
    SIZE,
    frames_short,
    print_of,
    scene,
    with_top,
)
from vision.card_scale import card_scale
from vision.config import PlayConfig
from vision.hands import Reach

SHORT = 12.0  # mm of the twin's near end the fingers hide from the finder
OFF = (PILE[0] + 9.0, PILE[1])  # the twin lies 9 mm off its copy, turned 2 degrees
ARM = [Reach("B", PILE, 9000.0)]


def test_the_box_under_the_hand_is_under_shrunk():
    w, h = SIZE
    assert card_scale(w, h - SHORT, SIZE) < PlayConfig().shrunk


def twin_laid(table, seven, five):  # noqa: ANN001, ANN201
    table.frames(4, scene([(seven, *PILE, 0)]), None, ARM)
    return scene([(seven, *PILE, 0), (five, *PILE, 0), (print_of(5), *OFF, 2.0)])


def test_a_twin_under_a_lingering_hand_is_a_play_before_the_hand_leaves():
    table, seven, five, _ = with_top()
    twin = twin_laid(table, seven, five)
    # the hand stays on the twin: its box touched and short, the arm at the pile
    assert frames_short(table, 10, twin, OFF, SHORT, ARM, touched=True) == [["red-5"]]


def test_off_the_twin_under_a_lingering_hand_waits_for_the_hand():
    table, seven, five, _ = with_top(PlayConfig(twin_under_hand=False))
    twin = twin_laid(table, seven, five)
    assert frames_short(table, 10, twin, OFF, SHORT, ARM, touched=True) == []


def test_the_top_card_partly_covered_by_a_hand_is_no_twin():
    """The same short box under the hand with the top card's pixels as they
    were (no card laid on it): no play while the hand stays."""
    table, seven, five, laid = with_top()
    table.frames(4, laid, None, ARM)
    assert frames_short(table, 10, laid, OFF, SHORT, ARM, touched=True) == []


def test_no_twin_under_a_hand_where_the_referee_expects_none():
    table, seven, five, _ = with_top()
    table.state.update(turn="A")
    twin = twin_laid(table, seven, five)
    assert frames_short(table, 10, twin, OFF, SHORT, ARM, touched=True) == []
