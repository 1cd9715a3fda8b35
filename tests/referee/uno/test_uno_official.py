"""Scenario tests of the official preset (seed 001): first card, plays, turns, draws.

Seats A B C D clockwise, dealer D, so A plays first (see test_uno_support).
"""

from __future__ import annotations

from test_uno_support import draw, ev, play, run, start


# -- first card -----------------------------------------------------------------------
def test_number_first_card_left_of_dealer_starts():
    res = run([start("red-5")])
    r = res.one(1)
    assert r["ruling"] == "ok" and r["rule"] == "official.first-card"
    s = res.state
    assert s["turn"] == "A" and s["top"] == "red-5" and s["color"] == "red"
    assert s["hand_counts"] == {"A": 7, "B": 7, "C": 7, "D": 7}
    assert s["draw_pile"] == 108 - 28 - 1 and s["round"] == 1 and s["direction"] == 1


def test_wild_draw_four_first_card_is_returned_and_another_turned():
    res = run(
        [start("wild-draw4"), play("A", "red-3"), start("blue-2"), play("A", "blue-3")])
    assert res.one(1)["ruling"] == "info" and "back into the pile" in res.one(1)["text"]
    assert res.one(2)["ruling"] == "illegal"
    assert res.one(3)["ruling"] == "ok"
    assert res.state["round"] == 1 and res.state["top"] == "blue-3"
    assert res.state["draw_pile"] == 108 - 28 - 1  # the returned card went back


def test_draw_two_first_card_hits_left_of_dealer():
    res = run([start("green-draw2"), play("A", "green-4"), draw("A", 2),
               play("B", "green-1")])
    r = res.one(1)
    assert r["ruling"] == "pending" and r["player"] == "A" and r["draw"] == 2
    assert res.one(2)["ruling"] == "illegal"
    assert res.one(3)["ruling"] == "ok"
    assert res.one(4)["ruling"] == "ok"
    assert res.state["hand_counts"]["A"] == 9 and res.state["turn"] == "C"


def test_skip_first_card_skips_left_of_dealer():
    res = run([start("blue-skip")])
    assert res.state["turn"] == "B"


def test_reverse_first_card_dealer_starts_counter_clockwise():
    res = run([start("yellow-reverse"), play("D", "yellow-1")])
    assert res.state["direction"] == -1
    assert res.one(2)["ruling"] == "ok" and res.state["turn"] == "C"


def test_wild_first_card_left_of_dealer_names_the_colour():
    res = run([start("wild", color="green"), play("A", "red-4")])
    assert res.one(2)["ruling"] == "illegal"
    res = run([start("wild"), play("A", "red-4")])
    assert res.one(2)["ruling"] == "ok" and res.state["color"] == "red"


def test_winner_deals_next_round():
    res = run([start("red-5"), play("A", "red-6"), *round_end_to("A"),
               start("blue-5")], options={"rounds": 3}, hand_size=1)
    assert res.state["dealer"] == "A" and res.state["turn"] == "B"
    assert res.state["round"] == 2


def round_end_to(winner: str):
    others = [p for p in "ABCD" if p != winner]
    return [ev("reveal", p, cards=["blue-9"]) for p in others]


# -- plays ----------------------------------------------------------------------------
def test_match_by_colour_and_by_number():
    res = run([start("red-5"), play("A", "red-8"), play("B", "green-8"),
               play("C", "green-2")])
    assert res.kinds(2) == ["ok"] and res.kinds(3) == ["ok"] and res.kinds(4) == ["ok"]
    assert res.state["top"] == "green-2" and res.state["turn"] == "D"
    assert res.state["hand_counts"] == {"A": 6, "B": 6, "C": 6, "D": 7}
    assert res.state["discard_pile"] == 4


def test_symbol_match_across_colours():
    res = run([start("red-skip"), play("B", "green-skip")])
    assert res.kinds(2) == ["ok"] and res.state["turn"] == "D"


def test_mismatch_is_illegal_and_changes_nothing():
    before = run([start("red-5")]).state
    res = run([start("red-5"), play("A", "blue-7")])
    r = res.one(2)
    assert r["ruling"] == "illegal" and r["rule"] == "official.match"
    assert r["player"] == "A"
    assert "back" in r["text"] and "still A's turn" in r["text"]
    assert res.state == before


def test_out_of_turn_is_illegal_and_turn_unchanged():
    res = run([start("red-5"), play("C", "red-7")])
    r = res.one(2)
    assert r["ruling"] == "illegal" and r["rule"] == "official.turn"
    assert r["player"] == "C"
    assert res.state["turn"] == "A" and res.state["hand_counts"]["C"] == 7


def test_play_without_player_is_the_current_players_and_says_so():
    res = run([start("red-5"), play(None, "red-9")])
    r = res.one(2)
    assert r["ruling"] == "ok" and "player taken from the turn" in r["text"]
    assert r["implied"] is True and "A" in r["text"]
    assert res.state["hand_counts"]["A"] == 6 and res.state["turn"] == "B"


def test_unknown_player_is_a_malformed_event_not_a_crash():
    res = run([start("red-5"), play("Zed", "red-9"), play("A", "red-1")])
    assert res.one(2)["rule"] == "log.malformed" and "Zed" in res.one(2)["text"]
    assert res.kinds(3) == ["ok"]


def test_bad_card_label_is_malformed():
    res = run([start("red-5"), play("A", "purple-9")])
    assert res.one(2)["rule"] == "log.malformed"


def test_more_cards_than_the_hand_holds_is_illegal():
    res = run(
        [start("red-5"), play("A", "red-6")], hand_size=1,
        options={"multi_play": "off"})
    assert res.state["phase"] == "scoring"  # A went out with the only card
    res = run([start("red-5"), play("A", "red-6", "red-6")], hand_size=1,
              options={"multi_play": "pairs"})
    assert res.one(2)["rule"] == "official.hand-count"


def test_one_card_a_turn_officially():
    res = run([start("red-5"), play("A", "red-6", "blue-6")])
    assert res.one(2)["rule"] == "official.multi-play"
    assert res.one(2)["ruling"] == "illegal"


def test_wild_names_the_colour_and_the_next_card_must_match_it():
    res = run([start("red-5"), play("A", "wild", color="blue"), play("B", "red-9"),
               play("B", "blue-9")])
    assert res.one(2)["rule"] == "official.wild" and "names blue" in res.one(2)["text"]
    assert res.one(3)["ruling"] == "illegal"
    assert res.one(4)["ruling"] == "ok" and res.state["color"] == "blue"


def test_wild_without_colour_then_colour_event():
    res = run([start("red-5"), play("A", "wild"), ev("color", "A", color="green"),
               play("B", "red-9")])
    assert "without a logged colour" in res.one(2)["text"]
    assert res.one(3)["ruling"] == "ok" and res.one(4)["ruling"] == "illegal"


def test_bad_colour_is_malformed():
    res = run([start("red-5"), play("A", "wild", color="pink")])
    assert res.one(2)["rule"] == "log.malformed"


# -- draw and the drawn card -----------------------------------------------------------
def test_draw_then_only_the_drawn_card_may_be_played():
    res = run([start("red-5"), draw("A", cards=["red-2"]), play("A", "red-7"),
               play("A", "red-2")])
    assert res.kinds(2) == ["ok"] and res.state["turn"] == "B"
    assert res.one(3)["rule"] == "official.drawn-card"
    assert res.one(3)["ruling"] == "illegal"
    assert res.kinds(4) == ["ok"] and res.state["hand_counts"]["A"] == 7


def test_draw_then_pass():
    res = run([start("red-5"), draw("A"), ev("pass", "A")])
    assert res.kinds(3) == ["ok"] and res.state["turn"] == "B"
    assert res.state["hand_counts"]["A"] == 8 and res.state["draw_pile"] == 78


def test_pass_without_drawing_is_illegal():
    res = run([start("red-5"), ev("pass", "A")])
    assert res.one(2)["ruling"] == "illegal" and res.state["turn"] == "A"


def test_second_draw_in_a_turn_is_illegal():
    res = run([start("red-5"), draw("A"), draw("A")])
    assert res.one(3)["ruling"] == "illegal" and res.state["hand_counts"]["A"] == 8


def test_drawing_two_voluntarily_returns_one():
    res = run([start("red-5"), draw("A", 2)])
    assert res.kinds(2) == ["ok", "illegal"] and res.state["hand_counts"]["A"] == 8


def test_draw_out_of_turn_is_illegal():
    res = run([start("red-5"), draw("C")])
    assert res.one(2)["ruling"] == "illegal" and res.state["hand_counts"]["C"] == 7


def test_next_player_plays_after_a_draw_without_pass():
    res = run([start("red-5"), draw("A"), play("B", "red-1")])
    assert res.kinds(3) == ["info", "ok"] and res.state["turn"] == "C"


def test_player_less_draw_is_the_current_players():
    res = run([start("red-5"), draw(None)])
    assert res.state["hand_counts"]["A"] == 8
    assert "player taken from the turn" in res.one(2)["text"]
    assert res.one(2)["implied"] is True


# -- Skip, Reverse, Draw Two ----------------------------------------------------------
def test_skip_skips_the_next_player():
    res = run([start("red-5"), play("A", "red-skip")])
    assert res.one(2)["rule"] == "official.skip" and res.state["turn"] == "C"


def test_skip_with_two_players_plays_again():
    res = run([start("red-5"), play("A", "red-skip"), play("A", "red-1")],
              players=("A", "B"), dealer="B")
    assert res.kinds(3) == ["ok"] and res.state["turn"] == "B"


def test_reverse_changes_direction():
    res = run([start("red-5"), play("A", "red-reverse"), play("D", "red-1")])
    assert res.state["direction"] == -1 and res.kinds(3) == ["ok"]
    assert res.state["turn"] == "C"


def test_reverse_with_two_players_acts_as_skip():
    res = run([start("red-5"), play("A", "red-reverse"), play("A", "red-1")],
              players=("A", "B"), dealer="B")
    assert res.kinds(3) == ["ok"] and res.state["turn"] == "B"


def test_draw_two_next_draws_two_and_loses_turn():
    res = run([start("red-5"), play("A", "red-draw2"), play("B", "red-1"), draw("B", 2),
               play("C", "red-3")])
    r = res.one(2)
    assert r["ruling"] == "pending" and r["player"] == "B" and r["draw"] == 2
    assert res.one(3)["ruling"] == "illegal"
    assert res.kinds(4) == ["ok"] and res.kinds(5) == ["ok"]
    assert res.state["hand_counts"]["B"] == 9 and res.state["turn"] == "D"


def test_draw_two_with_two_players_plays_again():
    res = run(
        [start("red-5"), play("A", "red-draw2"), draw("B", 2), play("A", "red-1")],
        players=("A", "B"), dealer="B")
    assert res.kinds(4) == ["ok"] and res.state["hand_counts"] == {"A": 5, "B": 9}


def test_partial_draw_keeps_the_debt():
    res = run([start("red-5"), play("A", "red-draw2"), draw("B", 1), draw("B", 1)])
    assert res.one(3)["ruling"] == "pending" and res.one(3)["draw"] == 1
    assert res.state["turn"] == "C" and res.state["pending_draw"] == 0


def test_no_stacking_officially():
    res = run([start("red-5"), play("A", "red-draw2"), play("B", "blue-draw2")])
    assert res.one(3)["ruling"] == "illegal" and res.state["pending_draw"] == 2


def test_reshuffle_when_the_pile_runs_out():
    events = [start("red-5")]
    # 2 players, 7 each: 108 - 14 - 1 = 93 in the pile; draw them all with passes.
    for _ in range(47):
        events += [draw("A"), ev("pass", "A"), draw("B"), ev("pass", "B")]
    events += [play("A", "red-1"), play("B", "red-2")] + [draw("A"), ev("pass", "A")]
    res = run(events, players=("A", "B"), dealer="B")
    assert res.with_rule("official.reshuffle")
    s = res.state
    assert s["draw_pile"] + s["discard_pile"] + sum(s["hand_counts"].values()) == 108


# -- unknown events, game over ---------------------------------------------------------
def test_unknown_event_type_is_info():
    res = run([start("red-5"), ev("dance", "A")])
    assert res.one(2)["rule"] == "official.unknown-event"
