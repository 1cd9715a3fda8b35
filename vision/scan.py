"""The round-end scoring scan: a hand laid out face up becomes a ``reveal``.

While the scan is active (the page or ``watch`` switches it on when the
referee rules ``round-end``; the next round's start card switches it off),
cards lying face up in a player's seat area, outside the piles, are collected
per seat (every live track, so a card the detector misses for a frame still
counts). When a seat's set of cards has lain still and stayed the same for
``settle_s`` seconds, and holds as many cards as the referee counts for that
player, it is sent once as ``{"type": "reveal", "player": SEAT, "cards":
[...]}``. What lay there before the scan began and labels outside the game's
deck are nobody's hand. :func:`cards_in_zone` is the one-shot form for a page
button ("scan B's hand now"). :func:`seat_close_ups` gives the scan sharper
eyes: the seats are also detected tile by tile, at about twice the resolution.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import numpy as np

from referee.cards import Card, CardError

from .config import ScanConfig
from .detections import Detections, box_iou
from .geometry import TableGeometry
from .hands import Reach
from .tracking import Track

PILES = ("discard", "draw")


def deck_labels(
    game: str, options: Mapping[str, Any] | None
) -> Callable[[str], bool] | None:
    """Whether a label is a card of the game's deck (UNO: the ``deck`` option).

    A read outside the deck (the white wild in a 108-card game; a corner
    marker read as a card) cannot be in anyone's hand. ``None`` for games
    whose deck is not known here.
    """
    if game != "uno":
        return None
    from referee.uno.plays import off_deck

    deck = int((options or {}).get("deck", 108))

    def allowed(label: str) -> bool:
        try:
            return off_deck([Card.from_label(label)], deck) is None
        except CardError:
            return False

    return allowed


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


def _concat(parts: list[Detections]) -> Detections:
    """One set of detections from several (extra data kept where all have it)."""
    parts = [d for d in parts if len(d)]
    if not parts:
        return Detections.empty()
    keys = set.intersection(*(set(d.data) for d in parts))
    return Detections(
        np.concatenate([d.xyxy for d in parts]),
        np.concatenate([d.confidence for d in parts]),
        np.concatenate([d.class_id for d in parts]),
        names=parts[0].names,
        data={k: np.concatenate([d.data[k] for d in parts]) for k in keys},
    )


def seat_close_ups(
    detect: Callable[[np.ndarray], Detections],
    image: np.ndarray,
    dets: Detections,
    geometry: TableGeometry,
    grid: int = ScanConfig.grid,
    overlap: float = ScanConfig.overlap,
    exclude: tuple[str, ...] = PILES,
    config: ScanConfig | None = None,
) -> Detections:
    """The frame's detections with the seats' cards looked at close up.

    The detector sees the whole frame at its small working size, where cards
    laid side by side (a hand shown at the round's end), or one laid right next
    to a corner marker, can merge into one box or get a weak one. The frame is
    cut into ``grid`` x ``grid`` overlapping tiles, each detected on its own
    (at about ``grid`` times the resolution). A tile's detection replaces what
    the whole frame saw there when it lies in a player's seat (outside the
    piles) and inside the tile (not cut by the tile's inner edges); tiles that
    overlap keep the surer of two boxes on one card. Everything else (the piles,
    cards outside the seats) stays as the whole frame saw it. ``config`` gives
    the edge and overlap thresholds (:class:`~vision.config.ScanConfig`).
    """
    cfg = config or ScanConfig()
    h, w = image.shape[:2]
    tw, th = w / (grid - (grid - 1) * overlap), h / (grid - (grid - 1) * overlap)
    found: list[Detections] = []
    for row in range(grid):
        for col in range(grid):
            x1 = int(round(col * tw * (1 - overlap)))
            y1 = int(round(row * th * (1 - overlap)))
            x2, y2 = min(w, int(round(x1 + tw))), min(h, int(round(y1 + th)))
            part = detect(np.ascontiguousarray(image[y1:y2, x1:x2]))
            if not len(part):
                continue
            part.xyxy = part.xyxy + np.array([x1, y1, x1, y1], np.float32)
            edge = cfg.tile_edge_px  # a box touching an inner edge: a card cut
            inside = np.ones(len(part), bool)
            if x1 > 0:
                inside &= part.xyxy[:, 0] > x1 + edge
            if y1 > 0:
                inside &= part.xyxy[:, 1] > y1 + edge
            if x2 < w:
                inside &= part.xyxy[:, 2] < x2 - edge
            if y2 < h:
                inside &= part.xyxy[:, 3] < y2 - edge
            found.append(part[np.nonzero(inside)[0]])
    close = _concat(found)
    if len(close):
        xy = geometry.to_table(close.centers)
        mine = np.array([geometry.seat_of(p) is not None for p in xy])
        for zone in exclude:
            mine &= ~geometry.inside(zone, xy)
        close = close[np.nonzero(mine)[0]]
    if len(close) > 1:  # one card seen by two overlapping tiles: the surer box
        import torch

        from .ultralytics_setup import nms

        keep = nms(
            torch.from_numpy(close.xyxy),
            torch.from_numpy(close.confidence),
            cfg.merge_iou,
        )
        close = close[keep.numpy()]
    if not len(close):
        return dets
    if len(dets):
        # what the whole frame saw where a close-up found a card is replaced
        # (a box over two cards included: it holds a close-up's centre)
        c = close.centers
        holds = (
            (c[None, :, 0] >= dets.xyxy[:, None, 0])
            & (c[None, :, 0] <= dets.xyxy[:, None, 2])
            & (c[None, :, 1] >= dets.xyxy[:, None, 1])
            & (c[None, :, 1] <= dets.xyxy[:, None, 3])
        )
        overlaps = box_iou(dets.xyxy, close.xyxy) > cfg.replace_iou
        replaced = overlaps.any(axis=1) | holds.any(axis=1)
        dets = dets[np.nonzero(~replaced)[0]]
    return _concat([dets, close])


def _still(track: Track, now: float, seconds: float, move_mm: float) -> bool:
    """The track's reads of the last ``seconds`` stay within ``move_mm``."""
    recent = [r for r in track.history if now - r.t <= seconds + 1e-9]
    if len(recent) < 2 or now - track.born < seconds:
        return False
    pts = np.array([(r.x, r.y) for r in recent])
    return bool(np.max(np.linalg.norm(pts - pts[-1], axis=1)) <= move_mm)


class HandScan:
    """Collects laid-out hands per seat while active.

    A seat's cards must stay unchanged and still for ``settle_s``; a card
    counts once tracked ``min_age_s``; a card seen first more than
    ``before_s`` before the scan began lay on the table all along (a corner
    marker, a card left out) and is nobody's hand; a card lies still when its
    reads of the last ``still_s`` stay within ``move_mm`` (a card still being
    laid or held keeps its seat waiting).

    Args:
        geometry: the table's seat zones.
        config: those thresholds (:class:`~vision.config.ScanConfig`).
        exclude: zones whose cards are not anyone's hand (the piles).
        allowed: whether a label can be a card of the game (``None``: any).
        game_state: the referee's state (``hand_counts`` per player): a seat
            is revealed only once it shows as many cards as the referee says
            that player holds (a card the detector misses, or one it sees
            twice, would score the hand wrong). ``None``: any number.
    """

    def __init__(
        self,
        geometry: TableGeometry,
        config: ScanConfig | None = None,
        *,
        exclude: tuple[str, ...] = PILES,
        allowed: Callable[[str], bool] | None = None,
        game_state: Callable[[], Mapping[str, Any]] | None = None,
    ):
        cfg = self.config = config or ScanConfig()
        self.geometry = geometry
        self.exclude = exclude
        self.min_age_s = cfg.min_age_s
        self.settle_s = cfg.settle_s
        self.allowed = allowed
        self.before_s = cfg.before_s
        self.still_s = cfg.still_s
        self.move_mm = cfg.move_mm
        self.game_state = game_state
        self._since: float | None = None
        self._active = False
        self._seen: dict[str, tuple[tuple[str, ...], float]] = {}
        self._sent: set[str] = set()

    def _hand_counts(self) -> dict[str, int]:
        """Cards per player by the referee's count (empty when not known)."""
        if self.game_state is None:
            return {}
        try:
            counts = self.game_state().get("hand_counts") or {}
            return {str(k): int(v) for k, v in counts.items()}
        except Exception:  # a referee that cannot say: any number
            return {}

    @property
    def active(self) -> bool:
        return self._active

    @property
    def waiting(self) -> bool:
        """The scan is on and a hand is still to be read: a seat not yet
        revealed whose player holds cards (by the referee's count; any seat
        when the count is not known)."""
        if not self._active:
            return False
        counts = self._hand_counts()
        return any(
            seat not in self._sent and (not counts or counts.get(seat, 0) > 0)
            for seat in self.geometry.players
        )

    @active.setter
    def active(self, on: bool) -> None:
        if on != self._active:
            self._seen.clear()
            self._sent.clear()
            self._since = None
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
        if self._since is None:
            self._since = t
        by_seat: dict[str, list[str]] = {}
        # Every live track, not only this frame's detections: a card the
        # detector misses for a frame or two is still lying there.
        for track in tracks.values():
            point = track.xy
            if any(self.geometry.inside(z, point)[0] for z in self.exclude):
                continue
            seat = self.geometry.seat_of(point)
            if seat is None:
                continue
            if t - track.born < self.min_age_s:
                continue  # a card just put down, or a one-frame phantom: not yet
            if track.born < self._since - self.before_s:
                continue  # it lay there before the round ended: no hand shown
            if self.allowed is not None and not self.allowed(track.label):
                continue  # not a card of this game's deck
            # the track's label (its evidence) rides out one-frame misreads; a
            # card that still moves (in a hand, being laid) keeps the seat
            # waiting. Lying still is the test, not "no hand near": cards just
            # laid out near the table's edge look like an arm to the hand
            # tracker for seconds, until its background takes them in.
            still = _still(track, t, self.still_s, self.move_mm)
            by_seat.setdefault(seat, []).append(track.label if still else "?")
        counts = self._hand_counts()
        events = []
        for seat in self.geometry.players:
            cards = tuple(sorted(by_seat.get(seat, [])))
            expected = counts.get(seat)
            if (
                not cards
                or seat in self._sent
                or "?" in cards
                or (expected is not None and len(cards) != expected)
            ):
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
