"""The error a table request ends with, and the store failures it reports."""

from __future__ import annotations

import errno
import logging
from collections.abc import Iterator
from contextlib import contextmanager

log = logging.getLogger("web.table")


class TableError(ValueError):
    """A request the table cannot carry out; the message says why (a 4xx)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


@contextmanager
def _storing() -> Iterator[None]:
    """Turn a store failure (disk full, database locked) into a 503 saying so."""
    try:
        yield
    except (RuntimeError, OSError) as exc:
        log.error("the game store failed: %s", exc)
        full = "full" in str(exc).lower() or getattr(exc, "errno", None) == errno.ENOSPC
        raise TableError(
            f"the event was not recorded: the game store failed ({exc})", 507 if full else 503
        ) from exc

