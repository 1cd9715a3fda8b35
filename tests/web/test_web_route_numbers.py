"""Every route whose address holds a number (a line, a game), sent numbers
no log or store has (0, SQLite's largest id and the next, a 30-digit one),
on the durable store and in memory: a 4xx that says why, never a 5xx (a
game id past SQLite's INTEGER was a 500)."""

from __future__ import annotations

import re

import pytest

from web import create_app
from web.memstore import MemoryStore

NUMBERS = [0, 2**63 - 1, 2**63, 10**30]
UNO = {"game": "uno", "rules": "official", "players": ["A", "B", "C"]}


def numbered(app):
    """(method, rule) of each route with a number in its address."""
    for rule in app.url_map.iter_rules():
        if "<int:" not in rule.rule:
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            yield method, rule.rule


@pytest.mark.parametrize("durable", [True, False], ids=["sqlite", "memory"])
def test_no_number_in_an_address_makes_a_server_error(tmp_path, durable):
    config = {"TESTING": True, "EVIDENCE_DIRS": [str(tmp_path / "evidence")]}
    if durable:
        config["DATABASE"] = str(tmp_path / "db.sqlite3")
    else:
        config["STORE"] = MemoryStore()
    app = create_app(config)
    client = app.test_client()
    assert client.post("/api/games", json=UNO).status_code == 201
    assert client.post("/api/events", json={"type": "start", "card": "red-7"}
                       ).status_code == 201
    routes = list(numbered(app))
    assert len(routes) >= 7
    wrong = []
    for method, rule in routes:
        for number in NUMBERS:
            url = re.sub(r"<int:[^>]+>", str(number), rule)
            resp = client.open(url, method=method,
                               json=None if method in ("GET", "DELETE") else
                               {"type": "pass", "player": "A", "answer": "x",
                                "digest": "x"},
                               headers={"Accept": "application/json"})
            data = resp.get_json(silent=True) or {}
            if not 400 <= resp.status_code < 500 or not str(data.get("message", "")).strip():
                wrong.append((method, url[:60], resp.status_code))
    assert wrong == []
    assert client.get("/api/state").status_code == 200
    assert len(client.get("/api/events").get_json()["events"]) == 1
