"""The round-end scan's close-ups read each frame's own pixels: a detector that
keeps boxes and reads for reuse (a still card keeps its box and read while its
pixels stay near those it read) drops them before the close-ups, so a hand is
read the same whatever frame was read before it (an arm still in view as the
last card went down, gone a frame later)."""

from __future__ import annotations

import numpy as np

from referee.cards import CLASSES
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.config import ScanConfig
from vision.scan import seat_close_ups

W, H = 640, 480
COLOURS = {"red-3": (0, 0, 200), "blue-5": (200, 0, 0)}
ARM = (120, 160, 210)


class KeepingDetector:
    """Boxes each flat colour exactly; a box found again within ``near`` px of
    one found before on an image of the same shape keeps that box, until
    :meth:`forget` (the real detector's kept boxes)."""

    def __init__(self, near: float = 12.0):
        self.near = near
        self.kept: dict[tuple[int, ...], list[tuple[str, np.ndarray]]] = {}
        self.forgot = 0

    def forget(self) -> None:
        self.kept.clear()
        self.forgot += 1

    def detect(self, image: np.ndarray) -> Detections:
        boxes, labels = [], []
        for label, colour in COLOURS.items():
            ys, xs = np.nonzero(np.all(image == colour, axis=2))
            if len(xs):
                boxes.append([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1])
                labels.append(label)
        if not labels:
            return Detections.empty()
        xyxy = np.array(boxes, np.float32)
        kept = self.kept.setdefault(image.shape, [])
        for i in range(len(xyxy)):
            for label, box in kept:
                if label == labels[i] and np.abs(box - xyxy[i]).max() <= self.near:
                    xyxy[i] = box  # a still card keeps its box
                    break
            else:
                kept.append((labels[i], xyxy[i].copy()))
        probs = np.full((len(labels), len(CLASSES)), 0.01, np.float32)
        return Detections(xyxy, np.full(len(labels), 0.9),
                          [CLASSES.index(k) for k in labels], data={"probs": probs})


def _frames() -> tuple[TableGeometry, np.ndarray, np.ndarray]:
    geo = TableGeometry.default((W, H), ["A", "B", "C"])
    x, y = geo.to_image(geo.zones["seat:A"].centre[None])[0].astype(int)
    laid = np.full((H, W, 3), 40, np.uint8)
    laid[y - 20 : y + 20, x - 40 : x - 12] = COLOURS["red-3"]
    laid[y - 20 : y + 20, x + 12 : x + 40] = COLOURS["blue-5"]
    with_arm = laid.copy()
    with_arm[y + 12 : y + 20, x + 12 : x + 40] = ARM  # a hand's edge over the card
    return geo, with_arm, laid


def _blue(dets: Detections) -> list[float]:
    return dets.xyxy[dets.labels.index("blue-5")].tolist()


def test_close_ups_read_the_frame_not_the_boxes_kept_from_the_last_one() -> None:
    geo, with_arm, laid = _frames()
    fresh = KeepingDetector()
    alone = seat_close_ups(fresh.detect, laid, Detections.empty(), geo)
    kept = KeepingDetector()
    first = seat_close_ups(kept.detect, with_arm, Detections.empty(), geo)
    assert _blue(first)[3] < _blue(alone)[3]  # the arm hid the card's edge
    after = seat_close_ups(kept.detect, laid, Detections.empty(), geo)
    assert sorted(after.labels) == ["blue-5", "red-3"]
    assert _blue(after) == _blue(alone)  # the whole card, as a fresh look sees it
    assert kept.forgot == 2  # once per call, before its first look


def test_close_ups_with_a_detector_that_keeps_nothing() -> None:
    """A plain ``detect`` callable (no detector behind it) is looked through as
    before."""
    geo, _, laid = _frames()
    det = KeepingDetector(near=-1.0)  # never keeps a box
    dets = seat_close_ups(lambda im: det.detect(im), laid, Detections.empty(), geo)
    assert sorted(dets.labels) == ["blue-5", "red-3"]
    assert det.forgot == 0


def test_close_ups_keep_the_detectors_memory_when_switched_off() -> None:
    geo, _, laid = _frames()
    det = KeepingDetector()
    seat_close_ups(det.detect, laid, Detections.empty(), geo,
                   config=ScanConfig(fresh_close_ups=False))
    assert det.forgot == 0
