"""A tight fanned row whose cards the finder boxes only in part: the cards in
its gaps (a whole number of the row's strides wide) are read by the
classifier from boxes as long as the row's whole card."""

from __future__ import annotations

import numpy as np
import pytest

from referee.cards import CLASSES
from vision.config import ScanConfig
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.scan import row_gaps, seat_close_ups

W, H = 640, 480
SIZE = 64  # the classifier's crop
CARD = (40, 60)  # a card's box, px
STEP = 16  # each card this far right of the one before (later on top)
FACES = {  # a flat colour per card stands in for its face (the same turned)
    "red-3": (0, 0, 200),
    "blue-5": (200, 0, 0),
    "green-7": (0, 200, 0),
    "yellow-1": (0, 200, 200),
    "red-8": (90, 30, 160),
    "blue-2": (160, 90, 30),
    "green-4": (30, 160, 90),
}
LABELS = list(FACES)


def _row(left: int, y: int) -> np.ndarray:
    """The seven cards laid out as a fanned row (each over the one before),
    each with a corner index and its turned twin (white squares)."""
    image = np.full((H, W, 3), 40, np.uint8)
    for k, label in enumerate(LABELS):
        x1, y1 = left + STEP * k, y - CARD[1] // 2
        x2, y2 = x1 + CARD[0], y1 + CARD[1]
        image[y1:y2, x1:x2] = FACES[label]
        image[y1 + 5 : y1 + 12, x1 + 3 : x1 + 10] = 255
        image[y2 - 12 : y2 - 5, x2 - 10 : x2 - 3] = 255
    return image


def _corner_read(crops: np.ndarray) -> np.ndarray:
    """A classifier that reads a crop by its two ends (a card's corner
    indexes): each card's share of the pixels in the outer fifth at each end;
    the last column "no card"."""
    out = np.full((len(crops), len(CLASSES) + 1), 1e-4, np.float32)
    for i, crop in enumerate(crops):
        ends = np.concatenate([crop[:, : SIZE // 5], crop[:, -(SIZE // 5) :]], 1)
        for label, colour in FACES.items():
            out[i, CLASSES.index(label)] += np.all(ends == colour, axis=2).mean()
        out[i, -1] += np.all(ends == 40, axis=2).mean()
    return out / out.sum(axis=1, keepdims=True)


class GappyFinder:
    """Boxes each card whose showing part it sees as a whole card (from its
    showing edge, a card long), except the cards in ``missed``; reads it
    surely. It reads crops too (``read_crops``: :func:`_corner_read`)."""

    classifier = object()
    crop = SIZE

    def __init__(self, missed: set[str]):
        self.missed = missed

    def detect(self, image: np.ndarray) -> Detections:
        boxes, ids = [], []
        for label, colour in FACES.items():
            if label in self.missed:
                continue
            ys, xs = np.nonzero(np.all(image == colour, axis=2))
            if len(xs):
                x1 = xs.min()
                boxes.append([x1, ys.min(), min(x1 + CARD[0], image.shape[1]), ys.max() + 1])
                ids.append(CLASSES.index(label))
        if not boxes:
            return Detections.empty()
        probs = np.full((len(ids), len(CLASSES)), 0.1 / len(CLASSES), np.float32)
        probs[np.arange(len(ids)), ids] += 0.9
        return Detections(np.array(boxes, np.float32), probs[np.arange(len(ids)), ids],
                          ids, data={"probs": probs})

    def read_crops(self, crops: np.ndarray) -> np.ndarray:
        return _corner_read(crops)


def _seat_row() -> tuple[TableGeometry, np.ndarray, int, int]:
    geo = TableGeometry.default((W, H), ["A", "B", "C"])
    x, y = geo.to_image(geo.zones["seat:A"].centre[None])[0].astype(int)
    left = x - (STEP * 6 + CARD[0]) // 2
    assert all(geo.seat_of(geo.to_table(np.array([[px, y]], float))[0]) == "A"
               for px in (left, left + STEP * 6 + CARD[0]))
    return geo, _row(left, y), left, y


@pytest.mark.parametrize("missed", [{"blue-5", "green-7"}, {"yellow-1"},
                                    {"blue-5", "red-8"}])
def test_the_cards_in_a_fanned_rows_gaps_are_read(missed) -> None:
    geo, image, left, y = _seat_row()
    finder = GappyFinder(missed)
    whole = finder.detect(image)
    assert len(whole) == len(LABELS) - len(missed)
    cfg = ScanConfig(grid=1, seat_piece_aspect=0)
    dets = seat_close_ups(finder.detect, image, whole, geo, 1, config=cfg)
    assert sorted(dets.labels) == sorted(LABELS)  # each card once
    found = dets.xyxy[np.argsort(dets.xyxy[:, 0])]
    assert np.allclose(found[:, 0], left + STEP * np.arange(len(LABELS)), atol=1)


def test_a_row_read_whole_gains_no_card() -> None:
    geo, image, _, _ = _seat_row()
    finder = GappyFinder(set())
    cfg = ScanConfig(grid=1, seat_piece_aspect=0)
    dets = seat_close_ups(finder.detect, image, finder.detect(image), geo, 1, config=cfg)
    assert sorted(dets.labels) == sorted(LABELS)


def _boxes(lefts: list[float], top: float = 100.0, long: float = 40.0) -> np.ndarray:
    return np.array([[x, top, x + long, top + 60] for x in lefts], np.float32)


def test_row_gaps_fill_whole_strides_only() -> None:
    cfg = ScanConfig()
    # stride 16: a gap of three strides holds two cards, evenly between
    gaps = row_gaps(_boxes([0, 16, 32, 80, 96]), 0, cfg)
    assert np.allclose(gaps[:, 0], [48, 64])
    # a gap of one and a half strides is no card missed
    assert not len(row_gaps(_boxes([0, 16, 32, 56, 72]), 0, cfg))
    # cards side by side, not fanned (each shows whole): no row
    assert not len(row_gaps(_boxes([0, 44, 88, 176]), 0, cfg))
    # two boxes are no row
    assert not len(row_gaps(_boxes([0, 48]), 0, cfg))
    # boxes not across from each other (two rows) are no row
    two = _boxes([0, 16, 32, 80])
    two[1, [1, 3]] += 200
    assert not len(row_gaps(two, 0, cfg))
    # along the other axis (a column of cards fanned downwards)
    col = _boxes([0, 16, 32, 80, 96])[:, [1, 0, 3, 2]]
    assert np.allclose(row_gaps(col, 1, cfg)[:, 1], [48, 64])
    # off: no gap is filled
    assert not len(row_gaps(_boxes([0, 16, 32, 80, 96]), 0, cfg, fit=0))
