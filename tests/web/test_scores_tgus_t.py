"""A tgus-t game's pages answer with its scoreboard: its state counts its
rounds with a number, not a list of round records, and the board reads it as
no finished round records (the page never answers 5xx)."""

from __future__ import annotations

import pytest

from web.scores import build_board

TGUS_T = {"game": "uno", "rules": "tgus-t1", "players": ["A", "B", "C"],
          "dealer": "C", "hand_size": 5, "options": {}}


def test_board_of_a_round_count_has_no_rounds():
    board = build_board({"players": ["A", "B"], "rounds": 2,
                         "scores": {"A": 3, "B": 0}}, {"options": {}})
    assert board.rounds == []
    assert board.totals == {"A": 3, "B": 0}


@pytest.mark.parametrize("path", ["/", "/table", "/scores",
                                  "/partials?view=table",
                                  "/partials?view=referee"])
def test_tgus_t_pages_answer(client, path):
    assert client.post("/api/games", json=TGUS_T).status_code == 201
    assert client.post("/api/events", json={"type": "start", "card": "red-5"}
                       ).status_code < 300
    r = client.get(path)
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
