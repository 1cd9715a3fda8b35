"""The page's camera path completes its events as ``tableref watch`` does.

Each camera event goes through a :class:`vision.completion.Completion`, the
completion loop ``watch``'s :class:`vision.live.LiveTable` uses too
(:func:`take_camera_event`); :class:`CameraTable` gives it the page's hooks:
a line goes in through :meth:`web.table.Table.append` (stored first, dropped
while the table is paused), a reading of the log is stored as a correction
(:func:`take`), a tgus-t camera line ruled illegal is amended as a stored
correction (``web.commands._amend``).

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
lines (a correction, an answer on the page, an undo, a re-read, another
game), what was kept to read again is dropped. Heard and entered events
appended between camera events are kept as they came. What was kept is saved
beside the stored game after each camera event (:mod:`web.pending`): a server
started again on the same store takes it up where the stored log still starts
with the lines it had seen.

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


class CameraTable:
    """The page's table as a camera event's completion loop sees it (the hooks
    of :class:`vision.completion.Table`): lines go in through
    :meth:`web.table.Table.append` (stored first, dropped while paused), a
    reading of the log is stored as a correction (:func:`take`), a tgus-t line
    ruled illegal is amended by ``amend``.

    Args:
        table: the page's :class:`web.table.Table` (its lock held).
        camera: the :class:`web.camera.Camera` whose completion is used.
        recoveries: the camera's :class:`vision.recoveries.Recoveries`
            (:func:`recoveries_for`), or ``None``.
        rereads: the game's tgus-t re-reads (:func:`web.reread.rereads_for`),
            or ``None``.
        state: the live referee's state.
        amend: called with every line the camera path put in the log.
        play: the pipeline's :class:`vision.config.PlayConfig` (``None``: the
            defaults).
    """

    def __init__(self, table: Any, camera: Any, recoveries: Any, rereads: Any,
                 state: Callable[[], Mapping[str, Any]],
                 amend: Callable[[dict[str, Any]], Any] = lambda e: None,
                 play: Any = None) -> None:
        self.page, self.camera = table, camera
        self.recoveries, self.rereads, self.play = recoveries, rereads, play
        self._state, self._amend = state, amend
        from vision.completion import Completion

        self.completion = Completion(self)
        hearing = self.hearing
        if hearing is not None:  # heard lines go in through this camera path
            hearing.append = self.completion.line
            hearing.state = lambda: table.referee.state()
            hearing.doubt = lambda: _doubt(table.referee)

    @property
    def handsfree(self) -> Any:
        return self.camera.handsfree

    @property
    def hearing(self) -> Any:
        """A recording's heard events held for the camera (``Table.hearing``)."""
        return getattr(self.page, "hearing", None)

    @property
    def referee(self) -> Any:
        return self.page.referee

    def now(self) -> Mapping[str, Any]:
        return self._state()

    def put(self, event: dict[str, Any]) -> tuple[int, Mapping[str, Any], list] | None:
        """One line stored and refereed; ``None`` where it was dropped (paused)."""
        referee = self.page.referee
        ruled = len(referee.rulings) if referee is not None else 0
        line, _ = self.page.append(event, source="vision")
        if not line or self.page.referee is not referee:
            return None
        return line, referee.events[line - 1], list(referee.rulings[ruled:])

    def amend(self, event: Mapping[str, Any]) -> list:
        self._amend(dict(event))
        return []

    def adopt(self, found: Any) -> list | None:
        """A reading stored as a correction (:func:`take`); ``None`` where the
        store refused it (the log stays as it was)."""
        try:
            take(self.page, self.camera, found)
        except TableError as exc:
            log.warning("a camera reading was not stored: %s", exc.message)
            return None
        return []

    def set_scan(self, on: bool) -> None:
        _set_scan(self.camera, on)


def take_camera_event(
    table: Any,
    camera: Any,
    event: Mapping[str, Any],
    state: Callable[[], Mapping[str, Any]],
    each: Callable[[dict[str, Any]], Any] = lambda e: None,
    play: Any = None,
    rereads: Any = None,
    replayed: bool | None = None,
) -> None:
    """Take camera ``event`` through the completion loop
    (:class:`vision.completion.Completion`, called under the table's lock),
    as ``tableref watch`` does: each line told to the recoveries (none while
    paused), ``each`` called with every line the camera path put in the log,
    a tgus-t game's ``rereads`` kept; ``play`` is the pipeline's
    :class:`vision.config.PlayConfig` (``None``: the defaults). What the
    camera path then holds is saved for a restart (:mod:`web.pending`), also
    where the event failed part way (the lines it put in the log stay). An
    event of a recording that this game already took (the recording played
    again from its start after a restart, :meth:`web.pending.Pending.replayed`)
    is not taken again; ``replayed``: what the caller already asked
    :meth:`~web.pending.Pending.replayed` of this event (asked once: it
    counts the events seen again), ``None``: asked here."""
    from . import reread

    pending = getattr(table, "pending", None)
    if pending is not None:
        if replayed is None:
            replayed = pending.replayed(camera, event)
        if replayed:  # a recording played again
            log.info("camera event at %ss of %s already taken: not taken again",
                     event.get("t"), camera.source)
            return
        pending.taken(camera, event)
    recover = None if table.paused else recoveries_for(table, camera)
    try:
        CameraTable(table, camera, recover, rereads, state, each, play
                    ).completion.take(event)
    finally:  # also where it failed part way: what the camera path holds now
        if recover is not None:
            _seen(table, camera)
        if rereads is not None:  # the log as the camera path left it
            reread.seen(table, camera)
        if pending is not None:  # kept for a restart (web.pending)
            pending.save()


def finish(table: Any, camera: Any,
           state: Callable[[], Mapping[str, Any]],
           each: Callable[[dict[str, Any]], Any] = lambda e: None,
           ended: bool = True) -> None:
    """The camera's events stopped coming (called under the table's lock): a
    copy still held for its next move stands and the heard events still held
    go in (:meth:`vision.completion.Completion.finish`), as
    :meth:`vision.live.LiveTable.finish` does; ``ended``: the source ran out
    by itself (``False``: the camera was lost, as ``watch`` tells a source
    that did not end)."""
    if table.referee is None:
        return
    from . import reread

    reread.check(table, camera)  # the log as the camera path left it?
    recover = recoveries_for(table, camera)
    CameraTable(table, camera, recover, None, state, each).completion.finish(ended)
    if recover is not None:
        _seen(table, camera)
    reread.seen(table, camera)  # the log as the camera path left it


def stood(table: Any, camera: Any, held: Mapping[str, Any],
          move: Mapping[str, Any]) -> None:
    """A held copy stood (the hook of ``HandsFree``, under the table's lock):
    a colour heard while it was held may name it, before the move that
    settled it is completed, as in ``watch``."""
    hearing = getattr(table, "hearing", None)
    if hearing is not None:
        hearing.after(float(held.get("t", 0)), float(move.get("t", 0)))


def _doubt(referee: Any) -> bool:
    """Whether the referee asked a question on a line (a ``pending``
    ``<preset>.question`` ruling on an event that carries one)."""
    events = referee.events
    return any(
        r.ruling == "pending" and r.rule.endswith(".question")
        and 0 < r.event <= len(events) and events[r.event - 1].get("question")
        for r in referee.rulings)


def _set_scan(camera: Any, on: bool) -> None:
    set_scan = getattr(getattr(camera, "pipeline", None), "set_scan", None)
    if callable(set_scan):
        set_scan(on)


def take(table: Any, camera: Any, found: Any) -> None:
    """A reading found (:meth:`vision.recoveries.Recoveries.next`, called under
    the table's lock): its log is stored as a correction from the inferred
    draw's line, each line it changed an undo step (the completion loop then
    carries on as the reading left it)."""
    old = list(table.referee.events)
    new = [dict(e) for e in found.referee.events]

    corrections.edit(table, "correct", found.line, new,
                     corrections.adopting(table, found.referee))
    for step in steps_between(old, new):
        table.steps.append(step)
