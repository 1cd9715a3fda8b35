"""A stranger whose browser reads Japanese (no ``?lang=``, no cookie: only
``Accept-Language``) gets the referee's page in Japanese, and an event the
referee refuses is said in the status bar in Japanese, in one sentence."""

from __future__ import annotations

import threading

import pytest
from browser_support import TIMEOUT, needs_chromium

from web import create_app
from web.errors import ERRORS

pytestmark = needs_chromium
pytest.importorskip("playwright.sync_api")


@pytest.fixture
def served(tmp_path):
    from werkzeug.serving import make_server

    app = create_app({"DATABASE": str(tmp_path / "db" / "tableref.sqlite3"),
                      "EVIDENCE_DIRS": [str(tmp_path / "evidence")],
                      "SSE_HEARTBEAT": 0.5, "SSE_SECONDS": 30})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield app, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.socket.close()


def test_a_japanese_browser_is_told_why_in_japanese(browser, served):
    app, base = served
    client = app.test_client()
    assert client.post("/api/games", json={"game": "uno", "rules": "official",
                                           "players": ["A", "B", "C"]}).status_code == 201
    context = browser.new_context(locale="ja-JP", viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    answers: list[int] = []
    page.on("response", lambda r: answers.append(r.status))
    try:
        page.goto(base + "/")
        assert page.locator("html").get_attribute("lang") == "ja"
        form = page.locator("form.raw-event")
        form.locator("input[name=event]").fill('{"type": "play", "player": 5}')
        form.locator("button[type=submit]").click()
        status = page.locator("#status.bad")
        status.wait_for()
        said = ERRORS["not_text"]["ja"].format(name="player", got_type="整数")
        assert said in status.text_content()
        form.locator("input[name=event]").fill('{"type": "play", "player": "A\\u0007"}')
        form.locator("button[type=submit]").click()
        page.wait_for_function(
            "() => document.getElementById('status').textContent.includes('U+0007')")
        assert "制御文字" in page.locator("#status").text_content()
        assert 400 in answers and not [s for s in answers if s >= 500]
        assert client.get("/api/events").get_json()["events"] == []  # nothing recorded
    finally:
        context.close()
