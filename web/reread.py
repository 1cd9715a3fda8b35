"""tgus-t re-reads on the page's camera path, as ``tableref watch`` makes them.

A camera event of a tgus-t game (the 東幻符闘祭 deck) whose lines the referee
rules illegal, and that no one-line amendment explains, may be explained by
an earlier camera event read otherwise (a Gamble's unheard effect, a Change's
or Replace's target, a card hidden under a play): the re-read of
:mod:`vision.reread_tgus_t`. It takes seconds, so it never runs on the
camera's callback: the camera keeps a ``ServeRereads`` (a
:class:`vision.reread_tgus_t.CameraRereads`, :func:`_rereads_class`) for the
running game (:func:`rereads_for`), whose worker thread finds the reading
while the camera goes on, and :func:`take` stores what it found as a
correction of the log (one ``set_events``, replayed, announced on the feed as
a change: the corrected event's ruling names its rule and ends with why it
was read so, ``inferred_msg``, said in each viewer's language).

What it reads again is what reached the referee as it came: the camera's
events before completion and the heard or entered events as appended
(:meth:`web.table.Table.append` keeps those). So it reads a game whose log
was empty when the camera's first event came, and stops once anything but
the camera path changes the log's lines: a person's correction, insertion,
deletion or undo (:func:`edited`), an answer on the page, any other change
(the log is no longer as the camera path left it, :func:`seen`, checked
before each camera event and before a reading is stored): the person's
word stands, a reading found is not stored. A re-read that changes one line
is undone as a correction of that line; one that changes more leaves no undo
step (undo then removes the last event).

The re-reads are kept across a restart (:mod:`web.pending` saves
:func:`data` beside the stored game, :func:`restore` takes it up): the events
kept as they came, the readings in force, how much the re-reads read, the
re-reads asked for and not yet done (queued again after the restart, each
once), and why they stopped, if they did. They are taken up where the stored
log still starts with the lines it had when they were saved and only heard
or entered lines came after them (kept as heard); else a person or another
program changed the log and the resumed game has no re-reads.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from . import corrections
from .table_error import TableError
from .undo import Digests, Step

log = logging.getLogger(__name__)

FORMAT = 1  # the saved re-reads' format (web.pending)

#: the page's re-reads class (:func:`_rereads_class`), once made
ServeRereads: Any = None


def _rereads_class() -> type:
    """:class:`ServeRereads` (made at first use: the vision package is
    imported only when a tgus-t game's camera needs it)."""
    global ServeRereads
    if ServeRereads is None:
        from vision.reread_tgus_t import CameraRereads

        class _ServeRereads(CameraRereads):
            """The page's :class:`vision.reread_tgus_t.CameraRereads` (which
            keeps the re-reads queued and not yet done, so that a restart
            queues them again, and calls ``changed`` when a job is done, so
            that what it holds is saved): it also knows the log as the camera
            path left it (:attr:`seen`)."""

            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                #: the log as the camera path left it: (line count, digest)
                self.seen: tuple[int, str] | None = None
                self.digests = Digests()

        _ServeRereads.__name__ = _ServeRereads.__qualname__ = "ServeRereads"
        ServeRereads = _ServeRereads
    return ServeRereads


def _make(table: Any, camera: Any) -> Any:
    """A fresh :class:`ServeRereads` for the running game."""
    from vision.reread_tgus_t import RereadWorker

    referee = table.referee
    rereads = _rereads_class()(
        referee.header.to_dict(), table.lock,
        lambda reading: take(table, camera, rereads, reading),
        play=lambda: getattr(getattr(camera.pipeline, "config", None), "play", None),
        worker=RereadWorker(getattr(camera, "reread_mode", "thread")),
        changed=lambda: _save(table))
    return rereads


def _save(table: Any) -> None:
    pending = getattr(table, "pending", None)
    if pending is not None:
        pending.save()


def _in_step(table: Any, rereads: Any) -> bool:
    """Whether the log is as the camera path left it: it still starts with
    the lines it had then (heard or entered lines may have come after)."""
    seen = getattr(rereads, "seen", None)
    referee = table.referee
    if seen is None:
        return True
    if referee is None:
        return False
    events = referee.events
    return len(events) >= seen[0] and rereads.digests(events[:seen[0]]) == seen[1]


def _running(table: Any, camera: Any) -> Any:
    """The camera's page re-reads of the running game, not stopped; else None."""
    rereads = getattr(camera, "rereads", None)
    if rereads is None or table.referee is None or not hasattr(rereads, "seen") \
            or getattr(camera, "rereads_gid", None) != table.gid \
            or rereads.stopped is not None:
        return None
    return rereads


def check(table: Any, camera: Any) -> None:
    """Before the camera path changes the log (called under the table's
    lock): where the log is no longer as it left it, the re-reads stop."""
    rereads = _running(table, camera)
    if rereads is not None and not _in_step(table, rereads):
        rereads.stop("the log was changed otherwise than by the camera")


def seen(table: Any, camera: Any) -> None:
    """The camera path left the log as it is now (called under the table's
    lock at the end of each camera event, :func:`check` or
    :func:`rereads_for` called at its start): a change of its lines by
    anything else, before the next, ends the re-reads."""
    rereads = _running(table, camera)
    if rereads is not None:
        _mark(rereads, table.referee)


def _mark(rereads: Any, referee: Any) -> None:
    if hasattr(rereads, "seen"):
        rereads.seen = (len(referee.events), rereads.digests(referee.events))


def rereads_for(table: Any, camera: Any) -> Any:
    """The camera's re-reads for the running game, made at its first camera
    event when the game is tgus-t and its log still empty (or taken up after
    a restart, :func:`restore`); else ``None``. Where the log is no longer as
    the camera path left it (a person's change), they stop."""
    rereads = getattr(camera, "rereads", None)
    if rereads is not None and camera.rereads_gid == table.gid:
        if rereads.stopped is None and not _in_step(table, rereads):
            rereads.stop("the log was changed otherwise than by the camera")
        return rereads if rereads.stopped is None else None
    camera.rereads = None
    referee = table.referee
    try:
        from vision.handsfree_tgus_t import TGUS_T_RULES
        _rereads_class()
    except Exception as exc:  # a broken install: no re-reads
        log.info("no tgus-t re-reads: %s", exc)
        return None
    if referee is None or referee.header.rules not in TGUS_T_RULES or referee.events:
        return None
    rereads = _make(table, camera)
    camera.rereads, camera.rereads_gid = rereads, table.gid
    return rereads


def heard(table: Any, event: dict[str, Any]) -> None:
    """An event of another source than the camera went into the log (called
    by the table under its lock): kept as it came, to be read again as given."""
    camera = table.camera
    rereads = getattr(camera, "rereads", None)
    if rereads is not None and getattr(camera, "rereads_gid", None) == table.gid:
        rereads.heard(event)


def edited(table: Any, action: str) -> None:
    """A person changed the log (``action``): no more re-reads for this game
    (nor those a restart would take up), and that is saved."""
    why = f"a person made a {action} of the log"
    rereads = getattr(table.camera, "rereads", None)
    stopped = rereads is not None and rereads.stopped is None
    if stopped:
        rereads.stop(why)
    pending = getattr(table, "pending", None)
    if pending is not None and (pending.edited(why) or stopped):
        pending.save()


def take(table: Any, camera: Any, rereads: Any, reading: Any) -> None:
    """A reading found (called under the table's lock): the log it gives is
    stored as a correction from the first line it changes, and the camera
    carries on with its completion. Not taken where the game or the camera
    changed, or the log is no longer as the camera path left it."""
    try:
        _take(table, camera, rereads, reading)
    finally:
        if table.camera is camera:
            _save(table)


def _take(table: Any, camera: Any, rereads: Any, reading: Any) -> None:
    from .commands import _colours_again, _game_state

    if table.camera is not camera or camera.rereads is not rereads \
            or camera.rereads_gid != table.gid or table.referee is None:
        rereads.stop("the game or the camera changed")
        return
    if not _in_step(table, rereads):  # a person's answer, another program
        rereads.stop("the log was changed otherwise than by the camera")
        return
    old = list(table.referee.events)
    new = [dict(e) for e in reading.referee.events]
    complete = reading.complete
    complete.read_state = lambda: _game_state(table)
    complete.on_stood = lambda held, move: _colours_again(table)
    camera.handsfree = complete
    if new == old:
        return
    line = next((i for i, (a, b) in enumerate(zip(old, new), start=1) if a != b),
                min(len(old), len(new)) + 1)
    one = len(old) == len(new) and sum(a != b for a, b in zip(old, new)) == 1
    step = Step("correct", line, dict(old[line - 1])) if one else None

    try:
        corrections.edit(table, "correct", min(line, len(new)) or 1, new,
                         corrections.adopting(table, reading.referee), step)
    except TableError as exc:
        rereads.stop(f"the re-read could not be stored: {exc.message}")
        return
    if step is None:
        table.steps.clear()  # the lines its steps name have moved
    _mark(rereads, table.referee)  # the camera path's own change


# -- kept across a restart (web.pending) -------------------------------------------
def data(table: Any, camera: Any, digests: Any) -> dict[str, Any] | None:
    """The running game's re-reads as data (called under the table's lock),
    with the log's line count and digest (``digests``, a
    :class:`web.undo.Digests`) they go with; ``None``: none."""
    rereads = getattr(camera, "rereads", None)
    referee = table.referee
    if rereads is None or referee is None or getattr(camera, "rereads_gid", None) \
            != table.gid:
        return None
    if rereads.stopped is not None:
        return {"format": FORMAT, "stopped": str(rereads.stopped)}
    return {
        "format": FORMAT,
        "stopped": None,
        "lines": len(referee.events),
        "digest": digests(referee.events),
        **rereads.state(),
    }


def restore(table: Any, camera: Any, saved: Any, digests: Any) -> str | None:
    """Take up the re-reads saved by :func:`data` for the resumed game
    (called under the table's lock); the re-reads asked for and not done are
    queued again, in the order asked (run as the worker's mode says: a
    thread's jobs wait for the lock). Returns why they were not taken up (said in
    the server's log by the caller), or ``None``.

    Raises:
        ValueError, TypeError, KeyError: data that is not what :func:`data`
            writes (nothing is changed then).
    """
    if not isinstance(saved, Mapping) or saved.get("format") != FORMAT:
        raise ValueError("not the re-reads' saved data")
    referee = table.referee
    if referee is None:
        return "no game"
    stopped = saved.get("stopped")
    if stopped is not None:
        rereads = _make(table, camera)
        rereads.stop(str(stopped))
        camera.rereads, camera.rereads_gid = rereads, table.gid
        return None
    lines, digest = int(saved["lines"]), str(saved["digest"])
    state = _rereads_class().parse_state(saved, _event)
    events = referee.events
    if len(events) < lines or digests(events[:lines]) != digest:
        return "the log was changed since they were saved"
    later = events[lines:]
    if any(e.get("source", "vision") == "vision" for e in later):
        return "camera lines came after they were saved"
    rereads = _make(table, camera)
    rereads.restore(state)
    for event in later:  # heard or entered while the server was down or since
        rereads.heard(dict(event))
    camera.rereads, camera.rereads_gid = rereads, table.gid
    _mark(rereads, referee)
    rereads.flush()
    return None


def _event(value: Any) -> dict[str, Any]:
    """A saved event, checked as the page checks one (a reading stores the
    events it reads again)."""
    from .events import check_event

    return check_event(value)
