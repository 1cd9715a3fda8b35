"""Let go and a box that sticks out of the pile toward the hand: a card put
down over the pile, the hand lingering at its near end, is boxed with the
fingers, which lengthen its box toward the arm and out of the pile's extent.
It is judged at let go as a box within the pile's extent: once it showed
still from under the hand that hid it, however large the card and the
fingers measure together, or, up to ``max_scale``, once it lay still after it
was seen coming in. A box sticking out on the side away from the hand, one
reaching farther than fingers, and one that came into view held still wait
for the hand to leave. Hand-made detections at 30 fps with a referee's
state."""

from __future__ import annotations

import pytest

from tests.vision.pile_table import PILE, card
from tests.vision.test_pile_let_go_twin import pile_with, reach
from vision.card_scale import card_scale
from vision.config import PlayConfig
from vision.hands import Reach

CARD = (56.0, 87.0)
TOP = ("red-3", *PILE, 60.0, 90.0)  # the pile: red-7 and this red-3 on it


def spot(wh, past: float = 17.0):  # noqa: ANN001
    """Where a box ``wh`` lies, laid a little toward seat B's side, reaching
    ``past`` mm out past the pile's extent (``TOP``'s box)."""
    return (PILE[0], PILE[1] + 45.0 + past - wh[1] / 2)


# the card with the fingers at its near end: over let_go_scale, at most
# max_scale; and with the fingers spread wider, over max_scale
FINGERS = (60.0, 100.0)
HAND = (62.0, 112.0)
NEAR_END = (PILE[0], PILE[1] + 80.0)  # the lingering hand's tip, past the near end
FAR_END = (PILE[0], PILE[1] - 60.0)  # a tip on the other side of the card


def shown(  # noqa: ANN201
    config: PlayConfig, wh, tip, moving: bool = False, past: float = 17.0  # noqa: ANN001
):
    """``TOP`` on the pile; seat B's hand brings a red-2 in over it, hiding
    the pile (``moving``: the red-2 seen in the hand on its way first), then
    rests with the red-2 showing under its fingers; the plays while the hand
    lingers, and when the hand came to rest."""
    table = pile_with(config, TOP)
    x, y = spot(wh, past)
    if moving:
        for dy in (-6, -3, 0, 3):
            table.frames(1, [card("red-2", x, y + dy, *wh, True)], reach("B", tip))
    else:
        table.frames(5, [], reach("B", tip))  # the hand over the pile hides it
    rest = table.t
    played = table.frames(20, [card("red-2", x, y, *wh, True)], reach("B", tip))
    return played, rest


def test_the_boxes_are_as_the_tests_say():
    config = PlayConfig()
    assert config.let_go_scale < card_scale(*FINGERS, CARD) <= config.max_scale
    assert card_scale(*HAND, CARD) > config.max_scale
    for wh in (FINGERS, HAND):
        # out of the pile's extent (same_spot_mm to spare) at the near end
        # only, by less than same_card_mm
        x, y = spot(wh)
        assert PILE[1] + 45.0 + config.same_spot_mm < y + wh[1] / 2
        assert y + wh[1] / 2 <= PILE[1] + 45.0 + config.same_card_mm
        assert y - wh[1] / 2 > PILE[1] - 45.0 - config.same_spot_mm
        assert (NEAR_END[1] - y) / wh[1] >= config.hand_side
        assert (FAR_END[1] - y) / wh[1] <= -config.hand_side


@pytest.mark.parametrize("wh", [FINGERS, HAND])
def test_a_box_sticking_out_toward_the_hand_counts_once_it_shows_still(wh):
    config = PlayConfig()
    played, rest = shown(config, wh, NEAR_END)
    assert [c for _, c in played] == [["red-2"]]
    assert played[0][0] - rest <= 0.2  # a settle time, not the 0.67 s it stays


@pytest.mark.parametrize("wh", [FINGERS, HAND])
def test_a_box_sticking_out_away_from_the_hand_waits_for_the_hand(wh):
    played, _ = shown(PlayConfig(), wh, FAR_END)
    assert played == []


def test_a_card_seen_coming_in_and_put_down_so_counts_at_the_settle_time():
    """Seen in the hand on its way for a few frames (no hover), then lying
    still under the fingers: as a box within the pile's extent."""
    played, rest = shown(PlayConfig(), FINGERS, NEAR_END, moving=True)
    assert [c for _, c in played] == [["red-2"]]
    assert played[0][0] - rest <= 0.2


def test_the_card_and_hand_over_max_scale_seen_coming_in_waits_for_the_hand():
    """A box over max_scale that did not show from under the hand may be a
    card held up high: it waits, as within the pile's extent."""
    assert shown(PlayConfig(), HAND, NEAR_END, moving=True)[0] == []


def test_a_card_come_into_view_held_still_waits_for_the_hand():
    """Neither seen coming in nor shown from under a hand that hid the pile
    (the top card stayed in view): it may be held still over the pile."""
    table = pile_with(PlayConfig(), TOP)
    table.frames(5, [card(*TOP)], reach("B", NEAR_END))
    x, y = spot(FINGERS)
    played = table.frames(20, [card(*TOP), card("red-2", x, y, *FINGERS, True)],
                          reach("B", NEAR_END))
    assert played == []


@pytest.mark.parametrize("entry, counts", [
    ((PILE[0] - 30.0, 420.0), True),  # the arm comes from below: the near end
    ((-5.0, PILE[1] + 60.0), False),  # from the left: the end below is no hand's
])
def test_the_arm_s_way_back_to_where_it_enters_says_the_hand_s_side(entry, counts):
    """With the arm's entry known, the way back along the arm (tip to entry)
    says which ends face the hand, not where its tip lies."""
    config = PlayConfig()
    table = pile_with(config, TOP)
    x, y = spot(FINGERS)
    arm = [Reach("B", NEAR_END, 9000.0, entry)]
    table.frames(5, [], arm)
    played = table.frames(20, [card("red-2", x, y, *FINGERS, True)], arm)
    assert ([c for _, c in played] == [["red-2"]]) is counts


def test_a_box_reaching_farther_than_fingers_waits_for_the_hand():
    """Out past the pile by more than ``same_card_mm``: the hand is in the
    box, whose centre lies well off the card's."""
    config = PlayConfig()
    played, _ = shown(config, HAND, NEAR_END, past=config.same_card_mm + 8.0)
    assert played == []


def test_with_the_hand_side_off_it_waits_for_the_hand():
    played, _ = shown(PlayConfig(hand_side=0.0), FINGERS, NEAR_END)
    assert played == []
