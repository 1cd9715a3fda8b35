"""A card put down under a lingering hand shows smaller than a whole card
(the hand covers part of it); where a copy of its label lies lower in the
pile that box is taken for the lower card partly covered. Once the hand
leaves, the whole card is judged again and lands, though its box grew by
less than a box's jitter (``same_spot_mm``) since it was first judged.
Hand-made detections at 15 fps."""

from __future__ import annotations

import numpy as np

from referee.cards import CLASSES
from vision.config import PlayConfig
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.hands import Reach
from vision.plays import UnoPlayDetector
from vision.tracking import CardTracker

FPS = 15.0
PILE = (330.0, 210.0)  # centre of the default discard zone on a 560 x 420 mm table


def card(label, x, y, w=56.0, h=87.0, touched=False):
    return (label, x, y, w, h, touched)


class Table:
    def __init__(self, config: PlayConfig):
        geo = TableGeometry.default((560, 420), ("A", "B", "C"))
        self.tracker = CardTracker(geo)
        self.plays = UnoPlayDetector(geo, config)
        self.t = 0.0
        self.seen: list[list[str]] = []

    def frame(self, rows, reaches=()) -> None:
        boxes = [(x - w / 2, y - h / 2, x + w / 2, y + h / 2) for _, x, y, w, h, _ in rows]
        dets = Detections(
            np.array(boxes).reshape(-1, 4),
            np.full(len(rows), 0.9),
            [CLASSES.index(r[0]) for r in rows],
            data={"touched": np.array([r[5] for r in rows], bool)},
        )
        tracked = self.tracker.update(dets, self.t)
        for e in self.plays.update(tracked, self.t, self.tracker.tracks, list(reaches)):
            if e["type"] in ("start", "play"):
                self.seen.append(e.get("cards") or [e["card"]])
        self.t += 1 / FPS


def game(covered_h: float) -> list[list[str]]:
    """A wild (start card), a blue-8 on it 12 mm off, then a second wild put
    on the blue-8 under a hand that lingers, showing ``covered_h`` mm of its
    87, then leaves."""
    table = Table(PlayConfig())
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
