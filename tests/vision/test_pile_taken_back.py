"""A card of another label held over the top card and taken back: the hand
that reached in held that card over the pile (read there in the hand), took
it away again (seen in the hand after the arm left the zone), and the top
card shows again. Its box, uncovered, may differ from every look it showed
before by a little more than ``play.look_mm``: it is still the top card,
no twin, even while the referee expects one from that arm. A twin laid
neatly, with nothing taken away, stays a play."""

from __future__ import annotations

from tests.vision.test_pile_twins import card, pile_with, reach

TOP = ("blue-3", 326.4, 211.7, 102.7, 116.0)
# the top card's box once the hand has gone: 2.2 mm narrower, 1.3 mm shorter
# (over look_mm off every look it showed, under twin_moved_mm / twin_size_mm)
AGAIN = ("blue-3", 326.5, 211.1, 100.5, 114.7)


# a hand swaying a card over the pile, a few millimetres a frame
SWAY = [(313, 205), (327, 213), (329, 211), (330, 208), (332, 207), (334, 208),
        (337, 208), (336, 207), (336, 207), (334, 207), (332, 205), (329, 208),
        (329, 211), (330, 209), (331, 207), (333, 206), (335, 207)]


def _held_over(table, label: str) -> None:
    """Seat B's arm holds a card of ``label`` over the top card, swaying it
    (the pile's track reads it in the hand), for about a second."""
    for x, y in SWAY:
        table.frames(1, [card(label, x, y, 88, 115, True)], reach("B"))


def _taken_away(table, label: str, path) -> list:
    """The hand carries its card of ``label`` along ``path`` (read in the
    hand, the top card uncovered beside it), then ten frames of the top card
    alone: the events of those frames."""
    events = []
    for x, y in path:
        events += table.frames(1, [card(*AGAIN), card(label, x, y, 88, 115, True)])
    return events + table.frames(10, [card(*AGAIN)])


def test_a_card_held_over_the_top_card_and_taken_back_is_no_twin():
    table = pile_with(TOP)
    table.frames(8, [card(*TOP)])
    _held_over(table, "blue-2")
    # the hand leaves with its blue-2 (seen in the hand, out of the zone)
    # and the top card shows again
    assert _taken_away(table, "blue-2", ((200, 120), (150, 80), (110, 50))) == []


def test_a_twin_laid_neatly_after_the_same_reach_is_still_a_play():
    """The arm brings the twin in over the pile (read as the top's label in
    the hand), lays it and leaves with nothing in the hand: a play."""
    table = pile_with(TOP)
    table.frames(8, [card(*TOP)])
    _held_over(table, "blue-3")
    events = table.frames(10, [card(*AGAIN)])
    assert [e["cards"] for e in events] == [["blue-3"]]


def test_a_copy_of_the_top_card_held_over_it_and_taken_back_is_no_twin_until_laid():
    """The player holds the twin over its copy, takes it back (seen in the
    hand after the arm left) and lays it a second later: one play, when it
    is laid."""
    table = pile_with(TOP)
    table.frames(8, [card(*TOP)])
    _held_over(table, "blue-3")
    assert _taken_away(table, "blue-3", ((300, 300), (300, 340), (300, 380))) == []
    _held_over(table, "blue-3")
    twin = ("blue-3", 329.0, 207.0, 101.0, 114.0)
    events = table.frames(10, [card(*twin)])
    assert [e["cards"] for e in events] == [["blue-3"]]


def test_a_copy_taken_back_out_of_the_zone_while_the_arm_still_shows_there_is_no_twin():
    """The arm's tip still shows in the zone (a frame longer than the card it
    holds) when the copy it takes back is seen out of the zone: the copy
    left the zone in the hand after it was held over the top card, so no
    copy was carried in, and the top card showing again is no play."""
    table = pile_with(TOP)
    table.frames(8, [card(*TOP)])
    _held_over(table, "blue-3")
    events = []
    for y in (330, 380):  # out of the discard zone, the arm's tip still in it
        events += table.frames(1, [card("blue-3", 330, y, 88, 115, True)], reach("B"))
    events += table.frames(1, [card(*TOP, touched=True)], reach("B"))
    events += table.frames(10, [card(*TOP)])
    assert events == []
