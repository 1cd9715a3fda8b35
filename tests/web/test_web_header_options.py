"""A new game from the page refuses a header option its preset does not have, or a bad value."""

from __future__ import annotations

import pytest

UNO = {"type": "header", "game": "uno", "preset": "official", "players": ["Aiko", "Ben", "Chie"]}


@pytest.mark.parametrize("options, named", [({"nope": 1}, "nope"), ({"stacking": "x"}, "stacking")])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_bad_option_refuses_the_new_game(client, options, named, lang):
    resp = client.post(f"/api/games?lang={lang}", json={**UNO, "options": options})
    assert resp.status_code == 400
    body = resp.get_json()
    assert body["code"] == "game_refused"
    assert named in body["message"]
    if lang == "ja":
        assert any("\u3040" <= ch <= "\u30ff" for ch in body["message"])
    # nothing was started: the page still has no game
    assert client.get("/api/games").get_json()["games"] == []


def test_good_option_starts_the_game(client):
    resp = client.post("/api/games", json={**UNO, "options": {"stacking": True}})
    assert resp.status_code == 201, resp.get_json()
