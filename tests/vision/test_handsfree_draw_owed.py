"""Hands-free refereeing: a camera draw is ruled for what the player owes in the state it is ruled in."""

from __future__ import annotations

from tests.vision.live_events import cam, live_table, uno_header

HEADER = uno_header(5)


def said(kind: str, t: float, **kw):
    """An event a person gave (the voice's colour)."""
    return {"type": kind, "source": "voice", "t": t, **kw}


def test_a_draw_that_settles_a_held_wild_draw4_copy_takes_all_four():
    # A's Wild Draw Four; B takes its four; C draws one, then the camera says C
    # put a Wild Draw Four on the Wild Draw Four (a copy after a draw: held for
    # the next move). The camera counted A's takes while the copy was held (the
    # referee then said A owed nothing) and saw three: A's draw settles the copy
    # and is ruled after it, when A owes four, so A took four.
    live = live_table(
        HEADER,
        cam("start", 1, card="green-3"),
        cam("play", 2, cards=["wild-draw4"], reach_from="A"),
        said("color", 3, color="yellow", player="A"),
        cam("draw", 4, count=4, reach_from="B"),
        cam("draw", 6, count=1, reach_from="C"),
        cam("play", 8, cards=["wild-draw4"], reach_from="C"),
    )
    assert live.doubt is not None
    live.append(said("color", 9, color="green", player="C"))
    live.append(cam("draw", 10, count=3, reach_from="A"))
    draws = [e for e in live.referee.events if e["type"] == "draw"]
    assert (draws[-1]["player"], draws[-1]["count"], draws[-1]["takes"]) == ("A", 4, 3)
    state = live.state()
    assert state["turn"] == "B" and not state["pending_draw"]
    assert not live.questions
    # then B's play is in turn, no question
    live.append(cam("play", 12, cards=["green-5"], reach_from="B"))
    assert not live.questions


def test_a_draw_is_not_raised_when_nothing_is_owed():
    live = live_table(HEADER, cam("start", 1, card="green-3"),
                      cam("draw", 2, count=1, reach_from="A"))
    draw = live.referee.events[-1]
    assert draw["count"] == 1 and "takes" not in draw
