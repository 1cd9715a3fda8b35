"""A card put down under a lingering hand shows smaller than a whole card
(the hand covers part of it); where a copy of its label lies lower in the
pile that box is taken for the lower card partly covered. Once the hand
leaves, the whole card is judged again and lands, though its box grew by
less than a box's jitter (``same_spot_mm``) since it was first judged.
Hand-made detections at 15 fps."""

from __future__ import annotations

from tests.vision.pile_table import PILE, PileTable, card
from vision.config import PlayConfig
from vision.hands import Reach

FPS = 15.0


def game(covered_h: float) -> list[list[str]]:
    """A wild (start card), a blue-8 on it 12 mm off, then a second wild put
    on the blue-8 under a hand that lingers, showing ``covered_h`` mm of its
    87, then leaves."""
    table = PileTable(PlayConfig(), FPS)
    old_wild = (PILE[0] + 12.0, PILE[1])
    for _ in range(8):
        table.frame([card("wild", *old_wild)])
    hand = [Reach("B", PILE, 9000.0)]
    for x in (250.0, 280.0, 310.0):  # the blue-8 carried in
        table.frame([card("wild", *old_wild), card("blue-8", x, PILE[1], touched=True)],
                    hand)
    for _ in range(3):
        table.frame([card("blue-8", *PILE, touched=True)], hand)
    for _ in range(10):  # the hand leaves it
        table.frame([card("blue-8", *PILE)])
    hand = [Reach("C", PILE, 9000.0)]
    for _ in range(2):  # the hand covers the pile with the wild in it
        table.frame([], hand)
    shift = (87.0 - covered_h) / 2  # the hand covers one end
    for _ in range(15):  # let go: the hand lingers over one end of the wild
        table.frame([card("wild", PILE[0], PILE[1] - shift, h=covered_h, touched=True)],
                    hand)
    for _ in range(10):  # the hand has left: the whole wild shows
        table.frame([card("wild", *PILE)])
    return table.seen


def test_a_card_first_seen_partly_covered_lands_once_the_hand_leaves():
    covered_h = 78.0  # under the shrunk share of a card size (as judged), and
    # the whole box differs from it by less than same_spot_mm
    cfg = PlayConfig()
    assert 87.0 - covered_h < cfg.same_spot_mm
    assert game(covered_h) == [["wild"], ["blue-8"], ["wild"]]


def test_a_whole_card_under_the_lingering_hand_lands_once():
    assert game(87.0) == [["wild"], ["blue-8"], ["wild"]]
