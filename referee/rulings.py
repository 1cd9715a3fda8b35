"""Rulings: the referee's output, one JSON object per line (spec: "Rulings").

Every ruling names its rule (``official.uno-call``) and says in one sentence
why, so a dispute can be settled by reading it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from referee.text import Text

KINDS = ("ok", "illegal", "penalty", "pending", "round-end", "game-end", "info")
_set = object.__setattr__
# json.dumps(obj, ensure_ascii=False) builds a new encoder per call; one shared
# encoder writes the same text (``tableref replay`` writes a line per ruling).
_encode = json.JSONEncoder(ensure_ascii=False).encode
_quote = json.encoder.encode_basestring  # that encoder's string quoting


def n_of(n: int, noun: str, plural: str | None = None) -> str:
    """``1 card``, ``3 cards``: a count and its noun agreeing, for ruling texts."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


@dataclass(frozen=True, init=False)
class Ruling:
    """One ruling.

    Attributes:
        event: 0-based line number of the event it answers (header = 0).
        ruling: one of :data:`KINDS`.
        rule: ``<preset or game>.<rule>``, a stable name documented in docs/rules.md.
        text: one sentence a person at the table understands; a
            :class:`referee.text.Text` also says it in other languages and
            is written as ``msg`` beside ``text`` in JSON.
        player: the player who must act (draw, take back) where there is one.
        draw: cards that player must take.
        scores: player -> total, on ``round-end`` and ``game-end``.
        extra: further fields (a game may add its own, e.g. ``ranking``).
    """

    event: int
    ruling: str
    rule: str
    text: str
    player: str | None = None
    draw: int | None = None
    scores: Mapping[str, int] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, event: int, ruling: str, rule: str, text: str,
                 player: str | None = None, draw: int | None = None,
                 scores: Mapping[str, int] | None = None,
                 extra: Mapping[str, Any] | None = None) -> None:
        # Written out (one __dict__ assignment instead of eight frozen
        # __setattr__ calls): a replay builds about one ruling per event.
        if ruling not in KINDS:
            raise ValueError(f"unknown ruling kind {ruling!r}")
        if "." not in rule:
            raise ValueError(f"rule name must be '<preset>.<rule>', got {rule!r}")
        if not text:
            raise ValueError("a ruling must explain itself")
        _set(self, "__dict__", {
            "event": event, "ruling": ruling, "rule": rule, "text": text,
            "player": player, "draw": draw, "scores": scores,
            "extra": {} if extra is None else extra})

    def with_extra(self, **fields: Any) -> "Ruling":
        """The same ruling with further fields (``implied``, ``inferred``)."""
        d = self.__dict__
        return Ruling(d["event"], d["ruling"], d["rule"], d["text"], d["player"],
                      d["draw"], d["scores"], {**d["extra"], **fields})

    def with_text(self, text: str) -> "Ruling":
        """The same ruling saying ``text``."""
        d = self.__dict__
        return Ruling(d["event"], d["ruling"], d["rule"], text, d["player"],
                      d["draw"], d["scores"], d["extra"])

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "event": self.event, "ruling": self.ruling, "rule": self.rule}
        if self.player is not None:
            out["player"] = self.player
        if self.draw is not None:
            out["draw"] = self.draw
        if self.scores is not None:
            out["scores"] = dict(self.scores)
        out.update(self.extra)
        out["text"] = self.text
        if isinstance(self.text, Text):
            out["msg"] = self.text.data()
        return out

    def to_json(self) -> str:
        """``json.dumps(self.to_dict(), ensure_ascii=False)``, the same text."""
        d = self.__dict__
        player, draw = d["player"], d["draw"]
        text = d["text"]
        if (d["extra"] or d["scores"] is not None or type(d["event"]) is not int
                or type(d["ruling"]) is not str or type(d["rule"]) is not str
                or (type(text) is not str and type(text) is not Text)
                or (player is not None and type(player) is not str)
                or (draw is not None and type(draw) is not int)):
            return _encode(self.to_dict())
        # The usual ruling, written out directly (about twice as fast).
        out = (f'{{"event": {d["event"]}, "ruling": {_quote(d["ruling"])}, '
               f'"rule": {_quote(d["rule"])}')
        if player is not None:
            out += f', "player": {_quote(player)}'
        if draw is not None:
            out += f', "draw": {draw}'
        if type(text) is Text:
            return f'{out}, "text": {_quote(text)}, "msg": {text.json()}}}'
        return f'{out}, "text": {_quote(text)}}}'
