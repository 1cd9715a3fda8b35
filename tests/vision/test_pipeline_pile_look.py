"""The pipeline's second look at the discard pile under a hand
(:meth:`vision.pipeline.TablePipeline._pile_look`): while an arm's tip lies
on the pile and the frame's read boxes no card near it, the frame is read
again at ``play.reach_box_conf``; the cards that read adds in the discard
zone are kept (a hand lingering on the card it let go of covers part of it,
and the finder scores the rest under its threshold), those elsewhere are
not, and the detector's own threshold is given back."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.config import PipelineConfig
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.hands import Reach
from vision.pipeline import TablePipeline
from vision.sources import Frame

PILE_TIP = (360.0, 170.0)  # table mm, in the default discard zone
AWAY_TIP = (60.0, 60.0)
# image boxes (640 x 480 frame of the default 560 x 420 mm table)
UNDER_HAND = [345.0, 190.0, 410.0, 290.0]  # on the discard pile
IN_A_SEAT = [40.0, 380.0, 100.0, 460.0]  # far from the pile


def box(xyxy: list[float], label: int = 3) -> Detections:
    return Detections(np.array([xyxy]), np.array([0.96]), np.array([label]))


class Detector:
    """A finder that scores the card under the hand (and one in a seat) under
    its threshold: they show only when the threshold is lowered."""

    motion_gate = False

    def __init__(self, normal: list[list[float]] = ()) -> None:
        self.box_conf = 0.5
        self.asked: list[float] = []
        self.normal = list(normal)

    def detect(self, image):
        self.asked.append(self.box_conf)
        rows = list(self.normal)
        if self.box_conf <= PipelineConfig().play.reach_box_conf:
            rows += [UNDER_HAND, IN_A_SEAT]
        if not rows:
            return Detections.empty()
        return Detections(np.array(rows), np.full(len(rows), 0.96), np.full(len(rows), 3))


def pipeline(tmp_path, detector: Detector, tip: tuple[float, float] | None):
    pipe = TablePipeline(str(tmp_path), players=["A", "B", "C"],
                         table=TableGeometry.default((640, 480), ("A", "B", "C")),
                         detector=detector, realtime=False)
    pipe.process(Frame(0, 0.0, np.zeros((480, 640, 3), np.uint8)))
    pipe._note_pile_reaches([] if tip is None else [Reach("A", tip, 9000.0)])
    detector.asked.clear()
    return pipe


def look(pipe: TablePipeline) -> Detections:
    image = np.zeros((480, 640, 3), np.uint8)
    return pipe._detect(Frame(1, 1 / 30, image), image)


def test_a_card_under_a_hand_on_the_pile_is_read_at_the_lower_threshold(tmp_path):
    detector = Detector()
    pipe = pipeline(tmp_path, detector, PILE_TIP)
    dets = look(pipe)
    assert detector.asked == [0.5, PipelineConfig().play.reach_box_conf]
    assert detector.box_conf == 0.5
    # the card on the pile is kept; the one the lower threshold found in a seat is not
    assert dets.xyxy.tolist() == [UNDER_HAND]


def test_no_arm_on_the_pile_no_second_read(tmp_path):
    detector = Detector()
    pipe = pipeline(tmp_path, detector, AWAY_TIP)
    assert len(look(pipe)) == 0
    assert detector.asked == [0.5]


def test_a_card_boxed_near_the_arm_already_needs_no_second_read(tmp_path):
    detector = Detector(normal=[[350.0, 195.0, 412.0, 285.0]])
    pipe = pipeline(tmp_path, detector, PILE_TIP)
    assert len(look(pipe)) == 1
    assert detector.asked == [0.5]


def test_a_second_read_over_a_box_of_the_first_adds_nothing_there(tmp_path):
    # a box of the first read far from the arm (a card at the pile's other
    # end) that the second read's card overlaps: that card is not added twice
    detector = Detector(normal=[[300.0, 150.0, 380.0, 240.0]])
    pipe = pipeline(tmp_path, detector, (395.0, 290.0))
    dets = look(pipe)
    assert detector.asked == [0.5, PipelineConfig().play.reach_box_conf]
    assert dets.xyxy.tolist() == [[300.0, 150.0, 380.0, 240.0]]


def test_reach_box_conf_1_turns_the_second_read_off(tmp_path):
    detector = Detector()
    pipe = pipeline(tmp_path, detector, PILE_TIP)
    pipe.config = replace(pipe.config, play=replace(pipe.config.play, reach_box_conf=1.0))
    assert len(look(pipe)) == 0
    assert detector.asked == [0.5]
