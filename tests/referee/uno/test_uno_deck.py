"""Deck check: a card not in the game's deck is refused (rule ``<preset>.deck``).

The tgus-t deck's labels (``red-hit2``, ``counter`` ...) parse everywhere once
``referee.tgus_t`` is imported, and Wild Shuffle Hands / the white wilds exist
only in the 112-card deck; a 108-card game takes none of them. Seats A B C D,
dealer D, so A plays first (see test_uno_support).
"""

from __future__ import annotations

import pytest

import referee.tgus_t  # noqa: F401  (registers the tgus-t labels, as replay does)
from referee.cards import Card, standard_deck
from referee.uno.plays import off_deck

from test_uno_support import draw, ev, play, reveal, run, start

UNTOUCHED = {"A": 7, "B": 7, "C": 7, "D": 7}


@pytest.mark.parametrize("label", ["red-hit2", "counter", "wild-hit4",
                                   "wild-shuffle", "wild-custom"])
def test_a_play_of_a_card_outside_the_108_deck_is_taken_back(label):
    res = run([start("red-5"), play("A", label, color="red")])
    r = res.one(2)
    assert r["ruling"] == "illegal" and r["rule"] == "official.deck"
    assert r["player"] == "A"
    assert "is not a card of this game's 108-card deck" in r["text"]
    assert "takes it back" in r["text"]
    s = res.state
    assert s["top"] == "red-5" and s["turn"] == "A" and s["hand_counts"] == UNTOUCHED
    assert s["discard_pile"] == 1


def test_the_turn_goes_on_after_the_refused_card():
    res = run([start("red-5"), play("A", "red-hit2"), play("A", "red-7")])
    assert res.one(3)["ruling"] == "ok" and res.state["top"] == "red-7"
    assert res.state["turn"] == "B" and res.state["hand_counts"]["A"] == 6


def test_one_foreign_card_in_a_multi_play_refuses_the_whole_play():
    res = run([start("red-5"), play("A", "red-7", "red-hit2")],
              options={"multi_play": "same"})
    r = res.one(2)
    assert r["rule"] == "official.deck" and "red hit2" in r["text"]
    assert res.state["hand_counts"] == UNTOUCHED


def test_the_112_deck_takes_shuffle_hands_and_white_wilds():
    res = run([start("red-5"), play("A", "wild-custom", color="blue"),
               play("B", "wild-shuffle", color="green")], options={"deck": 112})
    assert res.kinds(2) == ["ok"] and res.kinds(3) == ["ok"]
    assert res.state["color"] == "green"


def test_the_112_deck_still_refuses_the_tgus_t_cards():
    res = run([start("red-5"), play("A", "counter")], options={"deck": 112})
    r = res.one(2)
    assert r["rule"] == "official.deck" and "112-card deck" in r["text"]


def test_tgus_1_plays_the_108_deck_without_shuffle_hands_or_white_wilds():
    res = run([start("red-5"), ev("direction", direction=1),
               play("A", "wild-shuffle", color="red"),
               play("A", "wild-custom", color="red")], rules="tgus-1")
    for line in (3, 4):
        r = res.one(line, "tgus-1.deck")
        assert r["ruling"] == "illegal" and "108-card deck" in r["text"]
    assert res.state["hand_counts"] == UNTOUCHED and res.state["top"] == "red-5"


def test_tgus_2_plays_the_112_deck():
    res = run([start("red-5"), play("A", "wild-shuffle", color="red")], rules="tgus-2")
    assert not res.with_rule("tgus-2.deck")
    assert res.state["top"] == "wild-shuffle"


def test_a_start_with_a_foreign_card_is_ignored_and_another_is_turned():
    res = run([start("red-hit2"), play("A", "red-7"), start("red-5")])
    r = res.one(1)
    assert r["ruling"] == "info" and r["rule"] == "official.deck"
    assert "108-card deck" in r["text"] and "turn another card" in r["text"]
    assert res.one(2)["ruling"] == "illegal"  # no round has begun
    assert res.one(3)["ruling"] == "ok"
    assert res.state["round"] == 1 and res.state["top"] == "red-5"
    assert res.state["draw_pile"] == 108 - 28 - 1


def test_a_start_with_shuffle_hands_in_a_108_game_is_ignored():
    res = run([start("wild-shuffle")])
    assert res.one(1)["rule"] == "official.deck"
    assert res.state["phase"] == "setup" and res.state["round"] == 0


def test_a_reveal_with_a_foreign_card_must_be_shown_again():
    events = [start("red-5"), play("A", "red-7"), draw("B"), ev("pass", "B"),
              reveal("B", "red-1", "counter")]
    res = run(events, players=("A", "B"), dealer="B", hand_size=1)
    r = res.one(5)
    assert r["ruling"] == "illegal" and r["rule"] == "official.deck"
    assert r["player"] == "B" and "shows the hand again" in r["text"]
    assert res.state["phase"] == "scoring" and res.state["revealed"] == {}
    res = run(events + [reveal("B", "red-1", "blue-2")], players=("A", "B"),
              dealer="B", hand_size=1)
    assert res.state["scores"]["A"] == 3  # the good reveal scores as usual


def test_a_challenge_reveal_with_a_foreign_card_is_refused():
    res = run([start("red-5"), play("A", "wild-draw4", color="blue"),
               ev("challenge", "B"), reveal("A", "red-hit2", "blue-3")])
    r = res.one(4)
    assert r["rule"] == "official.deck" and r["player"] == "A"
    assert res.state["phase"] == "challenge"  # still waiting on a proper reveal


def test_a_face_down_card_outside_the_deck_is_taken_back():
    res = run([start("red-5"), ev("direction", direction=1),
               ev("face-down", "A", card="counter")], rules="tgus-3")
    r = res.one(3, "tgus-3.deck")
    assert r["ruling"] == "illegal" and r["player"] == "A"
    assert res.state["hand_counts"]["A"] == 7 and res.state["turn"] == "A"


def test_a_doubt_naming_a_card_outside_the_deck_waits_for_the_real_card():
    res = run([start("red-5"), ev("direction", direction=1),
               ev("face-down", "A"), ev("doubt", "B", card="red-hit2"),
               reveal("A", "blue-9")], rules="tgus-3")
    r = res.one(4, "tgus-3.deck")
    assert r["ruling"] == "illegal" and r["player"] == "A"
    settled = res.one(5, "tgus-3.doubt")
    assert settled["ruling"] == "penalty" and settled["player"] == "A"  # blue 9 on red
    assert res.state["owed"] == {"A": 4}


def test_off_deck_knows_both_decks():
    assert off_deck(standard_deck(), 108) is None
    assert off_deck(standard_deck(extra_wilds=True), 112) is None
    assert off_deck(standard_deck(extra_wilds=True), 108) == Card(None, "wild-shuffle")
    assert off_deck([Card("red", "hit2")], 112) == Card("red", "hit2")
