"""The page's refusals are said from catalogue texts in the viewer's language.

- The checks of a request name the part they refused (the request body, a
  field's name ...) by a catalogue text (:mod:`referee.text`), never by
  translating an English phrase afterwards.
- A new game's header with several bad options names every one, in the
  sentence and as data (``options``: each option, what is wrong, what it may
  be), in English and in Japanese.
- A failure another module says in its own words (an ``OSError``, a
  database's error, a camera's message) is said in Japanese by its kind
  (disk full, camera not found ...); its own words come as ``detail`` (and
  the kind as ``failure``), never inside the Japanese sentence.
"""

from __future__ import annotations

import errno
import re

import pytest

from referee.text import Text
from web.errors import FAILURES, failure_kind
from web.events import EventError, no_controls, REQUEST_BODY

JA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
#: an English word of four letters or more
WORD = re.compile(r"[A-Za-z]{4,}")
UNO = {"game": "uno", "rules": "official", "players": ["Aiko", "Ben", "Chie"]}
BAD = {"nope": 1, "zap": True, "stacking": "x", "rounds": 0}


def one_japanese_sentence(text: str) -> bool:
    return bool(JA.search(text)) and text.endswith("。") and text.count("。") == 1


def english_words(text: str, allowed=()) -> list[str]:
    """The English words of ``text`` but those ``allowed`` (names, codes)."""
    return [w for w in WORD.findall(text) if w not in allowed]


# -- the part of a request a check names ------------------------------------------

def test_a_check_names_the_part_it_refused_by_a_catalogue_text():
    with pytest.raises(EventError) as info:
        no_controls({"ty\x07pe": "play"}, REQUEST_BODY)
    what, at = info.value.params["what"], info.value.params["at"]
    assert isinstance(what, Text) and what.key == "page.request-body"
    assert isinstance(at, Text) and at.key == "page.in-field-name"


@pytest.mark.parametrize("body, en_at, ja_at", [
    (b'{"ty\\u0007pe": "play"}', "in a field name", "（項目名）"),
    (b'{"type": "play", "player": "A\\u0000"}', "in 'player'", "（'player'）"),
], ids=["field-name", "field"])
def test_a_control_character_is_placed_in_the_viewers_language(client, body, en_at,
                                                              ja_at):
    kind = "application/json"
    en = client.post("/api/events", data=body, content_type=kind).get_json()
    ja = client.post("/api/events?lang=ja", data=body, content_type=kind).get_json()
    assert en["code"] == ja["code"] == "control_character"
    assert en["message"].startswith("the request body contains")
    assert en_at in en["message"]
    assert ja["message"].startswith("リクエストの本文" + ja_at), ja["message"]
    assert one_japanese_sentence(ja["message"])
    assert english_words(ja["message"], {"player"}) == [], ja["message"]


def test_a_stored_game_with_no_text_is_named_in_japanese(app, client, store):
    gid = store.create_game({"type": "game", "game": "uno", "rules": "official",
                             "players": ["A\ud800", "B"]})
    for lang, words in (("en", f"stored game {gid}'s header"),
                        ("ja", f"保存されたゲーム{gid}のヘッダー")):
        resp = client.post(f"/api/games/{gid}/resume?lang={lang}", json={})
        body = resp.get_json()
        assert resp.status_code == 409 and body["code"] == "lone_surrogate", body
        assert body["message"].startswith(words), body["message"]


# -- every bad option of a new game is named ---------------------------------------

@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_bad_option_of_a_new_game_is_named_with_what_it_may_be(client, lang):
    resp = client.post(f"/api/games?lang={lang}", json={**UNO, "options": BAD})
    body = resp.get_json()
    assert resp.status_code == 400 and body["code"] == "game_refused", body
    message = body["message"]
    for name in BAD:
        assert f"'{name}'" in message, (name, message)
    options = {o["option"]: o for o in body["options"]}
    assert list(options) == ["nope", "zap", "stacking", "rounds"]
    assert options["nope"]["problem"] == options["zap"]["problem"] == "unknown"
    assert "stacking" in options["nope"]["known"] and "rounds" in options["zap"]["known"]
    assert options["stacking"]["problem"] == "bad_value"
    assert options["stacking"]["value"] == "x" and options["rounds"]["value"] == 0
    allowed = {"en": ("true or false", "a whole number of at least 1"),
               "ja": ("trueかfalse", "1以上の整数")}[lang]
    assert (options["stacking"]["allowed"], options["rounds"]["allowed"]) == allowed
    for o in body["options"]:
        assert f"'{o['option']}'" in o["message"]
    if lang == "en":
        assert message.startswith("cannot start this game: ") and not JA.search(message)
        assert "true or false" in message and "at least 1" in message
    else:
        assert one_japanese_sentence(message), message
        assert "trueかfalse" in message and "1以上の整数" in message
        rest = re.sub(r"'[^']*'", "", message)  # the options as the header wrote them
        for name in sorted(options["nope"]["known"], key=len, reverse=True):
            rest = rest.replace(name, "")  # the preset's options, named as written
        assert english_words(rest, {"official", "true", "false"}) == [], message
    assert client.get("/api/games").get_json()["games"] == []


def test_one_bad_option_is_said_alone(client):
    body = client.post("/api/games?lang=ja", json={**UNO, "options": {"stacking": 1}}
                       ).get_json()
    assert [o["option"] for o in body["options"]] == ["stacking"]
    assert body["message"] == ("このゲームは始められません（オプション'stacking'に1は"
                               "使えません（trueかfalseで指定します））。")


# -- another module's failure: its kind in Japanese, its words as detail ----------

@pytest.mark.parametrize("exc, kind, status", [
    (OSError(errno.ENOSPC, "No space left on device"), "disk_full", 507),
    (OSError(errno.EACCES, "Permission denied: '/var/tableref.sqlite3'"),
     "no_permission", 503),
    (RuntimeError("database is locked"), "store_locked", 503),
    (RuntimeError("disk full"), "disk_full", 507),
], ids=["enospc", "eacces", "locked", "full"])
def test_a_failing_store_is_said_by_its_kind_and_its_words_come_apart(
        client, game, monkeypatch, exc, kind, status):
    store = client.application.extensions["tableref.store"]

    def failing(*args, **kwargs):
        raise exc

    monkeypatch.setattr(store, "append", failing)
    en = client.post("/api/events", json={"type": "start", "card": "red-7"})
    ja = client.post("/api/events?lang=ja", json={"type": "start", "card": "red-7"})
    assert en.status_code == ja.status_code == status
    en, ja = en.get_json(), ja.get_json()
    assert en["failure"] == ja["failure"] == kind
    assert en["detail"] == ja["detail"] == str(exc)
    assert str(exc) in en["message"]  # English keeps the store's own words
    assert FAILURES[kind]["ja"] in ja["message"] and one_japanese_sentence(ja["message"])
    assert english_words(ja["message"]) == [], ja["message"]


def test_a_broken_game_module_is_said_by_its_kind(client, monkeypatch):
    import web.table as table_module

    def broken(*args, **kwargs):
        raise ImportError("No module named 'referee.uno.zap'")

    monkeypatch.setattr(table_module, "Referee", broken)
    resp = client.post("/api/games?lang=ja", json=UNO)
    body = resp.get_json()
    assert resp.status_code == 503 and body["code"] == "game_module_broken", body
    assert body["failure"] == "module_missing"
    assert body["detail"] == "No module named 'referee.uno.zap'"
    assert english_words(body["message"]) == [] and one_japanese_sentence(body["message"])


class _GaveUp:
    """A pipeline that gave up on a camera it cannot open."""

    def status(self):
        return {"state": "error",
                "message": "OpenCV cannot open camera 0; gave up after 3 retries"}

    def set_scan(self, on):
        raise AssertionError("not asked")


def test_a_camera_that_cannot_scan_says_why_by_its_kind(client, game):
    from web.camera import Camera

    camera = client.application.extensions["tableref.table"].camera = Camera()
    camera.pipeline, camera.error = _GaveUp(), None
    en = client.post("/api/camera/scan", json={"on": True}).get_json()
    ja = client.post("/api/camera/scan?lang=ja", json={"on": True}).get_json()
    assert en["code"] == ja["code"] == "scan_refused"
    assert "OpenCV cannot open camera 0" in en["message"]
    assert ja["failure"] == "camera_not_found" and "OpenCV" in ja["detail"]
    assert "カメラが見つからない" in ja["message"]
    assert english_words(ja["message"]) == [], ja["message"]


@pytest.mark.parametrize("message, said", [
    ("OpenCV cannot open camera 0; retry 2 in 1.0 s", "カメラが見つからない"),
    ("no such video file: /v/table.mp4; gave up after 3 retries", "動画ファイルが見つからない"),
    ("the camera pipeline is not available (No module named 'cv2')",
     "モジュールが見つからないか壊れている"),
    ("3 frames in a row failed: ValueError('x')", "画像の処理が続けて失敗した"),
])
def test_the_cameras_own_words_are_said_by_their_kind_in_japanese(app, message, said):
    from flask import g

    from web.i18n import camera_message

    with app.test_request_context("/?lang=ja"):
        g.lang = "ja"
        ja = camera_message(message)
    assert said in ja, ja
    head = ja.split("（", 1)[0]  # the camera's words only in parentheses
    assert english_words(head) == [], ja


def test_the_kind_of_a_failure():
    assert failure_kind(Text("game.no-header")) is None  # the referee's own words
    assert failure_kind(OSError(errno.EROFS, "Read-only file system")) == "read_only"
    wrapped = RuntimeError("the game store could not write to /x: database is locked")
    assert failure_kind(wrapped) == "store_locked"
    assert failure_kind("folder /x holds no images (.jpg, .png)") == "no_images"
    assert failure_kind("something odd") == "camera_error"
    assert failure_kind(ValueError("something odd")) == "failed"
