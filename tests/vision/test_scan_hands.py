"""The round-end scan's reading of laid-out hands: the referee's count, a count
in doubt, and the deck's copies across the hands shown."""

from __future__ import annotations

import numpy as np

from referee.cards import CLASSES
from vision.config import ScanConfig
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.scan import HandScan, deck_copies, within_deck
from vision.tracking import CardTracker

FPS = 15.0
PLAYERS = ("A", "B", "C")


def _dets(rows) -> Detections:
    """rows: (probabilities {label: p}, x, y); the label is the likeliest."""
    boxes = [(x - 28, y - 43, x + 28, y + 43) for _, x, y in rows]
    probs = np.full((len(rows), len(CLASSES)), 1e-3, np.float32)
    for i, (p, _, _) in enumerate(rows):
        for label, v in p.items():
            probs[i, CLASSES.index(label)] = v
    ids = probs.argmax(axis=1)
    return Detections(np.array(boxes, np.float32), probs.max(axis=1), ids,
                      data={"probs": probs})


class Table:
    def __init__(self, state: dict):
        self.geo = TableGeometry.default((560, 420), PLAYERS)
        self.tracker = CardTracker(self.geo)
        self.scan = HandScan(self.geo, ScanConfig(settle_s=1.0, recount_s=3.0),
                             game_state=lambda: state)
        self.t = 0.0
        self.events: list[dict] = []

    def frames(self, seconds: float, rows) -> list[dict]:
        out = []
        for _ in range(int(round(seconds * FPS))):
            tracked = self.tracker.update(_dets(rows), self.t)
            out += self.scan.update(tracked, self.t, self.tracker.tracks, [])
            self.t += 1 / FPS
        self.events += out
        return out


def _sure(label: str) -> dict[str, float]:
    return {label: 0.95}


def test_a_hand_that_differs_from_the_referees_count_is_sent_once_it_lies_long():
    """The referee may count wrong (a draw or a play the camera missed): a hand
    that lies still and unchanged longer is taken as it shows."""
    state = {"hand_counts": {"A": 3, "B": 0, "C": 2}}
    table = Table(state)
    table.scan.active = True
    two = [(_sure("blue-4"), 150, 372), (_sure("wild"), 210, 372)]
    assert table.frames(2.0, two) == []  # A holds 3 by the count: wait longer
    events = table.frames(2.5, two)
    assert [(e["player"], e["cards"]) for e in events] == [("A", ["blue-4", "wild"])]
    assert table.frames(2.0, two) == []  # once


def test_a_hand_as_many_as_the_count_goes_without_the_longer_wait():
    state = {"hand_counts": {"A": 2, "B": 0, "C": 2}}
    table = Table(state)
    table.scan.active = True
    two = [(_sure("blue-4"), 150, 372), (_sure("wild"), 210, 372)]
    events = table.frames(2.0, two)
    assert [(e["player"], e["cards"]) for e in events] == [("A", ["blue-4", "wild"])]


def test_no_hand_for_a_seat_the_referee_counts_empty():
    state = {"hand_counts": {"A": 0, "B": 2, "C": 2}}
    table = Table(state)
    table.scan.active = True
    assert table.frames(5.0, [(_sure("blue-4"), 150, 372)]) == []


def test_a_card_the_deck_has_no_copy_left_of_is_read_as_its_runner_up():
    """Both red 9s are in B's shown hand: A's card that reads a little more like
    a red 9 than a red 6 is the red 6."""
    state = {"game": "uno", "options": {"deck": 108},
             "hand_counts": {"A": 1, "B": 2, "C": 0},
             "revealed": {"B": ["red-9", "red-9"]}}
    table = Table(state)
    table.scan.active = True
    unsure = {"red-9": 0.55, "red-6": 0.4}
    events = table.frames(2.0, [(unsure, 150, 372)])
    assert [(e["player"], e["cards"]) for e in events] == [("A", ["red-6"])]
    state["revealed"] = {}  # the same read with the deck's copies free: red 9
    again = Table(state)
    again.scan.active = True
    events = again.frames(2.0, [(unsure, 150, 372)])
    assert [(e["player"], e["cards"]) for e in events] == [("A", ["red-9"])]


def test_within_deck_moves_the_card_that_loses_least():
    names = ("red-0", "red-8", "red-6")
    scores = [np.log([0.9, 0.05, 0.05]), np.log([0.6, 0.3, 0.1]),
              np.log([0.1, 0.2, 0.7])]
    assert within_deck(scores, names, {"red-0": 1, "red-8": 2, "red-6": 2}) == [
        "red-0", "red-8", "red-6"]
    # no copy left anywhere: the read stands
    assert within_deck(scores[:1], names, {"red-0": 0}) == ["red-0"]


def test_deck_copies_of_the_uno_decks():
    d108, d112 = deck_copies("uno", {"deck": 108}), deck_copies("uno", {"deck": 112})
    assert (d108["red-0"], d108["red-9"], d108["wild-draw4"]) == (1, 2, 4)
    assert sum(d108.values()) == 108 and sum(d112.values()) == 112
    assert "wild-shuffle" not in d108 and d112["wild-custom"] == 3
    assert deck_copies("overflow", {}) is None


def test_the_scan_starts_by_itself_when_hands_lie_out_while_the_referee_plays_on():
    """A missed last play leaves the referee in play: new cards lying still in
    the seats are the hands laid out, and are read anyway."""
    state = {"phase": "turn", "hand_counts": {"A": 2, "B": 1, "C": 1}}
    table = Table(state)
    hands = [(_sure("blue-4"), 150, 372), (_sure("wild"), 210, 372),
             (_sure("red-7"), 40, 60)]
    events = table.frames(5.0, hands)
    assert table.scan.active
    assert sorted((e["player"], tuple(e["cards"])) for e in events) == [
        ("A", ("blue-4", "wild")), ("B", ("red-7",))]


def test_the_scan_does_not_start_by_itself_for_one_card_or_outside_play():
    one = Table({"phase": "turn", "hand_counts": {"A": 2, "B": 1, "C": 1}})
    assert one.frames(5.0, [(_sure("blue-4"), 150, 372)]) == []  # 2 cards wanted
    assert not one.scan.active
    challenged = Table({"phase": "turn", "challenge": {"player": "A"},
                        "hand_counts": {"A": 2, "B": 1, "C": 1}})
    two = [(_sure("blue-4"), 150, 372), (_sure("wild"), 210, 372)]
    assert challenged.frames(5.0, two) == [] and not challenged.scan.active
    setup = Table({"phase": "setup", "hand_counts": {}})
    two = [(_sure("blue-4"), 150, 372), (_sure("wild"), 210, 372)]
    assert setup.frames(5.0, two) == [] and not setup.scan.active
    off = Table({"phase": "turn", "hand_counts": {"A": 2}})
    off.scan.config = ScanConfig(wake_s=0.0)  # never by itself
    assert off.frames(5.0, two) == [] and not off.scan.active


def test_a_scan_that_woke_for_cards_that_go_again_sleeps():
    table = Table({"phase": "turn", "hand_counts": {"A": 5, "B": 1, "C": 4}})
    held = [(_sure("blue-4"), 150, 372), (_sure("wild"), 210, 372)]  # held still
    assert table.frames(1.5, held) == []
    assert table.scan.active
    assert table.frames(2.0, []) == []
    assert not table.scan.active  # they went: back to sleep, nothing sent


def test_one_card_hands_laid_seconds_apart_wake_the_scan_together():
    table = Table({"phase": "turn", "hand_counts": {"A": 1, "B": 1, "C": 3}})
    first = [(_sure("blue-4"), 150, 372)]
    assert table.frames(3.0, first) == [] and not table.scan.active
    events = table.frames(3.0, first + [(_sure("red-7"), 40, 60)])
    assert table.scan.active
    assert sorted((e["player"], tuple(e["cards"])) for e in events) == [
        ("A", ("blue-4",)), ("B", ("red-7",))]


# -- a card read with doubt: the reveal asks (issue 25) ------------------------------

UNO_STATE = {"game": "uno", "options": {"deck": 108}, "hand_counts": {"A": 2, "B": 0, "C": 0}}


def _reveal(probs_a: dict[str, float]) -> dict:
    table = Table(dict(UNO_STATE))
    table.scan.active = True
    [event] = table.frames(2.0, [(probs_a, 150, 372), (_sure("blue-4"), 210, 372)])
    return event


def test_an_unsure_card_whose_runner_up_changes_the_points_is_asked_about():
    event = _reveal({"red-6": 0.55, "red-5": 0.4})
    assert event["cards"] == ["blue-4", "red-6"]  # scored as read meanwhile
    assert "red-6" in event["question"] and "red-5" in event["question"]
    hands = [(a["id"], a["do"], a["event"]["cards"]) for a in event["answers"]]
    assert hands == [("as-read", "replace", ["blue-4", "red-6"]),
                     ("alt-1", "replace", ["blue-4", "red-5"])]
    assert all(a["event"]["player"] == "A" for a in event["answers"])


def test_a_sure_card_or_a_runner_up_worth_the_same_asks_nothing():
    assert "question" not in _reveal({"red-6": 0.95, "red-5": 0.04})
    assert "question" not in _reveal({"red-6": 0.55, "blue-6": 0.4})  # 6 points either way


def test_the_answers_are_capped():
    table = Table({**UNO_STATE, "hand_counts": {"A": 4, "B": 0, "C": 0}})
    table.scan.active = True
    rows = [({"red-1": 0.5, "red-2": 0.45}, 120, 372), ({"red-3": 0.5, "red-7": 0.45}, 180, 372),
            ({"green-4": 0.5, "green-8": 0.45}, 240, 372),
            ({"blue-9": 0.5, "blue-1": 0.45}, 300, 372)]
    [event] = table.frames(2.0, rows)
    assert len(event["answers"]) == ScanConfig().ask_answers
    assert event["answers"][0]["event"]["cards"] == event["cards"]


def test_a_game_the_scan_cannot_score_asks_nothing():
    table = Table({**UNO_STATE, "game": "tgus-t1"})
    table.scan.active = True
    [event] = table.frames(2.0, [({"red-6": 0.55, "red-5": 0.4}, 150, 372),
                                 (_sure("blue-4"), 210, 372)])
    assert "question" not in event


def test_a_long_row_whose_end_card_wobbles_now_and_then_is_still_sent():
    """A card at the end of a long laid-out row whose reads jump for a frame now
    and then (past the scan's move_mm) makes the seat "moving" for a moment:
    the hand keeps its time, and is sent as soon as the seat is still again."""
    state = {"hand_counts": {"A": 4, "B": 0, "C": 2}}
    table = Table(state)
    table.scan.active = True
    row = [(_sure("blue-4"), 130, 372), (_sure("wild"), 190, 372),
           (_sure("red-7"), 250, 372), (_sure("green-2"), 310, 372)]
    wobble = row[:3] + [(_sure("green-2"), 322, 366)]
    events: list[dict] = []
    for _ in range(4):  # still 0.8 s, one wobbling frame, still again
        events += table.frames(0.8, row)
        events += table.frames(1 / FPS, wobble)
    assert [(e["player"], sorted(e["cards"])) for e in events] == [
        ("A", ["blue-4", "green-2", "red-7", "wild"])]


def test_a_card_laid_while_the_seat_waits_starts_its_time_over():
    """A seat's time is the hand's: a card added while the others lie still
    is a new hand, which waits settle_s again once every card lies still."""
    state = {"hand_counts": {"A": 3, "B": 0, "C": 2}}
    table = Table(state)
    table.scan.active = True
    two = [(_sure("blue-4"), 130, 372), (_sure("wild"), 190, 372)]
    assert table.frames(0.8, two) == []
    three = two + [(_sure("red-7"), 250, 372)]
    assert table.frames(1.2, three) == []  # new card: not yet settle_s of three
    events = table.frames(1.0, three)
    assert [(e["player"], sorted(e["cards"])) for e in events] == [
        ("A", ["blue-4", "red-7", "wild"])]


def test_a_card_handled_in_the_seat_then_hidden_does_not_send_the_hand_short():
    """A card moved about in the seat for seconds is handled, not wobbling: the
    hand's time starts over, so when the hand hides that card while putting it
    down the others are not sent as the whole hand."""
    state = {"hand_counts": {"A": 3, "B": 0, "C": 2}}
    table = Table(state)
    table.scan.active = True
    two = [(_sure("blue-4"), 130, 372), (_sure("wild"), 190, 372)]
    events = table.frames(1.0, two)  # two laid, fewer than the count: it waits
    for k in range(int(3.5 * FPS)):  # the third card swaying in the hand
        events += table.frames(1 / FPS, two + [(_sure("red-7"), 250 + 12 * (k % 2), 372)])
    events += table.frames(0.8, two)  # hidden by the hand as it is put down
    events += table.frames(2.5, two + [(_sure("red-7"), 250, 372)])
    assert [(e["player"], sorted(e["cards"])) for e in events] == [
        ("A", ["blue-4", "red-7", "wild"])]
