"""A twin laid a little off its copy and boxed short by the finder (under
``play.shrunk`` of a whole card) with no hand left over the pile: the box
reaches out past the top card's, so it is no part of the top card partly
covered (that lies within its own box), and the top card's pixels are sure a
card lies on it: a play (:meth:`vision.pile_memory.PileMemory._twin_boxed_short`).
"""

from __future__ import annotations

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

SHORT = 10.0  # mm the finder's box misses at the card's lower end
OFF = -5.0  # mm the twin lies left of its copy: its box reaches out past the copy's


def test_the_short_box_is_under_shrunk():
    w, h = SIZE
    assert card_scale(w, h - SHORT, SIZE) < PlayConfig().shrunk


def test_a_twin_boxed_short_with_no_hand_over_it_is_a_play():
    table, seven, five, _ = with_top()
    table.frames(4, scene([(seven, *PILE, 0)]), None, [Reach("B", PILE, 9000.0)])
    xy = (PILE[0] + OFF, PILE[1])
    twin = scene([(seven, *PILE, 0), (five, *PILE, 0), (print_of(5), *xy, 2.0)])
    assert frames_short(table, 12, twin, xy, SHORT) == [["red-5"]]


def test_the_top_card_partly_covered_within_its_box_is_no_twin():
    """The same short box lying within the top card's box (what is left of
    the top card with its lower end covered): no card, whatever the pixels."""
    table, seven, five, _ = with_top()
    table.frames(4, scene([(seven, *PILE, 0)]), None, [Reach("B", PILE, 9000.0)])
    twin = scene([(seven, *PILE, 0), (five, *PILE, 0), (print_of(5), PILE[0] + 0.4, PILE[1], 2.0)])
    assert frames_short(table, 12, twin, PILE, SHORT) == []


def test_no_twin_boxed_short_where_the_referee_expects_none():
    table, seven, five, _ = with_top()
    table.state.update(turn="A")
    table.frames(4, scene([(seven, *PILE, 0)]), None, [Reach("B", PILE, 9000.0)])
    xy = (PILE[0] + OFF, PILE[1])
    twin = scene([(seven, *PILE, 0), (five, *PILE, 0), (print_of(5), *xy, 2.0)])
    assert frames_short(table, 12, twin, xy, SHORT) == []


def test_no_twin_boxed_short_while_the_arm_is_over_the_pile():
    table, seven, five, _ = with_top()
    table.frames(4, scene([(seven, *PILE, 0)]), None, [Reach("B", PILE, 9000.0)])
    xy = (PILE[0] + OFF, PILE[1])
    twin = scene([(seven, *PILE, 0), (five, *PILE, 0), (print_of(5), *xy, 2.0)])
    arm = [Reach("B", PILE, 9000.0)]
    assert frames_short(table, 12, twin, xy, SHORT, arm) == []
