"""Issue 26: every ruling said in the viewer's language, and no hidden card in it.

A ruling's JSON carries ``text`` (English) and, where its game writes its
sentences as messages (:mod:`referee.text`), ``msg``; the page renders ``msg``
in the viewer's language (``?lang=ja`` or the language cookie) and shows the
English ``text`` of a ruling without one. The fake ``webtest`` game writes
plain English; a pass is made to say a message here so that both kinds meet
on one page. The table view re-words a ruling that would name a hidden card,
its ``msg`` included, in both languages.
"""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from webtest_game import WebTestGame, header

from referee.text import Text, card, cards, define, render_data
from web import create_app
from web.display import said
from web.memstore import MemoryStore

define({
    "webtest.lang-pass": {
        "en": "{player} passes; the {top} stays on top.",
        "ja": "{player}はパスします。{top}が場に残ります。",
    },
    "webtest.lang-reveal": {
        "en": "{player} shows {cards} to the challenger.",
        "ja": "{player}はチャレンジした人に{cards}を見せます。",
    },
})

PASS_JA = "はパスします。黄のドロー2が場に残ります。"
PASS_EN = "passes; the yellow Draw Two stays on top."


@pytest.fixture
def spoken(monkeypatch):
    """The webtest game says its passes and reveals as messages; the rest in English."""
    plain = WebTestGame.apply

    def apply(self, event):
        out = plain(self, event)
        if event.type == "pass":
            player = event.player or self.players[(self.turn_i - 1) % len(self.players)]
            said_ = Text("webtest.lang-pass", player=player, top=card(self.top))
            out = [r.with_text(said_) for r in out]
        elif event.type == "reveal":
            said_ = Text("webtest.lang-reveal", player=event.player,
                         cards=cards(event.get("cards") or []))
            out = [r.with_text(said_) for r in out]
        return out

    monkeypatch.setattr(WebTestGame, "apply", apply)


def send(client, **event):
    resp = client.post("/api/events", json=event)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()["rulings"]


def fragment(client, name, view="table", lang=None, **kw):
    url = f"/partials?view={view}&names={name}" + (f"&lang={lang}" if lang else "")
    resp = client.get(url, **kw)
    assert resp.status_code == 200, resp.get_data(as_text=True)[:300]
    return unescape(resp.get_json()[name])


def texts(html: str, cls: str) -> list[str]:
    """The texts of the elements of class ``cls`` (one nested span allowed)."""
    found = re.findall(
        rf'<(?:span|p) class="{cls}">((?:<span[^>]*>[^<]*</span>|[^<])*)</(?:span|p)>',
        html,
    )
    return [" ".join(re.sub(r"<[^>]+>", " ", t).split()) for t in found]


def test_a_japanese_viewer_reads_messages_in_japanese(client, game, spoken):
    send(client, type="start", card="yellow-draw2")
    send(client, type="pass", player="あいこ")
    rulings = client.get("/api/rulings").get_json()["rulings"]
    assert "msg" not in rulings[0] and "msg" in rulings[1]  # one of each kind
    ja = texts(fragment(client, "rulings", lang="ja"), "text")
    # newest first: the pass said from its message, the start in its English
    assert ja == ["あいこ" + PASS_JA, "The round starts on yellow-draw2."]
    en = texts(fragment(client, "rulings", lang="en"), "text")
    assert en == ["あいこ " + PASS_EN, "The round starts on yellow-draw2."]
    # English exactly as the referee wrote it
    assert en == [r["text"] for r in reversed(rulings)]


def test_the_language_cookie_and_the_whole_page(client, game, spoken):
    send(client, type="start", card="yellow-draw2")
    send(client, type="pass", player="あいこ")
    client.get("/table?lang=ja")  # the language switch sets the cookie
    page = unescape(client.get("/table").get_data(as_text=True))
    assert "あいこ" + PASS_JA in page
    assert PASS_EN not in page
    client.get("/table?lang=en")
    page = unescape(client.get("/table").get_data(as_text=True))
    assert "あいこ " + PASS_EN in page and PASS_JA not in page


def test_the_display_says_the_last_ruling_and_names_cards_as_it_does(
        client, game, spoken):
    send(client, type="start", card="yellow-draw2")
    send(client, type="pass", player="あいこ")
    html = fragment(client, "display", lang="ja")
    assert texts(html, "sentence") == ["あいこ" + PASS_JA]
    top = re.search(r'id="top-card"[^>]*>(.*?)</span>', html).group(1)
    assert top == "黄のドロー2" and top in texts(html, "sentence")[0]
    html = fragment(client, "display", lang="en")
    assert texts(html, "sentence") == ["あいこ " + PASS_EN]
    assert re.search(r'id="top-card"[^>]*>yellow Draw Two<', html)


def test_a_correction_summary_is_said_in_japanese(client, game, spoken):
    send(client, type="start", card="yellow-draw2")
    send(client, type="pass", player="あいこ")
    resp = client.put("/api/events/2", json={"type": "pass", "player": "Chie"})
    assert resp.status_code == 200
    html = fragment(client, "change", view="referee", lang="ja")
    removed = re.search(r'<ul class="removed">(.*?)</ul>', html, re.S).group(1)
    added = re.search(r'<ul class="added">(.*?)</ul>', html, re.S).group(1)
    assert "あいこ" + PASS_JA in removed and "Chie" + PASS_JA in added
    html = fragment(client, "change", view="referee", lang="en")
    assert "Chie " + PASS_EN in html


def test_a_question_says_what_stands_if_it_happened_as_logged():
    """A camera event in doubt is asked about; its refusal is shown beside it."""
    app = create_app({"TESTING": True, "STORE": MemoryStore()})
    client = app.test_client()
    uno = {"game": "uno", "players": ["A", "B", "C"], "hand_size": 7}
    assert client.post("/api/games", json=uno).status_code == 201
    send(client, type="start", card="red-7")
    asked = send(client, type="play", player="B", cards=["red-3"],
                 question="Was it B who played?")
    refused = asked[0]["refused"]
    html = fragment(client, "rulings", lang="ja")
    shown = texts(html, "refused")
    assert shown == ["記録どおりなら: " + said(refused, "ja")]
    assert "B" in shown[0]
    html = fragment(client, "rulings", lang="en")
    assert texts(html, "refused") == ["If it happened as logged: " + refused["text"]]


def test_said_falls_back_to_the_english_text():
    msg = Text("webtest.lang-pass", player="A", top=card("red-7"))
    ruling = {"text": str(msg), "msg": msg.data()}
    assert said(ruling, "ja") == "Aはパスします。赤の7が場に残ります。"
    assert said(ruling, "en") == "A passes; the red 7 stays on top."
    assert said({"text": "Plain."}, "ja") == "Plain."
    assert said({"text": "Plain.", "msg": {"key": "no.such-key"}}, "ja") == "Plain."
    assert said({"text": "Plain.", "msg": "junk"}, "ja") == "Plain."
    assert said({"refused": 1}, "ja") == "" and said(None, "ja") == ""


# -- privacy: a challenged hand shown to the challenger only -------------------------

TOKEN = "s3cret"
AUTH = {"X-Tableref-Token": TOKEN}
HAND = ["red-5", "green-2", "blue-9", "yellow-1", "green-3", "red-skip"]
SECRETS = [
    *HAND, "yellow-8",
    "red 5", "green 2", "blue 9", "yellow 1", "red Skip", "yellow 8",
    "赤の5", "緑の2", "青の9", "黄の1", "緑の3", "赤のスキップ", "黄の8",
    "赤 5", "緑 2", "青 9",
]
PUBLIC_URLS = [
    "/table?lang=en",
    "/table?lang=ja",
    "/partials?view=table&lang=en",
    "/partials?view=table&lang=ja",
    "/api/public",
    "/api/rulings",
    "/api/rulings?since=0",
]


def leaks(text: str) -> list[str]:
    return [s for s in SECRETS if s in text]


def guarded_client(game: dict, events: list[dict]):
    app = create_app({"TESTING": True, "STORE": MemoryStore(), "TOKEN": TOKEN,
                      "ALLOWED_HOSTS": None, "SSE_HEARTBEAT": 0.05,
                      "SSE_SECONDS": 0.2})
    client = app.test_client()
    assert client.post("/api/games", json=game, headers=AUTH).status_code == 201
    for event in events:
        resp = client.post("/api/events", json=event, headers=AUTH)
        assert resp.status_code == 201, resp.get_json()
    return client


def table_rulings_said(client, lang: str) -> list[str]:
    """Every public ruling's sentence, rendered from its data in ``lang``."""
    rulings = client.get("/api/rulings").get_json()["rulings"]
    return [render_data(r.get("msg"), lang, r["text"]) for r in rulings]


def test_a_hidden_hand_said_as_a_message_stays_hidden(spoken):
    """The reveal's ruling names the hand in its text and in its msg (both
    languages); the table view shows neither, in English or Japanese."""
    events = [
        {"type": "start", "card": "red-7"},
        {"type": "reveal", "player": "あいこ", "cards": HAND},
        {"type": "draw", "player": "Chie", "count": 1, "cards": ["yellow-8"]},
    ]
    client = guarded_client(header(), events)
    full = client.get("/api/rulings", headers=AUTH).get_json()["rulings"]
    assert "red-5" in json.dumps(full[1]["msg"])  # the referee's data names it
    assert "赤の5" in render_data(full[1]["msg"], "ja")
    referee_page = client.get("/partials?view=referee&names=rulings&lang=ja",
                              headers=AUTH).get_data(as_text=True)
    assert "赤の5" in unescape(referee_page)
    for url in PUBLIC_URLS:
        text = unescape(client.get(url).get_data(as_text=True))
        assert leaks(text) == [], (url, leaks(text))
    table = client.application.extensions["tableref.table"]
    last = table.feed[0][0] - 1  # the stream from the game's first message
    stream = client.get(f"/api/stream?last={last}").get_data(as_text=True)
    assert '"msg"' in stream and leaks(stream) == [], leaks(stream)
    full_stream = client.get(f"/api/stream?last={last}", headers=AUTH)
    assert "red-5" in full_stream.get_data(as_text=True)  # the referee's keeps it
    ja = table_rulings_said(client, "ja")
    en = table_rulings_said(client, "en")
    assert leaks(" ".join(ja + en)) == []
    assert ja[1] == "あいこの手札公開: テーブルビューではカードを伏せたままにします。"
    assert en[1] == "あいこ's reveal: the cards stay hidden on the table view."
    assert ja[2] == "Chieのドロー: テーブルビューではカードを伏せたままにします。"
    page = unescape(client.get("/table?lang=ja").get_data(as_text=True))
    assert ja[1] in page


def test_an_upheld_challenge_names_no_card_of_the_hand_in_either_language():
    """The real UNO engine: the challenged hand, shown to the challenger only,
    is not named on the table view in English or Japanese, text or msg."""
    events = [
        {"type": "start", "card": "red-7"},
        {"type": "play", "player": "A", "cards": ["wild-draw4"], "color": "blue"},
        {"type": "challenge", "player": "B"},
        {"type": "reveal", "player": "A", "cards": HAND},
        {"type": "draw", "player": "A", "count": 4, "cards": ["yellow-8"] * 4},
    ]
    uno = {"game": "uno", "players": ["A", "B", "C"], "hand_size": 7}
    client = guarded_client(uno, events)
    full = client.get("/api/rulings", headers=AUTH).get_json()["rulings"]
    assert "red 5" in full[3]["text"]  # the referee's ruling names the hand
    for url in PUBLIC_URLS:
        text = unescape(client.get(url).get_data(as_text=True))
        assert leaks(text) == [], (url, leaks(text))
    for lang in ("en", "ja"):
        assert leaks(" ".join(table_rulings_said(client, lang))) == []
    public = client.get("/api/rulings").get_json()["rulings"]
    upheld = public[3]
    assert upheld["hidden"] is True and upheld["draw"] == 4
    assert render_data(upheld["msg"], "ja") == (
        "Aの手札公開: テーブルビューではカードを伏せたままにします。ペナルティ: Aは4枚引きます。")
    assert render_data(upheld["msg"], "en", "") == upheld["text"]
    # a correction's summary on the table view: no card either
    fix = {"type": "reveal", "player": "A", "cards": [*HAND, "blue-4"]}
    assert client.put("/api/events/4", json=fix, headers=AUTH).status_code == 200
    for lang in ("en", "ja"):
        text = unescape(client.get(f"/partials?view=table&lang={lang}").get_data(
            as_text=True))
        assert leaks(text) == [], (lang, leaks(text))
    snap = client.application.extensions["tableref.table"].snapshot(public=True)
    change = json.dumps(snap["last_change"], ensure_ascii=False)
    assert leaks(change) == []
    for r in snap["last_change"]["removed"] + snap["last_change"]["added"]:
        assert leaks(render_data(r.get("msg"), "ja", r["text"])) == []


# -- card names: the game's deck, as the rulings name its cards -----------------------

def test_a_games_own_deck_names_its_cards_on_the_page(client, game, monkeypatch):
    """A game whose deck registers its card names (referee.text.define_cards)
    has its cards named by them on the page, as its rulings name them."""
    from referee import text

    def namer(label: str, lang: str) -> str:
        return {"en": f"the {label} card", "ja": f"{label}の札"}[lang]

    monkeypatch.setitem(text._CARD_NAMERS, "webtest", namer)
    send(client, type="start", card="red-7")
    html = fragment(client, "display", lang="ja")
    assert re.search(r'id="top-card"[^>]*>red-7の札<', html)
    html = fragment(client, "display", lang="en")
    assert re.search(r'id="top-card"[^>]*>the red-7 card<', html)
    events = fragment(client, "events", view="referee", lang="ja")
    assert "red-7の札" in events


def test_deck_of_a_header(monkeypatch):
    from referee import text
    from web.display import deck_of

    monkeypatch.setitem(text._CARD_NAMERS, "tgus-t", lambda label, lang: label)
    monkeypatch.setitem(text._CARD_NAMERS, "narabe", lambda label, lang: label)
    assert deck_of({"game": "uno", "rules": "tgus-t1"}) == "tgus-t"
    assert deck_of({"game": "narabe-runo", "rules": "narabe-runo"}) == "narabe"
    assert deck_of({"game": "uno", "rules": "official"}) == "uno"
    assert deck_of({}) == "uno" and deck_of(None) == "uno"
