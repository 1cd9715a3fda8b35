"""Unit tests of the pure TGUS rule functions (referee/uno/tgus.py)."""

from __future__ import annotations

import pytest

from referee.cards import Card
from referee.uno.tgus import (
    FaceDown,
    Ranking,
    doubt_loser,
    effective_value,
    finishes_on_number,
    next_hand_sizes,
    ordinal,
    picture_only,
    shuffle_hands_counts,
    weight_by_points,
    weight_by_rank,
)

C = Card.from_label


# -- success weight ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("earned", "target", "extra"),
    [
        (0, None, 0),
        (99, None, 0),
        (100, None, 1),
        (199, None, 1),
        (200, None, 2),
        (300, None, 3),
        (400, None, 4),
        (499, None, 4),
        (500, None, 5),
        (900, None, 5),
        # by points left to the target: <=100: 1, <=70: 2, <=50: 3, <=40: 4, <=20: 5
        (0, 100, 1),
        (0, 101, 0),
        (30, 100, 2),
        (50, 100, 3),
        (60, 100, 4),
        (80, 100, 5),
        (430, 500, 4),
        (130, 200, 2),
        (480, 500, 5),
        (250, 1000, 2),
    ],
)
def test_points_table_rows(earned, target, extra):
    assert weight_by_points(earned, target) == extra


def test_rank_weight_gives_three_two_one_then_nothing():
    assert weight_by_rank(["C", "A", "D", "B"]) == {"C": 3, "A": 2, "D": 1, "B": 0}


def test_next_hand_sizes_per_mode():
    players = ["A", "B", "C", "D"]
    assert next_hand_sizes(players, 7, "none") == dict.fromkeys(players, 7)
    assert next_hand_sizes(players, 7, "rank", ranking=["B", "D", "A", "C"]) == {
        "A": 8,
        "B": 10,
        "C": 7,
        "D": 9,
    }
    assert next_hand_sizes(players, 7, "wins", wins={"A": 2, "C": 1}) == {
        "A": 9,
        "B": 7,
        "C": 8,
        "D": 7,
    }
    assert next_hand_sizes(
        players, 7, "points", points={"A": 510, "B": 120}, target=None
    ) == {"A": 12, "B": 8, "C": 7, "D": 7}
    assert next_hand_sizes(players, 7, "wins", wins={"A": 5}, limit=10)["A"] == 10
    with pytest.raises(ValueError, match="success-weight mode"):
        next_hand_sizes(players, 7, "luck")


# -- ranking ---------------------------------------------------------------------------
def test_ranking_until_one_left():
    r = Ranking(("A", "B", "C", "D"))
    assert r.finish("C") == 1
    assert r.finish("A") == 2
    assert not r.done and r.remaining == ("B", "D")
    assert r.finish("D") == 3
    assert r.done and r.full() == ["C", "A", "D", "B"]
    with pytest.raises(ValueError, match="already went out in place 1"):
        r.finish("C")
    with pytest.raises(ValueError, match="not a player"):
        r.finish("Z")


def test_ranking_of_a_stopped_game_orders_the_rest_by_hand_points():
    r = Ranking(("A", "B", "C", "D"))
    r.finish("B")
    assert r.full({"A": 40, "C": 12, "D": 40}) == ["B", "C", "A", "D"]


def test_ordinals():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
    ]


# -- plays -----------------------------------------------------------------------------
def test_picture_only_hand():
    assert picture_only([C("RS"), C("W"), C("BD2")])
    assert not picture_only([C("RS"), C("B0")])
    assert not picture_only([])  # an empty hand went out; nothing to draw


def test_finish_on_number():
    assert finishes_on_number([C("R5"), C("B5")])
    assert not finishes_on_number([C("RS")])
    assert not finishes_on_number([C("W")])
    assert not finishes_on_number([])


def test_white_wild_effects():
    wc = C("wild-custom")
    assert effective_value(wc, "draw2", "all-mighty") == "draw2"
    assert effective_value(wc, None, "all-mighty") == "wild"
    assert effective_value(wc, "draw2", "downpour") == "wild-custom"
    assert effective_value(C("R5"), "draw2", "all-mighty") == "5"
    with pytest.raises(ValueError, match="may act as"):
        effective_value(wc, "7", "all-mighty")


# -- face down / doubt -----------------------------------------------------------------
def test_doubt_loser():
    fd = FaceDown("B", C("R7"), "red", 5)
    assert doubt_loser(fd, C("G7"), "C") == ("C", True)
    assert doubt_loser(fd, C("G3"), "C") == ("B", False)
    assert doubt_loser(fd, C("W4"), "C") == ("C", True)


def test_shuffle_hands_counts():
    counts = {"A": 3, "B": 0, "C": 6, "D": 2}  # 11 cards, B played the Shuffle
    assert shuffle_hands_counts(counts, ["A", "B", "C", "D"], "B", 1) == {
        "C": 3,
        "D": 3,
        "A": 3,
        "B": 2,
    }
    assert shuffle_hands_counts(counts, ["A", "B", "C", "D"], "B", -1) == {
        "A": 3,
        "D": 3,
        "C": 3,
        "B": 2,
    }
