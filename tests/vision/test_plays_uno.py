"""Play detection for classic UNO, driven by hand-made detections (no images)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from referee.cards import CLASSES
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.card_scale import card_scale
from vision.config import PlayConfig
from vision.hands import Reach
from vision.plays import UnoPlayDetector
from vision.prior import choose_label, uno_legal
from vision.tracking import CardTracker

PLAYERS = ("A", "B", "C")
FPS = 15.0
PILE = (330.0, 210.0)  # centre of the default discard zone on a 560 x 420 mm table
DRAW = (202.0, 210.0)


def geometry() -> TableGeometry:
    """A camera straight above: one pixel is one millimetre."""
    return TableGeometry.default((560, 420), PLAYERS)


def card(label, x, y, w=56.0, h=87.0, touched=False, conf=0.9):
    return (label, x, y, w, h, touched, conf)


def dets(rows) -> Detections:
    if not rows:
        return Detections.empty()
    boxes = [(x - w / 2, y - h / 2, x + w / 2, y + h / 2) for _, x, y, w, h, *_ in rows]
    return Detections(
        np.array(boxes),
        np.array([r[6] for r in rows]),
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


def started(first="red-7", config: PlayConfig | None = None) -> Table:
    table = Table(config)
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


def test_with_let_go_off_a_card_touched_by_a_hand_is_not_played_until_let_go():
    table = started(config=PlayConfig(let_go_mm=0.0))
    held = [
        card("red-7", *PILE),
        card("red-2", PILE[0] + 10, PILE[1] + 4, touched=True),
    ]
    assert table.frames(15, held) == []
    released = [card("red-7", *PILE), card("red-2", PILE[0] + 10, PILE[1] + 4)]
    assert [e["cards"] for e in table.frames(5, released)] == [["red-2"]]


def test_card_held_up_measures_too_large_and_is_no_play():
    table = started()
    # Held 20 cm above the table: 1.35 times the size of a card lying flat.
    high = [card("red-7", *PILE), card("red-2", PILE[0] + 10, PILE[1], 76.0, 117.0)]
    assert table.frames(20, high) == []


def test_a_loose_box_of_a_card_lying_flat_still_counts():
    # A detector's box may be a fifth larger than the card (rotated cards)
    table = started()
    loose = [card("red-7", *PILE), card("red-2", PILE[0] + 10, PILE[1], 67.0, 104.0)]
    assert [e["cards"] for e in table.frames(5, loose)] == [["red-2"]]


def test_a_card_read_two_ways_is_played_once():
    # the classifier is torn about the card: after it has been played its
    # box shifts by a pixel and the reads go to the runner-up for good
    table = started("red-7")
    table.frames(6, [card("red-7", *PILE), card("red-2", 338, 205)])
    assert [e["cards"] for e in table.events[1:]] == [["red-2"]]
    assert table.frames(15, [card("red-7", *PILE), card("red-reverse", 338, 206)]) == []


def test_a_card_read_two_ways_and_missed_in_between_is_played_once():
    # its best probability dips under the detector's threshold now and then:
    # a few frames without it, then the other label
    table = started("red-7")
    table.frames(6, [card("red-7", *PILE), card("red-2", 338, 205)])
    table.frames(3, [card("red-7", *PILE)])
    assert table.frames(15, [card("red-7", *PILE), card("red-reverse", 338, 206)]) == []


def test_a_card_read_two_ways_after_an_arm_reached_in_is_a_new_play():
    table = started("red-7")
    table.frames(6, [card("red-7", *PILE), card("red-2", 338, 205)])
    table.frames(3, [card("red-7", *PILE)], reaches=[Reach("B", PILE, 9000.0)])
    events = table.frames(6, [card("red-7", *PILE), card("red-5", 338, 206)])
    assert [e["cards"] for e in events] == [["red-5"]]


def test_another_card_put_at_the_same_spot_is_still_a_play():
    table = started("red-7")
    table.frames(6, [card("red-7", *PILE), card("red-2", 338, 205)])
    # a hand brings the red 5 and lays it exactly on the red 2
    table.frames(4, [card("red-5", 338, 205, touched=True)])
    events = table.frames(6, [card("red-5", 338, 205)])
    assert [e["cards"] for e in events] == [["red-5"]]


def torn(first: str, second: str, p_first: float, p_second: float) -> Detections:
    """The pile's red 7 and a new card the classifier is torn about (its
    probabilities for two labels close, as ``Detector`` gives them)."""
    frame = dets([card("red-7", *PILE), card(first, 338, 205, conf=p_first)])
    probs = np.full((2, len(CLASSES)), 0.001, np.float32)
    probs[0, CLASSES.index("red-7")] = 0.95
    probs[1, CLASSES.index(first)] = p_first
    probs[1, CLASSES.index(second)] = p_second
    frame.data["probs"] = probs
    return frame


def waited_for_torn_reads(config: PlayConfig) -> tuple[list, float]:
    table = Table(config)
    table.frames(6, [card("red-7", *PILE)])
    settled = table.t
    events = []
    for k in range(30):
        # every other frame names the runner-up: the reads stay close
        frame = (
            torn("red-2", "red-reverse", 0.38, 0.33)
            if k % 2
            else torn("red-reverse", "red-2", 0.34, 0.36)
        )
        tracked = table.tracker.update(frame, table.t)
        events += table.plays.update(tracked, table.t, table.tracker.tracks, [])
        table.t += 1 / FPS
    return [e["cards"] for e in events], events[0]["t"] - settled if events else -1


def test_reads_that_disagree_wait_up_to_unsure_s_then_take_the_better():
    cards, waited = waited_for_torn_reads(PlayConfig())
    assert cards == [["red-2"]]
    assert 0.7 <= waited <= 1.1  # unsure_s is 0.8 s
    cards, waited = waited_for_torn_reads(PlayConfig(unsure_s=0.4))
    assert cards == [["red-2"]] and 0.3 <= waited <= 0.7


def feed(table: Table, frame: Detections, reaches=()) -> list[dict]:
    tracked = table.tracker.update(frame, table.t)
    events = table.plays.update(tracked, table.t, table.tracker.tracks, list(reaches))
    table.t += 1 / FPS
    table.events += events
    return events


def torn_card_played() -> Table:
    """A red 2 the classifier is torn about (against a red reverse), played."""
    table = Table()
    table.frames(6, [card("red-7", *PILE)])
    for k in range(20):
        feed(table, torn("red-2", "red-reverse", 0.38, 0.33) if k % 2
             else torn("red-reverse", "red-2", 0.34, 0.36))
    assert [e["cards"] for e in table.events[1:]] == [["red-2"]]
    return table


def hand_over(table: Table, frames: int = 8) -> None:
    """A hand passes over the pile: an arm in its zone, the top card touched."""
    for _ in range(frames):
        frame = torn("red-2", "red-reverse", 0.30, 0.20)
        frame.data["touched"][1] = True
        feed(table, frame, [Reach("B", PILE, 9000.0)])


def test_a_torn_card_read_again_after_a_hand_passed_over_it_is_no_new_card():
    table = torn_card_played()
    hand_over(table)
    # the hand is gone, the card lies where it lay, still torn, now the other way
    for k in range(30):
        events = feed(table, torn("red-reverse", "red-2", 0.39, 0.37) if k % 3
                      else torn("red-2", "red-reverse", 0.38, 0.37))
        assert events == []


def test_a_clear_read_on_the_torn_cards_spot_is_a_play():
    table = torn_card_played()
    hand_over(table)  # the hand lays a red reverse exactly on the red 2
    events = []
    for _ in range(10):
        events += feed(table, torn("red-reverse", "red-2", 0.92, 0.02))
    assert [e["cards"] for e in events] == [["red-reverse"]]


def test_a_torn_read_of_two_other_labels_on_that_spot_is_a_play():
    table = torn_card_played()
    hand_over(table)  # a red 5 or red 6 lands there, the classifier torn on it
    events = []
    for k in range(30):
        events += feed(table, torn("red-5", "red-6", 0.40, 0.36) if k % 2
                       else torn("red-6", "red-5", 0.37, 0.38))
    assert [e["cards"] for e in events] in ([["red-5"]], [["red-6"]])


def messy_pile(top: tuple[float, float] | None = None) -> Table:
    """A pile whose cards stick out: its boxes span 100 x 120 mm; with
    ``top``, a red-9 boxed that size laid on it last."""
    table = Table()
    table.frames(6, [card("red-7", *PILE, 100.0, 120.0)])
    assert [e["type"] for e in table.events] == ["start"]
    if top is not None:
        table.frames(8, [card("red-9", *PILE, *top)])
        assert [e.get("cards") for e in table.events[1:]] == [["red-9"]]
    return table


def test_a_box_that_takes_in_the_pile_below_counts_once_it_has_lain_a_while():
    # The top card's box takes in the edges of the cards below: 1.3 card sizes
    # (over max_scale), but within the pile's extent; larger on every side
    # than the card on top (boxed as a card), it may be a card held up.
    table = messy_pile(top=(60.0, 90.0))
    landed = table.t
    rows = [card("red-3", *PILE, 73.0, 113.0)]
    assert card_scale(73.0, 113.0, table.geo.card) > PlayConfig().max_scale
    assert table.frames(5, rows) == []  # settled, but not for loose_s yet
    events = table.frames(6, rows)
    assert [e["cards"] for e in events] == [["red-3"]]
    assert events[0]["t"] - landed >= PlayConfig().loose_s - 1e-3
    assert table.frames(10, rows) == []  # and only once


def test_a_loose_box_measuring_as_the_top_card_counts_once_settled():
    """On a pile whose top card was boxed as large (the edges of the cards
    below), a box over max_scale that is not larger than the top's on every
    side lies on the pile as the top did: it counts at the settle time, not
    loose_s (a card held up is nearer the camera, larger on every side)."""
    table = messy_pile()
    rows = [card("red-3", *PILE, 73.0, 113.0)]
    assert card_scale(73.0, 113.0, table.geo.card) > PlayConfig().max_scale
    events = table.frames(5, rows)
    assert [e["cards"] for e in events] == [["red-3"]]
    assert table.frames(10, rows) == []  # and only once


def test_a_loose_box_waits_for_the_hand_to_leave_the_pile():
    table = messy_pile(top=(60.0, 90.0))
    rows = [card("red-3", *PILE, 73.0, 113.0)]
    for _ in range(8):  # a hand keeps reaching into the pile's zone
        table.frames(1, rows, reaches=[Reach("B", (PILE[0], PILE[1] + 80), 9000.0)])
    left = table.t
    assert table.frames(7, rows) == []
    events = table.frames(4, rows)
    assert [e["cards"] for e in events] == [["red-3"]]
    assert events[0]["t"] - left >= PlayConfig().loose_s - 0.1


def test_a_large_box_sticking_out_of_the_pile_is_no_play_however_long():
    table = messy_pile()
    # as large as the loose box above, but beside the pile: a card held up
    rows = [
        card("red-7", *PILE, 100.0, 120.0),
        card("red-3", PILE[0] + 40, PILE[1], 73.0, 113.0),
    ]
    assert table.frames(30, rows) == []


def test_a_box_that_jitters_on_an_undisturbed_track_is_not_a_second_copy():
    table = started("red-7")
    table.frames(6, [card("red-7", *PILE), card("wild", 331, 211, 70, 95)])
    # an arm reaches past (into the zone, not over the card); the wild's box
    # jitters as the arm's shadow falls on it, but it was seen every frame
    table.frames(
        3, [card("wild", 331, 211, 70, 95)], reaches=[Reach("C", PILE, 9000.0)]
    )
    rows = [card("red-7", *PILE), card("wild", 340, 216, 62, 90)]
    assert table.frames(6, rows) == []


def probs_dets(rows) -> Detections:
    """Rows of (x, y, {label: probability}) with the classifier's probabilities."""
    probs = np.full((len(rows), len(CLASSES)), 1e-4, np.float32)
    for i, (_, _, p) in enumerate(rows):
        for label, v in p.items():
            probs[i, CLASSES.index(label)] = v
    best = probs.argmax(axis=1)
    return Detections(
        np.array([(x - 28, y - 43, x + 28, y + 43) for x, y, _ in rows]),
        probs[np.arange(len(rows)), best],
        best,
        data={"touched": np.zeros(len(rows), bool), "probs": probs},
    )


def run_with_referee(state: dict, read: dict[str, float]) -> list[dict]:
    geo = geometry()
    tracker = CardTracker(geo)
    plays = UnoPlayDetector(geo, game_state=lambda: state)
    events, t = [], 0.0
    for k in range(20):  # a close call waits for evidence_s of reads
        rows = [(PILE[0], PILE[1], {"red-7": 0.95})]
        if k >= 6:
            rows.append((PILE[0] + 10, PILE[1] + 4, read))
        tracked = tracker.update(probs_dets(rows), t)
        events += plays.update(tracked, t, tracker.tracks, [])
        t += 1 / FPS
    return [e for e in events if e["type"] == "play"]


RED_7 = {"phase": "turn", "top": "red-7", "color": "red", "pending_draw": 0}


def test_a_close_call_goes_to_the_legal_play():
    # blue-1 (illegal on the red 7) just ahead of red-1 (legal): the referee's
    # prior decides
    plays = run_with_referee(RED_7, {"blue-1": 0.55, "red-1": 0.4})
    assert [e["cards"] for e in plays] == [["red-1"]]


def test_a_clear_illegal_play_is_reported_as_seen():
    plays = run_with_referee(RED_7, {"blue-1": 0.93, "red-1": 0.03})
    assert [e["cards"] for e in plays] == [["blue-1"]]


def test_no_prior_without_a_turn_or_with_a_debt():
    for state in ({**RED_7, "phase": "scoring"}, {**RED_7, "pending_draw": 2}):
        plays = run_with_referee(state, {"blue-1": 0.55, "red-1": 0.4})
        assert [e["cards"] for e in plays] == [["blue-1"]]


def test_uno_legal_follows_the_top_card_the_colour_and_the_deck():
    legal = uno_legal({**RED_7, "color": "blue", "top": "wild"})
    assert legal("blue-3") and legal("wild") and not legal("red-3")
    assert not legal("wild-custom")  # not in the 108-card deck
    assert uno_legal({**RED_7, "phase": "setup"}) is None


def test_choose_label_keeps_a_clear_reading():
    scores = np.log(np.array([0.9, 0.05, 0.05]))
    names = ["blue-1", "red-1", "green-1"]
    legal = {"red-1"}.__contains__
    assert choose_label(scores, names, legal) == "blue-1"
    close = np.log(np.array([0.5, 0.4, 0.1]))
    assert choose_label(close, names, legal) == "red-1"
    assert choose_label(close, names, None) == "blue-1"


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
    # the first wild lies turned by 20 degrees: its box is 82 x 101 mm
    table.frames(6, [card("red-7", *PILE), card("wild", 331, 211, 82, 101)])
    table.frames(4, [], reaches=[Reach("B", PILE, 9000.0)])
    # the second lies straight: its box measures visibly differently
    events = table.frames(6, [card("red-7", *PILE), card("wild", 333, 213, 56, 87)])
    assert [e["cards"] for e in events] == [["wild"]]


def test_second_copy_seen_carried_in_counts_on_the_very_same_spot():
    table = started("red-7")
    table.frames(6, [card("red-7", *PILE), card("wild", 331, 211, 70, 95)])
    # a wild in a hand, on its way to the pile, then put down exactly on it
    for x in (250, 280):
        table.frames(
            1,
            [card("wild", 331, 211, 70, 95), card("wild", x, 190, 70, 95, True)],
            reaches=[Reach("B", (x - 40, 190), 9000.0)],
        )
    table.frames(
        2, [card("wild", 331, 211, 70, 95, True)], reaches=[Reach("B", PILE, 9000.0)]
    )
    events = table.frames(6, [card("red-7", *PILE), card("wild", 332, 211, 70, 95)])
    assert [e["cards"] for e in events] == [["wild"]]


def test_card_hovered_over_the_pile_does_not_play_the_top_card_again():
    table = started("red-7")
    table.frames(6, [card("red-7", *PILE), card("wild", 331, 211, 70, 95)])
    # a hand holds a card over the pile: the wild's own box is dragged along
    # (the same track, touched, 28 mm off) while still read as the wild
    table.frames(
        4,
        [card("wild", 351, 192, 80, 100, True)],
        reaches=[Reach("B", PILE, 9000.0)],
    )
    table.frames(2, [], reaches=[Reach("B", PILE, 9000.0)])
    assert table.frames(8, [card("red-7", *PILE), card("wild", 331, 211, 70, 95)]) == []


def test_an_unsure_read_of_a_card_in_a_hand_is_no_second_copy():
    table = started("red-7")
    table.frames(6, [card("red-7", *PILE), card("wild", 331, 211, 70, 95)])
    # the card in the hand is read as a wild, but barely: not evidence enough
    # that a second wild is coming
    for x in (250, 280):
        table.frames(
            1,
            [card("wild", 331, 211, 70, 95), card("wild", x, 190, 70, 95, True, 0.4)],
            reaches=[Reach("B", (x - 40, 190), 9000.0)],
        )
    table.frames(2, [], reaches=[Reach("B", PILE, 9000.0)])
    assert table.frames(6, [card("red-7", *PILE), card("wild", 332, 211, 70, 95)]) == []


def test_top_card_with_one_end_covered_is_not_a_second_copy():
    table = started("red-7")
    # a wild lying turned: its box is 86 x 107 mm
    table.frames(6, [card("red-7", *PILE), card("wild", 326, 212, 86, 107)])
    # an arm passes over the far end of the pile on its way to the draw pile:
    # the wild's box loses 30 mm at the top, too small for a whole card now
    table.frames(
        3, [card("wild", 326, 212, 86, 107, True)], reaches=[Reach("C", PILE, 9000.0)]
    )
    table.frames(4, [card("red-7", *PILE), card("wild", 326, 212, 86, 107)])
    assert table.frames(10, [card("red-7", *PILE), card("wild", 328, 231, 85, 77)]) == []


@pytest.mark.parametrize(("whole_box", "part_box"), [
    ((326, 207, 86, 107), (329, 229, 87, 74)),  # seed 56
    ((327, 203, 82, 96), (328, 230, 80, 75)),  # seed 51: takes in a card below
])
def test_top_card_half_hidden_by_a_still_hand_is_not_a_second_copy(whole_box, part_box):
    """Seed 56 of the rendered games: a hand rests over the far end of a wild
    draw four whose sleeve the camera cannot tell from the cloth (no arm is
    seen). The box left is the near 74 of its 107 mm and its centre lies 22 mm
    from the whole card's, farther than two reads of one card differ, but it
    is smaller than a card and centred within the card's box: that card,
    partly hidden, not a copy laid beside it."""
    table = started("red-7")
    whole = [card("red-7", *PILE), card("wild-draw4", *whole_box)]
    part = [card("red-7", *PILE), card("wild-draw4", *part_box)]
    table.frames(6, whole)
    # a hand passes over the pile and hides the card: its track ends
    table.frames(20, [card("red-7", *PILE)], reaches=[Reach("B", PILE, 9000.0)])
    assert table.frames(6, whole) == []  # seen again: known
    for _ in range(3):  # a hand hovers: the box jumps between the two
        assert table.frames(4, whole) + table.frames(6, part) == []


def test_a_second_copy_is_played_though_the_first_ones_box_measured_large():
    """Seed 51: the first green-2 (played a minute before) was read with a box
    taking in the card below (80 x 110 mm, 1.17 cards); the second lands 13 mm
    from it with an ordinary box (82 x 95, 0.92 cards). Not smaller than a
    whole card: a play, not the first copy partly covered."""
    table = started("red-7")
    table.frames(6, [card("red-7", *PILE), card("green-2", 327, 216, 80, 110)])
    hand = [Reach("B", PILE, 9000.0)]
    table.frames(3, [card("green-1", 325, 212, touched=True)], reaches=hand)
    table.frames(6, [card("green-1", 325, 212)])
    hand = [Reach("C", PILE, 9000.0)]
    events = table.frames(
        3, [card("green-2", 332, 204, 82, 95, touched=True)], reaches=hand
    )
    events += table.frames(8, [card("green-2", 332, 204, 82, 95)])
    assert [e["type"] for e in table.events].count("play") == 3
    assert [e["cards"] for e in events] == [["green-2"]]


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
    cleared = []
    for _ in range(int(3.5 * FPS)):  # the frame the pile is forgotten says so
        table.frames(1, [])
        cleared.append(table.plays.cleared)
    assert cleared.count(True) == 1 and 2.9 * FPS <= cleared.index(True) <= 3.1 * FPS
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


def test_a_draw_pays_what_the_referee_says_is_owed():
    """Two takes in one reach look like one; B owes a Draw Two's two cards
    (the referee's state), so the draw is of two, the camera's count kept."""
    state = {"turn": "B", "pending_draw": 2, "owed": {}}
    table = Table(game_state=lambda: state)
    table.frames(6, [card("red-7", *PILE)])
    table.frames(8, [card("red-7", *PILE)], reaches=[Reach("B", DRAW, 8000.0)])
    table.frames(40, [card("red-7", *PILE)])
    draws = [e for e in table.events if e["type"] == "draw"]
    assert [(e["count"], e.get("takes"), e["reach_from"]) for e in draws] == [
        (2, 1, "B")
    ]


def test_a_draw_by_someone_else_or_with_nothing_owed_counts_the_takes():
    for state in (
        {"turn": "C", "pending_draw": 4, "owed": {}},  # C owes it, B drew
        {"turn": "B", "pending_draw": 0, "owed": {}},
        {"turn": "B", "pending_draw": 0, "owed": {"C": 2}},
    ):
        table = Table(game_state=lambda state=state: state)
        table.frames(6, [card("red-7", *PILE)])
        table.frames(8, [card("red-7", *PILE)], reaches=[Reach("B", DRAW, 8000.0)])
        table.frames(40, [card("red-7", *PILE)])
        draws = [e for e in table.events if e["type"] == "draw"]
        assert [(e["count"], e.get("takes")) for e in draws] == [(1, None)], state


def test_a_penalty_owed_is_paid_by_the_draw_too():
    state = {"turn": "C", "pending_draw": 0, "owed": {"B": 2}}
    table = Table(game_state=lambda: state)
    table.frames(6, [card("red-7", *PILE)])
    table.frames(8, [card("red-7", *PILE)], reaches=[Reach("B", DRAW, 8000.0)])
    table.frames(40, [card("red-7", *PILE)])
    assert [e["count"] for e in table.events if e["type"] == "draw"] == [2]


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


def turn_of(seat: str, top: str) -> dict:
    """The referee's state: ``seat`` to move, ``top`` on the pile."""
    return {"phase": "turn", "turn": seat, "top": top, "color": top.split("-")[0],
            "pending_draw": 0}


def test_a_twin_put_neatly_on_its_copy_is_a_play():
    """Issue 25: a second copy lands a few mm off its twin, turned a few
    degrees, carried in under fingers (never read in the hand): an arm of the
    seat to move reached into the discard zone and the top changed, so it is
    a play."""
    state = turn_of("C", "red-7")
    table = Table(game_state=lambda: state)
    table.frames(6, [card("red-7", *PILE)])
    table.frames(6, [card("red-7", *PILE), card("red-3", 331, 211, 60, 90)])
    state.update(turn_of("B", "red-3"))
    table.frames(4, [], reaches=[Reach("B", PILE, 9000.0)])
    events = table.frames(6, [card("red-7", *PILE), card("red-3", 335, 212, 66, 94)])
    assert [e["cards"] for e in events] == [["red-3"]]


def test_a_top_card_shifted_after_another_seats_arm_passed_is_no_twin():
    state = turn_of("C", "red-7")
    table = Table(game_state=lambda: state)
    table.frames(6, [card("red-7", *PILE)])
    table.frames(6, [card("red-7", *PILE), card("red-3", 331, 211, 60, 90)])
    state.update(turn_of("B", "red-3"))
    table.frames(4, [], reaches=[Reach("A", PILE, 9000.0)])  # not A's turn
    assert table.frames(6, [card("red-7", *PILE), card("red-3", 335, 212, 66, 94)]) \
        == []


def test_a_twin_on_a_lower_copy_is_a_play_when_the_top_is_covered():
    """A red-3 lies under a blue-3; another red-3 lands where the first lay:
    the top's face changed after a reach, whatever lies beneath."""
    state = turn_of("C", "red-7")
    table = Table(game_state=lambda: state)
    table.frames(6, [card("red-7", *PILE)])
    table.frames(6, [card("red-7", *PILE), card("red-3", 330, 210)])
    table.frames(4, [], reaches=[Reach("C", PILE, 9000.0)])
    table.frames(6, [card("red-3", 330, 210), card("blue-3", 345, 222)])
    state.update(turn_of("A", "blue-3"))
    table.frames(4, [], reaches=[Reach("A", PILE, 9000.0)])
    events = table.frames(6, [card("red-3", 331, 211)])
    assert [e["cards"] for e in events] == [["red-3"]]


def test_an_untouched_top_card_read_again_without_a_reach_is_no_play():
    state = turn_of("B", "red-3")
    table = Table(game_state=lambda: state)
    table.frames(6, [card("red-7", *PILE)])
    table.frames(6, [card("red-7", *PILE), card("red-3", 331, 211, 60, 90)])
    table.frames(3, [card("red-7", *PILE)])  # missed for a few frames
    rows = [card("red-7", *PILE), card("red-3", 335, 212, 66, 94)]
    assert table.frames(6, rows) == []


def test_a_twin_that_continues_its_copys_track_is_a_play():
    """Rendered seed 2: the twin's box takes over the first copy's track in
    one frame (the copy hidden under it, no frame unseen, no touch): the
    track's box moved 4 mm and turned after the arm of the seat to move
    reached in."""
    state = turn_of("C", "red-7")
    table = Table(game_state=lambda: state)
    table.frames(6, [card("red-7", *PILE)])
    table.frames(6, [card("red-7", *PILE), card("red-6", 337, 210, 60, 88)])
    state.update(turn_of("B", "red-6"))
    reach = [Reach("B", (300, 192), 9000.0)]
    table.frames(2, [card("red-7", *PILE), card("red-6", 337, 210, 60, 88)], reach)
    events = table.frames(8, [card("red-7", *PILE), card("red-6", 334, 213, 67, 92)],
                          reach)
    events += table.frames(6, [card("red-7", *PILE), card("red-6", 334, 213, 67, 92)])
    assert [e["cards"] for e in events] == [["red-6"]]
    assert events[0]["reach_from"] == "B"


def test_the_top_card_cut_on_one_side_by_the_next_card_is_no_twin():
    """The bundled demo at 25.8 s: Chie's blue 7 comes over one edge of the blue
    8 (her turn; a blue 8 would be legal): its box loses 5 mm on one side only
    while her arm is over the pile."""
    state = turn_of("C", "red-7")
    table = Table(game_state=lambda: state)
    table.frames(6, [card("red-7", *PILE)])
    table.frames(6, [card("red-7", *PILE), card("blue-8", 326, 213, 66, 95)])
    state.update(turn_of("C", "blue-8"))
    table.frames(4, [], reaches=[Reach("C", PILE, 9000.0)])
    cut = [card("red-7", *PILE), card("blue-8", 324, 214, 61, 95)]
    assert table.frames(6, cut, reaches=[Reach("C", PILE, 9000.0)]) == []


def test_a_twin_misread_in_a_frame_is_judged_again_once_its_reads_agree():
    state = turn_of("C", "red-7")
    table = Table(game_state=lambda: state)
    table.frames(6, [card("red-7", *PILE)])
    table.frames(6, [card("red-7", *PILE), card("red-3", 331, 211, 60, 90)])
    state.update(turn_of("B", "red-3"))
    table.frames(4, [], reaches=[Reach("B", PILE, 9000.0)])
    twin = [card("red-7", *PILE), card("red-3", 335, 212, 66, 94)]
    events = table.frames(3, twin)
    events += table.frames(1, [card("red-7", *PILE), card("red-8", 335, 212, 66, 94)])
    events += table.frames(8, twin)
    assert [e["cards"] for e in events] == [["red-3"]]


def test_a_look_of_the_top_card_seen_before_is_no_second_copy():
    """The detector's box of a card lying still flips between two looks (the
    card alone, the card with an edge of the one below); after an arm passed
    over the pile, the other look settles: the same card, not a new one."""
    table = started("red-7")
    alone = card("blue-4", 331, 208, 77, 105)
    wide = card("blue-4", 340, 205, 93, 99)  # 16 mm wider: "a second copy"
    table.frames(6, [card("red-7", *PILE), alone])
    for rows in ([wide], [wide], [alone], [wide], [wide], [alone]):
        table.frames(1, [card("red-7", *PILE)] + rows)
    table.frames(4, [], reaches=[Reach("B", PILE, 9000.0)])
    assert table.frames(8, [card("red-7", *PILE), wide]) == []
    # a card that lies and measures as no look before is a second copy
    table.frames(4, [], reaches=[Reach("B", PILE, 9000.0)])
    events = table.frames(6, [card("red-7", *PILE), card("blue-4", 312, 225, 60, 90)])
    assert [e["cards"] for e in events] == [["blue-4"]]


def test_a_card_drawn_by_the_next_seat_is_played_where_an_old_copy_lay():
    """B drew (its pass not told yet); C draws too and puts a red 7 on the red
    3 just where a red 7 played long before lies buried: C is the seat to
    move, so the top's face changing after C's reach is C's play, not the
    buried copy showing again."""
    state = {"phase": "drawn", "turn": "B", "top": "red-3", "color": "red",
             "pending_draw": 0, "players": list(PLAYERS), "direction": 1}
    table = Table(game_state=lambda: state)
    table.frames(6, [card("blue-1", *PILE)])
    for seat, row in (("A", card("red-7", 330, 210, 62, 92)),
                      ("B", card("red-3", 334, 213, 64, 94))):
        table.frames(3, [], reaches=[Reach(seat, PILE, 9000.0)])
        table.frames(6, [row])
    assert [e.get("cards") for e in table.events[1:]] == [["red-7"], ["red-3"]]
    table.frames(6, [card("red-3", 334, 213, 64, 94)], reaches=[Reach("C", DRAW, 8000.0)])
    table.frames(3, [card("red-3", 334, 213, 64, 94)])
    table.frames(3, [], reaches=[Reach("C", PILE, 9000.0)])
    events = table.frames(6, [card("red-7", 331, 210, 62, 92)])
    assert [(e["type"], e.get("cards"), e["reach_from"]) for e in events] == [
        ("draw", None, "C"), ("play", ["red-7"], "C")]


def test_the_top_card_shifted_by_the_next_seat_that_drew_is_no_twin():
    """B drew (its pass not told yet), C draws too and its arm passes over the
    pile, shifting the red 3's box: no twin of C's."""
    state = {"phase": "drawn", "turn": "B", "top": "red-3", "color": "red",
             "pending_draw": 0, "players": list(PLAYERS), "direction": 1}
    table = Table(game_state=lambda: state)
    table.frames(6, [card("blue-1", *PILE)])
    table.frames(3, [], reaches=[Reach("B", PILE, 9000.0)])
    table.frames(6, [card("red-3", 334, 213, 64, 94)])
    table.frames(6, [card("red-3", 334, 213, 64, 94)], reaches=[Reach("C", DRAW, 8000.0)])
    table.frames(3, [card("red-3", 334, 213, 64, 94)])
    table.frames(3, [], reaches=[Reach("C", PILE, 9000.0)])
    events = table.frames(6, [card("red-3", 339, 216, 70, 98)])
    assert [e["type"] for e in events] == []


def test_a_player_who_owes_cards_puts_down_no_twin():
    """The seat to move owes two cards (no stacking): its arm passing over the
    pile on the way to the draw pile shifts the Draw Two's box; no twin."""
    state = turn_of("C", "red-7")
    table = Table(game_state=lambda: state)
    table.frames(6, [card("red-7", *PILE)])
    table.frames(6, [card("red-7", *PILE), card("red-draw2", 331, 211, 60, 90)])
    state.update(turn_of("B", "red-draw2"), pending_draw=2, options={})
    table.frames(4, [], reaches=[Reach("B", PILE, 9000.0)])
    rows = [card("red-7", *PILE), card("red-draw2", 335, 212, 66, 94)]
    assert table.frames(6, rows) == []
    # with stacking, the same change is a Draw Two answered with its twin
    state.update(options={"stacking": True})
    table.frames(4, [], reaches=[Reach("B", PILE, 9000.0)])
    events = table.frames(6, [card("red-7", *PILE), card("red-draw2", 331, 215, 60, 90)])
    assert [e["cards"] for e in events] == [["red-draw2"]]


def test_a_twin_showing_a_look_its_copy_never_showed_is_a_play():
    """The copy's box flips between two looks; a twin laid 3 mm off the look
    it was taken with, turned a little, shows a look the copy never showed
    after the arm of the seat to move reached in: a play."""
    state = turn_of("C", "red-7")
    table = Table(game_state=lambda: state)
    table.frames(6, [card("red-7", *PILE)])
    alone, wide = card("blue-3", 335, 208, 81, 102), card("blue-3", 342, 209, 91, 102)
    table.frames(6, [card("red-7", *PILE), alone])
    state.update(turn_of("B", "blue-3"))
    for rows in ([wide], [wide], [alone], [alone], [wide], [wide]):
        table.frames(1, [card("red-7", *PILE)] + rows)
    table.frames(4, [], reaches=[Reach("B", PILE, 9000.0)])
    events = table.frames(6, [card("red-7", *PILE), card("blue-3", 338, 208, 84, 102)])
    assert [e["cards"] for e in events] == [["blue-3"]]


@pytest.fixture
def let_go():
    """play.let_go_mm at 0.6 (its default)."""
    return PlayConfig(let_go_mm=0.6)


def test_with_let_go_a_card_under_a_still_lingering_hand_is_played(let_go):
    table = started(config=let_go)
    # carried in with the hand, then let go: the hand stays on it, still
    for x in (250, 280, 310):
        table.frames(1, [card("red-7", *PILE), card("red-2", x, PILE[1], touched=True)])
    rows = [card("red-7", *PILE), card("red-2", PILE[0] + 10, PILE[1], touched=True)]
    frames = max(let_go.settle_frames, let_go.let_go_frames)
    assert table.frames(frames - 1, rows) == []
    events = table.frames(1, rows)
    assert [e["cards"] for e in events] == [["red-2"]]
    # once the hand leaves, the card is no second play
    assert table.frames(10, [card("red-7", *PILE), card("red-2", 341, 211)]) == []


def test_with_let_go_a_card_moving_with_the_hand_or_held_up_is_no_play(let_go):
    table = started(config=let_go)
    for k in range(15):  # a hand holding a card sways it by several mm a frame
        sway = 6 * (k % 2)
        table.frames(1, [card("red-7", *PILE),
                         card("red-2", PILE[0] + 10 + sway, PILE[1], touched=True)])
    # held still a little above the pile: it measures 1.2 card sizes
    high = [card("red-7", *PILE), card("red-2", PILE[0] + 10, PILE[1], 67, 104, True)]
    table.frames(10, high)
    assert [e for e in table.events if e["type"] == "play"] == []


def test_with_let_go_a_card_hovered_with_a_tremble_is_no_play(let_go):
    """A card held over the pile, low enough to measure as one lying flat,
    trembles with the hand by about a millimetre a frame: not let go."""
    table = started(config=let_go)
    for k in range(15):
        tremble = 0.8 * (k % 2)
        table.frames(1, [card("red-7", *PILE),
                         card("red-2", PILE[0] + 5 + tremble, PILE[1] - 5, touched=True)])
    assert [e for e in table.events if e["type"] == "play"] == []


def test_with_let_go_a_flat_card_pausing_a_settle_at_each_end_of_a_sway_is_no_play(let_go):
    """A card held over the pile, measuring as one lying flat (the arm hides
    part of it), sways by 2 mm and pauses at each end for settle_frames
    frames: a let go needs play.let_go_frames reads."""
    assert let_go.let_go_frames > let_go.settle_frames
    table = started(config=let_go)
    for k in range(8):
        held = card("red-2", PILE[0] + 5 + 2.0 * (k % 2), PILE[1] - 5, touched=True)
        table.frames(let_go.settle_frames, [card("red-7", *PILE), held])
    assert [e for e in table.events if e["type"] == "play"] == []


def test_with_let_go_a_loose_box_within_the_pile_is_played_once_still_longer(let_go):
    """A card put on the pile, boxed with the edges of the cards below (1.2
    card sizes, within the pile's extent), under the still hand that put it
    down: its size cannot tell it from a card held a little above the pile,
    so it is played once it has lain still ``play.let_go_loose_s`` (where a
    box that size waits: ``let_go_loose_scale`` under it). The same box
    sticking out of the pile waits for the hand to leave."""
    let_go = dataclasses.replace(let_go, let_go_loose_scale=1.15)
    table = started(config=let_go)
    loose = card("red-2", *PILE, 67, 104, touched=True)
    # reads spanning let_go_loose_s: one more than the frames in that time
    n = int(np.ceil(let_go.let_go_loose_s * FPS - 1e-9)) + 1
    assert n > let_go.settle_frames
    assert table.frames(n - 1, [card("red-7", *PILE), loose]) == []
    events = table.frames(1, [card("red-7", *PILE), loose])
    assert [e["cards"] for e in events] == [["red-2"]]
    table = started(config=let_go)
    out = card("red-2", PILE[0] + 10, PILE[1], 67, 104, touched=True)
    assert table.frames(10, [card("red-7", *PILE), out]) == []


def test_with_let_go_a_card_held_over_the_pile_pausing_with_the_hand_is_no_play(let_go):
    """A card held a little above the pile (1.2 card sizes, within its
    extent) sways with the hand and pauses at each end of the sway for the
    settle time: lying still that briefly is no let go for a box that large."""
    table = started(config=let_go)
    pause = max(let_go.settle_frames, int(np.ceil(let_go.settle_s * FPS)) + 1)
    for k in range(6):
        held = card("red-2", PILE[0] + 2.0 * (k % 2), PILE[1], 67, 104, touched=True)
        table.frames(pause, [card("red-7", *PILE), held])
    assert [e for e in table.events if e["type"] == "play"] == []


def test_with_let_go_the_top_card_under_a_resting_arm_is_not_played_again(let_go):
    table = started("red-7", let_go)
    table.frames(6, [card("red-7", *PILE), card("red-2", 331, 211)])
    # an arm rests over one end of the pile: the top card's box is cut, still
    cut = [card("red-7", *PILE), card("red-2", 333, 226, 60, 70, True)]
    assert table.frames(10, cut, reaches=[Reach("B", DRAW, 9000.0)]) == []


def test_a_box_grown_for_a_frame_by_a_card_coming_in_is_no_twin():
    """The next card comes over the top card: for one frame the top card's
    box takes in its edge (a look it never showed, untouched); a twin keeps
    its new look for settle_frames reads."""
    state = turn_of("C", "red-7")
    table = Table(game_state=lambda: state)
    table.frames(6, [card("red-7", *PILE)])
    table.frames(8, [card("red-7", *PILE), card("red-9", 329, 210, 89, 115)])
    state.update(turn_of("B", "red-9"))
    table.frames(2, [], reaches=[Reach("B", PILE, 9000.0)])
    table.frames(6, [card("red-7", *PILE), card("red-9", 329, 210, 89, 115)])
    assert [e["cards"] for e in table.events if e["type"] == "play"] == [["red-9"]]
    grown = [card("red-7", *PILE), card("red-9", 331, 210, 93, 115)]
    assert table.frames(1, grown) == []
    assert table.frames(
        2, [card("red-7", *PILE), card("red-9", 336, 210, 111, 120, True)]
    ) == []
