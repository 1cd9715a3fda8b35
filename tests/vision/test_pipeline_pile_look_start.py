"""The pipeline's second look at the empty discard pile
(:meth:`vision.pipeline.TablePipeline._pile_look`): once an arm has reached
onto the empty pile's zone (the dealer turning the start card up there) and
the frame's read boxes no card in the zone, the frame is read again at
``play.reach_box_conf``. A start card alone on the cloth can score under the
finder's threshold once the hand has left it; read so, it starts the round
in a settle time. No arm in the zone since it was emptied: no second read."""

from __future__ import annotations

import numpy as np
import pytest

from referee.cards import CLASSES
from tests.vision.test_pipeline_pile_look import Arm, table_pipeline
from vision.config import PipelineConfig
from vision.detections import Detections
from vision.sources import Frame

START = [345.0, 190.0, 410.0, 290.0]  # image box on the discard pile


class LowStart:
    """A blue 3 turned up on the empty pile in frame 3: under the dealer's
    hand (frames 3-5) nothing is boxed; after it, the finder scores the
    card under its threshold."""

    motion_gate = False

    def __init__(self) -> None:
        self.box_conf = 0.5
        self.frame = 0
        self.asked: list[float] = []

    def detect(self, image):
        self.asked.append(self.box_conf)
        if self.frame < 6 or self.box_conf > PipelineConfig().play.reach_box_conf:
            return Detections.empty()
        return Detections(np.array([START]), np.array([0.96]),
                          np.array([CLASSES.index("blue-3")]))


def run(tmp_path, frames: range, top_look: bool = True):
    detector = LowStart()
    pipe = table_pipeline(tmp_path, detector, top_look)
    tip = pipe.geometry.to_table(np.array([[377.5, 240.0]]))[0]
    assert pipe.geometry.inside("discard", np.array([tip]))[0]
    pipe.stages["hands"] = Arm(tip, frames)
    events = []
    for k in range(1, 20):
        detector.frame = k
        events += pipe.process(Frame(k, k / 15, np.zeros((480, 640, 3), np.uint8)))
    return [(e["type"], e.get("card"), e["t"]) for e in events], detector


def test_a_start_card_scoring_low_after_the_dealer_left_starts_the_round(tmp_path):
    events, _ = run(tmp_path, range(3, 6))
    assert [(kind, card) for kind, card, _ in events] == [("start", "blue-3")]
    assert events[0][2] - 6 / 15 <= 0.2 + 1e-6  # a settle time after it showed


def test_no_arm_on_the_empty_pile_no_second_read(tmp_path):
    events, detector = run(tmp_path, range(0))
    assert events == []
    assert set(detector.asked) == {0.5}


@pytest.mark.parametrize("top_look", [False])
def test_with_top_look_off_the_empty_pile_is_not_looked_at_again(tmp_path, top_look):
    events, _ = run(tmp_path, range(3, 6), top_look=top_look)
    assert events == []
