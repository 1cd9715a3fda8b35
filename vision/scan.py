"""The round-end scoring scan: a hand laid out face up becomes a ``reveal``.

While the scan is active (the page or ``watch`` switches it on when the
referee rules ``round-end``; the next round's start card switches it off),
cards lying face up in a player's seat area, outside the piles, are collected
per seat. When a seat's set of cards has stayed the same, untouched, for
``settle_s`` seconds, it is sent once as ``{"type": "reveal", "player": SEAT,
"cards": [...]}``. :func:`cards_in_zone` is the one-shot form for a page
button ("scan B's hand now").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .detections import Detections
from .geometry import TableGeometry

from .tracking import Reach, Track

PILES = ("discard", "draw")


def cards_in_zone(
    dets: Detections,
    geometry: TableGeometry,
    zone: str,
    exclude: tuple[str, ...] = PILES,
) -> list[str]:
    """Sorted labels of the detections centred in ``zone`` (not on a pile)."""
    if not len(dets):
        return []
    xy = geometry.to_table(dets.centers)
    inside = geometry.inside(zone, xy)
    for other in exclude:
        inside &= ~geometry.inside(other, xy)
    return sorted(label for label, keep in zip(dets.labels, inside) if keep)


class HandScan:
    """Collects laid-out hands per seat while active.

    Args:
        geometry: the table's seat zones.
        settle_s: how long a seat's cards must stay unchanged and untouched.
        exclude: zones whose cards are not anyone's hand (the piles).
        min_age_s: a card counts once it has been tracked this long.
    """

    def __init__(
        self,
        geometry: TableGeometry,
        settle_s: float = 1.0,
        exclude: tuple[str, ...] = PILES,
        min_age_s: float = 0.4,
    ):
        self.geometry = geometry
        self.exclude = exclude
        self.min_age_s = min_age_s
        self.settle_s = settle_s
        self._active = False
        self._seen: dict[str, tuple[tuple[str, ...], float]] = {}
        self._sent: set[str] = set()

    @property
    def active(self) -> bool:
        return self._active

    @active.setter
    def active(self, on: bool) -> None:
        if on != self._active:
            self._seen.clear()
            self._sent.clear()
        self._active = on

    def update(
        self,
        dets: Detections,
        t: float,
        tracks: dict[int, Track],
        reaches: list[Reach] = (),
    ) -> list[dict[str, Any]]:
        """One frame: return the reveals that have settled."""
        if not self._active:
            return []
        by_seat: dict[str, list[str]] = {}
        xy = dets.data.get("table_xy", np.zeros((0, 2)))
        for i in range(len(dets)):
            track = (
                tracks.get(int(dets.tracker_id[i]))
                if dets.tracker_id is not None
                else None
            )
            point = xy[i]
            if any(self.geometry.inside(z, point)[0] for z in self.exclude):
                continue
            seat = self.geometry.seat_of(point)
            if seat is None:
                continue
            if track is None or t - track.born < self.min_age_s:
                continue  # a card just put down, or a one-frame phantom: not yet
            touched = bool(dets.data.get("touched", np.zeros(len(dets), bool))[i])
            # the track's majority label rides out one-frame misreads; a card a
            # hand still touches keeps the seat waiting
            by_seat.setdefault(seat, []).append("?" if touched else track.label)
        busy = {r.seat for r in reaches}
        events = []
        for seat in self.geometry.players:
            cards = tuple(sorted(by_seat.get(seat, [])))
            if not cards or seat in self._sent or "?" in cards or seat in busy:
                self._seen.pop(seat, None)
                continue
            before = self._seen.get(seat)
            if before is None or before[0] != cards:
                self._seen[seat] = (cards, t)
            elif t - before[1] >= self.settle_s:
                self._sent.add(seat)
                events.append(
                    {
                        "type": "reveal",
                        "player": seat,
                        "cards": list(cards),
                        "t": round(t, 3),
                    }
                )
        return events
