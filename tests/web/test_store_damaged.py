"""A store whose rows cannot be read back (a line that is not JSON, a header
that is not a JSON object: a disk's damage, a hand's edit) never takes the
page down: the server starts, each route answers with a clear refusal in the
viewer's language (``failure``: ``log_damaged``) instead of a 5xx, the games
list shows such a game as a damaged one beside the others, a new game still
starts, and the damaged rows are left as they are (nothing recorded is lost).
A read of the store that fails (a database locked by another server's write,
a disk's error) is the store's own error of its kind (referee.store
StoreError), said as a 503 by that kind."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from web import create_app
from web.sweep import sweep

UNO = {"game": "uno", "rules": "official", "players": ["A", "B", "C"], "hand_size": 2}
EVENTS = ({"type": "start", "card": "red-7"},
          {"type": "play", "player": "A", "cards": ["red-3"]},
          {"type": "draw", "player": "B", "count": 1})
PAGES = ("/", "/?lang=ja", "/table", "/table?lang=ja", "/setup", "/setup?lang=ja",
         "/api/state", "/api/events", "/api/rulings", "/api/scores", "/api/questions",
         "/api/public", "/partials?view=table", "/partials?view=referee", "/api/camera",
         "/api/games", "/api/games?lang=ja", "/api/games/1/log")


def app_on(database: Path):
    return create_app({"TESTING": True, "DATABASE": str(database),
                       "EVIDENCE_DIRS": [str(database.parent)]})


def stored(tmp_path: Path, then_another: bool) -> Path:
    """Game 1 with three lines (and game 2 after it, ``then_another``)."""
    database = tmp_path / "games.sqlite3"
    app = app_on(database)
    client = app.test_client()
    assert client.post("/api/games", json=UNO).status_code == 201
    for event in EVENTS:
        assert client.post("/api/events", json=event).status_code == 201
    if then_another:
        assert client.post("/api/games", json=UNO).status_code == 201
    app.extensions["tableref.store"].close()
    return database


def damage(database: Path, sql: str, value: str) -> None:
    with sqlite3.connect(database) as db:
        db.execute(sql, (value,))


def row(database: Path, sql: str) -> str:
    with sqlite3.connect(database) as db:
        return db.execute(sql).fetchone()[0]


LINE = "UPDATE events SET body=? WHERE game_id=1 AND line=2"
HEADER = "UPDATE games SET header=? WHERE id=1"


def no_5xx(client) -> dict[str, int]:
    got = {url: client.get(url).status_code for url in PAGES}
    assert all(code < 500 for code in got.values()), got
    return got


def test_a_last_game_with_a_line_that_is_not_json_is_not_resumed_and_says_why(
        tmp_path):
    database = stored(tmp_path, then_another=False)
    damage(database, LINE, '{"type": "play", ')
    app = app_on(database)  # the server starts
    client = app.test_client()
    assert app.extensions["tableref.table"].gid is None
    got = no_5xx(client)
    assert got["/api/games"] == 200 and got["/api/games/1/log"] == 409
    en = client.post("/api/games/1/resume?lang=en", json={}).get_json()
    ja = client.post("/api/games/1/resume?lang=ja", json={}).get_json()
    assert en["status"] == ja["status"] == 409
    assert en["code"] == ja["code"] == "stored_game_unrefereeable"
    assert en["failure"] == ja["failure"] == "log_damaged"
    assert en["message"].startswith("stored game 1 cannot be refereed: line 2 of "
                                    "game 1's log cannot be read back (")
    assert ja["message"] == "保存されたゲーム 1 は審判できません（保存された行を読み戻せない）。"
    assert ja["detail"] == en["detail"] and "column" in ja["detail"]  # its own words
    said = client.get("/api/games/1/log?lang=ja").get_json()
    assert said["code"] == "stored_log_unreadable" and said["failure"] == "log_damaged"
    assert said["message"] == "保存されたゲーム 1 の記録を書き出せません（保存された行を読み戻せない）。"
    # a new game starts, and the damaged game's rows are as they were
    assert client.post("/api/games", json=UNO).status_code == 201
    assert client.post("/api/events", json=EVENTS[0]).status_code == 201
    assert row(database, "SELECT body FROM events WHERE game_id=1 AND line=2") == \
        '{"type": "play", '
    assert row(database, "SELECT COUNT(*) FROM events WHERE game_id=1") == 3


@pytest.mark.parametrize("header", ["{oops", "[1]"], ids=["not-json", "a-list"])
def test_a_header_that_cannot_be_read_back_is_listed_as_a_damaged_game(
        tmp_path, header):
    """The list shows it beside the others (its game "?", ``damaged``), the
    setup page says it in the viewer's language and offers no resume of it."""
    database = stored(tmp_path, then_another=True)
    damage(database, HEADER, header)
    app = app_on(database)  # the last game (2) resumes
    client = app.test_client()
    assert app.extensions["tableref.table"].gid == 2
    got = no_5xx(client)
    assert got["/api/games"] == 200 and got["/setup"] == 200
    listed = client.get("/api/games?lang=ja").get_json()
    assert listed["current"] == 2
    assert [(g["id"], g["game"], g["players"], g["events"], g["damaged"])
            for g in listed["games"]] == [
        (2, "uno", ["A", "B", "C"], 0, None), (1, "?", [], 3, "log_damaged")]
    for lang, said in (("ja", "ヘッダーを読み戻せません（保存先には残っています）"),
                       ("en", "its header cannot be read back (the store keeps it)")):
        page = client.get(f"/setup?lang={lang}").get_data(as_text=True)
        assert said in page
        assert 'data-post="/api/games/1/resume"' not in page
    resumed = client.post("/api/games/1/resume?lang=ja", json={}).get_json()
    assert resumed["code"] == "stored_game_unrefereeable"
    assert resumed["failure"] == "log_damaged"
    assert app.extensions["tableref.table"].gid == 2  # the game goes on
    assert client.post("/api/events", json=EVENTS[0]).status_code == 201
    assert row(database, "SELECT header FROM games WHERE id=1") == header


def test_the_sweep_at_a_start_keeps_a_damaged_games_frames_and_sweeps_the_rest(
        tmp_path):
    """A stray frame (no row names it) of a game whose log cannot be read
    back is kept (in doubt: a line may name it); another game's is swept."""
    database = stored(tmp_path, then_another=True)
    with sqlite3.connect(database) as db:  # game 2, listed first: a damaged line
        db.execute("INSERT INTO events VALUES (2, 0, 1, '{\"type\": ', 0)")
    app = app_on(database)
    store = app.extensions["tableref.store"]
    strays = []
    for gid in (1, 2):
        folder = Path(store.evidence_dir) / str(gid)
        folder.mkdir(parents=True, exist_ok=True)
        strays.append(folder / "stray.jpg")
        strays[-1].write_bytes(b"\xff\xd8 a frame")
    assert sweep(store, tmp_path / "pipeline") == [strays[0]]
    assert not strays[0].exists() and strays[1].is_file()


def test_a_stored_line_the_referee_cannot_take_is_left_out_said_and_kept(tmp_path):
    """A JSON line that is no event (a list) is left out of the resumed game:
    the referee view says which (en, ja), the table view does not, the lines
    are numbered without it everywhere (the answer to a new event too), and
    the store keeps it in the log's history after a correction."""
    database = stored(tmp_path, then_another=False)
    damage(database, LINE, "[1, 2]")
    app = app_on(database)
    client = app.test_client()
    assert app.extensions["tableref.table"].gid == 1
    no_5xx(client)
    events = client.get("/api/events").get_json()["events"]
    assert [e["type"] for e in events] == ["start", "draw"]
    en = client.get("/partials?view=referee&names=change&lang=en").get_json()["change"]
    ja = client.get("/partials?view=referee&names=change&lang=ja").get_json()["change"]
    assert "Stored line(s) 2 of this game could not be refereed and are left out" in en
    assert "このゲームの保存された2行目は審判できないため除きました。" in ja
    table = client.get("/partials?view=table&lang=en").get_data(as_text=True)
    assert "left out" not in table and "[1, 2]" not in table
    answer = client.post("/api/events", json={"type": "pass", "player": "B"})
    assert answer.status_code == 201 and answer.get_json()["line"] == 3
    assert client.get("/api/events").get_json()["events"][2]["type"] == "pass"
    assert client.delete("/api/events/3").status_code == 200
    assert [e["type"] for e in client.get("/api/events").get_json()["events"]] == [
        "start", "draw"]
    with sqlite3.connect(database) as db:  # the stored history keeps the line
        kept = [b for (b,) in db.execute(
            "SELECT body FROM events WHERE game_id=1 AND version=0 ORDER BY line")]
    assert kept[1] == "[1, 2]" and len(kept) == 4


class Failing:
    """The store's connection whose statements fail, while ``on``, with a
    SQLite error of ``code`` (as a database locked by another server's
    write fails: SQLITE_BUSY 5; a disk's error: SQLITE_IOERR 10)."""

    def __init__(self, db: sqlite3.Connection, message: str, code: int):
        self.db, self.message, self.code, self.on = db, message, code, True

    def execute(self, *args):
        if not self.on:
            return self.db.execute(*args)
        exc = sqlite3.OperationalError(self.message)
        exc.sqlite_errorcode = self.code
        raise exc

    def __getattr__(self, name):
        return getattr(self.db, name)


LOCKED = ("database is locked", 5)
EIO = ("disk I/O error", 10)


@pytest.mark.parametrize("failure, kind, ja", [
    (LOCKED, "store_locked", "データベースが使用中かロックされている"),
    (EIO, "io_error", "入出力のエラー"),
], ids=["locked", "eio"])
def test_a_read_of_the_store_that_fails_is_a_503_by_its_kind_and_the_game_goes_on(
        tmp_path, failure, kind, ja):
    database = stored(tmp_path, then_another=True)
    app = app_on(database)
    client = app.test_client()
    store = app.extensions["tableref.store"]
    failing = store._db = Failing(store._db, *failure)
    for url in ("/api/games", "/api/games/1/log"):
        en = client.get(url + "?lang=en").get_json()
        said = client.get(url + "?lang=ja").get_json()
        assert en["status"] == said["status"] == 503, (url, en)
        assert en["code"] == said["code"] == "store_unreadable"
        assert en["failure"] == said["failure"] == kind
        assert en["message"].startswith("the game store could not be read (")
        assert said["message"] == f"ゲームの保存先を読めなかったため（{ja}）、もう一度試してください。"
    resumed = client.post("/api/games/1/resume?lang=ja", json={}).get_json()
    assert resumed["code"] == "store_unreadable" and resumed["failure"] == kind
    page = client.get("/setup?lang=ja")
    assert page.status_code == 200
    assert f"ゲームの保存先を読めなかったため（{ja}）" in page.get_data(as_text=True)
    assert app.extensions["tableref.table"].gid == 2  # the game goes on
    failing.on = False
    assert client.post("/api/events", json=EVENTS[0]).status_code == 201


def test_a_server_whose_store_cannot_be_read_at_its_start_starts_without_a_game(
        tmp_path, monkeypatch):
    from referee.store import GameStore

    database = stored(tmp_path, then_another=False)
    opened = GameStore.__init__
    failing = []

    def locked_at_start(self, *args, **kwargs):  # locked once the store is open
        opened(self, *args, **kwargs)
        failing.append(Failing(self._db, *LOCKED))
        self._db = failing[-1]

    monkeypatch.setattr(GameStore, "__init__", locked_at_start)
    app = app_on(database)
    client = app.test_client()
    assert app.extensions["tableref.table"].gid is None
    failing[-1].on = False
    resumed = client.post("/api/games/1/resume", json={})
    assert resumed.status_code == 200 and resumed.get_json()["game"] == 1


def test_an_engine_failure_after_left_out_lines_names_the_line_as_the_page_does(
        tmp_path, monkeypatch):
    """The 422 says to correct or delete the line as the page numbers it
    (without the left-out line), not as the store does."""
    database = stored(tmp_path, then_another=False)
    damage(database, LINE, "[1, 2]")
    app = app_on(database)
    client = app.test_client()
    table = app.extensions["tableref.table"]
    assert table.left_out == [2]

    def broken(event):
        raise TypeError("engine bug")

    monkeypatch.setattr(table.referee.game, "apply", broken)
    failed = client.post("/api/events?lang=en", json={"type": "pass", "player": "B"})
    assert failed.status_code == 422
    assert failed.get_json()["message"].startswith("line 3 was recorded, but")
    assert client.get("/api/events").get_json()["events"][2]["type"] == "pass"
    assert client.delete("/api/events/3").status_code == 200
    assert [e["type"] for e in client.get("/api/events").get_json()["events"]] == [
        "start", "draw"]
