"""Which frames the pipeline reads as live video frames
(:meth:`vision.detector.Detector.live_frames`, the live finder's: the frame's
read and the pile's second look outside the round-end scan), and which by the
detector's own finder (the scan's reads, its close-ups, the sleeping scan's
probe)."""

from __future__ import annotations

import contextlib
from typing import Iterator

import numpy as np

from vision.config import PipelineConfig
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.hands import Reach
from vision.pipeline import TablePipeline
from vision.sources import Frame

PILE_TIP = (360.0, 170.0)  # table mm, in the default discard zone
UNDER_HAND = [345.0, 190.0, 410.0, 290.0]  # image px, on the discard pile


class Detector:
    """Records each read: (box threshold, inside live_frames, image shape)."""

    motion_gate = False

    def __init__(self) -> None:
        self.box_conf = 0.5
        self.live = False
        self.reads: list[tuple[float, bool, tuple]] = []

    @contextlib.contextmanager
    def live_frames(self) -> Iterator[None]:
        was, self.live = self.live, True
        try:
            yield
        finally:
            self.live = was

    def detect(self, image):
        self.reads.append((self.box_conf, self.live, image.shape[:2]))
        if self.box_conf <= PipelineConfig().play.reach_box_conf:
            return Detections(np.array([UNDER_HAND]), np.array([0.96]), np.array([3]))
        return Detections.empty()


def pipeline(tmp_path) -> tuple[TablePipeline, Detector]:
    detector = Detector()
    pipe = TablePipeline(str(tmp_path), players=["A", "B", "C"],
                         table=TableGeometry.default((640, 480), ("A", "B", "C")),
                         detector=detector, realtime=False)
    return pipe, detector


def frame(k: int) -> Frame:
    return Frame(k, k / 15.0, np.zeros((480, 640, 3), np.uint8))


def test_video_frames_are_read_as_live_frames(tmp_path) -> None:
    pipe, detector = pipeline(tmp_path)
    pipe.process(frame(0))
    assert detector.reads == [(0.5, True, (480, 640))]
    assert not detector.live  # given back after the frame


def test_the_piles_second_look_is_a_live_read_too(tmp_path) -> None:
    pipe, detector = pipeline(tmp_path)
    pipe.process(frame(0))
    pipe._note_pile_reaches([Reach("A", PILE_TIP, 9000.0)])
    detector.reads.clear()
    image = np.zeros((480, 640, 3), np.uint8)
    dets = pipe._detect(Frame(1, 1 / 15, image), image)
    assert dets.xyxy.tolist() == [UNDER_HAND]
    assert detector.reads == [(0.5, True, (480, 640)),
                              (PipelineConfig().play.reach_box_conf, True, (480, 640))]


def test_the_scan_and_its_probe_use_the_detectors_own_finder(tmp_path) -> None:
    pipe, detector = pipeline(tmp_path)
    pipe.process(frame(0))
    scan = pipe.stages["scan"]
    # the sleeping scan's probe: the frame read again, not as a live frame
    scan.probe_due = lambda t: True
    scan.probe = lambda dets, t: None
    detector.reads.clear()
    pipe.process(frame(1))
    assert [r[:2] for r in detector.reads] == [
        (0.5, True), (PipelineConfig().scan.box_conf, False)]
    # the round-end scan on: the frame and its close-ups, none a live read
    scan.probe_due = lambda t: False
    pipe.set_scan(True)
    detector.reads.clear()
    pipe.process(frame(2))
    assert scan.active and detector.reads
    assert not any(live for _, live, _ in detector.reads)
    assert any(shape != (480, 640) for _, _, shape in detector.reads)  # close-ups
    # and off again: live frames once more
    pipe.set_scan(False)
    detector.reads.clear()
    pipe.process(frame(3))
    assert detector.reads == [(0.5, True, (480, 640))]
