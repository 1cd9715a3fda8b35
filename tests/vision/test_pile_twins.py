"""A card landing on its twin (a copy of the top card's label): issue 25, every
play seen once. A card that lands is a play when an arm reached into the
discard zone and the pile's top changed (place, turn, face), whatever its
label and whatever lies beneath; the top card seen again as it was is not."""

from __future__ import annotations

import numpy as np

from referee.cards import CLASSES
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.hands import Reach
from vision.plays import UnoPlayDetector
from vision.tracking import CardTracker

PLAYERS = ("A", "B", "C")
FPS = 15.0
PILE = (330.0, 210.0)  # centre of the default discard zone on a 560 x 420 mm table


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
    """Frames through a tracker and the play detector, with a referee's state."""

    def __init__(self, seat: str, top: str):
        self.state: dict = {}
        self.turn(seat, top)
        geo = TableGeometry.default((560, 420), PLAYERS)  # 1 px = 1 mm
        self.tracker = CardTracker(geo)
        self.plays = UnoPlayDetector(geo, game_state=lambda: self.state)
        self.t = 0.0

    def turn(self, seat: str, top: str) -> None:
        self.state.update(phase="turn", turn=seat, top=top,
                          color=top.split("-")[0], pending_draw=0)

    def frames(self, n: int, rows, reaches=()) -> list[dict]:
        new = []
        for _ in range(n):
            tracked = self.tracker.update(dets(rows), self.t)
            new += self.plays.update(tracked, self.t, self.tracker.tracks, list(reaches))
            self.t += 1 / FPS
        return [e for e in new if e["type"] == "play"]


def reach(seat: str, tip=PILE) -> list[Reach]:
    return [Reach(seat, tip, 9000.0)]


def pile_with(top, below=("red-7",)) -> Table:
    """The pile: the cards ``below`` (at the pile's centre), then ``top``
    (label, x, y, w, h) put on by seat C; seat B to move."""
    table = Table("C", below[-1])
    rows = [card(label, *PILE) for label in below]
    table.frames(6, rows[-1:])
    for label in below[1:]:
        table.frames(4, [], reach("C"))
        table.frames(6, [card(label, *PILE)])
    table.frames(4, [], reach("C"))
    events = table.frames(6, [card(*top)])
    assert [e["cards"] for e in events] == [[top[0]]]
    table.turn("B", top[0])
    return table


def test_a_twin_lying_off_its_copy_and_shorter_is_a_play():
    """The twin lies 10 mm up the pile and turned: its box is shorter than the
    copy's but reaches past the copy's upper edge (no card cut by an edge of
    another: what is left of a covered card lies within its box)."""
    table = pile_with(("red-reverse", 333, 206, 93, 108))
    table.frames(4, [], reach("B"))
    events = table.frames(6, [card("red-reverse", 333, 196, 93, 97)])
    assert [e["cards"] for e in events] == [["red-reverse"]]


def test_the_top_cut_by_an_edge_within_its_box_is_still_no_twin():
    table = pile_with(("red-reverse", 333, 206, 93, 108))
    table.frames(4, [], reach("B"))
    # the lower end hidden under a hand: the box keeps its upper edge and loses 11 mm
    assert table.frames(6, [card("red-reverse", 333, 200.5, 93, 97, True)]) == []


def test_a_twin_where_an_older_copy_lies_lower_in_the_pile_is_a_play():
    """A red 3 lies lower in the pile where the top red 3 lies: the twin put
    on top is judged against the top card (which covers the older copy)."""
    table = Table("C", "red-7")
    table.frames(6, [card("red-7", *PILE)])
    plays = []
    for seat, row, nxt in (
        ("C", ("red-3", 331, 207, 86, 100), "A"),
        ("A", ("blue-3", 329, 211, 80, 100), "B"),
        ("B", ("red-3", 330, 209, 86, 105), "C"),
        ("C", ("red-3", 331, 200, 85, 96), "A"),
    ):
        table.frames(4, [], reach(seat))
        plays += table.frames(6, [card(*row)])
        table.turn(nxt, row[0])
    assert [e["cards"] for e in plays] == [["red-3"], ["blue-3"], ["red-3"], ["red-3"]]


def test_a_copy_taken_over_the_pile_and_back_is_no_play_until_put_down():
    """The seat to move carries its copy over the pile, hovers (the top card's
    box touched), and takes it back still in its hand: the top card shows
    again as it was taken, no play. Put down a few mm off later, it is one."""
    table = pile_with(("yellow-3", 333, 214, 84, 106))
    top = card("yellow-3", 333, 214, 84, 106)
    for x in (450, 390):  # on its way in, in the hand
        table.frames(1, [top, card("yellow-3", x, 172, 84, 104, True)], reach("B", (x, 172)))
    events = table.frames(8, [card("yellow-3", 334, 206, 88, 113, True)], reach("B"))
    for x in (408, 486, 550):  # back out, still in the hand
        events += table.frames(
            1, [top, card("yellow-3", x, 140, 84, 104, True)], reach("B", (x, 120))
        )
    events += table.frames(15, [top])
    assert events == []
    table.frames(3, [], reach("B"))
    events = table.frames(6, [card("yellow-3", 330, 213, 81, 103)])
    assert [e["cards"] for e in events] == [["yellow-3"]]


def test_a_twin_showing_the_look_the_hand_showed_putting_it_down_is_a_play():
    """The twin lies 3 mm off its copy; the hand putting it down showed that
    very box (touched) a few frames before it left: a look of the twin, not
    of the top card lying untouched."""
    table = pile_with(("green-6", 326, 211, 91, 119))
    table.frames(2, [card("green-6", 328.6, 211, 92, 119, True)], reach("B"))
    table.frames(1, [card("green-6", 326, 212, 95, 120, True)], reach("B"))
    table.frames(1, [], reach("B"))
    events = table.frames(8, [card("green-6", 328.8, 211, 92, 119)])
    assert [e["cards"] for e in events] == [["green-6"]]


def test_the_top_shifting_long_after_the_arm_left_it_as_it_was_is_no_twin():
    """The seat to move reached over the pile (to the draw pile) and left the
    top card as it was (seen so, untouched); a second later its box shifts
    10 mm as another arm passes near it, reaching nowhere into the zone."""
    table = pile_with(("yellow-6", 340, 210, 93, 102))
    table.frames(3, [card("yellow-6", 331, 228, 89, 80, True)], reach("B"))
    top = card("yellow-6", 340, 210, 93, 102)
    table.frames(15, [top])
    assert table.frames(8, [card("yellow-6", 330.5, 214, 90, 105)],
                        reach("A", (205, 215))) == []


def test_the_top_showing_another_look_before_an_arm_came_is_no_twin():
    """The top card's box flips to another look of its own (7 mm off, turned)
    with no arm near; the arm of the seat to move reaches in only later (on
    its way to the draw pile): no card that arm put down."""
    table = pile_with(("red-3", 341, 207, 91, 103))
    other = [card("red-3", 334, 208, 84, 106)]
    events = table.frames(8, other)
    events += table.frames(1, other, reach("B"))
    events += table.frames(8, other)
    assert events == []


def test_a_hand_hovering_and_taken_back_leaves_an_old_look_of_the_top_no_twin():
    """The top card's box flips between two looks of its own while it lies
    untouched (8 mm narrower now and then); the seat to move hovers a card over
    the pile and takes it back; the top then shows the narrower look again: a
    look it showed before the arm came, no twin. A twin put down later, a few mm
    off with a look never seen, is a play."""
    table = pile_with(("green-9", 322, 201, 93, 98))
    wide, narrow = card("green-9", 322, 201, 93, 98), card("green-9", 325, 203, 85, 99)
    table.frames(4, [wide])
    table.frames(2, [narrow])
    table.frames(6, [wide])
    hover = card("green-reverse", 335, 210, 91, 124, True)
    events = table.frames(15, [hover], reach("B"))
    events += table.frames(10, [narrow])
    assert events == []
    table.frames(4, [], reach("B"))
    events = table.frames(8, [card("green-9", 318, 190, 92, 99)])
    assert [e["cards"] for e in events] == [["green-9"]]


def test_a_drawn_copy_seen_coming_in_from_the_hand_says_so():
    """Seat B drew, then brings a copy of the top card in its hand from its
    side of the table and puts it down a few mm off the top card: the play
    says the copy was seen coming in (``carried_in``), so the hands-free
    completion need not wait for the next move to tell it from the top card
    moved by the drawing arm."""
    table = pile_with(("yellow-3", 333, 214, 84, 106))
    table.state["phase"] = "drawn"
    top = card("yellow-3", 333, 214, 84, 106)
    for x in (450, 390):  # on its way in, in the hand
        table.frames(1, [top, card("yellow-3", x, 172, 84, 104, True)], reach("B", (x, 172)))
    table.frames(3, [], reach("B"))
    events = table.frames(6, [card("yellow-3", 330, 206, 81, 103)])
    assert [e["cards"] for e in events] == [["yellow-3"]]
    assert events[0].get("carried_in") is True


def test_the_top_card_dragged_by_the_drawing_arm_is_no_copy_seen_coming_in():
    """Seat B drew and its arm, passing over the pile, drags the top card a
    few mm (its box touched and moving, its own track): a changed top is a
    twin for the pile, but no copy was seen coming in from a hand, so the play
    does not say so (the completion holds it for the next move)."""
    table = pile_with(("yellow-3", 333, 214, 84, 106))
    table.state["phase"] = "drawn"
    events = []
    for y in (214, 211, 208, 206):  # dragged under the hand, its own track
        events += table.frames(1, [card("yellow-3", 333, y, 84, 106, True)], reach("B"))
    events += table.frames(8, [card("yellow-3", 333, 206, 84, 106)])
    assert all(not e.get("carried_in") for e in events)
