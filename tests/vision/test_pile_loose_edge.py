"""A card laid off a young pile, its box taking in the edge of the card it
half covers: a loose box (over ``max_scale``) that reaches out past the pile's
extent at one end, its other end at a pile card's edge. It counts once it has
lain still ``loose_s`` with no hand in the zone; a box as large whose ends
follow no pile card's edge (a card held up off the pile) does not.
Hand-made detections at 15 fps."""

from __future__ import annotations

from tests.vision.pile_table import PILE, PileTable, card
from vision.card_scale import card_scale
from vision.config import PlayConfig
from vision.hands import Reach

FPS = 15.0
CARD = (56.0, 87.0)
# the start card's box: y from PILE[1] - 43.5 to PILE[1] + 43.5
TOP = PILE[1] - CARD[1] / 2


def table_with_start(config: PlayConfig) -> PileTable:
    table = PileTable(config, FPS)
    for _ in range(8):
        table.frame([card("red-7", *PILE)])
    assert table.seen == [["red-7"]]
    return table


def lay(table: PileTable, top: float, bottom: float, frames: int) -> list:
    """An arm lays a red-3 on the pile and leaves; then ``frames`` frames of
    its box from ``top`` to ``bottom`` (mm, along the table's depth), the
    start card covered. Returns the plays made."""
    hand = [Reach("B", PILE, 9000.0)]
    for x in (250.0, 280.0, 310.0):
        table.frame([card("red-7", *PILE), card("red-3", x, PILE[1] + 20, touched=True)],
                    hand)
    for _ in range(2):
        table.frame([], hand)
    y, h = (top + bottom) / 2, bottom - top
    return table.frames(frames, [card("red-3", PILE[0], y, CARD[0], h)])


def test_a_loose_box_reaching_off_the_pile_from_a_pile_cards_edge_is_played():
    cfg = PlayConfig()
    table = table_with_start(cfg)
    # the red-3 lies 20 mm down the table from the start card; its box takes
    # in the start card's top edge
    top, bottom = TOP, TOP + 20.0 + CARD[1]
    assert cfg.max_scale < card_scale(CARD[0], bottom - top, CARD) <= cfg.loose_scale
    assert bottom > PILE[1] + CARD[1] / 2 + cfg.same_spot_mm  # off the pile's extent
    played = lay(table, top, bottom, int(FPS * (cfg.loose_s + cfg.still_margin_s)) + 6)
    assert [cards for _, cards in played] == [["red-3"]]
    assert table.seen == [["red-7"], ["red-3"]]


def test_a_loose_box_off_the_pile_whose_ends_follow_no_pile_card_is_no_play():
    cfg = PlayConfig()
    table = table_with_start(cfg)
    # as large, as far off the pile, its near end 2 loose_edge_mm from the
    # start card's edge: a card held up off the pile
    shift = 2 * cfg.loose_edge_mm
    top, bottom = TOP + shift, TOP + shift + 20.0 + CARD[1]
    assert cfg.max_scale < card_scale(CARD[0], bottom - top, CARD) <= cfg.loose_scale
    assert lay(table, top, bottom, 40) == []


def test_with_loose_edge_off_a_loose_box_must_lie_within_the_pile():
    cfg = PlayConfig(loose_edge_mm=0.0)
    table = table_with_start(cfg)
    assert lay(table, TOP, TOP + 20.0 + CARD[1], 40) == []
