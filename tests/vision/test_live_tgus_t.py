"""A live table of the tgus-t deck completes camera events with the table's own
memory (vision.handsfree.HandsFree): a turn draw then the next seat's play is a
pass, and the reach that turns a card for a Hit+? is part of the turned event."""

from __future__ import annotations

import io

from vision.live import LiveTable
from tests.vision.live_events import cam, live_table

HEADER = {"type": "game", "game": "uno", "rules": "tgus-t1",
          "players": ["A", "B", "C"], "dealer": "C", "hand_size": 5, "options": {}}


def table(*events):
    return live_table(HEADER, *events)


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


def test_a_play_holding_two_turns_is_split_into_the_seats_that_reached():
    live = table(cam("start", 1, card="green-3"),
                 cam("play", 2, cards=["green-skip", "green-4"],
                     pile_reaches=["A", "C"], reach_from="C"))
    plays = [(e.get("player"), e.get("cards")) for e in live.referee.events
             if e.get("type") == "play"]
    assert plays == [("A", ["green-skip"]), ("C", ["green-4"])]
    assert not [r for r in live.referee.rulings if r.ruling == "illegal"]


def test_the_top_card_seen_again_out_of_turn_is_taken_out_and_the_log_rewritten(
        tmp_path):
    import json

    path = tmp_path / "game.jsonl"
    out = io.StringIO()
    live = LiveTable(dict(HEADER), out=out, log_path=str(path))
    for e in (cam("start", 1, card="red-5"),
              cam("play", 2, cards=["red-7"], reach_from="A"),
              cam("play", 3, cards=["red-7"], reach_from="C")):
        live.append(e)
    assert logged(live) == ["start", "play"]
    assert not [r for r in live.referee.rulings if r.ruling == "illegal"]
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [x["type"] for x in lines] == ["game", "start", "play"]
    assert "[amended]" in out.getvalue()
