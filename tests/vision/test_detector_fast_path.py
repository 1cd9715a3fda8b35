"""The detector's cheaper paths give the values of the paths they replace: the
crop classifier run at a static batch size (the dynamic batch's logits bit for
bit), the one-class finder's decode (the many-class decode's boxes)."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from tests.vision.test_detector_partial import MODEL, needs_openvino  # noqa: E402
from vision import detector as detector_module  # noqa: E402
from vision import openvino_runtime as ovr  # noqa: E402
from vision.detector import crop_boxes  # noqa: E402
from vision.openvino_runtime import ClassifierRequest, OpenVinoFinder  # noqa: E402
from vision.ultralytics_setup import nms_numpy  # noqa: E402


def scene_frame(seed: int = 0, shape: tuple = (480, 640)) -> np.ndarray:
    from datasets.scenes import compose_scene

    scene = compose_scene(np.random.default_rng([31, seed]), 640, empty_fraction=0.0)
    return np.ascontiguousarray(cv2.resize(scene.image, shape[::-1]))


@pytest.fixture(scope="module")
def detector():  # noqa: ANN201
    det = detector_module.Detector(MODEL, threads=1)
    if det._classifier_ov is None:
        pytest.skip("OpenVINO could not take the classifier")
    return det


@needs_openvino
def test_a_batch_runs_at_its_own_static_size_with_the_dynamic_batchs_logits(
        detector) -> None:
    frame = scene_frame(1)
    rng = np.random.default_rng(3)
    run = ClassifierRequest(detector._classifier_ov)
    dynamic = detector._classifier_ov
    for n in (1, 2, 3, 2, 5, ClassifierRequest.BUFFERS, ClassifierRequest.BUFFERS + 1):
        x1, y1 = rng.uniform(0, 500, n), rng.uniform(0, 350, n)
        boxes = np.stack([x1, y1, x1 + rng.uniform(20, 200, n),
                          y1 + rng.uniform(20, 200, n)], 1)
        crops = crop_boxes(frame, boxes, detector.crop)
        want = np.asarray(dynamic(detector_module.crops_to_array(crops))[0])
        got = run(crops)
        assert np.array_equal(got, want)
        request = run._runs[n][2] if n in run._runs else run.request
        shape = request.get_compiled_model().input(0).get_partial_shape()
        if n <= ClassifierRequest.BUFFERS:
            assert shape.is_static and list(shape.to_shape()) == [n, 3, detector.crop,
                                                                   detector.crop]
            assert request is not run.request
        else:
            assert request is run.request and not shape.is_static


@needs_openvino
def test_a_classifier_compiled_elsewhere_runs_on_its_dynamic_batch(detector) -> None:
    import openvino as ov

    source = ovr._SOURCES[detector._classifier_ov]
    other = ov.Core().compile_model(source[0], "CPU", source[1])  # not registered
    run = ClassifierRequest(other)
    crops = crop_boxes(scene_frame(2), np.array([[10, 10, 90, 130], [200, 100, 300, 220]]),
                       detector.crop)
    assert np.array_equal(run(crops), ClassifierRequest(detector._classifier_ov)(crops))
    assert run._runs[2][2] is run.request


@needs_openvino
def test_the_detections_equal_those_of_the_dynamic_batch(detector) -> None:
    """Whole detections (boxes, labels, confidences, probabilities) of a few
    frames, every card new, equal a detector's whose classifier runs only on
    its dynamic batch."""
    reference = detector_module.Detector(MODEL, threads=1)
    ovr._SOURCES.pop(reference._classifier_ov)  # as if compiled elsewhere
    cards = 0
    for seed in range(4):
        frame = scene_frame(seed)
        for det in (detector, reference):
            det.forget()
        got, want = detector.detect(frame), reference.detect(frame)
        assert all(r[2] is reference._classifier_run.request
                   for r in reference._classifier_run._runs.values())
        assert np.array_equal(got.xyxy, want.xyxy)
        assert np.array_equal(got.confidence, want.confidence)
        assert np.array_equal(got.class_id, want.class_id)
        assert np.array_equal(got.data["probs"], want.data["probs"])
        cards += len(got)
    assert cards >= 4


def many_class_decode(pred: np.ndarray, conf: float, iou: float, max_det: int,
                      agnostic: bool, w: int, h: int, gains: tuple) -> tuple:
    """The finder's decode for any number of classes, written out plainly:
    each anchor's best class, boxes over ``conf``, NMS (class-aware unless
    ``agnostic``), boxes back in the frame's pixels."""
    gain_x, gain_y, pad_x, pad_y = gains
    scores = pred[4:]
    cls = scores.argmax(0)
    score = scores[cls, np.arange(scores.shape[1])]
    keep = np.flatnonzero(score > conf)
    xywh = pred[:4, keep].T
    boxes = np.concatenate([xywh[:, :2] - xywh[:, 2:] / 2,
                            xywh[:, :2] + xywh[:, 2:] / 2], 1)
    score, cls = score[keep], cls[keep]
    offset = 0 if agnostic else cls[:, None] * OpenVinoFinder.MAX_WH
    kept = nms_numpy(boxes + offset, score, iou)[:max_det]
    boxes, score, cls = boxes[kept], score[kept], cls[kept]
    boxes -= np.array([pad_x, pad_y] * 2, np.float32)
    boxes /= np.array([gain_x, gain_y, gain_x, gain_y], np.float32)
    boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, w)
    boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, h)
    return boxes.astype(np.float32), score.astype(np.float32), cls.astype(np.int32)


class _Output:
    def __init__(self, pred: np.ndarray) -> None:
        self.data = pred[None]


class _Request:
    """An infer request whose output is a given prediction."""

    def __init__(self, pred: np.ndarray) -> None:
        self.pred = pred

    def infer(self) -> None:
        pass

    def get_output_tensor(self, index: int) -> _Output:
        return _Output(self.pred)


def synthetic_prediction(rng: np.random.Generator, classes: int) -> np.ndarray:
    """(4 + classes, 1344) raw finder output: anchors clustered on a few cards."""
    a = 1344
    pred = np.zeros((4 + classes, a), np.float32)
    centres = rng.uniform(10, 246, (rng.integers(1, 9), 2))
    at = rng.integers(0, len(centres), a)
    pred[0] = centres[at, 0] + rng.normal(0, 4, a)
    pred[1] = centres[at, 1] + rng.normal(0, 4, a)
    pred[2:4] = rng.uniform(10, 90, (2, a))
    pred[4:] = rng.random((classes, a)).astype(np.float32) ** 5
    return pred


@needs_openvino
@pytest.mark.parametrize("classes", [1, 3])
@pytest.mark.parametrize("agnostic", [True, False])
def test_the_decode_boxes_what_the_many_class_decode_boxes(classes, agnostic,
                                                            monkeypatch) -> None:
    finder = OpenVinoFinder(MODEL, 256, threads=1)
    frame = scene_frame(0)
    h, w = frame.shape[:2]
    _, gains = finder.letterbox(frame)
    rng = np.random.default_rng([classes, agnostic])
    boxes = 0
    for _ in range(40):
        pred = synthetic_prediction(rng, classes)
        compiled = finder._request(finder.input_shape(h, w))[0]
        monkeypatch.setattr(finder, "_request", lambda shape: (compiled, _Request(pred)))
        for conf in (0.1, 0.25, 0.5):
            got = finder(frame, conf, 0.5, 50, agnostic=agnostic)
            want = many_class_decode(pred, conf, 0.5, 50, agnostic, w, h, gains)
            for a, b in zip(got, want):
                assert a.dtype == b.dtype and np.array_equal(a, b)
            boxes += len(got[0])
    assert boxes > 100
