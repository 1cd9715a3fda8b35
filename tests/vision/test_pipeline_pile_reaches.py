"""The seats a play or draw says reached onto the discard pile since the last
play (``pile_reaches``): the arm that put a card down and lingers on it
after the play was emitted (a card let go) is that play's reach, not a new
one; once it has left, a reach of that seat counts again."""

from __future__ import annotations

from vision.geometry import TableGeometry
from vision.hands import Reach
from vision.pipeline import TablePipeline

PILE = (330.0, 210.0)  # in the default discard zone of a 560 x 420 mm table
AWAY = (60.0, 60.0)


def pipeline(tmp_path) -> TablePipeline:
    pipe = TablePipeline(str(tmp_path), players=["A", "B", "C"], realtime=False)
    pipe.geometry = TableGeometry.default((560, 420), ("A", "B", "C"))
    return pipe


def emit(pipe: TablePipeline, kind: str) -> dict:
    pipe._emit({"type": kind, "t": 0.0}, None)
    return pipe.events[-1]


def test_the_arm_lingering_on_its_card_after_the_play_is_no_new_reach(tmp_path):
    pipe = pipeline(tmp_path)
    pipe._note_pile_reaches([Reach("A", PILE, 9000.0)])
    assert emit(pipe, "play")["pile_reaches"] == ["A"]
    for _ in range(5):  # A's hand stays on the card it let go of
        pipe._note_pile_reaches([Reach("A", PILE, 9000.0)])
    pipe._note_pile_reaches([Reach("A", AWAY, 9000.0)])  # and leaves
    assert emit(pipe, "draw")["pile_reaches"] == []


def test_a_seat_reaching_again_after_its_arm_left_counts(tmp_path):
    pipe = pipeline(tmp_path)
    pipe._note_pile_reaches([Reach("A", PILE, 9000.0)])
    emit(pipe, "play")
    pipe._note_pile_reaches([])  # A's arm has left the pile
    pipe._note_pile_reaches([Reach("B", PILE, 9000.0), Reach("A", PILE, 9000.0)])
    assert emit(pipe, "play")["pile_reaches"] == ["B", "A"]
