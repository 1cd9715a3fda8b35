"""Wrong rulings fixed in issue 23 (part 7, classic UNO), each as a short scenario.

Seats A B C D clockwise, dealer D, so A plays first (see test_uno_support).
"""

from __future__ import annotations

from test_uno_support import draw, ev, play, reveal, run, start


# -- the Wild's colour is named by its player, once (001 ワイルド) -------------------
def test_colour_from_another_player_is_refused():
    res = run([start("red-5"), play("A", "wild"), ev("color", "B", color="green"),
               ev("color", "A", color="blue"), play("B", "blue-9")])
    r = res.one(3)
    assert r["ruling"] == "illegal" and r["rule"] == "official.wild"
    assert "Only A" in r["text"]
    assert res.one(4)["ruling"] == "ok" and res.kinds(5) == ["ok"]
    assert res.state["color"] == "blue"


def test_second_naming_is_refused_and_the_first_colour_stays():
    res = run([start("red-5"), play("A", "wild", color="blue"),
               ev("color", "A", color="green"), ev("color", color="blue")])
    r = res.one(3)
    assert r["ruling"] == "illegal" and "stays blue" in r["text"]
    assert res.one(4)["ruling"] == "info"
    assert res.state["color"] == "blue"


def test_colour_event_without_player_is_the_wild_players():
    res = run([start("red-5"), play("A", "wild"), ev("color", color="green"),
               play("B", "green-9")])
    assert res.one(3)["ruling"] == "ok" and res.kinds(4) == ["ok"]


def test_challenge_is_judged_against_the_colour_named_first():
    hand = ["green-1", "green-2", "green-3", "yellow-4", "yellow-5", "red-6"]
    res = run([start("red-5"), play("A", "wild", color="blue"),
               ev("color", "B", color="green"),
               play("B", "wild-draw4", color="yellow"), ev("challenge", "C"),
               reveal("B", *hand)])
    assert res.one(3)["ruling"] == "illegal"
    verdict = res.one(6)
    assert verdict["ruling"] == "penalty" and verdict["player"] == "C"
    assert verdict["draw"] == 6 and "Challenge failed" in verdict["text"]


# -- a guilty Wild Draw Four goes back; another card must be played (001 チャレンジ成功)
def test_guilty_wild_draw_four_may_not_be_played_again_at_once():
    hand = ["red-9", "green-1", "green-2", "yellow-3", "yellow-4", "blue-6"]
    res = run([start("red-5"), play("A", "wild-draw4", color="blue"),
               ev("challenge", "B"), reveal("A", *hand), draw("A", 4),
               play("A", "wild-draw4", color="green"), play("A", "red-9")])
    r = res.one(6)
    assert r["ruling"] == "illegal" and r["rule"] == "official.wd4-challenge"
    assert r["player"] == "A" and "another card" in r["text"]
    assert res.kinds(7) == ["ok"]
    assert res.state["top"] == "red-9" and res.state["turn"] == "B"


# -- a caught player draws the penalty before going out (001 公式 7) ------------------
def _down_to_one_and_caught():
    return [start("red-5"), play("A", "red-1"), play("B", "red-2"), play("C", "red-3"),
            play("D", "red-4"), play("A", "red-6"), ev("catch", "C", target="A"),
            play("B", "red-7"), play("C", "red-8"), play("D", "red-9")]


def test_caught_player_may_not_go_out_before_drawing_the_penalty():
    res = run(_down_to_one_and_caught() + [play("A", "red-2")], hand_size=3)
    r = res.one(11)
    assert r["ruling"] == "illegal" and r["rule"] == "official.going-out"
    assert r["player"] == "A" and r["draw"] == 2
    assert res.state["phase"] == "turn" and res.state["round_winner"] is None


def test_caught_player_goes_out_after_drawing_the_penalty():
    res = run(_down_to_one_and_caught() + [draw("A", 2), play("A", "red-2")],
              hand_size=3)
    assert res.kinds(11) == ["ok"] and "ok" in res.kinds(12)
    assert res.state["hand_counts"]["A"] == 2


# -- the round-end ruling's draw and its text agree ----------------------------------
def test_round_end_draw_names_the_unpaid_penalty_too():
    events = [start("red-5"), play("A", "red-1"), play("B", "red-2"),
              play("C", "red-3"), play("D", "red-4"), ev("uno", "A"),
              play("A", "red-6"), play("B", "red-7"), ev("catch", "A", target="B"),
              play("C", "red-8"), play("D", "red-9"), play("A", "red-draw2")]
    res = run(events, hand_size=3)
    assert res.one(9)["draw"] == 2
    r = res.one(12, "official.round-end")
    assert r["ruling"] == "pending" and r["player"] == "B" and r["draw"] == 4
    assert "B still draws 4 (2 for the red Draw Two and 2 owed before" in r["text"]


# -- the colour named for a round-winning Wild ---------------------------------------
def test_colour_for_a_round_winning_wild_is_not_needed():
    events = [start("red-5"), ev("uno", "A"), play("A", "red-1"), play("B", "red-2"),
              play("C", "red-3"), play("D", "red-4"), play("A", "wild"),
              ev("color", "A", color="blue")]
    res = run(events, hand_size=2)
    assert res.state["phase"] == "scoring"
    r = res.one(8)
    assert r["ruling"] == "info" and r["rule"] == "official.wild"
    assert "No wild card is on top" not in r["text"]
    assert "no colour is needed" in r["text"]
