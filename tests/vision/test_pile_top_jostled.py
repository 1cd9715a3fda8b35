"""The top card's box changing where no card landed: after an arm passed over
the pile, the detector's box of the top card flips to another look once the
arm has gone; and a copy carried in over the top card shifts and covers the
top's box a frame before it lands itself. Neither is a card put down: the
play is the copy's, once it lies there, and it is the arm that brought it
that played it. Hand-made detections at 15 fps."""

from __future__ import annotations

from tests.vision.pile_table import PILE, PileTable, card
from vision.config import PlayConfig
from vision.hands import Reach

FPS = 15.0
#: the top card's other look (the same card lying still, its box taking in an
#: edge of the card below)
FLIPPED = card("blue-4", PILE[0] + 9.3, PILE[1] - 2.5, 92.3, 99.2)


def state(turn: str, top: str) -> dict:
    return {"phase": "turn", "turn": turn, "top": top, "players": ["A", "B", "C"],
            "color": top.split("-")[0], "pending_draw": 0, "direction": 1}


def test_a_box_flipping_after_the_arm_left_is_no_card():
    """Seat A (not to move) passes an arm over the pile; the top shows as it
    lay for one frame after the arm left, then its box (the card lies turned)
    takes in an edge of the card below: 9.6 mm off and 15.5 mm wider (past
    ``same_size_mm``), untouched."""
    cfg = PlayConfig()
    table = PileTable(cfg, FPS, state("B", "blue-4"))
    top = card("blue-4", *PILE, 76.8, 105.2)
    table.frames(8, [top])  # the start card
    arm = [Reach("A", PILE, 9000.0)]
    table.frames(2, [card("blue-4", PILE[0], PILE[1], 83, 108, touched=True)], arm)
    table.frames(4, [], arm)  # the arm hides the pile
    table.frames(1, [card("blue-4", *PILE, 77.2, 105.7, touched=True)], arm)
    table.frames(1, [top])  # the arm has left: the top as it lay
    flipped = FLIPPED
    assert 9.6 < cfg.same_spot_mm and 92.3 - 76.8 > cfg.same_size_mm
    table.frames(12, [flipped])
    assert table.seen == [["blue-4"]]


def test_a_flip_under_a_hand_still_counts_as_a_twin():
    """The same new look shown under an arm that came back after leaving the
    top as it lay is a copy that arm laid there."""
    cfg = PlayConfig()
    table = PileTable(cfg, FPS, state("B", "blue-4"))
    top = card("blue-4", *PILE, 76.8, 105.2)
    table.frames(8, [top])
    arm = [Reach("A", PILE, 9000.0)]
    table.frames(4, [], arm)
    table.frames(1, [top])  # the arm has left: the top as it lay
    flipped = FLIPPED
    table.frames(3, [flipped[:5] + (True,)], arm)  # the arm came back with it
    table.frames(12, [flipped])
    assert table.seen == [["blue-4"], ["blue-4"]]


def test_a_copy_coming_in_over_the_top_is_played_by_the_arm_bringing_it():
    """A passes an arm over the pile; a second later B, whose turn it is,
    carries a copy of the top card in: the copy covers the top's box (which
    shifts a few mm) and, as B's arm reaches the pile, the top's box shows
    untouched 3.5 mm off before the copy lands on it."""
    table = PileTable(PlayConfig(), FPS, state("B", "red-6"))
    top = card("red-6", *PILE)
    table.frames(8, [top])  # the start card
    table.frames(3, [], [Reach("A", PILE, 9000.0)])  # A's arm passes
    table.frames(15, [top])
    table.frame([top, card("red-6", 140, 140, touched=True)], [Reach("B", (140, 140), 9000.0)])
    table.frame([top, card("red-6", 215, 170, touched=True)], [Reach("B", (215, 170), 9000.0)])
    table.frame([card("red-6", PILE[0] - 0.5, PILE[1] - 4.0, 56, 84),
                 card("red-6", 295, 190, touched=True)], [Reach("B", (295, 190), 9000.0)])
    arm = [Reach("B", PILE, 9000.0)]
    table.frame([card("red-6", PILE[0] - 3.5, PILE[1] - 0.5, 56, 89.5)], arm)
    copy = (PILE[0] + 4.0, PILE[1] + 5.0)
    table.frames(2, [card("red-6", *copy, 58, 89, touched=True)], arm)
    table.frames(4, [card("red-6", *copy, 58, 89, touched=True)], arm)
    table.frames(10, [card("red-6", *copy, 58, 89)])
    plays = [e for e in table.events if e["type"] == "play"]
    assert [(e["cards"], e.get("reach_from")) for e in plays] == [(["red-6"], "B")]
