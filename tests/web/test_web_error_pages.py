"""A page a browser asked for and the server refused (an unknown address or
method, a frame that is not there) says so first in the viewer's language,
then gives the server's own words; an English viewer reads those alone."""

from __future__ import annotations

import re
from html import escape

import pytest

from web import create_app
from web.errors import ERRORS, say
from web.i18n import MESSAGES
from web.memstore import MemoryStore

JA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.fixture
def client():
    return create_app({"TESTING": True, "STORE": MemoryStore()}).test_client()


def section(resp) -> str:
    found = re.search(r'<section class="panel error">(.*?)</section>',
                      resp.get_data(as_text=True), re.S)
    assert found, resp.get_data(as_text=True)[:200]
    return found.group(1)


@pytest.mark.parametrize("method, url, code", [
    ("GET", "/no/such/page", 404),
    ("GET", "/nope%00", 404),
    ("TRACE", "/table", 405),
    ("POST", "/scores", 415),  # the guard: a body must be JSON
    ("GET", "/evidence/7", 404),
])
def test_a_refused_page_says_why_in_the_viewers_language(client, method, url, code):
    sep = "&" if "?" in url else "?"
    resp = client.open(f"{url}{sep}lang=ja", method=method)
    assert resp.status_code == code
    text = section(resp)
    said = re.search(r'<p class="said">(.*?)</p>', text)
    asked = client.open(f"{url}{sep}lang=ja", method=method,
                        headers={"Accept": "application/json"}).get_json()
    assert said and said.group(1) == escape(asked["message"])
    if asked["code"] in ERRORS:  # a refusal of its own, not the status's
        assert asked["message"] != say(f"http_{code}", "ja")
    assert JA.search(said.group(1)) and said.group(1).endswith("。")
    assert re.search(r'<p class="detail" lang="en">\S', text)  # the server's words
    resp = client.open(f"{url}{sep}lang=en", method=method)
    assert resp.status_code == code
    assert 'class="said"' not in section(resp)


def test_every_error_sentence_is_in_both_languages():
    keys = [k for k in MESSAGES if k.startswith("http_")]
    assert "http_4xx" in keys and len(keys) >= 8
    for key in keys:
        en, ja = MESSAGES[key]["en"], MESSAGES[key]["ja"]
        assert en.endswith(".") and en.count(". ") == 0
        assert ja.endswith("。") and ja.count("。") == 1 and JA.search(ja)


def test_fragments_asked_twice_or_blank_are_rendered_once_or_refused(client):
    """``/partials`` renders each fragment asked once (a long list of one
    name is no work multiplied), skips blank names (a trailing comma), and
    refuses a list with no name with a 400 that lists the fragments."""
    assert client.post("/api/games", json={"game": "uno", "players": ["A", "B"]}
                       ).status_code == 201
    resp = client.get("/partials?view=table&names=" + "rulings," * 300)
    assert resp.status_code == 200
    assert list(resp.get_json()) == ["rulings"]
    resp = client.get("/partials?view=table&names=,%20,",
                      headers={"Accept": "application/json"})
    assert resp.status_code == 400
    assert "rulings" in resp.get_json()["message"]
