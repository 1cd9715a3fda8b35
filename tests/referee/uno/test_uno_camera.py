"""Rulings on camera events (issues 25 and 26): short, and saying where a fact
came from once.

The live table (vision) writes ``player`` from the arm that reached
(``"player_from": "reach"``) or leaves it out (``"player_from": "turn"``),
inserts ``pass`` and ``color`` events marked ``"inferred": "<why>"``, and puts
a ``question`` on an event its evidence cannot settle (docs/table-log.md).
"""

from __future__ import annotations

from test_uno_support import draw, ev, header, play, reveal, run, start

from referee.session import Referee

ASK = ("The camera saw C play while it was B's turn: was a play, draw or pass of "
       "B's missed, or did C play out of turn?")


def test_a_player_taken_from_the_turn_is_said_once_a_round_and_marked_on_every_line():
    res = run([start("red-5"), play(None, "red-9"), play(None, "red-2"),
               draw(None), ev("pass")])
    texts = [res.one(line)["text"] for line in (2, 3, 4, 5)]
    assert texts[0] == "A plays the red 9 (player taken from the turn); it is B's turn."
    assert texts[1] == "B plays the red 2; it is C's turn."
    assert all("taken from" not in t and "logged" not in t for t in texts[1:])
    assert all(res.one(line)["implied"] is True for line in (2, 3, 4, 5))


def test_the_implied_clause_comes_back_in_a_new_round():
    res = run([start("red-5"), play(None, "red-9"), play("B", "red-2"),
               start("blue-5"), play(None, "blue-9")],
              options={"scoring": "japan"}, hand_size=1)
    # A went out at line 2; line 4 starts round 2 (missing hands scored as 0)
    assert "(player taken from the turn)" in res.one(5)["text"]
    assert res.one(5)["implied"] is True


def test_player_from_reach_is_a_named_player_and_turn_is_implied():
    res = run([start("red-5"), play("A", "red-9", player_from="reach"),
               play("B", "red-2", player_from="turn")])
    assert "implied" not in res.one(2) and "taken" not in res.one(2)["text"]
    assert res.one(3)["implied"] is True
    assert "(player taken from the turn)" in res.one(3)["text"]


def test_counts_agree_with_their_nouns():
    res = run([start("red-5"), draw("A", 2)])
    refused = res.at(2)[-1]
    assert refused["ruling"] == "illegal"
    assert refused["text"].endswith("so 1 card goes back to the pile.")
    res = run([start("red-5"), draw("A", 3)])
    assert res.at(2)[-1]["text"].endswith("so 2 cards go back to the pile.")


def test_one_point_and_one_round_are_singular():
    res = run([start("red-5"), play("A", "red-9"), reveal("B", "red-1")],
              players=("A", "B"), dealer="B", hand_size=1,
              options={"scoring": "japan", "rounds": 1})
    texts = " ".join(r["text"] for r in res.rulings)
    assert "worth 1 point." in texts and "after 1 round:" in texts
    assert "1 points" not in texts and "round(s)" not in texts


def test_an_inferred_pass_says_so_and_from_what():
    why = "B drew and the next seat, C, played"
    res = run([start("red-5"), play("A", "red-9"), draw("B"),
               ev("pass", "B", inferred=why, source="vision"), play("C", "red-1")])
    r = res.one(4)
    assert r["ruling"] == "ok" and r["inferred"] == why
    assert r["text"] == f"B passes after drawing; it is C's turn (inferred: {why})."
    assert res.one(5)["ruling"] == "ok"


def test_an_inferred_colour_says_so_and_from_what():
    why = ("no colour was heard and the next play, blue-1, is legal on the wild only "
           "if blue was named")
    res = run([start("red-5"), play("A", "wild"),
               ev("color", color="blue", inferred=why, source="vision"),
               play("B", "blue-1")])
    r = res.one(3)
    assert r["ruling"] == "ok" and r["inferred"] == why
    assert r["text"] == f"The colour of the Wild is blue (inferred: {why})."
    assert res.state["color"] == "blue"


def test_a_question_is_asked_instead_of_refusing_the_play():
    res = run([start("red-5"), play("A", "red-9"),
               play("C", "red-1", player_from="reach", question=ASK)])
    r = res.one(3)
    assert r["ruling"] == "pending" and r["rule"] == "official.question"
    assert r["text"] == ASK and r["question"] == ASK
    assert r["refused"]["rule"] == "official.turn"  # what stands if C did play out
    # held: nothing of it is counted until the table answers
    assert res.state["turn"] == "B" and res.state["hand_counts"]["C"] == 7
    assert not [x for x in res.rulings if x["ruling"] == "illegal"]


def test_answering_a_question_in_one_change_rules_the_line_again():
    def asked() -> Referee:
        ref = Referee(header())
        for e in (start("red-5"), play("A", "red-9"),
                  play("C", "red-1", question=ASK)):
            ref.append(e)
        assert ref.rulings[-1].ruling == "pending"
        return ref

    # the table says B's play was missed: insert it before line 3; C's is legal
    ref = asked()
    ref.insert(3, play("B", "red-2"))
    assert [r.ruling for r in ref.rulings if r.event == 4] == ["ok"]
    assert ref.state()["turn"] == "D"
    # or the table says C did play out of turn: the line without its question
    ref = asked()
    ref.correct(3, play("C", "red-1"))
    assert [r.rule for r in ref.rulings if r.event == 3] == ["official.turn"]


def test_an_unnamed_wild_colour_is_asked_after_a_legal_play_on_it():
    ask = ("No colour was heard for the wild and the wild-draw4 played on it does "
           "not show one: which colour was named?")
    res = run([start("red-5"), play("A", "wild"), play("B", "wild", question=ask)])
    assert res.kinds(3) == ["ok", "pending"]
    assert res.at(3)[1]["rule"] == "official.question"
    # named in the meantime (the answer inserted before it): no question left
    res = run([start("red-5"), play("A", "wild"), ev("color", "A", color="red"),
               play("B", "wild", question=ask)])
    assert res.kinds(4) == ["ok"]
