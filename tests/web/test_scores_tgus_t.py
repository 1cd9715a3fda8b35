"""A tgus-t state counts its rounds with a number, not a list of round
records: the scoreboard reads it as no finished round records (its pages
answered 500 once the game started; every game's pages:
test_web_pages_every_game)."""

from __future__ import annotations

from web.scores import build_board


def test_board_of_a_round_count_has_no_rounds():
    board = build_board({"players": ["A", "B"], "rounds": 2,
                         "scores": {"A": 3, "B": 0}}, {"options": {}})
    assert board.rounds == []
    assert board.totals == {"A": 3, "B": 0}
