"""Checks on what the page accepts as an event or a header, before it is stored.

The referee turns a malformed *table* event into an ``info`` ruling, but the
page also refuses, with a 400 saying why, what is not an event at all: a body
that is not an object, a field of the wrong type, an oversized value. What
passes is stored for good, so it must be something every game can read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from referee.text import Text, define

define({
    # the part of a request a check names (``{what}``, ``{at}`` of web.errors)
    "page.request-body": {"en": "the request body", "ja": "リクエストの本文"},
    "page.event": {"en": "the event", "ja": "イベント"},
    "page.game-header": {"en": "the game header", "ja": "ゲームのヘッダー"},
    "page.stored-header": {"en": "stored game {gid}'s header",
                           "ja": "保存されたゲーム{gid}のヘッダー"},
    "page.stored-log": {"en": "stored game {gid}'s log",
                        "ja": "保存されたゲーム{gid}の記録"},
    "page.in-field": {"en": " in '{field}'", "ja": "（'{field}'）"},
    "page.in-field-name": {"en": " in a field name", "ja": "（項目名）"},
})

#: the parts of a request the checks name, as catalogue texts (the refusal
#: says them in the viewer's language)
REQUEST_BODY = Text("page.request-body")
EVENT = Text("page.event")
GAME_HEADER = Text("page.game-header")


def stored_header(gid: Any) -> Text:
    """Stored game ``gid``'s header, as a check names it."""
    return Text("page.stored-header", gid=str(gid))


def stored_log(gid: Any) -> Text:
    """Stored game ``gid``'s log, as a check names it."""
    return Text("page.stored-log", gid=str(gid))


MAX_TEXT = 200  # characters in one string field
MAX_CARDS = 40  # cards in one play or reveal
MAX_FIELDS = 32
MAX_COUNT = 1000
MAX_FIELD = 2000  # characters of JSON in any other field

_STRINGS = (
    "type",
    "player",
    "target",
    "card",
    "color",
    "colour",
    "source",
    "evidence",
    "call",
    "name",
)


class EventError(ValueError):
    """A request body that is not an acceptable event or header."""

    status = 400

    def __init__(self, reason: str, **params: Any):
        """``reason``: the refusal's code in :data:`web.errors.ERRORS`."""
        from .errors import say

        self.reason, self.params = reason, params
        self.message = say(reason, "en", params)
        super().__init__(self.message)


def text_only(obj: Any, what: Text) -> None:
    """Refuse a lone UTF-16 surrogate (JSON's ``"\\ud800"``) anywhere in ``obj``
    (``what``: the part of the request it is, a catalogue text).

    Such a string is no text: it cannot be written as UTF-8, so a stored one
    would break every page that shows it.
    """
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise EventError("lone_surrogate", what=what) from None
    except (TypeError, ValueError):
        return  # not JSON data: the other checks say what is wrong


#: characters that are no text in any field: the C0 controls but tab and the
#: line ends, DEL and the C1 controls (a NUL byte among them)
CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def no_controls(obj: Any, what: Text) -> None:
    """Refuse a control character (a NUL byte, an escape...) in any string or
    field name of ``obj``: no name, card or note has one, and a stored one
    would show as garbage wherever the log is read."""
    stack: list[tuple[Any, str | None]] = [(obj, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            found = CONTROLS.search(item)
            if found is not None:  # where: a field's path, None for a name
                at = (Text("page.in-field-name") if where is None
                      else Text("page.in-field", field=where) if where else "")
                raise EventError("control_character", what=what,
                                 point=f"{ord(found.group()):04X}", at=at)
        elif isinstance(item, Mapping):
            for key, value in item.items():
                name = f"{where}.{key}" if where else str(key)
                stack.append((key, where or None))
                stack.append((value, name[:60]))
        elif isinstance(item, (list, tuple)):
            stack.extend((value, f"{where}[]") for value in item)


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise EventError("not_text", name=name, got_type=type(value).__name__)
    if len(value) > MAX_TEXT:
        raise EventError("text_too_long", name=name, n=len(value), limit=MAX_TEXT)
    return value


def _int(value: Any, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise EventError("not_whole_number", name=name, got=repr(value)[:150])
    if not low <= value <= high:
        raise EventError("out_of_range", name=name, low=low, high=high, value=value)
    return value


def check_event(obj: Any) -> dict[str, Any]:
    """A copy of ``obj`` if it is an acceptable event.

    Raises:
        EventError: with a sentence saying what is wrong.
    """
    if not isinstance(obj, Mapping):
        raise EventError("event_not_object", got_type=type(obj).__name__)
    if len(obj) > MAX_FIELDS:
        raise EventError("event_too_many_fields", limit=MAX_FIELDS)
    text_only(obj, EVENT)
    event = dict(obj)
    kind = event.get("type")
    if not isinstance(kind, str) or not kind.strip():
        raise EventError("event_no_type")
    if kind == "game":
        raise EventError("event_is_header")
    for name in _STRINGS:
        if name in event:
            _text(event[name], name)
    if "cards" in event:
        cards = event["cards"]
        if not isinstance(cards, list) or not cards:
            raise EventError("cards_empty")
        if len(cards) > MAX_CARDS:
            raise EventError("cards_too_many", limit=MAX_CARDS)
        for card in cards:
            _text(card, "cards[]")
    if "count" in event:
        _int(event["count"], "count", 0, MAX_COUNT)
    if "t" in event and (
        not isinstance(event["t"], (int, float))
        or isinstance(event["t"], bool)
        or event["t"] != event["t"]
    ):
        raise EventError("time_not_number")
    for key, value in event.items():
        _text(key, "field name")
        if key != "cards" and len(json.dumps(value, ensure_ascii=False)) > MAX_FIELD:
            raise EventError("field_too_large", name=key, limit=MAX_FIELD)
    return event


def check_header(obj: Any) -> dict[str, Any]:
    """A copy of ``obj`` if it is an acceptable game header (``type`` added).

    Raises:
        EventError: with a sentence saying what is wrong.
    """
    if not isinstance(obj, Mapping):
        raise EventError("header_not_object", got_type=type(obj).__name__)
    text_only(obj, GAME_HEADER)
    header = dict(obj)
    header["type"] = "game"
    for name in ("game", "rules", "dealer"):
        if header.get(name) is not None:
            _text(header[name], name)
    players = header.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 10:
        raise EventError("players_count")
    names = [_text(p, "players[]").strip() for p in players]
    if not all(names):
        raise EventError("player_no_name")
    if len(set(names)) != len(names):
        raise EventError("players_same_name")
    header["players"] = names
    if header.get("hand_size") is not None:
        _int(header["hand_size"], "hand_size", 1, 30)
    options = header.get("options", {})
    if not isinstance(options, Mapping):
        raise EventError("options_not_object")
    if len(json.dumps(options, ensure_ascii=False)) > 4000:
        raise EventError("options_too_large")
    return header
