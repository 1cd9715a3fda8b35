"""Card labels, short forms, points and decks (spec: "Card labels")."""

from __future__ import annotations

from collections import Counter

import pytest

from referee.cards import CLASSES, Card, CardError, parse_cards, standard_deck


@pytest.mark.parametrize(("text", "label"), [
    ("red-7", "red-7"), ("R7", "red-7"), ("r7", "red-7"), ("YS", "yellow-skip"),
    ("GR", "green-reverse"), ("BD2", "blue-draw2"), ("W", "wild"), ("w4", "wild-draw4"),
    ("wild-shuffle", "wild-shuffle"), ("WC", "wild-custom"), (" Blue-0 ", "blue-0"),
])
def test_labels_and_short_forms_parse(text, label):
    assert Card.from_label(text).label == label


@pytest.mark.parametrize("card", CLASSES)
def test_label_and_short_round_trip(card):
    c = Card.from_label(card)
    assert Card.from_label(c.label) == c and Card.from_label(c.short) == c


@pytest.mark.parametrize(
    "bad", ["", "red", "red-10", "purple-3", "R10", "X", "W5", 7, None])
def test_unknown_labels_raise_card_error(bad):
    with pytest.raises(CardError):
        Card.from_label(bad)


def test_points_follow_001():
    assert Card.from_label("R7").points == 7 and Card.from_label("B0").points == 0
    assert {Card.from_label(x).points for x in ("RS", "GR", "YD2")} == {20}
    assert {Card.from_label(x).points for x in ("W", "W4")} == {50}


def test_decks_have_108_and_112_cards():
    deck = standard_deck()
    assert len(deck) == 108 and len(standard_deck(extra_wilds=True)) == 112
    counts = Counter(c.label for c in deck)
    assert counts["red-0"] == 1 and counts["red-5"] == 2 and counts["blue-draw2"] == 2
    assert counts["wild"] == 4 and counts["wild-draw4"] == 4
    assert sum(c.points for c in deck) == 4 * (2 * 45 + 6 * 20) + 8 * 50


def test_parse_cards_wants_a_list():
    assert [c.label for c in parse_cards(["R1", "W"])] == ["red-1", "wild"]
    with pytest.raises(CardError):
        parse_cards("R1")
