"""Which server holds which game of a store that several servers share.

Two ``tableref serve`` on one store (the same user folder, the same
``--db``) must not take each other's games: the one that starts second must
neither sweep the first's files as left by a stop (:mod:`web.sweep`) nor
referee the first's game beside it (two referees appending to one log).

Each server process holds a *lease* in ``<db>-servers/``: a file
``<pid>-<random>.lock`` it keeps locked (``flock``) while it runs, and beside
it ``<same>.json``, the games it has had as its current game since it started.
The operating system drops the lock when the process ends, however it ends
(``kill -9`` too): a lease whose lock can be taken is of a server that is
gone, and is deleted. A live lease whose games cannot be read counts as
holding every game (nothing of the store is swept meanwhile).

Choosing a game at start (resume the last one) and sweeping run under a lock
of the whole folder (``choose.lock``), so that two servers started together
cannot both take the same game. A store kept in memory, or a system without
``flock``, has no leases: every game is its own server's.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # no flock (Windows): one server per store, as before
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

#: the folder beside the store's database that holds the leases
KIND = "servers"
CHOOSE = "choose.lock"


def folder_of(store: Any) -> Path | None:
    """``<db>-servers`` of ``store`` (``None``: a store with no file)."""
    path = getattr(store, "path", None)
    if fcntl is None or not isinstance(path, (str, os.PathLike)) \
            or str(path) in ("", ":memory:"):
        return None
    return Path(f"{os.path.abspath(path)}-{KIND}")


class Lease:
    """This process's hold on the games of one store."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.name = f"{os.getpid()}-{secrets.token_hex(4)}"
        self.games: set[int] = set()
        self.lock = threading.Lock()
        self._fd: int | None = None

    def take(self) -> bool:
        """Lock this process's lease file (kept open until the process ends)."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.folder / f"{self.name}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            log.warning("no lease on the store's games (%s): %s", self.folder, exc)
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._fd = fd
        self._write()
        return True

    def hold(self, gid: int) -> None:
        """Say that this server has game ``gid`` (before it writes anything of it)."""
        with self.lock:
            if int(gid) in self.games:
                return
            self.games.add(int(gid))
            self._write()

    def _write(self) -> None:
        if self._fd is None:
            return
        target = self.folder / f"{self.name}.json"
        tmp = target.with_name(target.name + ".tmp")
        data = {"pid": os.getpid(), "since": time.time(), "games": sorted(self.games)}
        try:
            tmp.write_text(json.dumps(data), encoding="ascii")
            os.replace(tmp, target)
        except OSError as exc:
            log.warning("the lease of this server's games was not written: %s", exc)


_LEASES: dict[str, Lease] = {}
_REGISTRY = threading.Lock()


def lease_for(store: Any) -> Lease | None:
    """This process's lease on ``store`` (one a process: apps made in one
    process, as in the tests, are one server)."""
    folder = folder_of(store)
    if folder is None:
        return None
    with _REGISTRY:
        lease = _LEASES.get(str(folder))
        if lease is None:
            lease = Lease(folder)
            if not lease.take():
                return None
            _LEASES[str(folder)] = lease
        return lease


class Others:
    """The games other live servers hold: ``games`` {gid: pid}; ``unknown``:
    a live server whose games could not be read (it may hold any)."""

    def __init__(self) -> None:
        self.games: dict[int, int] = {}
        self.unknown = False

    def holds(self, gid: Any) -> bool:
        try:
            return self.unknown or int(gid) in self.games
        except (TypeError, ValueError):
            return True  # not a game id: in doubt, not ours

    def __bool__(self) -> bool:
        return self.unknown or bool(self.games)


def others(store: Any) -> Others:
    """What the other live servers of ``store`` hold; the leases of servers
    that are gone are deleted."""
    found = Others()
    folder = folder_of(store)
    if folder is None or not folder.is_dir():
        return found
    own = _LEASES.get(str(folder))
    for lock in sorted(folder.glob("*.lock")):
        name = lock.name[: -len(".lock")]
        if lock.name == CHOOSE or (own is not None and name == own.name):
            continue
        try:
            fd = os.open(lock, os.O_RDWR)
        except FileNotFoundError:
            continue
        except OSError:
            found.unknown = True
            continue
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:  # held: that server runs
                _read(folder / f"{name}.json", found)
                continue
            for path in (folder / f"{name}.json", lock):  # that server is gone
                try:
                    path.unlink()
                except OSError:
                    pass
        finally:
            os.close(fd)
    return found


def _read(path: Path, found: Others) -> None:
    try:
        data = json.loads(path.read_text(encoding="ascii"))
        pid = int(data.get("pid", 0))
        for gid in data.get("games", []):
            found.games[int(gid)] = pid
    except (OSError, ValueError, TypeError, AttributeError):
        found.unknown = True


@contextmanager
def choosing(store: Any) -> Iterator[None]:
    """Hold the store's folder lock while a server picks its game or sweeps."""
    folder = folder_of(store)
    fd = None
    if folder is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(folder / CHOOSE, os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError as exc:
            log.warning("the store's folder lock was not taken: %s", exc)
            if fd is not None:
                os.close(fd)
            fd = None
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)  # closing drops the lock
