"""A request body with a control character in any string (a NUL byte, an
escape sequence, a C1 control), as a browser or a script may send it, is
refused with a 400 that names the character and where it is; nothing of it
is stored. Odd but proper Unicode (emoji, a right-to-left mark, combining
marks, CJK) still passes, and a tab or a line end in a note is text."""

from __future__ import annotations

import pytest

from tests.web.test_web_routes_garbage import UNO, begun, routes

CONTROLS = ["\x00", "\x07", "\x1b", "\x7f", "\x85", "\x9f"]
FIELDS = {"player": "A{c}", "cards": ["red{c}-7"], "type": "pl{c}ay",
          "note": "x{c}y", "players": ["A{c}", "B"], "answer": "a{c}"}


def body(field: str, char: str) -> dict:
    """A body every route could read, ``field`` carrying ``char``."""
    out = {"type": "play", "player": "A", "cards": ["red-7"], "players": ["A", "B"],
           "on": True, "paused": False, "answer": "x", "deck": "d", "mode": "one"}
    value = FIELDS[field]
    out[field] = [v.format(c=char) for v in value] if isinstance(value, list) \
        else value.format(c=char)
    return out


@pytest.mark.parametrize("char", CONTROLS, ids=[f"U+{ord(c):04X}" for c in CONTROLS])
def test_a_control_character_in_a_body_is_a_400_that_says_where(char):
    app, client = begun(UNO)
    before = client.get("/api/events").get_json()["events"]
    wrong = []
    for method, url in routes(app):
        if method in ("GET", "DELETE"):
            continue
        for field in FIELDS:
            resp = client.open(url, method=method, json=body(field, char))
            message = (resp.get_json(silent=True) or {}).get("message", "")
            if resp.status_code != 400 or f"U+{ord(char):04X}" not in message \
                    or field not in message:
                wrong.append((method, url, field, resp.status_code, message[:80]))
    assert wrong == []
    assert client.get("/api/events").get_json()["events"] == before
    assert client.get("/api/games").get_json()["current"] == 1  # no game made


def test_a_control_character_in_a_field_name_is_refused_too():
    app, client = begun(UNO)
    resp = client.post("/api/events", json={"type": "pass", "player": "A",
                                            "no\x00te": "x"})
    assert resp.status_code == 400
    assert "U+0000" in resp.get_json()["message"]


@pytest.mark.parametrize("name", ["あいこ", "Zoë\u0301", "\U0001F600 Ben",
                                  "\u202eChie", "Dana\tDoe"])
def test_odd_but_proper_unicode_still_starts_a_game_and_plays(name):
    app, client = begun(UNO)
    resp = client.post("/api/games", json={"game": "uno", "players": [name, "B", "C"]})
    assert resp.status_code == 201, resp.get_json()
    assert client.post("/api/events", json={"type": "start", "card": "red-7"}
                       ).status_code == 201
    resp = client.post("/api/events", json={"type": "play", "player": name,
                                            "cards": ["red-3"], "note": "a\nb"})
    assert resp.status_code == 201, resp.get_json()
    assert resp.get_json()["rulings"][0]["ruling"] == "ok"
    for lang in ("en", "ja"):
        for url in ("/", "/table", "/scores"):
            assert client.get(f"{url}?lang={lang}").status_code == 200
