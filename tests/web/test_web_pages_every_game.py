"""Every registered game and preset shows its pages (the table, the referee's
view, the scoreboard, the partials, the API's views) with no 5xx: just set
up, and after a first line of the log. Each game's state has keys of its own
(a tgus-t game counts its rounds with a number), and the pages read them all."""

from __future__ import annotations

import pytest

from web.table import game_presets

PAGES = ("/", "/table", "/scores", "/partials?view=table", "/partials?view=referee",
         "/api/state", "/api/public", "/api/rulings",
         "/api/events", "/api/questions", "/api/games")

#: a first line for each game's log (the first the referee accepts is kept)
FIRST = ({"type": "start", "card": "red-5"},
         {"type": "limit", "card": "red-2"},
         {"type": "play", "player": "A", "cards": ["red-5"]})

PRESETS = [(game, preset) for game, presets in game_presets() for preset in presets]


def test_every_game_is_registered():
    games = {game for game, _ in PRESETS}
    assert {"uno", "junocos", "narabe-runo", "overflow"} <= games
    assert {"official", "tgus-1", "tgus-t1", "tgus-t2"} <= {p for _, p in PRESETS}


def _pages(client) -> dict[str, int]:
    return {path: client.get(path).status_code for path in PAGES}


@pytest.mark.parametrize("game,preset", PRESETS)
def test_pages_answer_for_every_game(client, game, preset):
    header = {"game": game, "rules": preset, "players": ["A", "B", "C"]}
    made = client.post("/api/games", json=header)
    assert made.status_code == 201, made.get_data(as_text=True)[:300]
    pages = _pages(client)
    assert all(code == 200 for code in pages.values()), [p for p, c in pages.items() if c != 200]
    taken = [client.post("/api/events", json=e).status_code for e in FIRST]
    assert all(code < 500 for code in taken), taken
    assert any(code < 300 for code in taken), (game, preset, taken)
    pages = _pages(client)
    assert all(code == 200 for code in pages.values()), pages
