"""Corrections to a running game's log: correct, insert, delete, undo.

Each one checks the line, builds the corrected event list, and goes through
:func:`edit`: the referee replays first (a log it cannot replay changes
nothing), then the store takes the new list in one ``set_events`` call, then the
change is announced on the feed. :class:`web.table.Table` calls these with
itself; :func:`secret_after` and :func:`secrets` decide which events name cards
only the referee may see (see :mod:`web.privacy`).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Mapping
from typing import Any, Protocol

from referee.session import Change, Referee

from .events import check_event
from .privacy import is_secret, public_change
from .table_error import TableError, _storing
from .undo import Step, take_back


class Table(Protocol):
    """What a correction needs of the running table (:class:`web.table.Table`
    is one); a protocol, so that this module never imports the table's."""

    store: Any
    lock: Any
    gid: int | None
    referee: Referee | None
    secret: list[bool]
    steps: deque[Step]
    last_change: dict[str, Any] | None
    last_change_public: dict[str, Any] | None

    def _referee(self) -> Referee: ...

    def _announce(self, kind: str, data: dict[str, Any],
                  public: dict[str, Any] | None = None) -> None: ...

    def _finish_if_over(self) -> None: ...


log = logging.getLogger("web.table")


def secret_after(referee: Referee, event: Mapping[str, Any], new: list) -> bool:
    """Whether ``event``, just applied (``new``: its rulings), names cards only
    the referee may see."""
    return is_secret(
        event,
        lambda: (referee.state(), referee.public_view()),
        [r.ruling for r in new],
    )



def adopting(table: Table, referee: Any):
    """An ``apply`` for :func:`edit`: the table takes ``referee`` (a log read
    again elsewhere) as its own; the change is the rulings it drops and adds."""

    def adopt() -> Change:
        before = list(table.referee.rulings)
        table.referee = referee
        after = referee.rulings
        return Change([r for r in before if r not in after],
                      [r for r in after if r not in before])

    return adopt


def edit(
    table: Table,
    action: str,
    line: int,
    events: list[dict],
    apply,
    step: Step | None = None,
) -> dict[str, Any]:
    """Replay the corrected log, store it (one ``set_events``), announce the change.

    The replay runs first so that a log the engine cannot replay changes
    nothing; the answer is sent only once the store holds the new list.
    ``step`` is what undo will take back (none for an undo itself).
    """
    with table.lock:
        before = list(table._referee().events)
        secret_before = list(table.secret)
        try:
            change: Change = apply()
        except Exception as exc:  # an engine bug: keep the table as it was
            log.exception("the referee could not replay after %s %s", action, line)
            table.referee = replayed(table, before)
            table.secret = secret_before
            raise TableError(status=422, reason="replay_failed", params={
                "action": action, "kind": exc.__class__.__name__}) from exc
        try:
            with _storing():
                table.store.set_events(
                    table.gid, events, reason=f"{action} line {line}"
                )
        except TableError:
            table.referee = replayed(table, before)
            table.secret = secret_before
            raise
        result = {
            "action": action,
            "line": line,
            "removed": [r.to_dict() for r in change.removed],
            "added": [r.to_dict() for r in change.added],
        }
        if step is not None:
            table.steps.append(step)
        after = list(table._referee().events)
        table.secret = secrets(table, after)
        table.last_change = result
        table.last_change_public = public_change(
            result, (before, secret_before), (after, table.secret)
        )
        table._announce("change", result, table.last_change_public)
        table._finish_if_over()
        return result

def secrets(
    table: Table, events: list[dict]) -> list[bool]:
    """:func:`web.privacy.is_secret` for each event of a corrected log, by a
    replay of its own (only where an event shows cards)."""
    if not any(e.get("type") in ("reveal", "doubt") for e in events):
        return [is_secret(e, lambda: ({}, {})) for e in events]
    referee = Referee(table._referee().header)
    out = []
    for event in events:
        try:
            new = referee.append(event)
        except Exception:  # the engine failed on it: keep its cards hidden
            out.append(True)
            continue
        out.append(secret_after(referee, event, new))
    return out

def replayed(
    table: Table, events: list[dict]) -> Referee:
    referee = Referee(table._referee().header)
    for event in events:
        try:
            referee.append(event)
        except Exception:  # the same engine failure as when it was first applied
            log.exception("the referee failed on a stored event")
    return referee

def check_line(
    table: Table, line: Any) -> None:
    n = len(table._referee().events)
    if not isinstance(line, int) or isinstance(line, bool) or not 1 <= line <= n:
        raise TableError(status=404, reason="no_event_on_line",
                         params={"line": repr(line)[:40], "n": n})

def correct(
    table: Table, line: Any, obj: Any) -> dict[str, Any]:
    """Replace the event on ``line`` and replay; returns what changed."""
    event = check_event(obj)
    with table.lock:
        referee = table._referee()
        check_line(table, line)
        events = list(referee.events)
        old = dict(events[line - 1])
        events[line - 1] = event
        return edit(table, 
            "correct",
            line,
            events,
            lambda: referee.correct(line, event),
            Step("correct", line, old),
        )

def insert(
    table: Table, line: Any, obj: Any) -> dict[str, Any]:
    """Insert a forgotten event before ``line`` and replay."""
    event = check_event(obj)
    event.setdefault("source", "manual")
    with table.lock:
        referee = table._referee()
        n = len(referee.events)
        if (
            not isinstance(line, int)
            or isinstance(line, bool)
            or not 1 <= line <= n + 1
        ):
            raise TableError(status=404, reason="cannot_insert",
                             params={"line": repr(line)[:40], "n": n})
        events = list(referee.events)
        events.insert(line - 1, event)
        return edit(table, 
            "insert",
            line,
            events,
            lambda: referee.insert(line, event),
            Step("insert", line),
        )

def delete(
    table: Table, line: Any) -> dict[str, Any]:
    """Remove the event on ``line`` (a misread) and replay."""
    with table.lock:
        referee = table._referee()
        check_line(table, line)
        events = list(referee.events)
        removed = events.pop(line - 1)
        return edit(table, 
            "delete",
            line,
            events,
            lambda: referee.delete(line),
            Step("delete", line, dict(removed)),
        )

def undo(table: Table) -> dict[str, Any]:
    """Take back the last change to the log and replay (see :mod:`web.undo`).

    The answer says which change was taken back (``undid``: ``append``,
    ``correct``, ``insert`` or ``delete``) and on which line.
    """
    with table.lock:
        referee = table._referee()
        events = list(referee.events)
        step = table.steps[-1] if table.steps else None
        if step is None:  # a resumed game: the log alone says what came last
            if not events:
                raise TableError(status=409, reason="nothing_to_undo")
            step = Step("append", len(events))
        try:
            events, action, line, event = take_back(step, events)
        except ValueError:  # cannot happen while every change goes through here
            table.steps.clear()
            raise TableError(status=409, reason="undo_gone")
        apply = {
            "insert": lambda: referee.insert(line, event),
            "correct": lambda: referee.correct(line, event),
            "delete": lambda: referee.delete(line),
        }[action]
        result = edit(table, "undo", line, events, apply)
        if table.steps and table.steps[-1] is step:
            table.steps.pop()
        result["undid"] = step.action
        if table.last_change is result and table.last_change_public is not None:
            table.last_change_public["undid"] = step.action
        return result
