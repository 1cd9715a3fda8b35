"""A table's message feed: what the SSE stream serves and resumes from.

:class:`Feed` keeps the last :data:`FEED_SIZE` messages, each with the data the
referee's view sees and the data the table view may see (no hidden card), and
wakes the streams waiting for the next one. It shares the table's lock.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any

FEED_SIZE = 1000  # messages the SSE stream can resume from


class Feed:
    """Numbered messages of one table, under the table's lock.

    Args:
        lock: the table's lock; :meth:`announce` is called holding it.
    """

    def __init__(self, lock: threading.RLock):
        self.lock = lock
        self.changed = threading.Condition(lock)
        # (id, kind, data, the data as the table view may see it)
        self.messages: deque[tuple[int, str, dict[str, Any], dict[str, Any]]] = deque(
            maxlen=FEED_SIZE
        )
        # Feed ids start from the clock so that they never repeat across restarts
        # of the server: a page reconnecting with an old Last-Event-ID always
        # gets a reset instead of silently missing what happened in between.
        self.seq = time.time_ns() // 1_000_000

    def announce(
        self, kind: str, data: dict[str, Any], public: dict[str, Any] | None = None
    ) -> None:
        """Put a message on the feed; ``public`` is what the table view may see."""
        self.seq += 1
        self.messages.append((self.seq, kind, data, data if public is None else public))
        self.changed.notify_all()

    def after(
        self, last: int, timeout: float, public: bool, reset: dict[str, Any]
    ) -> list[tuple[int, str, dict]]:
        """Messages with an id above ``last``, waiting up to ``timeout`` for one.

        A client whose ``last`` has already left the feed, or comes from another
        run of the server, gets one ``reset`` message (data ``reset``) alone.
        """
        with self.lock:
            if last > self.seq:  # an id from another run of the server
                return [(self.seq, "reset", reset)]
            oldest = self.messages[0][0] if self.messages else self.seq + 1
            if last > 0 and oldest > last + 1:  # what came after it is gone
                return [(self.seq, "reset", reset)]
            if not self.messages or self.messages[-1][0] <= last:
                self.changed.wait(timeout)
            return [
                (seq, kind, shown if public else data)
                for seq, kind, data, shown in self.messages
                if seq > last
            ]
