"""Scenario tests of tgus-1 (seed 000, TGUS-TGC-UNO.1): one or more per rule.

Seats A B C D clockwise, dealer D, so A plays first; lines count from the header (0).
"""

from __future__ import annotations

from test_tgus_support import draw, ev, play, run, start



# -- direction by rock-paper-scissors --------------------------------------------------
def test_direction_event_sets_counter_clockwise():
    res = run(
        "tgus-1",
        [start(), ev("direction", direction=-1, winner="B"), play("A", "red-3")],
    )
    assert res.one(2, "tgus-1.direction")["ruling"] == "ok"
    assert res.state["direction"] == -1
    assert res.state["turn"] == "D"  # A played, counter-clockwise goes to D


def test_direction_words_and_clockwise():
    res = run(
        "tgus-1",
        [
            start(),
            ev("direction", direction="clockwise", winner="D"),
            play("A", "red-3"),
        ],
    )
    assert res.state["direction"] == 1 and res.state["turn"] == "B"


def test_missing_direction_is_refereed_clockwise_with_a_note():
    res = run("tgus-1", [start(), play("A", "red-3")])
    note = res.one(2, "tgus-1.direction")
    assert note["ruling"] == "info" and "clockwise" in note["text"]
    assert res.state["turn"] == "B"


def test_direction_winner_must_be_a_neighbour_of_the_first_player():
    res = run("tgus-1", [start(), ev("direction", direction=-1, winner="C")])
    assert res.one(2, "tgus-1.direction")["ruling"] == "info"
    assert "neighbour" in res.one(2, "tgus-1.direction")["text"]
    assert res.state["direction"] == -1  # taken anyway


def test_direction_after_the_first_play_is_too_late():
    res = run(
        "tgus-1",
        [
            start(),
            ev("direction", direction=1),
            play("A", "red-3"),
            ev("direction", direction=-1),
        ],
    )
    assert res.one(4, "tgus-1.direction")["ruling"] == "illegal"
    assert res.state["direction"] == 1


def test_direction_value_must_be_one_or_minus_one():
    res = run("tgus-1", [start(), ev("direction", direction=2)])
    assert res.one(2)["rule"] == "log.malformed"


# -- hand size -------------------------------------------------------------------------
def test_hand_size_above_ten_is_noted_and_used():
    res = run("tgus-1", [start()], hand_size=12)
    assert "tgus-1.hand-size" in [r["rule"] for r in res.rulings]
    assert res.state["hand_counts"]["A"] == 12


def test_hand_size_five_is_fine():
    res = run("tgus-1", [start()], hand_size=5)
    assert res.with_rule("tgus-1.hand-size") == []
    assert res.state["hand_counts"] == {"A": 5, "B": 5, "C": 5, "D": 5}


# -- multi-play ------------------------------------------------------------------------
def test_same_number_different_colours():
    res = run(
        "tgus-1", [start(), ev("direction", direction=1), play("A", "red-5", "blue-5")]
    )
    assert res.kinds(3) == ["ok"]
    assert res.state["top"] == "blue-5" and res.state["color"] == "blue"
    assert res.state["hand_counts"]["A"] == 5


def test_no_runs():
    res = run(
        "tgus-1", [start(), ev("direction", direction=1), play("A", "red-5", "red-6")]
    )
    assert res.kinds(3) == ["illegal"]
    assert res.state["hand_counts"]["A"] == 7


def test_several_wilds_at_once():
    res = run(
        "tgus-1",
        [
            start(),
            ev("direction", direction=1),
            play("A", "wild", "wild", color="green"),
        ],
    )
    assert res.kinds(3) == ["ok"]
    assert res.state["color"] == "green" and res.state["hand_counts"]["A"] == 5


# -- going out with several cards, the catch -------------------------------------------
def test_going_out_with_two_cards_needs_no_uno_call():
    res = run(
        "tgus-1",
        [start(), ev("direction", direction=1), play("A", "red-5", "blue-5")],
        hand_size=2,
    )
    out = [r for r in res.at(3) if r.get("place") == 1]
    assert out and out[0]["rule"] == "tgus-1.ranking"
    assert res.state["ranking"] == ["A"]
    assert res.with_rule("tgus-1.multi-play") == []


def test_catch_is_not_used_by_default():
    res = run(
        "tgus-1",
        [
            start(),
            ev("direction", direction=1),
            play("A", "red-5"),
            ev("catch", "B", target="A"),
        ],
        hand_size=2,
    )
    ruling = res.one(4)
    assert ruling["ruling"] == "info" and ruling["rule"] == "tgus-1.uno-missed"
    assert res.state["owed"] == {}


def test_catch_can_be_switched_on():
    res = run(
        "tgus-1",
        [
            start(),
            ev("direction", direction=1),
            play("A", "red-5"),
            ev("catch", "B", target="A"),
        ],
        hand_size=2,
        options={"uno_catch": True},
    )
    assert res.one(4)["ruling"] == "penalty" and res.one(4)["draw"] == 2
    assert res.state["owed"] == {"A": 2}


# -- picture leftover ------------------------------------------------------------------
def test_picture_leftover_report_owes_two_and_repeats():
    res = run(
        "tgus-1",
        [
            start(),
            ev("direction", direction=1),
            play("A", "red-3"),
            ev("picture-leftover", "A"),
            draw("A", 2),
            ev("picture-leftover", "A"),
            draw("A", 2),
        ],
    )
    first = res.one(4, "tgus-1.picture-leftover")
    assert (
        first["ruling"] == "penalty" and first["player"] == "A" and first["draw"] == 2
    )
    assert res.kinds(5) == ["ok"]  # drawn out of turn: it is B's turn
    assert res.one(6, "tgus-1.picture-leftover")["draw"] == 2
    assert res.state["hand_counts"]["A"] == 6 + 4
    assert res.state["owed"] == {} and res.state["turn"] == "B"


def test_picture_leftover_report_with_a_number_card_shown_is_wrong():
    res = run(
        "tgus-1",
        [
            start(),
            ev("direction", direction=1),
            ev("picture-leftover", "A", cards=["red-skip", "blue-4"]),
        ],
    )
    ruling = res.one(3, "tgus-1.picture-leftover")
    assert ruling["ruling"] == "info" and "blue 4" in ruling["text"]
    assert res.state["owed"] == {}


def test_going_out_on_a_picture_card_means_a_missed_forced_draw():
    res = run(
        "tgus-1",
        [
            start(),
            ev("direction", direction=1),
            play("A", "red-5"),
            ev("uno", "A"),
            play("B", "red-8"),
            play("C", "red-9"),
            play("D", "red-1"),
            play("A", "red-skip"),
        ],
        hand_size=2,
    )
    ruling = res.one(8, "tgus-1.picture-leftover")
    assert ruling["ruling"] == "penalty" and ruling["player"] == "A"
    assert ruling["draw"] == 2 and "interpreted" in ruling["text"]
    assert res.state["ranking"] == []
    assert res.state["owed"] == {"A": 2}
    assert res.state["turn"] == "C"  # the Skip still skipped B


# -- stacking --------------------------------------------------------------------------
def test_draw_two_answered_by_draw_two_and_wild_draw_four_then_restart_at_two():
    res = run(
        "tgus-1",
        [
            start(),
            ev("direction", direction=1),
            play("A", "red-draw2"),
            play("B", "blue-draw2"),
            play("C", "wild-draw4", color="green"),
            draw("D", 8),
            play("A", "green-draw2"),
        ],
    )
    assert res.one(3)["draw"] == 2 and res.one(4)["draw"] == 4
    assert res.one(5)["draw"] == 8 and res.one(5)["player"] == "D"
    assert res.state["pending_draw"] == 2 and res.state["turn"] == "B"
    assert res.state["hand_counts"]["D"] == 15


def test_wild_draw_four_only_answered_by_wild_draw_four():
    res = run(
        "tgus-1",
        [
            start(),
            ev("direction", direction=1),
            play("A", "wild-draw4", color="red"),
            play("B", "red-draw2"),
            play("B", "wild-draw4", color="blue"),
        ],
    )
    assert res.kinds(4) == ["illegal"]
    assert res.one(5)["draw"] == 8 and res.one(5)["player"] == "C"


def test_reverse_and_skip_cannot_answer_a_draw_card():
    res = run(
        "tgus-1",
        [
            start(),
            ev("direction", direction=1),
            play("A", "red-draw2"),
            play("B", "red-reverse"),
            play("B", "red-skip"),
        ],
    )
    assert res.kinds(4) == ["illegal"] and res.kinds(5) == ["illegal"]
    assert res.state["pending_draw"] == 2 and res.state["turn"] == "B"


def test_taking_the_draw_ends_the_turn_in_tgus1():
    res = run(
        "tgus-1",
        [start(), ev("direction", direction=1), play("A", "red-draw2"), draw("B", 2)],
    )
    assert res.state["turn"] == "C"


# -- no face-down plays ----------------------------------------------------------------
def test_face_down_is_not_used():
    res = run("tgus-1", [start(), ev("direction", direction=1), ev("face-down", "A")])
    ruling = res.one(3)
    assert ruling["ruling"] == "illegal" and ruling["rule"] == "tgus-1.face-down"
    assert res.state["hand_counts"]["A"] == 7 and res.state["turn"] == "A"


def test_official_preset_ignores_the_tgus_events():
    res = run(
        "official",
        [
            start(),
            ev("direction", direction=-1),
            ev("face-down", "A"),
            play("A", "red-3"),
        ],
    )
    assert res.one(2)["ruling"] == "info" and res.one(3)["ruling"] == "illegal"
    assert res.state["direction"] == 1 and res.state["turn"] == "B"
    assert "ranking" not in res.state  # the TGUS keys belong to TgusGame


def test_direction_before_the_first_card_is_not_recorded():
    res = run("tgus-1", [ev("direction", direction=-1), start()])
    assert res.one(1)["ruling"] == "info" and res.state["direction"] == 1
