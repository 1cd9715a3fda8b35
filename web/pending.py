"""What the camera path keeps between camera events, kept beside the stored game.

Between two camera events the page holds what a later ruling depends on and
the log does not yet show: a drawn copy of the top card held until the
camera's next move (``HandsFree.held``), the tgus-t completion's memory of a
turn draw (``TgusTHandsFree``), a round the referee ended on a camera play or
a question the plays may answer, with what came after it, and the readings
taken (:class:`vision.recoveries.Recoveries`), the heard events of a
recording still waiting for the camera (:class:`vision.hearing.Hearing`), and
whether the table is paused (camera and heard events then go unrecorded).
:class:`Pending` saves them beside the stored game after each camera event
(and each heard event held, each pause and resume), so that ``tableref
serve`` started again on the same store goes on as if it had not stopped: the
resumed game is paused as it was, and its camera path takes the rest up at
its first camera event (the recording's part once the listener holds heard
events again).

The recoveries are saved with the number of lines they had seen and a digest
of those lines (:func:`web.undo.digest`): where the stored log no longer
starts with them (a person changed it; another program did) they are not
used, as a person's change drops them while the server runs; the lines added
after them are told to them as heard or entered ones. What the camera holds
(the copy, the heard events) does not depend on the log's lines and is taken
up whatever the log.

Where they are kept: a store with ``save_pending(gid, data)`` and
``load_pending(gid)`` (:class:`web.memstore.MemoryStore`) keeps them itself;
beside a :class:`referee.store.GameStore` at ``<db>`` they are the JSON file
``<db>-camera/game-<gid>.json``, replaced whole when they change. Data that
cannot be read (a truncated or garbled file, data of another shape) is not
used, and the server's log says so and why; a restart never fails on it, and
a part that cannot be used changes nothing of what the camera path holds. The
file is written to a temporary one, flushed to the disk and renamed over the
old one, so a stop at any time leaves the old data or the new, whole.

What the game took of each source that plays again from its start is kept
too (:data:`LANES`: ``replay``, the camera's recording or the demo's log
played in its stead, with the sound track heard beside it; ``listened``, an
audio file heard on its own in real time): the source's identity and the time
of the last event taken, so that a restarted server playing it again takes
none of those twice; a live camera, a microphone or another source is taken
whole.

Saved with the log's line count, they are older than the stored log where
camera lines came after it (the server stopped between a camera event's
lines and their saving): the copy held and the completion's memory are then
not used (a copy that stood would stand twice), and the log says so.

What the table's hearing learns from the camera's events (who went down to
one card and when, for a likely UNO call; when a wild began to wait for its
colour) is not saved: the log holds it, and the hearing reads it again from
the resumed game's log at its first camera or heard event
(:meth:`Pending.take_up`, :meth:`vision.hearing.Hearing.rebuild`).

A tgus-t game's re-reads (:mod:`web.reread`: the events kept as they came,
the readings in force, the re-reads asked for and not yet done, or why they
stopped) are kept too (``rereads``) and taken up at the first camera event
where the log still starts with the lines it had when they were saved and
only heard or entered lines came after. A person's change of the log after a
restart, before the camera's first event, drops what was kept to read again
(the recoveries and the re-reads), as it does while the server runs.
"""

from __future__ import annotations

import json
import logging
import math
import os
from collections.abc import Mapping
from typing import Any

from .undo import Digests, beside

log = logging.getLogger(__name__)

FORMAT = 1  # the saved data's format


def _plain(value: Any) -> Any:
    """A value JSON cannot write as it is (a numpy number): as a plain one."""
    for name in ("item", "tolist"):
        if callable(getattr(value, name, None)):
            return getattr(value, name)()
    return str(value)


def _after(items: Any) -> list[tuple[str, dict[str, Any]]]:
    return [(str(kind), _event(event)) for kind, event in items]


def _event(value: Any) -> dict[str, Any]:
    """A saved event, checked as the page checks one (:func:`web.events.check_event`:
    one it cannot use would be refused, or refuse the camera's next move)."""
    from .events import check_event

    return check_event(value)


def _time(event: Any, kind: str = "camera") -> float | None:
    """A camera event's time on its source's clock, or a heard event's
    (``kind``: ``heard``); ``None``: none."""
    if not isinstance(event, Mapping) or (
            (event.get("source") == "vision") != (kind == "camera")):
        return None
    t = event.get("t")
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
        return None
    return float(t)


def _recording(camera: Any) -> bool:
    """Whether the camera plays a recording (a video file or a folder of
    frames, whose clock starts again at its start), not a live camera."""
    source = getattr(getattr(camera, "pipeline", None), "source", None)
    return getattr(source, "live", True) is False and \
        getattr(camera, "source", None) is not None


#: the sources that play again from their start, each saved as one record:
#: ``replay`` the camera's (a recording, or a recorded log played in its
#: stead) with the sound track heard beside it, ``listened`` an audio file
#: heard on its own in real time; the kinds of event each record keeps
LANES = {"replay": ("camera", "heard"), "listened": ("voice",)}
_LANE = {kind: lane for lane, kinds in LANES.items() for kind in kinds}


def _replay(value: Any, kinds: tuple[str, ...] = LANES["replay"]
            ) -> dict[str, Any] | None:
    """A saved record of a source played again (:meth:`Pending.taken`), checked."""
    if value is None:
        return None
    value = _object(value)
    out: dict[str, Any] = {"source": str(value["source"])}
    for kind in kinds:
        mark = value.get(kind)
        if mark is not None:
            mark = _object(mark)
            t, at_t = float(mark["t"]), int(mark["at_t"])
            if not math.isfinite(t) or at_t < 0:
                raise ValueError("not a time on the recording")
            mark = {"t": t, "at_t": at_t}
        out[kind] = mark
    return out


def _object(value: Any) -> dict[str, Any]:
    """A saved JSON object as a dict (anything else is data it cannot use)."""
    if not isinstance(value, Mapping):
        raise TypeError(f"expected an object, found {type(value).__name__}")
    return dict(value)


class Pending:
    """The camera path's pending state of the current game, saved and taken up.

    Args:
        table: the page's :class:`web.table.Table`.
    """

    def __init__(self, table: Any) -> None:
        self.table = table
        #: the data loaded for the resumed game, parts not yet taken up
        #: (``camera``, ``hearing``), with the game's id as ``gid``
        self.loaded: dict[str, Any] | None = None
        self._digests = Digests()
        self._saved: str | None = None
        #: what this game took of each source that plays again from its
        #: start (:data:`LANES`, :meth:`taken`): ``{"source", KIND: {"t",
        #: "at_t"} or None}``, or ``None``
        self.kept: dict[str, dict[str, Any] | None] = dict.fromkeys(LANES)
        #: of those, the events taken before the restart, not yet seen again
        self._until: dict[str, dict[str, Any] | None] = dict.fromkeys(LANES)
        self._again = dict.fromkeys(_LANE, 0)  # at their last times, seen again
        #: a camera whose events come from a recorded log played in its stead
        #: (:meth:`plays`), with the log's identity
        self._plays: tuple[Any, str] | None = None
        #: the game and the table's hearing whose clocks were read from that
        #: game's log (:meth:`_clocks`), or ``None``
        self._clocked: tuple[int, Any] | None = None
        #: likewise the listener's (:meth:`listening`)
        self._listened: tuple[int, Any] | None = None

    # -- loading and taking up --------------------------------------------------
    def load(self, gid: int) -> None:
        """The saved data of game ``gid`` (just resumed), to be taken up."""
        self.loaded, self._saved = None, None
        self._forget()
        try:
            data = _load(self.table.store, gid)
        except Exception as exc:  # unreadable: the game goes on without it
            log.warning("game %s: the camera's pending state was not read, the game "
                        "goes on without it (%s: %s)", gid, type(exc).__name__, exc)
            return
        if data is None:
            return  # none was saved
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            log.warning("game %s: the camera's pending state was not used, the game "
                        "goes on without it (not data of format %s: %.80r)",
                        gid, FORMAT, data)
            return
        self.loaded = {k: v for k, v in data.items()
                       if k in ("paused", "dropped", "camera", "hearing", "rereads")}
        self.loaded["gid"] = int(gid)
        if "camera" in self.loaded and self._older(data.get("lines")):
            log.warning("game %s: the camera's pending state is older than the stored "
                        "log (camera lines came after it was saved): the game goes on "
                        "without the copy held and the completion's memory", gid)
            self.loaded["camera"] = None
        for lane, kinds in LANES.items():
            try:
                self.kept[lane] = self._until[lane] = _replay(data.get(lane), kinds)
            except (TypeError, ValueError, KeyError) as exc:
                log.warning("game %s: the camera's pending %s was not used, the game "
                            "goes on without it (%s: %s)", gid, lane,
                            type(exc).__name__, exc)

    def _older(self, lines: Any) -> bool:
        """Whether data saved when the log had ``lines`` lines is older than
        the stored log: camera lines came after them (the server stopped
        between a camera event's lines and their saving)."""
        referee = self.table.referee
        if referee is None or isinstance(lines, bool) or not isinstance(lines, int):
            return False
        return any(isinstance(e, Mapping) and e.get("source") == "vision"
                   for e in referee.events[max(lines, 0):])

    @property
    def paused(self) -> bool:
        """Whether the resumed game's table was paused when it was saved."""
        return bool(self.loaded and self.loaded.get("paused") is True)

    @property
    def dropped(self) -> int:
        """How many camera and heard events the resumed game's paused table
        had dropped when it was saved (0 where it was not paused)."""
        n = self.loaded.get("dropped") if self.loaded and self.paused else 0
        return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else 0

    def clear(self) -> None:
        """A new game: nothing to take up."""
        self.loaded, self._saved = None, None
        self._forget()

    def _forget(self) -> None:
        """No source's events taken yet (a new game, or one just resumed)."""
        self.kept = dict.fromkeys(LANES)
        self._until = dict.fromkeys(LANES)
        self._again = dict.fromkeys(_LANE, 0)

    # -- a recording played again ------------------------------------------------
    def plays(self, camera: Any, source: str) -> None:
        """``camera``'s events come from ``source``, a recorded log played in
        its stead from its start (the demo's log replayed where the camera
        cannot run, :class:`web.camera.LogPlayer`): what this game took of it
        is kept as a recording's (:meth:`replayed`)."""
        self._plays = (camera, str(source))

    def _source(self, camera: Any) -> str | None:
        """The identity of the recording ``camera``'s events come from (a
        video file, or a log played in its stead); ``None``: a live camera."""
        plays = self._plays
        if plays is not None and camera is not None and plays[0] is camera:
            return plays[1]
        return str(camera.source) if _recording(camera) else None

    def replayed(self, camera: Any, event: Any, kind: str = "camera") -> bool:
        """Whether ``event`` is one this game already took from the same
        recording (a video file or a log played in the camera's stead, played
        again from its start by a restarted server; ``kind``: ``camera``, or
        ``heard`` from its sound track): its time is before the last one
        taken, or it is one of the events at that time already taken. Such an
        event is not taken again."""
        return self._replayed(self._source(camera), event, kind)

    def _replayed(self, source: str | None, event: Any, kind: str) -> bool:
        lane = _LANE[kind]
        until = self._until[lane]
        t = _time(event, kind)
        if until is None or t is None or source is None or source != until["source"]:
            return False
        mark = until.get(kind)
        if mark is None:
            return False
        if t < mark["t"]:
            return True
        if t == mark["t"] and self._again[kind] < mark["at_t"]:
            self._again[kind] += 1
            return True
        self._until[lane] = {**until, kind: None}  # played on past what was taken
        return False

    def taken(self, camera: Any, event: Any, kind: str = "camera") -> None:
        """``event`` is taken (``camera``: recorded, or dropped while paused;
        ``heard``: held for the camera): for a recording, its time is kept
        (:meth:`replayed`)."""
        self._taken(self._source(camera), event, kind)

    def _taken(self, source: str | None, event: Any, kind: str) -> None:
        lane = _LANE[kind]
        t = _time(event, kind)
        if t is None:
            return
        if source is None:  # a live source: its clock is not the recording's
            self.kept[lane] = None
            return
        replay = self.kept[lane]
        if replay is None or replay["source"] != source:
            replay = {"source": source, **dict.fromkeys(LANES[lane])}
        mark = replay.get(kind)
        if mark is not None and t == mark["t"]:
            mark = {"t": t, "at_t": mark["at_t"] + 1}
        elif mark is None or t > mark["t"]:
            mark = {"t": t, "at_t": 1}
        self.kept[lane] = {**replay, kind: mark}

    def listened(self, source: str | None, event: Any) -> bool:
        """A heard event of an audio file heard on its own in real time
        (``serve --listen FILE`` with no camera, ``source``: the file;
        ``None``: a microphone), before the table records it (called under the
        table's lock): whether to record it. ``False``: the restarted server
        hears the file again from its start, and this game already took that
        event."""
        return self._first_time(source, event, "voice")

    def heard(self, event: Any) -> bool:
        """A heard event of the sound track beside the camera's recording
        (``serve --listen FILE``), before the table's :class:`vision.hearing.Hearing`
        holds it (called under the table's lock): whether to hold it. ``False``:
        the restarted server hears the track again from its start, and this
        game already took that event."""
        return self._first_time(self._source(getattr(self.table, "camera", None)),
                                event, "heard")

    def _first_time(self, source: str | None, event: Any, kind: str) -> bool:
        """Whether ``event`` of ``source`` was not taken before (then it is
        taken now): :meth:`_replayed` and :meth:`_taken` in one."""
        if self._replayed(source, event, kind):
            return False
        self._taken(source, event, kind)
        return True

    def edited(self, why: str) -> bool:
        """A person changed the log before the resumed game's first camera
        event: what was kept to read it again (the recoveries, the re-reads)
        is dropped, as a person's change drops it while the server runs.
        Whether anything was dropped."""
        loaded = self.loaded
        if loaded is None or loaded.get("gid") != self.table.gid:
            return False
        dropped = False
        camera = loaded.get("camera")
        if isinstance(camera, Mapping) and camera.get("recoveries") is not None:
            loaded["camera"] = {**camera, "recoveries": None}
            dropped = True
        rereads = loaded.get("rereads")
        if isinstance(rereads, Mapping) and rereads.get("stopped") is None:
            from .reread import FORMAT as REREADS

            loaded["rereads"] = {"format": REREADS, "stopped": why}
            dropped = True
        return dropped

    def take_up(self, camera: Any) -> None:
        """Give the camera path what the resumed game had pending (called under
        the table's lock, before its camera event is taken); each part once."""
        self._clocks()
        loaded = self.loaded
        table = self.table
        if loaded is None:
            return
        if loaded.get("gid") != table.gid:
            self.loaded = None
            return
        handsfree = getattr(camera, "handsfree", None) if camera is not None else None
        if "camera" in loaded and handsfree is not None:
            self._part("camera", lambda part: self._camera(camera, part or {}))
        if "hearing" in loaded and getattr(table, "hearing", None) is not None:
            self._part("hearing", lambda part: self._hearing(table.hearing, part or {}))
        if "rereads" in loaded and camera is not None and hasattr(camera, "rereads"):
            self._part("rereads", lambda part: self._rereads(camera, part))
        if not any(k in loaded for k in ("camera", "hearing", "rereads")):
            self.loaded = None

    def _clocks(self) -> None:
        """The table's hearing (:class:`vision.hearing.Hearing`) reads what
        it learns from the camera's events (who went down to one card and
        when, the wild waiting for its colour) from the game's log, once for
        each game and hearing (:meth:`vision.hearing.Hearing.rebuild`): a
        resumed game's likely UNO call still counts for a player who went
        down to one card before the restart, and a new game starts with
        nothing of the last one's (the heard events it still held or kept
        waiting make no event in it). A log it cannot read is said in the
        server's log; the hearing then goes on with what it had."""
        self._read_again("_clocked", getattr(self.table, "hearing", None),
                         "the hearing learnt from the camera")

    def listening(self, listener: Any) -> None:
        """The table's voice listener (a :class:`voice.bridge.ListenHandle`
        judging its calls itself: a microphone, an audio file heard on its
        own) reads what it learnt of the game (who went down to one card and
        when, the wild waiting for its colour, its recent calls) again from
        the game's log, once for each game and listener, as the hearing does
        (:meth:`_clocks`, the same mechanism: :meth:`ListenHandle.rebuild`):
        a resumed game's calls are judged on what its log says, and a new
        game's on nothing of the last one's. Called under the table's lock
        before the listener reads the state; a log it cannot read is said in
        the server's log, and the listener goes on with what it had."""
        self._read_again("_listened", listener, "the listener learnt of the game")

    def _read_again(self, mark: str, heard: Any, what: str) -> None:
        """``heard`` (the hearing, the listener: its ``rebuild``) reads what
        it learnt of the table's game again from the log, once for each game
        and ``heard`` (``mark``: the attribute naming the game and the
        ``heard`` it was last read for); ``new_game`` where the game changed
        under the same ``heard`` (what it holds was heard in the last game).
        A failure is said in the server's log (``what``: what was not read
        again); ``heard`` then goes on with what it had."""
        table = self.table
        gid, referee = table.gid, table.referee
        rebuild = getattr(heard, "rebuild", None)
        if heard is None or referee is None or gid is None or rebuild is None:
            return
        seen = getattr(self, mark)
        if seen is not None and seen[0] == gid and seen[1] is heard:
            return
        new_game = seen is not None and seen[1] is heard
        setattr(self, mark, (gid, heard))
        try:
            rebuild(referee, new_game=new_game)
        except Exception as exc:  # it goes on with what it had
            log.warning("game %s: what %s was not read again from the log (%s: %s)",
                        gid, what, type(exc).__name__, exc)

    def hand_over(self, camera: Any) -> None:
        """The table's ``camera`` is replaced while its game runs (called
        under the table's lock): what its path holds (the copy held, the
        tgus-t completion's memory, the recoveries, the re-reads) is kept as
        a resumed game's is, for the next camera to take up at its first
        event (:meth:`take_up`); a part loaded and not yet taken up stays
        as it was loaded."""
        from . import reread

        table = self.table
        loaded = self.loaded if self.loaded is not None and \
            self.loaded.get("gid") == table.gid else {"gid": table.gid}
        if "camera" not in loaded:
            loaded["camera"] = self._camera_data(camera)
        if "rereads" not in loaded:
            loaded["rereads"] = reread.data(table, camera, self._digests)
        self.loaded = loaded

    def _part(self, name: str, take: Any) -> None:
        """Take up one part of the loaded data (once); data it cannot use is
        said in the server's log, and the game goes on without it."""
        assert self.loaded is not None
        part = self.loaded.pop(name)
        try:
            take(part)
        except Exception as exc:  # data it cannot use: the game goes on without it
            log.warning("game %s: the camera's pending %s was not taken up, the game "
                        "goes on without it (%s: %s)", self.table.gid, name,
                        type(exc).__name__, exc)

    def _rereads(self, camera: Any, data: Any) -> None:
        from . import reread

        if data is None:
            return
        why = reread.restore(self.table, camera, data, self._digests)
        if why is not None:
            log.info("game %s: the tgus-t re-reads were not taken up: %s",
                     self.table.gid, why)

    def _camera(self, camera: Any, data: Mapping[str, Any]) -> None:
        """The copy held, the tgus-t completion's memory and the recoveries,
        each read whole before anything is changed."""
        if not isinstance(data, Mapping):
            raise TypeError(f"not an object: {type(data).__name__}")
        handsfree = camera.handsfree
        held = data.get("held")
        if held is not None:
            held = (_event(held[0]), _object(held[1]))
            if not all(v is None or isinstance(v, str) for v in held[1].values()):
                raise ValueError("what the held copy waits for is not seats")
        tgus_t = data.get("tgus_t")
        memory = getattr(handsfree, "tgus_t", None)
        kept = None
        if tgus_t is not None and memory is not None:
            tgus_t = _object(tgus_t)
            rest, last = tgus_t.get("rest"), tgus_t.get("last")
            drawer = tgus_t.get("drawer")
            hidden = tgus_t.get("hidden")
            stuck = tgus_t.get("stuck")
            from vision.handsfree_tgus_t import MOVES_KEPT

            kept = (
                None if drawer is None else str(drawer),
                (str(rest[0]), int(rest[1])) if rest else None,
                [str(c) for c in tgus_t.get("multi_colours") or []],
                (str(last[0]), str(last[1])) if last else None,
                (str(hidden[0]), [str(c) for c in hidden[1]]) if hidden else None,
                tgus_t.get("after_end") is True,
                [str(s) for s in tgus_t.get("moved") or []][-MOVES_KEPT:],
                (str(stuck[0]), int(stuck[1])) if stuck else None)
        found = self._recoveries(data.get("recoveries"))
        if held is not None and handsfree.held is None:
            handsfree.held = held
        if kept is not None:
            (memory.drawer, memory.rest, memory.multi_colours, memory.last,
             memory.hidden, memory.after_end, memory.moved, memory.stuck) = kept
        if found is not None:
            camera.recoveries, camera.recoveries_seen = found

    def _recoveries(self, data: Any) -> tuple[Any, Any] | None:
        """The recoveries as saved, where the log still starts with the lines
        they had seen, with the log they are in step with; else ``None``."""
        from vision.handsfree import Asked, RoundEnd
        from vision.recoveries import Recoveries

        referee = self.table.referee
        if data is None or referee is None:
            return None
        data = _object(data)
        seen = int(data["seen"])
        events = referee.events
        if len(events) < seen or self._digests(events[:seen]) != data["digest"]:
            return None  # the log was changed otherwise: a person's word stands
        found = Recoveries(on=bool(data.get("on", True)))
        end, asked = data.get("round_end"), data.get("asked")
        if end is not None:
            found.round_end = RoundEnd(int(end["line"]), _after(end["after"]))
        if asked is not None:
            found.asked = Asked(int(asked["start"]), _event(asked["event"]),
                                _after(asked["after"]))
        found.lines = [int(n) for n in data.get("lines") or []]
        return found, (referee, events, seen)

    @staticmethod
    def _hearing(hearing: Any, data: Mapping[str, Any]) -> None:
        data = _object(data)
        kept = {name: [_event(e) for e in data.get(name) or []]
                for name in ("held", "waiting", "calls")}
        held = kept["held"] + list(hearing.held)
        held.sort(key=lambda e: float(e.get("t", 0)))
        for name in ("waiting", "calls"):
            setattr(hearing, name, kept[name] + list(getattr(hearing, name)))
        hearing.held = held

    # -- saving -----------------------------------------------------------------
    def data(self) -> dict[str, Any]:
        """What the camera path holds now, as data (parts not yet taken up as
        they were loaded)."""
        table = self.table
        loaded = self.loaded if self.loaded is not None and \
            self.loaded.get("gid") == table.gid else {}
        referee = table.referee
        out: dict[str, Any] = {
            "format": FORMAT, "paused": bool(table.paused), **self.kept,
            "lines": None if referee is None else len(referee.events),
            "dropped": int(getattr(table, "dropped", 0) or 0)}
        out["camera"] = loaded["camera"] if "camera" in loaded else \
            self._camera_data(table.camera)
        hearing = getattr(table, "hearing", None)
        out["hearing"] = loaded["hearing"] if "hearing" in loaded else (
            None if hearing is None else {
                name: [dict(e) for e in getattr(hearing, name)]
                for name in ("held", "waiting", "calls")})
        if "rereads" in loaded:
            out["rereads"] = loaded["rereads"]
        else:
            from . import reread

            out["rereads"] = reread.data(table, table.camera, self._digests)
        return out

    def _camera_data(self, camera: Any) -> dict[str, Any] | None:
        handsfree = getattr(camera, "handsfree", None)
        if handsfree is None:
            return None
        memory = getattr(handsfree, "tgus_t", None)
        held = handsfree.held
        return {
            "held": None if held is None else [dict(held[0]), dict(held[1])],
            "tgus_t": None if memory is None else {
                "drawer": memory.drawer,
                "rest": list(memory.rest) if memory.rest else None,
                "multi_colours": list(memory.multi_colours),
                "last": list(memory.last) if memory.last else None,
                "hidden": ([memory.hidden[0], list(memory.hidden[1])]
                           if memory.hidden else None),
                "after_end": bool(memory.after_end),
                "moved": list(memory.moved),
                "stuck": list(memory.stuck) if memory.stuck else None},
            "recoveries": self._recoveries_data(camera),
        }

    def _recoveries_data(self, camera: Any) -> dict[str, Any] | None:
        found = getattr(camera, "recoveries", None)
        seen = getattr(camera, "recoveries_seen", None)
        referee = self.table.referee
        if found is None or seen is None or referee is None \
                or seen[0] is not referee or seen[1] is not referee.events:
            return None  # not in step with the log: a fresh one is made anyway
        end, asked = found.round_end, found.asked
        return {
            "on": found.on,
            "seen": seen[2],
            "digest": self._digests(referee.events[:seen[2]]),
            "round_end": None if end is None else {
                "line": end.line, "after": [list(a) for a in end.after]},
            "asked": None if asked is None else {
                "start": asked.start, "event": dict(asked.event),
                "after": [list(a) for a in asked.after]},
            "lines": list(found.lines),
        }

    def saved(self) -> dict[str, Any] | None:
        """What :meth:`save` wrote last for this game, as data (``None``:
        nothing saved since the game was loaded or begun)."""
        return None if self._saved is None else json.loads(self._saved)

    def save(self) -> None:
        """Save what the camera path holds now beside the stored game (called
        under the table's lock); written only when it changed. A failure is
        logged: the game goes on, only a restart would lose it."""
        table = self.table
        if table.gid is None:
            return
        try:
            text = json.dumps(self.data(), ensure_ascii=True, sort_keys=True,
                              default=_plain)
            if text == self._saved:
                return
            _save(table.store, table.gid, text)
            self._saved = text
        except Exception:
            log.warning("could not save the camera's pending state of game %s",
                        table.gid, exc_info=True)


def _save(store: Any, gid: int, text: str) -> None:
    """Keep ``text`` (the data as JSON) beside game ``gid`` in ``store``."""
    if hasattr(store, "save_pending"):
        store.save_pending(gid, json.loads(text))
        return
    target = beside(store, gid, "camera")
    if target is None:
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    with open(tmp, "w", encoding="ascii") as out:  # whole on the disk, then renamed
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, target)
    try:  # the rename itself on the disk
        folder = os.open(target.parent, os.O_RDONLY)
    except OSError:  # a system that cannot open a folder (Windows)
        return
    try:
        os.fsync(folder)
    except OSError:
        pass
    finally:
        os.close(folder)


def _load(store: Any, gid: int) -> Any:
    if hasattr(store, "load_pending"):
        return store.load_pending(gid)
    target = beside(store, gid, "camera")
    if target is None or not target.exists():
        return None
    return json.loads(target.read_text(encoding="utf-8"))
