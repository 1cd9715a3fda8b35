"""Play detection for classic UNO, driven by hand-made detections (no images)."""

from __future__ import annotations

import numpy as np
import pytest

from referee.cards import CLASSES
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.plays import PlayConfig, UnoPlayDetector, card_scale
from vision.tracking import CardTracker, Reach

PLAYERS = ("A", "B", "C")
FPS = 15.0
PILE = (330.0, 210.0)  # centre of the default discard zone on a 560 x 420 mm table
DRAW = (202.0, 210.0)


def geometry() -> TableGeometry:
    """A camera straight above: one pixel is one millimetre."""
    return TableGeometry.default((560, 420), PLAYERS)


def card(label, x, y, w=56.0, h=87.0, touched=False):
    return (label, x, y, w, h, touched)


def dets(rows) -> Detections:
    if not rows:
        return Detections.empty()
    boxes = [(x - w / 2, y - h / 2, x + w / 2, y + h / 2) for _, x, y, w, h, _ in rows]
    return Detections(
        np.array(boxes),
        np.full(len(rows), 0.9),
        [CLASSES.index(r[0]) for r in rows],
        data={"touched": np.array([r[5] for r in rows])},
    )


class Table:
    """Feeds frames through a tracker and the play detector, collecting events."""

    def __init__(self, config: PlayConfig | None = None, **kw):
        self.geo = geometry()
        self.tracker = CardTracker(self.geo)
        self.plays = UnoPlayDetector(self.geo, config, **kw)
        self.t = 0.0
        self.events: list[dict] = []

    def frames(self, n: int, rows, reaches=()) -> list[dict]:
        new = []
        for _ in range(n):
            tracked = self.tracker.update(dets(rows), self.t)
            new += self.plays.update(
                tracked, self.t, self.tracker.tracks, list(reaches)
            )
            self.t += 1 / FPS
        self.events += new
        return new


def started(first="red-7") -> Table:
    table = Table()
    assert [e["type"] for e in table.frames(6, [card(first, *PILE)])] == ["start"]
    return table


def test_first_card_is_the_start_then_a_new_card_is_a_play():
    table = started("red-7")
    assert table.events[0]["card"] == "red-7"
    events = table.frames(
        6, [card("red-7", *PILE), card("red-3", PILE[0] + 8, PILE[1] - 5)]
    )
    assert len(events) == 1
    assert events[0]["type"] == "play" and events[0]["cards"] == ["red-3"]
    assert "player" not in events[0]


def test_play_waits_for_settle_frames():
    table = started()
    rows = [card("red-7", *PILE), card("red-3", PILE[0] + 8, PILE[1])]
    assert table.frames(2, rows) == []  # two frames are not enough
    assert len(table.frames(1, rows)) == 1


def test_one_frame_misread_is_no_play():
    table = started("red-7")
    table.frames(1, [card("blue-9", *PILE)])
    assert table.frames(10, [card("red-7", *PILE)]) == []


def test_card_touched_by_a_hand_is_not_played_until_let_go():
    table = started()
    held = [
        card("red-7", *PILE),
        card("red-2", PILE[0] + 10, PILE[1] + 4, touched=True),
    ]
    assert table.frames(15, held) == []
    released = [card("red-7", *PILE), card("red-2", PILE[0] + 10, PILE[1] + 4)]
    assert [e["cards"] for e in table.frames(5, released)] == [["red-2"]]


def test_card_held_up_measures_too_large_and_is_no_play():
    table = started()
    # Held 15 cm above the table: 1.25 times the size of a card lying flat.
    high = [card("red-7", *PILE), card("red-2", PILE[0] + 10, PILE[1], 70.0, 109.0)]
    assert table.frames(20, high) == []


def test_moving_card_is_no_play():
    table = started()
    for k in range(20):
        table.frames(
            1, [card("red-7", *PILE), card("red-2", PILE[0] - 40 + 5 * k, PILE[1])]
        )
    assert [e for e in table.events if e["type"] == "play"] == []


def test_hand_passing_over_the_pile_plays_nothing():
    table = started("red-7")
    table.frames(8, [], reaches=[Reach("B", PILE, 9000.0)])  # the pile is hidden
    assert table.frames(10, [card("red-7", *PILE)]) == []


def test_two_cards_landing_together_are_one_play():
    table = started()
    rows = [
        card("red-7", *PILE),
        card("red-3", PILE[0] - 15, PILE[1]),
        card("red-3", PILE[0] + 20, PILE[1] + 5),
    ]
    events = table.frames(5, rows)
    assert [(e["type"], e["cards"]) for e in events] == [("play", ["red-3", "red-3"])]


def test_group_window_joins_cards_of_one_turn():
    table = Table(PlayConfig(group_s=1.0))
    table.frames(5, [card("red-7", *PILE)])
    first = [card("red-7", *PILE), card("red-3", PILE[0] - 15, PILE[1])]
    assert table.frames(6, first) == []
    both = first + [card("blue-3", PILE[0] + 20, PILE[1] + 5)]
    table.frames(5, both)
    table.frames(20, both)
    plays = [e for e in table.events if e["type"] == "play"]
    assert [e["cards"] for e in plays] == [["red-3", "blue-3"]]


def test_second_copy_on_the_same_spot_counts_after_a_reach():
    table = started("red-7")
    table.frames(6, [card("red-7", *PILE), card("wild", 331, 211, 70, 95)])
    table.frames(4, [], reaches=[Reach("B", PILE, 9000.0)])
    events = table.frames(6, [card("red-7", *PILE), card("wild", 333, 213, 62, 92)])
    assert [e["cards"] for e in events] == [["wild"]]


def test_the_same_card_seen_again_after_a_reach_is_not_played_twice():
    table = started("red-7")
    table.frames(6, [card("red-7", *PILE), card("wild", 331, 211, 70, 95)])
    table.frames(4, [], reaches=[Reach("B", PILE, 9000.0)])
    assert table.frames(6, [card("red-7", *PILE), card("wild", 332, 212, 71, 95)]) == []


def test_lower_card_peeking_out_is_not_played_again():
    table = started("red-7")
    table.frames(6, [card("red-7", *PILE), card("red-3", 330, 210)])
    table.frames(6, [card("red-3", 330, 210), card("blue-3", 335, 215)])
    # a corner of red-7 shows beside the (still fully visible) top card blue-3
    rows = [card("blue-3", 335, 215), card("red-7", 290, 180, 30, 40)]
    assert table.frames(8, rows) == []


def test_cleared_pile_starts_a_new_round():
    table = started("red-7")
    table.frames(6, [card("red-7", *PILE), card("red-3", 335, 214)])
    table.frames(int(3.5 * FPS), [])
    events = table.frames(6, [card("green-4", *PILE)])
    assert [(e["type"], e.get("card")) for e in events] == [("start", "green-4")]


def test_a_reach_that_dwells_on_the_draw_pile_is_a_draw():
    table = started()
    table.frames(8, [card("red-7", *PILE)], reaches=[Reach("B", DRAW, 8000.0)])
    table.frames(40, [card("red-7", *PILE)])
    draws = [e for e in table.events if e["type"] == "draw"]
    assert draws == [
        {
            "type": "draw",
            "count": 1,
            "t": pytest.approx(draws[0]["t"]),
            "reach_from": "B",
        }
    ]


def test_two_takes_by_one_seat_are_one_draw_of_two():
    table = started()
    for _ in range(2):
        table.frames(6, [card("red-7", *PILE)], reaches=[Reach("C", DRAW, 8000.0)])
        table.frames(4, [card("red-7", *PILE)])
    table.frames(30, [card("red-7", *PILE)])
    assert [e["count"] for e in table.events if e["type"] == "draw"] == [2]


def test_an_arm_passing_over_the_draw_pile_is_no_draw():
    table = started()
    table.frames(2, [card("red-7", *PILE)], reaches=[Reach("B", DRAW, 8000.0)])
    table.frames(30, [card("red-7", *PILE)], reaches=[])
    assert [e for e in table.events if e["type"] == "draw"] == []


def test_turning_the_first_card_is_no_draw():
    table = Table()
    table.frames(8, [], reaches=[Reach("C", DRAW, 8000.0)])
    table.frames(6, [card("red-7", *PILE)])
    table.frames(30, [card("red-7", *PILE)])
    assert [e["type"] for e in table.events] == ["start"]


def test_attribute_players_puts_the_seat_in_player():
    table = Table(attribute_players=True)
    table.frames(6, [card("red-7", *PILE)])
    table.frames(3, [card("red-7", *PILE)], reaches=[Reach("B", PILE, 8000.0)])
    events = table.frames(6, [card("red-7", *PILE), card("red-1", 338, 214)])
    assert events[0]["player"] == "B" and "reach_from" not in events[0]


@pytest.mark.parametrize("angle", [0, 15, 40, 75, 90])
def test_card_scale_ignores_rotation(angle):
    a = np.radians(angle)
    w = 56 * np.cos(a) + 87 * np.sin(a)
    h = 56 * np.sin(a) + 87 * np.cos(a)
    assert card_scale(w, h, (56, 87)) == pytest.approx(1.0, abs=1e-6)
    assert card_scale(1.3 * w, 1.3 * h, (56, 87)) == pytest.approx(1.3, abs=1e-6)
