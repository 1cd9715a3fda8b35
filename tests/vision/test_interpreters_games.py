"""Interpreters for overflow, junocos and narabe-runo; the round-end scan."""

from __future__ import annotations

import numpy as np
import pytest

from referee.cards import CLASSES
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.interpreters import (
    JunocosInterpreter,
    NarabeInterpreter,
    OverflowInterpreter,
    interpreter_for,
)
from vision.scan import HandScan, cards_in_zone, deck_labels
from vision.config import ScanConfig
from vision.hands import Reach
from vision.tracking import CardTracker

FPS = 15.0


def dets(rows) -> Detections:
    if not rows:
        return Detections.empty()
    boxes = [(x - 28, y - 43, x + 28, y + 43) for _, x, y, *_ in rows]
    return Detections(
        np.array(boxes),
        np.full(len(rows), 0.9),
        [CLASSES.index(r[0]) for r in rows],
        data={"touched": np.array([bool(r[3]) if len(r) > 3 else False for r in rows])},
    )


class Run:
    def __init__(self, stage, players=("A", "B", "C")):
        self.geo = TableGeometry.default((560, 420), players)
        self.tracker = CardTracker(self.geo)
        self.stage = stage(self.geo) if isinstance(stage, type) else stage
        self.t = 0.0
        self.events: list[dict] = []

    def frames(self, n, rows, reaches=()):
        out = []
        for _ in range(n):
            tracked = self.tracker.update(dets(rows), self.t)
            out += self.stage.update(
                tracked, self.t, self.tracker.tracks, list(reaches)
            )
            self.t += 1 / FPS
        self.events += out
        return out


def test_overflow_reads_limits_and_counts_inserts_by_colour():
    run = Run(OverflowInterpreter)
    limits = [
        ("red-2", 280, 92),
        ("yellow-reverse", 398, 210),
        ("green-0", 280, 328),
        ("blue-3", 162, 210),
    ]
    events = run.frames(6, limits)
    assert sorted(e["card"] for e in events) == [
        "blue-3",
        "green-0",
        "red-2",
        "yellow-reverse",
    ]
    assert {e["type"] for e in events} == {"limit"}
    run.frames(3, limits, reaches=[Reach("B", (280, 210), 9000.0)])
    inserts = run.frames(6, limits + [("red-7", 280, 210)])
    assert [(e["type"], e["card"], e["reach_from"]) for e in inserts] == [
        ("insert", "red-7", "B")
    ]
    run.frames(6, limits + [("red-9", 284, 214)], reaches=[Reach("C", (280, 210), 9e3)])
    run.frames(6, limits + [("red-9", 284, 214)])
    run.frames(6, limits + [("wild", 276, 206)])
    assert run.stage.counts == {"red": 2, "wild": 1}
    # the box emptied (shuffled under the pile) starts a new count
    run.frames(int(3.5 * FPS), limits)
    assert run.stage.counts == {}


def test_junocos_cards_in_the_trick_belong_to_the_seat_they_lie_in_front_of():
    run = Run(JunocosInterpreter)
    trick = [("red-5", 280, 290), ("red-2", 180, 170), ("red-6", 380, 170)]
    events = []
    for k in range(3):
        events += run.frames(6, trick[: k + 1])
    assert [(e["type"], e["player"], e["card"]) for e in events] == [
        ("play", "A", "red-5"),
        ("play", "B", "red-2"),
        ("play", "C", "red-6"),
    ]
    run.frames(int(2 * FPS), [])  # the trick is taken
    again = run.frames(6, [("blue-1", 280, 290)])
    assert [(e["player"], e["card"]) for e in again] == [("A", "blue-1")]


def test_narabe_runo_positions_become_grid_cells_from_the_start_card():
    run = Run(NarabeInterpreter)
    start = ("red-5", 280, 210)
    assert run.frames(6, [start]) == [
        {
            "type": "start",
            "card": "red-5",
            "at": [0, 0],
            "t": pytest.approx(2 / FPS, abs=0.01),
        }
    ]
    right = ("red-7", 280 + 58, 212)
    above = ("red-7", 280, 210 - 89)  # a second copy of the same card elsewhere
    run.frames(6, [start, right])
    run.frames(6, [start, right, above])
    plays = [e for e in run.events if e["type"] == "play"]
    assert [(e["card"], e["at"]) for e in plays] == [
        ("red-7", [1, 0]),
        ("red-7", [0, -1]),
    ]


def test_unknown_game_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="junocos"):
        interpreter_for("poker", TableGeometry.default((560, 420), ("A", "B")))


def hand_scan(players=("A", "B", "C")):
    geo = TableGeometry.default((560, 420), players)
    return Run(HandScan(geo, ScanConfig(settle_s=1.0)), players)


def test_scan_reveals_a_laid_out_hand_once_it_lies_still():
    run = hand_scan()
    hand = [("blue-4", 150, 372), ("wild", 210, 372), ("red-2", 270, 372)]
    assert run.frames(30, hand) == []  # not active: nothing
    run.stage.active = True
    events = run.frames(30, hand)
    assert [(e["type"], e["player"], e["cards"]) for e in events] == [
        ("reveal", "A", ["blue-4", "red-2", "wild"])
    ]
    assert run.frames(30, hand) == []  # sent once


def test_scan_waits_while_a_hand_is_still_laying_cards():
    run = hand_scan()
    run.stage.active = True
    for k in range(40):  # the wild is still being slid into place
        run.frames(1, [("blue-4", 150, 372), ("wild", 180 + 3 * k, 372, True)])
    assert run.events == []
    events = run.frames(25, [("blue-4", 150, 372), ("wild", 300, 372)])
    assert [e["cards"] for e in events] == [["blue-4", "wild"]]


def test_scan_reveals_cards_a_hand_tracker_still_calls_touched_once_still():
    # Cards just laid out near the table's edge look like an arm to the hand
    # tracker for seconds; lying still is what counts.
    run = hand_scan()
    run.stage.active = True
    events = run.frames(25, [("blue-4", 150, 372, True), ("wild", 210, 372, True)])
    assert [e["cards"] for e in events] == [["blue-4", "wild"]]


def test_scan_ignores_what_lay_there_before_and_cards_off_the_deck():
    geo = TableGeometry.default((560, 420), ("A", "B", "C"))
    run = Run(HandScan(geo, allowed=deck_labels("uno", {"deck": 108})))
    marker = ("wild-custom", 520, 400)  # a corner marker read as a card, all along
    run.frames(60, [marker])
    run.stage.active = True
    assert run.frames(30, [marker]) == []
    hand = [marker, ("blue-4", 150, 372), ("wild-shuffle", 270, 372)]
    events = run.frames(30, hand)
    assert [(e["player"], e["cards"]) for e in events] == [("A", ["blue-4"])]


def test_scan_ignores_the_piles_and_one_frame_misreads():
    run = hand_scan()
    run.stage.active = True
    run.frames(8, [("red-7", 330, 210), ("blue-4", 40, 60)])
    run.frames(1, [("red-7", 330, 210), ("blue-5", 40, 60)])  # misread
    events = run.frames(20, [("red-7", 330, 210), ("blue-4", 40, 60)])
    assert [(e["player"], e["cards"]) for e in events] == [("B", ["blue-4"])]


def test_cards_in_zone_for_a_one_shot_scan():
    geo = TableGeometry.default((560, 420), ("A", "B", "C"))
    frame = dets([("blue-4", 150, 372), ("red-7", 330, 210), ("green-1", 40, 60)])
    assert cards_in_zone(frame, geo, "seat:A") == ["blue-4"]


def test_scan_waits_for_as_many_cards_as_the_referee_counts():
    geo = TableGeometry.default((560, 420), ("A", "B", "C"))
    run = Run(HandScan(geo, game_state=lambda: {"hand_counts": {"A": 3, "B": 1}}))
    run.stage.active = True
    two = [("blue-4", 150, 372), ("wild", 210, 372)]
    assert run.frames(30, two) == []  # A holds 3: one is not seen yet
    events = run.frames(30, two + [("red-2", 270, 372)])
    assert [(e["player"], e["cards"]) for e in events] == [
        ("A", ["blue-4", "red-2", "wild"])
    ]


def test_scan_rides_out_a_card_the_detector_misses_now_and_then():
    run = hand_scan()
    run.stage.active = True
    hand = [("blue-4", 150, 372), ("wild", 210, 372)]
    for k in range(40):
        run.frames(1, hand if k % 4 else hand[:1])  # the wild drops out 1 frame in 4
    assert [e["cards"] for e in run.events] == [["blue-4", "wild"]]
