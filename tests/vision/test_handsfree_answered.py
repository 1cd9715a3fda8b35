"""A turn's draw the camera missed: the player to move drew and passed unseen,
and the next seat plays. That play is asked about (out of turn, or a missed
draw?); the plays after it answer it when they go on in turn as if the draw
and pass had been seen: the draw is inferred, and every play after it is
ruled as the table played it."""

from __future__ import annotations

from tests.vision.live_events import cam, live_table, uno_header
from vision.handsfree import Asked, answered

HEADER = uno_header(4)

START = (
    cam("start", 1, card="red-7"),
    cam("play", 2, cards=["red-3"], reach_from="A"),
    # B draws a card and passes; the camera does not see it
    cam("play", 5, cards=["red-5"], reach_from="C"),  # asked: out of turn?
)


def kinds(live):
    return [(e["type"], e.get("player"), bool(e.get("inferred")),
             bool(e.get("question"))) for e in live.referee.events]


def test_the_plays_after_a_question_answer_it():
    live = live_table(HEADER, *START)
    assert live.questions  # one play after it: asked, not yet answered
    live.append(cam("play", 7, cards=["red-9"], reach_from="A"))
    live.append(cam("draw", 9, count=1, reach_from="B"))
    live.append(cam("play", 11, cards=["red-2"], reach_from="C"))
    assert kinds(live)[2:] == [
        ("draw", "B", True, False),
        ("pass", "B", True, False),
        ("play", "C", False, False),
        ("play", "A", False, False),
        ("draw", "B", False, False),
        ("pass", "B", True, False),
        ("play", "C", False, False),
    ]
    assert "as if B had drawn a card and passed" in live.referee.events[2]["inferred"]
    assert not live.questions and not [r for r in live.referee.rulings
                                       if r.ruling == "illegal"]
    state = live.state()
    assert state["hand_counts"] == {"A": 2, "B": 6, "C": 2}
    assert state["turn"] == "A" and live.went_on == [3]


def test_plays_that_do_not_answer_it_leave_the_question():
    # after the question, B plays: B's turn by the referee, so nothing is
    # answered by a missed draw (C played out of turn, or a misread)
    live = live_table(HEADER, *START,
                      cam("play", 7, cards=["red-9"], reach_from="B"),
                      cam("play", 9, cards=["red-2"], reach_from="C"))
    assert live.questions and live.went_on == []
    assert [e.get("inferred") for e in live.referee.events] == [None] * 5


def test_answered_needs_the_missed_draw_answer():
    live = live_table(HEADER, *START)
    asked = live.asked_play
    assert asked is not None and asked.start == 2
    more = [("camera", cam("play", 7, cards=["red-9"], reach_from="A"))]
    assert answered(live.referee, Asked(asked.start, asked.event, more), 2) is not None
    # one play only (the asked one): too few
    assert answered(live.referee, Asked(asked.start, asked.event), 2) is None
    # a line that asks nothing
    assert answered(live.referee, Asked(1, START[1], more), 2) is None
