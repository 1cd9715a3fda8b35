"""A twin needs the top card's pixels to change: a copy of the top card laid on
it shows another print a few mm or degrees off; the detector's box of the top
card shifting while an arm reaches beside the pile leaves the same pixels
(``play.twin_pixels``, :meth:`vision.pile_memory.PileMemory.keep_print`)."""

from __future__ import annotations

import cv2
import numpy as np

from referee.cards import CLASSES
from vision.config import PlayConfig
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.hands import Reach
from vision.pile_memory import PileView
from vision.plays import UnoPlayDetector
from vision.tracking import CardTracker

PLAYERS = ("A", "B", "C")
FPS = 15.0
PILE = (330.0, 210.0)  # centre of the default discard zone on a 560 x 420 mm table
SIZE = (56.0, 87.0)
BESIDE = (390.0, 280.0)  # in the discard zone, beside the pile


def print_of(seed: int) -> np.ndarray:
    """A card's face, 56 x 87 px (1 px = 1 mm): a white border round a
    coloured field with blocks of print."""
    rng = np.random.default_rng(seed)
    face = np.full((87, 56, 3), 235, np.uint8)
    face[5:-5, 5:-5] = (40, 40, 200)
    blocks = rng.integers(0, 255, (8, 5, 3), dtype=np.uint8)
    face[8:-7, 8:-8] = cv2.resize(blocks, (40, 72), interpolation=cv2.INTER_NEAREST)
    return face


def scene(cards) -> np.ndarray:  # noqa: ANN001
    """The table (560 x 420 px, grey cloth) with ``cards`` laid in order, each
    (face, centre x, centre y, turn in degrees)."""
    image = np.full((420, 560, 3), 90, np.uint8)
    for face, x, y, deg in cards:
        h, w = face.shape[:2]
        m = cv2.getRotationMatrix2D((w / 2, h / 2), deg, 1.0)
        m[:, 2] += (x - w / 2, y - h / 2)
        laid = cv2.warpAffine(face, m, (560, 420), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
        where = cv2.warpAffine(np.full((h, w), 255, np.uint8), m, (560, 420)) > 127
        image[where] = laid[where]
    return image


def dets(label: str, xy, touched: bool = False,  # noqa: ANN001
         short: float = 0.0) -> Detections:
    """The box of a card centred at ``xy``, ``short`` mm short at its lower end
    (a box the finder cut)."""
    x, y = xy
    w, h = SIZE
    return Detections(
        np.array([(x - w / 2, y - h / 2, x + w / 2, y + h / 2 - short)]),
        np.array([0.9]),
        [CLASSES.index(label)],
        data={"touched": np.array([touched])},
    )


def frames_short(table, n: int, image, xy, short: float, reaches=(),  # noqa: ANN001, ANN201
                 touched: bool = False):
    """``table.frames`` of a red 5 at ``xy`` whose box the finder cuts
    ``short`` mm short at its lower end (``touched``: a hand touches it)."""
    global dets
    whole = dets
    dets = lambda label, where, hand=touched: whole(label, where, hand, short)  # noqa: E731
    try:
        return table.frames(n, image, ("red-5", xy), reaches)
    finally:
        dets = whole


class Table:
    """Frames (pixels and boxes) through a tracker and the play detector, with
    a referee's state; seat C puts the top card down, seat B is to move."""

    def __init__(self, config: PlayConfig | None = None):
        self.state = dict(phase="turn", turn="C", top="red-7", color="red",
                          pending_draw=0)
        geo = TableGeometry.default((560, 420), PLAYERS)  # 1 px = 1 mm
        self.tracker = CardTracker(geo)
        self.plays = UnoPlayDetector(geo, config, game_state=lambda: self.state)
        self.t = 0.0

    def frames(self, n: int, image, box=None, reaches=(), hands=None):  # noqa: ANN001
        """``n`` frames of ``image`` with a box of the pile's top (label, centre)
        and arms ``reaches``; ``hands``: the hands' mask (4 mm a pixel)."""
        plays = []
        for _ in range(n):
            found = dets(*box) if box is not None else Detections.empty()
            tracked = self.tracker.update(found, self.t)
            self.plays.see(PileView(image, hands, 4.0))
            plays += [e["cards"] for e in self.plays.update(
                tracked, self.t, self.tracker.tracks, list(reaches))
                if e["type"] == "play"]
            self.t += 1 / FPS
        return plays


def with_top(config: PlayConfig | None = None):  # noqa: ANN201
    """A red 5 put on a red 7 by seat C and left alone; seat B to move, a
    copy of the red 5 legal."""
    table = Table(config)
    seven, five = print_of(7), print_of(5)
    table.frames(6, scene([(seven, *PILE, 0)]), ("red-7", PILE))
    table.frames(4, scene([(seven, *PILE, 0)]), None, [Reach("C", PILE, 9000.0)])
    laid = scene([(seven, *PILE, 0), (five, *PILE, 0)])
    assert table.frames(8, laid, ("red-5", PILE)) == [["red-5"]]
    table.state.update(turn="B", top="red-5", color="red")
    return table, seven, five, laid


def test_the_top_card_boxed_a_few_mm_off_with_its_pixels_unchanged_is_no_twin():
    """An arm reaches beside the pile and the finder's box of the top card
    settles 4 mm off: the top's pixels are those it showed, so no card was
    laid on it."""
    table, _, _, laid = with_top()
    table.frames(4, laid, ("red-5", PILE), [Reach("B", BESIDE, 9000.0)])
    shifted = (PILE[0] + 4.0, PILE[1])
    assert table.frames(10, laid, ("red-5", shifted)) == []


def test_a_twin_laid_a_few_mm_off_its_copy_changes_its_pixels_and_is_a_play():
    table, seven, five, _ = with_top()
    table.frames(4, scene([(seven, *PILE, 0)]), None, [Reach("B", PILE, 9000.0)])
    shifted = (PILE[0] + 4.0, PILE[1])
    twin = scene([(seven, *PILE, 0), (five, *PILE, 0), (print_of(5), *shifted, 2.0)])
    assert table.frames(10, twin, ("red-5", shifted)) == [["red-5"]]


def test_the_pixels_are_not_asked_where_hands_hide_most_of_the_top():
    """A hand lies over most of the top's region: its pixels cannot tell, and
    the box's shift decides as without them."""
    table, _, _, laid = with_top()
    table.frames(4, laid, ("red-5", PILE), [Reach("B", BESIDE, 9000.0)])
    hands = np.zeros((105, 140), bool)
    hands[44:64, 70:98] = True  # 80 x 112 mm over the pile
    shifted = (PILE[0] + 4.0, PILE[1])
    assert table.frames(10, laid, ("red-5", shifted), hands=hands) == [["red-5"]]


def test_off_the_box_shift_alone_decides():
    table, _, _, laid = with_top(PlayConfig(twin_pixels=0.0))
    table.frames(4, laid, ("red-5", PILE), [Reach("B", BESIDE, 9000.0)])
    shifted = (PILE[0] + 4.0, PILE[1])
    assert table.frames(10, laid, ("red-5", shifted)) == [["red-5"]]
