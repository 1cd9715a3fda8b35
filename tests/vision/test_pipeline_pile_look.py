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
import pytest

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


def table_pipeline(tmp_path, detector, top_look: bool = True) -> TablePipeline:  # noqa: ANN001
    """A three-seat pipeline on ``detector`` (``play.top_look`` as given), its
    table set up by one blank frame."""
    config = PipelineConfig()
    config = replace(config, play=replace(config.play, top_look=top_look))
    pipe = TablePipeline(str(tmp_path), players=["A", "B", "C"],
                         table=TableGeometry.default((640, 480), ("A", "B", "C")),
                         detector=detector, realtime=False, config=config)
    pipe.process(Frame(0, 0.0, np.zeros((480, 640, 3), np.uint8)))
    return pipe


def pipeline(tmp_path, detector: Detector, tip: tuple[float, float] | None):
    pipe = table_pipeline(tmp_path, detector)
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


def test_a_card_on_the_pile_no_box_shows_is_read_at_the_lower_threshold(tmp_path):
    # no arm: the pile holds a card and the frame's read boxes nothing on it
    # (a card laid neatly on it scores under the finder's threshold)
    from vision.pile_memory import PileCard

    detector = Detector()
    pipe = pipeline(tmp_path, detector, None)
    xy = pipe.geometry.to_table(np.array([[377.5, 240.0]]))[0]
    taken(pipe, xy)
    dets = look(pipe)
    assert detector.asked == [0.5, PipelineConfig().play.reach_box_conf]
    assert dets.xyxy.tolist() == [UNDER_HAND]
    # a box on the top card: no second read
    detector = Detector(normal=[[350.0, 195.0, 412.0, 285.0]])
    pipe = pipeline(tmp_path, detector, None)
    taken(pipe, xy)
    assert len(look(pipe)) == 1 and detector.asked == [0.5]
    # an arm elsewhere on the table (leaving, or at the draw pile): read again
    detector = Detector()
    pipe = pipeline(tmp_path, detector, AWAY_TIP)
    taken(pipe, xy)
    assert look(pipe).xyxy.tolist() == [UNDER_HAND]
    # an arm's tip at the pile (within play.let_go_tip_mm of the top card,
    # outside the zone: it passes over it, hiding it): not read again
    near = (float(xy[0]), float(xy[1]) - 95.0)
    assert not pipe.geometry.inside("discard", np.array([near]))[0]
    detector = Detector()
    pipe = pipeline(tmp_path, detector, near)
    taken(pipe, xy)
    assert len(look(pipe)) == 0 and detector.asked == [0.5]
    # no arm reached onto the pile since its top card was last boxed: the card
    # itself is looked for (a pile is not gathered without a hand) ...
    detector = Detector()
    pipe = pipeline(tmp_path, detector, None)
    taken(pipe, xy, reached=False)
    assert look(pipe).xyxy.tolist() == [UNDER_HAND]
    assert detector.asked == [0.5, PipelineConfig().play.reach_box_conf]
    # ... unless play.top_unreached is off: then only after a reach
    detector = Detector()
    pipe = pipeline(tmp_path, detector, None)
    pipe.config = replace(pipe.config, play=replace(pipe.config.play, top_unreached=False))
    taken(pipe, xy, reached=False)
    assert len(look(pipe)) == 0 and detector.asked == [0.5]
    # play.top_look off: only under an arm
    detector = Detector()
    pipe = pipeline(tmp_path, detector, None)
    pipe.config = replace(pipe.config, play=replace(pipe.config.play, top_look=False))
    taken(pipe, xy)
    assert len(look(pipe)) == 0 and detector.asked == [0.5]


def taken(pipe: TablePipeline, xy, reached: bool = True) -> None:
    """The pile holds a blue 3 at ``xy`` (table mm), taken at 0 s; an arm
    reached onto the pile after it (``reached``)."""
    from vision.pile_memory import PileCard

    watcher = pipe.stages["game"].watcher
    watcher.pile = [PileCard("blue-3", (float(xy[0]), float(xy[1])), 0.0)]
    watcher.memory.last_reach = 0.5 if reached else -1.0


class NeatTwin:
    """A blue 3 turned up on the empty pile, then a green 3 laid neatly on it:
    the finder scores the green 3 under its threshold once the hand has left
    (the blue 3's edge shows round it), so only a lowered threshold boxes it."""

    motion_gate = False

    def __init__(self) -> None:
        self.box_conf = 0.5
        self.frame = 0

    def detect(self, image):
        from referee.cards import CLASSES

        if 15 <= self.frame < 18:  # the hand over the pile hides it
            return Detections.empty()
        if self.frame < 15:
            return Detections(np.array([[345.0, 190.0, 410.0, 290.0]]),
                              np.array([0.96]), np.array([CLASSES.index("blue-3")]))
        if self.box_conf > PipelineConfig().play.reach_box_conf:
            return Detections.empty()
        return Detections(np.array([[359.0, 196.0, 424.0, 296.0]]), np.array([0.96]),
                          np.array([CLASSES.index("green-3")]))


class Arm:
    """The hand stage: A's arm with its tip at ``tip`` in frames ``frames``
    (by default 15-17: over the pile, putting the green 3 down); no arm
    otherwise."""

    def __init__(self, tip, frames: range = range(15, 18)) -> None:  # noqa: ANN001
        self.tip = (float(tip[0]), float(tip[1]))
        self.frames = frames
        self.reaches: list[Reach] = []

    def update(self, image, dets, t):
        on = round(t * 15) in self.frames
        self.reaches = [Reach("A", self.tip, 9000.0)] if on else []
        dets.data["touched"] = np.zeros(len(dets), bool)
        return dets

    def take_in(self, zone) -> None:
        pass


@pytest.mark.parametrize("top_look", [True, False])
def test_a_card_laid_neatly_on_the_pile_is_played_though_its_box_scores_low(
    tmp_path, top_look
):
    detector = NeatTwin()
    pipe = table_pipeline(tmp_path, detector, top_look)
    pipe.stages["hands"] = Arm(pipe.geometry.to_table(np.array([[377.5, 240.0]]))[0])
    events = []
    for k in range(1, 30):
        detector.frame = k
        events += pipe.process(Frame(k, k / 15, np.zeros((480, 640, 3), np.uint8)))
    cards = [(e["type"], e.get("card") or e.get("cards")) for e in events]
    if top_look:
        assert cards == [("start", "blue-3"), ("play", ["green-3"])]
    else:
        assert cards == [("start", "blue-3")]
