"""With the window search on, a card whose pixels did not change keeps the box
it was read at (``detector.finder_crop_hold_px``): the finder's fit of a still
card moves by a pixel or three when a hand passes beside it or a window shows
it less of its surroundings, and the pile would read that moved box as a copy
laid on the card. A card whose crop changed (moved, or a hand over it) gets the
finder's box."""

from __future__ import annotations

import numpy as np

from referee.cards import CLASSES
from tests.vision.test_detector_context import ContextFinder
from tests.vision.test_detector_partial import (  # noqa: F401 - fixtures
    detector,
    loaded,
    needs_openvino,
    table,
)

C = (300, 200, 60, 90)  # a card: x 300-360, y 200-290
FULL = np.array([300, 200, 360, 290], np.float32)
SHIFT = 3  # px: how far the finder's fit moves with a hand beside the card


class BesideFinder(ContextFinder):
    """:class:`ContextFinder` whose box of a card comes out :data:`SHIFT` px
    short at the bottom while a hand (grey 40) lies within 20 px of the card in
    the part of the frame it is shown."""

    shift = SHIFT


def beside(frame: np.ndarray) -> np.ndarray:
    """``frame`` with a hand left of card :data:`C`, 18 px from it."""
    frame = frame.copy()
    frame[200:260, 230:282] = 40
    return frame


def reads(detector, monkeypatch) -> list:  # noqa: ANN001
    """The detector with the finder :class:`BesideFinder` and a classifier
    that names every crop red-7: the boxes it was asked to read, call by call."""
    monkeypatch.setattr(detector, "model", BesideFinder())
    monkeypatch.setattr(detector, "whole_every", 0)
    asked: list = []
    red7 = np.zeros(len(CLASSES) + 1, np.float32)
    red7[CLASSES.index("red-7")] = 1.0

    def classify(frame, xyxy, crops=None):  # noqa: ANN001, ANN202
        asked.append(np.array(xyxy, np.float32))
        return np.tile(red7, (len(xyxy), 1))

    monkeypatch.setattr(detector, "_classify", classify)
    return asked


def card_box(dets) -> np.ndarray:  # noqa: ANN001
    assert len(dets) == 1 and dets.labels == ["red-7"]
    return dets.xyxy[0]


@needs_openvino
def test_a_hand_beside_a_still_card_leaves_its_box_as_read(detector, monkeypatch) -> None:  # noqa: F811
    asked = reads(detector, monkeypatch)
    assert np.array_equal(card_box(detector.detect(table(C))), FULL)
    for _ in range(3):
        held = detector.detect(beside(table(C)))
        assert detector.model.windows[-1] is not None  # a window search
        assert np.array_equal(card_box(held), FULL)
    assert len(asked) == 1  # read once: the card's pixels did not change
    assert detector.held_boxes == 3
    # the hand gone: the finder's fit is the box read again
    assert np.array_equal(card_box(detector.detect(table(C))), FULL)


@needs_openvino
def test_a_card_moved_or_covered_gets_the_finders_box(detector, monkeypatch) -> None:  # noqa: F811
    asked = reads(detector, monkeypatch)
    detector.detect(table(C))
    # slid by 3 px (within the hold's reach, its sides' blocks changed)
    moved = card_box(detector.detect(table((303, 200, 60, 90))))
    assert np.array_equal(moved, np.array([303, 200, 363, 290], np.float32))
    assert len(asked) == 2
    # a hand over the card's edge (its crop changed) beside it: read anew at
    # the box the finder fits
    over = beside(table((303, 200, 60, 90)))
    over[230:250, 280:310] = 40
    box = card_box(detector.detect(over))
    assert len(asked) == 3
    assert not np.array_equal(box, moved)


@needs_openvino
def test_a_negative_hold_reports_the_finders_fit(detector, monkeypatch) -> None:  # noqa: F811
    reads(detector, monkeypatch)
    monkeypatch.setattr(detector, "crop_hold_px", -1.0)
    detector.detect(table(C))
    fitted = card_box(detector.detect(beside(table(C))))
    assert np.array_equal(fitted, FULL - np.array([0, 0, 0, SHIFT], np.float32))


@needs_openvino
def test_the_hold_needs_the_window_search(detector, monkeypatch) -> None:  # noqa: F811
    reads(detector, monkeypatch)
    monkeypatch.setattr(detector, "crop_margin", -1.0)
    detector.detect(table(C))
    fitted = card_box(detector.detect(beside(table(C))))
    assert detector.model.windows[-1] is None
    assert np.array_equal(fitted, FULL - np.array([0, 0, 0, SHIFT], np.float32))


@needs_openvino
def test_a_small_change_on_the_card_is_not_held(detector, monkeypatch) -> None:  # noqa: F811
    """A fingertip on the card moves a few blocks of its crop, not the crop's
    mean (the read is kept within reuse_px): beyond reuse_px the box is
    held only where no block moved over ``crop_hold_level``."""
    asked = reads(detector, monkeypatch)
    detector.detect(table(C))
    tip = beside(table(C))
    tip[240:246, 325:331] = 40  # inside the card, its box as it was
    fitted = card_box(detector.detect(tip))
    assert np.array_equal(fitted, FULL - np.array([0, 0, 0, SHIFT], np.float32))
    assert len(asked) == 2
    detector.detect(table(C))
    monkeypatch.setattr(detector, "crop_hold_level", 1e9)
    assert np.array_equal(card_box(detector.detect(tip)), FULL)


def test_the_classifier_input_is_the_torch_conversion_exactly() -> None:
    from vision.detector import crops_to_array, crops_to_tensor

    crops = np.random.default_rng(0).integers(0, 256, (3, 64, 64, 3), dtype=np.uint8)
    assert np.array_equal(crops_to_array(crops), crops_to_tensor(crops).numpy())


@needs_openvino
def test_a_card_a_hand_passed_over_gets_the_box_it_was_read_at(detector, monkeypatch) -> None:  # noqa: F811
    """A hand over the card, then beside it: the card's pixels are again those
    read before the hand came, so it gets that box and read back (not the
    finder's fit beside the hand, nor a new read)."""
    asked = reads(detector, monkeypatch)
    assert np.array_equal(card_box(detector.detect(table(C))), FULL)
    over = table(C)
    over[250:300, 280:380] = 40  # the hand over the card's lower half
    detector.detect(over)
    assert len(asked) == 2
    back = card_box(detector.detect(beside(table(C))))
    assert detector.model.windows[-1] is not None
    assert np.array_equal(back, FULL)
    assert len(asked) == 2
    # a card laid on it a few px off (its crop changed): the finder's box
    laid = beside(table((303, 203, 60, 90)))
    assert not np.array_equal(card_box(detector.detect(laid)), FULL)
    assert len(asked) == 3
