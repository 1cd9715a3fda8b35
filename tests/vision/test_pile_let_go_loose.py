"""A card put down on the pile whose box measures more than ``max_scale``
(the fingers lingering on it, or the edges of the cards below taken in) and
a card boxed twice under the hand that let go of it: judged at let go, or
as soon as the arm is seen gone, instead of waiting for the hand to leave or
``loose_s`` to pass. A card held over the pile, an arm that fades where it is
and a box covered by a card of another label still wait. Hand-made
detections at 30 fps with a referee's state."""

from __future__ import annotations

import pytest

from tests.vision.pile_table import PILE, card
from tests.vision.test_pile_let_go_twin import pile_with, reach
from vision.card_scale import card_scale
from vision.config import PlayConfig
from vision.hands import Reach

CARD = (56.0, 87.0)
TOP = ("red-3", *PILE, 66.0, 100.0)  # the pile: red-7 and this red-3 on it
# a loose box of a red-2 on the pile: over max_scale, at most loose_scale,
# within the pile's extent, grown on every side past round_grow
LOOSE = (72.0, 112.0)
NEAR = (PILE[0] - 30.0, PILE[1] + 70.0)  # the lingering hand's tip
OUT = (500.0, 330.0)  # seat B's arm on its way back, out of the zone


def test_the_boxes_are_as_the_tests_say():
    config = PlayConfig()
    assert config.max_scale < card_scale(*LOOSE, CARD) <= config.loose_scale
    assert min(LOOSE[0] / TOP[3], LOOSE[1] / TOP[4]) - 1 > config.round_grow
    assert abs(LOOSE[1] - TOP[4]) / 2 <= config.same_spot_mm  # within the extent


def _hidden(config: PlayConfig):  # noqa: ANN202
    """``TOP`` on the pile; seat B's hand brings a card in over it, hiding it."""
    table = pile_with(config, TOP)
    table.frames(5, [], reach("B", NEAR))
    return table, table.t


def test_a_loose_box_shown_still_under_the_hand_counts_at_let_go():
    table, rest = _hidden(PlayConfig())
    played = table.frames(20, [card("red-2", *PILE, *LOOSE, True)], reach("B", NEAR))
    assert [c for _, c in played] == [["red-2"]]
    assert played[0][0] - rest <= 0.2  # a settle time, not the 0.67 s it stays


def test_a_loose_box_come_into_view_held_still_waits_for_the_hand():
    """The top card stayed in view: the box did not show from under the hand
    (a card held a little above the pile)."""
    table = pile_with(PlayConfig(), TOP)
    table.frames(5, [card(*TOP)], reach("B", NEAR))
    rows = [card(*TOP), card("red-2", *PILE, *LOOSE, True)]
    assert table.frames(20, rows, reach("B", NEAR)) == []


def test_with_shown_loose_off_the_loose_box_waits_for_the_hand():
    table, _ = _hidden(PlayConfig(shown_loose=False))
    assert table.frames(20, [card("red-2", *PILE, *LOOSE, True)], reach("B", NEAR)) == []


def test_a_loose_box_counts_once_the_arm_is_seen_gone():
    """The hand let go and left: its arm shows out of the zone, far from the
    box, while the box lies still: the settle time, not loose_s."""
    config = PlayConfig()
    table, _ = _hidden(config)
    shown = table.t
    played = table.frames(20, [card("red-2", *PILE, *LOOSE)], reach("B", OUT))
    assert [c for _, c in played] == [["red-2"]]
    assert played[0][0] - shown <= 0.2 < config.loose_s


def test_a_loose_box_whose_arm_faded_waits_loose_s():
    """No arm seen gone (a hand held still fades into the background where
    it is): the box waits loose_s."""
    config = PlayConfig()
    table, _ = _hidden(config)
    shown = table.t
    played = table.frames(30, [card("red-2", *PILE, *LOOSE)])
    assert [c for _, c in played] == [["red-2"]]
    assert played[0][0] - shown >= config.loose_s - 1e-6


def test_another_seat_s_arm_seen_away_is_no_sign():
    config = PlayConfig()
    table, _ = _hidden(config)
    shown = table.t
    played = table.frames(30, [card("red-2", *PILE, *LOOSE)], [Reach("C", OUT, 9000.0)])
    assert played and played[0][0] - shown >= config.loose_s - 1e-6


def test_with_loose_left_off_the_loose_box_waits_loose_s():
    config = PlayConfig(loose_left=False)
    table, _ = _hidden(config)
    shown = table.t
    played = table.frames(30, [card("red-2", *PILE, *LOOSE)], reach("B", OUT))
    assert played and played[0][0] - shown >= config.loose_s - 1e-6


# the card under the fingers, its near end hidden by them (boxed short), and
# the card with the fingers (a second, touched box of its label)
SHORT = ("red-2", PILE[0], PILE[1] - 8.0, 60.0, 76.0)
WITH_HAND = (PILE[0], PILE[1] + 30.0, 64.0, 150.0)


@pytest.mark.parametrize("touched", [False, True])
def test_a_card_boxed_again_with_the_hand_counts_at_let_go(touched):
    table, rest = _hidden(PlayConfig())
    rows = [card(*SHORT, touched), card("red-2", *WITH_HAND, True)]
    played = table.frames(20, rows, reach("B", NEAR))
    assert [c for _, c in played] == [["red-2"]]
    assert played[0][0] - rest <= 0.2


def test_a_card_covered_by_a_held_card_of_another_label_waits():
    table, _ = _hidden(PlayConfig())
    rows = [card(*SHORT), card("green-1", *WITH_HAND, True)]
    assert table.frames(20, rows, reach("B", NEAR)) == []


def test_with_own_box_off_the_card_boxed_again_waits():
    table, _ = _hidden(PlayConfig(own_box=False))
    rows = [card(*SHORT), card("red-2", *WITH_HAND, True)]
    assert table.frames(20, rows, reach("B", NEAR)) == []
