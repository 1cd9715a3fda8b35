"""The referee side of a camera session: :class:`LiveTable`.

``tableref watch`` and ``tableref demo`` feed the pipeline's events to a live
:class:`referee.session.Referee` through a :class:`LiveTable`, which prints
each ruling as it happens, writes the table log, and switches the round-end
scoring scan on when the referee asks for the losers' hands.
"""

from __future__ import annotations

import sys
import threading
from typing import Any, TextIO

from referee.log import LogError, dump_event
from referee.session import Referee


class LiveTable:
    """Events in, rulings out: the referee side of a camera session.

    Args:
        header: the table-log header.
        out: where rulings are printed (one line each); standard output by default.
        log_path: the table log to write (header first), or ``None``.
    """

    def __init__(
        self,
        header: dict[str, Any],
        out: TextIO | None = None,
        log_path: str | None = None,
    ):
        self.referee = Referee(header)
        self._out = out
        self.log = open(log_path, "w", encoding="utf-8") if log_path else None
        if self.log:
            self.log.write(dump_event(self.referee.header.to_dict()) + "\n")
            self.log.flush()
        self.pipeline: Any = None
        self.lock = threading.Lock()

    @property
    def out(self) -> TextIO:
        return self._out if self._out is not None else sys.stdout

    def append(self, event: dict[str, Any]) -> list:
        """Record one event, print its rulings; start the scan at a round's end."""
        with self.lock:
            try:
                rulings = self.referee.append(event)
            except LogError as exc:
                print(
                    f"[---] skipped an event that is not one: {exc.message}",
                    file=self.out,
                )
                return []
            if self.log:
                self.log.write(dump_event(event) + "\n")
                self.log.flush()
            line = len(self.referee.events)
            for r in rulings:
                src = event.get("source", "")
                print(
                    f"[{line:>3}] {float(event.get('t', 0)):6.1f}s {src:<6} "
                    f"{r.ruling:<9} "
                    f"{r.rule:<24} {r.text}",
                    file=self.out,
                    flush=True,
                )
                if (
                    r.rule.endswith("round-end")
                    and r.ruling == "pending"
                    and self.pipeline
                ):
                    self.pipeline.set_scan(True)
            return rulings

    def state(self) -> dict[str, Any]:
        with self.lock:
            return self.referee.state()

    def close(self) -> None:
        if self.log:
            self.log.close()
