"""A copy of the top card that the top card's pixels are sure lies on it is a
second card, whatever brought it: the play says so (``carried_in``, as for a
copy seen coming in from a hand), and the hands-free completion rules it at
once instead of holding it for the camera's next move
(:attr:`vision.pile_memory.PileMemory.laid_sure`). A copy taken on its box
alone (the pixels cannot tell) says nothing of the kind: the drawing arm may
only have moved the top card's box."""

from __future__ import annotations

import numpy as np

from tests.vision import test_pile_twin_pixels as base
from tests.vision.test_pile_twin_pixels import FPS, PILE, print_of, scene, with_top
from vision.config import PlayConfig
from vision.detections import Detections
from vision.handsfree import HandsFree
from vision.hands import Reach
from vision.pile_memory import PileView


def _events(table, n, image, box=None, reaches=(), hands=None):  # noqa: ANN001, ANN202
    """The play events of ``n`` frames (as ``Table.frames``, whole events)."""
    out = []
    for _ in range(n):
        found = base.dets(*box) if box is not None else Detections.empty()
        tracked = table.tracker.update(found, table.t)
        table.plays.see(PileView(image, hands, 4.0))
        out += [e for e in table.plays.update(
            tracked, table.t, table.tracker.tracks, list(reaches)) if e["type"] == "play"]
        table.t += 1 / FPS
    return out


def _b_drew_and_reaches(table, seven):  # noqa: ANN001, ANN202
    """B, to move, has drawn; its arm reaches onto the pile (hiding it)."""
    table.state.update(phase="drawn", turn="B")
    table.frames(4, scene([(seven, *PILE, 0)]), None, [Reach("B", PILE, 9000.0)])


def test_a_copy_the_pixels_are_sure_of_says_it_is_a_second_card():
    table, seven, five, _ = with_top()
    _b_drew_and_reaches(table, seven)
    xy = (PILE[0] + 4.0, PILE[1])
    twin = scene([(seven, *PILE, 0), (five, *PILE, 0), (print_of(5), *xy, 2.0)])
    events = _events(table, 10, twin, ("red-5", xy))
    assert [e["cards"] for e in events] == [["red-5"]]
    assert events[0].get("carried_in") is True
    # ruled at once: the completion holds nothing for the next move
    state = {**table.state, "players": ["A", "B", "C"], "direction": 1}
    hf = HandsFree(state=lambda: state)
    out = list(hf({**events[0], "source": "vision", "player": "B"}, lambda: state))
    assert hf.held is None
    assert [e.get("type") for e in out] == ["play"]
    assert all("carried_in" not in e for e in out)


def test_a_copy_taken_on_its_box_alone_is_held():
    """A hand lies over most of the top's region: its pixels cannot tell, the
    box's shift takes the copy, and the play does not say it is a second card."""
    table, seven, _, laid = with_top()
    _b_drew_and_reaches(table, seven)
    hands = np.zeros((105, 140), bool)
    hands[44:64, 70:98] = True  # 80 x 112 mm over the pile
    xy = (PILE[0] + 4.0, PILE[1])
    events = _events(table, 10, laid, ("red-5", xy), hands=hands)
    assert [e["cards"] for e in events] == [["red-5"]]
    assert not events[0].get("carried_in")
    state = {**table.state, "players": ["A", "B", "C"], "direction": 1}
    hf = HandsFree(state=lambda: state)
    assert list(hf({**events[0], "source": "vision", "player": "B"}, lambda: state)) == []
    assert hf.held is not None


def test_with_laid_sure_off_such_a_copy_is_held():
    table, seven, five, _ = with_top(PlayConfig(laid_sure=False))
    _b_drew_and_reaches(table, seven)
    xy = (PILE[0] + 4.0, PILE[1])
    twin = scene([(seven, *PILE, 0), (five, *PILE, 0), (print_of(5), *xy, 2.0)])
    events = _events(table, 10, twin, ("red-5", xy))
    assert [e["cards"] for e in events] == [["red-5"]]
    assert not events[0].get("carried_in")
