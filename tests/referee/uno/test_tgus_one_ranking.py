"""Scenario tests of tgus-1 (seed 000, TGUS-TGC-UNO.1): play on until one is left.

Seats A B C D clockwise, dealer D, so A plays first; lines count from the header (0).
The other tgus-1 rules are in test_tgus_one.py.
"""

from __future__ import annotations

from test_tgus_support import ev, play, run, start



# -- play on until one player is left --------------------------------------------------
def test_ranking_until_one_player_is_left():
    res = run(
        "tgus-1",
        [
            start(),
            ev("direction", direction=1),
            play("A", "red-3"),
            play("B", "red-5"),
            ev("reveal", "C", cards=["blue-9", "wild"]),
        ],
        players=("A", "B", "C"),
        dealer="C",
        hand_size=1,
        options={"scoring": "japan", "rounds": 1},
    )
    assert res.one(3, "tgus-1.ranking")["place"] == 1
    assert "it is B's turn" in res.one(3)["text"]  # play goes on after A is out
    second = res.one(4, "tgus-1.ranking")
    assert second["place"] == 2
    end = [r for r in res.rulings if r["ruling"] in ("round-end", "game-end")]
    assert end and end[0]["ranking"] == ["A", "B", "C"]
    assert res.state["scores"] == {"A": 59, "B": 0, "C": -59}


def test_players_out_are_skipped_by_the_turn_order():
    res = run(
        "tgus-1",
        [
            start(),
            ev("direction", direction=1),
            play("A", "red-3", "blue-3"),
            play("B", "blue-5"),
            play("C", "blue-6"),
            play("D", "blue-2"),
            play("B", "blue-1"),
        ],
        hand_size=2,
    )
    assert res.state["ranking"] == ["A", "B"]  # after D came B, not A (out)
    assert res.state["turn"] == "C"


def test_a_skip_skips_the_next_player_still_in():
    res = run(
        "tgus-1",
        [
            start(),
            ev("direction", direction=1),
            play("A", "red-3", "blue-3"),
            play("B", "blue-5"),
            play("C", "blue-6"),
            play("D", "blue-skip"),
        ],
        hand_size=2,
    )
    assert res.state["turn"] == "C"  # B (not the out player A) is skipped


def test_named_colour_draw_two_on_wild_draw_four_variant():
    answers = [
        "draw2>draw2",
        "draw2>wild-draw4",
        "wild-draw4>wild-draw4",
        "wild-draw4>draw2",
    ]
    res = run(
        "tgus-1",
        [
            start(),
            ev("direction", direction=1),
            play("A", "wild-draw4", color="red"),
            play("B", "blue-draw2"),
            play("B", "red-draw2"),
        ],
        options={"stack_answers": answers},
    )
    assert res.kinds(4) == ["illegal"]  # not the named colour
    assert res.one(5)["player"] == "C" and res.one(5)["draw"] == 6


def test_picture_leftover_report_from_a_player_already_out():
    res = run(
        "tgus-1",
        [
            start(),
            ev("direction", direction=1),
            play("A", "red-5", "blue-5"),
            ev("picture-leftover", "A"),
        ],
        hand_size=2,
    )
    assert res.one(4)["ruling"] == "info" and res.state["owed"] == {}


def test_reverse_with_two_players_left_acts_as_a_skip():
    res = run(
        "tgus-1",
        [
            start(),
            ev("direction", direction=1),
            play("A", "red-3", "blue-3"),
            play("B", "blue-5", "green-5"),
            play("C", "green-reverse"),
        ],
        hand_size=2,
    )
    assert res.state["ranking"] == ["A", "B"]
    assert res.state["turn"] == "C"  # D is skipped: C plays again
