"""The error a table request ends with, and the store failures it reports."""

from __future__ import annotations

import logging
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
    except (RuntimeError, OSError) as exc:  # the store's StoreError, a disk's
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


#: what a read of the store raises: the game store's
#: :class:`referee.store.StoreError` (a ``RuntimeError``, by its ``kind``),
#: a :class:`web.memstore.MemoryStore`'s ``KeyError`` (no such game), a
#: disk's ``OSError``
READ_FAILURES = (RuntimeError, KeyError, OSError)


def refused_read(exc: BaseException, gid: object = None,
                 damaged: str = "stored_game_unrefereeable") -> TableError:
    """The refusal of a read of the store that failed, by the store's kind
    (``StoreError.kind``): a game it does not hold (``no_game``, a
    ``KeyError``) 404 ``no_stored_game``; a stored row it cannot read back
    (``log_damaged``: the rows are left as they are) 409 ``damaged``; any
    other failure (a database locked by another server's write, a disk's
    error) :func:`unreadable`'s 503."""
    from referee.store import LOG_DAMAGED, NO_GAME

    kind = getattr(exc, "kind", None)
    if isinstance(exc, KeyError) or kind == NO_GAME:
        return TableError(status=404, reason="no_stored_game", params={"gid": gid})
    if kind == LOG_DAMAGED:
        log.warning("stored game %s cannot be read back: %s", gid, exc)
        return TableError(status=409, reason=damaged, params={"gid": gid, "why": exc})
    return unreadable(exc)


@contextmanager
def _reading(gid: object = None,
             damaged: str = "stored_game_unrefereeable") -> Iterator[None]:
    """Turn a failed read of the store into :func:`refused_read`'s refusal."""
    try:
        yield
    except TableError:
        raise
    except READ_FAILURES as exc:
        raise refused_read(exc, gid, damaged) from exc
