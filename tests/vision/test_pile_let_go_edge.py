"""Let go and a box that sticks out of the pile away from the hand, its other
end on a pile card's edge: a card put down off a young pile, the hand
lingering on it, is boxed with the edge of the card it half covers (and the
fingers): the box measures over ``let_go_scale`` and sticks out of the pile's
extent at the far end, while its near end follows the pile card's edge. It
is judged at let go as a box sticking out toward the hand (``play.edge_let_go``)
instead of waiting for the hand to leave. A box whose ends follow no pile
card's edge, one over ``max_scale`` and one that came into view held still
wait. Hand-made detections at 30 fps with a referee's state."""

from __future__ import annotations

from tests.vision.pile_table import PILE, card
from tests.vision.test_pile_let_go_twin import pile_with, reach
from vision.card_scale import card_scale
from vision.config import PlayConfig

CARD = (56.0, 87.0)
TOP = ("red-3", *PILE, 60.0, 90.0)  # the pile: red-7 and this red-3 on it
EDGE = PILE[1] + 45.0  # the near end of TOP's box (toward seat B)
BOX = (60.0, 100.0)  # over let_go_scale, at most max_scale
ON_EDGE = (PILE[0], EDGE - 1.0 - BOX[1] / 2)  # near end on TOP's edge
OFF_EDGE = (PILE[0], EDGE - 7.0 - BOX[1] / 2)  # near end on no card's edge
HIGH = (64.0, 108.0)  # over max_scale
HIGH_ON_EDGE = (PILE[0], EDGE - 1.0 - HIGH[1] / 2)
NEAR_END = (PILE[0], PILE[1] + 80.0)  # the lingering hand's tip, past the near end


def test_the_boxes_are_as_the_tests_say():
    config = PlayConfig()
    assert config.let_go_scale < card_scale(*BOX, CARD) <= config.max_scale
    assert config.max_scale < card_scale(*HIGH, CARD) <= config.loose_scale
    lo = PILE[1] - 45.0 - config.same_spot_mm
    for (_, y), (_, h) in ((ON_EDGE, BOX), (OFF_EDGE, BOX), (HIGH_ON_EDGE, HIGH)):
        assert y - h / 2 < lo  # out of the pile's extent at the far end
        assert y + h / 2 <= EDGE  # not at the near end
    assert EDGE - (ON_EDGE[1] + BOX[1] / 2) <= config.loose_edge_mm
    # red-7 below: 87 mm long at PILE
    near = OFF_EDGE[1] + BOX[1] / 2
    assert min(EDGE - near, PILE[1] + 43.5 - near) > config.loose_edge_mm


def put(config: PlayConfig, xy, wh, moving: bool = True):  # noqa: ANN001, ANN201
    """``TOP`` on the pile; seat B's hand brings a red-2 in (seen on its way
    for a few frames when ``moving``, else the top card stays in view while
    the red-2 comes into view held still) and rests with it lying at ``xy``;
    the plays while the hand lingers, and when the hand came to rest."""
    table = pile_with(config, TOP)
    x, y = xy
    rows = []
    if moving:
        for dy in (-6, -3, 0, 3):
            table.frames(1, [card("red-2", x, y + 20 + dy, *wh, True)],
                         reach("B", NEAR_END))
    else:
        rows = [card(*TOP)]
        table.frames(5, rows, reach("B", NEAR_END))
    rest = table.t
    played = table.frames(20, rows + [card("red-2", x, y, *wh, True)],
                          reach("B", NEAR_END))
    return played, rest


def test_a_card_laid_off_the_pile_on_its_edge_counts_at_let_go():
    played, rest = put(PlayConfig(), ON_EDGE, BOX)
    assert [c for _, c in played] == [["red-2"]]
    assert played[0][0] - rest <= 0.2  # a settle time, not the 0.67 s it stays


def test_with_edge_let_go_off_it_waits_for_the_hand():
    assert put(PlayConfig(edge_let_go=False), ON_EDGE, BOX)[0] == []


def test_a_box_whose_ends_follow_no_pile_card_waits_for_the_hand():
    assert put(PlayConfig(), OFF_EDGE, BOX)[0] == []


def test_a_box_over_max_scale_on_the_edge_waits_for_the_hand():
    assert put(PlayConfig(), HIGH_ON_EDGE, HIGH)[0] == []


def test_a_card_come_into_view_held_still_waits_for_the_hand():
    assert put(PlayConfig(), ON_EDGE, BOX, moving=False)[0] == []
