"""The round's start card: the dealer's hand covers it as it lets go of it, so
the card shows a frame or two late; on the empty discard pile it counts once
it lies still (``play.start_mm``) for ``settle_frames`` frames spanning
``play.start_s``, its first, fingertip-touched read included. Hand-made
detections at 30 fps."""

from __future__ import annotations

import numpy as np

from referee.cards import CLASSES
from vision.config import PlayConfig
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.plays import UnoPlayDetector
from vision.tracking import CardTracker

FPS = 30.0
PILE = (330.0, 210.0)  # centre of the default discard zone on a 560 x 420 mm table


class Table:
    def __init__(self, config: PlayConfig):
        geo = TableGeometry.default((560, 420), ("A", "B", "C"))
        self.tracker = CardTracker(geo)
        self.plays = UnoPlayDetector(geo, config)
        self.t = 0.0
        self.events: list[tuple[float, dict]] = []

    def frame(self, rows) -> None:
        """rows: (label, x, y, w, h, touched) in table mm."""
        boxes = [(x - w / 2, y - h / 2, x + w / 2, y + h / 2) for _, x, y, w, h, _ in rows]
        dets = Detections(
            np.array(boxes).reshape(-1, 4),
            np.full(len(rows), 0.9),
            [CLASSES.index(r[0]) for r in rows],
            data={"touched": np.array([r[5] for r in rows], dtype=bool)},
        )
        tracked = self.tracker.update(dets, self.t)
        for e in self.plays.update(tracked, self.t, self.tracker.tracks, []):
            self.events.append((self.t, e))
        self.t += 1 / FPS


def turned(config: PlayConfig, first_touched=True, first_off_mm=2.0, frames=12):
    """The dealer's start card: a first read under the fingertip a little off,
    then the card alone, still. Returns (time of the first read, events)."""
    table = Table(config)
    for _ in range(3):
        table.frame([])
    first = table.t
    x, y = PILE
    table.frame([("blue-9", x + first_off_mm, y, 56.0, 87.0, first_touched)])
    for _ in range(frames):
        table.frame([("blue-9", x, y, 56.0, 87.0, False)])
    return first, table.events


def test_the_start_card_counts_on_its_third_read_its_touched_first_read_included():
    config = PlayConfig()
    first, events = turned(config)
    assert [e["type"] for _, e in events] == ["start"]
    assert events[0][1]["card"] == "blue-9"
    assert abs(events[0][0] - (first + 2 / FPS)) < 1e-6


def test_with_start_s_off_the_start_card_waits_for_untouched_reads():
    config = PlayConfig(start_s=0.0)
    first, events = turned(config)
    assert [e["type"] for _, e in events] == ["start"]
    assert events[0][0] > first + 2 / FPS + 1e-6


def test_a_start_card_still_moving_in_the_hand_does_not_count_early():
    config = PlayConfig()
    table = Table(config)
    x, y = PILE
    for k in range(4):  # carried down onto the pile, touched, moving 5 mm a frame
        table.frame([("blue-9", x - 20 + 5 * k, y, 56.0, 87.0, True)])
    assert table.events == []


def test_a_start_card_held_up_measuring_large_does_not_count():
    config = PlayConfig()
    table = Table(config)
    x, y = PILE
    for _ in range(6):  # held above the pile, nearer the camera: 1.4 card sizes
        table.frame([("blue-9", x, y, 56.0 * 1.4, 87.0 * 1.4, True)])
    assert table.events == []


def test_only_the_first_card_of_the_pile_counts_early():
    config = PlayConfig()
    _, events = turned(config)
    assert len(events) == 1
    table = Table(config)
    x, y = PILE
    for _ in range(8):
        table.frame([("blue-9", x, y, 56.0, 87.0, False)])
    assert [e["type"] for _, e in table.events] == ["start"]
    # a second card, first read touched and 2 mm off, then still: not a start,
    # and not taken on the start card's rule at its third read
    first = table.t
    table.frame([("blue-9", x, y, 56.0, 87.0, False), ("blue-3", x + 12, y + 2, 56.0, 87.0, True)])
    for _ in range(2):
        table.frame([("blue-9", x, y, 56.0, 87.0, False), ("blue-3", x + 10, y + 2, 56.0, 87.0, False)])
    assert [e["type"] for _, e in table.events] == ["start"]
    for _ in range(10):
        table.frame([("blue-9", x, y, 56.0, 87.0, False), ("blue-3", x + 10, y + 2, 56.0, 87.0, False)])
    plays = [(t, e) for t, e in table.events if e["type"] == "play"]
    assert [e["cards"] for _, e in plays] == [["blue-3"]]
    assert plays[0][0] > first + 2 / FPS + 1e-6


def test_a_start_card_the_hand_still_touches_waits_for_let_go_or_the_hand_to_leave():
    config = PlayConfig()
    table = Table(config)
    x, y = PILE
    # held down on the pile, its box wobbling 1 mm (more than play.let_go_mm):
    # still in the hand, it does not count on the start card's rule
    for k in range(6):
        table.frame([("blue-9", x + (k % 2), y, 56.0, 87.0, True)])
    assert table.events == []
