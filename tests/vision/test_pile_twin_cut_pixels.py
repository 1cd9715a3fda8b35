"""A twin laid on its copy while the hand is still over the pile, boxed
shorter on one side only (as the copy cut by an edge would be): the top
card's pixels, sure a card lies on it, decide before the cut does."""

from __future__ import annotations

from tests.vision.test_pile_twin_pixels import PILE, frames_short, print_of, scene, with_top
from vision.config import PlayConfig
from vision.hands import Reach

CUT = PlayConfig().cut_min_mm + 1.0


def test_a_twin_boxed_cut_under_the_arm_is_a_play_by_its_pixels():
    table, seven, five, _ = with_top()
    table.frames(4, scene([(seven, *PILE, 0)]), None, [Reach("B", PILE, 9000.0)])
    xy = (PILE[0] + 0.4, PILE[1])
    twin = scene([(seven, *PILE, 0), (five, *PILE, 0), (print_of(5), *xy, 2.0)])
    arm = [Reach("B", (PILE[0], PILE[1] + 60.0), 9000.0)]  # still over the zone
    assert frames_short(table, 10, twin, xy, CUT, arm) == [["red-5"]]


def test_the_copy_cut_under_the_arm_with_its_pixels_unchanged_is_no_twin():
    table, seven, five, laid = with_top()
    table.frames(4, scene([(seven, *PILE, 0)]), None, [Reach("B", PILE, 9000.0)])
    arm = [Reach("B", (PILE[0], PILE[1] + 60.0), 9000.0)]
    assert frames_short(table, 10, laid, PILE, CUT, arm) == []
