"""A live table of the tgus-t deck completes camera events with the table's own
memory (vision.handsfree.HandsFree): a turn draw then the next seat's play is a
pass, and the reach that turns a card for a Hit+? is part of the turned event."""

from __future__ import annotations

import io

from vision.live import LiveTable

HEADER = {"type": "game", "game": "uno", "rules": "tgus-t1",
          "players": ["A", "B", "C"], "dealer": "C", "hand_size": 5, "options": {}}


def cam(kind, t, **kw):
    return {"type": kind, "source": "vision", "t": t, **kw}


def table(*events):
    live = LiveTable(dict(HEADER), out=io.StringIO())
    for e in events:
        live.append(e)
    return live


def logged(live):
    return [e.get("type") for e in live.referee.events]


def test_a_turn_draw_then_the_next_seat_playing_is_an_inferred_pass():
    live = table(cam("start", 1, card="red-5"),
                 cam("draw", 2, count=1, reach_from="A"),
                 cam("play", 3, cards=["red-2"], reach_from="B"))
    assert logged(live)[-3:] == ["draw", "pass", "play"]
    assert not [r for r in live.referee.rulings if r.ruling == "illegal"]


def test_the_reach_that_turns_a_card_for_a_hit_x_is_no_draw():
    live = table(cam("start", 1, card="red-5"),
                 cam("play", 2, cards=["wild-hit-x"], reach_from="A"),
                 cam("draw", 3, count=1, reach_from="A"),
                 cam("play", 4, cards=["blue-7"], reach_from="A"))
    assert logged(live)[-2:] == ["play", "turned"]
    assert "draw" not in logged(live)
    assert live.referee.state()["turn"] == "B"


def test_a_standard_table_completes_as_before():
    live = LiveTable({**HEADER, "rules": "official"}, out=io.StringIO())
    for e in (cam("start", 1, card="red-5"),
              cam("draw", 2, count=1, reach_from="A"),
              cam("play", 3, cards=["red-2"], reach_from="B")):
        live.append(e)
    assert logged(live)[-3:] == ["draw", "pass", "play"]
