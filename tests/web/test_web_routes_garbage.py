"""Every route of the page, sent garbage (malformed JSON, wrong types, huge or
deeply nested bodies, unknown games and presets, a card of another game's
deck) in a UNO and a tgus-t game: none answers 5xx, each refusal of the API
says why in a message, a page's refusal is a page, and a card of another deck
is refereed with a ruling that names it."""

from __future__ import annotations

import json
import re

import pytest

from web import MAX_BODY, create_app
from web.memstore import MemoryStore

UNO = {"game": "uno", "rules": "official", "players": ["A", "B", "C"]}
TGUS_T = {"game": "uno", "rules": "tgus-t1", "players": ["A", "B", "C"]}
JSON = "application/json"
GARBAGE = {
    "malformed": ('{"type": "play", ', JSON),
    "form": ("type=play&player=A", "application/x-www-form-urlencoded"),
    "empty": ("", JSON),
    "null": ("null", JSON),
    "list": ("[1, 2]", JSON),
    "string": ('"play"', JSON),
    "number-too-big": ("1e999", JSON),
    "nan": ("NaN", JSON),
    "wrong-types": (json.dumps({
        "type": 5, "player": [1], "cards": "red-7", "count": "two", "on": "yes",
        "paused": "no", "game": 3, "rules": [], "players": "ABC",
        "answer": {"a": 1}, "digest": 7, "deck": None, "mode": 9}), JSON),
    "huge": (json.dumps({"type": "play", "player": "A",
                         "cards": ["red-7"] * (MAX_BODY // 4)}), JSON),
    "deep": ("[" * 20000 + "]" * 20000, JSON),  # within the size limit
    "unknown-game": (json.dumps({"game": "poker", "players": ["A", "B"]}), JSON),
    "unknown-preset": (json.dumps({"game": "uno", "rules": "nope",
                                   "players": ["A", "B"]}), JSON),
    "tgus-t-card": (json.dumps({"type": "play", "player": "A", "cards": ["gamble"],
                                "card": "gamble", "color": "red"}), JSON),
    "uno-card": (json.dumps({"type": "play", "player": "A", "cards": ["wild-draw4"],
                             "card": "wild-draw4", "color": "red"}), JSON),
    "no-card-at-all": (json.dumps({"type": "play", "player": "A",
                                   "cards": ["blue-13"]}), JSON),
}
STREAMS = ("/api/stream", "/video.mjpeg")  # endless answers, fuzzed elsewhere


def begun(header):
    app = create_app({"TESTING": True, "STORE": MemoryStore()})
    client = app.test_client()
    assert client.post("/api/games", json=header).status_code == 201
    assert client.post("/api/events", json={"type": "start", "card": "red-7"}
                       ).status_code == 201
    return app, client


def routes(app):
    """(method, url) of each route, its parameters 1."""
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        url = re.sub(r"<(?:[^:<>]+:)?[^<>]+>", "1", rule.rule)
        if url in STREAMS:
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            yield method, url


@pytest.mark.parametrize("header", [UNO, TGUS_T], ids=["uno", "tgus-t"])
@pytest.mark.parametrize("garbage", GARBAGE, ids=list(GARBAGE))
def test_no_route_answers_garbage_with_a_server_error_nor_without_a_reason(
        header, garbage):
    body, ctype = GARBAGE[garbage]
    app, client = begun(header)
    wrong = []
    for method, url in routes(app):
        resp = client.open(url, method=method, content_type=ctype,
                           data=None if method == "GET" else body)
        code = resp.status_code
        if code >= 500:
            wrong.append((method, url, code, resp.get_data(as_text=True)[:160]))
        elif code >= 400 and url.startswith("/api/"):
            data = resp.get_json(silent=True)
            if not (isinstance(data, dict) and isinstance(data.get("message"), str)
                    and data["message"].strip() and data.get("status") == code):
                wrong.append((method, url, code, resp.get_data(as_text=True)[:160]))
        elif code >= 400 and resp.mimetype == "text/html":
            if str(code) not in resp.get_data(as_text=True):
                wrong.append((method, url, code, "a page that does not say why"))
    assert wrong == []
    for url in ("/api/state", "/api/events", "/", "/table"):  # still served
        assert client.get(url).status_code == 200, url


def test_deeply_nested_json_to_the_enrollment_is_refused():
    body, ctype = GARBAGE["deep"]
    app, client = begun(UNO)
    codes = {url: client.open(url, method=method, data=body, content_type=ctype
                              ).status_code
             for method, url in routes(app)
             if url.startswith("/api/enroll/") and method == "POST"}
    assert codes and all(400 <= c < 500 for c in codes.values()), codes


@pytest.mark.parametrize("header, card, rule", [
    (UNO, "gamble", "official.deck"),
    (UNO, "blue-13", "log.malformed"),
    (TGUS_T, "wild-draw4", "tgus-t1.deck"),
], ids=["tgus-t-card-in-uno", "no-such-card-in-uno", "uno-card-in-tgus-t"])
def test_a_card_of_another_deck_is_ruled_with_a_reason_that_names_it(
        header, card, rule):
    for method, url in (("POST", "/api/events"), ("PUT", "/api/events/2"),
                        ("POST", "/api/events/2/before")):
        app, client = begun(header)
        if url != "/api/events":  # a line to correct or to insert before
            assert client.post("/api/events", json={
                "type": "play", "player": "A", "cards": ["red-1"]}).status_code == 201
        resp = client.open(url, method=method, json={
            "type": "play", "player": "A", "cards": [card]})
        assert resp.status_code in (200, 201), resp.get_json()
        data = resp.get_json()
        rulings = data.get("rulings") or data.get("added") or []
        named = [r for r in rulings if r["rule"] == rule]
        assert named, (method, url, rulings)
        text = named[0]["text"]
        assert card in text or card.replace("-", " ") in text, text


class Pipeline:
    """A camera pipeline stand-in whose status is ``status`` (raised where it
    is an exception)."""

    def __init__(self, status):
        self._status = status

    def status(self):
        if isinstance(self._status, Exception):
            raise self._status
        return self._status

    def set_scan(self, on):
        pass

    def latest_jpeg(self):
        return None


def camera(kind):
    """A camera in one of the states a camera can be in when the page asks
    (running, lost, replaced by the demo's log that has ended, ...), or one
    whose pipeline answers garbage."""
    from web.camera import Camera

    cam = Camera()
    if kind == "not-started":
        return cam
    cam.error = None
    cam.pipeline = Pipeline({
        "running": {"state": "running", "message": "reading 0", "fps": 9.5,
                    "frames": 3},
        "status-raises": RuntimeError("the device went away"),
        "status-not-an-object": ["running"],
        "status-odd-values": {"state": None, "message": 5, "fps": "fast",
                              "frames": "many"},
    }.get(kind, {"state": "error", "message": "cannot open 0"}))
    if kind == "lost":
        cam.error, cam.ended = "the device went away", "lost"
    elif kind == "log-ended":
        cam.replaying("no camera source")
        cam.ended = "log"
        cam.refusal("play refused: 'cards' must be a list", "play")
    return cam


CAMERAS = ("not-started", "running", "lost", "log-ended", "status-raises",
           "status-not-an-object", "status-odd-values")


@pytest.mark.parametrize("kind", CAMERAS)
def test_no_route_answers_a_server_error_whatever_the_cameras_state(kind):
    app, client = begun(UNO)
    app.extensions["tableref.table"].camera = camera(kind)
    wrong = []
    for garbage in ("malformed", "wrong-types"):
        body, ctype = GARBAGE[garbage]
        for method, url in routes(app):
            for lang in ("en", "ja"):
                resp = client.open(f"{url}?lang={lang}", method=method,
                                   content_type=ctype,
                                   data=None if method == "GET" else body)
                if resp.status_code >= 500:
                    wrong.append((garbage, method, url, lang, resp.status_code))
    assert wrong == []
    status = client.get("/api/camera").get_json()
    assert isinstance(status["state"], str) and status["state"]
    assert status.get("message") is None or isinstance(status["message"], str)


@pytest.mark.parametrize("evidence", [
    "/frames/a\x00b.jpg",  # a NUL byte: no path the system can open
    "/" + "a" * 199,  # longer than a file name may be
    ".",  # a folder
    "",
], ids=["nul", "long-name", "folder", "empty"])
def test_an_events_garbage_evidence_is_a_missing_frame_not_a_server_error(evidence):
    app, client = begun(UNO)
    event = {"type": "play", "player": "A", "cards": ["red-3"], "evidence": evidence}
    resp = client.post("/api/events", json=event)
    if "\x00" in evidence:  # no browser's body may carry one (a 400 says so) ...
        assert resp.status_code == 400 and "U+0000" in resp.get_json()["message"]
        table = app.extensions["tableref.table"]  # ... a stored line still might
        line, _ = table.append(event, source="vision")
    else:
        assert resp.status_code == 201
        line = resp.get_json()["line"]
    resp = client.get(f"/evidence/{line}")
    assert 400 <= resp.status_code < 500, resp.status_code
    assert str(resp.status_code) in resp.get_data(as_text=True)  # a page that says why
