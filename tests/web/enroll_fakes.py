"""A camera, a finder, a reader and a trainer that stand in for the real ones in
the enrollment wizard's tests (imported by that unique name).

Cards are bright rectangles on a dark table; a card's fill value says which
card it is (:func:`value_of`), so the fake reader reads it back exactly.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np

from referee.cards import CLASSES
from vision.detections import Detections

H, W = 360, 480
CARD_W, CARD_H = 60, 84
EXTRA = ["red-hit2", "counter", "change"]  # tgus-t labels, after CLASSES


def value_of(label: str) -> int:
    names = list(CLASSES) + EXTRA
    return 100 + 2 * names.index(label)


def label_of(value: int) -> str:
    names = list(CLASSES) + EXTRA
    return names[int(round((value - 100) / 2))]


@dataclass
class Frame:
    image: np.ndarray


class FakeCamera:
    """A camera whose scene the test sets: ``show([(label, (cx, cy)), ...])``."""

    def __init__(self, pace: float = 0.004) -> None:
        self.pace = pace
        self.cards: list[tuple[str, tuple[int, int]]] = []
        self.lock = threading.Lock()
        self.closed = False
        self.frames = 0
        self.limit: int | None = None  # frames before the source ends
        self.held = False  # cards shaking in a hand: never steady

    def show(self, cards) -> None:  # noqa: ANN001
        with self.lock:
            self.cards = list(cards)

    def one(self, label: str, held: bool = False) -> None:
        self.held = held
        self.show([(label, (W // 2, H // 2))])

    def clear(self) -> None:
        self.show([])

    def grid(self, labels, cols: int = 4) -> None:  # noqa: ANN001
        """``labels`` laid out as the printed sheet: rows of ``cols``."""
        self.show([(label, (50 + (i % cols) * 110, 60 + (i // cols) * 110))
                   for i, label in enumerate(labels)])

    def image(self) -> np.ndarray:
        frame = np.full((H, W, 3), 30, np.uint8)
        with self.lock:
            cards = list(self.cards)
        shake = (20 if self.frames % 2 else -20) if self.held else 0
        for label, (cx, cy) in cards:
            cx += shake
            frame[cy - CARD_H // 2 : cy + CARD_H // 2,
                  cx - CARD_W // 2 : cx + CARD_W // 2] = value_of(label)
        return frame

    def read(self):  # noqa: ANN201
        if self.closed:
            raise RuntimeError("read after close")
        if self.limit is not None and self.frames >= self.limit:
            return None
        self.frames += 1
        time.sleep(self.pace)
        return Frame(self.image())

    def close(self) -> None:
        self.closed = True


class FakeFinder:
    """Boxes the bright rectangles."""

    names = ("card",)

    def detect(self, frame: np.ndarray) -> Detections:
        import cv2

        grey = frame[:, :, 0]
        mask = (grey > 90).astype(np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
        boxes = [[x, y, x + w, y + h] for x, y, w, h, area in stats[1:n] if area > 200]
        return Detections(np.array(boxes, np.float32).reshape(-1, 4),
                          np.full(len(boxes), 0.9), np.zeros(len(boxes)),
                          names=self.names)


def fake_reader(frame: np.ndarray, xyxy: np.ndarray) -> list[tuple[str, float]]:
    out = []
    for x1, y1, x2, y2 in np.asarray(xyxy).astype(int):
        value = int(np.median(frame[y1:y2, x1:x2, 0]))
        out.append((label_of(value), 0.97))
    return out


def fake_tools():  # noqa: ANN201
    return FakeFinder(), fake_reader


class FakeTrainer:
    """Says fine_tune's progress lines; holds at half way until ``go`` is set."""

    def __init__(self, hold: bool = False) -> None:
        self.go = threading.Event()
        self.half = threading.Event()
        if not hold:
            self.go.set()
        self.shots: list = []

    def __call__(self, shots, progress):  # noqa: ANN001, ANN204
        from vision.enroll import EnrollResult

        self.shots = list(shots)
        progress("training crops: 10 (8 of cards)")
        progress("fine-tuning network 1/2: step 60/60 loss 0.500")
        self.half.set()
        self.go.wait(10)
        progress("fine-tuning network 2/2: step 60/60 loss 0.400")
        photos: dict[str, int] = {}
        for s in shots:
            photos[s.label] = photos.get(s.label, 0) + 1
        checkpoint = {"members": [], "size": 64, "width": 16, "labels": list(CLASSES),
                      "base": "fake.pt", "enroll": {"steps": 1}}
        missing = [c for c in CLASSES if c not in photos]
        return EnrollResult(checkpoint, photos, missing, [], [], 0.1)
