"""Scenario tests of every local rule of seed 001 as an option, and option handling.

Seats A B C D clockwise, dealer D, so A plays first (see test_uno_support).
"""

from __future__ import annotations

import pytest

from referee.uno.options import PRESETS, UnoOptions, resolve
from test_uno_support import draw, ev, play, reveal, run, start

SAME = {"multi_play": "same"}


# -- option handling ------------------------------------------------------------------
def test_bad_options_give_info_rulings_at_line_zero_and_are_ignored():
    res = run([start("red-5")], options={"bogus": 1, "uno_penalty": "two",
                                          "scoring": "swiss", "rounds": 0})
    infos = res.at(0)
    assert len(infos) == 4 and all(r["ruling"] == "info" for r in infos)
    assert all(r["rule"] == "official.options" for r in infos)
    assert "bogus" in infos[0]["text"]
    opts = res.state["options"]
    assert opts["uno_penalty"] == 2 and opts["scoring"] == "japan"
    assert opts["rounds"] == 5


def test_spec_option_names_override_the_preset():
    opts, problems = resolve(PRESETS["official"], {
        "scoring": "international", "rounds": 3, "target": 200, "stacking": True,
        "multi_play": True, "jump_in": True, "uno_penalty": 4}, hand_size=5)
    assert problems == []
    assert (opts.scoring, opts.rounds, opts.target, opts.stacking, opts.multi_play,
            opts.jump_in, opts.uno_penalty, opts.hand_size) == (
        "international", 3, 200, True, "same", True, 4, 5)


def test_every_option_has_help_and_source():
    from dataclasses import fields

    for f in fields(UnoOptions):
        assert f.metadata["help"] and f.metadata["source"], f.name


def test_stack_answers_are_validated():
    _, problems = resolve(PRESETS["official"], {"stack_answers": ["draw2>wild"]})
    assert problems and "stack_answers" in problems[0]


def test_header_hand_size_and_112_deck():
    res = run([start("red-5")], hand_size=5, options={"deck": 112})
    assert res.state["hand_counts"]["A"] == 5 and res.state["draw_pile"] == 112 - 20 - 1


# -- local 1: first action card returned -----------------------------------------------
@pytest.mark.parametrize("card", ["blue-skip", "green-draw2", "red-reverse", "wild"])
def test_first_action_card_returned(card):
    res = run([start(card), start("red-5")], options={"first_action_returned": True})
    assert res.one(1)["ruling"] == "info" and res.state["turn"] == "A"
    assert res.state["pending_draw"] == 0 and res.state["direction"] == 1


# -- local 2: multi-play --------------------------------------------------------------
def test_multi_play_first_must_match_last_on_top():
    res = run([start("blue-3"), play("A", "blue-6", "yellow-6")], options=SAME)
    assert res.kinds(2) == ["ok"]
    assert res.state["top"] == "yellow-6" and res.state["color"] == "yellow"
    assert res.state["hand_counts"]["A"] == 5
    res = run([start("blue-3"), play("A", "yellow-6", "blue-6")], options=SAME)
    assert res.one(2)["ruling"] == "illegal"


def test_multi_play_needs_same_number_or_symbol():
    res = run([start("blue-3"), play("A", "blue-6", "blue-7")], options=SAME)
    assert res.one(2)["rule"] == "official.multi-play"


def test_multi_draw_twos_add_up():
    res = run([start("red-5"), play("A", "red-draw2", "blue-draw2", "green-draw2")],
              options=SAME)
    assert res.one(2)["draw"] == 6 and res.state["pending_draw"] == 6
    res = run([start("red-5"), play("A", "red-draw2", "blue-draw2")],
              options={**SAME, "multi_effects": False})
    assert res.state["pending_draw"] == 2


def test_multi_skips_skip_several_and_reverses_cancel():
    res = run([start("red-5"), play("A", "red-skip", "blue-skip")], options=SAME)
    assert res.state["turn"] == "D"
    res = run([start("red-5"), play("A", "red-reverse", "blue-reverse")], options=SAME)
    assert res.state["direction"] == 1 and res.state["turn"] == "B"


def test_pairs_rule_identical_number_cards_only():
    pairs = {"multi_play": "pairs"}
    res = run([start("red-5"), play("A", "red-6", "red-6")], options=pairs)
    assert res.kinds(2) == ["ok"]
    assert run([start("red-5"), play("A", "red-6", "blue-6")],
               options=pairs).kinds(2) == ["illegal"]
    assert run([start("red-5"), play("A", "red-skip", "red-skip")],
               options=pairs).kinds(2) == ["illegal"]


# -- local 3: going out with several cards, no going out on an action card ------------
def test_pair_out_without_call_only_one_counts():
    res = run([start("red-5"), play("A", "red-6", "red-6")], hand_size=2,
              options={"multi_play": "pairs"})
    r = res.one(2, "official.multi-play")
    assert r["ruling"] == "illegal" and "only the red 6 counts" in r["text"]
    assert res.state["hand_counts"]["A"] == 1 and res.state["phase"] == "turn"


def test_pair_out_with_call_goes_out():
    res = run(
        [start("red-5"), ev("uno", "A"), play("A", "red-6", "red-6")], hand_size=2,
        options={"multi_play": "pairs"})
    assert res.state["phase"] == "scoring" and res.state["round_winner"] == "A"


def test_uno_finish_with_several_cards_allowed():
    res = run([start("red-5"), play("A", "red-6", "blue-6", "green-6")], hand_size=3,
              options={**SAME, "multi_out": "allowed"})
    assert res.state["phase"] == "scoring"


def test_no_going_out_on_an_action_card():
    opts = {"out_on_action": False}
    res = run([start("red-5"), play("A", "red-skip")], hand_size=1, options=opts)
    assert res.one(2)["rule"] == "official.going-out"
    assert res.state["hand_counts"]["A"] == 1
    res = run(
        [start("red-5"), play("A", "wild", color="red")], hand_size=1, options=opts)
    assert res.one(2)["ruling"] == "illegal"
    res = run([start("red-5"), play("A", "red-6")], hand_size=1, options=opts)
    assert res.state["phase"] == "scoring"


# -- local 4: stacking with an answer table -------------------------------------------
STACK = {"stacking": True}


def test_stacking_accumulates_and_the_last_victim_draws_all():
    res = run([start("red-5"), play("A", "red-draw2"), play("B", "blue-draw2"),
               play("C", "wild-draw4", color="green"), draw("D", 8),
               play("A", "green-1")], options=STACK)
    assert res.one(3)["rule"] == "official.stacking" and res.one(3)["draw"] == 4
    assert res.one(4)["player"] == "D" and res.one(4)["draw"] == 8
    assert res.kinds(6) == ["ok"]
    assert res.state["hand_counts"]["D"] == 15 and res.state["pending_draw"] == 0


def test_stack_table_without_mixing():
    opts = {"stacking": True, "stack_answers": ["draw2>draw2", "wild-draw4>wild-draw4"]}
    res = run(
        [start("red-5"), play("A", "red-draw2"), play("B", "wild-draw4", color="red")],
        options=opts)
    assert res.one(3)["ruling"] == "illegal"
    assert res.one(3)["rule"] == "official.stacking"


def test_draw_two_on_wild_draw_four_must_match_the_named_colour():
    res = run([start("red-5"), play("A", "wild-draw4", color="blue"),
               play("B", "red-draw2"), play("B", "blue-draw2")], options=STACK)
    assert res.one(3)["ruling"] == "illegal"
    assert res.one(4)["ruling"] == "pending" and res.state["pending_draw"] == 6


def test_wild_draw_four_on_wild_draw_four_cannot_be_challenged():
    res = run([start("red-5"), play("A", "wild-draw4", color="blue"),
               play("B", "wild-draw4", color="red"), ev("challenge", "C")],
              options=STACK)
    r = res.one(4)
    assert r["ruling"] == "illegal" and r["draw"] == 8


def test_challenge_of_wd4_on_draw_two_guilty_if_a_draw_two_was_held():
    events = [start("red-5"), play("A", "red-draw2"),
              play("B", "wild-draw4", color="blue"), ev("challenge", "C")]
    rest = ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-5"]
    guilty = run(events + [reveal("B", "green-draw2", *rest)], options=STACK)
    assert guilty.one(5)["player"] == "B"
    assert guilty.state["turn"] == "B" and guilty.state["pending_draw"] == 2
    assert guilty.state["top"] == "red-draw2"
    innocent = run(events + [reveal("B", "green-1", "yellow-1", "yellow-2", "yellow-3",
                                    "yellow-4", "yellow-5")], options=STACK)
    assert innocent.one(5)["player"] == "C" and innocent.one(5)["draw"] == 8


def test_answer_table_as_data_reverse_deflects_a_draw_two():
    opts = {"stacking": True, "stack_answers": ["draw2>draw2", "draw2>reverse"]}
    res = run([start("red-5"), play("A", "red-draw2"), play("B", "red-reverse"),
               draw("A", 2)], options=opts)
    assert res.one(3)["player"] == "A" and res.one(3)["draw"] == 2
    assert res.state["hand_counts"]["A"] == 8 and res.state["turn"] == "D"


# -- local 5: bigger UNO penalty (see test_uno_calls) ; local 6: jump-in ---------------
JUMP = {"jump_in": True}


def test_jump_in_with_an_identical_card():
    res = run(
        [start("red-5"), play("A", "red-6"), play("C", "red-6"), play("D", "red-1")],
        options=JUMP)
    assert res.one(3)["rule"] == "official.jump-in" and res.one(3)["ruling"] == "ok"
    assert res.kinds(4) == ["ok"] and res.state["turn"] == "A"


def test_jump_in_needs_identical_colour_and_number():
    res = run([start("red-5"), play("A", "red-6"), play("C", "blue-6")], options=JUMP)
    assert res.one(3)["rule"] == "official.turn"
    res = run([start("red-5"), play("A", "red-6"), play("C", "red-6")])
    assert res.one(3)["rule"] == "official.turn"


def test_jump_in_closes_the_catch_window():
    res = run([start("red-5"), play("A", "red-6"), play("C", "red-6")], hand_size=2,
              options=JUMP)
    assert res.one(3, "official.uno-missed")["ruling"] == "info"


# -- Wild Shuffle Hands (112 deck) ----------------------------------------------------
def test_wild_shuffle_hands_redeals_counts_from_the_next_player():
    res = run([start("red-5"), play("A", "red-1"), draw("B"), ev("pass", "B"),
               play("C", "red-2"), play("D", "wild-shuffle", color="blue")],
              options={"deck": 112})
    # 6 + 8 + 6 + 6 = 26 cards dealt from A: A 7, B 7, C 6, D 6.
    assert res.state["hand_counts"] == {"A": 7, "B": 7, "C": 6, "D": 6}
    assert res.state["turn"] == "A" and res.state["color"] == "blue"
