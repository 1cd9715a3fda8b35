"""The error a table request ends with, and the store failures it reports."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

log = logging.getLogger("web.table")


class TableError(ValueError):
    """A request the table cannot carry out; the message says why (a 4xx).

    ``reason`` is the refusal's code in :data:`web.errors.ERRORS` (the message
    is then its English sentence and ``message`` may be left out); the page
    says it in the viewer's language.
    """

    def __init__(self, message: str | None = None, status: int = 400, *,
                 reason: str | None = None, params: dict | None = None):
        from .errors import say

        self.reason = reason
        self.params = dict(params or {})
        if message is None:
            message = say(reason or "", "en", self.params)
        super().__init__(message)
        self.message = message
        self.status = status


@contextmanager
def _storing() -> Iterator[None]:
    """Turn a store failure (disk full, database locked) into a 503 saying so."""
    try:
        yield
    except (RuntimeError, OSError, sqlite3.Error) as exc:
        from .errors import failure_kind

        log.error("the game store failed: %s", exc)
        full = failure_kind(exc) == "disk_full"  # the failure's code decides
        raise TableError(
            status=507 if full else 503,
            reason="store_full" if full else "store_failed", params={"why": exc},
        ) from exc



def unreadable(exc: BaseException) -> TableError:
    """The refusal of a failed read of the store (a database locked by
    another server's write, a disk's input or output error): a 503 saying
    so, by its kind."""
    log.error("the game store could not be read: %s", exc)
    return TableError(status=503, reason="store_unreadable", params={"why": exc})


#: what a failed read of the store raises (the store's own errors are
#: ``RuntimeError``s; the database's and the disk's come through as they are)
READ_FAILURES = (RuntimeError, OSError, sqlite3.Error)


@contextmanager
def _reading() -> Iterator[None]:
    """Turn a failed read of the store into :func:`unreadable`'s 503."""
    try:
        yield
    except TableError:
        raise
    except READ_FAILURES as exc:
        raise unreadable(exc) from exc
