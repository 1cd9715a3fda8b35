"""Cards played together lie fanned, and the finder boxes the fan as one card: the
deck detector's second look splits such a box only into cards the classifier names
apart (vision.decks.DeckDetector._look_again)."""

from __future__ import annotations

import numpy as np

import vision.decks as decks
from vision.detections import Detections

LABELS = ["red-5", "yellow-5", "counter"]
WHOLE = [40, 40, 80, 80]  # the fan's box: as wide as tall
LEFT, RIGHT = [40, 40, 65, 80], [55, 40, 80, 80]  # the cards a zoomed look finds


class _FannedFinder:
    """The finder at table scale: one box around the fan in the frame (160 x
    160); two boxes where it looks at the window (x, y 0..120) enlarged twice."""

    shift = 0.0  # px the fan's box lies off WHOLE (a box jittering)
    looks = 0  # windows looked at

    def __init__(self, detector) -> None:
        pass

    def detect(self, frame):  # noqa: ANN001, ANN201
        if frame.shape[:2] == (160, 160):
            xyxy = np.array([WHOLE], float) + _FannedFinder.shift
        else:
            _FannedFinder.looks += 1
            xyxy = np.array([[80, 80, 130, 160], [110, 80, 160, 160]], float)
        return Detections(xyxy, np.ones(len(xyxy)), np.zeros(len(xyxy)),
                          names=("card",))


def _probs(label: str, p: float) -> list[float]:
    row = [(1 - p) / len(LABELS)] * (len(LABELS) + 1)
    row[LABELS.index(label)] = p
    return row


def _detector(monkeypatch, named: dict[tuple, tuple[str, float]]):
    """A deck detector whose classifier names each box as ``named`` says."""
    monkeypatch.setattr(decks, "CardFinder", _FannedFinder)
    det = object.__new__(decks.DeckDetector)
    det.labels = tuple(LABELS)
    det.named = np.ones(len(LABELS) + 1, np.float32)
    det.conf = 0.3
    det.second_look = True
    det._looked = {}
    det.reads = 0
    _FannedFinder.shift, _FannedFinder.looks = 0.0, 0

    def classify(frame, xyxy):  # noqa: ANN001, ANN202
        det.reads += len(xyxy)
        return np.array([_probs(*named.get(tuple(int(round(v)) for v in box),
                                           named[tuple(WHOLE)]))
                         for box in xyxy], float)

    det._classify = classify
    return det


def _names(got: Detections) -> list[str]:
    return sorted(got.names[int(c)] for c in got.class_id)


def test_a_fan_named_as_two_cards_is_read_as_both(monkeypatch) -> None:
    det = _detector(monkeypatch, {tuple(WHOLE): ("red-5", 0.9),
                                  tuple(LEFT): ("red-5", 0.95),
                                  tuple(RIGHT): ("yellow-5", 0.7)})
    got = det.detect(np.zeros((160, 160, 3), np.uint8))
    assert _names(got) == ["red-5", "yellow-5"]


def test_a_single_card_boxed_in_pieces_stays_one_card(monkeypatch) -> None:
    # a card lying turned: the zoomed look boxes it twice, both named as it
    det = _detector(monkeypatch, {tuple(WHOLE): ("counter", 0.9),
                                  tuple(LEFT): ("counter", 0.9),
                                  tuple(RIGHT): ("counter", 0.6)})
    got = det.detect(np.zeros((160, 160, 3), np.uint8))
    assert _names(got) == ["counter"]
    assert np.allclose(got.xyxy, [WHOLE])


def test_a_piece_the_classifier_is_unsure_of_is_no_card_of_its_own(
        monkeypatch) -> None:
    # the corner of a card lower in the pile, or a piece of the top card, read
    # as another card only faintly
    det = _detector(monkeypatch, {tuple(WHOLE): ("red-5", 0.9),
                                  tuple(LEFT): ("red-5", 0.95),
                                  tuple(RIGHT): ("yellow-5", 0.35)})
    got = det.detect(np.zeros((160, 160, 3), np.uint8))
    assert _names(got) == ["red-5"]
    assert np.allclose(got.xyxy, [WHOLE])


def test_a_still_fan_is_not_looked_at_again(monkeypatch) -> None:
    det = _detector(monkeypatch, {tuple(WHOLE): ("red-5", 0.9),
                                  tuple(LEFT): ("red-5", 0.95),
                                  tuple(RIGHT): ("yellow-5", 0.7)})
    frame = np.zeros((160, 160, 3), np.uint8)
    det.detect(frame)
    first = det.reads
    assert _names(det.detect(frame)) == ["red-5", "yellow-5"]
    assert det.reads - first == 2  # the two cards named; no parts looked at again

