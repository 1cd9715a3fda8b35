"""Scenario tests: round end (a last Draw Two / Wild Draw Four too), scoring, game end.

Seats A B C D clockwise, dealer D, hand size 2, so A plays first and goes out on
its second card.
"""

from __future__ import annotations

from test_uno_support import draw, ev, play, reveal, run, start


def round_one(last: str = "red-draw2", **extra):
    return [start("red-5"), ev("uno", "A"), play("A", "red-6"), play("B", "red-7"),
            play("C", "red-8"), play("D", "red-9"), play("A", last, **extra)]


HANDS = [reveal("B", "blue-1", "green-skip", "wild"), reveal("C", "yellow-4"),
         reveal("D", "wild-draw4")]


def test_last_draw_two_next_player_still_draws_and_it_counts():
    res = run(round_one() + [reveal("B", "blue-1"), draw("B", 2)] + HANDS, hand_size=2)
    r = res.one(7, "official.round-end")
    assert r["ruling"] == "pending"
    assert r["player"] == "B" and r["draw"] == 2
    assert res.one(8)["ruling"] == "illegal"  # reveal before drawing the 2
    end = res.one(12, "official.scoring")
    assert end["ruling"] == "round-end"
    # B: 1 + 20 + 50 = 71, C: 4, D: 50; japan: losers minus, winner the sum.
    assert end["scores"] == {"A": 125, "B": -71, "C": -4, "D": -50}
    assert res.state["rounds"][0]["winner"] == "A"
    assert res.state["rounds"][0]["deltas"] == {"A": 125, "B": -71, "C": -4, "D": -50}
    assert res.state["rounds"][0]["hands"]["B"] == ["blue-1", "green-skip", "wild"]


def test_last_wild_draw_four_next_player_draws_four_no_challenge():
    res = run(
        round_one("wild-draw4", color="green") + [ev("challenge", "B"), draw("B", 4)],
        hand_size=2)
    assert res.one(7, "official.round-end")["draw"] == 4
    assert res.one(8)["ruling"] == "info"
    assert res.state["hand_counts"]["B"] == 5 and res.state["phase"] == "scoring"


def test_international_losers_score_zero_and_target_ends_the_game():
    events = round_one() + [draw("B", 2)] + HANDS
    res = run(events, hand_size=2, options={"scoring": "international", "target": 100})
    scores = res.one(11, "official.scoring")["scores"]
    assert scores == {"A": 125, "B": 0, "C": 0, "D": 0}
    end = res.one(11, "official.game-end")
    assert end["ruling"] == "game-end" and end["scores"]["A"] == 125
    assert res.state["over"] is True and res.state["winner"] == "A"
    res = run(events, hand_size=2, options={"scoring": "international", "target": 500})
    assert res.state["over"] is False and res.state["phase"] == "setup"


def test_japan_game_ends_after_the_set_rounds():
    res = run(round_one() + [draw("B", 2)] + HANDS, hand_size=2, options={"rounds": 1})
    end = res.one(11, "official.game-end")
    assert end["scores"] == {"A": 125, "B": -71, "C": -4, "D": -50}
    assert end["ranking"] == ["A", "C", "D", "B"]
    assert res.state["winner"] == "A"


def test_events_after_game_end_are_ignored():
    res = run(round_one() + [draw("B", 2)] + HANDS + [start("blue-5")], hand_size=2,
              options={"rounds": 1})
    assert res.one(12)["ruling"] == "info" and res.state["round"] == 1


def test_two_rounds_accumulate_and_winner_deals():
    # Round 2: dealer A (round 1 winner), so B plays first.
    round_two = [start("green-5"), ev("uno", "B"), play("B", "green-6"),
                 play("C", "green-7"), play("D", "green-8"), play("A", "green-9"),
                 play("B", "green-1"), reveal("C", "red-2"), reveal("D", "red-3"),
                 reveal("A", "red-4")]
    res = run(round_one() + [draw("B", 2)] + HANDS + round_two, hand_size=2,
              options={"rounds": 2})
    assert res.one(12)["text"].startswith("Round 2 starts")
    assert "B, left of dealer A" in res.one(12)["text"]
    assert [r["winner"] for r in res.state["rounds"]] == ["A", "B"]
    assert res.state["scores"] == {"A": 125 - 4, "B": -71 + 9, "C": -4 - 2,
                                   "D": -50 - 3}
    assert res.state["over"] is True


def test_doubling_multiplies_losing_hands_by_calls_plus_one():
    events = [start("red-5"), ev("uno", "A"), play("A", "red-6"), play("B", "red-7"),
              ev("uno", "C"), play("C", "red-8"), play("D", "red-9"),
              play("A", "red-1"),
              reveal("B", "blue-1"), reveal("C", "yellow-4"), reveal("D", "blue-2")]
    res = run(events, hand_size=2, options={"doubling": True})
    end = res.one(11, "official.scoring")
    assert end["scores"] == {"A": 1 + 8 + 2, "B": -1, "C": -8, "D": -2}
    res = run(events, hand_size=2)
    assert res.one(11, "official.scoring")["scores"]["C"] == -4


def test_new_start_before_all_reveals_scores_missing_hands_as_zero():
    res = run(
        round_one("red-1") + [reveal("B", "blue-9"), start("blue-5")], hand_size=2)
    r = res.one(9, "official.scoring")
    assert r["ruling"] == "round-end" and "never showed" in r["text"]
    assert r["scores"] == {"A": 9, "B": -9, "C": 0, "D": 0}
    assert res.state["round"] == 2


def test_new_start_mid_round_abandons_it():
    res = run([start("red-5"), play("A", "red-6"), start("blue-5")])
    assert res.one(3, "official.round-end")["ruling"] == "info"
    assert res.state["rounds"][0]["reason"] == "abandoned" and res.state["round"] == 2
    assert res.state["hand_counts"]["A"] == 7


def test_play_after_round_won_is_illegal():
    res = run(round_one("red-1") + [play("B", "red-2")], hand_size=2)
    assert res.one(8)["ruling"] == "illegal"
    assert res.one(8)["rule"] == "official.round-end"


def test_reveal_count_differs_from_the_referees_count():
    res = run(round_one("red-1") + [reveal("B", "blue-9", "blue-8")], hand_size=2)
    assert "referee counted 1" in res.one(8)["text"]
    assert res.state["hand_counts"]["B"] == 2
