"""A close-up that boxes two cards lying side by side as one, as well as each
card on its own: the box over the two is dropped, so no card of the hand is
counted twice; a fanned row's boxes and a card's own box stay."""

from __future__ import annotations

import numpy as np

from referee.cards import CLASSES
from tests.vision.test_scan_close_ups import COLOURS, H, W
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.scan import seat_close_ups, spanning


def _dets(boxes, labels, conf) -> Detections:
    return Detections(np.array(boxes, np.float32), np.array(conf, np.float32),
                      [CLASSES.index(k) for k in labels])


class PairingDetector:
    """Reads each flat-coloured card exactly, and in every image also boxes
    the two cards ``pair`` (lying side by side) as one, read as the first at a
    low confidence: what the finder does with two cards whose edges touch."""

    def __init__(self, pair: tuple[str, str], conf: float = 0.57):
        self.pair, self.pair_conf = pair, conf

    def detect(self, image: np.ndarray) -> Detections:
        boxes, labels, conf = [], [], []
        for label, colour in COLOURS.items():
            ys, xs = np.nonzero(np.all(image == colour, axis=2))
            if len(xs):
                boxes.append([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1])
                labels.append(label)
                conf.append(0.96)
        if all(p in labels for p in self.pair):
            a, b = (boxes[labels.index(p)] for p in self.pair)
            boxes.append([min(a[0], b[0]), min(a[1], b[1]),
                          max(a[2], b[2]), max(a[3], b[3])])
            labels.append(self.pair[0])
            conf.append(self.pair_conf)
        if not boxes:
            return Detections.empty()
        return _dets(boxes, labels, conf)


def test_a_box_over_two_cards_side_by_side_is_not_a_third_card() -> None:
    geo = TableGeometry.default((W, H), ["A", "B", "C"])
    image = np.full((H, W, 3), 40, np.uint8)
    x, y = geo.to_image(geo.zones["seat:A"].centre[None])[0].astype(int)
    image[y - 20 : y + 20, x - 30 : x - 2] = COLOURS["yellow-1"]  # side by side
    image[y - 20 : y + 20, x + 2 : x + 30] = COLOURS["red-3"]
    image[y + 24 : y + 64, x - 30 : x - 2] = COLOURS["blue-5"]  # a row below
    detector = PairingDetector(("yellow-1", "red-3"))
    whole = detector.detect(image)
    assert sorted(whole.labels) == ["blue-5", "red-3", "yellow-1", "yellow-1"]
    dets = seat_close_ups(detector.detect, image, whole, geo)
    assert sorted(dets.labels) == ["blue-5", "red-3", "yellow-1"]
    yellow = dets.xyxy[dets.labels.index("yellow-1")]
    assert yellow[2] - yellow[0] < 35  # the card's own box, not the pair's


def test_spanning_needs_two_cards_inside_surer_and_smaller() -> None:
    a, b, over = [100, 100, 130, 140], [132, 100, 162, 140], [98, 98, 164, 142]
    two = _dets([a, b, over], ["yellow-1", "red-3", "yellow-1"], [0.96, 0.97, 0.57])
    assert spanning(two).tolist() == [False, False, True]
    # the box over both read surer than either card: kept (two weak boxes in
    # a card are parts of it, not cards)
    sure = _dets([a, b, over], ["yellow-1", "red-3", "yellow-1"], [0.6, 0.6, 0.9])
    assert not spanning(sure).any()
    # one card inside it only: no pair
    one = _dets([a, over, [300, 100, 330, 140]], ["yellow-1", "yellow-1", "red-3"],
                [0.96, 0.57, 0.96])
    assert not spanning(one).any()
    # a card and a part of it (the one lies within the other): not two cards
    twice = _dets([a, [102, 101, 120, 139], over], ["yellow-1"] * 3, [0.96, 0.95, 0.5])
    assert not spanning(twice).any()


def test_a_box_over_two_neighbours_of_a_tight_fan_is_dropped() -> None:
    """Whole-card boxes 40 px wide, each 12 px on from the one before (each
    holding its neighbours' centres), and a box over the last two read as a
    mix: that one goes, the cards stay."""
    boxes = [[50 + 12 * k, 70, 90 + 12 * k, 130] for k in range(4)]
    boxes.append([74, 68, 128, 132])  # over the third and the fourth
    labels = ["red-3", "blue-5", "green-7", "yellow-1", "green-7"]
    fan = _dets(boxes, labels, [0.9, 0.8, 0.95, 0.97, 0.5])
    assert spanning(fan).tolist() == [False] * 4 + [True]


def test_a_fanned_rows_boxes_are_none_over_two_cards() -> None:
    """Whole-card boxes of a tight fan (each 12 px on from the one before, a
    third of its width): each box holds most of both neighbours, but all are
    one size; the row's strips and its whole top card stay as well."""
    whole = [[50 + 12 * k, 70, 86 + 12 * k, 130] for k in range(5)]
    labels = ["red-3", "blue-5", "green-7", "yellow-1", "red-3"]
    fan = _dets(whole, labels, [0.9, 0.5, 0.95, 0.6, 0.97])
    assert not spanning(fan).any()
    strips = [[50 + 12 * k, 70, 62 + 12 * k, 130] for k in range(4)]
    strips.append([98, 70, 134, 130])  # the top card, whole
    fan = _dets(strips, labels, [0.9, 0.95, 0.95, 0.92, 0.5])
    assert not spanning(fan).any()


def test_a_card_boxed_whole_and_by_its_showing_part_counts_once() -> None:
    """A fanned row's covered card boxed twice in one close-up: by its whole
    outline and by the part that shows (IoU about one half, under merge_iou):
    one card, the surer box kept. Two cards of one label side by side, or
    overlapping as a row does, stay two."""
    from vision.scan import read_twice

    whole, part = [269, 326, 347, 423], [274, 328, 320, 410]
    one = _dets([whole, part, [310, 326, 363, 413]], ["red-1", "red-1", "red-2"],
                [0.95, 0.96, 0.97])
    assert read_twice(one).tolist() == [True, False, False]
    two = _dets([[100, 100, 140, 160], [128, 100, 168, 160]], ["red-1"] * 2,
                [0.9, 0.95])
    assert not read_twice(two).any()
    other = _dets([whole, part], ["red-1", "red-4"], [0.95, 0.96])
    assert not read_twice(other).any()


class TwiceDetector(PairingDetector):
    """Boxes ``card`` a second time by its left half, read alike."""

    def __init__(self, card: str):
        super().__init__(("", ""))
        self.card = card

    def detect(self, image: np.ndarray) -> Detections:
        dets = super().detect(image)
        if self.card not in dets.labels:
            return dets
        x1, y1, x2, y2 = dets.xyxy[dets.labels.index(self.card)]
        half = _dets([[x1, y1, (x1 + x2) / 2, y2]], [self.card], [0.97])
        return Detections.concat([dets, half])


def test_a_seat_close_up_counts_a_card_boxed_twice_once() -> None:
    geo = TableGeometry.default((W, H), ["A", "B", "C"])
    image = np.full((H, W, 3), 40, np.uint8)
    x, y = geo.to_image(geo.zones["seat:A"].centre[None])[0].astype(int)
    image[y - 20 : y + 20, x - 30 : x - 2] = COLOURS["yellow-1"]
    image[y - 20 : y + 20, x + 2 : x + 30] = COLOURS["red-3"]
    detector = TwiceDetector("red-3")
    dets = seat_close_ups(detector.detect, image, Detections.empty(), geo)
    assert sorted(dets.labels) == ["red-3", "yellow-1"]
