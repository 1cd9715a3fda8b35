"""A twin laid neatly on its copy (issue 25): its box may differ from the
copy's by about what a box jitters, shorter on one side only. Such a box is
no copy cut by an edge (that loses ``play.cut_min_mm`` or more): the pile's
top changed after the arm reached in, so the card is a play."""

from __future__ import annotations

from tests.vision.test_pile_twins import card, pile_with, reach
from vision.config import PlayConfig


def test_a_twin_laid_neatly_two_mm_shorter_on_one_side_is_a_play():
    # the copy as taken, then lying untouched in the look it was taken with
    table = pile_with(("wild", 327, 206, 84, 107))
    table.frames(8, [card("wild", 327, 206, 84, 107)])
    table.frames(4, [], reach("B"))
    # the twin: 2 mm shorter, its upper edge 3 mm in and its lower edge 1 mm out
    # (a look the copy never showed: over look_mm off it)
    events = table.frames(8, [card("wild", 327, 208.2, 84, 104.9)])
    assert [e["cards"] for e in events] == [["wild"]]


def test_a_cut_of_at_least_cut_min_mm_is_still_the_copy_cut_by_an_edge():
    table = pile_with(("wild", 327, 206, 84, 107))
    table.frames(8, [card("wild", 327, 206, 84, 107)])
    table.frames(4, [], reach("B"))
    cut = PlayConfig().cut_min_mm + 1.0  # the lower end under a hand, the upper edge kept
    box = card("wild", 327, 206 - cut / 2, 84, 107 - cut, True)
    assert table.frames(8, [box]) == []


def test_a_twin_narrower_on_one_side_with_no_hand_over_it_is_a_play():
    """The copy's box took in an edge of the card below; the twin laid on it
    keeps one edge and is 7 mm narrower. No hand is over it (the arm left, its
    reads untouched): nothing covers the copy, so the narrower box is a twin."""
    table = pile_with(("blue-3", 342, 209, 91, 102))
    table.frames(8, [card("blue-3", 342, 209, 91, 102)])
    table.frames(4, [], reach("B"))
    events = table.frames(8, [card("blue-3", 338.5, 208, 84, 102)])
    assert [e["cards"] for e in events] == [["blue-3"]]
