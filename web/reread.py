"""tgus-t re-reads on the page's camera path, as ``tableref watch`` makes them.

A camera event of a tgus-t game (the 東幻符闘祭 deck) whose lines the referee
rules illegal, and that no one-line amendment explains, may be explained by
an earlier camera event read otherwise (a Gamble's unheard effect, a Change's
or Replace's target, a card hidden under a play): the re-read of
:mod:`vision.reread_tgus_t`. It takes seconds, so it never runs on the
camera's callback: the camera keeps a :class:`vision.reread_tgus_t.CameraRereads`
for the running game (:func:`rereads_for`), whose worker thread finds the
reading while the camera goes on, and :func:`take` stores what it found as a
correction of the log (one ``set_events``, replayed, announced on the feed as
a change: the corrected event's ruling names its rule and ends with why it
was read so, ``inferred_msg``, said in each viewer's language).

What it reads again is what reached the referee as it came: the camera's
events before completion and the heard or entered events as appended
(:meth:`web.table.Table.append` keeps those). So it reads a game whose log
was empty when the camera's first event came, and stops once a person
corrects, inserts, deletes or undoes a line (the log is no longer what those
events give; the person's word stands). A re-read that changes one line is
undone as a correction of that line; one that changes more leaves no undo
step (undo then removes the last event).
"""

from __future__ import annotations

import logging
from typing import Any


from . import corrections
from .table_error import TableError
from .undo import Step

log = logging.getLogger(__name__)


def rereads_for(table: Any, camera: Any) -> Any:
    """The camera's re-reads for the running game, made at its first camera
    event when the game is tgus-t and its log still empty; else ``None``."""
    rereads = getattr(camera, "rereads", None)
    if rereads is not None and camera.rereads_gid == table.gid:
        return rereads if rereads.stopped is None else None
    camera.rereads = None
    referee = table.referee
    try:
        from vision.handsfree_tgus_t import TGUS_T_RULES
        from vision.reread_tgus_t import CameraRereads, RereadWorker
    except Exception as exc:  # a broken install: no re-reads
        log.info("no tgus-t re-reads: %s", exc)
        return None
    if referee is None or referee.header.rules not in TGUS_T_RULES or referee.events:
        return None
    rereads = CameraRereads(
        referee.header.to_dict(), table.lock,
        lambda reading: take(table, camera, rereads, reading),
        play=lambda: getattr(getattr(camera.pipeline, "config", None), "play", None),
        worker=RereadWorker(getattr(camera, "reread_mode", "thread")))
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
    """A person changed the log (``action``): no more re-reads for this game."""
    rereads = getattr(table.camera, "rereads", None)
    if rereads is not None and rereads.stopped is None:
        rereads.stop(f"a person made a {action} of the log")


def take(table: Any, camera: Any, rereads: Any, reading: Any) -> None:
    """A reading found (called under the table's lock): the log it gives is
    stored as a correction from the first line it changes, and the camera
    carries on with its completion."""
    from .commands import _colours_again, _game_state

    if table.camera is not camera or camera.rereads_gid != table.gid \
            or table.referee is None:
        rereads.stop("the game or the camera changed")
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

