"""A long hand laid out as a fanned row: the scan looks at a long seat window in
overlapping pieces (each card whole in one), and reads a card its neighbour
covers with the covered part filled by its showing part turned 180 degrees."""

from __future__ import annotations

import numpy as np
import pytest

from referee.cards import CLASSES
from vision.config import ScanConfig
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.scan import fan_reads, seat_close_ups, window_pieces

W, H = 640, 480
SIZE = 64  # the classifier's crop
FACES = {  # a flat colour per card stands in for its face (the same turned)
    "red-3": (0, 0, 200),
    "blue-5": (200, 0, 0),
    "green-7": (0, 200, 0),
    "yellow-1": (0, 200, 200),
    "red-8": (90, 30, 160),
}


@pytest.mark.parametrize("window, card", [((10, 300, 610, 420), 90.0),
                                          ((200, 20, 300, 470), 60.0)])
def test_a_long_window_is_cut_into_overlapping_pieces_each_card_whole_in_one(
    window, card
) -> None:
    cfg = ScanConfig()
    pieces = window_pieces(window, card, cfg)
    axis = 0 if window[2] - window[0] >= window[3] - window[1] else 1
    short = (window[3] - window[1]) if axis == 0 else (window[2] - window[0])
    assert len(pieces) > 1
    starts = [p[axis] for p in pieces]
    ends = [p[axis + 2] for p in pieces]
    assert starts[0] == window[axis] and ends[-1] == window[axis + 2]
    for p in pieces:  # across the cut each piece is the whole window
        assert (p[1 - axis], p[3 - axis]) == (window[1 - axis], window[3 - axis])
        assert p[axis + 2] - p[axis] <= cfg.seat_piece_aspect * short + 1
    # every stretch a card's length long lies inside one piece
    for a in range(window[axis], window[axis + 2] - int(card) + 1):
        assert any(s <= a and a + card <= e for s, e in zip(starts, ends)), a


def test_a_short_window_or_pieces_off_stays_one_window() -> None:
    assert window_pieces((100, 300, 270, 420), 90.0) == [(100, 300, 270, 420)]
    off = ScanConfig(seat_piece_aspect=0)
    assert window_pieces((10, 300, 610, 420), 90.0, off) == [(10, 300, 610, 420)]
    # cards so large that pieces overlapping by one would be no shorter: one
    assert window_pieces((10, 300, 610, 420), 400.0) == [(10, 300, 610, 420)]


class SmallSightDetector:
    """Finds each flat-coloured card's box, but only in images at most ``big``
    pixels wide: the detector's square working size leaves a long row of cards
    too small to see."""

    def __init__(self, big: int):
        self.big = big
        self.calls: list[tuple[int, int]] = []

    def detect(self, image: np.ndarray) -> Detections:
        self.calls.append(image.shape[:2])
        boxes = {}
        if image.shape[1] <= self.big:
            for label, colour in FACES.items():
                ys, xs = np.nonzero(np.all(image == colour, axis=2))
                if len(xs):
                    boxes[label] = [xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]
        labels = sorted(boxes)
        if not labels:
            return Detections.empty()
        return Detections(np.array([boxes[k] for k in labels], np.float32),
                          np.full(len(labels), 0.9), [CLASSES.index(k) for k in labels])


def test_a_long_row_of_cards_is_read_in_pieces() -> None:
    geo = TableGeometry.default((W, H), ["A", "B", "C"])
    image = np.full((H, W, 3), 40, np.uint8)
    x, y = geo.to_image(geo.zones["seat:A"].centre[None])[0].astype(int)
    labels = list(FACES)
    left = x - 5 * 46 // 2
    for k, label in enumerate(labels):  # five cards side by side, a gap between
        x1 = left + 46 * k
        image[y - 25 : y + 25, x1 : x1 + 40] = FACES[label]
    assert all(geo.seat_of(geo.to_table(np.array([[px, y]], float))[0]) == "A"
               for px in (left, left + 46 * 5))
    whole = Detections(np.array([[left, y - 25, left + 46 * 5, y + 25]], np.float32),
                       np.full(1, 0.5), [CLASSES.index("red-3")])
    cfg = ScanConfig(grid=1)
    one = SmallSightDetector(big=160)
    alone = seat_close_ups(one.detect, image, whole, geo, 1,
                           config=ScanConfig(grid=1, seat_piece_aspect=0))
    assert sorted(alone.labels) == ["red-3"]  # the one window saw nothing more
    pieces = SmallSightDetector(big=160)
    dets = seat_close_ups(pieces.detect, image, whole, geo, 1, config=cfg)
    assert sorted(dets.labels) == sorted(labels)
    assert len(pieces.calls) > 1 and all(w <= 160 for _, w in pieces.calls)


def _fan(on_top: str) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Four flat cards 40 x 60 in a row, each 16 px right of the one before;
    ``on_top`` "later": each card on the one before (the last lies whole),
    "earlier": each card under the one before (the first lies whole)."""
    image = np.full((200, 300, 3), 40, np.uint8)
    labels = ["red-3", "blue-5", "green-7", "yellow-1"]
    boxes = np.array([[50 + 16 * k, 70, 90 + 16 * k, 130] for k in range(4)],
                     np.float32)
    order = range(4) if on_top == "later" else range(3, -1, -1)
    for k in order:
        x1, y1, x2, y2 = boxes[k].astype(int)
        image[y1:y2, x1:x2] = FACES[labels[k]]
        image[y1 + 5 : y1 + 12, x1 + 3 : x1 + 10] = 255  # a corner index ...
        image[y2 - 12 : y2 - 5, x2 - 10 : x2 - 3] = 255  # ... and its turned twin
    return image, boxes, labels


def _corner_read(crops: np.ndarray) -> np.ndarray:
    """A classifier that reads a crop by its two ends (a card's corner indexes):
    each card's share of the pixels in the outer fifth at each end."""
    out = np.full((len(crops), len(CLASSES) + 1), 1e-4, np.float32)
    for i, crop in enumerate(crops):
        ends = np.concatenate([crop[:, : SIZE // 5], crop[:, -(SIZE // 5) :]], 1)
        for label, colour in FACES.items():
            out[i, CLASSES.index(label)] += np.all(ends == colour, axis=2).mean()
    return out / out.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("on_top", ["later", "earlier"])
def test_a_covered_card_is_read_with_its_showing_corner_turned_into_the_covered_one(
    on_top,
) -> None:
    from vision.detector import crop_boxes

    image, boxes, labels = _fan(on_top)
    plain = _corner_read(crop_boxes(image, boxes, SIZE))[:, : len(CLASSES)]
    dets = Detections(boxes, plain.max(axis=1), plain.argmax(axis=1),
                      data={"probs": plain})
    whole = 3 if on_top == "later" else 0
    covered = [k for k in range(4) if k != whole]
    assert all(plain[k].max() < 0.6 for k in covered)  # one end is another card
    read = fan_reads(_corner_read, SIZE, image, dets)
    assert read.labels == labels
    assert all(read.confidence[k] > 0.7 for k in covered)
    assert np.allclose(read.data["probs"][whole], plain[whole])  # read as it was
    off = fan_reads(_corner_read, SIZE, image, dets, ScanConfig(fan_visible_max=0))
    assert np.array_equal(off.data["probs"], plain)
