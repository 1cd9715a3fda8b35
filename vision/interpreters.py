"""Interpreters for the other games played with the UNO deck.

Each maps tracked detections to that game's table events (``docs/events-*.md``)
with the same stages as classic UNO: a :class:`~vision.pile.PileWatcher` per
zone decides when a card has landed (settled, untouched, not seen there before).

- **overflow**: a card landing in the ``box`` is an ``insert`` (the colour
  counts per round are kept in :attr:`OverflowInterpreter.counts`, the game's
  secret, never drawn on the page); a card turned face up in a ``limit-COLOUR``
  zone is that colour's ``limit``. The box emptied (shuffled into the pile)
  ends the round's counting.
- **junocos**: a card landing in the ``trick`` area is a ``play`` by the
  player whose seat wedge it lies in (players put their card in front of
  themselves); the trick gathered clears the area.
- **narabe-runo**: the first card on the ``field`` is the start card; every
  later card is a ``play`` with ``"at": [x, y]``, its grid position in card
  units (x in card widths, y in card heights) from the start card.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from .config import PlayConfig
from .detections import Detections
from .geometry import TableGeometry
from .hands import Reach
from .pile import PileWatcher
from .tracking import Track

LIMIT_ZONES = ("limit-red", "limit-yellow", "limit-green", "limit-blue")


def _card_event(kind: str, label: str, t: float, **extra: Any) -> dict[str, Any]:
    return {"type": kind, "card": label, **extra, "t": round(t, 3)}


def _seat_of_reach(
    reaches: list[Reach], geometry: TableGeometry, zone: str
) -> str | None:
    for r in reaches:
        if geometry.inside(zone, np.array([r.tip]))[0] and r.seat is not None:
            return r.seat
    return None


class OverflowInterpreter:
    """overflow: inserts into the box, counted by colour; limit cards read."""

    def __init__(self, geometry: TableGeometry, config: PlayConfig | None = None):
        self.geometry = geometry
        self.config = config or PlayConfig()
        self.box = PileWatcher(geometry, "box", self.config)
        self.limits = {z: PileWatcher(geometry, z, self.config) for z in LIMIT_ZONES}
        self.counts: dict[str, int] = {}
        self._reach: str | None = None

    def update(
        self,
        dets: Detections,
        t: float,
        tracks: dict[int, Track],
        reaches: list[Reach] = (),
    ) -> list[dict[str, Any]]:
        """One frame: ``limit`` and ``insert`` events."""
        events = []
        for zone, watcher in self.limits.items():
            for card in watcher.landed(dets, t, tracks, reaches):
                events.append(_card_event("limit", card.label, t))
            watcher.check_clear(dets, t, reaches)
        seat = _seat_of_reach(reaches, self.geometry, "box")
        if seat is not None:
            self._reach = seat
        for card in self.box.landed(dets, t, tracks, reaches):
            colour = card.label.split("-")[0] if "-" in card.label else "wild"
            if card.label.startswith("wild"):
                colour = "wild"
            self.counts[colour] = self.counts.get(colour, 0) + 1
            extra = {"reach_from": self._reach} if self._reach else {}
            events.append(_card_event("insert", card.label, t, **extra))
        if self.box.check_clear(dets, t, reaches):
            self.counts = {}
        return events

    def flush(self) -> list[dict[str, Any]]:
        return []


class JunocosInterpreter:
    """junocos: cards in the trick area attributed to seats by position."""

    def __init__(self, geometry: TableGeometry, config: PlayConfig | None = None):
        self.geometry = geometry
        config = config or PlayConfig()
        cfg = replace(config, clear_s=config.trick_clear_s)
        self.trick = PileWatcher(geometry, "trick", cfg, stacked=False)

    def update(
        self,
        dets: Detections,
        t: float,
        tracks: dict[int, Track],
        reaches: list[Reach] = (),
    ) -> list[dict[str, Any]]:
        """One frame: a ``play`` per card landing in the trick area."""
        events = []
        for card in self.trick.landed(dets, t, tracks, reaches):
            seat = self.geometry.seat_of(card.xy)
            extra = {"player": seat} if seat else {}
            events.append(
                {"type": "play", **extra, "card": card.label, "t": round(t, 3)}
            )
        self.trick.check_clear(dets, t, reaches)
        return events

    def flush(self) -> list[dict[str, Any]]:
        return []


class NarabeInterpreter:
    """narabe-runo: card positions on the field become grid positions."""

    def __init__(self, geometry: TableGeometry, config: PlayConfig | None = None):
        self.geometry = geometry
        config = config or PlayConfig()
        self.field = PileWatcher(
            geometry, "field", replace(config, clear_s=config.field_clear_s),
            stacked=False,
        )
        self.origin: tuple[float, float] | None = None

    def grid(self, xy: tuple[float, float]) -> list[int]:
        """Grid position (card units) of a table point, relative to the start card."""
        assert self.origin is not None
        cw, ch = self.geometry.card
        return [
            int(round((xy[0] - self.origin[0]) / cw)),
            int(round((xy[1] - self.origin[1]) / ch)),
        ]

    def update(
        self,
        dets: Detections,
        t: float,
        tracks: dict[int, Track],
        reaches: list[Reach] = (),
    ) -> list[dict[str, Any]]:
        """One frame: ``start`` for the first card, then ``play`` with ``at``."""
        events = []
        for card in self.field.landed(dets, t, tracks, reaches):
            if self.origin is None:
                self.origin = card.xy
                events.append(_card_event("start", card.label, t, at=[0, 0]))
                continue
            seat = _seat_of_reach(reaches, self.geometry, "field")
            extra = {"reach_from": seat} if seat else {}
            events.append(
                {
                    "type": "play",
                    "card": card.label,
                    "at": self.grid(card.xy),
                    **extra,
                    "t": round(t, 3),
                }
            )
        return events

    def flush(self) -> list[dict[str, Any]]:
        return []


def interpreter_for(
    game: str, geometry: TableGeometry, config: PlayConfig | None = None
):
    """The interpreter of ``game``, with the play thresholds ``config``.

    Raises:
        ValueError: no interpreter for that game.
    """
    table = {
        "overflow": OverflowInterpreter,
        "junocos": JunocosInterpreter,
        "narabe-runo": NarabeInterpreter,
        "narabe": NarabeInterpreter,
    }
    if game not in table:
        raise ValueError(
            f"no camera interpreter for game {game!r}; "
            f"known: uno, {', '.join(sorted(table))}"
        )
    return table[game](geometry, config)
