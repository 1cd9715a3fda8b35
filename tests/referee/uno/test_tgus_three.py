"""Scenario tests of tgus-3 (seed 000, TGUS-TGC-UNO.3): its own rules.

Rules tgus-3 keeps from tgus-2 are tested for both presets in test_tgus_two.py.
Seats A B C D clockwise, dealer D, so A plays first; lines count from the header (0).
"""

from __future__ import annotations

from test_tgus_support import draw, ev, play, run, start

CW = ev("direction", direction=1)
THREE = {"players": ("A", "B", "C"), "dealer": "C", "hand_size": 1}


def _round(first: str, second: str, last: str, last_hand: list[str]) -> list[dict]:
    """A 3-player round of one card each: ``first`` then ``second`` go out."""
    return [
        play(first, "red-3"),
        play(second, "red-5"),
        ev("reveal", last, cards=last_hand),
    ]


# -- success weight --------------------------------------------------------------------
def test_success_weight_one_card_per_win():
    # round 1: A wins (A deals round 2, so B plays first); round 2: B wins
    events = [
        start(),
        CW,
        *_round("A", "B", "C", ["blue-9"]),
        start("blue-2"),
        CW,
        play("B", "blue-4"),
        play("C", "blue-6"),
        ev("reveal", "A", cards=["red-1", "red-2"]),
        start("green-2"),
    ]
    res = run("tgus-3", events, options={"scoring": "japan", "rounds": 3}, **THREE)
    ends = [r for r in res.rulings if r["ruling"] == "round-end"]
    assert ends[0]["next_hand_sizes"] == {"A": 2, "B": 1, "C": 1}
    assert ends[1]["next_hand_sizes"] == {"A": 2, "B": 2, "C": 1}
    assert res.state["hand_counts"] == {"A": 2, "B": 2, "C": 1}


def test_success_weight_by_series_points():
    res = run(
        "tgus-3",
        [start(), CW, *_round("A", "B", "C", ["wild", "wild-draw4"])],
        options={"scoring": "international", "target": 500, "success_weight": "points"},
        **THREE,
    )
    end = [r for r in res.rulings if r["ruling"] == "round-end"][0]
    assert res.state["scores"]["A"] == 100
    assert end["next_hand_sizes"] == {"A": 2, "B": 1, "C": 1}


def test_success_weight_by_points_small_win_gives_nothing():
    res = run(
        "tgus-3",
        [start(), CW, *_round("A", "B", "C", ["blue-9"])],
        options={"scoring": "international", "target": 500, "success_weight": "points"},
        **THREE,
    )
    end = [r for r in res.rulings if r["ruling"] == "round-end"][0]
    assert end["next_hand_sizes"] == {"A": 1, "B": 1, "C": 1}


# -- face-down plays and doubt ---------------------------------------------------------
def test_face_down_skips_the_turn():
    res = run("tgus-3", [start(), CW, ev("face-down", "A")])
    assert res.one(3)["ruling"] == "ok" and res.one(3)["rule"] == "tgus-3.face-down"
    assert res.state["hand_counts"]["A"] == 6 and res.state["turn"] == "B"
    assert res.state["top"] == "red-7" and res.state["color"] == "red"
    assert res.state["face_down_left"]["A"] == 2 and res.state["face_down"] is True


def test_doubt_on_an_unplayable_card_costs_its_player_four():
    res = run(
        "tgus-3",
        [
            start(),
            CW,
            ev("face-down", "A"),
            ev("doubt", "C"),
            ev("reveal", "A", cards=["blue-3"]),
        ],
    )
    assert res.one(4)["ruling"] == "pending"
    ruling = res.one(5, "tgus-3.doubt")
    assert (
        ruling["ruling"] == "penalty"
        and ruling["player"] == "A"
        and ruling["draw"] == 4
    )
    assert ruling["doubt"] == {"card": "blue-3", "playable": False}
    assert res.state["owed"] == {"A": 4} and res.state["turn"] == "B"


def test_doubt_on_a_playable_card_costs_the_doubter_four():
    res = run(
        "tgus-3", [start(), CW, ev("face-down", "A"), ev("doubt", "C", card="green-7")]
    )
    ruling = res.one(4, "tgus-3.doubt")
    assert ruling["player"] == "C" and ruling["draw"] == 4
    assert res.state["owed"] == {"C": 4} and res.state["face_down"] is False


def test_doubt_without_a_face_down_card():
    res = run("tgus-3", [start(), CW, ev("doubt", "C")])
    assert res.one(3)["ruling"] == "info"


def test_doubt_too_late_after_the_next_player_acted():
    res = run(
        "tgus-3",
        [start(), CW, ev("face-down", "A"), play("B", "red-2"), ev("doubt", "C")],
    )
    assert res.one(5)["ruling"] == "info" and res.state["owed"] == {}


def test_the_face_down_player_cannot_doubt_themselves():
    res = run("tgus-3", [start(), CW, ev("face-down", "A"), ev("doubt", "A")])
    assert res.one(4)["ruling"] == "illegal" and res.state["face_down"] is True


def test_a_player_out_of_the_game_cannot_doubt():
    res = run(
        "tgus-3",
        [
            start(),
            CW,
            ev("uno", "A"),
            play("A", "red-5", "blue-5"),
            ev("face-down", "B"),
            ev("doubt", "A"),
        ],
        hand_size=2,
    )
    assert res.state["ranking"] == ["A"]
    assert res.one(6)["ruling"] == "illegal" and res.state["face_down"] is True


def test_three_face_down_plays_per_player_per_game():
    events = [start(), CW]
    for _ in range(3):
        events += [
            ev("face-down", "A"),
            play("B", "red-1"),
            play("C", "red-2"),
            play("D", "red-4"),
        ]
    events += [ev("face-down", "A")]
    res = run("tgus-3", events, hand_size=9)
    last = len(events)
    assert res.one(last)["ruling"] == "illegal" and "3" in res.one(last)["text"]
    assert res.state["hand_counts"]["A"] == 6 and res.state["turn"] == "A"


def test_face_down_count_resets_each_game():
    events = [
        start(),
        CW,
        ev("face-down", "A"),
        play("B", "red-3"),
        play("C", "red-5"),
        ev("reveal", "A", cards=[]),
        start("blue-1"),
    ]
    res = run(
        "tgus-3",
        events,
        players=("A", "B", "C"),
        dealer="C",
        hand_size=2,
        options={"rounds": 2},
    )
    assert res.state["face_down_left"] == {"A": 3, "B": 3, "C": 3}


def test_face_down_never_to_go_out():
    res = run("tgus-3", [start(), CW, ev("face-down", "A")], hand_size=1)
    assert res.one(3)["ruling"] == "illegal" and res.state["hand_counts"]["A"] == 1


def test_face_down_not_while_owing_a_draw():
    res = run("tgus-3", [start(), CW, play("A", "red-draw2"), ev("face-down", "B")])
    assert res.one(4)["ruling"] == "illegal" and res.state["pending_draw"] == 2


def test_face_down_out_of_turn_is_illegal():
    res = run("tgus-3", [start(), CW, ev("face-down", "C")])
    assert res.one(3)["ruling"] == "illegal" and res.state["turn"] == "A"


# -- going out with two cards needs an UNO call ----------------------------------------
def test_going_out_with_two_cards_after_uno_call():
    res = run(
        "tgus-3",
        [start(), CW, ev("uno", "A"), play("A", "red-5", "blue-5")],
        hand_size=2,
    )
    assert res.state["ranking"] == ["A"] and res.with_rule("tgus-3.multi-out") == []


def test_going_out_with_two_cards_without_uno_call_draws_three():
    res = run("tgus-3", [start(), CW, play("A", "red-5", "blue-5")], hand_size=2)
    ruling = res.one(3, "tgus-3.multi-out")
    assert (
        ruling["ruling"] == "penalty"
        and ruling["player"] == "A"
        and ruling["draw"] == 3
    )
    assert res.state["ranking"] == [] and res.state["owed"] == {"A": 3}
    assert res.state["top"] == "blue-5" and res.state["turn"] == "B"


# -- challenge: stacking still allowed after a failed challenge, the +2 void -----------
def test_failed_challenge_may_still_stack_and_the_two_is_void():
    res = run(
        "tgus-3",
        [
            start(),
            CW,
            play("A", "wild-draw4", color="red"),
            ev("challenge", "B"),
            ev("reveal", "A", cards=["blue-3"]),
            play("B", "red-draw2"),
        ],
    )
    assert any(r.get("draw") == 6 for r in res.at(5))
    ruling = res.one(6)
    assert ruling["player"] == "C" and ruling["draw"] == 6  # 4 + 2, the +2 void
    assert "void" in ruling["text"]


def test_failed_challenge_then_drawing_takes_six():
    res = run(
        "tgus-3",
        [
            start(),
            CW,
            play("A", "wild-draw4", color="red"),
            ev("challenge", "B"),
            ev("reveal", "A", cards=["blue-3"]),
            draw("B", 6),
        ],
    )
    assert res.state["hand_counts"]["B"] == 13 and res.state["pending_draw"] == 0


# -- ending a game that drags on by points ---------------------------------------------
def test_stop_by_points():
    events = [
        start(),
        CW,
        play("A", "red-3"),
        ev("stop", "C"),
        ev("reveal", "B", cards=["red-5"]),
        ev("reveal", "C", cards=["wild"]),
        ev("reveal", "D", cards=["blue-2"]),
    ]
    res = run("tgus-3", events, hand_size=1, options={"scoring": "japan", "rounds": 1})
    end = [r for r in res.rulings if r["ruling"] in ("round-end", "game-end")][0]
    assert end["ranking"] == ["A", "D", "B", "C"]
    assert end["rule"].startswith("tgus-3.")
    assert res.state["scores"] == {"A": 57, "B": -5, "C": -50, "D": -2}


def test_stop_is_not_in_tgus2():
    res = run("tgus-2", [start(), CW, ev("stop", "C")])
    assert res.one(3)["ruling"] == "info"


def test_a_stacked_wild_draw_four_can_be_challenged_innocent():
    res = run(
        "tgus-3",
        [
            start(),
            CW,
            play("A", "wild-draw4", color="red"),
            play("B", "wild-draw4", color="blue"),
            ev("challenge", "C"),
            ev("reveal", "B", cards=["blue-1"]),
        ],
    )
    assert res.one(5)["ruling"] == "pending"
    assert res.one(6)["player"] == "C" and res.one(6)["draw"] == 10  # 4 + 4 + 2


def test_a_stacked_wild_draw_four_can_be_challenged_guilty():
    res = run(
        "tgus-3",
        [
            start(),
            CW,
            play("A", "wild-draw4", color="red"),
            play("B", "wild-draw4", color="blue"),
            ev("challenge", "C"),
            ev("reveal", "B", cards=["red-draw2"]),
        ],
    )
    assert res.one(6)["player"] == "B" and res.one(6)["draw"] == 4
    assert res.state["pending_draw"] == 4 and res.state["turn"] == "B"


def test_white_wild_as_wild_draw_four_cannot_be_challenged():
    res = run(
        "tgus-3",
        [
            start(),
            CW,
            play("A", "wild-custom", color="red", **{"as": "wild-draw4"}),
            ev("challenge", "B"),
        ],
    )
    assert res.one(3)["draw"] == 4 and res.one(4)["ruling"] in ("info", "illegal")
    assert res.state["challenge"] is None


def test_white_wilds_are_played_one_at_a_time():
    res = run(
        "tgus-3", [start(), CW, play("A", "wild-custom", "wild-custom", color="red")]
    )
    assert res.one(3)["ruling"] == "illegal" and res.state["hand_counts"]["A"] == 7


def test_stop_ends_the_whole_game_even_with_rounds_left():
    events = [start(), CW, ev("stop", "B"), ev("reveal", "A", cards=["red-5"]),
              ev("reveal", "B", cards=["blue-9"]), ev("reveal", "C", cards=["wild"]),
              ev("reveal", "D", cards=["green-2", "green-3"])]
    res = run("tgus-3", events, options={"scoring": "japan", "rounds": 5})
    end = [r for r in res.rulings if r["ruling"] == "round-end"][0]
    # nobody was out: the fewest hand points (D, 5 = A's 5, seat order) wins
    assert end["ranking"] == ["A", "D", "B", "C"]
    assert res.state["scores"] == {"A": 64, "B": -9, "C": -50, "D": -5}
    assert res.state["over"] is True
    assert [r["ruling"] for r in res.rulings][-1] == "game-end"


def test_seven_cards_and_same_symbol_multi_play_effects_add_up():
    res = run("tgus-3", [start("red-skip"), CW, play("B", "red-skip", "blue-skip")],
              hand_size=None)
    assert res.state["hand_counts"] == {"A": 7, "B": 5, "C": 7, "D": 7}
    assert res.state["turn"] == "A"  # C and D skipped
    res = run("tgus-3", [start(), CW, play("A", "red-5", "red-6")])
    assert res.kinds(3) == ["illegal"]  # no runs
