"""The live finder: a second export of the finder (the shipped one is its INT8
export) searches the frames a caller marks live (``Detector.live``); the live
pipeline marks its video frames outside the round-end scan, so the scan's
reads, its close-ups, its sleeping look and still photos keep the float finder."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision import detector as detector_module  # noqa: E402
from vision.config import PipelineConfig  # noqa: E402
from vision.detections import Detections, box_iou  # noqa: E402
from vision.geometry import TableGeometry  # noqa: E402
from vision.pipeline import TablePipeline  # noqa: E402
from vision.sources import Frame  # noqa: E402

MODEL = detector_module.MODEL_DIR / detector_module.OPENVINO_NAME
needs_model = pytest.mark.skipif(
    not MODEL.exists() or not (detector_module.MODEL_DIR
                               / detector_module.CLASSIFIER_NAME).exists(),
    reason="shipped OpenVINO finder or classifier absent",
)


def table_frame() -> np.ndarray:
    from datasets.scenes import compose_scene

    scene = compose_scene(np.random.default_rng([2024, 3]), 640, empty_fraction=0.0)
    return cv2.resize(scene.image, (640, 480))


def counted(finder) -> list:  # noqa: ANN001
    """Count the calls of an ``OpenVinoFinder`` (the instance's own calls)."""
    calls: list = []
    real = finder._request

    def request(shape):  # noqa: ANN001, ANN202
        calls.append(shape)
        return real(shape)

    finder._request = request
    return calls


@needs_model
def test_the_live_finder_searches_only_the_frames_marked_live() -> None:
    """With a live finder loaded, a frame searched while ``live`` is set goes to
    it, any other frame to the model's own finder; both share the kept boxes."""
    det = detector_module.Detector(live_model=MODEL)
    assert det.live is False and det.live_finder is not None
    own, live = counted(det.model), counted(det.live_finder)
    frame = table_frame()
    first = det.detect(frame)
    assert own and not live
    det.forget()
    det.live = True
    again = det.detect(frame)
    assert live and len(own) == 1
    # the same export twice: the same cards
    assert np.array_equal(first.xyxy, again.xyxy)
    det.live = False
    det.forget()
    det.detect(frame)
    assert len(own) == 2 and len(live) == 1


@needs_model
def test_without_a_live_finder_live_frames_use_the_models_finder() -> None:
    det = detector_module.Detector()
    assert det.live_finder is None
    own = counted(det.model)
    det.live = True
    det.detect(table_frame())
    assert own


def test_the_shipped_live_finder_is_found_where_it_lies(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(detector_module, "MODEL_DIR", tmp_path)
    assert detector_module.live_model() is None
    (tmp_path / detector_module.LIVE_NAME).mkdir()
    assert detector_module.live_model() == tmp_path / detector_module.LIVE_NAME


def test_the_live_pipelines_detector_loads_the_shipped_live_finder(monkeypatch) -> None:
    from vision import pipeline_parts

    got: dict = {}

    class Recorder:
        def __init__(self, **kwargs) -> None:
            got.update(kwargs)

    monkeypatch.setattr(detector_module, "Detector", Recorder)
    monkeypatch.setattr(detector_module, "live_model", lambda: "LIVE")
    pipeline_parts.load_default_detector()
    assert got["live_model"] == "LIVE"
    monkeypatch.setattr(pipeline_parts, "LIVE_FINDER", False)
    got.clear()
    pipeline_parts.load_default_detector()
    assert got["live_model"] is None


class LiveDetector:
    """Records whether each detect call was a live frame."""

    motion_gate = False

    def __init__(self) -> None:
        self.box_conf = 0.5
        self.live = False
        self.seen: list[tuple[bool, float]] = []

    def detect(self, image):  # noqa: ANN001, ANN201
        self.seen.append((self.live, self.box_conf))
        return Detections.empty()


def pipeline(tmp_path) -> tuple[TablePipeline, LiveDetector]:
    detector = LiveDetector()
    geo = TableGeometry.default((640, 480), ("A", "B", "C"))
    pipe = TablePipeline(str(tmp_path), players=["A", "B", "C"], table=geo,
                         detector=detector, realtime=False)
    return pipe, detector


def frame(k: int) -> Frame:
    return Frame(k, k / 15.0, np.full((480, 640, 3), 40 * k % 250, np.uint8))


def test_the_pipelines_video_frames_are_live_and_the_flag_is_given_back(tmp_path) -> None:
    pipe, detector = pipeline(tmp_path)
    pipe.process(frame(0))
    pipe.stages["scan"].probe_due = lambda t: False
    pipe.process(frame(1))
    assert detector.seen and all(live for live, _ in detector.seen)
    assert detector.live is False  # outside the pipeline's reads: not live


def test_the_round_end_scans_reads_use_the_float_finder(tmp_path) -> None:
    pipe, detector = pipeline(tmp_path)
    pipe.process(frame(0))
    scan = pipe.stages["scan"]
    scan.probe_due = lambda t: False
    scan.active = True
    detector.seen.clear()
    pipe.process(frame(1))
    assert detector.seen and not any(live for live, _ in detector.seen)
    assert detector.live is False


def test_the_sleeping_scans_sharper_look_uses_the_float_finder(tmp_path) -> None:
    pipe, detector = pipeline(tmp_path)
    pipe.process(frame(0))
    scan = pipe.stages["scan"]
    scan.probe_due = lambda t: True
    scan.probe = lambda dets, t: None
    detector.seen.clear()
    pipe.process(frame(1))
    looks = [live for live, conf in detector.seen
             if conf == PipelineConfig().scan.box_conf]
    assert looks == [False]
    assert detector.seen[0] == (True, 0.5)


LIVE = detector_module.live_model()


@needs_model
@pytest.mark.skipif(LIVE is None, reason="no shipped live finder")
def test_the_shipped_live_finder_boxes_the_cards_the_float_finder_boxes() -> None:
    """The INT8 export of the same weights: the same cards, boxes within a few
    pixels, on a rendered table frame."""
    det = detector_module.Detector(live_model=LIVE)
    frame = table_frame()
    float_dets = det.detect(frame)
    det.forget()
    det.live = True
    live_dets = det.detect(frame)
    assert len(float_dets) == len(live_dets) > 0
    iou = box_iou(np.asarray(float_dets.xyxy, np.float64),
                  np.asarray(live_dets.xyxy, np.float64))
    assert (iou.max(axis=1) > 0.9).all()
    assert sorted(float_dets.class_id.tolist()) == sorted(live_dets.class_id.tolist())
