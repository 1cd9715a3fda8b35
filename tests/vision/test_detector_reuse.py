"""The detector keeps the classifier's read of a card lying still (box and pixels
as they were read) and reads a card anew when it moved or its pixels changed."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision import detector as detector_module  # noqa: E402

MODEL = detector_module.default_model()
pytestmark = pytest.mark.skipif(
    not MODEL.exists() or not (detector_module.MODEL_DIR
                               / detector_module.CLASSIFIER_NAME).exists(),
    reason="the shipped finder or classifier is absent (tableref train --ship)",
)


@pytest.fixture(scope="module")
def detector():
    return detector_module.Detector()


@pytest.fixture()
def calls(detector, monkeypatch):
    """The number of crops the classifier is run on, per call."""
    detector.forget()
    seen: list[int] = []
    real = detector._probabilities
    monkeypatch.setattr(detector, "_probabilities",
                        lambda crops: seen.append(len(crops)) or real(crops))
    return seen


def _table(seed: int = 330, label: str = "green-7", size: int = 320) -> np.ndarray:
    from datasets.scenes import compose_single

    scene = compose_single(np.random.default_rng(seed), label, size)
    return np.ascontiguousarray(scene.image)


def _noisy(frame: np.ndarray, rng: np.random.Generator, sigma: float) -> np.ndarray:
    return np.clip(frame + rng.normal(0, sigma, frame.shape), 0, 255).astype(np.uint8)


def test_a_still_card_under_webcam_noise_is_read_once(detector, calls) -> None:
    """Pixel noise of a few grey levels in every frame (a webcam's) does not make
    a card lying still cost the classifier again: it keeps its label and
    probabilities over the frames."""
    # a card about 50 px long, as on a table seen whole at the working size
    frame = np.ascontiguousarray(cv2.resize(_table(), (200, 200),
                                            interpolation=cv2.INTER_AREA))
    rng = np.random.default_rng(0)
    first = detector.detect(_noisy(frame, rng, 3.0))
    assert len(first)
    read = len(calls)
    assert read >= 1
    for _ in range(4):
        again = detector.detect(_noisy(frame, rng, 3.0))
        assert again.labels == first.labels
        np.testing.assert_array_equal(again.data["probs"], first.data["probs"])
    assert len(calls) == read, "a still card was classified again"


def test_a_moved_card_is_read_again(detector, calls) -> None:
    frame = _table()
    first = detector.detect(frame)
    assert len(first)
    read = len(calls)
    moved = np.roll(frame, (9, 12), axis=(0, 1))
    dets = detector.detect(moved)
    assert len(calls) > read, "a card that moved 15 px was not classified again"
    assert dets.labels[:1] == first.labels[:1]


def test_a_hand_over_the_card_is_read_again(detector, calls) -> None:
    frame = _table()
    first = detector.detect(frame)
    read = len(calls)
    x1, y1, x2, y2 = first.xyxy[0].astype(int)
    covered = frame.copy()
    covered[y1 : y1 + (y2 - y1) // 3, x1:x2] = (60, 120, 200)  # skin over its top
    detector.detect(covered)
    assert len(calls) > read, "a changed card was not classified again"


def test_small_changes_do_not_add_up_unread(detector, calls) -> None:
    """A kept read is compared with the pixels it was read from, not with the
    frame before: a card growing brighter by a little each frame is read again
    once the change since its read passes ``reuse_level``."""
    frame = _table().astype(np.float32)
    step = 0.75 * detector.reuse_level
    first = detector.detect(frame.astype(np.uint8))
    read = len(calls)
    box = first.xyxy[0].astype(int)
    lit = frame.copy()
    grown = False
    for k in range(1, 4):
        lit[box[1] : box[3], box[0] : box[2]] = np.clip(
            frame[box[1] : box[3], box[0] : box[2]] + k * step, 0, 255)
        detector.detect(lit.astype(np.uint8))
        if k == 1:
            assert len(calls) == read, "one small step was read anew"
        grown = grown or len(calls) > read
    assert grown, "the change added up over frames without a new read"


def test_a_frame_of_another_shape_keeps_the_live_read(detector, calls) -> None:
    """A close-up of another size in between (the scan's tiles) neither spends
    nor takes the live frame's kept reads; forget() drops them."""
    frame = _table()
    detector.detect(frame)
    read = len(calls)
    detector.detect(np.ascontiguousarray(cv2.resize(frame, (400, 400))))
    after_close_up = len(calls)
    assert after_close_up > read
    detector.detect(frame)
    assert len(calls) == after_close_up, "the live frame's read was lost"
    detector.forget()
    detector.detect(frame)
    assert len(calls) > after_close_up


def test_read_crops_names_a_card_crop_as_detect_does_and_keeps_nothing(detector) -> None:
    """The scan reads crops of its own (a fanned card's covered corner filled
    in) with the classifier: the crop of a box detect found reads as detect
    named it, and nothing is kept for the next frame's reuse."""
    frame = _table()
    detector.forget()
    dets = detector.detect(frame)
    assert len(dets)
    crops = detector_module.crop_boxes(frame, dets.xyxy[:1], detector.crop)
    detector.forget()
    probs = detector.read_crops(crops)
    assert probs.shape == (1, len(dets.names) + 1)
    assert np.isclose(probs.sum(), 1, atol=1e-3)
    assert int(np.argmax(probs[0])) == int(dets.class_id[0])
    assert not detector._reads and not detector._found
    assert detector.read_crops(crops[:0]).shape == (0, len(dets.names) + 1)
