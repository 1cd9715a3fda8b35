"""Let go and a card held over the pile: a hand that holds a card over the
pile sways it there and pauses for a few frames at the end of a sway, as
still as a card let go of. A card the hand held over the spot where it lies
for ``play.let_go_loose_s`` before it paused must lie still that long before
it counts under the hand; a card brought in and put down counts after the
settle time. Hand-made detections at 30 fps."""

from __future__ import annotations

import math

from tests.vision.pile_table import PILE, PileTable, card
from vision.config import PlayConfig
from vision.hands import Reach

FPS = 30.0
NEAR = (PILE[0] + 40, PILE[1] - 50)  # the holding hand's tip, beside its card


def started(config: PlayConfig) -> PileTable:
    table = PileTable(config, FPS)
    for _ in range(8):
        table.frame([card("red-7", *PILE)])
    return table


def hand() -> list[Reach]:
    return [Reach("B", NEAR, 9000.0)]


# a sway over the pile, a few millimetres a frame (0.4 s at 30 fps)
SWAY = [(336, 206), (331, 212), (334, 216), (338, 211), (333, 207), (336, 213),
        (340, 209), (335, 205), (332, 210), (337, 214), (339, 208), (335, 211)]
REST = (336.0, 210.0)


def hover(table: PileTable) -> None:
    """The red-2 held over the pile, swaying for 0.4 s."""
    for x, y in SWAY:
        table.frame([card("red-2", x, y, touched=True)], hand())


def test_a_card_held_over_the_pile_that_pauses_after_a_sway_is_no_play():
    config = PlayConfig()
    assert len(SWAY) / FPS >= config.let_go_loose_s
    table = started(config)
    hover(table)
    # a pause at the end of the sway: let_go_frames frames spanning the
    # settle time, shorter than let_go_loose_s
    pause = max(config.let_go_frames, math.ceil(config.settle_s * FPS) + 1)
    assert pause / FPS < config.let_go_loose_s
    for _ in range(pause):
        table.frame([card("red-2", *REST, touched=True)], hand())
    for x, y in SWAY[:4]:  # it sways on ...
        table.frame([card("red-2", x, y, touched=True)], hand())
    for x in (360, 400, 440):  # ... and is taken away: the red-7 shows again
        table.frame([card("red-7", *PILE), card("red-2", x, 150, touched=True)], hand())
    for _ in range(10):
        table.frame([card("red-7", *PILE)])
    assert table.plays_seen == []


def test_a_card_held_over_the_pile_that_comes_to_rest_counts_after_let_go_loose_s():
    config = PlayConfig()
    table = started(config)
    hover(table)
    rest_at = table.t
    for _ in range(20):  # it lies still under the hand: put down after all
        table.frame([card("red-2", *REST, touched=True)], hand())
    assert [cards for _, cards in table.plays_seen] == [["red-2"]]
    assert table.plays_seen[0][0] - rest_at >= config.let_go_loose_s - 1e-6
    for _ in range(10):  # the hand leaves: no second play
        table.frame([card("red-2", *REST)])
    assert len(table.plays_seen) == 1


def test_a_card_brought_in_and_put_down_counts_after_the_settle_time():
    """Brought in from a seat (far from where it lies until its last frame in
    the air) and let go under the lingering hand: no hover, the settle time."""
    config = PlayConfig()
    table = started(config)
    for x in (220, 260, 300, 325):
        table.frame([card("red-7", *PILE), card("red-2", x, 190, touched=True)], hand())
    let_go_at = table.t
    for _ in range(20):
        table.frame([card("red-7", *PILE), card("red-2", *REST, touched=True)], hand())
    assert [cards for _, cards in table.plays_seen] == [["red-2"]]
    assert table.plays_seen[0][0] - let_go_at < config.let_go_loose_s
