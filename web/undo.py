"""Undo by action: what the last change to the log was, and how to take it back.

"Undo" takes back the last *change*, whatever it was, and restores exactly
what it removed: after a delete it puts the deleted event back on its line,
after a correction it restores the event as it was, after an insert it removes
the inserted event, after a new event it removes that event. Every change to
the log goes through :class:`web.table.Table`, which keeps these steps in
order, so the line each step names is still right when it is undone.

A server that was restarted has no steps for the events of the game it
resumed: undo then removes the last event, as the log alone allows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MAX_STEPS = 500  # changes that can be taken back, newest first


@dataclass(frozen=True)
class Step:
    """One change to the log.

    Attributes:
        action: ``append``, ``correct``, ``insert`` or ``delete``.
        line: the line it changed (1-based).
        event: the event it removed (a delete) or replaced (a correct).
    """

    action: str
    line: int
    event: dict[str, Any] | None = None

    def inverse(self) -> tuple[str, int, dict[str, Any] | None]:
        """The change that takes this one back: (action, line, event)."""
        if self.action in ("append", "insert"):
            return "delete", self.line, None
        if self.action == "delete":
            return "insert", self.line, self.event
        if self.action == "correct":
            return "correct", self.line, self.event
        raise ValueError(f"no inverse for a {self.action!r} step")


def take_back(
    step: Step, events: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], str, int, dict[str, Any] | None]:
    """The log once ``step`` is taken back, and the change that does it.

    Returns:
        (the new event list, action, line, event) where action is ``insert``,
        ``correct`` or ``delete``, as :class:`referee.session.Referee` names them.

    Raises:
        ValueError: the log no longer has the line the step names.
    """
    action, line, event = step.inverse()
    out = list(events)
    if action == "insert" and event is not None and 1 <= line <= len(out) + 1:
        out.insert(line - 1, event)
    elif action == "correct" and event is not None and 1 <= line <= len(out):
        out[line - 1] = event
    elif action == "delete" and 1 <= line <= len(out):
        del out[line - 1]
    else:
        raise ValueError(f"line {line} of a {step.action} is no longer in the log")
    return out, action, line, event
