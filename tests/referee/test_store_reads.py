"""The store's reads: a failure is a StoreError saying its kind as a write's
is (a database locked by another server's write, a disk's error, by the
database's code; a game it does not hold; a row it cannot read back), and a
game whose header cannot be read back is listed as a damaged one, so that
the other games stay listed; the damaged rows are left as they are."""

from __future__ import annotations

import sqlite3

import pytest

from referee.store import GameStore, StoreError, failure_of

HEADER = {"type": "game", "game": "uno", "rules": "official",
          "players": ["A", "B", "C"]}


def stored(tmp_path) -> GameStore:
    """Games 1 to 3, with two lines each."""
    store = GameStore(tmp_path / "g.db")
    for n in range(3):
        gid = store.create_game({**HEADER, "players": [f"P{n}", "B"]})
        store.append(gid, {"type": "start", "card": "red-7"})
        store.append(gid, {"type": "draw", "player": f"P{n}", "count": 1})
    return store


def damage(store: GameStore, sql: str, value: str) -> None:
    with sqlite3.connect(store.path) as db:
        db.execute(sql, (value,))


def row(store: GameStore, sql: str) -> str:
    with sqlite3.connect(store.path) as db:
        return db.execute(sql).fetchone()[0]


@pytest.mark.parametrize("header, read", [
    ("{oops", False), ("[1]", False), ('{"players": "AB"}', True),
], ids=["not-json", "a-list", "players-no-list"])
def test_a_header_that_cannot_be_read_back_is_listed_as_a_damaged_game(
        tmp_path, header, read):
    """(A JSON object with players of another type is read back as it is:
    the referee refuses it.)"""
    store = stored(tmp_path)
    damage(store, "UPDATE games SET header=? WHERE id=2", header)
    listed = {g.id: g for g in store.games()}
    assert list(listed) == [3, 2, 1]  # the others stay listed
    assert (listed[2].game, listed[2].rules, listed[2].players, listed[2].damaged) == (
        "?", "", [], "log_damaged")
    assert listed[2].events == 2 and listed[2].to_dict()["damaged"] == "log_damaged"
    assert [listed[g].players for g in (3, 1)] == [["P2", "B"], ["P0", "B"]]
    assert listed[3].damaged is listed[1].damaged is None
    if read:
        assert store.header(2) == {"players": "AB"}
    else:
        with pytest.raises(StoreError, match="game 2's header cannot be read back"
                           ) as said:
            store.header(2)
        assert said.value.kind == "log_damaged"
    assert store.header(1)["players"] == ["P0", "B"]  # the others stay resumable
    assert row(store, "SELECT header FROM games WHERE id=2") == header  # kept


def test_a_summary_that_cannot_be_read_back_is_none(tmp_path):
    store = stored(tmp_path)
    store.finish(1, {"scores": {"A": 1}})
    damage(store, "UPDATE games SET summary=? WHERE id=1", "{oops")
    listed = {g.id: g for g in store.games()}
    assert listed[1].summary is None and listed[1].damaged is None
    assert listed[1].game == "uno" and listed[1].finished is not None


def test_a_line_that_is_not_json_is_refused_by_its_kind_and_kept(tmp_path):
    store = stored(tmp_path)
    damage(store, "UPDATE events SET body=? WHERE game_id=2 AND line=2", '{"type": ')
    with pytest.raises(StoreError, match="line 2 of game 2's log cannot be read back"
                       ) as said:
        store.events(2)
    assert said.value.kind == failure_of(said.value) == "log_damaged"
    with pytest.raises(StoreError) as exported:
        store.export(2)
    assert exported.value.kind == "log_damaged"
    assert [e["type"] for e in store.events(1)] == ["start", "draw"]
    assert row(store, "SELECT body FROM events WHERE game_id=2 AND line=2") == \
        '{"type": '


def test_a_line_that_is_json_but_no_event_is_given_as_it_is(tmp_path):
    """The referee says it cannot take it (the page leaves it out)."""
    store = stored(tmp_path)
    damage(store, "UPDATE events SET body=? WHERE game_id=2 AND line=2", "[1, 2]")
    assert store.events(2)[1] == [1, 2]


@pytest.mark.parametrize("gid", [42, 2**70], ids=["unknown", "no-sqlite-integer"])
def test_a_game_it_does_not_hold_is_no_game(tmp_path, gid):
    store = stored(tmp_path)
    for read in (store.header, store.events, store.export):
        with pytest.raises(StoreError) as said:
            read(gid)
        assert said.value.kind == "no_game"


class Failing:
    """The store's connection whose statements fail with a SQLite error of
    ``code`` (as a database locked by another server's write fails)."""

    def __init__(self, db: sqlite3.Connection, message: str, code: int):
        self.db, self.message, self.code = db, message, code

    def execute(self, *args):
        exc = sqlite3.OperationalError(self.message)
        exc.sqlite_errorcode = self.code
        raise exc

    def __getattr__(self, name):
        return getattr(self.db, name)


@pytest.mark.parametrize("message, code, kind", [
    ("database is locked", 5, "store_locked"),  # SQLITE_BUSY
    ("disk I/O error", 10, "io_error"),  # SQLITE_IOERR
    ("database disk image is malformed", 11, "store_damaged"),  # SQLITE_CORRUPT
], ids=["locked", "eio", "corrupt"])
def test_a_read_that_fails_is_a_store_error_of_its_kind_as_a_write_is(
        tmp_path, message, code, kind):
    store = stored(tmp_path)
    real = store._db
    store._db = Failing(real, message, code)
    reads = {"games": store.games, "last_game": store.last_game,
             "header": lambda: store.header(1), "events": lambda: store.events(1),
             "corrections": lambda: store.corrections(1),
             "evidence": lambda: store.evidence(1), "export": lambda: store.export(1),
             "append": lambda: store.append(1, {"type": "pass"}),
             "finish": lambda: store.finish(1)}
    for name, read in reads.items():
        with pytest.raises(StoreError, match=message) as said:
            read()
        assert said.value.kind == failure_of(said.value) == kind, name
        assert isinstance(said.value.__cause__, sqlite3.Error)
    store._db = real  # the database answers again: nothing was lost
    assert [e["type"] for e in store.events(1)] == ["start", "draw"]
    assert store.last_game() == 3


def test_a_store_error_raised_from_a_failure_says_its_kind():
    try:
        raise StoreError("the game store could not write") from OSError(28, "full")
    except StoreError as exc:
        assert exc.kind == "disk_full"
    assert StoreError("no words name a kind: database is locked").kind is None


def test_a_header_whose_players_are_not_names_is_listed_as_a_damaged_game(
        tmp_path, capsys):
    """(``tableref history`` joins the players' names: it lists the game as
    damaged instead of failing on it.)"""
    from tableref.cli import main

    store = stored(tmp_path)
    damage(store, "UPDATE games SET header=? WHERE id=2", '{"players": [1, 2]}')
    listed = {g.id: g for g in store.games()}
    assert (listed[2].game, listed[2].players, listed[2].damaged) == (
        "?", [], "log_damaged")
    assert main(["history", "--db", str(store.path)]) == 0
    assert "#2" in capsys.readouterr().out
