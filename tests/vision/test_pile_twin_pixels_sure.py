"""A twin laid so neatly on its copy that its box lies and measures as the
copy's did (to a fraction of a mm) is still a play when the top card's pixels
are sure a card lies on it: they differ from its print by
``play.twin_pixels_sure`` grey levels or more in each of the box's newest
``settle_frames`` reads (:meth:`vision.pile_memory.PileMemory._pixels_sure`).
The referee must expect the copy (``twin_ok``), and the top's pixels as they
were leave the box's look to decide."""

from __future__ import annotations

from tests.vision.test_pile_flicker import off_config
from tests.vision.test_pile_twin_pixels import PILE, print_of, scene, with_top
from vision.hands import Reach


def _laid_neatly(table, seven, five, dx: float = 0.4, turn: float = 2.0):  # noqa: ANN001, ANN202
    """Seat B's arm reaches over the pile, then a copy of the top card lies
    on it, ``dx`` mm off and turned ``turn`` degrees: the finder's box
    ``dx`` mm off the copy's, the same size."""
    table.frames(4, scene([(seven, *PILE, 0)]), None, [Reach("B", PILE, 9000.0)])
    xy = (PILE[0] + dx, PILE[1])
    twin = scene([(seven, *PILE, 0), (five, *PILE, 0), (print_of(5), *xy, turn)])
    return table.frames(10, twin, ("red-5", xy))


def test_a_twin_boxed_as_its_copy_was_is_a_play_by_its_pixels():
    table, seven, five, _ = with_top()
    assert _laid_neatly(table, seven, five) == [["red-5"]]


def test_the_top_left_as_it_lay_after_an_arm_reached_in_is_no_twin():
    """The arm reached over the pile and left: the top card's box and pixels
    are as they were."""
    table, seven, five, laid = with_top()
    table.frames(4, scene([(seven, *PILE, 0)]), None, [Reach("B", PILE, 9000.0)])
    assert table.frames(10, laid, ("red-5", PILE)) == []


def test_no_twin_by_pixels_where_the_referee_expects_none():
    """A neat twin's pixels but not the turn of the arm's seat: the box's
    look decides, and it lies as the copy lay."""
    table, seven, five, _ = with_top()
    table.state.update(turn="A")
    assert _laid_neatly(table, seven, five) == []


def test_the_pixels_must_stay_sure_for_settle_frames_reads():
    """The pixels changed for one read only (a shadow, a sleeve over the
    edge): no twin."""
    table, seven, five, laid = with_top()
    table.frames(4, scene([(seven, *PILE, 0)]), None, [Reach("B", PILE, 9000.0)])
    twin = scene([(seven, *PILE, 0), (five, *PILE, 0), (print_of(5), PILE[0] + 0.4, PILE[1], 2.0)])
    assert table.frames(1, twin, ("red-5", PILE)) == []
    assert table.frames(10, laid, ("red-5", PILE)) == []


def test_off_the_neat_twin_is_missed():
    table, seven, five, _ = with_top(off_config("twin_pixels_sure", 0.0))
    assert _laid_neatly(table, seven, five) == []


def test_the_pixel_difference_is_read_only_once_an_arm_has_reached_in():
    """No pixels are compared before an arm reaches in after the top card
    was taken (nothing can have been laid on it); after one, each frame's."""
    table, seven, _, laid = with_top()
    memory = table.plays.watcher.memory
    table.frames(5, laid, ("red-5", PILE))
    assert memory._print_diffs == []
    table.frames(2, scene([(seven, *PILE, 0)]), None, [Reach("B", PILE, 9000.0)])
    table.frames(3, laid, ("red-5", PILE))
    assert len(memory._print_diffs) == 3
    assert all(diff < 1.0 for _, _, diff in memory._print_diffs)


def test_a_twin_whose_still_window_reaches_back_past_the_arm_is_judged_again():
    """The arm hid the pile for two frames only: the twin's still window
    takes in the copy's read from before the arm came (the same box), whose
    pixels are the copy's. The box is judged again until its newest reads
    all show the twin's pixels, and then it is a play."""
    table, seven, five, laid = with_top()
    table.frames(3, laid, ("red-5", PILE))
    table.frames(2, scene([(seven, *PILE, 0)]), None, [Reach("B", PILE, 9000.0)])
    xy = (PILE[0] + 0.4, PILE[1])
    twin = scene([(seven, *PILE, 0), (five, *PILE, 0), (print_of(5), *xy, 2.0)])
    assert table.frames(10, twin, ("red-5", xy)) == [["red-5"]]


def test_a_later_arm_over_a_twin_laid_and_missed_before_it_lays_nothing():
    """A copy was laid neatly by an arm the referee did not expect it from
    (missed: its box lies as its copy's). The next arm, whose seat may lay a
    copy, reaches over the pile and leaves: the pixels differ from the print
    as they did before it came, so it laid nothing."""
    table, seven, five, _ = with_top()
    table.frames(4, scene([(seven, *PILE, 0)]), None, [Reach("A", PILE, 9000.0)])
    xy = (PILE[0] + 0.4, PILE[1])
    twin = scene([(seven, *PILE, 0), (five, *PILE, 0), (print_of(5), *xy, 2.0)])
    assert table.frames(8, twin, ("red-5", xy)) == []
    table.frames(4, twin, None, [Reach("B", PILE, 9000.0)])
    assert table.frames(10, twin, ("red-5", xy)) == []
