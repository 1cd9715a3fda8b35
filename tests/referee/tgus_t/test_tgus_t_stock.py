"""Picture leftovers, tgus-t2's stock, the pile rebuild and All Hit+2.

Players A, B, C sit clockwise, C deals, A begins; line 1 is the start card.
"""

from __future__ import annotations

from test_tgus_t_support import START, draw, play, run  # noqa: F401


def pass_(player):
    return {"type": "pass", "player": player}


def rules_of(rulings):
    return [(r.ruling, r.rule.split(".", 1)[1]) for r in rulings]


# -- picture leftover ------------------------------------------------------------------
def test_leftover_report_forces_draws_of_two():
    state, by = run("tgus-t1", [{"type": "leftover", "player": "B"}, draw("B", 2)])
    r = by[2][0]
    assert (r.ruling, r.rule, r.player, r.draw) == (
        "pending",
        "tgus-t1.leftover",
        "B",
        2,
    )
    assert rules_of(by[3]) == [("ok", "leftover")]
    assert state["hand_counts"]["B"] == 9 and state["turn"] == "A"


def test_missed_leftover_costs_3_more_in_t2():
    state, by = run(
        "tgus-t2", [{"type": "catch", "player": "A", "target": "B", "for": "leftover"}]
    )
    r = by[2][0]
    assert (r.ruling, r.player, r.draw) == ("penalty", "B", 5)
    assert state["owed"] == {"B": 5}


def test_missed_leftover_in_t1_is_only_the_forced_draw():
    _, by = run(
        "tgus-t1", [{"type": "catch", "player": "A", "target": "B", "for": "leftover"}]
    )
    assert (by[2][0].ruling, by[2][0].draw) == ("pending", 2)


def test_leftover_catch_fails_when_the_hand_shows_a_number():
    state, by = run(
        "tgus-t2",
        [
            {
                "type": "catch",
                "player": "A",
                "target": "B",
                "for": "leftover",
                "cards": ["red-skip", "blue-3"],
            }
        ],
    )
    assert by[2][0].ruling == "info" and state["owed"] == {}


def test_picture_stock_when_the_pile_is_empty_and_no_going_out():
    # 3 hands of 2 and the start card use up a 7-card deck: the pile is empty.
    events = [
        {"type": "picture-leftover", "player": "A"},
        play("A", "red-skip", "blue-skip"),
    ]
    state, by = run("tgus-t2", events, hand_size=2, options={"deck_size": 7})
    assert "picture stock" in by[2][0].text
    assert state["stock"] == {"A": 2} and state["picture_stock"] == ["A"]
    assert ("info", "stock") in rules_of(by[3])
    assert state["hand_counts"]["A"] == 0 and state["ranking"] == []


# -- T2 stock and rebuild --------------------------------------------------------------
STOCK_GAME = [
    play("A", "red-7", "blue-7", "green-7", "yellow-7"),  # 2
    play("B", "yellow-8", "red-8", "blue-8", "green-8"),  # 3
    play("C", "green-9", "red-9", "blue-9", "yellow-9"),  # 4
    play("A", "yellow-hit2", "red-hit2"),  # 5: B owes 4
    play("B", "wild-hit4", color="red"),  # 6: C owes 8
    play("C", "wild-hit-x"),  # 7
    {"type": "turned", "cards": ["wild-hit-x", "red-0", "blue-hit2"]},  # 8: A, 36
    draw("A", 18),  # 9
    draw("A", 4),  # 10
]


def test_draw_larger_than_the_pile_is_stocked_and_drawn_after_the_rebuild():
    # deck of 52: 30 dealt, 1 start card, 21 in the pile.
    state, by = run("tgus-t2", STOCK_GAME, options={"deck_size": 52})
    assert (by[8][0].player, by[8][0].draw) == ("A", 36)
    line9 = rules_of(by[9])
    assert line9 == [
        ("ok", "precedence"),
        ("info", "reshuffle"),
        ("pending", "stock"),
        ("pending", "draw"),
    ]
    assert "18 now and 18 are stocked" in by[9][0].text
    # the rebuild leaves 19 cards; stocked draws stop at 15, so 4 are drawn now
    assert by[9][2].draw == 4
    assert state["hand_counts"]["A"] == 4 + 18 + 4
    assert state["stock"] == {"A": 14}
    assert (state["pile"], state["discards"]) == (15, 1)


def test_stocked_draws_pause_while_the_pile_holds_15_or_fewer():
    more = [
        play("B", "blue-3"),
        draw("C"),
        pass_("C"),
        draw("A"),
        pass_("A"),
        draw("B"),
        pass_("B"),
        draw("C"),
        pass_("C"),
        draw("A"),
    ]
    state, by = run("tgus-t2", STOCK_GAME + more, options={"deck_size": 52})
    last = len(STOCK_GAME) + len(more) + 1
    assert ("info", "reshuffle") in rules_of(by[last])
    assert ("pending", "stock") in rules_of(by[last])
    assert "wait" in by[last][-1].text
    assert state["stock"] == {"A": 14} and state["pile"] == 11


def test_t2_rebuilds_at_10_cards():
    # 42 cards: 30 dealt, 1 start card, 11 in the pile
    state, by = run(
        "tgus-t2", [play("A", "red-7"), draw("B")], options={"deck_size": 42}
    )
    assert ("info", "reshuffle") in rules_of(by[3])
    assert (state["pile"], state["discards"]) == (11, 1)


def test_t1_rebuilds_only_when_the_pile_is_empty():
    # 24 cards: 21 dealt, 1 start card, 2 in the pile
    events = [play("A", "red-7"), draw("B"), pass_("B"), draw("C")]
    state, by = run("tgus-t1", events, options={"deck_size": 24})
    assert not any(r.rule.endswith("reshuffle") for r in by[3])
    assert ("info", "reshuffle") in rules_of(by[5])
    assert (state["pile"], state["discards"]) == (1, 1)


def test_t1_has_no_stock_the_whole_draw_is_owed():
    events = STOCK_GAME[:7]
    state, _ = run("tgus-t1", events + [draw("A", 18)], options={"deck_size": 52})
    assert state["stock"] == {} and state["owed"] == {"A": 18}


# -- All Hit+2 ----------------------------------------------------------------
def test_all_hit2_from_two_cards_and_a_counter_sends_one_share_back():
    events = [
        play("A", "gamble", effect="all-hit2", color="red"),
        play("B", "counter"),
        draw("C", 2),
    ]
    state, by = run("tgus-t2", events, hand_size=2)
    assert by[2][0].ruling == "pending" and by[2][0].rule == "tgus-t2.all-hit2"
    assert (by[3][0].player, by[3][0].draw) == ("A", 2)
    assert state["owed"] == {"A": 2}
    assert state["hand_counts"] == {"A": 1, "B": 1, "C": 4}
    assert state["turn"] == "B" and state["color"] == "red"


def test_all_hit2_needs_t2_and_a_hand_of_two_or_fewer():
    _, by = run(
        "tgus-t1", [play("A", "gamble", effect="all-hit2", color="red")], hand_size=2
    )
    assert rules_of(by[2]) == [("illegal", "gamble")]
    _, by = run(
        "tgus-t2", [play("A", "gamble", effect="all-hit2", color="red")], hand_size=3
    )
    assert rules_of(by[2]) == [("illegal", "all-hit2")]


def test_leftover_report_with_a_number_card_shown_forces_nothing():
    report = {"type": "picture-leftover", "player": "B", "cards": ["red-3", "wild"]}
    state, by = run("tgus-t1", [report])
    assert by[2][0].ruling == "info" and state["owed"] == {}


def test_t2_an_all_hit2_share_cannot_be_answered_with_a_hit2():
    # 000 §T2: Hit+2 cannot answer All Hit+2 (precedence); only a Counter may.
    events = [
        play("A", "gamble", effect="all-hit2", color="red"),
        play("B", "red-hit2"),
        play("B", "counter"),
    ]
    state, by = run("tgus-t2", events, hand_size=2)
    assert rules_of(by[3]) == [("illegal", "precedence")]
    assert "Counter" in by[3][0].text and by[3][0].player == "B"
    assert rules_of(by[4])[0] == ("ok", "counter")
    assert state["owed"] == {"A": 2, "C": 2} and state["pending_draw"] == 0


def test_t2_after_drawing_the_share_a_hit2_is_an_ordinary_play():
    events = [
        play("A", "gamble", effect="all-hit2", color="red"),
        draw("B", 2),
        play("B", "red-hit2"),
    ]
    state, by = run("tgus-t2", events, hand_size=2)
    assert by[4][0].ruling == "pending" and state["pending_draw"] == 2
