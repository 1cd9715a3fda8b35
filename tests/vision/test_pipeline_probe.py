"""The pipeline's hook for the sleeping scan's sharper look
(:meth:`vision.scan.HandScan.probe`): when the scan asks for one, the frame
is detected again at ``scan.box_conf`` and handed to the scan; the
detector's own threshold is given back."""

from __future__ import annotations

import numpy as np

from vision.config import PipelineConfig
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.pipeline import TablePipeline
from vision.sources import Frame


class Detector:
    motion_gate = False

    def __init__(self) -> None:
        self.box_conf = 0.5
        self.asked: list[float] = []

    def detect(self, image):
        self.asked.append(self.box_conf)
        return Detections.empty()


def pipeline(tmp_path) -> tuple[TablePipeline, Detector]:
    detector = Detector()
    geo = TableGeometry.default((640, 480), ("A", "B", "C"))
    pipe = TablePipeline(str(tmp_path), players=["A", "B", "C"], table=geo,
                         detector=detector, realtime=False)
    return pipe, detector


def frame(k: int) -> Frame:
    return Frame(k, k / 15.0, np.zeros((480, 640, 3), np.uint8))


def test_a_probe_the_scan_asks_for_is_detected_at_the_scans_threshold(tmp_path):
    pipe, detector = pipeline(tmp_path)
    pipe.process(frame(0))
    scan = pipe.stages["scan"]
    looks: list[float] = []
    scan.probe_due = lambda t: True
    scan.probe = lambda dets, t: looks.append(t)
    detector.asked.clear()
    pipe.process(frame(1))
    assert looks == [frame(1).t]
    assert detector.asked == [0.5, PipelineConfig().scan.box_conf]
    assert detector.box_conf == 0.5


def test_no_probe_no_second_look(tmp_path):
    pipe, detector = pipeline(tmp_path)
    pipe.process(frame(0))
    scan = pipe.stages["scan"]
    scan.probe_due = lambda t: False
    scan.probe = lambda dets, t: (_ for _ in ()).throw(AssertionError("probed"))
    detector.asked.clear()
    pipe.process(frame(1))
    assert detector.asked == [0.5]
