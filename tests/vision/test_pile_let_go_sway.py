"""A card let go of under fingers that linger in its box: the box measures as
a card held up (over ``play.let_go_scale``) and sticks out of the pile's
extent, yet lies still; it counts once it has lain that still for
``play.let_go_sway_s`` (a card held in the air sways within that time), not
only once the hand has left. Off by default (0): a card held still over the pile and taken back counts
otherwise. Hand-made detections at 30 fps."""

from __future__ import annotations

from tests.vision.pile_table import PILE, PileTable, card
from vision.card_scale import card_scale
from vision.config import PlayConfig
from vision.hands import Reach

FPS = 30.0
SPOT = (PILE[0] + 30.0, PILE[1] + 5.0)  # off the red 7: the box sticks out
BIG = (66.0, 104.0)  # the card and the fingers in its box
TIP = (PILE[0] + 60.0, PILE[1] + 40.0)


def started(config: PlayConfig) -> PileTable:
    table = PileTable(config, FPS)
    for _ in range(8):
        table.frame([card("red-7", *PILE)])
    return table


def linger(table: PileTable, frames: int) -> None:
    for _ in range(frames):
        table.frame([card("red-7", *PILE),
                     card("red-2", *SPOT, *BIG, touched=True)],
                    [Reach("B", TIP, 9000.0)])


SWAY = PlayConfig(let_go_sway_s=0.3)


def test_a_card_under_lingering_fingers_counts_after_let_go_sway_s():
    config = SWAY
    table = started(config)
    scale = card_scale(*BIG, table.plays.geometry.card)
    assert config.let_go_scale < scale <= config.max_scale
    start = table.t
    linger(table, 30)  # the hand stays a second
    assert [c for _, c in table.plays_seen] == [["red-2"]]
    t = table.plays_seen[0][0]
    assert t - start >= config.let_go_sway_s - 1e-6
    assert t - start < 1.0 - 1e-6  # before the hand left


def test_with_let_go_sway_s_off_it_waits_for_the_hand_to_leave():
    table = started(PlayConfig())
    assert PlayConfig().let_go_sway_s == 0
    linger(table, 30)
    assert table.plays_seen == []
    for _ in range(6):
        table.frame([card("red-7", *PILE), card("red-2", *SPOT, 60.0, 95.0)])
    assert [c for _, c in table.plays_seen] == [["red-2"]]


def test_a_card_swaying_off_the_pile_is_no_play():
    """Held up off the pile, it sways: a few mm a frame, a pause of a few
    frames at each end of a sway."""
    table = started(SWAY)
    sway = [(0, 0), (0, 0), (0, 0), (0, 0), (2, 1), (4, 2), (6, 3), (6, 3),
            (6, 3), (6, 3), (4, 2), (2, 1)]
    for _ in range(4):
        for dx, dy in sway:
            table.frame([card("red-7", *PILE),
                         card("red-2", SPOT[0] + dx, SPOT[1] + dy, *BIG, touched=True)],
                        [Reach("B", TIP, 9000.0)])
    assert table.plays_seen == []
