"""Let go and the finder's box jitter: the size of a card's box moves by both
its edges' jitter, about a pixel between reads of a card lying still, and a
pixel on the table spans more than ``play.let_go_mm`` at the working size. A
card under a lingering hand whose box's size moves by under a pixel counts
after the settle time; one whose place trembles, or whose size moves by more
than a pixel, still waits for the hand. Hand-made detections at 15 fps on a
560 x 420 mm table seen at 467 x 350 px (1.2 mm a pixel) unless said."""

from __future__ import annotations

import math

import pytest

from tests.vision.pile_table import PLAYERS, PileTable, card
from vision import pile
from vision.config import PlayConfig
from vision.geometry import TableGeometry
from vision.plays import UnoPlayDetector
from vision.tracking import CardTracker

FPS = 15.0
TABLE_MM = (560.0, 420.0)


def table_at(config: PlayConfig, mm_per_px: float) -> tuple[PileTable, float]:
    """A :class:`PileTable` whose frames show the table at ``mm_per_px``
    (rows given in pixels), and that scale."""
    table = PileTable(config, FPS)
    size = (round(TABLE_MM[0] / mm_per_px), round(TABLE_MM[1] / mm_per_px))
    geo = TableGeometry.default(size, PLAYERS)
    table.tracker = CardTracker(geo)
    table.plays = UnoPlayDetector(geo, config)
    return table, TABLE_MM[0] / size[0]


def px(v: float, scale: float) -> float:
    return v / scale


def lay(config: PlayConfig, mm_per_px: float, jitter, n: int = 12):  # noqa: ANN001
    """red-7 on the pile, red-2 carried in and put down beside it, the hand
    lingering on it for ``n`` frames while ``jitter(k)`` gives the k-th
    read's (dx, dy, dw, dh) in mm; the table and the let-go time."""
    table, s = table_at(config, mm_per_px)
    pile_xy = (330.0, 210.0)
    red7 = card("red-7", px(pile_xy[0], s), px(pile_xy[1], s), px(56, s), px(87, s))
    for _ in range(8):
        table.frame([red7])
    for x in (260, 290, 310):  # carried in by the hand
        table.frame([red7, card("red-2", px(x, s), px(212, s), px(56, s), px(87, s),
                                touched=True)])
    let_go_at = table.t
    for k in range(n):
        dx, dy, dw, dh = jitter(k)
        table.frame([red7, card("red-2", px(335 + dx, s), px(212 + dy, s),
                                px(60 + dw, s), px(90 + dh, s), touched=True)])
    return table, let_go_at


def settle_reads(config: PlayConfig) -> int:
    """Reads from the first still one to the decision, the first included."""
    return max(config.settle_frames, config.let_go_frames,
               math.ceil(config.settle_s * FPS - 1e-9) + 1)


def test_a_box_whose_size_moves_under_a_pixel_is_let_go_after_the_settle_time():
    """The width moves 1.0 mm (0.83 px, over let_go_mm) every other read."""
    config = PlayConfig()
    assert 1.0 > config.let_go_mm
    table, let_go_at = lay(config, 1.2, lambda k: (0.0, 0.0, 1.0 * (k % 2), 0.0))
    assert [cards for _, cards in table.plays_seen] == [["red-2"]]
    late = table.plays_seen[0][0] - let_go_at
    assert late <= (settle_reads(config) - 1) / FPS + 1e-6


def test_a_box_whose_height_moves_under_a_pixel_is_let_go_too():
    config = PlayConfig()
    table, _ = lay(config, 1.2, lambda k: (0.0, 0.0, 0.0, -1.1 * (k % 2)))
    assert [cards for _, cards in table.plays_seen] == [["red-2"]]


def test_a_card_whose_place_trembles_by_a_millimetre_waits_for_the_hand():
    """A hand holding the card trembles it: its place moves 1.0 mm (under a
    pixel too), its size not. No play while the hand is there."""
    config = PlayConfig()
    table, _ = lay(config, 1.2, lambda k: (1.0 * (k % 2), 0.0, 0.0, 0.0), n=20)
    assert table.plays_seen == []


def test_a_box_whose_size_moves_over_a_pixel_waits_for_the_hand():
    """2.4 mm (two pixels): a card held at changing heights, not a box's
    jitter."""
    config = PlayConfig()
    table, _ = lay(config, 1.2, lambda k: (0.0, 0.0, 2.4 * (k % 2), 2.4 * (k % 2)),
                   n=20)
    assert table.plays_seen == []


def test_the_size_tolerance_follows_the_pixel_on_the_table():
    """The same 1.0 mm size jitter seen at 0.5 mm a pixel is two pixels: it
    waits for the hand."""
    config = PlayConfig()
    table, _ = lay(config, 0.5, lambda k: (0.0, 0.0, 1.0 * (k % 2), 0.0), n=20)
    assert table.plays_seen == []


def test_with_the_pixel_tolerance_off_let_go_mm_alone_decides():
    config = PlayConfig(let_go_size_px=0.0)
    table, _ = lay(config, 1.2, lambda k: (0.0, 0.0, 1.0 * (k % 2), 0.0), n=20)
    assert table.plays_seen == []


@pytest.mark.parametrize("mm_per_px", [0.5, 1.0, 1.2, 2.0])
def test_pixel_mm_measures_a_pixel_on_the_table(mm_per_px):
    geo = TableGeometry.default(
        (round(TABLE_MM[0] / mm_per_px), round(TABLE_MM[1] / mm_per_px)), PLAYERS)
    assert pile.pixel_mm(geo, (330.0, 210.0)) == pytest.approx(mm_per_px, rel=0.01)
