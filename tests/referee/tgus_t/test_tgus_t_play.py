"""Scenario tests for tgus-t1 / tgus-t2 plays: turns, multi-play, calls, colours,
Change / Counter, precedence and the ranking (000 §T1, §T2).

Each scenario is a short table log; line 1 is the start card, so the n-th
event after it is line n + 1. Players A, B, C sit clockwise, C deals, A begins.
"""

from __future__ import annotations

from test_tgus_t_support import START, draw, play, run  # noqa: F401


def kinds(rulings):
    return [(r.ruling, r.rule) for r in rulings]


# -- turn, draw, pass ----------------------------------------------------------------
def test_play_out_of_turn_is_illegal_and_changes_nothing():
    state, by = run("tgus-t1", [play("B", "red-7")])
    assert kinds(by[2]) == [("illegal", "tgus-t1.turn")]
    assert state["hand_counts"]["B"] == 7 and state["turn"] == "A"


def test_play_without_player_is_the_player_on_turn_and_says_so():
    state, by = run("tgus-t1", [{"type": "play", "cards": ["red-7"]}])
    assert by[2][0].ruling == "ok" and "player taken from the turn" in by[2][0].text
    assert by[2][0].extra["implied"] is True
    assert state["hand_counts"]["A"] == 6 and state["turn"] == "B"


def test_a_player_taken_from_the_turn_is_said_once_a_round():
    _, by = run("tgus-t1", [{"type": "play", "cards": ["red-7"]},
                            {"type": "play", "cards": ["red-8"]},
                            {"type": "play", "cards": ["red-9"], "player": "C",
                             "player_from": "turn"}])
    assert "taken from the turn" not in by[3][0].text + by[4][0].text
    assert by[3][0].extra["implied"] is True and by[4][0].extra["implied"] is True


def test_pass_needs_a_draw_first():
    state, by = run(
        "tgus-t1",
        [{"type": "pass", "player": "A"}, draw("A"), {"type": "pass", "player": "A"}],
    )
    assert by[2][0].ruling == "illegal"
    assert by[4][0].ruling == "ok" and state["turn"] == "B"
    assert state["hand_counts"]["A"] == 8


def test_draw_nobody_owed_is_put_back():
    state, by = run("tgus-t1", [draw("B", 2)])
    assert kinds(by[2]) == [("illegal", "tgus-t1.draw")]
    assert state["hand_counts"]["B"] == 7


def test_card_of_another_deck_is_refused():
    state, by = run("tgus-t1", [play("A", "red-draw2")])
    assert kinds(by[2]) == [("illegal", "tgus-t1.deck")]


def test_colour_or_value_must_match():
    state, by = run("tgus-t1", [play("A", "blue-7"), play("A", "blue-5")])
    assert kinds(by[2]) == [("illegal", "tgus-t1.match")]
    assert by[3][0].ruling == "ok" and state["color"] == "blue"


# -- hand size -----------------------------------------------------------------------
def test_t1_hand_size_outside_5_to_10_is_noted_but_counted():
    state, by = run("tgus-t1", [], hand_size=12)
    assert ("info", "tgus-t1.hand-size") in kinds(by[1])
    assert state["hand_counts"] == {"A": 12, "B": 12, "C": 12}


def test_t2_deals_10():
    state, by = run("tgus-t2", [])
    assert state["hand_counts"] == {"A": 10, "B": 10, "C": 10}
    assert not any(r.rule.endswith("hand-size") for r in by[1])


# -- multi-play ----------------------------------------------------------------------
def test_multi_play_same_number_any_colour_last_card_on_top():
    state, by = run("tgus-t1", [play("A", "red-7", "blue-7", "green-7")])
    assert by[2][0].ruling == "ok"
    assert state["hand_counts"]["A"] == 4
    assert (state["top"], state["color"]) == ("green-7", "green")


def test_multi_play_needs_same_number_or_effect():
    state, by = run("tgus-t1", [play("A", "red-7", "red-8")])
    assert kinds(by[2]) == [("illegal", "tgus-t1.multi-play")]
    assert state["hand_counts"]["A"] == 7


def test_multi_play_first_card_must_match():
    state, by = run("tgus-t1", [play("A", "blue-7", "red-7")])
    assert kinds(by[2]) == [("illegal", "tgus-t1.match")]


def test_same_effect_hits_add_up():
    state, by = run("tgus-t1", [play("A", "red-hit2", "blue-hit2")])
    assert (by[2][0].player, by[2][0].draw) == ("B", 4)
    assert state["pending_draw"] == 4 and state["turn"] == "B"


def test_two_skips_skip_two_players():
    state, _ = run(
        "tgus-t1", [play("A", "red-skip", "blue-skip")], players=("A", "B", "C", "D")
    )
    assert state["turn"] == "D"


def test_t1_forbids_several_wilds_t2_allows_them():
    _, by = run("tgus-t1", [play("A", "wild", "wild", color="blue")])
    assert kinds(by[2]) == [("illegal", "tgus-t1.multi-wild")]
    state, by = run("tgus-t2", [play("A", "wild", "wild", color="blue")])
    assert by[2][0].ruling == "ok" and state["hand_counts"]["A"] == 8


def test_several_counters_count_as_one():
    state, by = run("tgus-t1", [play("A", "red-hit2"), play("B", "counter", "counter")])
    assert "count as one" in by[3][0].text
    assert (state["pending_draw"], state["pending_target"]) == (2, "A")
    assert state["hand_counts"]["B"] == 5


def test_gamble_joins_counters_as_the_fourth_counter():
    state, by = run(
        "tgus-t1",
        [play("A", "red-hit2"), play("B", "counter", "gamble", effect="counter")],
    )
    assert by[3][0].rule == "tgus-t1.counter" and state["pending_target"] == "A"


# -- the name call -------------------------------------------------------------------
def test_missing_call_caught_draws_the_penalty():
    state, by = run(
        "tgus-t1",
        [play("A", "red-7"), {"type": "catch", "player": "B", "target": "A"}],
        hand_size=2,
    )
    r = by[3][0]
    assert (r.ruling, r.rule) == ("penalty", "tgus-t1.uno-missed")
    assert (r.player, r.draw) == ("A", 2)
    assert state["owed"] == {"A": 2}


def test_call_with_a_name_protects():
    _, by = run(
        "tgus-t2",
        [
            play("A", "red-7"),
            {"type": "call", "player": "A", "name": "Reimu"},
            {"type": "catch", "player": "B", "target": "A"},
        ],
        hand_size=2,
    )
    assert by[3][0].ruling == "ok" and "Reimu" in by[3][0].text
    assert by[4][0].ruling == "info"


def test_plain_uno_counts_in_t1_but_not_in_t2():
    events = [
        play("A", "red-7"),
        {"type": "uno", "player": "A"},
        {"type": "catch", "player": "B", "target": "A"},
    ]
    _, by = run("tgus-t1", events, hand_size=2)
    assert by[3][0].ruling == "ok" and by[4][0].ruling == "info"
    _, by = run("tgus-t2", events, hand_size=2)
    assert kinds(by[3]) == [("illegal", "tgus-t2.uno-call")]
    assert by[4][0].ruling == "penalty"


def test_catch_is_too_late_once_the_next_player_acted():
    _, by = run(
        "tgus-t1",
        [
            play("A", "red-7"),
            play("B", "red-8"),
            {"type": "catch", "player": "C", "target": "A"},
        ],
        hand_size=2,
    )
    assert by[4][0].ruling == "info" and "no longer" in by[4][0].text


def test_going_out_with_two_cards_needs_no_call():
    state, by = run(
        "tgus-t1",
        [play("A", "red-7", "blue-7"), {"type": "catch", "player": "B", "target": "A"}],
        hand_size=2,
    )
    assert ("ok", "tgus-t1.going-out") in kinds(by[2])
    assert by[3][0].ruling == "info" and state["ranking"] == ["A"]


def test_no_challenge_of_wild_hit4():
    state, by = run(
        "tgus-t1",
        [play("A", "wild-hit4", color="blue"), {"type": "challenge", "player": "B"}],
    )
    assert kinds(by[3]) == [("info", "tgus-t1.no-challenge")]
    assert (state["pending_draw"], state["pending_target"]) == (4, "B")


# -- colour rights -------------------------------------------------------------------
def test_wild_colour_is_named_by_its_player_only():
    state, by = run(
        "tgus-t1",
        [
            play("A", "wild"),
            {"type": "color", "player": "B", "color": "green"},
            {"type": "color", "player": "A", "color": "blue"},
        ],
    )
    assert by[2][0].ruling == "pending"
    assert by[3][0].ruling == "illegal"
    assert by[4][0].ruling == "ok" and state["color"] == "blue"


def test_replace_swaps_hands_and_its_player_names_the_colour():
    state, by = run(
        "tgus-t1", [play("A", "replace", target="C", color="yellow")], hand_size=6
    )
    assert by[2][0].rule == "tgus-t1.replace"
    assert state["hand_counts"] == {"A": 6, "B": 6, "C": 5}
    assert state["color"] == "yellow" and state["turn"] == "B"


def test_change_colour_is_named_by_its_target():
    events = [
        play("A", "change", target="C"),
        {"type": "color", "player": "A", "color": "blue"},
        play("B", "red-7"),
        {"type": "color", "player": "C", "color": "green"},
    ]
    state, by = run("tgus-t1", events)
    assert by[2][0].ruling == "pending"
    assert by[3][0].ruling == "illegal"  # A played it, C names the colour
    assert kinds(by[4]) == [("illegal", "tgus-t1.change")]  # nobody plays meanwhile
    assert kinds(by[5]) == [("ok", "tgus-t1.change")]
    assert state["color"] == "green" and state["turn"] == "B"
    assert state["hand_counts"] == {"A": 6, "B": 7, "C": 7}


def test_counter_bounces_change_and_counter_on_counter():
    events = [
        play("A", "change", target="C"),
        play("C", "counter"),  # back to A, C names
        {"type": "color", "player": "A", "color": "blue"},  # not A's right now
        play("A", "counter"),  # back to C, A names
        {"type": "color", "player": "A", "color": "yellow"},
    ]
    state, by = run("tgus-t1", events)
    assert by[3][0].rule == "tgus-t1.counter" and by[3][0].ruling == "pending"
    assert by[4][0].ruling == "illegal"
    assert by[5][0].rule == "tgus-t1.counter"
    assert by[6][0].ruling == "ok" and "C's hand is changed" in by[6][0].text
    assert state["color"] == "yellow"
    assert state["hand_counts"] == {"A": 5, "B": 7, "C": 6}


def test_change_may_not_target_a_big_hand():
    _, by = run(
        "tgus-t1", [play("A", "change", target="C")], options={"change_limit": 7}
    )
    assert kinds(by[2]) == [("illegal", "tgus-t1.change-limit")]


def test_counter_with_nothing_to_answer_is_illegal():
    _, by = run("tgus-t1", [play("A", "counter")])
    assert kinds(by[2]) == [("illegal", "tgus-t1.counter")]


# -- precedence ----------------------------------------------------------------------
def test_t1_precedence_higher_may_answer_lower_not_the_reverse():
    events = [
        play("A", "red-hit2"),
        play("B", "wild-hit4", color="red"),
        play("C", "blue-hit2"),
        draw("C", 6),
    ]
    state, by = run("tgus-t1", events)
    assert (by[3][0].player, by[3][0].draw) == ("C", 6)
    assert kinds(by[4]) == [("illegal", "tgus-t1.precedence")]
    assert by[5][0].rule == "tgus-t1.precedence" and by[5][0].draw == 6
    assert state["hand_counts"] == {"A": 6, "B": 6, "C": 13}
    assert state["turn"] == "A" and state["pending_draw"] == 0


def test_reverse_hit2_answers_hit2_and_sends_it_back():
    state, _ = run("tgus-t1", [play("A", "red-hit2"), play("B", "blue-reverse-hit2")])
    assert (state["pending_draw"], state["pending_target"]) == (4, "A")
    assert state["direction"] == -1


def test_nothing_but_counter_answers_counter():
    events = [
        play("A", "red-hit2"),
        play("B", "counter"),
        play("A", "wild-hit-x"),
        play("A", "counter"),
    ]
    state, by = run("tgus-t1", events)
    assert kinds(by[4]) == [("illegal", "tgus-t1.precedence")]
    assert by[5][0].rule == "tgus-t1.counter"
    assert (state["pending_draw"], state["pending_target"]) == (2, "B")


def test_gamble_keeps_the_rank_of_the_effect_it_names():
    events = [
        play("A", "wild-hit4", color="red"),
        play("B", "gamble", effect="hit2", color="red"),
    ]
    _, by = run("tgus-t1", events)
    assert kinds(by[3]) == [("illegal", "tgus-t1.precedence")]


def test_gamble_as_skip():
    state, by = run("tgus-t1", [play("A", "gamble", effect="skip", color="blue")])
    assert by[2][0].rule == "tgus-t1.gamble"
    assert state["turn"] == "C" and state["color"] == "blue"


def test_t2_counter_outranks_and_all_hit2_cannot_answer_hit2():
    events = [
        play("A", "red-hit2"),
        play("B", "gamble", effect="all-hit2", color="red"),
    ]
    _, by = run("tgus-t2", events, hand_size=2)
    assert kinds(by[3]) == [("illegal", "tgus-t2.precedence")]
    state, by = run("tgus-t2", [play("A", "red-hit2"), play("B", "counter")])
    assert state["pending_rank"] == 5


# -- ranking -------------------------------------------------------------------------
def test_play_goes_on_until_one_player_is_left():
    events = [play("A", "red-7"), play("B", "red-8"), play("C", "red-9")]
    state, by = run("tgus-t1", events, hand_size=1)
    assert kinds(by[2]) == [("ok", "tgus-t1.play"), ("ok", "tgus-t1.going-out")]
    end = by[3][-1]
    assert (end.ruling, end.rule) == ("game-end", "tgus-t1.game-end")
    assert end.extra["ranking"] == ["A", "B", "C"]
    assert state["over"] and state["winner"] == "A" and state["scores"]["A"] == 1
    assert by[4][0].ruling == "info"  # nothing after the end counts


def test_t2_last_player_names_a_character():
    events = [play("A", "red-7"), play("B", "red-8")]
    _, by = run("tgus-t2", events, players=("A", "B", "C"), hand_size=1)
    assert "favourite character" in by[3][-1].text
    _, by = run("tgus-t1", events, players=("A", "B", "C"), hand_size=1)
    assert "favourite character" not in by[3][-1].text


def test_a_new_start_after_the_end_begins_round_two_and_keeps_the_wins():
    events = [play("A", "red-7"), play("B", "red-8"), START, play("A", "red-6")]
    state, by = run("tgus-t1", events, hand_size=1)
    assert by[2][-1].extra["place"] == 1
    assert by[4][-1].rule == "tgus-t1.start" and state["rounds"] == 2
    assert state["scores"] == {"A": 2, "B": 0, "C": 0}
    assert state["ranking"] == ["A"] and not state["over"]


# -- bad input and miscounts -----------------------------------------------------------
def test_unknown_event_type_and_bad_player_do_not_stop_the_game():
    events = [{"type": "dance", "player": "A"}, play("Z", "red-7"), play("A", "red-7")]
    state, by = run("tgus-t1", events)
    assert kinds(by[2]) == [("info", "tgus-t1.unknown-event")]
    assert by[3][0].rule == "log.malformed" and "'Z'" in by[3][0].text
    assert by[4][0].ruling == "ok" and state["hand_counts"]["A"] == 6


def test_more_cards_played_than_counted_corrects_the_count():
    state, by = run("tgus-t1", [play("A", "red-7", "blue-7", "green-7")], hand_size=2)
    assert ("info", "tgus-t1.count") in kinds(by[2])
    assert state["hand_counts"]["A"] == 0
    assert sum(state["hand_counts"].values()) + state["pile"] + state["discards"] == 122


def test_more_cards_drawn_than_the_pile_holds_corrects_the_count():
    # 24-card deck: 21 dealt, 1 start card, 2 in the pile: the second 2 are not there
    events = [
        {"type": "catch", "player": "B", "target": "A", "for": "leftover"},
        draw("A", 2),
        {"type": "picture-leftover", "player": "A"},
        draw("A", 2),
    ]
    state, by = run("tgus-t1", events, options={"deck_size": 24})
    assert ("info", "tgus-t1.pile") in kinds(by[5])
    assert state["pile"] == 0 and state["hand_counts"]["A"] == 11


def test_a_player_who_went_out_can_no_longer_be_caught():
    # two Skips with three players come back to A, who goes out on the last card
    events = [
        play("A", "red-skip", "blue-skip"),
        play("A", "blue-6"),
        {"type": "catch", "player": "B", "target": "A"},
    ]
    state, by = run("tgus-t1", events, hand_size=3)
    assert state["ranking"] == ["A"]
    assert by[4][0].ruling == "info" and "gone out" in by[4][0].text
    assert state["owed"] == {}


def test_gamble_own_effect_makes_the_hand_two_cards():
    state, by = run("tgus-t1", [play("A", "gamble", effect="hand2", color="red")])
    assert by[2][0].rule == "tgus-t1.gamble" and "under the pile" in by[2][0].text
    # 7 - the Gamble = 6: 4 go under the pile; 122 - 21 dealt - 1 start + 4
    assert state["hand_counts"]["A"] == 2 and state["pile"] == 104
    state, by = run(
        "tgus-t1", [play("A", "gamble", effect="hand2", color="red")], hand_size=2
    )
    assert state["owed"] == {"A": 1}


def test_no_picture_card_but_draw_cards_answers_a_pending_hit():
    for card in ("red-skip", "red-reverse", "wild", "change"):
        events = [play("A", "red-hit2"), play("B", card, color="red", target="C")]
        state, by = run("tgus-t2", events)
        assert kinds(by[3]) == [("illegal", "tgus-t2.precedence")], card
        assert state["pending_target"] == "B"
