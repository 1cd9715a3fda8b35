"""Play detection for classic UNO: tracked cards and hands -> table events.

A card counts as **played** when a card the pile did not hold before lies on
the discard pile, under one consistent label, still (within ``move_mm``) and
untouched by any hand, for ``settle_frames`` frames spanning ``settle_s``
seconds. That rules out the three classic false alarms:

- a hand passing over the pile hides cards but adds none;
- a card held in the air is touched by the hand that holds it, moves, and
  measures larger than a card lying flat (:func:`card_scale`);
- a misread of one frame never gathers ``settle_frames`` agreeing reads.

The pile remembers every card it has taken (label and position), so a card
that shows again after a hand has moved away is not played twice. The first
card on an empty pile is the round's ``start``; a pile that stays empty and
unreached for ``clear_s`` seconds has been cleared for a new round.

Cards that land in the same frame form one multi-card play; with
``group_s > 0`` (for games whose options allow several cards a turn) cards
that land within ``group_s`` seconds of each other are grouped too, at the
cost of that much latency.

**Draws** are seen from the hands: an arm whose tip rests on the draw pile
(moving slower than ``draw_still_mm_s``) for ``draw_dwell_s`` and then leaves
took a card (an arm passing over the pile on its way does not rest); takes by
the same seat within ``draw_group_s`` form one ``draw`` event with their count.
Reaches into the draw pile before the round's first card (turning the start
card) are not draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .detections import Detections
from .geometry import TableGeometry
from .tracking import Reach, Track


@dataclass(frozen=True)
class PlayConfig:
    """Thresholds of the play detector (times in seconds, lengths in mm)."""

    settle_frames: int = 3
    settle_s: float = 0.12
    move_mm: float = 8.0
    same_card_mm: float = 22.0
    same_spot_mm: float = 6.0
    min_scale: float = 0.85
    max_scale: float = 1.15
    group_s: float = 0.0
    clear_s: float = 3.0
    draw_dwell_s: float = 0.25
    draw_still_mm_s: float = 250.0
    draw_group_s: float = 1.5
    reach_memory_s: float = 3.0


def card_scale(w: float, h: float, card: tuple[float, float]) -> float:
    """How much larger than a card lying flat an upright box of ``w`` x ``h`` is.

    A card of sides ``a`` x ``b`` turned by any angle and scaled by ``s`` has
    the box ``w = s(a cos + b sin)``, ``h = s(a sin + b cos)``, so
    ``P = (w + h) / (a + b)`` and ``Q = (h - w) / (b - a)`` give
    ``s = sqrt((P² + Q²) / 2)`` whatever the angle. A card held above the table
    is nearer the camera and measures ``s > 1`` on the table plane.
    """
    a, b = min(card), max(card)
    p = (w + h) / (a + b)
    q = (h - w) / (b - a) if b > a else 0.0
    if abs(q) > p:  # a landscape card: swap the roles of w and h
        q = (w - h) / (b - a)
    return float(np.sqrt((p * p + q * q) / 2))


@dataclass
class PileCard:
    label: str
    xy: tuple[float, float]
    t: float
    wh: tuple[float, float] = (0.0, 0.0)

    @property
    def area(self) -> float:
        return self.wh[0] * self.wh[1]


@dataclass
class _DrawReach:
    start: float
    last: float
    tip: tuple[float, float]
    still: float = 0.0  # seconds the hand rested on the pile
    seats: list[str | None] = field(default_factory=list)


class UnoPlayDetector:
    """Turns tracked detections and reaches into ``start``/``play``/``draw`` events.

    Args:
        geometry: the table's zones (``discard`` and ``draw`` are used).
        config: thresholds.
        attribute_players: put the seat an arm came from in ``player``;
            otherwise it goes in ``reach_from`` and the referee takes the
            player whose turn it is (the spec's rule for a missing player).
    """

    def __init__(
        self,
        geometry: TableGeometry,
        config: PlayConfig | None = None,
        *,
        attribute_players: bool = False,
    ):
        self.geometry = geometry
        self.config = config or PlayConfig()
        self.attribute_players = attribute_players
        self.watcher = PileWatcher(geometry, "discard", self.config)
        self._pending: list[tuple[PileCard, str | None]] = []
        self._pending_draw: dict[str, Any] | None = None
        self._draw_reach: _DrawReach | None = None
        self._discard_reach: tuple[float, str | None] | None = None

    def _seat_field(self, seat: str | None) -> dict[str, Any]:
        if seat is None:
            return {}
        return {"player": seat} if self.attribute_players else {"reach_from": seat}

    @property
    def pile(self) -> list[PileCard]:
        return self.watcher.pile

    # -- the frame step ----------------------------------------------------------------
    def update(
        self,
        dets: Detections,
        t: float,
        tracks: dict[int, Track],
        reaches: list[Reach] = (),
    ) -> list[dict[str, Any]]:
        """Process one frame's tracked detections; return the events it completes."""
        cfg = self.config
        events: list[dict[str, Any]] = []
        was_empty = not self.pile
        landed = self.watcher.landed(dets, t, tracks, reaches)
        if landed:
            events += self._flush_draw()
        for k, card in enumerate(landed):
            recent = (
                self._discard_reach and t - self._discard_reach[0] <= cfg.reach_memory_s
            )
            seat = self._discard_reach[1] if recent else None
            if was_empty and k == 0:
                events.append({"type": "start", "card": card.label, "t": round(t, 3)})
                continue
            self._pending.append((card, seat))
        if self._pending and (
            cfg.group_s <= 0 or t - self._pending[-1][0].t >= cfg.group_s
        ):
            events += self._flush_play()
        events += self._update_draws(t, reaches)
        if self._pending_draw and t - self._pending_draw["last"] >= cfg.draw_group_s:
            events += self._flush_draw()
        self.watcher.check_clear(dets, t, reaches)
        return events

    def flush(self) -> list[dict[str, Any]]:
        """Events still held back (a multi-card group, a draw count): at the end."""
        return self._flush_draw() + self._flush_play()

    def _flush_play(self) -> list[dict[str, Any]]:
        if not self._pending:
            return []
        cards = [c.label for c, _ in self._pending]
        seats = [s for _, s in self._pending if s is not None]
        event: dict[str, Any] = {
            "type": "play",
            "cards": cards,
            "t": round(self._pending[-1][0].t, 3),
        }
        event.update(self._seat_field(seats[-1] if seats else None))
        self._pending = []
        return [event]

    # -- draws ----------------------------------------------------------------
    def _update_draws(self, t: float, reaches: list[Reach]) -> list[dict[str, Any]]:
        cfg = self.config
        in_draw = [
            r for r in reaches if self.geometry.inside("draw", np.array([r.tip]))[0]
        ]
        for r in reaches:
            if self.geometry.inside("discard", np.array([r.tip]))[0]:
                self._discard_reach = (t, r.seat)
        if in_draw:
            tip = in_draw[0].tip
            reach = self._draw_reach
            if reach is None:
                self._draw_reach = _DrawReach(t, t, tip)
            else:
                dt = t - reach.last
                if (
                    dt > 0
                    and np.hypot(tip[0] - reach.tip[0], tip[1] - reach.tip[1])
                    <= cfg.draw_still_mm_s * dt
                ):
                    reach.still += dt
                reach.last, reach.tip = t, tip
            self._draw_reach.seats += [r.seat for r in in_draw]
            return []
        reach = self._draw_reach
        if reach is None or t - reach.last < 0.095:
            return []
        self._draw_reach = None
        if reach.still < cfg.draw_dwell_s or not self.pile:
            return []
        named = [s for s in reach.seats if s is not None]
        seat = max(set(named), key=named.count) if named else None
        events = self._flush_play()
        pending = self._pending_draw
        if pending and (
            pending["seat"] != seat or t - pending["last"] > cfg.draw_group_s
        ):
            events += self._flush_draw()
            pending = None
        if pending:
            pending["count"] += 1
            pending["last"] = t
        else:
            self._pending_draw = {
                "seat": seat,
                "count": 1,
                "first": reach.start,
                "last": t,
            }
        return events

    def _flush_draw(self) -> list[dict[str, Any]]:
        pending, self._pending_draw = self._pending_draw, None
        if not pending:
            return []
        event: dict[str, Any] = {
            "type": "draw",
            "count": pending["count"],
            "t": round(pending["first"], 3),
        }
        event.update(self._seat_field(pending["seat"]))
        return [event]


class PileWatcher:
    """Cards landing in one zone: a pile (stacked) or a field (side by side).

    Remembers every card the zone has taken (label and position); a settled,
    untouched card that is not one of them has *landed*. For a stacked pile a
    card whose label lies lower in the pile counts only while the current top
    card is hidden (else it is a corner of the old card peeking out).

    Args:
        geometry: the table's zones.
        zone: the zone watched.
        config: thresholds.
        stacked: cards pile on top of each other.
    """

    def __init__(
        self,
        geometry: TableGeometry,
        zone: str,
        config: PlayConfig | None = None,
        *,
        stacked: bool = True,
    ):
        self.geometry = geometry
        self.zone = zone
        self.config = config or PlayConfig()
        self.stacked = stacked
        self.pile: list[PileCard] = []
        self._done_tracks: dict[tuple[int, str], tuple[np.ndarray, np.ndarray]] = {}
        self._last_busy = 0.0
        self._last_reach = -1.0

    def _same_spot(
        self, seen: tuple[np.ndarray, np.ndarray], xy: np.ndarray, wh: np.ndarray
    ) -> bool:
        lim = self.config.same_spot_mm
        return bool(
            np.hypot(*(seen[0] - xy)) <= lim and np.max(np.abs(seen[1] - wh)) <= lim
        )

    def _known(self, label: str, xy: np.ndarray, wh: np.ndarray) -> bool:
        """A card the zone already holds: same label at about the same place.

        Two copies of one card can land almost on the same spot; the second
        counts as new when a hand has reached into the zone since the first
        landed and it lies or measures (its rotation changes its box) visibly
        differently.
        """
        for c in self.pile:
            moved = float(np.hypot(*(np.array(c.xy) - xy)))
            if c.label != label or moved > self.config.same_card_mm:
                continue
            differs = (
                moved > self.config.same_spot_mm
                or float(np.max(np.abs(np.array(c.wh) - wh))) > self.config.same_spot_mm
            )
            if differs and self._last_reach > c.t:
                continue
            return True
        return False

    def _top_visible(
        self, dets: Detections, tracks: dict[int, Track], but: int
    ) -> bool:
        """The top card is in view, whole, as another detection than ``but``."""
        if not self.pile:
            return False
        top = self.pile[-1]
        for i, tid in enumerate(dets.tracker_id):
            if i == but:
                continue
            tr = tracks.get(int(tid))
            w, h = dets.data["table_wh"][i]
            if (
                tr is not None
                and dets.labels[i] == top.label
                and np.hypot(*(dets.data["table_xy"][i] - np.array(top.xy)))
                <= self.config.same_card_mm
                and w * h >= 0.8 * top.area
            ):
                return True
        return False

    def _size_ok(self, dets: Detections, i: int) -> bool:
        """A whole card lying on the table: not held up, not partly covered.

        A card that has just landed is the top of the pile, so all of it shows;
        a smaller box is part of a card under others (or under a hand).
        """
        w, h = dets.data["table_wh"][i]
        scale = card_scale(float(w), float(h), self.geometry.card)
        return self.config.min_scale <= scale <= self.config.max_scale

    def landed(
        self,
        dets: Detections,
        t: float,
        tracks: dict[int, Track],
        reaches: list[Reach] = (),
    ) -> list[PileCard]:
        """Cards that have landed in the zone with this frame (now remembered)."""
        cfg = self.config
        if any(self.geometry.inside(self.zone, np.array([r.tip]))[0] for r in reaches):
            self._last_reach = t
        if not len(dets):
            return []
        in_zone = self.geometry.inside(self.zone, dets.data["table_xy"])
        out: list[tuple[float, PileCard]] = []
        for i in np.nonzero(in_zone)[0]:
            tid = int(dets.tracker_id[i])
            track = tracks.get(tid)
            xy = dets.data["table_xy"][i]
            wh = dets.data["table_wh"][i]
            done = self._done_tracks.get((tid, dets.labels[i]))
            if track is None or (done is not None and self._same_spot(done, xy, wh)):
                continue
            if not track.settled(t, cfg.settle_frames, cfg.settle_s, cfg.move_mm):
                continue
            if not self._size_ok(dets, i):
                continue
            label = dets.labels[i]  # settled: the last reads all agree on it
            self._done_tracks[(tid, label)] = (xy.copy(), wh.copy())
            if self._known(label, xy, wh):
                continue
            if self.stacked and any(c.label == label for c in self.pile):
                # The same label lies lower in the pile: a corner of that card
                # peeking out, unless the current top card is covered now.
                if self._top_visible(dets, tracks, i):
                    continue
            out.append(
                (
                    track.born,
                    PileCard(
                        label,
                        (float(xy[0]), float(xy[1])),
                        t,
                        (float(wh[0]), float(wh[1])),
                    ),
                )
            )
        out.sort(key=lambda pair: pair[0])
        cards = [card for _, card in out]
        self.pile += cards
        return cards

    def check_clear(
        self, dets: Detections, t: float, reaches: list[Reach] = ()
    ) -> bool:
        """Forget the pile once the zone stayed empty and unreached ``clear_s``."""
        busy = bool(len(dets)) and bool(
            self.geometry.inside(self.zone, dets.data["table_xy"]).any()
        )
        busy = busy or any(
            self.geometry.inside(self.zone, np.array([r.tip]))[0] for r in reaches
        )
        if busy:
            self._last_busy = t
        elif self.pile and t - self._last_busy >= self.config.clear_s:
            self.pile = []
            self._done_tracks.clear()
            return True
        return False
