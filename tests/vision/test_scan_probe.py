"""The sleeping scan's sharper looks (probes): hands laid out that the frame's
normal threshold misses still start the scan while the referee plays on."""

from __future__ import annotations

import numpy as np

from referee.cards import CLASSES
from vision.config import ScanConfig
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.scan import HandScan
from vision.tracking import CardTracker

FPS = 15.0
PLAYERS = ("A", "B", "C")
B_HAND = [("yellow-1", 40, 60), ("yellow-3", 100, 60), ("yellow-9", 40, 150)]
C_HAND = [("blue-3", 520, 60), ("red-8", 460, 60)]


def _dets(rows) -> Detections:
    """rows: (label, x, y), read 0.95 sure."""
    boxes = [(x - 28, y - 43, x + 28, y + 43) for _, x, y in rows]
    probs = np.full((len(rows), len(CLASSES)), 1e-3, np.float32)
    for i, (label, _, _) in enumerate(rows):
        probs[i, CLASSES.index(label)] = 0.95
    return Detections(np.array(boxes, np.float32).reshape(-1, 4), probs.max(axis=1),
                      probs.argmax(axis=1), data={"probs": probs})


class Table:
    """The pipeline's loop, with a detector whose normal threshold sees
    ``normal`` and whose scan threshold (the probes', and every frame's while
    the scan is on) sees ``sharp``."""

    def __init__(self, state: dict, config: ScanConfig | None = None):
        self.geo = TableGeometry.default((560, 420), PLAYERS)
        self.tracker = CardTracker(self.geo)
        self.scan = HandScan(self.geo, config or ScanConfig(), game_state=lambda: state)
        self.t = 0.0
        self.looks = 0
        self.woke_at: float | None = None

    def frames(self, seconds: float, normal, sharp) -> list[dict]:
        out = []
        for _ in range(int(round(seconds * FPS))):
            dets = _dets(sharp if self.scan.active else normal)
            if self.scan.probe_due(self.t):
                self.looks += 1
                self.scan.probe(_dets(sharp), self.t)
                if self.scan.active and self.woke_at is None:
                    self.woke_at = self.t
            tracked = self.tracker.update(dets, self.t)
            out += self.scan.update(tracked, self.t, self.tracker.tracks, [])
            self.t += 1 / FPS
        return out


def _in_play(**counts) -> dict:
    return {"phase": "turn", "hand_counts": counts or {"A": 1, "B": 3, "C": 2}}


def test_hands_only_a_sharper_look_sees_start_the_scan_and_are_read():
    """The winner's last play was missed (the referee still counts A with one
    card); B and C lay their hands out where the normal threshold sees none."""
    table = Table(_in_play())
    assert table.frames(2.0, [], []) == []  # the looks begin: nothing new yet
    assert table.looks and not table.scan.active
    laid = table.t
    events = table.frames(5.0, [], B_HAND + C_HAND)
    assert table.woke_at is not None
    assert laid + ScanConfig().wake_s <= table.woke_at <= laid + 2.0
    assert sorted((e["player"], tuple(e["cards"])) for e in events) == [
        ("B", ("yellow-1", "yellow-3", "yellow-9")), ("C", ("blue-3", "red-8"))]


def test_without_looks_those_hands_are_never_read():
    table = Table(_in_play(), ScanConfig(probe_s=0.0))
    table.frames(2.0, [], [])
    assert table.frames(5.0, [], B_HAND + C_HAND) == []
    assert table.looks == 0 and not table.scan.active


def test_no_looks_while_every_player_holds_more_cards_or_outside_play():
    many = Table(_in_play(A=2, B=3, C=2))
    many.frames(3.0, [], B_HAND + C_HAND)
    assert many.looks == 0 and not many.scan.active
    done = Table({"phase": "scoring", "hand_counts": {"A": 0, "B": 3, "C": 2}})
    done.frames(3.0, [], [])
    assert done.looks == 0
    challenged = Table({"phase": "turn", "challenge": {"player": "A"},
                        "hand_counts": {"A": 1, "B": 3, "C": 2}})
    challenged.frames(3.0, [], [])
    assert challenged.looks == 0


def test_looks_come_every_probe_s():
    table = Table(_in_play(), ScanConfig(probe_s=0.5))
    table.frames(3.0, [], [])
    assert 5 <= table.looks <= 7


def test_cards_there_since_the_first_look_are_no_hand():
    """What lay in the seats all along (a card left out, a marker read as a
    card) is there in every look: nothing starts."""
    table = Table(_in_play())
    assert table.frames(6.0, [], B_HAND + C_HAND) == []
    assert table.looks and not table.scan.active


def test_one_new_card_is_not_enough_and_a_moving_one_does_not_count():
    table = Table(_in_play())
    table.frames(1.0, [], [])
    table.frames(3.0, [], B_HAND[:1])
    assert not table.scan.active  # wake_cards: 2
    moving = Table(_in_play())
    moving.frames(1.0, [], [])
    for step in range(8):  # two cards carried across B's seat, never still
        moving.frames(0.5, [], [("red-5", 40, 60 + 15 * step), ("red-6", 100, 60 + 15 * step)])
    assert not moving.scan.active


def test_a_pause_in_the_looks_forgets_what_they_saw():
    """Looks stop while no player is down to few cards: a card seen before the
    pause and after it may have lain there all along."""
    state = _in_play()
    table = Table(state)
    table.frames(1.0, [], [])
    table.frames(0.3, [], B_HAND)
    state["hand_counts"] = {"A": 2, "B": 3, "C": 2}  # no looks for a while
    table.frames(2.0, [], B_HAND)
    state["hand_counts"] = {"A": 1, "B": 3, "C": 2}
    table.frames(3.0, [], B_HAND)
    assert not table.scan.active


def test_a_scan_that_started_by_itself_takes_a_hand_of_another_count_sooner():
    """The referee missed the round's end (and maybe more): its count of B
    (4) is in doubt, and B's three cards lie only a few seconds before they
    are gathered up."""
    def shown(woken_recount_s: float) -> list[tuple[str, tuple[str, ...]]]:
        cfg = ScanConfig(recount_s=3.0, woken_recount_s=woken_recount_s)
        table = Table(_in_play(A=1, B=4, C=2), cfg)
        table.frames(1.0, [], [])
        events = table.frames(3.5, [], B_HAND + C_HAND)  # then gathered up
        events += table.frames(2.0, [], [])
        assert table.woke_at is not None
        return sorted((e["player"], tuple(e["cards"])) for e in events)

    assert shown(1.0) == [("B", ("yellow-1", "yellow-3", "yellow-9")),
                          ("C", ("blue-3", "red-8"))]
    assert shown(3.0) == [("C", ("blue-3", "red-8"))]  # waited too long for B
