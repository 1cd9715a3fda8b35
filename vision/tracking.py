"""Tracking cards over frames on the table plane.

:class:`CardTracker` maps detections to detections: it adds ``tracker_id`` and
the table-plane position and size of every card (``data["table_xy"]``,
``data["table_wh"]``), and keeps a short history per track. A track's label is
the label with the most evidence over its recent reads (the mean of the
classifier's log-probabilities, :func:`label_scores`), so one misread frame
does not change what a track is; :meth:`Track.settled_label` says whether a
card has lain still and untouched long enough to count as put down, and
under which label.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Sequence

import cv2
import numpy as np

from referee.cards import CLASSES

from .detections import Detections
from .geometry import TableGeometry


EVIDENCE_FLOOR = 1e-4  # a probability below this is as good as "not this card"


def read_probs(read: tuple, names: Sequence[str]) -> np.ndarray:
    """One read's probability for every label of ``names``.

    The detector's ``probs`` row when it gave one; otherwise the read's label
    gets its confidence and the rest share what is left (an oracle, a
    detector without per-label probabilities).
    """
    if read[8] is not None and len(read[8]) == len(names):
        return read[8]
    k = len(names)
    conf = min(max(read[7], 1.0 / k), 1.0 - EVIDENCE_FLOOR)
    out = np.full(k, (1.0 - conf) / (k - 1), np.float32)
    out[names.index(read[1])] = conf
    return out


def label_scores(reads: Sequence[tuple], names: Sequence[str]) -> np.ndarray:
    """Mean log-probability of every label over ``reads`` (the evidence).

    Summing log-probabilities weighs each frame by how sure the classifier
    was: two confident reads of ``blue-7`` outweigh one hesitant ``blue-1``,
    and a label that is the close runner-up in every frame keeps a score near
    the winner's, which a per-frame vote would throw away. The mean (not the
    sum) keeps the scale of one read: frames of a still card are not
    independent looks.
    """
    probs = np.stack([read_probs(r, names) for r in reads])
    return np.log(np.maximum(probs, EVIDENCE_FLOOR)).mean(axis=0)


@dataclass
class Track:
    """One card followed over frames.

    Attributes:
        id: the tracker id.
        born: time of the first frame it was seen.
        seen: time of the last frame it was seen.
        disturbed: time of the last frame in which a hand touched it, a
            card in a hand covered part of it, or it was not seen (a track
            seen whole and untouched in every frame since a moment is the
            same physical card all along: cards do not move by themselves,
            and a detector's box of a card lying still may jump by 15 mm
            when an arm passes near).
        names: the labels that ``probs`` columns stand for.
        history: the last reads as (t, label, x_mm, y_mm, w_mm, h_mm,
            touched, confidence, probs or None).
    """

    id: int
    born: float
    seen: float
    disturbed: float = 0.0
    names: Sequence[str] = CLASSES
    history: deque = field(default_factory=lambda: deque(maxlen=30))

    @property
    def label(self) -> str:
        """The label with the most evidence over the recent reads."""
        scores = label_scores(list(self.history), self.names)
        return self.names[int(np.argmax(scores))]

    @property
    def xy(self) -> np.ndarray:
        return np.array(self.history[-1][2:4])

    def still_reads(
        self,
        now: float,
        frames: int,
        seconds: float,
        move_mm: float,
        evidence_s: float = 0.5,
    ) -> list[tuple] | None:
        """The reads of a card lying still and untouched, or ``None``.

        The reads of the last ``seconds`` (at least ``frames`` of them, the
        newest at ``now``) must all be untouched and lie, position and size,
        within ``move_mm`` of the newest. Returned are those reads and the
        older ones that still fit (back to ``evidence_s``): the evidence for
        the card's label. Labels play no part here: a misread frame is still
        the same box.
        """
        if len(self.history) < frames or self.seen < now - 1e-9:
            return None
        reads = list(self.history)
        last = reads[-1]
        out: list[tuple] = []
        for r in reversed(reads):
            fits = (
                not r[6]
                and np.hypot(r[2] - last[2], r[3] - last[3]) <= move_mm
                and max(abs(r[4] - last[4]), abs(r[5] - last[5])) <= move_mm
                and now - r[0] <= evidence_s + 1e-9
            )
            if not fits:
                break
            out.append(r)
        if len(out) < frames or now - out[-1][0] < seconds - 1e-9:
            return None
        return out[::-1]

    def settled_label(
        self,
        now: float,
        frames: int,
        seconds: float,
        move_mm: float,
        evidence_s: float = 0.5,
    ) -> str | None:
        """The label of a card that has lain still and untouched, else ``None``."""
        reads = self.still_reads(now, frames, seconds, move_mm, evidence_s)
        if reads is None:
            return None
        return self.names[int(np.argmax(label_scores(reads, self.names)))]

    def settled(self, now: float, frames: int, seconds: float, move_mm: float) -> bool:
        """True when the card has lain still and untouched for a while.

        Looks at the reads of the last ``seconds`` (at least ``frames``, the
        newest at ``now``): none may be touched by a hand, and they must
        move and change size by at most ``move_mm``. Its label is then the
        one with the most evidence (:meth:`settled_label`), so a one-frame
        misread neither makes a card nor delays one.
        """
        return self.still_reads(now, frames, seconds, move_mm) is not None


def covered_by_held(
    xyxy: np.ndarray, touched: np.ndarray, share: float = 0.15
) -> np.ndarray:
    """Which boxes another, touched box (a card in a hand, above) covers.

    A box counts as covered when a touched box other than itself overlaps at
    least ``share`` of its area: a card carried over the pile hides part of
    the card below, whose box then shrinks or shifts.
    """
    n = len(xyxy)
    out = np.zeros(n, bool)
    held = np.nonzero(touched)[0]
    if n < 2 or not len(held):
        return out
    area = np.maximum((xyxy[:, 2] - xyxy[:, 0]) * (xyxy[:, 3] - xyxy[:, 1]), 1e-6)
    for j in held:
        w = np.minimum(xyxy[:, 2], xyxy[j, 2]) - np.maximum(xyxy[:, 0], xyxy[j, 0])
        h = np.minimum(xyxy[:, 3], xyxy[j, 3]) - np.maximum(xyxy[:, 1], xyxy[j, 1])
        inter = np.clip(w, 0, None) * np.clip(h, 0, None)
        hit = inter >= share * area
        hit[j] = False
        out |= hit
    return out


class CardTracker:
    """Greedy nearest-neighbour tracker on the table plane.

    Args:
        geometry: the table's homography.
        match_mm: largest distance between a track and a detection it takes.
        label_penalty_mm: added to the distance when the labels differ, so a
            card is matched to a track of its own label first but one misread
            still continues its track.
        keep_s: a track unseen for longer is dropped.
    """

    def __init__(
        self,
        geometry: TableGeometry,
        *,
        match_mm: float = 35.0,
        label_penalty_mm: float = 15.0,
        keep_s: float = 0.6,
    ):
        self.geometry = geometry
        self.match_mm = match_mm
        self.label_penalty_mm = label_penalty_mm
        self.keep_s = keep_s
        self.tracks: dict[int, Track] = {}
        self._next_id = 1

    def update(self, detections: Detections, t: float) -> Detections:
        """Assign every detection to a track and return them with track data."""
        n = len(detections)
        xy = self.geometry.to_table(detections.centers) if n else np.zeros((0, 2))
        wh = self.geometry.box_size(detections.xyxy) if n else np.zeros((0, 2))
        touched = np.asarray(detections.data.get("touched", np.zeros(n, bool)), bool)
        probs = detections.data.get("probs")
        covered = covered_by_held(detections.xyxy, touched)
        labels = detections.labels
        ids = np.zeros(n, dtype=np.int64)
        live = [tr for tr in self.tracks.values() if t - tr.seen <= self.keep_s]
        pairs = []
        for j, tr in enumerate(live):
            last = tr.history[-1]
            for i in range(n):
                d = float(np.hypot(xy[i, 0] - last[2], xy[i, 1] - last[3]))
                if d <= self.match_mm:
                    cost = d + (self.label_penalty_mm if labels[i] != tr.label else 0.0)
                    pairs.append((cost, i, j))
        pairs.sort()
        used_d: set[int] = set()
        used_t: set[int] = set()
        for _, i, j in pairs:
            if i in used_d or j in used_t:
                continue
            used_d.add(i)
            used_t.add(j)
            ids[i] = live[j].id
        for j, tr in enumerate(live):
            if j not in used_t:
                tr.disturbed = t  # not seen this frame: hidden, or gone
        for i in range(n):
            if i not in used_d:
                ids[i] = self._next_id
                self.tracks[self._next_id] = Track(
                    self._next_id, t, t, t, detections.names
                )
                self._next_id += 1
            tr = self.tracks[int(ids[i])]
            tr.seen = t
            if touched[i] or covered[i]:
                tr.disturbed = t
            tr.history.append(
                (
                    t,
                    labels[i],
                    float(xy[i, 0]),
                    float(xy[i, 1]),
                    float(wh[i, 0]),
                    float(wh[i, 1]),
                    bool(touched[i]),
                    float(detections.confidence[i]),
                    None if probs is None else np.asarray(probs[i], np.float32),
                )
            )
        for key in [k for k, tr in self.tracks.items() if t - tr.seen > self.keep_s]:
            del self.tracks[key]
        data = dict(detections.data)
        data["table_xy"] = xy.astype(np.float32)
        data["table_wh"] = wh.astype(np.float32)
        data["covered"] = covered
        return Detections(
            detections.xyxy,
            detections.confidence,
            detections.class_id,
            detections.corners,
            ids,
            detections.names,
            data,
        )


@dataclass
class Reach:
    """A hand (arm) reaching onto the table.

    Attributes:
        seat: the player whose side the arm comes from (``None``: unknown).
        tip: table point (mm) of the arm farthest from where it enters.
        area: hand pixels' area in mm².
    """

    seat: str | None
    tip: tuple[float, float]
    area: float


class HandTracker:
    """Finds hands and arms on the table plane by background subtraction.

    Each frame is warped to a small top-down image of the play area (``mm_px``
    millimetres a pixel), its brightness normalised against a slow reference
    (so a lamp switched on does not look like a hand), and compared with an
    adaptive background model. Foreground that is not a detected card is
    "hand" (see :meth:`_foreground`). :meth:`update` marks every detection a
    hand touches (``data["touched"]``) and lists the arms reaching onto the table: blobs
    that come within a fifth of the table's depth of its edge (a blob in the
    middle of the table, such as a draw pile that changed, is no arm).

    Args:
        geometry: the table's homography and zones.
        mm_px: millimetres per pixel of the working image.
        min_area_mm2: smaller foreground blobs are noise.
        threshold: summed BGR difference from the background that is foreground.
        card_core: the part of each card's box (scaled about its centre) that
            is taken out of the foreground as "card, not hand". A detector's
            box of a card held in a hand often takes in the fingers too; with
            the whole box taken out, the hand holding it vanishes and the card
            looks untouched.
        orphan_s: how long a hand whose arm faded into the background stays
            a hand, counted from the last frame its pixels were part of an arm
            (see :meth:`_reaches`).
        orphan_mm2: the least area of such a hand.
    """

    def __init__(
        self,
        geometry: TableGeometry,
        *,
        mm_px: float = 4.0,
        min_area_mm2: float = 1500.0,
        threshold: float = 60.0,
        card_core: float = 0.85,
        orphan_s: float = 3.0,
        orphan_mm2: float = 3000.0,
    ):
        self._cv2 = cv2
        self.geometry = geometry
        self.mm_px = mm_px
        self.min_px = max(4, int(min_area_mm2 / mm_px**2))
        self.edge_px = 0.2 * min(geometry.size) / mm_px
        self.size = (
            max(8, int(geometry.size[0] / mm_px)),
            max(8, int(geometry.size[1] / mm_px)),
        )
        scale = np.diag([1 / mm_px, 1 / mm_px, 1.0])
        self.warp = scale @ geometry.homography
        self.background: np.ndarray | None = None
        self._t: float | None = None
        self.threshold = threshold
        self.card_core = card_core
        self.kernel = np.ones((3, 3), np.uint8)
        self.join_kernel = np.ones((5, 5), np.uint8)
        self.orphan_s = orphan_s
        self.orphan_px = int(orphan_mm2 / mm_px**2)
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
            adapt = 1 - np.exp(-dt / 30.0)  # the reference follows over half a minute
            self.ref_mean = (1 - adapt) * self.ref_mean + adapt * mean
        gain = (self.ref_mean / mean).astype(np.float32)
        top = np.clip(top.astype(np.float32) * gain, 0, 255).astype(np.uint8)
        self._top = top.astype(np.float32)
        fg = self._foreground(self._top, dt)
        cards, boxes = np.zeros_like(fg), np.zeros_like(fg)
        polys = self._card_mask(detections, self.card_core)
        if polys:
            cv2.fillPoly(cards, polys, 255)  # "card": the core of each box
            cv2.fillPoly(boxes, self._card_mask(detections, 1.1), 255)
        self.reaches, hand = self._reaches(
            (fg > 0) & (cards == 0), self._t if self._t is not None else 0.0,
            boxes > 0,
        )
        self.mask = hand
        touched = np.zeros(len(detections), bool)
        for i, poly in enumerate(self._card_mask(detections, 1.35)):
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
        fast, slow = 1 - np.exp(-dt / 1.3), 1 - np.exp(-dt / 6.6)  # time constants, s
        rate = np.where(fg > 0, slow, fast).astype(np.float32)[:, :, None]
        self.background += (top - self.background) * rate
        return fg

    def _reaches(
        self, moving: np.ndarray, t: float = 0.0, boxes: np.ndarray | None = None
    ) -> tuple[list[Reach], np.ndarray]:
        """Arms among the foreground blobs, and the mask of those arms' hands.

        A hand-sized blob in mid-table that overlaps last frame's hands is
        still a hand while a quarter of it was part of an arm within
        ``orphan_s`` (its arm faded into the background); it touches cards but
        reaches nowhere. The time is that of the blob's own pixels, not of any
        arm anywhere: the footprint of a pile just gathered (foreground until
        the background takes in the bare cloth) stops being a hand ``orphan_s``
        after the arm that gathered it left, however busy the other seats are.
        Nor is a blob mostly within the cards' boxes (``boxes``, grown 10 %) a
        hand: that is the rim of a card just laid on bare cloth, outside the
        core of its box that is taken out as "card", which the arm that laid
        it passed over a moment ago.
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
                if (
                    area >= self.orphan_px
                    and np.count_nonzero(blob & self.mask) >= 0.25 * area
                    and np.count_nonzero(t - self._arm_t[blob] <= self.orphan_s)
                    >= 0.25 * area
                    and (boxes is None or np.count_nonzero(blob & boxes) < 0.6 * area)
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
