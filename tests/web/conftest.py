"""Fixtures for the page's tests: an app on a memory store, a client, a game.

The fake game they play is in ``webtest_game.py`` (imported by that unique
name, never as ``conftest``).
"""

from __future__ import annotations

import pytest
from browser_support import ARGS, CHROMIUM
from webtest_game import WebTestGame, header

from web import create_app
from web.memstore import MemoryStore


@pytest.fixture(autouse=True)
def webtest_registered(monkeypatch):
    """The fake game is findable during these tests only (not in other packages')."""
    from referee import game as game_module

    registry = [c for c in game_module.games() if c is not WebTestGame]
    monkeypatch.setattr(game_module, "_REGISTRY", [*registry, WebTestGame])


@pytest.fixture
def store() -> MemoryStore:
    return MemoryStore()


@pytest.fixture
def app(store, tmp_path):
    evidence = tmp_path / "evidence"
    evidence.mkdir()
    return create_app(
        {
            "TESTING": True,
            "STORE": store,
            "SSE_HEARTBEAT": 0.05,
            "SSE_SECONDS": 0.3,
            "EVIDENCE_DIRS": [str(evidence)],
        }
    )


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def game(app, client):
    """The app with a webtest game started (line numbers start at 1)."""
    resp = client.post("/api/games", json=header())
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()["game"]


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium, headless, through Playwright (one per test module)."""
    pw = pytest.importorskip("playwright.sync_api")
    with pw.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
