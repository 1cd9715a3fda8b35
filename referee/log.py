"""The JSON-lines table log: header, events, and a reader that never gives up.

The contract is ``../shared/spec/table-log.md`` plus the project's own
extensions in ``docs/table-log.md``. Reading is tolerant by design: a line that
is not JSON, not an object, or has no ``type`` is reported with its line number
and skipped, and everything before and after it still replays.

Events are frozen values with no logic (event sourcing): the game classes give
them meaning.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Mapping

from .text import Text, define

MAX_LINE = 1 << 20  # one event line may not exceed 1 MiB

define({
    "game.log-line": {"en": "line {line}: {message}", "ja": "{line}行目: {message}"},
    "game.line-too-long": {
        "en": "line is {n} characters long (limit {limit})",
        "ja": "行が{n}文字あります（上限{limit}文字）",
    },
    "game.not-json": {
        "en": "not valid JSON ({error}): {snippet}",
        "ja": "JSONとして読めません（{error}）: {snippet}",
    },
    "game.not-an-object": {
        "en": "an event must be a JSON object, got {type}",
        "ja": "イベントはJSONのオブジェクトでなければなりません（{type}でした）",
    },
    "game.no-type": {
        "en": "an event needs a string 'type'",
        "ja": "イベントには文字列の「type」が必要です",
    },
    "game.header-first": {
        "en": 'the first line must be the header {{"type": "game", ...}}',
        "ja": '最初の行はヘッダー{{"type": "game", ...}}でなければなりません',
    },
    "game.header-string": {
        "en": "header '{key}' must be a string, got {value}",
        "ja": "ヘッダーの「{key}」は文字列で指定します（{value}は使えません）",
    },
    "game.header-players": {
        "en": "header 'players' must be a list of names, got {value}",
        "ja": "ヘッダーの「players」は名前のリストで指定します（{value}は使えません）",
    },
    "game.header-players-twice": {
        "en": "header 'players' has a name twice: {value}",
        "ja": "ヘッダーの「players」に同じ名前が2回あります: {value}",
    },
    "game.header-dealer": {
        "en": "header 'dealer' {value} is not one of the players",
        "ja": "ヘッダーの「dealer」の{value}はプレイヤーではありません",
    },
    "game.header-hand-size": {
        "en": "header 'hand_size' must be a positive integer, got {value}",
        "ja": "ヘッダーの「hand_size」は正の整数で指定します（{value}は使えません）",
    },
    "game.header-options": {
        "en": "header 'options' must be an object, got {value}",
        "ja": "ヘッダーの「options」はオブジェクトで指定します（{value}は使えません）",
    },
})


class LogError(ValueError):
    """A table-log line that cannot be read; carries its 0-based line number.

    ``message`` may be a :class:`referee.text.Text` (said in the viewer's
    language); the exception's text is then one too.
    """

    def __init__(self, line: int, message: str):
        if isinstance(message, Text):
            super().__init__(Text("game.log-line", line=line, message=message))
        else:
            super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Header:
    """The first line of a table log."""

    game: str
    rules: str
    players: tuple[str, ...]
    dealer: str | None = None
    hand_size: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    data: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any], line: int = 0) -> "Header":
        """Validate a header object; raises :class:`LogError` saying what is wrong."""
        if not isinstance(obj, Mapping) or obj.get("type") != "game":
            raise LogError(line, Text("game.header-first"))
        game = obj.get("game", "uno")
        if not isinstance(game, str):
            raise LogError(line, Text("game.header-string", key="game",
                                      value=repr(game)))
        players = obj.get("players")
        if (
            not isinstance(players, list)
            or not players
            or not all(isinstance(p, str) and p.strip() for p in players)
        ):
            raise LogError(line, Text("game.header-players", value=repr(players)))
        if len(set(players)) != len(players):
            raise LogError(line, Text("game.header-players-twice", value=repr(players)))
        rules = obj.get("rules", "official" if game == "uno" else game)
        if not isinstance(rules, str):
            raise LogError(line, Text("game.header-string", key="rules",
                                      value=repr(rules)))
        dealer = obj.get("dealer")
        if dealer is not None and dealer not in players:
            raise LogError(line, Text("game.header-dealer", value=repr(dealer)))
        hand_size = obj.get("hand_size")
        if hand_size is not None and (
            not isinstance(hand_size, int) or isinstance(hand_size, bool)
            or hand_size < 1
        ):
            raise LogError(line, Text("game.header-hand-size", value=repr(hand_size)))
        options = obj.get("options") or {}
        if not isinstance(options, Mapping):
            raise LogError(line, Text("game.header-options", value=repr(options)))
        return cls(game, rules, tuple(players), dealer, hand_size, dict(options),
                   dict(obj))

    def to_dict(self) -> dict[str, Any]:
        out = dict(self.data)
        out.update(type="game", game=self.game, rules=self.rules,
                   players=list(self.players))
        if self.dealer is not None:
            out["dealer"] = self.dealer
        if self.hand_size is not None:
            out["hand_size"] = self.hand_size
        out["options"] = dict(self.options)
        return out


@dataclass(frozen=True, init=False)
class Event:
    """One table event: its 0-based line number, its type, and the whole object."""

    index: int
    type: str
    data: Mapping[str, Any]

    def __init__(self, index: int, type: str, data: Mapping[str, Any]) -> None:
        # One __dict__ assignment instead of three frozen __setattr__ calls
        # (a replay builds one Event per line).
        object.__setattr__(
            self, "__dict__", {"index": index, "type": type, "data": data})

    @property
    def player(self) -> str | None:
        p = self.data.get("player")
        return p if isinstance(p, str) else None

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.data)


def parse_line(text: str, line: int) -> dict[str, Any] | None:
    """Parse one log line to a JSON object; ``None`` for a blank line.

    Raises:
        LogError: the line is not a JSON object with a string ``type``.
    """
    if len(text) > MAX_LINE:
        raise LogError(line, Text("game.line-too-long", n=len(text), limit=MAX_LINE))
    stripped = text.strip()
    if not stripped:
        return None
    try:
        obj = json.loads(stripped)
    except (ValueError, RecursionError) as exc:
        snippet = stripped[:60] + ("..." if len(stripped) > 60 else "")
        raise LogError(line, Text("game.not-json", error=exc.__class__.__name__,
                                  snippet=repr(snippet))) from None
    if not isinstance(obj, dict):
        raise LogError(line, Text("game.not-an-object", type=type(obj).__name__))
    kind = obj.get("type")
    if not isinstance(kind, str) or not kind:
        raise LogError(line, Text("game.no-type"))
    return obj


@dataclass
class TableLog:
    """A read table log: the header, the events that parsed, the lines that did not."""

    header: Header | None
    events: list[Event]
    errors: list[LogError]


_raw_decode = json.JSONDecoder().raw_decode  # what json.loads uses, minus its checks


def iter_log(lines: Iterable[str]) -> Iterator[Event | LogError]:
    """Yield an :class:`Event` or a :class:`LogError` per non-blank line.

    The header is yielded as an Event of type ``game``; line numbers count every
    physical line, blank ones included, so they match an editor's (0-based).
    """
    for number, text in enumerate(lines):
        try:
            obj = parse_line(text, number)
        except LogError as err:
            yield err
            continue
        if obj is not None:
            yield Event(number, obj["type"], obj)


def read_log(lines: Iterable[str]) -> TableLog:
    """Read a whole table log. The first parsed ``game`` line is the header."""
    header: Header | None = None
    events: list[Event] = []
    errors: list[LogError] = []
    append = events.append
    for number, text in enumerate(lines):
        # Fast path for the usual line, one JSON object: the same result as
        # parse_line, which handles (and words the errors of) everything else.
        obj = None
        if text[:1] == "{" and len(text) <= MAX_LINE:
            try:
                obj, end = _raw_decode(text)
            except (ValueError, RecursionError):
                obj = None
            else:
                if end != len(text) and text[end:].strip():
                    obj = None
        if obj is None or type(obj) is not dict:
            try:
                obj = parse_line(text, number)
            except LogError as err:
                errors.append(err)
                continue
            if obj is None:
                continue
        kind = obj.get("type")
        if type(kind) is not str or not kind:
            errors.append(LogError(number, Text("game.no-type")))
        elif kind != "game" or header is not None or events:
            append(Event(number, kind, obj))
        else:
            try:
                header = Header.from_dict(obj, number)
            except LogError as err:
                errors.append(err)
    return TableLog(header, events, errors)


def dump_event(obj: Mapping[str, Any]) -> str:
    """One log line (no newline), compact and UTF-8 friendly."""
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))
