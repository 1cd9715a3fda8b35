"""Scenario tests of tgus-2 (seed 000, TGUS-TGC-UNO.2) and the rules tgus-3 keeps.

Seats A B C D clockwise, dealer D, so A plays first; lines count from the header (0).
"""

from __future__ import annotations

import pytest

from test_tgus_support import draw, ev, play, run, start

CW = ev("direction", direction=1)
BOTH = pytest.mark.parametrize("preset", ["tgus-2", "tgus-3"])


# -- hand size and success weight by rank ----------------------------------------------
def test_seven_cards():
    res = run("tgus-2", [start()], hand_size=None)
    assert res.state["hand_counts"] == dict.fromkeys("ABCD", 7)


def test_success_weight_by_rank_for_the_next_game():
    res = run(
        "tgus-2",
        [
            start(),
            CW,
            play("A", "red-3"),
            play("B", "red-5"),
            ev("reveal", "C", cards=["blue-9"]),
            start("blue-2"),
        ],
        players=("A", "B", "C"),
        dealer="C",
        hand_size=1,
        options={"scoring": "japan", "rounds": 2},
    )
    end = [r for r in res.rulings if r["ruling"] == "round-end"][0]
    assert end["next_hand_sizes"] == {"A": 4, "B": 3, "C": 2}
    assert end["rule"].startswith("tgus-2.")
    assert res.state["hand_counts"] == {"A": 4, "B": 3, "C": 2}


def test_header_hand_sizes_carry_a_weight_from_an_earlier_log():
    res = run("tgus-2", [start()], hand_sizes={"A": 10, "B": 9})
    assert res.state["hand_counts"] == {"A": 10, "B": 9, "C": 7, "D": 7}


# -- no forced draw, go out on a number card -------------------------------------------
@BOTH
def test_picture_leftover_is_not_used(preset):
    res = run(preset, [start(), CW, ev("picture-leftover", "A")])
    ruling = res.one(3)
    assert ruling["ruling"] == "info" and ruling["rule"] == f"{preset}.picture-leftover"
    assert res.state["owed"] == {}


@BOTH
def test_going_out_on_an_action_card_draws_two_and_play_continues(preset):
    res = run(preset, [start(), CW, play("A", "red-skip")], hand_size=1)
    ruling = res.one(3, f"{preset}.number-finish")
    assert (
        ruling["ruling"] == "penalty"
        and ruling["player"] == "A"
        and ruling["draw"] == 2
    )
    assert res.state["ranking"] == [] and res.state["owed"] == {"A": 2}
    assert res.state["turn"] == "C" and res.state["top"] == "red-skip"


@BOTH
def test_going_out_on_a_number_card_is_fine(preset):
    res = run(preset, [start(), CW, play("A", "red-4")], hand_size=1)
    assert res.with_rule(f"{preset}.number-finish") == []
    assert res.state["ranking"] == ["A"]


def test_going_out_on_a_wild_draws_two():
    res = run("tgus-2", [start(), CW, play("A", "wild", color="blue")], hand_size=1)
    assert res.one(3, "tgus-2.number-finish")["draw"] == 2
    assert res.state["color"] == "blue" and res.state["turn"] == "B"


# -- multi-play, going out with two cards, catch ---------------------------------------
def test_going_out_with_two_cards_without_uno_call():
    res = run("tgus-2", [start(), CW, play("A", "red-5", "blue-5")], hand_size=2)
    assert res.state["ranking"] == ["A"] and res.state["owed"] == {}


def test_catch_is_in_force():
    res = run(
        "tgus-2",
        [start(), CW, play("A", "red-5"), ev("catch", "B", target="A")],
        hand_size=2,
    )
    assert res.one(4)["ruling"] == "penalty" and res.one(4)["draw"] == 2


def test_multi_play_no_runs():
    res = run("tgus-2", [start(), CW, play("A", "red-5", "red-6")])
    assert res.kinds(3) == ["illegal"]


# -- deflection with Reverse / Skip ----------------------------------------------------
@BOTH
def test_reverse_sends_a_draw_two_back(preset):
    res = run(preset, [start(), CW, play("A", "red-draw2"), play("B", "red-reverse")])
    ruling = res.one(4)
    assert (
        ruling["ruling"] == "pending"
        and ruling["player"] == "A"
        and ruling["draw"] == 2
    )
    assert res.state["direction"] == -1 and res.state["turn"] == "A"
    assert res.state["pending_draw"] == 2


@BOTH
def test_skip_passes_a_draw_two_over_the_next_player(preset):
    res = run(preset, [start(), CW, play("A", "red-draw2"), play("B", "red-skip")])
    assert res.one(4)["player"] == "D" and res.state["pending_draw"] == 2
    assert res.state["turn"] == "D"


def test_skip_deflect_with_two_players_comes_back():
    res = run(
        "tgus-2",
        [start(), CW, play("A", "red-draw2"), play("B", "red-skip")],
        players=("A", "B"),
        dealer="B",
    )
    assert res.one(4)["player"] == "B"


@BOTH
def test_wild_draw_four_deflected_only_in_its_named_colour(preset):
    res = run(
        preset,
        [
            start(),
            CW,
            play("A", "wild-draw4", color="red"),
            play("B", "blue-skip"),
            play("B", "red-skip"),
        ],
    )
    assert res.kinds(4) == ["illegal"]
    assert res.one(5)["player"] == "D" and res.state["pending_draw"] == 4


@BOTH
def test_draw_two_of_the_named_colour_answers_a_wild_draw_four(preset):
    res = run(
        preset,
        [start(), CW, play("A", "wild-draw4", color="green"), play("B", "green-draw2")],
    )
    assert res.one(4)["player"] == "C" and res.one(4)["draw"] == 6


# -- challenge -------------------------------------------------------------------------
def test_failed_challenge_challenger_draws_six_and_may_not_deflect():
    res = run(
        "tgus-2",
        [
            start(),
            CW,
            play("A", "wild-draw4", color="red"),
            ev("challenge", "B"),
            ev("reveal", "A", cards=["blue-3"]),
            play("B", "red-skip"),
            draw("B", 6),
        ],
    )
    assert any(r["draw"] == 6 and r["player"] == "B" for r in res.at(5) if "draw" in r)
    assert (
        res.one(6)["ruling"] == "illegal"
        and res.one(6)["rule"] == "tgus-2.wd4-challenge"
    )
    assert res.state["hand_counts"]["B"] == 13


def test_guilty_wild_draw_four_player_draws_four():
    res = run(
        "tgus-2",
        [
            start(),
            CW,
            play("A", "wild-draw4", color="red"),
            ev("challenge", "B"),
            ev("reveal", "A", cards=["red-3"]),
        ],
    )
    assert any(r.get("player") == "A" and r.get("draw") == 4 for r in res.at(5))


def test_only_the_wild_draw_four_just_played_can_be_challenged():
    res = run(
        "tgus-2",
        [
            start(),
            CW,
            play("A", "wild-draw4", color="red"),
            play("B", "red-skip"),
            ev("challenge", "D"),
        ],
    )
    assert res.one(5)["ruling"] in ("info", "illegal")
    assert res.state["pending_draw"] == 4 and res.state["turn"] == "D"
    assert res.state["challenge"] is None


def test_stacked_wild_draw_four_can_be_challenged():
    res = run(
        "tgus-2",
        [
            start(),
            CW,
            play("A", "wild-draw4", color="red"),
            play("B", "wild-draw4", color="blue"),
            ev("challenge", "C"),
        ],
    )
    assert res.state["challenge"] == {"challenger": "C", "accused": "B"}


# -- a player who took the draw may still play -----------------------------------------
@BOTH
def test_draw_then_play(preset):
    res = run(
        preset, [start(), CW, play("A", "red-draw2"), draw("B", 2), play("B", "red-4")]
    )
    assert res.kinds(5) == ["ok"]
    assert res.state["turn"] == "C" and res.state["hand_counts"]["B"] == 8


@BOTH
def test_draw_then_pass(preset):
    res = run(
        preset, [start(), CW, play("A", "red-draw2"), draw("B", 2), ev("pass", "B")]
    )
    assert res.kinds(5) == ["ok"] and res.state["turn"] == "C"


# -- Wild Shuffle Hands and the white wild ---------------------------------------------
@BOTH
def test_shuffle_hands_deals_all_hands_out_again(preset):
    res = run(
        preset,
        [
            start(),
            CW,
            play("A", "red-5", "blue-5"),
            draw("B"),
            ev("pass", "B"),
            play("C", "blue-2"),
            play("D", "wild-shuffle", color="red"),
        ],
    )
    # A 5 + B 8 + C 6 + D 6 = 25 cards, dealt from A: A 7, B 6, C 6, D 6
    assert res.state["hand_counts"] == {"A": 7, "B": 6, "C": 6, "D": 6}
    assert res.state["color"] == "red" and res.state["turn"] == "A"


def test_shuffle_hands_event_corrects_the_counts():
    res = run(
        "tgus-2",
        [
            start(),
            CW,
            play("A", "wild-shuffle", color="red"),
            ev("shuffle-hands", "A", hand_counts={"A": 6, "B": 8, "C": 7, "D": 6}),
        ],
    )
    assert res.one(4)["rule"] == "tgus-2.shuffle-hands"
    assert res.state["hand_counts"] == {"A": 6, "B": 8, "C": 7, "D": 6}


def test_shuffle_hands_event_must_keep_the_total():
    res = run(
        "tgus-2",
        [
            start(),
            CW,
            play("A", "wild-shuffle", color="red"),
            ev("shuffle-hands", "A", hand_counts={"A": 9, "B": 8, "C": 7, "D": 6}),
        ],
    )
    assert res.one(4)["ruling"] == "illegal"


def test_white_wild_is_a_wild_downpour():
    res = run("tgus-2", [start(), CW, play("A", "wild-custom", color="green")])
    fines = res.with_rule("tgus-2.white-wild")
    assert [(r["player"], r["draw"], r["ruling"]) for r in fines] == [
        ("B", 2, "penalty"),
        ("C", 2, "penalty"),
        ("D", 2, "penalty"),
    ]
    assert res.state["owed"] == {"B": 2, "C": 2, "D": 2}
    assert res.state["turn"] == "B" and res.state["color"] == "green"


def test_downpour_draws_are_taken_out_of_turn():
    res = run(
        "tgus-2",
        [
            start(),
            CW,
            play("A", "wild-custom", color="green"),
            draw("C", 2),
            draw("B", 2),
            draw("D", 2),
            play("B", "green-4"),
        ],
    )
    assert res.state["owed"] == {} and res.kinds(7) == ["ok"]
    assert res.state["hand_counts"] == {"A": 6, "B": 8, "C": 9, "D": 9}


def test_lone_wild_draw_four_deflect_or_challenge_not_both():
    res = run(
        "tgus-2",
        [
            start(),
            CW,
            play("A", "wild-draw4", color="red"),
            play("B", "red-reverse"),
            ev("challenge", "B"),
        ],
    )
    assert res.one(4)["player"] == "A"  # sent back to A
    assert res.one(5)["ruling"] in ("info", "illegal")
    assert res.state["challenge"] is None and res.state["pending_draw"] == 4


@BOTH
def test_catch_is_in_force_in_both(preset):
    res = run(
        preset,
        [start(), CW, play("A", "red-5"), ev("catch", "C", target="A")],
        hand_size=2,
    )
    assert res.one(4)["ruling"] == "penalty" and res.state["owed"] == {"A": 2}


@BOTH
def test_no_ten_card_ceiling_after_tgus1(preset):
    res = run(preset, [start()], hand_size=12)
    assert res.with_rule(f"{preset}.hand-size") == []


@BOTH
def test_shuffle_hands_deals_only_to_players_still_in(preset):
    res = run(
        preset,
        [
            start(),
            CW,
            ev("uno", "A"),
            play("A", "red-5", "blue-5"),
            play("B", "blue-2"),
            play("C", "wild-shuffle", color="red"),
        ],
        hand_size=2,
    )
    # A is out; B 1 + C 1 + D 2 = 4 cards dealt from D: D 2, B 1, C 1
    assert res.state["hand_counts"] == {"A": 0, "B": 1, "C": 1, "D": 2}
    assert res.state["turn"] == "D"
