"""A card lying still whose box the detector refits on one edge: a few
pixels of jitter at one edge under the hand that let go of it
(``play.let_go_edge_mm``), or its end showing once the hand that
covered it clears it (``play.settle_grow_mm``). Its other three edges
hold, so it keeps lying still; a card that moves or is held up shifts every
edge. Only reads since the arm last reached in count so: an older box is the
card that lay there before. Hand-made detections at 15 fps."""

from __future__ import annotations

from tests.vision.pile_table import PILE, PileTable, card
from vision.config import PlayConfig
from vision.hands import Reach

FPS = 15.0
NEAR = (PILE[0] + 40.0, PILE[1] - 50.0)  # the hand's tip, at the card
BOX = (335.0, 212.0, 60.0, 90.0)  # the red-2 as it lies


def hand() -> list[Reach]:
    return [Reach("B", NEAR, 9000.0)]


def started() -> PileTable:
    table = PileTable(PlayConfig(), FPS)
    for _ in range(8):
        table.frame([card("red-7", *PILE)])
    table.frames(3, [], hand())  # the hand over the pile hides it
    return table


def edge_in(  # noqa: ANN201
    box, left: float = 0.0, right: float = 0.0, top: float = 0.0,  # noqa: ANN001
    bottom: float = 0.0,
):
    """``box`` with its edges moved in by these (mm; negative: out)."""
    x, y, w, h = box
    return (x + (left - right) / 2, y + (top - bottom) / 2,
            w - left - right, h - top - bottom)


def lingering(looks) -> tuple[PileTable, float]:  # noqa: ANN001
    """The red-2 put down under the lingering hand, its box ``looks`` (one a
    frame, touched); the table and the time of its first read."""
    table = started()
    first = table.t
    for look in looks:
        table.frame([card("red-2", *look, touched=True)], hand())
    return table, first


def test_one_edge_jumping_under_the_hand_keeps_the_let_go_window():
    """The far edge refit 4.7 mm in after two reads and stays: let go after
    the window's four reads, not four reads after the jump."""
    table, first = lingering([BOX] * 2 + [edge_in(BOX, left=4.7)] * 10)
    assert [c for _, c in table.plays_seen] == [["red-2"]]
    assert table.plays_seen[0][0] - first <= 3 / FPS + 1e-6


def test_every_edge_moving_under_the_hand_is_no_let_go():
    """A card held over the pile sways: each read moves every edge 3 mm."""
    looks = [BOX, (BOX[0] + 3.0, BOX[1] + 3.0, *BOX[2:])] * 8
    table, _ = lingering(looks)
    assert table.plays_seen == []


def test_one_edge_moving_more_than_jitter_under_the_hand_is_no_let_go():
    looks = [BOX, edge_in(BOX, left=12.0)] * 8
    table, _ = lingering(looks)
    assert table.plays_seen == []


def cleared(looks) -> tuple[PileTable, float]:  # noqa: ANN001
    """The hand has put the red-2 down and left; its box ``looks`` (one a
    frame, untouched); the table and the time of its first read."""
    table = started()
    first = table.t
    for look in looks:
        table.frame([card("red-2", *look)])
    return table, first


def test_a_box_grown_on_one_side_as_the_hand_clears_keeps_the_settle():
    """Two reads with one end of the card still cut off, then the whole card
    (its box reaching 14 mm farther on that side): it lands at the settle
    time, with the third read, not three reads after the box grew."""
    short = edge_in(BOX, right=14.0)
    table, first = cleared([short] * 2 + [BOX] * 8)
    assert [c for _, c in table.plays_seen] == [["red-2"]]
    assert table.plays_seen[0][0] - first <= 2 / FPS + 1e-6


def test_a_box_moved_on_two_sides_restarts_the_settle():
    moved = edge_in(BOX, right=14.0, bottom=10.0)
    table, first = cleared([moved] * 2 + [BOX] * 8)
    assert [c for _, c in table.plays_seen] == [["red-2"]]
    assert table.plays_seen[0][0] - first >= 4 / FPS - 1e-6


def test_a_box_shrunk_on_one_side_restarts_the_settle():
    """The newest box cut short at one end (a hand or card now over it) is
    no card showing whole: the window restarts."""
    table, first = cleared([BOX] * 2 + [edge_in(BOX, right=14.0)] * 8)
    assert [c for _, c in table.plays_seen] == [["red-2"]]
    assert table.plays_seen[0][0] - first >= 4 / FPS - 1e-6


def test_the_card_that_lay_there_before_the_hand_is_no_still_read():
    """The red-7's box before the hand came matches the red-2's on three
    edges: the red-2 still lies for its own settle time, and is read as
    itself."""
    table = PileTable(PlayConfig(), FPS)
    below = edge_in(BOX, right=14.0)
    for _ in range(8):
        table.frame([card("red-7", *below)])
    table.frames(2, [], hand())
    first = table.t
    for _ in range(8):
        table.frame([card("red-2", *BOX)])
    assert [c for _, c in table.plays_seen] == [["red-2"]]
    assert table.plays_seen[0][0] - first >= 2 / FPS - 1e-6


def test_a_card_held_over_the_pile_swaying_a_little_is_no_let_go():
    """Held over the pile, it sways: between reads its edges move by about a
    millimetre (one by 3 mm), more than ``let_go_mm`` on more than one edge
    (within a pixel, 1 mm here), so no four reads lie still; then the hand
    takes it away."""
    box = (331.3, 208.4, 60.4, 90.4)
    sway = [(329.8, 210.8, 66.1, 88.1), edge_in(box, left=-1.5, right=3.3),
            edge_in(box, left=0.7, right=-0.9, top=0.1, bottom=-1.3),
            edge_in(box, left=0.8, right=-3.3, top=-0.75, bottom=0.75), box, box]
    away = [(box[0] + 40.0 * k, box[1] - 30.0 * k, *box[2:]) for k in (1, 2, 3)]
    table, _ = lingering(sway + away)
    table.frames(10, [])
    assert table.plays_seen == []
