"""Who names the colour after a Counter or a Change (000 §T1, §T2), and the same
ruling whichever way the colour comes: written on the play, or as a ``color``
event right after it.

000 T1: the player of a Wild, Replace or Gamble names the colour; a Change's
colour is its target's, and after a Counter bounced it, the counterer's
("成功した場合の色指定はカウンターを使用したプレイヤーに権利がある"), Counter on
Counter allowed. A Counter answering a Hit gets no colour of its own. T2: a
Counter answering an All Hit+2 sends the 2 back, but "色の指定自体はギャンブルを
使用したプレイヤーになる".

Players A, B, C sit clockwise, C deals, A begins; line 1 is the start card
(red-5), so the n-th event after it is line n + 1.
"""

from __future__ import annotations

import pytest
from test_tgus_t_support import play, run

COLOUR_RULES = ("color", "change")


def colour_ruling(rulings):
    """The one ruling on the named colour among an event's rulings (after the
    play's own ruling, which comes first)."""
    said = [r for r in rulings if r.rule.split(".", 1)[1] in COLOUR_RULES]
    assert len(said) == 1, [(r.ruling, r.rule) for r in rulings]
    return said[0]


def both_ways(rules, before, last, color, **header):
    """Run ``before`` + ``last`` with ``color`` on ``last``, and again with the
    colour as a ``color`` event from its player after it.

    Returns ((state, colour ruling, rulings of the play)) for each way.
    """
    on_play = {**last, "color": color}
    state1, by1 = run(rules, [*before, on_play], **header)
    line = len(before) + 2
    late = {"type": "color", "player": last["player"], "color": color}
    state2, by2 = run(rules, [*before, last, late], **header)
    return (
        (state1, colour_ruling(by1[line][1:]), by1[line]),
        (state2, colour_ruling(by2[line + 1]), by2[line]),
    )


def assert_same(a, b):
    """The same ruling on the colour, in both languages, and the same table."""
    (s1, r1, _), (s2, r2, _) = a, b
    assert (r1.ruling, r1.rule) == (r2.ruling, r2.rule)
    assert str(r1.text) == str(r2.text)
    assert r1.text.render("ja") == r2.text.render("ja")
    keys = ("color", "turn", "pending_draw", "pending_target", "hand_counts", "awaiting")
    assert {k: s1[k] for k in keys} == {k: s2[k] for k in keys}


@pytest.mark.parametrize("rules", ["tgus-t1", "tgus-t2"])
def test_a_counter_answering_a_hit_names_no_colour_either_way(rules):
    a, b = both_ways(rules, [play("A", "red-hit2")], play("B", "counter"), "blue")
    assert_same(a, b)
    state, ruling, plays = a
    assert (ruling.ruling, ruling.rule) == ("illegal", f"{rules}.color")
    assert "answers a Hit" in ruling.text and "ヒットを返す" in ruling.text.render("ja")
    assert state["color"] == "red"
    # the Counter itself stands: the draw turned round to A
    assert (plays[0].ruling, plays[0].rule) == ("pending", f"{rules}.counter")
    assert state["pending_target"] == "A"
    assert state["hand_counts"]["B"] == state["hand_counts"]["C"] - 1


def test_a_counter_on_a_counter_of_a_hit_names_no_colour_either_way():
    before = [play("A", "red-hit2"), play("B", "counter")]
    a, b = both_ways("tgus-t1", before, play("A", "counter"), "green")
    assert_same(a, b)
    state, ruling, _ = a
    assert ruling.ruling == "illegal" and state["color"] == "red"
    assert state["pending_target"] == "B"


def test_a_counter_bouncing_a_change_names_its_colour_either_way():
    before = [play("A", "change", target="C")]
    a, b = both_ways("tgus-t1", before, play("C", "counter"), "blue")
    assert_same(a, b)
    state, ruling, plays = a
    assert (ruling.ruling, ruling.rule) == ("ok", "tgus-t1.change")
    assert state["color"] == "blue" and state["awaiting"] is None
    # settled: the next seat plays on either way
    assert plays[0].ruling == "ok" and "will name" not in plays[0].text
    for events in (
        [*before, play("C", "counter", color="blue"), play("B", "blue-7")],
        [*before, play("C", "counter"), {"type": "color", "player": "C", "color": "blue"},
         play("B", "blue-7")],
    ):
        state, by = run("tgus-t1", events)
        assert by[len(events) + 1][0].ruling == "ok" and state["turn"] == "C"


def test_a_counter_on_a_counter_of_a_change_moves_the_colour_again_either_way():
    before = [play("A", "change", target="C"), play("C", "counter")]
    a, b = both_ways("tgus-t1", before, play("A", "counter"), "green")
    assert_same(a, b)
    state, ruling, _ = a
    assert (ruling.ruling, ruling.rule) == ("ok", "tgus-t1.change")
    assert "C's hand is changed" in ruling.text and state["color"] == "green"
    # the first counterer no longer has it
    state, by = run("tgus-t1", [*before, play("A", "counter"),
                                {"type": "color", "player": "C", "color": "blue"}])
    refused = by[5][0]
    assert (refused.ruling, refused.rule) == ("illegal", "tgus-t1.color")
    assert "A's" in refused.text and state["color"] == "red"


def test_the_player_of_a_change_names_no_colour_either_way():
    a, b = both_ways("tgus-t1", [], play("A", "change", target="C"), "blue")
    assert_same(a, b)
    state, ruling, _ = a
    assert (ruling.ruling, ruling.rule) == ("illegal", "tgus-t1.color")
    assert "C's" in ruling.text and "するのはCで" in ruling.text.render("ja")
    assert state["color"] == "red" and state["awaiting"] == "C to name the colour for the Change"


@pytest.mark.parametrize("rules", ["tgus-t1", "tgus-t2"])
def test_a_gamble_played_as_a_counter_against_a_hit_names_the_colour_either_way(rules):
    before = [play("A", "red-hit2")]
    a, b = both_ways(rules, before, play("B", "gamble", effect="counter"), "blue")
    assert_same(a, b)
    state, ruling, _ = a
    assert (ruling.ruling, ruling.rule) == ("ok", f"{rules}.color")
    assert state["color"] == "blue" and state["awaiting"] == "A to draw 2 or answer"
    # without a colour the referee waits for the Gamble's player to name it
    state, _ = run(rules, [*before, play("B", "gamble", effect="counter")])
    assert state["awaiting"] == "B to name a colour"


def test_several_counters_with_a_gamble_against_a_hit_name_the_colour_either_way():
    before = [play("A", "red-hit2")]
    a, b = both_ways("tgus-t1", before,
                     play("B", "counter", "gamble", effect="counter"), "yellow")
    assert_same(a, b)
    assert a[1].ruling == "ok" and a[0]["color"] == "yellow"


@pytest.mark.parametrize("counter", [["counter"], ["gamble"]])
def test_a_counter_answering_all_hit2_leaves_the_colour_to_the_gamble_either_way(counter):
    before = [play("A", "gamble", effect="all-hit2", color="green")]
    effect = {"effect": "counter"} if counter == ["gamble"] else {}
    a, b = both_ways("tgus-t2", before, play("C", *counter, **effect), "blue",
                     hand_size=2)
    assert_same(a, b)
    state, ruling, plays = a
    assert (ruling.ruling, ruling.rule) == ("illegal", "tgus-t2.color")
    assert "stays with A" in ruling.text and "Aのまま" in ruling.text.render("ja")
    assert state["color"] == "green"
    assert plays[0].rule == "tgus-t2.counter"


def test_the_gamble_player_of_all_hit2_names_its_colour_after_the_counter():
    before = [play("A", "gamble", effect="all-hit2"), play("C", "counter")]
    state, by = run("tgus-t2", [*before, {"type": "color", "player": "A", "color": "blue"}],
                    hand_size=2)
    assert (by[4][0].ruling, by[4][0].rule) == ("ok", "tgus-t2.color")
    assert state["color"] == "blue"



@pytest.mark.parametrize("rules", ["tgus-t1", "tgus-t2"])
def test_the_simulator_names_colours_only_where_they_count(rules):
    from referee.tgus_t.sim import playout

    counters = 0
    for seed in range(6):
        out = playout(rules, seed, players=3 + seed % 3)
        refused = [r for r in out.rulings
                   if r.ruling == "illegal" and r.rule.endswith(".color")]
        assert not refused, [str(r.text) for r in refused]
        counters += sum(r.rule.endswith(".counter") for r in out.rulings)
    assert counters  # the playouts did answer with Counters
