"""The bundled demo as a viewer reads it on the page: the demo table's log,
taken as ``serve`` takes it where the camera cannot run (each line a camera
event, completed by the camera path), then every ruling on the referee view
and on the table view, in English and in Japanese, names its rule and
explains itself in one short sentence in the viewer's language, and both
views show every ruling. (What the table view hides is checked on games
that hide cards: test_web_security_leaks, test_web_lang_rulings.)"""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

import pytest

from web import create_app
from web.camera import Camera, read_demo_log
from web.commands import _camera_ended, _camera_event
from web.memstore import MemoryStore

TOKEN = "t0ken"
JA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
#: English words a Japanese sentence may not hold (names and card labels aside)
ENGLISH = re.compile(r"\b(?:the|is|was|and|of|to|plays?|draws?|turn|card|cards)\b",
                     re.IGNORECASE)
SHORT = {"en": 160, "ja": 90}  # characters in one short sentence


class Rulings(HTMLParser):
    """The ``#rulings`` list's items: each one's rule, kind and sentence."""

    def __init__(self) -> None:
        super().__init__()
        self.items: list[dict[str, str]] = []
        self._part: str | None = None

    def handle_starttag(self, tag, attrs):
        cls = dict(attrs).get("class") or ""
        if tag == "li" and "ruling" in cls.split():
            self.items.append({"kind": dict(attrs).get("data-kind", ""),
                               "rule": "", "text": "", "head": ""})
        elif self.items and tag in ("span", "code"):
            names = cls.split()
            self._part = ("rule" if "rule" in names else "text" if "text" in names
                          else "head" if "kind" in names else None)

    def handle_endtag(self, tag):
        if tag in ("span", "code"):
            self._part = None

    def handle_data(self, data):
        if self._part is not None and self.items:
            self.items[-1][self._part] += data


@pytest.fixture(scope="module")
def demo():
    from vision import pipeline

    header, events = read_demo_log(pipeline.DEMO_LOG)
    app = create_app({"TESTING": True, "STORE": MemoryStore(), "TOKEN": TOKEN})
    client = app.test_client()
    resp = client.post("/api/games", json={k: v for k, v in header.items() if k != "type"},
                       headers={"X-Tableref-Token": TOKEN})
    assert resp.status_code == 201
    table = app.extensions["tableref.table"]
    table.camera = camera = Camera()
    for event in events:
        _camera_event(table, camera, {**event, "source": "vision"})
    _camera_ended(table, camera)
    assert not camera.refused, camera.last_refusal
    assert table.referee.state()["over"]
    return client


def rulings(client, url: str) -> list[dict[str, str]]:
    resp = client.get(url, follow_redirects=True)  # the token kept in a cookie
    assert resp.status_code == 200, url
    parser = Rulings()
    parser.feed(resp.get_data(as_text=True))
    return parser.items


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_ruling_of_the_demo_names_its_rule_in_one_short_sentence(demo, lang):
    views = {"referee": f"/?lang={lang}&token={TOKEN}", "table": f"/table?lang={lang}"}
    shown = {view: rulings(demo, url) for view, url in views.items()}
    count = len(demo.get("/api/rulings").get_json()["rulings"])
    assert count > 40
    wrong = []
    for view, items in shown.items():
        assert len(items) == count, view
        for item in items:
            text = unescape(item["text"]).strip()
            why = []
            if not re.fullmatch(r"[a-z0-9-]+(?:\.[a-z0-9-]+)+", item["rule"].strip()):
                why.append("no rule")
            if lang == "en" and len(re.findall(r"[.!?](?=\s|$)", text)) != 1:
                why.append("not one sentence")
            if lang == "ja" and not text.endswith(("。", "）")):
                why.append("not a whole sentence")
            if len(text) > SHORT[lang]:
                why.append(f"{len(text)} characters")
            if lang == "ja" and (not JA.search(text) or ENGLISH.search(text)):
                why.append("not Japanese")
            if lang == "en" and JA.search(text + item["head"]):
                why.append("Japanese in English")
            if why:
                wrong.append((view, item["rule"], text, why))
    assert wrong == []


def test_every_japanese_ruling_of_the_demo_is_one_sentence(demo):
    items = rulings(demo, "/table?lang=ja")
    several = [unescape(i["text"]).strip() for i in items
               if len(re.findall(r"[。！？]", unescape(i["text"]).strip())) != 1]
    assert several == []
