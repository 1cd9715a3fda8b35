"""Undo by action: what the last change to the log was, and how to take it back.

"Undo" takes back the last *change*, whatever it was, and restores exactly
what it removed: after a delete it puts the deleted event back on its line,
after a correction it restores the event as it was, after an insert it removes
the inserted event, after a new event it removes that event. Every change to
the log goes through :class:`web.table.Table`, which keeps these steps in
order, so the line each step names is still right when it is undone.

The steps are kept beside the stored game (:func:`save`, :func:`load`) after
every change, so that a restarted server resumes them and undo still takes
back exactly the last change made before the restart. They are saved with the
number of events and a digest of the event list they lead to: steps that do
not lead to the stored log (a crash between the two writes, a log changed by
another program), or that are unreadable or missing, are not used; undo then
removes the last event, as the log alone allows, and says so (:data:`LOST`).

Where they are kept: a store with ``save_undo(gid, data)`` and
``load_undo(gid)`` (:class:`web.memstore.MemoryStore`) keeps them itself;
beside a :class:`referee.store.GameStore` at ``<db>`` they are the JSON file
``<db>-undo/game-<gid>.json`` (as its evidence frames are ``<db>-evidence/``),
replaced whole at each change.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

MAX_STEPS = 500  # changes that can be taken back, newest first
FORMAT = 1  # the saved steps' format
ACTIONS = ("append", "correct", "insert", "delete")
# Why saved steps were not used (the ``why`` of an undo that fell back).
LOST = {
    "missing": "no undo history was saved for this game",
    "unreadable": "the saved undo history could not be read",
    "stale": "the saved undo history does not match the stored log",
}


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


def steps_between(old: Sequence[Mapping[str, Any]],
                  new: Sequence[Mapping[str, Any]]) -> list[Step]:
    """Steps of one line each that change the log ``old`` into ``new``, in
    the order made (each line as the log stands then), so that undo takes
    them back one at a time to ``old``: a change of many lines made at once
    (a camera reading, :mod:`web.recover`) is undone line by line."""
    import difflib

    def key(event: Mapping[str, Any]) -> str:
        return json.dumps(dict(event), sort_keys=True, default=str)

    matcher = difflib.SequenceMatcher(
        None, [key(e) for e in old], [key(e) for e in new], autojunk=False)
    steps: list[Step] = []
    # from the bottom up, so that the lines above a change keep their numbers
    for tag, i1, i2, j1, j2 in reversed(matcher.get_opcodes()):
        if tag == "equal":
            continue
        same = min(i2 - i1, j2 - j1)
        steps += [Step("correct", i1 + k + 1, dict(old[i1 + k])) for k in range(same)]
        steps += [Step("delete", k + 1, dict(old[k]))
                  for k in reversed(range(i1 + same, i2))]
        steps += [Step("insert", i1 + (k - j1) + 1) for k in range(j1 + same, j2)]
    return steps


# -- the steps, kept beside the stored game ------------------------------------------

class Steps(deque):
    """The undo steps of the running game; every change is saved at once.

    A :class:`collections.deque` of :class:`Step` (newest last, at most
    :data:`MAX_STEPS`) that calls ``on_change()`` after ``append``, ``pop``
    and ``clear``; :meth:`restore` puts loaded steps back without saving.
    """

    def __init__(self, on_change: Callable[[], None] | None = None,
                 maxlen: int = MAX_STEPS):
        super().__init__((), maxlen)
        self.on_change = on_change
        self.digests = Digests()  # the saved log's digest, cheaply after an append

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def append(self, step: Step) -> None:
        super().append(step)
        self._changed()

    def pop(self) -> Step:
        step = super().pop()
        self._changed()
        return step

    def clear(self) -> None:
        super().clear()
        self._changed()

    def restore(self, steps: Iterable[Step]) -> None:
        """Replace the steps by loaded ones (nothing is saved)."""
        super().clear()
        super().extend(steps)


def _event_hash(event: Mapping[str, Any]) -> bytes:
    text = json.dumps(dict(event), sort_keys=True, ensure_ascii=True,
                      separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("ascii")).digest()


def digest(events: Sequence[Mapping[str, Any]]) -> str:
    """A digest of an event list (what saved steps must lead to): the SHA-256
    of its events' own SHA-256 (of their JSON, keys sorted), in order."""
    whole = hashlib.sha256()
    for event in events:
        whole.update(_event_hash(event))
    return whole.hexdigest()


class Digests:
    """:func:`digest` with each event's hash kept while the event is in the log.

    Saving the steps after every change hashes only the events new since the
    last save (an event's hash is kept with the event object itself, which is
    never changed once recorded), so a long game's next event costs little.
    """

    def __init__(self) -> None:
        self._kept: dict[int, tuple[Mapping[str, Any], bytes]] = {}

    def __call__(self, events: Sequence[Mapping[str, Any]]) -> str:
        whole = hashlib.sha256()
        kept: dict[int, tuple[Mapping[str, Any], bytes]] = {}
        for event in events:
            hit = self._kept.get(id(event))
            if hit is None or hit[0] is not event:
                hit = (event, _event_hash(event))
            kept[id(event)] = hit
            whole.update(hit[1])
        self._kept = kept
        return whole.hexdigest()


def to_data(steps: Iterable[Step], events: Sequence[Mapping[str, Any]],
            digests: Callable[[Sequence[Mapping[str, Any]]], str] = digest
            ) -> dict[str, Any]:
    """The steps as JSON data, with the event list they lead to (count, digest)."""
    return {
        "format": FORMAT,
        "events": len(events),
        "digest": digests(events),
        "steps": [
            {"action": s.action, "line": s.line,
             **({"event": s.event} if s.event is not None else {})}
            for s in steps
        ],
    }


class UndoDataError(ValueError):
    """Saved steps that cannot be used; ``why`` is a key of :data:`LOST`."""

    def __init__(self, why: str, detail: str = ""):
        super().__init__(f"{LOST.get(why, why)}{': ' + detail if detail else ''}")
        self.why = why


def from_data(data: Any, events: Sequence[Mapping[str, Any]]) -> list[Step]:
    """The steps saved as ``data``, checked against the log ``events``.

    Raises:
        UndoDataError: no data (``missing``), data that is not steps
            (``unreadable``), or steps that do not lead to ``events`` or cannot
            all be taken back on it (``stale``).
    """
    if data is None:
        raise UndoDataError("missing")
    if not isinstance(data, Mapping) or data.get("format") != FORMAT \
            or not isinstance(data.get("steps"), list):
        raise UndoDataError("unreadable", "not a saved undo history")
    steps = []
    for item in data["steps"]:
        if not isinstance(item, Mapping):
            raise UndoDataError("unreadable", "a step is not an object")
        action, line, event = item.get("action"), item.get("line"), item.get("event")
        if action not in ACTIONS or not isinstance(line, int) \
                or isinstance(line, bool) or line < 1 \
                or (event is not None and not isinstance(event, Mapping)) \
                or (action in ("correct", "delete") and event is None):
            raise UndoDataError("unreadable", f"a step reads {dict(item)!r:.80}")
        steps.append(Step(action, line, dict(event) if event is not None else None))
    if data.get("events") != len(events) or data.get("digest") != digest(events):
        raise UndoDataError("stale")
    log_now = [dict(e) for e in events]
    for step in reversed(steps):  # every step can be taken back, newest first
        try:
            log_now = take_back(step, log_now)[0]
        except ValueError:
            raise UndoDataError(
                "stale", f"line {step.line} of a {step.action}") from None
    return steps[-MAX_STEPS:]


def beside(store: Any, gid: int, kind: str = "undo") -> Path | None:
    """The file ``<db>-<kind>/game-<gid>.json`` that keeps something of game
    ``gid`` beside ``store``'s database (``None``: a store with no file)."""
    path = getattr(store, "path", None)
    if not isinstance(path, (str, os.PathLike)) or str(path) in ("", ":memory:"):
        return None
    return Path(f"{path}-{kind}") / f"game-{int(gid)}.json"


def save(store: Any, gid: int, data: Mapping[str, Any]) -> None:
    """Keep a game's steps beside it in ``store`` (see the module's doc).

    Raises:
        OSError: they could not be written (the caller logs it: the change
            itself is stored, only undo after a restart falls back).
    """
    if hasattr(store, "save_undo"):
        store.save_undo(gid, data)
        return
    target = beside(store, gid)
    if target is None:
        return  # a store that keeps no undo history: a restart falls back
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=True), encoding="ascii")
    os.replace(tmp, target)


def load(store: Any, gid: int) -> Any:
    """A game's saved steps as data; None where none were saved.

    Raises:
        UndoDataError: the saved file cannot be read (``unreadable``).
    """
    if hasattr(store, "load_undo"):
        return store.load_undo(gid)
    target = beside(store, gid)
    if target is None or not target.exists():
        return None
    try:
        return json.loads(target.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UndoDataError("unreadable", str(exc)[:200]) from None


def resumed(store: Any, gid: int, events: Sequence[Mapping[str, Any]]
            ) -> tuple[list[Step], str | None]:
    """The steps a resumed game's undo takes back, and why none if none.

    Returns:
        (steps, why): ``why`` is None when the saved steps were used (or the log
        is empty, so there is nothing to undo), else a key of :data:`LOST`.
    """
    try:
        return from_data(load(store, gid), events), None
    except UndoDataError as exc:
        if not events:
            return [], None
        log.warning("game %s: %s; undo removes the last event", gid, exc)
        return [], exc.why
    except Exception:  # a store that fails to read its own data: fall back too
        log.exception("game %s: the undo history could not be loaded", gid)
        return ([], "unreadable") if events else ([], None)
