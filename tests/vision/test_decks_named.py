"""An enrolled deck of its own names only the cards it holds (vision.decks)."""

from __future__ import annotations

import numpy as np

import vision.decks as decks
from vision.detections import Detections


class _Boxes:
    def __init__(self, detector) -> None:
        pass

    def detect(self, frame):  # noqa: ANN001, ANN201
        return Detections(np.array([[0, 0, 10, 10], [20, 0, 30, 10]], float),
                          np.ones(2), np.zeros(2), names=("card",))


def _detector(labels, shown, probs, monkeypatch):
    monkeypatch.setattr(decks, "CardFinder", _Boxes)
    det = object.__new__(decks.DeckDetector)
    det.labels = tuple(labels)
    det.named = np.array([label in shown for label in labels] + [True], np.float32)
    det.conf = 0.5
    det.second_look = False
    det._classify = lambda frame, xyxy: np.array(probs, float)
    return det


def test_a_card_the_deck_lacks_is_never_named_its_share_goes_to_the_rest(
        monkeypatch) -> None:
    labels = ["red-draw2", "red-hit2", "counter"]
    # the first box looks most like a Draw Two, which this deck does not hold
    probs = [[0.5, 0.3, 0.1, 0.1], [0.05, 0.05, 0.85, 0.05]]
    got = _detector(labels, {"red-hit2", "counter"}, probs, monkeypatch).detect(
        np.zeros((40, 40, 3), np.uint8))
    names = [got.names[int(c)] for c in got.class_id]
    assert "red-draw2" not in names
    assert sorted(names) == ["counter", "red-hit2"]
    assert np.all(got.data["probs"][:, 0] == 0)


def test_a_deck_holding_every_label_reads_as_the_classifier_says(monkeypatch) -> None:
    labels = ["red-draw2", "red-hit2", "counter"]
    probs = [[0.6, 0.2, 0.1, 0.1], [0.05, 0.05, 0.85, 0.05]]
    got = _detector(labels, set(labels), probs, monkeypatch).detect(
        np.zeros((40, 40, 3), np.uint8))
    assert sorted(got.names[int(c)] for c in got.class_id) == ["counter", "red-draw2"]


def test_a_threshold_given_per_call_leaves_the_decks_own(monkeypatch) -> None:
    labels = ["red-draw2", "red-hit2", "counter"]
    # the first box is unsure (0.4), the second sure
    probs = [[0.4, 0.3, 0.2, 0.1], [0.05, 0.05, 0.85, 0.05]]
    det = _detector(labels, set(labels), probs, monkeypatch)
    frame = np.zeros((40, 40, 3), np.uint8)
    assert len(det.detect(frame, conf=0.3)) == 2
    assert det.conf == 0.5
    assert [det.labels[int(c)] for c in det.detect(frame).class_id] == ["counter"]


class _FannedFinder:
    """The finder at table scale: one box around two fanned cards in the frame
    (160 x 160); two boxes where it looks at them enlarged."""

    def __init__(self, detector) -> None:
        pass

    def detect(self, frame):  # noqa: ANN001, ANN201
        if frame.shape[:2] == (160, 160):
            xyxy = np.array([[40, 40, 80, 80]], float)
        else:  # the window (x 0..120, y 0..120) enlarged twice
            xyxy = np.array([[80, 80, 130, 160], [110, 80, 160, 160]], float)
        return Detections(xyxy, np.ones(len(xyxy)), np.zeros(len(xyxy)),
                          names=("card",))


def test_a_square_box_looked_at_again_splits_into_the_cards_it_holds(
        monkeypatch) -> None:
    monkeypatch.setattr(decks, "CardFinder", _FannedFinder)
    det = object.__new__(decks.DeckDetector)
    det.labels = ("red-5", "yellow-5")
    det.named = np.ones(3, np.float32)
    # the classifier names the two parts as two cards
    det._classify = lambda frame, xyxy: np.eye(3)[: len(xyxy)] * 0.9 + 0.03
    frame = np.zeros((160, 160, 3), np.uint8)
    boxes = _FannedFinder(det).detect(frame)
    parts, _ = det._look_again(frame, boxes)
    assert np.allclose(parts.xyxy, [[40, 40, 65, 80], [55, 40, 80, 80]])
    # the same box again is not looked at again (a still pile)
    monkeypatch.setattr(decks, "CardFinder", _Boxes)
    assert np.allclose(det._look_again(frame, boxes)[0].xyxy, parts.xyxy)


def test_a_box_taller_than_wide_is_one_card(monkeypatch) -> None:
    monkeypatch.setattr(decks, "CardFinder", _FannedFinder)
    det = object.__new__(decks.DeckDetector)
    det.labels = ("red-5", "yellow-5")
    tall = Detections(np.array([[40, 30, 80, 100]], float), np.ones(1), np.zeros(1),
                      names=("card",))
    got, _ = det._look_again(np.zeros((160, 160, 3), np.uint8), tall)
    assert np.allclose(got.xyxy, tall.xyxy)


def test_an_enrolled_deck_classifier_runs_at_the_shipped_precision(
        tmp_path, monkeypatch) -> None:
    import torch

    import vision.openvino_runtime as ovr
    from vision.detector import CLASSIFIER_PRECISION, card_net

    labels = ["red-hit2", "counter"]
    path = tmp_path / "cardnet.pt"
    torch.save({"labels": labels, "width": 8, "size": 64,
                "members": [card_net(len(labels) + 1, 8).state_dict()]}, path)
    asked: list[tuple] = []
    monkeypatch.setattr(ovr, "openvino_classifier",
                        lambda net, size, threads=None, precision="f32":
                        asked.append((threads, precision)))
    det = decks.DeckDetector(path, labels)
    if det.backend != "openvino":
        return
    assert asked[-1][1] == CLASSIFIER_PRECISION
    decks.DeckDetector(path, labels, classifier_precision="f32")
    assert asked[-1][1] == "f32"
