"""A live referee: events arrive one at a time and can be corrected.

The page, the camera pipeline and the voice listener all feed a
:class:`Referee`. Applying a new event is incremental; correcting or undoing
an earlier one replays the corrected log (state is always what a clean
replay of the log gives), and :meth:`Referee.correct` reports what changed.

A replay starts from the last of the game's snapshots before the first line
that changed: the referee keeps a copy of the game every
:data:`SNAPSHOT_EVERY` lines (with the count of rulings then), so correcting
a line near the end of a long log replays a few lines, not all of them. A
snapshot is never changed once taken (a replay starts from a copy of it), and
those after a changed line are dropped. A replay leaves the game, the lines
and the rulings it replaced as they were, so :meth:`Referee.try_correct` puts
a correction that is not kept back without replaying. A copy of a referee
(``copy.deepcopy``) copies the game and shares the rest: the rulings are
frozen, the snapshots are never changed, and a line is replaced, never
changed in place (each line is the referee's own ``dict``).
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Mapping

from .game import Game, apply_safely, new_game, start_game
from .log import Event, Header, LogError, dump_event
from .rulings import Ruling
from .text import Text, define

define({
    "game.event-not-object": {
        "en": "an event must be an object, got {type}",
        "ja": "イベントはオブジェクトでなければなりません（{type}でした）",
    },
    "game.event-type": {
        "en": "an event needs a string 'type' other than 'game'",
        "ja": "イベントには「game」以外の文字列の「type」が必要です",
    },
    "game.no-line-before": {
        "en": "no line {line} to insert before",
        "ja": "{line}行目がないため、その前に挿入できません",
    },
    "game.nothing-to-undo": {
        "en": "there is no event to undo",
        "ja": "取り消すイベントがありません",
    },
    "game.no-line": {
        "en": "no event on line {line} (the log has {n})",
        "ja": "{line}行目にイベントはありません（ログは{n}行です）",
    },
})


#: lines between two snapshots of the game (see the module docstring)
SNAPSHOT_EVERY = 16
#: snapshots kept besides those, each just before a line replayed
HERE_SNAPSHOTS = 8


class Change:
    """What a correction changed: rulings that disappeared and rulings that
    appeared. A replay's own (``before``, ``after``: the rulings before and
    after it) works them out when first asked for: a correction tried and put
    back never needs them."""

    def __init__(self, removed: list[Ruling] | None = None,
                 added: list[Ruling] | None = None, *,
                 before: list[Ruling] | None = None,
                 after: list[Ruling] | None = None) -> None:
        self._lists = (removed, added) if before is None else None
        self._replay = (before, after or [])

    @property
    def removed(self) -> list[Ruling]:
        return self._worked_out()[0]

    @property
    def added(self) -> list[Ruling]:
        return self._worked_out()[1]

    def _worked_out(self) -> tuple[list[Ruling], list[Ruling]]:
        if self._lists is None:
            before, after = self._replay
            # the rulings up to the first that differs are the same in both:
            # only the rest are compared one with another (a replay changes
            # the tail)
            same, n = 0, min(len(before), len(after))
            while same < n and before[same] == after[same]:
                same += 1
            head, was, now = before[:same], before[same:], after[same:]
            removed = [r for r in was if r not in now and r not in head]
            added = [r for r in now if r not in was and r not in head]
            self._lists, self._replay = (removed, added), (None, None)
        removed, added = self._lists
        return list(removed or []), list(added or [])

    def __repr__(self) -> str:
        return f"Change(removed={self.removed!r}, added={self.added!r})"


class Referee:
    """Holds a header, the event list (line 1 onwards) and the rulings so far."""

    def __init__(self, header: Header | Mapping[str, Any], *, new: bool = False):
        """A referee for ``header``.

        Args:
            header: the game's header.
            new: a new game is being started (the page's new game, a live
                table): a header option the game cannot use refuses it
                (:func:`referee.game.start_game`). Without it (a stored game
                resumed or replayed) such an option is an ``info`` ruling and
                the preset's value holds.

        Raises:
            GameError: an unknown game or preset; with ``new``, a refused option.
        """
        if not isinstance(header, Header):
            header = Header.from_dict(header)
        self.header = header
        self.game: Game = start_game(header) if new else new_game(header)
        self.events: list[dict[str, Any]] = []
        self.rulings: list[Ruling] = []
        #: lines applied -> (a copy of the game after them, the rulings' count
        #: then); never changed once taken
        self._snapshots: dict[int, tuple[Game, int]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> "Referee":
        new = object.__new__(type(self))
        memo[id(self)] = new
        new.header = self.header
        memo[id(self.header)] = self.header  # frozen, and the game's own
        new.game = copy.deepcopy(self.game, memo)
        new.events = [dict(e) for e in self.events]
        new.rulings = list(self.rulings)
        new._snapshots = dict(self._snapshots)
        return new

    # -- feeding -----------------------------------------------------------------
    @staticmethod
    def _check(obj: Any, line: int) -> dict[str, Any]:
        if not isinstance(obj, Mapping):
            raise LogError(line, Text("game.event-not-object", type=type(obj).__name__))
        kind = obj.get("type")
        if not isinstance(kind, str) or not kind or kind == "game":
            raise LogError(line, Text("game.event-type"))
        return dict(obj)

    def append(self, obj: Mapping[str, Any]) -> list[Ruling]:
        """Record one event and return its rulings.

        Raises:
            LogError: the object is not an event (nothing is recorded then).
        """
        line = len(self.events) + 1
        event = self._check(obj, line)
        self.events.append(event)
        new = apply_safely(self.game, Event(line, event["type"], event))
        self.rulings += new
        self._snapshot(line)
        return new

    def _game_copy(self, game: Game) -> Game:
        """A deep copy of ``game`` (its header, frozen, shared)."""
        return copy.deepcopy(game, {id(self.header): self.header})

    def _snapshot(self, lines: int, here: bool = False) -> None:
        """A copy of the game after ``lines`` lines: every SNAPSHOT_EVERY, and
        ``here`` (the line before a replayed change: a correction tried again
        there replays from it; the latest HERE_SNAPSHOTS of those are kept)."""
        if lines % SNAPSHOT_EVERY and (not here or lines in self._snapshots):
            return
        self._snapshots[lines] = (self._game_copy(self.game), len(self.rulings))
        extra = sorted(k for k in self._snapshots if k % SNAPSHOT_EVERY)
        for k in extra[:-HERE_SNAPSHOTS]:
            del self._snapshots[k]

    def _rebuild(self, first: int = 0,
                 refused: Callable[[Ruling], bool] | None = None) -> bool:
        """Replay the log from line ``first + 1`` on (the lines up to it as
        they were): from the last snapshot at or before ``first``. With
        ``refused``, stops at the first ruling on line ``first + 1`` or after
        that it refuses and returns ``False`` (the replay is left half done)."""
        for lines in [k for k in self._snapshots if k > first]:
            del self._snapshots[lines]
        start = max(self._snapshots, default=0)
        if start:
            game, count = self._snapshots[start]
            self.game, self.rulings = self._game_copy(game), self.rulings[:count]
        else:
            self.game, self.rulings = new_game(self.header), []
        for i in range(start + 1, len(self.events) + 1):
            obj = self.events[i - 1]
            new = apply_safely(self.game, Event(i, obj["type"], obj))
            self.rulings += new
            self._snapshot(i, here=i == first)
            if refused is not None and any(r.event > first and refused(r) for r in new):
                return False
        return True

    def _correct(self, events: list[dict[str, Any]], line: int) -> Change:
        """The log ``events``, the same as before up to ``line`` (1-based),
        replayed from there."""
        before = self.rulings
        self.events = events
        self._rebuild(line - 1)
        return Change(before=before, after=list(self.rulings))

    def try_correct(self, line: int, obj: Mapping[str, Any],
                    keep: Callable[["Referee"], bool],
                    refused: Callable[[Ruling], bool] | None = None) -> bool:
        """Replace the event on ``line`` and replay, as :meth:`correct`; kept
        where ``keep(self)`` says so after the replay, else the referee is put
        back as it was (its game, lines, rulings and snapshots, without a
        replay). With ``refused``, the first ruling on ``line`` or after that
        it refuses ends the replay there and the correction is not kept.
        Returns whether it was kept."""
        self._line(line)
        was = (self.game, self.events, self.rulings, dict(self._snapshots))
        events = list(self.events)
        events[line - 1] = self._check(obj, line)
        self.events = events
        if self._rebuild(line - 1, refused) and keep(self):
            return True
        before = {k: v for k, v in self._snapshots.items() if k < line}
        self.game, self.events, self.rulings, self._snapshots = was
        self._snapshots.update(before)  # the lines before ``line`` are the same
        return False

    def correct(self, line: int, obj: Mapping[str, Any]) -> Change:
        """Replace the event on ``line`` (1-based, as in the log) and replay."""
        self._line(line)
        events = list(self.events)
        events[line - 1] = self._check(obj, line)
        return self._correct(events, line)

    def insert(self, line: int, obj: Mapping[str, Any]) -> Change:
        """Insert an event before ``line`` (a forgotten event) and replay."""
        if not 1 <= line <= len(self.events) + 1:
            raise LogError(line, Text("game.no-line-before", line=line))
        events = list(self.events)
        events.insert(line - 1, self._check(obj, line))
        return self._correct(events, line)

    def delete(self, line: int) -> Change:
        """Remove the event on ``line`` (a misread) and replay."""
        self._line(line)
        events = list(self.events)
        del events[line - 1]
        return self._correct(events, line)

    def undo(self) -> Change:
        """Remove the last event and replay."""
        if not self.events:
            raise LogError(0, Text("game.nothing-to-undo"))
        return self.delete(len(self.events))

    def upto(self, lines: int) -> "Referee":
        """A new referee holding this log's first ``lines`` lines (0 to the
        log's length), as if fed them alone: replayed from the last snapshot
        at or before them, not from the log's start."""
        lines = max(0, min(int(lines), len(self.events)))
        new = Referee(self.header)
        new.events = [dict(e) for e in self.events[:lines]]
        new.rulings = list(self.rulings)
        new._snapshots = {k: v for k, v in self._snapshots.items() if k <= lines}
        new._rebuild(lines)
        return new

    def _line(self, line: int) -> None:
        if not isinstance(line, int) or not 1 <= line <= len(self.events):
            raise LogError(line if isinstance(line, int) else -1,
                           Text("game.no-line", line=repr(line), n=len(self.events)))

    # -- reading -----------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return self.game.state()

    def observe(self, viewer: str | None = None) -> dict[str, Any]:
        """What ``viewer`` may see (``None``: the table); see :meth:`Game.observe`."""
        return self.game.observe(viewer)

    def public_view(self) -> dict[str, Any]:
        return self.game.public_view()

    def log_lines(self) -> list[str]:
        """The table log as written lines (header first), for export."""
        return [dump_event(self.header.to_dict())] + [dump_event(e) for e in self.events]
