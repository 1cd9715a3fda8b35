"""Every refusal of every route says why in one short sentence in the viewer's
language (English or Japanese: ``?lang=``, the cookie or ``Accept-Language``)
and keeps a stable ``code`` for clients, the same in both languages; garbage
(bad JSON, wrong types, huge ids, control characters, bytes that are no
UTF-8) never answers 5xx. The routes are read from the app's ``url_map``, so a
new route is covered without a new test."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from web import create_app
from web.enroll import MESSAGES as ENROLL_MESSAGES
from referee.text import Text
from web.errors import ERRORS, Refusal, say
from web.events import EVENT, REQUEST_BODY
from web.i18n import COOKIE, MESSAGES
from web.memstore import MemoryStore

JA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
WEB = Path(__file__).resolve().parents[2] / "web"
UNO = {"game": "uno", "rules": "official", "players": ["A", "B", "C"]}
HUGE = "9" * 30  # no SQLite id, no line, no index


def _no_camera(spec):
    raise OSError(f"no camera {spec!r} in the tests")


def make_app(**config):
    return create_app({"TESTING": True, "STORE": MemoryStore(), "SSE_HEARTBEAT": 0.02,
                       "SSE_SECONDS": 0.05, "VIDEO_SECONDS": 0.05,
                       "ENROLL_SOURCE": _no_camera, **config})


def _rules():
    for rule in make_app().url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            yield method, rule.rule


ROUTES = sorted(set(_rules()))
BODIES = {
    "none": (None, None),
    "bad-json": (b'{"type": "play", ', "application/json"),
    "not-utf8": (b'{"type": "\xff\xfe"}', "application/json"),
    "list": (b"[1, 2]", "application/json"),
    "wrong-types": (json.dumps({
        "type": 5, "player": [1], "cards": "red-7", "count": "two", "on": "yes",
        "paused": "no", "game": 3, "rules": [], "players": "ABC", "answer": {"a": 1},
        "digest": 7, "deck": None, "mode": 9, "label": [], "page": True,
        "camera": 12, "labels": 4}).encode(), "application/json"),
    "control": (json.dumps({"type": "play\x1b[2J", "player": "A\x00",
                            "deck": "k\x07"}).encode(), "application/json"),
    "surrogate": (b'{"type": "\\ud800", "deck": "\\udfff"}', "application/json"),
    "huge-number": (b'{"type": "draw", "player": "A", "count": 1e400, "page": '
                    + HUGE.encode() + b"}", "application/json"),
    "form": (b"type=play&player=A", "application/x-www-form-urlencoded"),
    "bad-options": (json.dumps({
        "type": "play", "game": "uno", "players": ["A", "B"],
        "options": {"nope": 1, "stacking": "x", "rounds": -1, "deck": [1]}}).encode(),
        "application/json"),
}
QUERY = ("?since=x&names=zz%00&view=nope&labels=" + "x" * 300
         + "&last=x&deck=%1b")


def urls(rule: str) -> list[str]:
    """The rule's address with a small, a zero and a huge number in its
    parameters (and one with garbage in the query)."""
    fill = lambda v: re.sub(r"<(?:[^:<>]+:)?[^<>]+>", v, rule)  # noqa: E731
    return [fill("1"), fill("0"), fill(HUGE) + QUERY]


def _asked_in_japanese(client, way: int, method, url, data, ctype):
    """The same request, asked in Japanese by the query, the cookie or the
    browser's ``Accept-Language`` (``way`` picks which)."""
    headers = {"Accept": "application/json"}
    if way == 0:
        url += ("&" if "?" in url else "?") + "lang=ja"
    elif way == 1:
        client.set_cookie(COOKIE, "ja")
    else:
        headers["Accept-Language"] = "ja,en;q=0.5"
    try:
        return client.open(url, method=method, data=data, content_type=ctype,
                           headers=headers)
    finally:
        client.delete_cookie(COOKIE)


def check(resp, lang: str) -> dict | str:
    """The refusal's body, or what is wrong with the answer."""
    code = resp.status_code
    if code >= 500:
        return f"{code}: {resp.get_data(as_text=True)[:160]}"
    if code < 400:
        return {}
    data = resp.get_json(silent=True)
    if not isinstance(data, dict):
        return f"{code} is no JSON: {resp.get_data(as_text=True)[:100]}"
    known = set(ERRORS) | set(ENROLL_MESSAGES) | {k for k in MESSAGES if k.startswith("http_")}
    message = data.get("message")
    if data.get("status") != code or data.get("code") not in known:
        return f"{code} without a status or a known code: {data}"
    if not isinstance(message, str) or not message.strip() or "\n" in message:
        return f"{code} without a message: {data}"
    if lang == "ja" and not JA.search(message):
        return f"{code} {data['code']} said in English to a Japanese viewer: {message}"
    if lang == "en" and JA.search(message):
        return f"{code} {data['code']} said in Japanese to an English viewer: {message}"
    return data


@pytest.mark.parametrize("started", [False, True], ids=["no-game", "game"])
@pytest.mark.parametrize("method, rule", ROUTES, ids=[f"{m} {r}" for m, r in ROUTES])
def test_every_refusal_of_a_route_says_why_in_the_viewers_language(method, rule, started):
    app = make_app()
    client = app.test_client()
    if started:
        assert client.post("/api/games", json=UNO).status_code == 201
        assert client.post("/api/events", json={"type": "start", "card": "red-7"}
                           ).status_code == 201
    wrong, way = [], 0
    for url in urls(rule):
        for name, (data, ctype) in BODIES.items():
            if method == "GET" and name != "none":
                continue
            en = client.open(url, method=method, data=data, content_type=ctype,
                             headers={"Accept": "application/json"})
            said_en = check(en, "en")
            ja = _asked_in_japanese(client, way % 3, method, url, data, ctype)
            way += 1
            said_ja = check(ja, "ja")
            for said in (said_en, said_ja):
                if isinstance(said, str):
                    wrong.append((name, url[:60], said))
            if isinstance(said_en, dict) and isinstance(said_ja, dict) and said_en:
                if (said_en.get("code"), en.status_code) != (
                        said_ja.get("code"), ja.status_code):
                    wrong.append((name, url[:60], "the code or status differs by "
                                  f"language: {said_en} / {said_ja}"))
    assert wrong == []


@pytest.mark.parametrize("method, rule", [r for r in ROUTES if r[0] != "GET"
                                          or r[1] in ("/api/state", "/api/events")],
                         ids=lambda r: str(r))
def test_a_refusal_for_want_of_the_token_is_said_in_japanese_too(method, rule):
    client = make_app(TOKEN="s3cret").test_client()
    url = urls(rule)[0]
    resp = client.open(url + "?lang=ja", method=method, json={},
                       headers={"Accept": "application/json"})
    data = resp.get_json()
    assert resp.status_code == 403 and data["code"] == "token_needed", data
    assert data["message"] == ERRORS["token_needed"]["ja"]


def test_every_refusal_is_one_sentence_in_both_languages_with_the_same_parts():
    for code, entry in ERRORS.items():
        en, ja = entry["en"], entry["ja"]
        assert en.strip() and "\n" not in en, code
        assert JA.search(ja) and ja.endswith("。") and ja.count("。") == 1, (code, ja)
        parts = lambda s: set(re.findall(r"\{(\w+)\}", s))  # noqa: E731
        assert parts(en) == parts(ja), code


def test_the_sentence_is_filled_in_and_the_known_parts_are_said_in_japanese():
    assert say("body_not_object", "ja", {"got_type": "list"}) == (
        "リクエストの本文はJSONオブジェクトにしてください（届いたのは配列です）。")
    assert say("lone_surrogate", "ja", {"what": EVENT}).startswith("イベントに")
    at = Text("page.in-field", field="player")
    assert say("control_character", "ja", {"what": REQUEST_BODY, "point": "001B",
                                           "at": at}) == (
        "リクエストの本文（'player'）に制御文字 U+001B があり、テキストではないため、"
        "普通のテキストを送ってください。")
    assert say("control_character", "en", {"what": REQUEST_BODY, "point": "001B",
                                           "at": at}) == (
        "the request body contains the control character U+001B in 'player', which "
        "is not text; send plain text")
    assert say("no_stored_game", "en", {"gid": 7}) == "there is no stored game 7"
    assert say("http_404", "ja") == MESSAGES["http_404"]["ja"]
    assert Refusal(404, "no_stored_game", gid=7).description == "there is no stored game 7"


def _literal_reasons(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", ""))
        args = list(node.args)
        if name == "fail" and len(args) >= 2:
            found.append((node.lineno, args[1]))
        elif name in ("EventError", "Refusal") and args:
            found.append((node.lineno, args[-1] if name == "Refusal" else args[0]))
        for kw in node.keywords:
            if kw.arg == "reason" and name == "TableError":
                found.append((node.lineno, kw.value))
    return [(line, arg.value) for line, arg in found
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]


def test_no_route_refuses_with_words_of_its_own():
    """Each refusal in ``web/`` names a code of the catalogue (so it has its
    Japanese sentence): no ``abort(status, "words")``, no ``TableError`` with
    a message and no reason."""
    wrong = []
    for path in sorted(WEB.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, reason in _literal_reasons(tree):
            if reason not in ERRORS:
                wrong.append(f"{path.name}:{line}: unknown refusal {reason!r}")
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name == "abort" and len(node.args) >= 2:
                wrong.append(f"{path.name}:{node.lineno}: abort with words")
            if name == "TableError" and not any(k.arg == "reason" for k in node.keywords):
                wrong.append(f"{path.name}:{node.lineno}: TableError without a reason")
    assert wrong == []


@pytest.mark.parametrize("header, words", [
    ({"game": "poker", "players": ["A", "B"]}, "'poker'というゲームはありません"),
    ({"game": "uno", "rules": "nope", "players": ["A", "B"]}, "プリセット'nope'はありません"),
    ({"game": "uno", "players": ["A", "B"], "dealer": "Z"}, "'Z'はプレイヤーではありません"),
    ({"game": "junocos", "players": ["A", "B"]}, "2人では遊べません"),
], ids=["game", "preset", "dealer", "players"])
def test_a_game_the_referee_refuses_to_start_is_refused_in_its_own_words(header, words):
    """The referee's reason (its sentence catalogue, or its known English
    refusal) is said in the viewer's language inside the page's sentence."""
    client = make_app().test_client()
    en = client.post("/api/games", json=header).get_json()
    ja = client.post("/api/games?lang=ja", json=header).get_json()
    assert ja["code"] == en["code"] == "game_refused" and ja["status"] == 400
    assert words in ja["message"] and ja["message"].endswith("。"), ja["message"]
    assert en["message"].startswith("cannot start this game: ") and not JA.search(en["message"])


def test_a_label_that_is_no_card_is_named_in_the_viewers_language():
    client = make_app().test_client()
    body = {"deck": "kitchen", "labels": "red-7,red-99"}
    en = client.post("/api/enroll/start", json=body).get_json()
    assert en["message"] == "labels: 'red-99' is not a card label (e.g. red-7)"
    ja = client.post("/api/enroll/start?lang=ja", json=body).get_json()
    assert ja["code"] == en["code"] == "label_not_card"
    assert ja["message"] == "'red-99' はカードの名前ではありません（例: red-7）。"


@pytest.mark.parametrize("labels, named", [
    ("red-7,it's", '"it\'s"'),  # its quote: Python writes it in double quotes
    ("counter, red 7 ", "'red 7'"),  # a tgus-t card first; spaces around
    ("red-7,'x' is not a card label (e.g. red-7)",
     "\"'x' is not a card label (e.g. red-7)\""),
], ids=["quote", "spaces", "sentence"])
def test_the_label_that_is_no_card_is_the_one_written(labels, named):
    """The label named is the one the person wrote (carried as data, never
    read back from an error's words)."""
    client = make_app().test_client()
    body = {"deck": "kitchen", "labels": labels}
    en = client.post("/api/enroll/start", json=body).get_json()
    assert en["code"] == "label_not_card", en
    assert en["message"] == f"labels: {named} is not a card label (e.g. red-7)"
    ja = client.post("/api/enroll/start?lang=ja", json=body).get_json()
    assert ja["message"] == f"{named} はカードの名前ではありません（例: red-7）。"


def test_the_browsers_language_picks_the_pages_after_the_query_and_the_cookie():
    """``?lang=`` first, then the cookie, then ``Accept-Language``; an answer
    says that it varies with them (a cache keeps one per language)."""
    client = make_app().test_client()
    ja = {"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.5"}
    page = client.get("/table", headers=ja)
    assert '<html lang="ja">' in page.get_data(as_text=True)
    assert {"Accept-Language", "Cookie"} <= set(page.vary)
    assert '<html lang="en">' in client.get("/table?lang=en", headers=ja).get_data(as_text=True)
    assert '<html lang="en">' in client.get("/table", headers=ja).get_data(as_text=True)  # cookie
    client.delete_cookie(COOKIE)
    assert '<html lang="en">' in client.get(
        "/table", headers={"Accept-Language": "fr-FR,de;q=0.8"}).get_data(as_text=True)
