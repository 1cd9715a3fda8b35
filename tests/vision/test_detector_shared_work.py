"""Work the live detector does once, not twice: the motion gate's grey
thumbnail handed to the detector's still check, a crop cut once a frame, the
classifier's infer request kept, the letterbox's border written alone. Each
gives the values it replaces."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from tests.vision.test_detector_partial import MODEL, needs_openvino  # noqa: E402
from vision import detector as detector_module  # noqa: E402
from vision.config import DetectorConfig  # noqa: E402
from vision.detections import Detections  # noqa: E402
from vision.detector import crop_boxes, grey_thumbnail  # noqa: E402
from vision.openvino_runtime import ClassifierRequest, OpenVinoFinder  # noqa: E402


def table(seed: int = 0, shape: tuple = (480, 640)) -> np.ndarray:
    """A noisy frame with a few bright rectangles."""
    rng = np.random.default_rng(seed)
    frame = rng.integers(0, 90, (*shape, 3), dtype=np.uint8)
    for x, y in ((60, 50), (300, 200), (480, 320)):
        frame[y:y + 120, x:x + 80] = rng.integers(150, 256, 3, dtype=np.uint8)
    return frame


def test_the_gate_makes_the_thumbnail_the_detector_would_make() -> None:
    cfg = DetectorConfig()
    # the shipped gate and still check use one block size: the gate's
    # thumbnail is the one the detector's still check needs
    assert cfg.gate_cell == cfg.finder_still_cell
    frame = table()
    assert np.array_equal(grey_thumbnail(frame, cfg.gate_cell),
                          grey_thumbnail(frame, detector_module.STILL_CELL))


class Bare(detector_module.Detector):
    """A Detector without models, for its thumbnail and crop helpers."""

    def __init__(self) -> None:  # noqa: D107 - no network
        self.still_cell = 8
        self.crop = 64
        self._shared = None


def test_a_shared_thumbnail_is_used_for_that_array_and_cell_only(monkeypatch) -> None:
    det = Bare()
    frame = table(1)
    made: list = []
    real = detector_module.grey_thumbnail
    monkeypatch.setattr(detector_module, "grey_thumbnail",
                        lambda img, cell=8: made.append(cell) or real(img, cell))
    thumb = real(frame, 8)
    det.share_thumbnail(frame, 8, thumb)
    assert det._thumbnail(frame) is thumb
    assert made == []
    # another array with the same pixels (a copy), or another block size: made anew
    assert np.array_equal(det._thumbnail(frame.copy()), thumb)
    assert made == [8]
    det.share_thumbnail(frame, 4, real(frame, 4))
    assert np.array_equal(det._thumbnail(frame), thumb)
    assert made == [8, 8]


def test_the_pipeline_shares_its_gate_thumbnail(tmp_path) -> None:
    from vision.geometry import TableGeometry
    from vision.pipeline import TablePipeline
    from vision.sources import Frame

    class Sharing:
        motion_gate = True
        box_conf = 0.5

        def __init__(self) -> None:
            self.shared: list = []
            self.seen: list = []

        def share_thumbnail(self, image, cell, thumb):  # noqa: ANN001, ANN201
            self.shared.append((image, cell, thumb))

        def detect(self, image):  # noqa: ANN001, ANN201
            self.seen.append(image)
            return Detections.empty()

    detector = Sharing()
    geo = TableGeometry.default((640, 480), ("A", "B", "C"))
    pipe = TablePipeline(str(tmp_path), players=["A", "B", "C"], table=geo,
                         detector=detector, realtime=False)
    pipe.process(Frame(0, 0.0, table(2)))
    assert detector.seen and detector.shared
    image, cell, thumb = detector.shared[-1]
    assert image is detector.seen[-1]
    assert cell == pipe.config.detector.gate_cell
    assert np.array_equal(thumb, grey_thumbnail(image, cell))


def test_a_box_is_cut_once_a_frame_with_crop_boxes_values(monkeypatch) -> None:
    det = Bare()
    frame = table(3)
    boxes = np.array([[60.2, 50.7, 140.1, 170.9], [300, 200, 380, 320],
                      [0, 0, 30, 30]], np.float32)
    cuts: list = []
    real = detector_module.crop_boxes
    monkeypatch.setattr(detector_module, "crop_boxes",
                        lambda f, b, size=64: cuts.append(len(b)) or real(f, b, size))
    cut: dict = {}
    got = det._cut(frame, boxes, cut)
    assert np.array_equal(got, real(frame, boxes, 64))
    again = det._cut(frame, boxes[[2, 0]], cut)
    assert np.array_equal(again, real(frame, boxes[[2, 0]], 64))
    assert cuts == [3]  # the second call cut nothing
    assert det._cut(frame, boxes[:0], cut).shape == (0, 64, 64, 3)


@needs_openvino
@pytest.mark.parametrize("shape", [(480, 640), (640, 480), (300, 500)])
def test_a_letterbox_into_a_used_input_equals_a_fresh_one(shape) -> None:
    finder = OpenVinoFinder(MODEL, 256, threads=1)
    frame = table(4, shape)
    fresh, gains = finder.letterbox(frame)
    used = np.full_like(fresh, -1.0)
    out, got = finder.letterbox(frame, used)
    assert out is used and got == gains
    assert np.array_equal(used, fresh)


@needs_openvino
def test_the_kept_classifier_request_gives_the_compiled_models_logits() -> None:
    det = detector_module.Detector(MODEL, threads=1)
    if det._classifier_ov is None:
        pytest.skip("OpenVINO could not take the classifier")
    frame = table(5)
    rng = np.random.default_rng(5)
    run = ClassifierRequest(det._classifier_ov)
    for n in (2, 1, 3, 2, ClassifierRequest.BUFFERS + 1):
        x1, y1 = rng.uniform(0, 500, n), rng.uniform(0, 350, n)
        boxes = np.stack([x1, y1, x1 + rng.uniform(20, 130, n),
                          y1 + rng.uniform(20, 130, n)], 1)
        crops = crop_boxes(frame, boxes, det.crop)
        want = np.asarray(det._classifier_ov(detector_module.crops_to_array(crops))[0])
        got = run(crops)
        assert got.shape == (n, want.shape[1])
        assert np.array_equal(got, want)
    # the request is the detector's own, made again for a new compiled model
    first = det._classifier_request()
    assert det._classifier_request() is first
    from vision.openvino_runtime import openvino_classifier

    det._classifier_ov = openvino_classifier(det.classifier, det.crop, 1)
    assert det._classifier_request() is not first
    assert det._classifier_request().compiled is det._classifier_ov


@pytest.mark.parametrize("shape", [(480, 640), (360, 640), (640, 480), (120, 160),
                                   (720, 1280), (300, 500), (481, 641)])
def test_a_resized_part_equals_the_part_of_the_whole_frame_resized(shape) -> None:
    from vision.openvino_runtime import resized_part

    h, w = shape
    r = min(256 / h, 256 / w)
    new_w, new_h = max(round(w * r), 1), max(round(h * r), 1)
    rng = np.random.default_rng(h + w)
    frame = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    whole = cv2.resize(frame, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
    parts = [(0, new_h, 0, new_w), (0, 1, 0, 1), (new_h - 1, new_h, new_w - 1, new_w)]
    for _ in range(60):
        y1 = int(rng.integers(0, new_h))
        x1 = int(rng.integers(0, new_w))
        parts.append((y1, int(rng.integers(y1 + 1, new_h + 1)),
                      x1, int(rng.integers(x1 + 1, new_w + 1))))
    for y1, y2, x1, x2 in parts:
        got = resized_part(frame, new_w, new_h, y1, y2, x1, x2)
        assert np.array_equal(got, whole[y1:y2, x1:x2]), (shape, (y1, y2, x1, x2))


def test_nms_keeps_the_boxes_nms_numpy_keeps() -> None:
    from vision.openvino_runtime import NMS_MATRIX, nms
    from vision.ultralytics_setup import nms_numpy

    rng = np.random.default_rng(7)
    for t in range(400):
        n = int(rng.integers(0, 40)) if t % 50 else NMS_MATRIX + 5
        centre, size = rng.uniform(0, 200, (n, 2)), rng.uniform(0, 80, (n, 2))
        if t % 3 == 0:  # whole pixels: touching boxes, equal IoUs
            centre, size = np.round(centre), np.round(size)
        boxes = np.concatenate([centre - size / 2, centre + size / 2], 1)
        boxes = boxes.astype(np.float32)
        if t % 5 == 0 and n:
            boxes[: n // 2] = boxes[0]  # copies of one box
        scores = rng.uniform(0.5, 1, n).astype(np.float32)
        if t % 7 == 0:
            scores = np.round(scores, 1)  # ties
        threshold = (0.7, 0.5, 0.0, 1.0)[t % 4]
        want = nms_numpy(boxes, scores, threshold)
        got = nms(boxes, scores, threshold)
        assert got.dtype == want.dtype and np.array_equal(got, want), t
