"""A card the finder scores faintly (a wild's black face, mostly covered in a
fanned hand) but the classifier names surely: a seat's close-up takes the
finder's boxes under the scan's threshold too, and keeps such a card; the
finder's faint boxes over parts of cards stay out."""

from __future__ import annotations

import numpy as np
import pytest

from referee.cards import CLASSES
from tests.vision.test_scan_close_ups import COLOURS, H, W
from vision.config import ScanConfig
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.scan import faint_cards, seat_close_ups

FACES = {**COLOURS, "wild": (0, 0, 0)}
FAINT = 0.12  # the finder's score of the wild and of its stray boxes


class FaintFinder:
    """A two-stage detector: its finder boxes each flat-coloured card's
    showing part at 0.9, but the black wild at only ``FAINT``, and at that
    score also a box over two cards (the classifier reads it as a mix, 0.45)
    and one over the top of a card (read as that card, 0.85). The classifier
    names each card's own box 0.9 sure. A box is returned when the finder
    scores it at least ``box_conf`` and the classifier at least ``conf``."""

    def __init__(self) -> None:
        self.conf = 0.35
        self.box_conf = 0.5
        self.finder_thresholds: list[float] = []

    def detect(self, image: np.ndarray, conf: float | None = None) -> Detections:
        self.finder_thresholds.append(self.box_conf)
        least = self.conf if conf is None else conf
        boxes = {}
        for label, colour in FACES.items():
            ys, xs = np.nonzero(np.all(image == colour, axis=2))
            if len(xs):
                boxes[label] = [xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]
        rows = [(box, label, 0.9 if label != "wild" else FAINT, 0.9)
                for label, box in boxes.items()]
        if "red-3" in boxes and "blue-5" in boxes:  # over two cards: a mix
            a, b = boxes["red-3"], boxes["blue-5"]
            rows.append(([min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]),
                          max(a[3], b[3])], "red-3", FAINT, 0.45))
        if "yellow-1" in boxes:  # the top of a card, read as that card
            x1, y1, x2, y2 = boxes["yellow-1"]
            rows.append(([x1, y1, x2, y1 + (y2 - y1) // 2], "yellow-1", FAINT, 0.85))
        rows = [r for r in rows if r[2] >= self.box_conf and r[3] >= least]
        if not rows:
            return Detections.empty()
        return Detections(np.array([r[0] for r in rows], np.float32),
                          np.array([r[3] for r in rows], np.float32),
                          [CLASSES.index(r[1]) for r in rows])


def _fanned_hand() -> tuple[TableGeometry, np.ndarray]:
    """Seat A's hand in two columns, each card covering the lower part of the
    one before: yellow-1, the wild, green-7; beside them red-3, blue-5."""
    geo = TableGeometry.default((W, H), ["A", "B", "C"])
    image = np.full((H, W, 3), 40, np.uint8)
    x, y = geo.to_image(geo.zones["seat:A"].centre[None])[0].astype(int)
    for k, label in enumerate(["yellow-1", "wild", "green-7"]):
        top = y - 50 + 25 * k
        image[top : top + 60, x - 44 : x - 4] = FACES[label]
    for k, label in enumerate(["red-3", "blue-5"]):
        top = y - 50 + 25 * k
        image[top : top + 60, x + 4 : x + 44] = FACES[label]
    return geo, image


def test_a_card_the_finder_scores_faintly_but_the_classifier_names_surely_is_read(
) -> None:
    geo, image = _fanned_hand()
    detector = FaintFinder()
    detector.box_conf = 0.25  # the scan's threshold, as the pipeline sets it
    whole = detector.detect(image)
    assert sorted(whole.labels) == ["blue-5", "green-7", "red-3", "yellow-1"]
    dets = seat_close_ups(detector.detect, image, whole, geo)
    assert sorted(dets.labels) == ["blue-5", "green-7", "red-3", "wild", "yellow-1"]
    assert detector.box_conf == 0.25  # the finder's threshold given back
    assert min(detector.finder_thresholds) == ScanConfig().faint_box_conf
    # the tiles are not asked faintly: only a seat's close-up
    assert detector.finder_thresholds.count(ScanConfig().faint_box_conf) == 1


def test_faint_boxes_off_leave_the_card_unread() -> None:
    geo, image = _fanned_hand()
    detector = FaintFinder()
    detector.box_conf = 0.25
    dets = seat_close_ups(detector.detect, image, detector.detect(image), geo,
                          config=ScanConfig(faint_sure=0.0))
    assert "wild" not in dets.labels
    assert min(detector.finder_thresholds) == 0.25


def _dets(boxes, labels, conf) -> Detections:
    return Detections(np.array(boxes, np.float32), np.array(conf, np.float32),
                      [CLASSES.index(k) for k in labels])


@pytest.mark.parametrize("box, label, conf, kept", [
    ([0, 50, 40, 100], "wild", 0.9, True),  # a card of its own, partly covered
    ([0, 50, 40, 100], "wild", 0.6, False),  # not named surely
    ([0, 40, 40, 90], "yellow-1", 0.9, False),  # overlaps a box of its label
    ([0, 5, 40, 65], "wild", 0.95, False),  # yellow-1's box again (IoU > 0.5)
])
def test_faint_cards_keep_a_sure_card_of_its_own(box, label, conf, kept) -> None:
    found = _dets([[0, 0, 40, 60], [0, 90, 40, 150]], ["yellow-1", "green-7"],
                  [0.9, 0.9])
    faint = _dets([box], [label], [conf])
    assert faint_cards(found, faint, 0.5, 0.8).tolist() == [kept]
    assert faint_cards(Detections.empty(), faint, 0.5, 0.8).tolist() == [conf >= 0.8]
