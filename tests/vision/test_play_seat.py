"""Who put the card down (issue 25): the seat of the arm that came onto the
discard pile last. An arm that stays there after putting its card down (or
its ghost, while the hands' background takes the cloth back in) is not the
one bringing the next card."""

from __future__ import annotations

from tests.vision.test_plays_uno import PILE, Table, card
from vision.config import PlayConfig
from vision.hands import Reach


def lingering(tip=(344.0, 268.0)) -> Reach:
    return Reach("A", tip, 3500.0)


def test_the_arm_that_came_last_names_the_seat_not_one_that_stayed():
    table = Table(attribute_players=True)
    table.frames(6, [card("red-7", *PILE)])
    # A puts a red 3 down; its arm (or its ghost) stays on the pile's edge
    table.frames(3, [card("red-7", *PILE)], reaches=[Reach("A", PILE, 9000.0)])
    played = table.frames(6, [card("red-3", 331, 211)], reaches=[lingering()])
    assert [(e["cards"], e["player"]) for e in played] == [(["red-3"], "A")]
    table.frames(10, [card("red-3", 331, 211)], reaches=[lingering()])
    # B's arm comes in while A's is still listed there (listed last)
    table.frames(3, [], reaches=[Reach("B", PILE, 20000.0), lingering()])
    events = table.frames(6, [card("red-8", 333, 213)])
    assert [(e["cards"], e["player"]) for e in events] == [(["red-8"], "B")]


def test_an_arm_missing_from_a_frame_or_two_keeps_its_arrival():
    table = Table(attribute_players=True)
    table.frames(6, [card("red-7", *PILE)])
    table.frames(3, [], reaches=[Reach("A", PILE, 9000.0)])
    table.frames(2, [], reaches=[Reach("A", PILE, 9000.0), Reach("B", PILE, 9000.0)])
    # A's arm drops out of one frame (under arrival_gap_s) and shows again
    assert 1 / 15 < PlayConfig().arrival_gap_s
    table.frames(1, [], reaches=[Reach("B", PILE, 9000.0)])
    table.frames(2, [], reaches=[Reach("B", PILE, 9000.0), Reach("A", PILE, 9000.0)])
    events = table.frames(6, [card("red-3", 331, 211)])
    assert [(e["cards"], e["player"]) for e in events] == [(["red-3"], "B")]
