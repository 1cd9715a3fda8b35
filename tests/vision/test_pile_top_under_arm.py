"""An arm over the pile leaves part of the top card in view: a box of the top
card's label, still, under the arm, with its centre on the top card and no
larger than it, is that card, not a second copy carried in a hand; nor does
it become one of its own. Once the arm has left, the top card showing whole
again is no play, though the referee expects a card from the seat whose arm
passed (a copy of the top card would be legal). Hand-made detections at
15 fps with a referee's state."""

from __future__ import annotations

import numpy as np

from tests.vision.pile_table import PLAYERS, PileTable, card
from vision.card_scale import card_scale
from vision.config import PlayConfig
from vision.geometry import CARD_MM
from vision.hands import Reach

FPS = 15.0
TOP = ("wild-draw4", 330.5, 207.6, 81.5, 106.5)  # the top card's box lying whole
DRAW = (208.0, 212.0)  # on the draw pile, beside the discard pile


def table_b_to_move() -> PileTable:
    """Frames through a tracker and the play detector; seat B to move on a red-5."""
    return PileTable(PlayConfig(), FPS, state=dict(
        phase="turn", turn="B", top="red-5", color="red", pending_draw=0,
        players=list(PLAYERS)))


def arm_over_the_pile(cut) -> list[list[str]]:
    """The wild draw four lies on the pile (seat B put it down); seat C, to
    move, reaches over the pile to the draw pile and back: its arm drags the
    top card's box aside and leaves the ``cut`` box of the card's near end in
    view, then goes."""
    table = table_b_to_move()
    table.frames(8, [card("red-5", 330.0, 210.0, 80.0, 106.0)])
    table.frames(3, [], [Reach("B", (330.0, 210.0), 9000.0)])
    table.frames(12, [card(*TOP)])
    table.state.update(turn="C", top="wild-draw4", color="blue")
    over, draw = [Reach("C", (324.0, 130.0), 9000.0)], [Reach("C", DRAW, 9000.0)]
    table.frames(1, [card("wild-draw4", 342.8, 198.3, 100.7, 142.0, True)], over)
    dragged = card("wild-draw4", 340.6, 215.0, 96.2, 100.3, True)
    table.frames(6, [dragged, cut], draw)  # the hand on the draw pile
    table.frames(1, [card("wild-draw4", 340.7, 208.1, 99.9, 127.6, True)], over)
    table.frames(1, [card("wild-draw4", 330.7, 207.9, 81.4, 106.7)],
                 [Reach("C", (416.0, 144.0), 9000.0)])
    table.frames(12, [card("wild-draw4", 330.6, 207.7, 81.5, 106.6)])
    return table.seen


def test_the_top_card_cut_by_an_arm_is_no_copy_carried_in():
    cut = card("wild-draw4", 323.1, 235.8, 95.8, 74.9, True)
    config = PlayConfig()
    # a whole card as a carried card is measured, off the top card's centre
    # by more than same_card_mm, yet its centre on the top card
    assert card_scale(cut[3], cut[4], CARD_MM) >= config.carry_scale
    assert np.hypot(cut[1] - TOP[1], cut[2] - TOP[2]) > config.same_card_mm
    assert abs(cut[2] - TOP[2]) <= TOP[4] / 2
    assert arm_over_the_pile(cut) == [["red-5"], ["wild-draw4"]]


def test_a_copy_held_up_over_the_pile_is_still_one_carried_in():
    """A copy held up (nearer the camera: larger than the top card's box)
    marks a second copy on its way in; set down where the top card lay, it
    is a play."""
    held = card("wild-draw4", 323.1, 235.8, 92.0, 122.0, True)
    assert card_scale(held[3], held[4], CARD_MM) > card_scale(TOP[3], TOP[4], CARD_MM)
    assert arm_over_the_pile(held) == [["red-5"], ["wild-draw4"], ["wild-draw4"]]


def arm_passes_twice(cut, ghost_frames: int) -> list[list[str]]:
    """The wild draw four on the pile; seat C's arm passes over it to the
    draw pile twice, cutting it to the ``cut`` box each time. The second
    time the hand tracker loses the arm over the pile: the cut box lies
    still, untouched, ``ghost_frames`` frames before the arm is seen again."""
    table = table_b_to_move()
    table.frames(8, [card("red-5", 330.0, 210.0, 80.0, 106.0)])
    table.frames(3, [], [Reach("A", (330.0, 210.0), 9000.0)])
    whole = card("wild-draw4", 325.2, 209.5, 88.5, 109.6)
    table.frames(12, [whole])
    table.state.update(turn="C", top="wild-draw4", color="blue", pending_draw=4)
    over, draw = [Reach("C", (324.0, 130.0), 9000.0)], [Reach("C", DRAW, 9000.0)]
    touched = card(*cut[:5], True)
    for ghost in (0, ghost_frames):
        table.frames(1, [card("wild-draw4", 324.3, 215.4, 93.8, 108.7, True)], over)
        table.frames(6, [touched], draw)
        table.frames(ghost, [card(*cut[:5])])
        table.frames(1, [card("wild-draw4", 324.4, 207.3, 89.0, 116.7, True)], over)
        table.frames(12, [whole])
    return table.seen


def test_the_top_card_cut_by_an_arm_the_hand_tracker_lost_is_no_play():
    """The cut box shows a look of the top card seen before (under the arm's
    first pass), its centre on the top card though farther than
    same_card_mm from the top card's: that card again."""
    cut = ("wild-draw4", 325.5, 231.7, 97.5, 83.2)
    config = PlayConfig()
    assert np.hypot(cut[1] - 325.2, cut[2] - 209.5) > config.same_card_mm
    assert arm_passes_twice(cut, 8) == [["red-5"], ["wild-draw4"]]
