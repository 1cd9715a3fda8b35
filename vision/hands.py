"""Hands and arms on the table, found by background subtraction.

:class:`HandTracker` maps detections to detections: it marks every card a hand
touches (``data["touched"]``) and lists the arms reaching onto the table
(:class:`Reach`: the seat an arm comes from and the point it reaches). Its
thresholds are :class:`~vision.config.HandsConfig`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .config import HandsConfig
from .detections import Detections
from .geometry import TableGeometry


@dataclass
class Reach:
    """A hand (arm) reaching onto the table.

    Attributes:
        seat: the player whose side the arm comes from (``None``: unknown).
        tip: table point (mm) of the arm farthest from where it enters.
        area: hand pixels' area in mm².
        entry: table point (mm) where the arm enters, at the table's edge
            (``None``: not known).
    """

    seat: str | None
    tip: tuple[float, float]
    area: float
    entry: tuple[float, float] | None = None


class HandTracker:
    """Finds hands and arms on the table plane by background subtraction.

    Each frame is warped to a small top-down image of the play area (``mm_px``
    millimetres a pixel), its brightness normalised against a slow reference
    (so a lamp switched on does not look like a hand), and compared with an
    adaptive background model. Foreground that is not a detected card is
    "hand" (see :meth:`_foreground`). :meth:`update` marks every detection a
    hand touches (``data["touched"]``) and lists the arms reaching onto the
    table: blobs that come within ``edge_share`` of the table's depth of its
    edge (a blob in the middle of the table, such as a draw pile that changed,
    is no arm). Names in double backquotes are fields of
    :class:`~vision.config.HandsConfig`.

    Args:
        geometry: the table's homography and zones.
        config: the thresholds (:class:`~vision.config.HandsConfig`: working
            image scale, blob sizes, the "card core" taken out of the
            foreground, how long a hand whose arm faded stays a hand).
    """

    def __init__(self, geometry: TableGeometry, config: HandsConfig | None = None):
        cfg = self.config = config or HandsConfig()
        mm_px = cfg.mm_px
        self._cv2 = cv2
        self.geometry = geometry
        self.mm_px = mm_px
        self.min_px = max(4, int(cfg.min_area_mm2 / mm_px**2))
        self.edge_px = cfg.edge_share * min(geometry.size) / mm_px
        self.size = (
            max(8, int(geometry.size[0] / mm_px)),
            max(8, int(geometry.size[1] / mm_px)),
        )
        scale = np.diag([1 / mm_px, 1 / mm_px, 1.0])
        self.warp = scale @ geometry.homography
        self.background: np.ndarray | None = None
        self._t: float | None = None
        self.threshold = cfg.threshold
        self.card_core = cfg.card_core
        self.kernel = np.ones((3, 3), np.uint8)
        self.join_kernel = np.ones((5, 5), np.uint8)
        self.orphan_s = cfg.orphan_s
        self.orphan_px = int(cfg.orphan_mm2 / mm_px**2)
        grow = int(round(cfg.orphan_grow_mm / mm_px))
        self.orphan_kernel = (
            np.ones((2 * grow + 1, 2 * grow + 1), np.uint8) if grow > 0 else None
        )
        # per pixel, when it was last part of a blob joined to an arm
        self._arm_t = np.full((self.size[1], self.size[0]), -1e9, np.float32)
        self.ref_mean: np.ndarray | None = None
        self.mask = np.zeros((self.size[1], self.size[0]), bool)
        self._top: np.ndarray | None = None
        self.reaches: list[Reach] = []

    def _card_mask(self, detections: Detections, grow: float) -> list[np.ndarray]:
        polys = []
        for x0, y0, x1, y1 in detections.xyxy:
            quad = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float64)
            table = self.geometry.to_table(quad) / self.mm_px
            centre = table.mean(axis=0)
            polys.append(((table - centre) * grow + centre).astype(np.int32))
        return polys

    def update(
        self, image: np.ndarray, detections: Detections, t: float | None = None
    ) -> Detections:
        """Update the background with the frame at time ``t``; mark touched cards."""
        cv2 = self._cv2
        dt = (
            1 / 15 if t is None or self._t is None else min(max(t - self._t, 1e-3), 1.0)
        )
        self._t = t
        top = cv2.warpPerspective(image, self.warp, self.size, flags=cv2.INTER_AREA)
        # Per-channel gain against a slowly adapting reference: a lamp switched
        # on or a warmer light changes every pixel alike and is divided out.
        mean = top.reshape(-1, 3).mean(axis=0) + 1e-3
        if self.ref_mean is None:
            self.ref_mean = mean
        else:
            adapt = 1 - np.exp(-dt / self.config.light_s)
            self.ref_mean = (1 - adapt) * self.ref_mean + adapt * mean
        gain = (self.ref_mean / mean).astype(np.float32)
        top = np.clip(top.astype(np.float32) * gain, 0, 255).astype(np.uint8)
        self._top = top.astype(np.float32)
        fg = self._foreground(self._top, dt)
        cards, boxes = np.zeros_like(fg), np.zeros_like(fg)
        polys = self._card_mask(detections, self.card_core)
        if polys:
            cv2.fillPoly(cards, polys, 255)  # "card": the core of each box
            cv2.fillPoly(boxes, self._card_mask(detections, self.config.card_rim), 255)
        self.reaches, hand = self._reaches(
            (fg > 0) & (cards == 0), self._t if self._t is not None else 0.0,
            boxes > 0,
        )
        self.mask = hand
        touched = np.zeros(len(detections), bool)
        for i, poly in enumerate(self._card_mask(detections, self.config.touch_ring)):
            ring = np.zeros_like(fg)
            cv2.fillPoly(ring, [poly], 255)
            touched[i] = int(np.count_nonzero(hand & (ring > 0))) >= self.min_px // 2
        data = dict(detections.data)
        data["touched"] = touched
        return Detections(
            detections.xyxy,
            detections.confidence,
            detections.class_id,
            detections.corners,
            detections.tracker_id,
            detections.names,
            data,
        )

    def _foreground(self, top: np.ndarray, dt: float) -> np.ndarray:
        """Pixels far from the background; the background follows what is not.

        One running average per pixel (not a mixture: an arm that passes the
        same way every turn must never become a second "background"). Where
        the frame matches, the background adapts quickly; where it does not,
        slowly, so a lasting change (the draw pile one card lower) fades in a
        few seconds while a moving hand stays foreground.
        """
        cv2 = self._cv2
        if self.background is None:
            self.background = top.copy()
        diff = np.abs(top - self.background).sum(axis=2)
        fg = (diff > self.threshold).astype(np.uint8) * 255
        fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, self.kernel)
        cfg = self.config
        fast, slow = 1 - np.exp(-dt / cfg.fast_s), 1 - np.exp(-dt / cfg.slow_s)
        rate = np.where(fg > 0, slow, fast).astype(np.float32)[:, :, None]
        self.background += (top - self.background) * rate
        return fg

    def _reaches(
        self, moving: np.ndarray, t: float = 0.0, boxes: np.ndarray | None = None
    ) -> tuple[list[Reach], np.ndarray]:
        """Arms among the foreground blobs, and the mask of those arms' hands.

        A hand-sized blob in mid-table that overlaps last frame's hands (grown
        by ``orphan_grow_mm``: a hand moving while its sleeve fades into the
        background moves a few cm a frame) is
        still a hand while ``orphan_share`` of it was part of an arm within
        ``orphan_s`` (its arm faded into the background); it touches cards but
        reaches nowhere. The time is that of the blob's own pixels, not of any
        arm anywhere: the footprint of a pile just gathered (foreground until
        the background takes in the bare cloth) stops being a hand ``orphan_s``
        after the arm that gathered it left, however busy the other seats are.
        Nor is a blob mostly (``rim_share``) within the cards' boxes (``boxes``,
        grown by ``card_rim``) a hand: that is the rim of a card just laid on
        bare cloth, outside the core of its box that is taken out as "card",
        which the arm that laid it passed over a moment ago.
        """
        cv2 = self._cv2
        hand = np.zeros(moving.shape, bool)
        # Bridge gaps of a pixel or two: a sleeve little different from the
        # cloth shows in pieces, and the hand at its end must stay one blob
        # with the arm (else the hand holding a card is "no arm").
        joined = cv2.morphologyEx(
            moving.astype(np.uint8), cv2.MORPH_CLOSE, self.join_kernel
        )
        count, labels, stats, _ = cv2.connectedComponentsWithStats(joined, 8)
        h, w = moving.shape
        out = []
        last: np.ndarray | None = None  # last frame's hands, grown (made once asked)
        for k in range(1, count):
            if stats[k, cv2.CC_STAT_AREA] < self.min_px:
                continue
            ys, xs = np.nonzero(labels == k)
            # The arm enters where the blob comes nearest the table's edge (a
            # sleeve the colour of the cloth may leave a gap at the edge itself).
            border = np.minimum.reduce([xs, ys, w - 1 - xs, h - 1 - ys])
            if border.min() > self.edge_px:
                # Not connected to the table's edge: no arm, unless it is the
                # hand of one that was, whose still sleeve the background
                # has taken in (a card held over the pile for a while).
                blob = labels == k
                area = stats[k, cv2.CC_STAT_AREA]
                share, rim = self.config.orphan_share, self.config.rim_share
                if last is None:
                    last = self.mask
                    if self.orphan_kernel is not None and last.any():
                        last = cv2.dilate(last.astype(np.uint8), self.orphan_kernel) > 0
                if (
                    area >= self.orphan_px
                    and np.count_nonzero(blob & last) >= share * area
                    and np.count_nonzero(t - self._arm_t[blob] <= self.orphan_s)
                    >= share * area
                    and (boxes is None or np.count_nonzero(blob & boxes) < rim * area)
                ):
                    hand |= blob
                continue
            hand |= labels == k
            self._arm_t[labels == k] = t
            near = border <= border.min() + 2
            entry = np.array([xs[near].mean(), ys[near].mean()])
            far = int(np.argmax((xs - entry[0]) ** 2 + (ys - entry[1]) ** 2))
            tip = (float(xs[far] * self.mm_px), float(ys[far] * self.mm_px))
            centre = np.array(self.geometry.size) / 2
            inside = entry * self.mm_px * 0.9 + centre * 0.1
            out.append(
                Reach(
                    self.geometry.seat_of(inside),
                    tip,
                    float(stats[k, cv2.CC_STAT_AREA] * self.mm_px**2),
                    (float(entry[0] * self.mm_px), float(entry[1] * self.mm_px)),
                )
            )
        return out, hand

    def take_in(self, zone: str) -> None:
        """Take the zone as it looks now into the background, except where a hand
        is: the caller knows the zone has just become bare table (a pile that
        was gathered and stayed gone for seconds), so what still differs there
        is the cloth the pile hid, not a hand. Without this the footprint fades
        in over several seconds and, where an arm passed over it, counts as a
        hand (see :meth:`_reaches`) touching the round's first card."""
        area = self._zone_area(zone)
        if self._top is None or self.background is None or area is None:
            return
        bare = area & ~self.mask
        self.background[bare] = self._top[bare]
        self._arm_t[bare] = -1e9

    def _zone_area(self, zone: str) -> np.ndarray | None:
        """The zone's pixels in the working image, or ``None`` for no such zone."""
        if zone not in self.geometry.zones:
            return None
        poly = (self.geometry.zones[zone].polygon / self.mm_px).astype(np.int32)
        area = np.zeros(self.mask.shape, np.uint8)
        self._cv2.fillPoly(area, [poly], 1)
        return area > 0

    def coverage(self, zone: str) -> float:
        """Fraction of a zone's pixels covered by hands now."""
        area = self._zone_area(zone)
        total = 0 if area is None else int(np.count_nonzero(area))
        return float(np.count_nonzero(self.mask & area) / total) if total else 0.0
