"""Scenario tests: Wild Draw Four and its challenge, the UNO call, catches, windows.

Seats A B C D clockwise, dealer D, so A plays first (see test_uno_support).
"""

from __future__ import annotations

from test_uno_support import draw, ev, play, reveal, run, start

WD4 = [start("red-5"), play("A", "wild-draw4", color="blue")]


# -- Wild Draw Four -----------------------------------------------------------------
def test_wild_draw_four_next_draws_four_and_loses_turn():
    res = run(WD4 + [draw("B", 4)])
    r = res.one(2)
    assert r["ruling"] == "pending" and r["rule"] == "official.wd4"
    assert r["player"] == "B" and r["draw"] == 4 and "challenge" in r["text"]
    assert res.state["turn"] == "C" and res.state["hand_counts"]["B"] == 11
    assert res.state["color"] == "blue"


def test_challenge_waits_for_the_reveal():
    res = run(WD4 + [ev("challenge", "B")])
    r = res.one(3)
    assert r["ruling"] == "pending" and r["rule"] == "official.wd4-challenge"
    assert r["player"] == "A"
    assert res.state["phase"] == "challenge"
    assert res.state["challenge"] == {"challenger": "B", "accused": "A"}


def test_challenge_guilty_card_taken_back_and_draws_four():
    hand = ["red-9", "green-1", "green-2", "yellow-3", "yellow-4", "blue-6"]
    res = run(WD4 + [ev("challenge", "B"), reveal("A", *hand), draw("A", 4),
                     play("A", "red-9")])
    r = res.one(4)
    assert r["ruling"] == "penalty" and r["player"] == "A" and r["draw"] == 4
    assert "red 9" in r["text"]
    assert res.kinds(5) == ["ok"] and res.kinds(6) == ["ok"]
    s = res.state
    # 7 - 1 (W4) + 1 (back) + 4 - 1 (red 9) = 10
    assert s["hand_counts"] == {"A": 10, "B": 7, "C": 7, "D": 7}
    assert s["top"] == "red-9" and s["turn"] == "B"


def test_guilty_state_returns_to_the_card_before():
    hand = ["red-1", "blue-2", "blue-3", "blue-4", "blue-5", "blue-6"]
    res = run(WD4 + [ev("challenge", "B"), reveal("A", *hand)])
    s = res.state
    assert s["top"] == "red-5" and s["color"] == "red" and s["turn"] == "A"
    assert s["pending_draw"] == 0 and s["owed"] == {"A": 4}


def test_wild_in_hand_makes_it_guilty_under_no_playable():
    hand = ["wild", "green-1", "green-2", "yellow-3", "yellow-4", "blue-6"]
    res = run(WD4 + [ev("challenge", "B"), reveal("A", *hand)])
    assert res.one(4)["player"] == "A"


def test_challenge_innocent_challenger_draws_six():
    hand = ["green-1", "green-2", "yellow-3", "yellow-4", "blue-6", "wild-draw4"]
    res = run(WD4 + [ev("challenge", "B"), reveal("A", *hand), draw("B", 6),
                     play("C", "blue-1")])
    r = res.one(4)
    assert r["ruling"] == "penalty" and r["player"] == "B" and r["draw"] == 6
    assert res.kinds(5) == ["ok"] and res.kinds(6) == ["ok"]
    assert res.state["hand_counts"]["B"] == 13 and res.state["turn"] == "D"


def test_number_match_of_another_colour_differs_between_wd4_rules():
    hand = ["green-5", "green-2", "yellow-3", "yellow-4", "blue-6", "blue-7"]
    events = WD4 + [ev("challenge", "B"), reveal("A", *hand)]
    strict = run(events)
    assert strict.one(4)["player"] == "A"  # green 5 matched the number: guilty
    lenient = run(events, options={"wd4_rule": "no-current-colour"})
    assert lenient.one(4)["player"] == "B"  # no red card: innocent
    red = run(WD4 + [ev("challenge", "B"), reveal("A", "red-1", *hand[1:])],
              options={"wd4_rule": "no-current-colour"})
    assert red.one(4)["player"] == "A"


def test_guilty_wd4_stays_under_mattel_option():
    hand = ["red-1", "blue-2", "blue-3", "blue-4", "blue-5", "blue-6"]
    res = run(WD4 + [ev("challenge", "B"), reveal("A", *hand), play("B", "blue-9")],
              options={"wd4_guilty_takeback": False})
    assert res.one(4)["player"] == "A" and res.kinds(5) == ["ok"]
    assert res.state["hand_counts"]["A"] == 6 and res.state["owed"] == {"A": 4}


def test_only_the_hit_player_may_challenge():
    res = run(WD4 + [ev("challenge", "C")])
    assert res.one(3)["ruling"] == "info" and res.state["phase"] == "turn"


def test_challenge_without_a_wild_draw_four_is_ignored():
    res = run([start("red-5"), play("A", "red-draw2"), ev("challenge", "B")])
    assert res.one(3)["ruling"] == "info" and res.state["pending_draw"] == 2


def test_challenge_after_drawing_is_too_late():
    res = run(WD4 + [draw("B", 4), ev("challenge", "B")])
    assert res.one(4)["ruling"] == "info"


def test_play_during_a_challenge_is_illegal():
    res = run(WD4 + [ev("challenge", "B"), play("B", "blue-1")])
    assert res.one(4)["ruling"] == "illegal"


def test_reveal_count_mismatch_is_noted_and_trusted():
    res = run(WD4 + [ev("challenge", "B"), reveal("A", "green-1", "yellow-2")])
    assert "counted 6" in res.one(4)["text"] and res.state["hand_counts"]["A"] == 2


def test_public_view_hides_the_challenge_reveal():
    res = run(WD4 + [ev("challenge", "B"), reveal("A", "green-1", "yellow-2")])
    assert res.state["challenge_reveal"] == {"A": ["green-1", "yellow-2"]}
    assert "challenge_reveal" not in res.game.public_view()


# -- UNO call and catch -------------------------------------------------------------
def two_left(**kw):
    """A is down to 2 cards after two rounds of play (hand size 4)."""
    return [start("red-5"), play("A", "red-1"), play("B", "red-2"), play("C", "red-3"),
            play("D", "red-4")]


def test_uno_call_then_catch_has_no_effect():
    res = run(
        two_left() + [ev("uno", "A"), play("A", "red-6"), ev("catch", "B", target="A")],
        hand_size=3)
    assert res.one(6)["ruling"] == "ok" and res.one(6)["rule"] == "official.uno-call"
    assert res.one(8)["ruling"] == "info" and "did call" in res.one(8)["text"]
    assert res.state["uno"] == ["A"] and res.state["catchable"] == []


def test_missing_call_caught_inside_the_window():
    res = run(
        two_left() + [play("A", "red-6"), ev("catch", "C", target="A"), draw("A", 2)],
        hand_size=3)
    assert res.state["hand_counts"]["A"] == 3
    r = res.one(7)
    assert r["ruling"] == "penalty" and r["rule"] == "official.uno-missed"
    assert r["player"] == "A" and r["draw"] == 2
    assert "caught by C before B played" in r["text"]
    assert res.kinds(8) == ["ok"]


def test_catchable_state_until_called():
    res = run(two_left() + [play("A", "red-6")], hand_size=3)
    assert res.state["catchable"] == ["A"]
    res = run(
        two_left() + [play("A", "red-6"), ev("uno", "A"), ev("catch", "B", target="A")],
        hand_size=3)
    assert res.state["catchable"] == [] and res.one(8)["ruling"] == "info"
    assert "before anyone caught" in res.one(7)["text"]


def test_catch_after_the_next_player_played_is_too_late():
    res = run(two_left() + [play("A", "red-6"), play("B", "red-7"),
                            ev("catch", "C", target="A")], hand_size=3)
    assert res.one(7, "official.uno-missed")["ruling"] == "info"
    assert res.one(8)["ruling"] == "info" and "Too late" in res.one(8)["text"]
    assert res.state["hand_counts"]["A"] == 1


def test_next_plays_window_stays_open_while_the_next_player_draws():
    events = two_left() + [play("A", "red-6"), draw("B"), ev("catch", "C", target="A")]
    res = run(events, hand_size=3)
    assert res.one(8)["ruling"] == "penalty"
    res = run(events, hand_size=3, options={"catch_window": "next-acts"})
    assert res.one(7, "official.uno-missed")["ruling"] == "info"
    assert res.one(8)["ruling"] == "info"


def test_referee_catches_when_the_window_closes():
    res = run(two_left() + [play("A", "red-6"), play("B", "red-7"), draw("A", 2)],
              hand_size=3, options={"referee_catches": True})
    r = res.one(7, "official.uno-missed")
    assert r["ruling"] == "penalty" and r["player"] == "A" and r["draw"] == 2
    assert "referee" in r["text"]
    assert res.state["hand_counts"]["A"] == 3


def test_bigger_uno_penalty():
    res = run(
        two_left() + [play("A", "red-6"), ev("catch", "C", target="A")], hand_size=3,
        options={"uno_penalty": 4})
    assert res.one(7)["draw"] == 4 and res.state["owed"] == {"A": 4}


def test_call_with_many_cards_has_no_effect():
    res = run([start("red-5"), ev("uno", "A")])
    assert res.one(2)["ruling"] == "info" and res.state["uno"] == []


def test_catch_of_a_player_with_many_cards_has_no_effect():
    res = run([start("red-5"), ev("catch", "B", target="A")])
    assert res.one(2)["ruling"] == "info" and res.state["owed"] == {}


def test_player_less_catch_targets_the_catchable_player():
    res = run(two_left() + [play("A", "red-6"), ev("catch")], hand_size=3)
    assert res.one(7)["ruling"] == "penalty" and res.one(7)["player"] == "A"


def test_drawing_resets_the_call():
    res = run(two_left() + [ev("uno", "A"), play("A", "red-6"), play("B", "red-7"),
                            play("C", "red-8"), play("D", "red-9"), draw("A"),
                            ev("pass", "A")], hand_size=3)
    assert res.state["uno"] == [] and res.state["hand_counts"]["A"] == 2


def test_no_challenges_at_this_table():
    res = run(WD4 + [ev("challenge", "B"), draw("B", 4)], options={"challenge": False})
    r = res.one(3)
    assert r["ruling"] == "illegal" and "without challenges" in r["text"]
    assert r["draw"] == 4
    assert res.kinds(4) == ["ok"] and res.state["hand_counts"]["B"] == 11


def test_drawing_during_a_challenge_drops_it():
    res = run(WD4 + [ev("challenge", "B"), draw("B", 4)])
    assert res.kinds(4) == ["info", "ok"] and res.state["turn"] == "C"
    assert res.state["hand_counts"]["B"] == 11 and res.state["phase"] == "turn"
