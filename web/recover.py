"""The page's camera path reads its log again as ``tableref watch`` does.

The camera keeps a :class:`vision.recoveries.Recoveries` for the running game
(:func:`recoveries_for`), the component ``watch``'s
:class:`vision.live.LiveTable` keeps too, and tells it what reached the log
(:func:`take_camera_event`): a round the referee ended on a camera play while
the camera's plays go on, no hand shown (a draw the camera missed), and a
question on a play that the plays after it answer (a draw and pass missed)
are read again the same way on both, so the page rules a video as the
command line does. A ruling that waits for the losers' hands switches the
camera's round-end scan on, as ``watch`` does.

A reading found is stored like a correction of the log (:func:`take`: one
``set_events``, replayed, announced on the feed as a change whose new rulings
say why, in each viewer's language); undo takes it back line by line, one
undo for each line it changed (:func:`web.undo.steps_between`).

What a person says wins: once anything but the camera path changes the log's
lines (a correction, an answer on the page, an undo, a re-read, a resumed or
another game), what was kept to read again is dropped. Heard and entered
events appended between camera events are kept as they came.

A sound track heard beside the camera (``serve --listen FILE``) is held as
``watch`` holds it, by the table's :class:`vision.hearing.Hearing`
(``Table.hearing``): each camera event first lets out what was heard up to
its time, an UNO call waits for the play it comes with, a colour for its wild
(tried again after each camera line and when a held copy stands), and
:func:`finish` lets out the rest.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any


from . import corrections
from .table_error import TableError
from .undo import steps_between

log = logging.getLogger(__name__)


def recoveries_for(table: Any, camera: Any) -> Any:
    """The camera's :class:`vision.recoveries.Recoveries` for the running game
    (called under the table's lock), in step with its log: the lines heard or
    entered since the camera's last event are told to it; a log changed
    otherwise (a person's change, another game) starts a fresh one. ``None``
    with no game or no hands-free refereeing in this installation."""
    referee = table.referee
    if referee is None:
        return None
    try:
        from vision.handsfree_tgus_t import TGUS_T_RULES
        from vision.recoveries import Recoveries
    except Exception as exc:  # a broken install: the log is not read again
        log.info("no camera recoveries: %s", exc)
        return None
    found = getattr(camera, "recoveries", None)
    seen = getattr(camera, "recoveries_seen", None)
    events = referee.events
    if (found is None or seen is None or seen[0] is not referee
            or seen[1] is not events or len(events) < seen[2]):
        found = Recoveries(on=referee.header.rules not in TGUS_T_RULES)
        camera.recoveries = found
    else:
        for line in range(seen[2] + 1, len(events) + 1):  # heard or entered
            found.appended(events[line - 1], [], line)
    return found


def _seen(table: Any, camera: Any) -> None:
    """The log as the camera path left it (to tell a person's change)."""
    referee = table.referee
    camera.recoveries_seen = (referee, referee.events, len(referee.events))


def take_camera_event(
    table: Any,
    camera: Any,
    event: Mapping[str, Any],
    state: Callable[[], Mapping[str, Any]],
    each: Callable[[dict[str, Any]], Any] = lambda e: None,
    play: Any = None,
) -> None:
    """Append camera ``event`` completed (called under the table's lock): a
    held copy it settles first, then the event itself unless it is held
    (:class:`vision.handsfree.HandsFree`), each line told to the recoveries;
    then the log read again while a reading is found. ``each`` is called
    with every line appended; ``play`` is the pipeline's
    :class:`vision.config.PlayConfig` (``None``: the defaults)."""
    recover = None if table.paused else recoveries_for(table, camera)
    handsfree = camera.handsfree
    camera_made = event.get("source") == "vision"
    hearing = _hearing(table, camera, recover)
    t = float(event.get("t", 0))
    if hearing is not None and camera_made and hearing.held:
        hearing.release(t)  # heard up to this camera event's time
    if recover is not None and camera_made:
        recover.camera(event)

    def append(e: dict[str, Any]) -> None:
        _append(table, camera, recover, e)
        each(e)

    if camera_made:
        for e in handsfree.settle(event, state()):
            append(e)
        if handsfree.read_state is not None and handsfree.hold(event, state()):
            if recover is not None:
                _seen(table, camera)
            return
    if recover is not None and camera_made:
        recover.completing(len(table.referee.events), event)
    try:
        try:  # a tgus-t play holding two turns' cards: one piece a turn
            pieces = handsfree.pieces(event, state())
        except Exception:  # a state the completion cannot read: as it came
            pieces = [dict(event)]
        for piece in pieces:
            try:
                lines = handsfree.complete(piece, state())
            except Exception:  # a state the completion cannot read: as it came
                lines = [dict(piece)]
            if not lines:  # folded into the event that follows (tgus-t Hit+?)
                continue
            for e in lines[:-1]:
                append(e)
            if hearing is not None and camera_made and hearing.calls:
                hearing.calls_before(t, lines[-1])  # before the play it comes with
            append(lines[-1])
            if hearing is not None and camera_made:
                hearing.after(t, t)
    finally:
        if recover is not None:
            recover.done()
    if recover is None:
        return
    while camera_made and recover.due:
        found = recover.next(table.referee, play)
        if found is None:
            break
        try:
            take(table, camera, found)
        except TableError as exc:  # the store refused it: the log stays as it was
            log.warning("a camera reading was not stored: %s", exc.message)
            recover.forget()
            break
    _seen(table, camera)


def finish(table: Any, camera: Any,
           state: Callable[[], Mapping[str, Any]]) -> None:
    """The camera's source ended (called under the table's lock): a copy
    still held for its next move stands (``HandsFree.finish``), its lines
    told to the recoveries, as :meth:`vision.live.LiveTable.finish` does."""
    handsfree = camera.handsfree
    if table.referee is None:
        return
    recover = recoveries_for(table, camera)
    hearing = _hearing(table, camera, recover)
    if handsfree is not None and handsfree.held is not None:
        for e in handsfree.finish(state()):
            _append(table, camera, recover, e)
    if hearing is not None:
        hearing.finish()
    if recover is not None:
        _seen(table, camera)


def stood(table: Any, camera: Any, held: Mapping[str, Any],
          move: Mapping[str, Any]) -> None:
    """A held copy stood (the hook of ``HandsFree``, under the table's lock):
    a colour heard while it was held may name it, before the move that
    settled it is completed, as in ``watch``."""
    hearing = getattr(table, "hearing", None)
    if hearing is not None:
        hearing.after(float(held.get("t", 0)), float(move.get("t", 0)))


def _hearing(table: Any, camera: Any, recover: Any) -> Any:
    """The table's :class:`vision.hearing.Hearing` (a recording heard beside
    the camera, set by ``serve``), appending through the camera path now, or
    ``None``."""
    hearing = getattr(table, "hearing", None)
    if hearing is not None:
        hearing.append = lambda e: _append(table, camera, recover, e)
        hearing.state = lambda: table.referee.state()
        hearing.doubt = lambda: _doubt(table.referee)
    return hearing


def _doubt(referee: Any) -> bool:
    """Whether the referee asked a question on a line (a ``pending``
    ``<preset>.question`` ruling on an event that carries one)."""
    events = referee.events
    return any(
        r.ruling == "pending" and r.rule.endswith(".question")
        and 0 < r.event <= len(events) and events[r.event - 1].get("question")
        for r in referee.rulings)


def _append(table: Any, camera: Any, recover: Any, event: dict[str, Any]) -> list:
    """One completed camera line (or a heard one let out at the camera's
    time) into the table's log, told to the recoveries; the round-end scan
    switched on where its rulings wait for the hands. Returns its rulings."""
    from vision.recoveries import wants_hands

    referee = table.referee
    ruled = len(referee.rulings) if referee is not None else 0
    line, _ = table.append(event, source="vision")
    if not line or table.referee is not referee:
        return []
    rulings = referee.rulings[ruled:]
    if recover is not None:
        recover.appended(referee.events[line - 1], rulings, line)
    if wants_hands(rulings):
        _set_scan(camera, True)
    return list(rulings)


def _set_scan(camera: Any, on: bool) -> None:
    set_scan = getattr(getattr(camera, "pipeline", None), "set_scan", None)
    if callable(set_scan):
        set_scan(on)


def take(table: Any, camera: Any, found: Any) -> None:
    """A reading found (:meth:`vision.recoveries.Recoveries.next`, called under
    the table's lock): its log is stored as a correction from the inferred
    draw's line, the camera's completion carries on as the reading left it,
    and the scan runs while the hands are awaited."""
    from vision.recoveries import carry_on

    old = list(table.referee.events)
    new = [dict(e) for e in found.referee.events]

    corrections.edit(table, "correct", found.line, new,
                     corrections.adopting(table, found.referee))
    carry_on(camera.handsfree, found)
    for step in steps_between(old, new):
        table.steps.append(step)
    _set_scan(camera, table.referee.state().get("phase") == "scoring")
