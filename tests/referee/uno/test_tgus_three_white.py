"""Scenario tests of tgus-3 (seed 000, TGUS-TGC-UNO.3): the all-mighty white wild.

Seats A B C D clockwise, dealer D, so A plays first; lines count from the header (0).
The other tgus-3 rules are in test_tgus_three.py.
"""

from __future__ import annotations

from test_tgus_support import ev, play, run, start


CW = ev("direction", direction=1)


# -- the white wild is all-mighty ------------------------------------------------------
def test_white_wild_as_draw_two():
    res = run(
        "tgus-3",
        [start(), CW, play("A", "wild-custom", color="blue", **{"as": "draw2"})],
    )
    ruling = res.one(3)
    assert (
        ruling["ruling"] == "pending"
        and ruling["player"] == "B"
        and ruling["draw"] == 2
    )
    assert res.state["color"] == "blue"


def test_white_wild_as_skip_and_as_reverse():
    res = run(
        "tgus-3",
        [start(), CW, play("A", "wild-custom", color="blue", **{"as": "skip"})],
    )
    assert res.state["turn"] == "C"
    res = run(
        "tgus-3",
        [start(), CW, play("A", "wild-custom", color="blue", **{"as": "reverse"})],
    )
    assert res.state["turn"] == "D" and res.state["direction"] == -1


def test_white_wild_answers_a_draw_two_as_a_draw_two():
    res = run(
        "tgus-3",
        [
            start(),
            CW,
            play("A", "red-draw2"),
            play("B", "wild-custom", color="green", **{"as": "draw2"}),
        ],
    )
    assert res.one(4)["player"] == "C" and res.one(4)["draw"] == 4


def test_white_wild_without_as_is_a_plain_wild():
    res = run("tgus-3", [start(), CW, play("A", "wild-custom", color="green")])
    assert res.kinds(3) == ["ok"] and res.state["turn"] == "B"
    assert res.state["owed"] == {}


def test_white_wild_cannot_stand_for_a_number():
    res = run(
        "tgus-3", [start(), CW, play("A", "wild-custom", color="green", **{"as": "7"})]
    )
    assert res.one(3)["ruling"] == "illegal" and res.state["hand_counts"]["A"] == 7


def test_white_wild_is_not_a_number_card_to_go_out_on():
    res = run(
        "tgus-3", [start(), CW, play("A", "wild-custom", color="green")], hand_size=1
    )
    assert res.one(3, "tgus-3.number-finish")["draw"] == 2
