"""A live referee: events arrive one at a time and can be corrected.

The page, the camera pipeline and the voice listener all feed a
:class:`Referee`. Applying a new event is incremental; correcting or undoing
an earlier one replays the whole corrected log (state is always what a clean
replay of the log gives), and :meth:`Referee.correct` reports what changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from .game import Game, apply_safely, new_game
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


@dataclass(frozen=True)
class Change:
    """What a correction changed: rulings that disappeared and rulings that appeared."""

    removed: list[Ruling]
    added: list[Ruling]


class Referee:
    """Holds a header, the event list (line 1 onwards) and the rulings so far."""

    def __init__(self, header: Header | Mapping[str, Any]):
        if not isinstance(header, Header):
            header = Header.from_dict(header)
        self.header = header
        self.game: Game = new_game(header)
        self.events: list[dict[str, Any]] = []
        self.rulings: list[Ruling] = []

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
        return new

    def _rebuild(self) -> None:
        self.game = new_game(self.header)
        self.rulings = []
        for i, obj in enumerate(self.events, start=1):
            self.rulings += apply_safely(self.game, Event(i, obj["type"], obj))

    def _correct(self, events: list[dict[str, Any]]) -> Change:
        before = list(self.rulings)
        self.events = events
        self._rebuild()
        after = self.rulings
        # the rulings up to the first that differs are the same in both: only
        # the rest are compared one with another (a replay changes the tail)
        same, n = 0, min(len(before), len(after))
        while same < n and before[same] == after[same]:
            same += 1
        head, was, now = before[:same], before[same:], after[same:]
        removed = [r for r in was if r not in now and r not in head]
        added = [r for r in now if r not in was and r not in head]
        return Change(removed, added)

    def correct(self, line: int, obj: Mapping[str, Any]) -> Change:
        """Replace the event on ``line`` (1-based, as in the log) and replay."""
        self._line(line)
        events = list(self.events)
        events[line - 1] = self._check(obj, line)
        return self._correct(events)

    def insert(self, line: int, obj: Mapping[str, Any]) -> Change:
        """Insert an event before ``line`` (a forgotten event) and replay."""
        if not 1 <= line <= len(self.events) + 1:
            raise LogError(line, Text("game.no-line-before", line=line))
        events = list(self.events)
        events.insert(line - 1, self._check(obj, line))
        return self._correct(events)

    def delete(self, line: int) -> Change:
        """Remove the event on ``line`` (a misread) and replay."""
        self._line(line)
        events = list(self.events)
        del events[line - 1]
        return self._correct(events)

    def undo(self) -> Change:
        """Remove the last event and replay."""
        if not self.events:
            raise LogError(0, Text("game.nothing-to-undo"))
        return self.delete(len(self.events))

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
