"""A card held over the pile sways there and pauses at the end of each
sway, as still as a card let go of. A card the hand held over its spot
``play.let_go_hover_s`` before it paused must lie still
``play.let_go_hover_still_s`` before it counts under the hand: a hover
pausing at the end of its first sway, a fifth of a second after it came, or
resting a little longer than ``play.let_go_loose_s``, is no play at any frame
rate; one that comes to rest counts after that time; a card brought in and put
down, over its spot for the last frame or two of the way, counts at let go
(``settle_s``, ``let_go_frames`` frames). Hand-made detections."""

from __future__ import annotations

import pytest

from tests.vision.pile_table import PILE, PileTable, card
from vision.config import PlayConfig
from vision.hands import Reach

REST = (PILE[0] + 6.0, PILE[1])
FROM = (PILE[0] + 200.0, PILE[1] - 150.0)  # where the arm brings it from


HOVER_S = PlayConfig().let_go_hover_s
HOVER_STILL_S = PlayConfig().let_go_hover_still_s


def started(fps: float) -> PileTable:
    table = PileTable(PlayConfig(), fps)
    for _ in range(round(0.5 * fps)):
        table.frame([card("red-7", *PILE)])
    return table


def tip(x: float, y: float) -> list[Reach]:
    return [Reach("B", (x + 40, y - 50), 9000.0)]


def held(table: PileTable, x: float, y: float, top: bool = False) -> None:
    """One frame of the red-2 in the hand at (x, y) (the red-7 in view
    beside it when ``top``)."""
    rows = [card("red-2", x, y, touched=True)]
    table.frame(([card("red-7", *PILE)] if top else []) + rows, tip(x, y))


def bring_in(table: PileTable, seconds: float = 0.4) -> None:
    """The arm brings the red-2 from its seat to over the pile, slowing down
    (an eased path), the card in view all the way."""
    n = max(2, round(seconds * table.fps))
    for k in range(1, n + 1):
        p = k / n
        e = p * p * (3 - 2 * p)
        x = FROM[0] + (REST[0] - FROM[0]) * e
        y = FROM[1] + (REST[1] - FROM[1]) * e
        held(table, x, y, top=p < 0.5)


# a sway over the spot, a few millimetres a frame (the hand jitters: no two
# frames in one place)
SWAY = [(0, -4), (-5, 2), (-2, 6), (2, 1), (-3, -3), (0, 3), (4, -1), (-1, -5),
        (-4, 0), (1, 4), (3, -2), (-2, 2)]


def sway(table: PileTable, seconds: float, amp: float = 1.0) -> tuple[float, float]:
    """The red-2 swayed over its spot for ``seconds`` (:data:`SWAY`, scaled by
    ``amp``); where the sway ends."""
    x, y = REST
    for k in range(round(seconds * table.fps)):
        dx, dy = SWAY[k % len(SWAY)]
        x, y = REST[0] + amp * dx, REST[1] + amp * dy
        held(table, x, y)
    return x, y


def taken_back(table: PileTable) -> None:
    """It sways on, then the hand takes it back to its seat: the red-7 shows
    again, alone."""
    sway(table, 0.3, amp=2.0)
    for k in range(1, 5):
        x = REST[0] + 45.0 * k
        held(table, x, REST[1] - 40.0 * k, top=True)
    for _ in range(10):
        table.frame([card("red-7", *PILE)])


@pytest.mark.parametrize("fps", [15.0, 30.0, 60.0])
def test_a_hover_pausing_after_its_first_sway_is_no_play(fps):
    """Brought in, swayed over the pile for a little more than
    ``let_go_hover_s`` (less than ``let_go_loose_s``), then still for about a
    fifth of a second (six frames at 30 fps), and taken back."""
    config = PlayConfig()
    assert HOVER_S < 0.17 < 0.2 < config.let_go_loose_s
    table = started(fps)
    bring_in(table)
    x, y = sway(table, 0.17)
    pause = round(0.2 * fps)  # 3 frames at 15 fps, 6 at 30, 12 at 60
    assert (pause - 1) / fps < config.let_go_loose_s
    for _ in range(pause):
        held(table, x, y)
    taken_back(table)
    assert table.plays_seen == []


@pytest.mark.parametrize("fps", [15.0, 30.0, 60.0])
def test_a_card_brought_in_and_put_down_counts_soon_after_let_go(fps):
    """Brought in (the card over its spot for the last frame or two of the
    way) and let go under the lingering hand: a play about ``settle_s`` (or
    ``let_go_frames`` frames) after it, well before ``let_go_loose_s``."""
    config = PlayConfig()
    table = started(fps)
    bring_in(table)
    let_go_at = table.t - 1 / fps  # the last frame of the way: it lies there
    for _ in range(round(0.8 * fps)):
        held(table, *REST)
    assert [cards for _, cards in table.plays_seen] == [["red-2"]]
    waited = table.plays_seen[0][0] - let_go_at
    frames = max(config.settle_frames, config.let_go_frames)
    assert waited >= max(config.settle_s, (frames - 1) / fps) - 1e-6
    assert waited <= max(config.settle_s, (frames - 1) / fps) + 1 / fps + 1e-6
    assert waited < config.let_go_loose_s
    for _ in range(10):  # the hand leaves: no second play
        table.frame([card("red-2", *REST)])
    assert len(table.plays_seen) == 1


@pytest.mark.parametrize("fps", [15.0, 30.0])
def test_a_hover_resting_a_little_longer_than_let_go_loose_s_is_no_play(fps):
    """Swayed over the pile for half a second, then held still for 0.3 s or so
    (ten frames at 30 fps: more than ``let_go_loose_s``, less than
    ``let_go_hover_still_s``), and taken back."""
    config = PlayConfig()
    table = started(fps)
    bring_in(table)
    x, y = sway(table, 0.5)
    pause = round(0.35 * fps)
    assert config.let_go_loose_s <= (pause - 1) / fps < HOVER_STILL_S
    for _ in range(pause - 1):  # the sway's last frame is the rest's first
        held(table, x, y)
    taken_back(table)
    assert table.plays_seen == []


@pytest.mark.parametrize("fps", [15.0, 30.0])
def test_a_hovered_card_that_comes_to_rest_counts_after_let_go_hover_still_s(fps):
    """Swayed over the pile, then put down there under the lingering hand: a
    play once it has lain still ``let_go_hover_still_s``."""
    table = started(fps)
    bring_in(table)
    x, y = sway(table, 0.5)
    rest_at = table.t - 1 / fps
    for _ in range(round(1.0 * fps)):
        held(table, x, y)
    assert [cards for _, cards in table.plays_seen] == [["red-2"]]
    waited = table.plays_seen[0][0] - rest_at
    assert HOVER_STILL_S - 1e-6 <= waited <= HOVER_STILL_S + 1 / fps + 1e-6
    for _ in range(10):  # the hand leaves: no second play
        table.frame([card("red-2", x, y)])
    assert len(table.plays_seen) == 1
