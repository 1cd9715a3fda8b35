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
import sqlite3
from types import SimpleNamespace

import pytest

from referee.store import StoreError
from referee.text import Text
from vision.sources import FrameSource, SourceError
from web.errors import FAILURES, Words, failure_kind
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

def locked(tmp_path) -> sqlite3.Error:
    """A real SQLite error of a database another connection holds."""
    path = tmp_path / "held.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        sqlite3.connect(path, timeout=0).execute("INSERT INTO t VALUES (1)")
    except sqlite3.Error as exc:
        return exc
    finally:
        holder.close()
    raise AssertionError("the database was not locked")


def wrapped(exc: BaseException) -> StoreError:
    """``exc`` as the game store reports it (referee.store: its own words,
    raised from the database's error)."""
    try:
        raise StoreError(f"the game store could not write to /x: {exc}") from exc
    except StoreError as out:
        return out


def sqlite_error(message: str, code: int) -> sqlite3.Error:
    exc = sqlite3.OperationalError(message)
    exc.sqlite_errorcode = code
    return exc


@pytest.mark.parametrize("make, kind, status", [
    (lambda tmp: OSError(errno.ENOSPC, "No space left on device"), "disk_full", 507),
    (lambda tmp: OSError(errno.EACCES, "Permission denied: '/var/tableref.sqlite3'"),
     "no_permission", 503),
    (lambda tmp: wrapped(locked(tmp)), "store_locked", 503),
    (lambda tmp: wrapped(sqlite_error("database or disk is full", 13)), "disk_full",
     507),
    (lambda tmp: wrapped(sqlite_error("file is not a database", 26)),
     "store_damaged", 503),
    # a store on a device that went away: no camera's failure
    (lambda tmp: OSError(errno.ENXIO, "No such device or address"), "device_missing",
     503),
    (lambda tmp: wrapped(OSError(errno.ENODEV, "No such device")), "device_missing",
     503),
    # the words alone say no kind (another language's, another wording)
    (lambda tmp: RuntimeError("database is locked"), "failed", 503),
    (lambda tmp: RuntimeError("disk full"), "failed", 503),
], ids=["enospc", "eacces", "locked", "full", "notadb", "enxio", "enodev",
        "words-locked", "words-full"])
def test_a_failing_store_is_said_by_its_kind_and_its_words_come_apart(
        client, game, monkeypatch, tmp_path, make, kind, status):
    exc = make(tmp_path)
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
    """A pipeline that gave up on a camera it cannot open (its status gives
    its source's failure: the kind of the SourceError it raised)."""

    def status(self):
        return {"state": "error", "failure": "camera_not_found",
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


@pytest.mark.parametrize("message, failure, said", [
    ("OpenCV cannot open camera 0; retry 2 in 1.0 s", "camera_not_found",
     "カメラが見つからない"),
    ("no such video file: /v/table.mp4; gave up after 3 retries", "video_missing",
     "動画ファイルが見つからない"),
    ("the camera pipeline is not available (No module named 'cv2')",
     "module_missing", "モジュールが見つからないか壊れている"),
    ("3 frames in a row failed: ValueError('x')", "frames_failed",
     "画像の処理が続けて失敗した"),
    # a reason of no known kind: a camera's error, its words in parentheses
    ("OpenCV cannot open camera 0; retry 2 in 1.0 s", None, "カメラのエラー"),
])
def test_the_cameras_own_words_are_said_by_their_kind_in_japanese(
        app, message, failure, said):
    from flask import g

    from web.i18n import camera_message

    with app.test_request_context("/?lang=ja"):
        g.lang = "ja"
        ja = camera_message(message, failure=failure)
    assert said in ja, ja
    head = ja.split("（", 1)[0]  # the camera's words only in parentheses
    assert english_words(head) == [], ja


def test_the_kind_of_a_failure(tmp_path):
    assert failure_kind(Text("game.no-header")) is None  # the referee's own words
    assert failure_kind(OSError(errno.EROFS, "Read-only file system")) == "read_only"
    assert failure_kind(wrapped(locked(tmp_path))) == "store_locked"
    assert failure_kind(Words("folder /x holds no images (.jpg, .png)", "no_images")
                        ) == "no_images"
    assert failure_kind("something odd") == "camera_error"
    assert failure_kind(ValueError("something odd")) == "failed"


def test_the_kind_is_a_code_never_the_words():
    """Words that once named a kind name none alone: the code does."""
    assert failure_kind("folder /x holds no images (.jpg, .png)") == "camera_error"
    assert failure_kind(Words("database is locked")) == "camera_error"
    assert failure_kind(RuntimeError("the game store could not write to /x: "
                                     "database is locked")) == "failed"
    assert failure_kind(Words("a camera's words", "no_such_kind")) == "camera_error"
    assert failure_kind(SourceError("la caméra 0 est introuvable", "camera_not_found")
                        ) == "camera_not_found"


@pytest.mark.parametrize("spec, kind", [
    ("frames", "no_images"), ("missing.mp4", "video_missing"),
    ("not-a-video.mp4", "cannot_open_source")])
def test_a_source_says_its_failures_kind_where_it_raises_it(tmp_path, spec, kind):
    target = tmp_path / spec
    if spec == "frames":
        target.mkdir()
    elif spec == "not-a-video.mp4":
        target.write_bytes(b"not a video")
    source = FrameSource(str(target))
    with pytest.raises(SourceError) as raised:
        source.open()
    assert raised.value.kind == kind == source.failure
    assert failure_kind(raised.value) == kind
    assert failure_kind(wrapped(raised.value)) == kind  # raised from it
