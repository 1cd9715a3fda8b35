"""The window search judges a card by its blocks and those around it
(``detector.finder_crop_context_px``): the finder's box of a card depends on
what lies beside it too, so a hand that leaves the card's side changes the
card's box as a whole-frame search would, and a box found while a hand lay
beside the card is not given back once the hand has gone. The boxes found are
remembered per frame shape whatever the finder's threshold: a search at a
lowered threshold gives a still card the box the live threshold gave it."""

from __future__ import annotations

import numpy as np

from tests.vision.test_detector_partial import (  # noqa: F401 - fixtures
    CONF,
    JitterFinder,
    RedFinder,
    box_near,
    detector,
    find,
    loaded,
    needs_openvino,
    table,
)

A = (40, 40, 60, 90)

C = (300, 200, 60, 90)  # a card: x 300-360, y 200-290
FULL = np.array([300, 200, 360, 290], np.float32)
SHORT = np.array([300, 200, 360, 282], np.float32)


class ContextFinder(RedFinder):
    """:class:`RedFinder` whose box of a card comes out :attr:`shift` px short
    at the bottom while a hand (grey 40) lies within 20 px of the card in the part
    of the frame it is shown, as a network's box of a card depends on what
    lies around it."""

    shift = 8  # px

    def __call__(self, frame, conf, iou, max_det, agnostic=False, window=None):  # noqa: ANN001, ANN204
        boxes, scores, classes = super().__call__(frame, conf, iou, max_det,
                                                  agnostic=agnostic, window=window)
        h, w = frame.shape[:2]
        x1, y1, x2, y2 = ((0, 0, w, h) if window is None
                          else (round(v) for v in self.window_region(h, w, window)))
        shown = np.zeros((h, w), bool)
        shown[y1:y2, x1:x2] = True
        hand = shown & (frame == 40).all(axis=2)
        for box in boxes:
            bx1, by1, bx2, by2 = (int(v) for v in box)
            if hand[max(by1 - 20, 0):by2 + 20, max(bx1 - 20, 0):bx2 + 20].any():
                box[3] -= self.shift
        return boxes, scores, classes


def beside(frame: np.ndarray) -> np.ndarray:
    """``frame`` with a hand left of card :data:`C`, 18 px from it (two
    blocks of the finder's thumbnail away from the card's own)."""
    frame = frame.copy()
    frame[200:260, 230:282] = 40
    return frame


@needs_openvino
def test_a_hand_leaving_a_cards_side_gives_the_card_its_whole_frame_box(
        detector, monkeypatch) -> None:  # noqa: F811
    """The hand beside the card shortens its box; when the hand leaves, the
    window search (no block under the card moved) gives the card the box a
    whole-frame search gives, not the short one it had."""
    finder = ContextFinder()
    monkeypatch.setattr(detector, "model", finder)
    monkeypatch.setattr(detector, "whole_every", 0)
    first = find(detector, beside(table(C)))
    assert finder.windows == [None]
    assert np.array_equal(box_near(first, 300, 200), SHORT)
    gone = find(detector, table(C))
    assert finder.windows[-1] is not None  # a window, not the whole frame
    assert np.array_equal(box_near(gone, 300, 200), FULL)


@needs_openvino
def test_a_box_found_beside_a_hand_is_not_given_back_after_it_left(
        detector, monkeypatch) -> None:  # noqa: F811
    """A box found while a hand lay beside the card is remembered with the
    blocks around it: when the hand has passed over the card and gone, the
    card (the same pixels under that box) gets its box without the hand."""
    finder = ContextFinder()
    monkeypatch.setattr(detector, "model", finder)
    monkeypatch.setattr(detector, "whole_every", 0)
    find(detector, beside(table(C)))
    over = table(C)
    over[250:300, 280:380] = 40  # the hand over the card's lower half
    find(detector, over)
    assert finder.windows[-1] is not None
    gone = find(detector, table(C))
    assert finder.windows[-1] is not None
    assert np.array_equal(box_near(gone, 300, 200), FULL)


@needs_openvino
def test_a_lowered_threshold_gives_a_still_card_the_same_box(
        detector, monkeypatch) -> None:  # noqa: F811
    """A card put down and found by a window search (a box a pixel or so off
    the whole frame's), then the same frame searched at a lowered finder
    threshold (a second look at the pile, the round-end scan): the card
    keeps the box it has, not a second one a pixel away."""
    finder = JitterFinder()
    monkeypatch.setattr(detector, "model", finder)
    monkeypatch.setattr(detector, "whole_every", 0)
    find(detector, table(A))
    laid = find(detector, table(A, C))
    assert finder.windows[-1] is not None
    box = box_near(laid, 300, 200)
    assert not np.array_equal(box, FULL)  # the window's box, off the frame's
    low = detector._find(table(A, C), CONF / 2, True)
    assert finder.windows[-1] is None  # the lowered threshold's first search
    assert np.array_equal(box_near(low, 300, 200), box)
    assert np.array_equal(box_near(find(detector, table(A, C)), 300, 200), box)
