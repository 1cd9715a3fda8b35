"""Let go at the camera's full rate: a card under the hand that put it down
counts after the settle time, not once the hand leaves (issue 25's latency),
and a card the hand still holds does not. Hand-made detections at 30 fps."""

from __future__ import annotations

import math

from tests.vision.pile_table import PILE, PileTable, card
from vision.config import PlayConfig
from vision.hands import Reach

FPS = 30.0
DRAW = (202.0, 210.0)


def started(config: PlayConfig) -> PileTable:
    table = PileTable(config, FPS)
    for _ in range(8):
        table.frame([card("red-7", *PILE)])
    return table


def still_frames(config: PlayConfig) -> int:
    """Frames from the first still read to the decision, the first included."""
    return max(config.settle_frames, math.ceil(config.settle_s * FPS - 1e-9) + 1)


def test_a_card_under_a_lingering_hand_is_played_after_the_settle_time():
    config = PlayConfig()
    table = started(config)
    for x in (260, 290, 320):  # carried in by the hand
        table.frame([card("red-7", *PILE), card("red-2", x, PILE[1], touched=True)])
    let_go_at = table.t
    for _ in range(20):  # let go: the hand stays on it, still
        table.frame([card("red-7", *PILE), card("red-2", 335, 212, touched=True)])
    assert [cards for _, cards in table.plays_seen] == [["red-2"]]
    late = table.plays_seen[0][0] - let_go_at
    assert late <= (still_frames(config) - 1) / FPS + 1e-6
    for _ in range(10):  # the hand leaves: no second play
        table.frame([card("red-7", *PILE), card("red-2", 336, 213)])
    assert len(table.plays_seen) == 1


def test_with_let_go_off_the_same_card_waits_for_the_hand_to_leave():
    config = PlayConfig(let_go_mm=0.0)
    table = started(config)
    for _ in range(20):
        table.frame([card("red-7", *PILE), card("red-2", 335, 212, touched=True)])
    assert table.plays_seen == []
    for _ in range(still_frames(config)):
        table.frame([card("red-7", *PILE), card("red-2", 335, 212)])
    assert [cards for _, cards in table.plays_seen] == [["red-2"]]


def test_a_card_hovered_with_a_slow_sway_that_pauses_is_no_play():
    """A hand holds a card over the pile (flat-sized: the arm hides part of
    it) and sways it by a few millimetres, pausing at each end for fewer
    frames than the settle time: never still that long."""
    config = PlayConfig()
    table = started(config)
    pause = still_frames(config) - 1
    for k in range(12):
        x = PILE[0] + 5 + 3.0 * (k % 2)
        for _ in range(pause):
            table.frame([card("red-7", *PILE), card("red-2", x, PILE[1] - 5, touched=True)])
    assert table.plays_seen == []


def test_a_top_card_cut_by_an_arm_passing_to_the_draw_pile_is_no_let_go():
    """An arm on its way to the draw pile passes over the discard pile: the
    top card's box, cut by it, reads as another card, still, touched. The
    arm's tip lies far from it: no hand lingers there, no play. The same box
    with the tip at it (a hand that put a card down) is one."""
    config = PlayConfig()
    for tip, plays in ((DRAW, []), ((PILE[0] - 40, PILE[1]), [["green-3"]])):
        table = started(config)
        for _ in range(20):
            table.frame([card("green-3", 341, 229, 56, 79, touched=True)],
                        [Reach("C", tip, 9000.0)])
        assert [cards for _, cards in table.plays_seen] == plays
