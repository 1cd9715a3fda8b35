"""Let go and a box over ``max_scale`` that sticks out of the pile only
toward the hand, grown at that end only: the card and the fingers lingering
at its near end, no wider than the top card's box across
(``play.handed_grow``, :func:`vision.pile.grown_round`). Seen coming
in and lying still, it counts at the settle time, as one up to
``max_scale`` does; a box grown on every side (a card held up nearer the
camera) waits for the hand. Hand-made detections at 30 fps with a referee's
state (``TOP``'s box is 60 x 90 mm)."""

from __future__ import annotations

import pytest

from tests.vision.test_pile_let_go_hand_side import NEAR_END, TOP, shown
from vision import pile
from vision.card_scale import card_scale
from vision.config import PlayConfig

CARD = (56.0, 87.0)
LONG = (60.0, 110.0)  # as wide as the top card's box, 20 mm longer
WIDE = (70.0, 112.0)  # 10 mm wider and 22 mm longer


def test_the_boxes_are_as_the_tests_say():
    config = PlayConfig()
    for wh in (LONG, WIDE):
        assert config.max_scale < card_scale(*wh, CARD) <= config.loose_scale
    assert pile.grown_round(LONG, TOP[3:]) <= config.handed_grow
    assert pile.grown_round(WIDE, TOP[3:]) > config.handed_grow


def test_a_box_grown_at_the_hand_s_end_only_counts_at_the_settle_time():
    played, rest = shown(PlayConfig(), LONG, NEAR_END, moving=True)
    assert [c for _, c in played] == [["red-2"]]
    assert played[0][0] - rest <= 0.2  # a settle time, not the 0.67 s it stays


@pytest.mark.parametrize("wh", [WIDE])
def test_a_box_grown_on_every_side_waits_for_the_hand(wh):
    assert shown(PlayConfig(), wh, NEAR_END, moving=True)[0] == []


def test_with_the_rule_off_it_waits_for_the_hand():
    assert shown(PlayConfig(handed_grow=0.0), LONG, NEAR_END, moving=True)[0] == []
