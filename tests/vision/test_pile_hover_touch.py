"""A hover whose touch the hand mask missed for a frame: a hand holds a card
over the pile, swaying it there, and in one frame the card's box is not
marked touched (a second, larger box over the held card, the card with the
hand, takes the hand's pixels out of the touch test). It then pauses at the
end of a sway for longer than let go asks, shorter than a hover must lie
still (``play.let_go_loose_s``): still a hover, no play, at either frame
rate."""

from __future__ import annotations

import math

import pytest

from tests.vision.pile_table import PILE, PileTable, card
from vision.config import PlayConfig
from vision.hands import Reach

NEAR = (PILE[0] + 40, PILE[1] - 50)  # the holding hand's tip, beside its card
# a sway over the pile, a few millimetres a read
SWAY = [(336, 206), (331, 212), (334, 216), (338, 211), (333, 207), (336, 213),
        (340, 209), (335, 205), (332, 210), (337, 214), (339, 208), (335, 211),
        (331, 207), (334, 212), (338, 215), (333, 209)]


def started(config: PlayConfig, fps: float) -> PileTable:
    table = PileTable(config, fps)
    for _ in range(8):
        table.frame([card("red-7", *PILE)])
    return table


def hand() -> list[Reach]:
    return [Reach("B", NEAR, 9000.0)]


def sway(table: PileTable, seconds: float) -> None:
    n = round(seconds * table.fps)
    for k in range(n):
        x, y = SWAY[k % len(SWAY)]
        table.frame([card("red-2", x, y, touched=True)], hand())


def pause_frames(config: PlayConfig, fps: float) -> int:
    """A pause that outlasts let go (let_go_frames frames spanning settle_s)
    but spans less than let_go_loose_s."""
    n = max(config.let_go_frames, config.settle_frames,
            math.ceil(config.settle_s * fps - 1e-9) + 1)
    assert (n - 1) / fps < config.let_go_loose_s
    return n


@pytest.mark.parametrize("fps", [15.0, 30.0])
def test_a_hover_whose_touch_was_missed_for_a_frame_is_still_a_hover(fps):
    config = PlayConfig()
    table = started(config, fps)
    sway(table, 0.5)
    table.frame([card("red-2", 333, 207)], hand())  # the touch missed once
    sway(table, 0.2)
    table.frame([card("red-2", 333, 207)], hand())  # and once more
    for _ in range(pause_frames(config, fps)):  # the pause at the end of a sway
        table.frame([card("red-2", 336.0, 210.0, touched=True)], hand())
    sway(table, 0.2)  # it sways on ...
    for x in (360, 400, 440):  # ... and is taken away: the red-7 shows again
        table.frame([card("red-7", *PILE), card("red-2", x, 150, touched=True)], hand())
    for _ in range(10):
        table.frame([card("red-7", *PILE)])
    assert table.plays_seen == []


@pytest.mark.parametrize("fps", [15.0, 30.0])
def test_a_card_that_lay_untouched_before_the_hand_came_is_no_hover(fps):
    """A card lying untouched on the pile that did not count (its box then
    measured too small: partly covered) and that a hand then rests on, still:
    its untouched reads are no hover, so it counts at let go."""
    config = PlayConfig()
    table = started(config, fps)
    for _ in range(round(0.5 * fps)):  # lying there, its box cut short
        table.frame([card("red-2", 336, 210, h=60.0)])
    let_go_at = table.t
    for _ in range(round(1.0 * fps)):  # a hand on it, the card whole and still
        table.frame([card("red-2", 336.0, 210.0, touched=True)], hand())
    assert [c for _, c in table.plays_seen] == [["red-2"]]
    assert table.plays_seen[0][0] - let_go_at < config.let_go_loose_s
