"""Durable game records: every table event in SQLite before anyone acts on it.

A referee that loses the log when the laptop sleeps or the process dies is
useless for settling disputes, so the store is the first stop of every event:

* SQLite in WAL mode with ``synchronous=FULL``: :meth:`GameStore.append`
  returns only after the event's transaction is on disk, so an acknowledged
  event survives ``kill -9`` and power loss.
* The log is append-only. A correction (undo, a misread fixed by hand) writes
  a new *version* of the event list in one transaction; older versions stay in
  the database as the audit trail of what was changed, when and why.
* Every failure is a :class:`StoreError` saying its kind (:attr:`StoreError.kind`):
  a read's as much as a write's (a database locked by another server, a
  disk's error, by the database's or the disk's code), a game it does not
  hold (``no_game``), a stored row it cannot read back (``log_damaged``: a
  line or a header that is not JSON, the row left as it is). The history
  (:meth:`GameStore.games`) lists a game whose header cannot be read back as
  a damaged one, so that the others stay listed.
* Evidence frames (JPEG) live in files beside the database, bounded by a total
  size limit with oldest-first retention; the database keeps their paths. A
  frame is written (and flushed) before the event that names it is stored; a
  frame no stored event names can be deleted (:meth:`GameStore.drop_evidence`).

Only the standard library is used, so the referee can depend on it.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from .log import Header, dump_event, read_log

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    created  REAL NOT NULL,
    header   TEXT NOT NULL,
    version  INTEGER NOT NULL DEFAULT 0,
    finished REAL,
    summary  TEXT
);
CREATE TABLE IF NOT EXISTS events (
    game_id  INTEGER NOT NULL REFERENCES games(id),
    version  INTEGER NOT NULL,
    line     INTEGER NOT NULL,
    body     TEXT NOT NULL,
    received REAL NOT NULL,
    PRIMARY KEY (game_id, version, line)
);
CREATE TABLE IF NOT EXISTS corrections (
    game_id  INTEGER NOT NULL REFERENCES games(id),
    version  INTEGER NOT NULL,
    at       REAL NOT NULL,
    reason   TEXT NOT NULL,
    PRIMARY KEY (game_id, version)
);
CREATE TABLE IF NOT EXISTS evidence (
    id       INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL REFERENCES games(id),
    path     TEXT NOT NULL,
    bytes    INTEGER NOT NULL,
    created  REAL NOT NULL
);
"""


#: a SQLite error's primary result code (``sqlite3.Error.sqlite_errorcode``,
#: its low byte) -> the kind of failure it is (:attr:`StoreError.kind`)
SQLITE_KINDS: dict[int, str] = {
    3: "no_permission",  # SQLITE_PERM
    5: "store_locked", 6: "store_locked",  # SQLITE_BUSY, SQLITE_LOCKED
    8: "read_only",  # SQLITE_READONLY
    10: "io_error",  # SQLITE_IOERR
    11: "store_damaged", 26: "store_damaged",  # SQLITE_CORRUPT, SQLITE_NOTADB
    13: "disk_full",  # SQLITE_FULL
    23: "no_permission",  # SQLITE_AUTH
}

#: an ``OSError``'s number -> the kind of failure it is, whoever raised it (a
#: device that is not there is a disk's or a file's as much as a camera's)
ERRNO_KINDS: dict[int, str] = {
    errno.ENOSPC: "disk_full", errno.EDQUOT: "disk_full",
    errno.ENODEV: "device_missing", errno.ENXIO: "device_missing",
    errno.EACCES: "no_permission", errno.EPERM: "no_permission",
    errno.ENOENT: "not_found", errno.ENOTDIR: "not_found", errno.EROFS: "read_only",
}

#: the kind of a game the store does not hold
NO_GAME = "no_game"
#: the kind of a stored row that cannot be read back (not JSON; a header
#: that is no JSON object)
LOG_DAMAGED = "log_damaged"


def failure_of(exc: BaseException | None) -> str | None:
    """The kind of failure ``exc`` carries by its code: a
    :class:`StoreError`'s :attr:`~StoreError.kind`, a SQLite error's result
    code (:data:`SQLITE_KINDS`), an ``OSError``'s number
    (:data:`ERRNO_KINDS`); ``None`` where it carries none (never read from
    its words)."""
    if isinstance(exc, StoreError):
        return exc.kind
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        return SQLITE_KINDS.get(code & 0xFF) if isinstance(code, int) else None
    if isinstance(exc, OSError):
        return ERRNO_KINDS.get(exc.errno) if isinstance(exc.errno, int) else None
    return None


class StoreError(RuntimeError):
    """The store could not do what was asked (no such game, disk full...).

    Args:
        message: what failed, in English.
        kind: the kind of failure: ``no_game`` (:data:`NO_GAME`),
            ``log_damaged`` (:data:`LOG_DAMAGED`), a database's or a disk's
            (``store_locked``, ``io_error``, ``disk_full``...: the keys'
            values of :data:`SQLITE_KINDS` and :data:`ERRNO_KINDS`); by
            default the kind of the failure it was raised from
            (:func:`failure_of`), else ``None``.
    """

    def __init__(self, message: str, kind: str | None = None):
        super().__init__(message)
        self._kind = kind

    @property
    def kind(self) -> str | None:
        """The kind of failure (see the class); ``None`` where none is known."""
        if self._kind is not None:
            return self._kind
        cause = self.__cause__
        return failure_of(cause) if cause is not None and cause is not self else None


@dataclass(frozen=True)
class GameSummary:
    """One row of the game history."""

    id: int
    created: float
    game: str
    rules: str
    players: list[str]
    events: int
    finished: float | None
    summary: dict[str, Any] | None
    #: ``log_damaged`` where its header cannot be read back (not JSON, no
    #: JSON object, a game, rules or players of another type, a player that
    #: is no name): its game is
    #: then ``"?"``, its rules ``""``, its players ``[]``; else ``None`` (a
    #: summary that cannot be read back is ``None``)
    damaged: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class GameStore:
    """A SQLite-backed table-log store, safe to share between threads.

    Args:
        path: the database file; its folder is created.
        evidence_dir: where evidence JPEGs go (default: ``<db>-evidence/``).
        evidence_limit: total bytes of evidence kept; the oldest files go first.
    """

    def __init__(self, path: str | os.PathLike[str], *, evidence_dir: str | None = None,
                 evidence_limit: int = 512 * 1024 * 1024):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.evidence_dir = Path(evidence_dir or f"{self.path}-evidence")
        self.evidence_limit = evidence_limit
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- writing -------------------------------------------------------------
    def _tx(self, fn, *args):
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    out = fn(*args)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
                return out
            except sqlite3.Error as exc:
                raise StoreError(
                    f"the game store could not write to {self.path}: {exc}",
                    failure_of(exc)) from exc

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """Under the store's lock; a database's failure (locked by another
        server's write, a disk's error) raised as a :class:`StoreError` of
        its kind, as a write's is."""
        with self._lock:
            try:
                yield
            except sqlite3.Error as exc:
                raise StoreError(f"the game store could not read {self.path}: {exc}",
                                 failure_of(exc)) from exc
            except OverflowError:  # an id no SQLite integer holds: no such game
                raise StoreError(f"no game with id out of range in {self.path}",
                                 NO_GAME) from None

    def create_game(self, header: Mapping[str, Any] | Header) -> int:
        """Store a new game's header; returns its id."""
        hdr = header if isinstance(header, Header) else Header.from_dict(header)
        body = json.dumps(hdr.to_dict(), ensure_ascii=False)

        def do() -> int:
            cur = self._db.execute("INSERT INTO games(created, header) VALUES (?, ?)",
                                   (time.time(), body))
            return int(cur.lastrowid)

        return self._tx(do)

    def append(self, game_id: int, event: Mapping[str, Any]) -> int:
        """Append one event durably; returns its 1-based line number in the log."""
        body = json.dumps(dict(event), ensure_ascii=False)

        def do() -> int:
            version = self._version(game_id)
            (count,) = self._db.execute(
                "SELECT COUNT(*) FROM events WHERE game_id=? AND version=?",
                (game_id, version)).fetchone()
            line = count + 1
            self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                             (game_id, version, line, body, time.time()))
            return line

        return self._tx(do)

    def set_events(self, game_id: int, events: Iterable[Mapping[str, Any]], *,
                   reason: str) -> int:
        """Replace the event list by a corrected one (a new version); returns the version."""
        bodies = [json.dumps(dict(e), ensure_ascii=False) for e in events]

        def do() -> int:
            version = self._version(game_id) + 1
            now = time.time()
            self._db.executemany(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                [(game_id, version, i, b, now) for i, b in enumerate(bodies, start=1)])
            self._db.execute("INSERT INTO corrections VALUES (?, ?, ?, ?)",
                             (game_id, version, now, reason[:500]))
            self._db.execute("UPDATE games SET version=? WHERE id=?", (version, game_id))
            return version

        return self._tx(do)

    def finish(self, game_id: int, summary: Mapping[str, Any] | None = None) -> None:
        """Mark a game finished (it is then no longer resumed at start)."""
        body = json.dumps(dict(summary or {}), ensure_ascii=False)
        self._version(game_id)
        self._tx(lambda: self._db.execute(
            "UPDATE games SET finished=?, summary=? WHERE id=?", (time.time(), body, game_id)))

    def save_evidence(self, game_id: int, jpeg: bytes) -> str:
        """Write an evidence frame beside the database; returns its path.

        The oldest evidence files are deleted once the total passes the limit.
        """
        self._version(game_id)
        folder = self.evidence_dir / str(game_id)
        folder.mkdir(parents=True, exist_ok=True)
        name = f"{time.time_ns()}.jpg"
        path = folder / name
        tmp = folder / f".{name}.tmp"
        try:
            with open(tmp, "wb") as fh:
                fh.write(jpeg)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise StoreError(f"could not save evidence frame in {folder}: {exc.strerror}") from exc
        self._tx(lambda: self._db.execute(
            "INSERT INTO evidence(game_id, path, bytes, created) VALUES (?, ?, ?, ?)",
            (game_id, str(path), len(jpeg), time.time())))
        self._enforce_retention()
        return str(path)

    def drop_evidence(self, game_id: int, path: str) -> bool:
        """Delete evidence frame ``path`` of game ``game_id`` where no stored
        event refers to it (the frame of an event dropped before it was
        logged); returns whether it was deleted.

        A frame that any version of the game's log names (a line kept, or one
        a later correction replaced: the audit trail) is kept, and so is a
        file this store did not save. The row goes first, then the file: a
        stop between the two leaves a file that no row names, never a row
        that names a missing file.
        """
        path = str(path)
        # as an event's body says it (written as text, or with \u escapes)
        named = json.dumps(path, ensure_ascii=False), json.dumps(path)

        def do() -> bool:
            self._version(game_id)
            if self._db.execute(
                    "SELECT 1 FROM events WHERE game_id=? "
                    "AND (instr(body, ?) > 0 OR instr(body, ?) > 0) LIMIT 1",
                    (game_id, *named)).fetchone() is not None:
                return False
            cur = self._db.execute("DELETE FROM evidence WHERE game_id=? AND path=?",
                                   (game_id, path))
            return cur.rowcount > 0

        if not self._tx(do):
            return False
        Path(path).unlink(missing_ok=True)
        return True

    def _enforce_retention(self) -> None:
        with self._reading():
            (total,) = self._db.execute("SELECT COALESCE(SUM(bytes), 0) FROM evidence").fetchone()
            if total <= self.evidence_limit:
                return
            rows = self._db.execute("SELECT id, path, bytes FROM evidence ORDER BY id").fetchall()
        for ev_id, path, size in rows:
            if total <= self.evidence_limit:
                break
            # the row first, then the file (no row names a missing file)
            self._tx(lambda i=ev_id: self._db.execute("DELETE FROM evidence WHERE id=?", (i,)))
            Path(path).unlink(missing_ok=True)
            total -= size

    # -- reading -------------------------------------------------------------
    def _version(self, game_id: int) -> int:
        with self._reading():
            row = self._db.execute("SELECT version FROM games WHERE id=?",
                                   (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"no game with id {game_id!r} in {self.path}", NO_GAME)
        return int(row[0])

    def header(self, game_id: int) -> dict[str, Any]:
        """A game's header.

        Raises:
            StoreError: no such game (``no_game``), a header that cannot be
                read back (``log_damaged``: not JSON, no JSON object; the row
                is left as it is), or the database failed (by its kind).
        """
        with self._reading():
            row = self._db.execute("SELECT header FROM games WHERE id=?",
                                   (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"no game with id {game_id!r} in {self.path}", NO_GAME)
        return _header(row[0], game_id)

    def events(self, game_id: int, version: int | None = None) -> list[dict[str, Any]]:
        """The event list (current version unless one is named), line 1 first.

        A line that is JSON but no event (a list, say) is given as it is (the
        referee says it cannot take it).

        Raises:
            StoreError: no such game (``no_game``), a line that is not JSON
                (``log_damaged``; the row is left as it is), or the database
                failed (by its kind).
        """
        with self._reading():
            v = self._version(game_id) if version is None else version
            rows = self._db.execute(
                "SELECT line, body FROM events WHERE game_id=? AND version=? "
                "ORDER BY line",
                (game_id, v)).fetchall()
        out = []
        for line, body in rows:
            try:
                out.append(json.loads(body))
            except (ValueError, TypeError) as exc:  # TypeError: a blob, no text
                raise StoreError(f"line {line} of game {game_id}'s log cannot be read "
                                 f"back ({exc})", LOG_DAMAGED) from exc
        return out

    def corrections(self, game_id: int) -> list[dict[str, Any]]:
        """The audit trail: every correction with its time and reason."""
        with self._reading():
            rows = self._db.execute(
                "SELECT version, at, reason FROM corrections WHERE game_id=? ORDER BY version",
                (game_id,)).fetchall()
        return [{"version": v, "at": at, "reason": r} for v, at, r in rows]

    def evidence(self, game_id: int) -> list[str]:
        """Paths of the evidence frames kept for a game (within the limit), oldest first."""
        with self._reading():
            rows = self._db.execute("SELECT path FROM evidence WHERE game_id=? ORDER BY id",
                                    (game_id,)).fetchall()
        return [p for (p,) in rows]

    def games(self) -> list[GameSummary]:
        """Every stored game, newest first.

        A game whose header cannot be read back is listed as a damaged one
        (:attr:`GameSummary.damaged`), so that the others stay listed (and
        resumable); its rows are left as they are.

        Raises:
            StoreError: the database failed (by its kind).
        """
        with self._reading():
            rows = self._db.execute(
                "SELECT g.id, g.created, g.header, g.finished, g.summary, "
                "(SELECT COUNT(*) FROM events e WHERE e.game_id=g.id AND e.version=g.version) "
                "FROM games g ORDER BY g.id DESC").fetchall()
        return [_summary(*row) for row in rows]

    def last_game(self) -> int | None:
        """The newest unfinished game, to resume at start; ``None`` if there is none."""
        with self._reading():
            row = self._db.execute(
                "SELECT id FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else int(row[0])

    # -- exchange ------------------------------------------------------------
    def export(self, game_id: int) -> list[str]:
        """The game as a table log (spec format): header line, then one line per event."""
        return [dump_event(self.header(game_id))] + [dump_event(e) for e in self.events(game_id)]

    def import_log(self, lines: Iterable[str]) -> tuple[int, list[str]]:
        """Store a table log as a new game; returns its id and the lines that were skipped.

        A malformed line (a truncated last line, say) is reported and skipped;
        everything else is kept.
        """
        log = read_log(lines)
        if log.header is None:
            why = log.errors[0].message if log.errors else "the log is empty"
            raise StoreError(f"cannot import: no valid header ({why})")
        gid = self.create_game(log.header)
        events = [e.to_dict() for e in log.events]
        if events:
            self._tx(lambda: self._db.executemany(
                "INSERT INTO events VALUES (?, 0, ?, ?, ?)",
                [(gid, i, json.dumps(e, ensure_ascii=False), time.time())
                 for i, e in enumerate(events, start=1)]))
        return gid, [str(err) for err in log.errors]


def _header(body: Any, game_id: Any) -> dict[str, Any]:
    """A stored header read back; a :class:`StoreError` ``log_damaged``
    where it is not JSON or no JSON object."""
    try:
        header = json.loads(body)
    except (ValueError, TypeError) as exc:
        raise StoreError(f"game {game_id}'s header cannot be read back ({exc})",
                         LOG_DAMAGED) from exc
    if not isinstance(header, dict):
        raise StoreError(f"game {game_id}'s header cannot be read back (not a JSON "
                         f"object)", LOG_DAMAGED)
    return header


def _summary(gid: int, created: float, header: Any, finished: float | None,
             summary: Any, count: int) -> GameSummary:
    """One row of the history; a damaged one (``log_damaged``) where its
    header cannot be read back (its summary ``None`` where that cannot)."""
    damaged = None
    try:
        h = _header(header, gid)
    except StoreError:
        h, damaged = {}, LOG_DAMAGED
    game, rules = h.get("game", "uno"), h.get("rules", "")
    players = h.get("players", [])
    if not isinstance(game, str) or not isinstance(rules, str) or \
            not isinstance(players, list) or \
            not all(isinstance(p, str) for p in players):
        game, rules, players, damaged = "?", "", [], LOG_DAMAGED
    if damaged is not None:
        game = "?"
    try:
        said = json.loads(summary) if summary else None
    except (ValueError, TypeError):
        said = None
    if not isinstance(said, dict):
        said = None
    return GameSummary(gid, created, game, rules, list(players), count, finished,
                       said, damaged)


def default_db_path() -> Path:
    """``$TABLEREF_DB``, else ``$XDG_DATA_HOME/tableref/tableref.sqlite3``."""
    env = os.environ.get("TABLEREF_DB")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "tableref" / "tableref.sqlite3"
