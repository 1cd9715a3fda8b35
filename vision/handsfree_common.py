"""What both hands-free completions (:mod:`vision.handsfree`, standard UNO, and
:mod:`vision.handsfree_tgus_t`, the 東幻符闘祭 deck) read from a camera event."""

from __future__ import annotations

from typing import Any, Mapping

from referee.text import Text

COLOURS = ("red", "yellow", "green", "blue")


def colour(label: str) -> str | None:
    """The colour of a card label (``None``: a wild or a colourless card)."""
    head = label.split("-")[0]
    return head if head in COLOURS else None


def player_from_reach(ev: dict[str, Any], players: list[str]) -> None:
    """Who played: the seat whose arm reached in (``player_from`` "reach"), else
    left to the referee's turn (``player_from`` "turn")."""
    if "player" not in ev:
        seat = ev.get("reach_from")
        if isinstance(seat, str) and seat in players:
            ev["player"], ev["player_from"] = seat, "reach"
        else:
            ev["player_from"] = "turn"
    elif "player_from" not in ev:
        ev["player_from"] = "reach"


def inferred(kind: str, why: Text, ev: Mapping[str, Any], **fields: Any
             ) -> dict[str, Any]:
    """An event the completion infers from the camera event ``ev`` (its time),
    saying why (``inferred`` and its message, ``inferred_msg``)."""
    return {"type": kind, **fields, "inferred": str(why), "inferred_msg": why.data(),
            "source": "vision", **{k: ev[k] for k in ("t",) if k in ev}}
