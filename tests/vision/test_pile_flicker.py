"""A card put down whose box flickers for a frame or two as the arm withdraws
(the finder's box with, then without, an edge of the card below) and comes
back to the very box lands on time: the flicker neither ends its still window
(:meth:`vision.tracking.Track.still_reads`) nor, for a twin, the stay of its
look (:meth:`vision.pile_memory.PileMemory._stay_start`). The card alone's
box is the other's with one edge in: the flicker tests below turn off the
one-edge rule (``play.settle_grow_mm``), which takes such reads as the
card lying still whatever their order (test_pile_one_edge.py). Hand-made
detections at 30 fps."""

from __future__ import annotations

from tests.vision.pile_table import PILE, PileTable, card
from vision.config import PlayConfig
from vision.hands import Reach

FPS = 30.0
A = (PILE[0] + 10.0, PILE[1] + 2.0, 76.0, 92.0)  # the card with an edge of the one below
B = (PILE[0] + 5.0, PILE[1] + 2.0, 64.0, 92.0)  # the card alone


def off_config(field: str, value: float) -> PlayConfig:
    """A config with ``field`` set to ``value`` (the one-edge rule off: the
    flicker alone, reads a box off by one edge do not lie still)."""
    return PlayConfig(**{"settle_grow_mm": 0.0, field: value})


def started(config: PlayConfig | None = None) -> PileTable:
    table = PileTable(config or PlayConfig(settle_grow_mm=0.0), FPS)
    for _ in range(8):
        table.frame([card("red-7", *PILE)])
    return table


def put_down(table: PileTable, label: str, looks) -> float:  # noqa: ANN001
    """An arm reaches in, then ``label``'s box shows ``looks`` (one a frame,
    untouched): the time of its first untouched read."""
    table.frames(4, [], [Reach("C", PILE, 9000.0)])
    first = table.t
    for look in looks:
        table.frame([card(label, *look)])
    return first


def test_a_card_whose_box_flickers_once_lands_at_the_settle_time():
    table = started()
    first = put_down(table, "red-2", [A, B, A, A, A, A, A, A])
    assert [c for _, c in table.plays_seen] == [["red-2"]]
    # four reads (the flicker one among them): 0.1 s after the first
    assert table.plays_seen[0][0] - first <= 3 / FPS + 1e-6


def test_off_the_flicker_restarts_the_window():
    table = started(off_config("flicker_reads", 0))
    first = put_down(table, "red-2", [A, B, A, A, A, A, A, A])
    assert [c for _, c in table.plays_seen] == [["red-2"]]
    assert table.plays_seen[0][0] - first >= 5 / FPS - 1e-6


def test_a_card_whose_box_keeps_changing_does_not_land_early():
    """Three reads off the look in a row: a card still settling."""
    table = started()
    first = put_down(table, "red-2", [A, B, B, B, A, A, A, A, A])
    assert [c for _, c in table.plays_seen] == [["red-2"]]
    assert table.plays_seen[0][0] - first >= 7 / FPS - 1e-6


def test_a_twin_whose_box_flickers_once_keeps_its_stay():
    """A twin laid 5 mm off its copy, its box flickering once as the arm
    withdraws (within ``move_mm``, so the still window holds): its look's
    stay (``play.look_mm``) spans the flicker, so it is judged as soon as
    without the flicker, not three reads after it (15 fps)."""
    from tests.vision.test_pile_twins import card as twin_card, pile_with, reach

    def laid(flicker: bool) -> int:
        table = pile_with(("red-5", *PILE, 56.0, 87.0))
        table.frames(6, [twin_card("red-5", *PILE, 56.0, 87.0)])
        table.frames(3, [], reach("B"))
        x, y = PILE[0] + 5.0, PILE[1] + 2.0
        looks = [(x, y, 56.0, 87.0)] * 8
        if flicker:
            looks[1] = (x + 4.0, y, 64.0, 87.0)
        for k, look in enumerate(looks):
            if table.frames(1, [twin_card("red-5", *look)]):
                return k
        return -1

    assert laid(flicker=True) == laid(flicker=False)
