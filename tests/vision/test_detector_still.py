"""The detector keeps the finder's boxes for a frame that did not change (against
the frame the finder last ran on), searches a changed frame again, and takes a
label threshold per call without changing its own."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision import detector as detector_module  # noqa: E402
from vision.config import ScanConfig  # noqa: E402
from vision.detections import Detections  # noqa: E402
from vision.scan import _detect_twins  # noqa: E402

MODEL = detector_module.default_model()
needs_model = pytest.mark.skipif(
    not MODEL.exists() or not (detector_module.MODEL_DIR
                               / detector_module.CLASSIFIER_NAME).exists(),
    reason="the shipped finder or classifier is absent (tableref train --ship)",
)


@pytest.fixture(scope="module")
def detector():
    return detector_module.Detector()


@pytest.fixture()
def searches(detector, monkeypatch):
    """The frames the finder network ran on, one entry a run."""
    detector.forget()
    seen: list[int] = []
    real = detector.model

    def counted(frame, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        seen.append(1)
        return real(frame, *args, **kwargs)

    monkeypatch.setattr(detector, "model", counted)
    return seen


def _table(seed: int = 331, label: str = "blue-4", size: int = 256) -> np.ndarray:
    from datasets.scenes import compose_single

    scene = compose_single(np.random.default_rng(seed), label, size)
    return np.ascontiguousarray(scene.image)


@needs_model
def test_an_unchanged_frame_keeps_the_finders_boxes(detector, searches) -> None:
    frame = _table()
    first = detector.detect(frame)
    assert len(first) and len(searches) == 1
    again = detector.detect(frame.copy())
    assert len(searches) == 1  # not searched again
    assert np.array_equal(again.xyxy, first.xyxy)
    assert again.labels == first.labels


@needs_model
def test_a_changed_frame_is_searched_again(detector, searches) -> None:
    frame = _table()
    detector.detect(frame)
    changed = frame.copy()
    changed[:40, :40] = 255 - changed[:40, :40]  # a hand over one corner
    detector.detect(changed)
    assert len(searches) == 2
    # a frame of another shape is compared with frames of its own shape only
    detector.detect(np.ascontiguousarray(frame[:, :200]))
    assert len(searches) == 3


@needs_model
def test_slow_changes_do_not_add_up_unseen(detector, searches) -> None:
    """Each frame moves by one grey level from the last, within the tolerance;
    the frame compared with stays the one the finder ran on, so the finder runs
    again once the change since then is beyond it."""
    frame = _table().astype(np.int16)
    level = detector.still_level
    assert level >= 1
    for step in range(int(level) + 2):
        detector.detect(np.clip(frame + step, 0, 255).astype(np.uint8))
    assert len(searches) == 2


@needs_model
def test_a_negative_level_searches_every_frame(detector, searches) -> None:
    frame = _table()
    before = detector.still_level
    detector.still_level = -1.0
    try:
        for _ in range(3):
            detector.detect(frame)
    finally:
        detector.still_level = before
    assert len(searches) == 3


@needs_model
def test_a_threshold_given_per_call_leaves_the_detectors_own(detector) -> None:
    frame = _table(332, "red-6")
    low = detector.detect(frame, conf=0.0)
    assert len(low)
    top = float(low.confidence.max())
    high = detector.detect(frame, conf=np.nextafter(np.float32(top), np.float32(2)))
    assert detector.conf == detector_module.CONF
    assert len(high) == 0
    assert len(detector.detect(frame, conf=top)) >= 1
    normal = detector.detect(frame)
    assert normal.labels == low[np.nonzero(low.confidence >= detector.conf)[0]].labels


class _Recorder:
    """A detector whose ``detect`` takes a threshold per call and records, for
    each call, the threshold given and its own ``conf`` then."""

    def __init__(self) -> None:
        self.conf = 0.35
        self.calls: list[tuple[float | None, float]] = []

    def detect(self, image: np.ndarray, conf: float | None = None) -> Detections:
        self.calls.append((conf, self.conf))
        return Detections.empty()


def test_close_ups_give_the_twin_threshold_per_call() -> None:
    rec = _Recorder()
    cfg = ScanConfig()
    assert cfg.turn_keep < rec.conf
    _detect_twins(rec.detect, np.zeros((32, 32, 3), np.uint8), cfg)
    assert rec.calls == [(cfg.turn_keep, 0.35)]  # never lowered on the object
