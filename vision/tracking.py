"""Tracking cards over frames on the table plane.

:class:`CardTracker` maps detections to detections: it adds ``tracker_id`` and
the table-plane position and size of every card (``data["table_xy"]``,
``data["table_wh"]``), and keeps a short history per track. A track's label is
the label with the most evidence over its recent reads (the mean of the
classifier's log-probabilities, :func:`label_scores`), so one misread frame
does not change what a track is; :meth:`Track.settled_label` says whether a
card has lain still and untouched long enough to count as put down, and
under which label. A read of a card in one frame is a :class:`Read`.
Hands and arms are found by :class:`vision.hands.HandTracker`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from referee.cards import CLASSES

from .config import TrackingConfig
from .detections import Detections
from .geometry import TableGeometry


EVIDENCE_FLOOR = 1e-4  # a probability below this is as good as "not this card"
DEFAULT_FPS = 15.0  # a source that does not say its frame rate (sources.FrameSource)


def history_frames(seconds: float, fps: float | None = None) -> int:
    """How many reads a track keeps to hold ``seconds`` of frames at ``fps``
    (:data:`DEFAULT_FPS` when not given): at least 2."""
    rate = float(fps) if fps and fps > 0 else DEFAULT_FPS
    return max(2, int(np.ceil(seconds * rate - 1e-6)))


HISTORY_FRAMES = history_frames(TrackingConfig.history_s)


@dataclass(frozen=True, slots=True)
class Read:
    """One frame's read of a tracked card, on the table plane.

    Attributes:
        t: the frame's time (s).
        label: the detector's label in that frame.
        x, y: the box's centre on the table (mm).
        w, h: the box's size on the table (mm).
        touched: a hand touched the card in that frame.
        conf: the detector's confidence in ``label``.
        probs: the detector's probability for every label of the track's
            ``names``, or ``None`` (an oracle, a detector without them).
    """

    t: float
    label: str
    x: float
    y: float
    w: float
    h: float
    touched: bool
    conf: float
    probs: np.ndarray | None = field(default=None, compare=False)

    @property
    def box(self) -> tuple[float, float, float, float]:
        """``(x, y, w, h)``: where the card lay and how large it measured (mm)."""
        return self.x, self.y, self.w, self.h


def _same_look(a: Read, b: Read, look_mm: float) -> bool:
    """Two reads whose boxes lie and measure alike, within ``look_mm``."""
    return max(abs(a.x - b.x), abs(a.y - b.y), abs(a.w - b.w), abs(a.h - b.h)) <= look_mm


def _one_edge_off(
    r: Read, last: Read, keep_mm: float, edge_mm: float, grow_mm: float
) -> bool:
    """Box ``r`` lies as ``last`` on three of its four edges (each within
    ``keep_mm``) and its fourth edge lies within ``edge_mm`` of ``last``'s
    either way, or inside ``last``'s box by at most ``grow_mm`` (``last``
    reaches out past it there). The detector refits one edge of a card lying
    still (a few pixels of jitter, or the card's end showing once a hand
    clears it); a card that moves or is lifted shifts every edge."""
    # > 0: the newest box reaches farther out at that edge
    off = (
        (r.x - r.w / 2) - (last.x - last.w / 2),
        (last.x + last.w / 2) - (r.x + r.w / 2),
        (r.y - r.h / 2) - (last.y - last.h / 2),
        (last.y + last.h / 2) - (r.y + r.h / 2),
    )
    big = [v for v in off if abs(v) > keep_mm + 1e-9]
    if len(big) != 1:
        return False
    v = big[0]
    return abs(v) <= edge_mm + 1e-9 or 0.0 < v <= grow_mm + 1e-9


def read_probs(read: Read, names: Sequence[str]) -> np.ndarray:
    """One read's probability for every label of ``names``.

    The detector's ``probs`` row when it gave one; otherwise the read's label
    gets its confidence and the rest share what is left (an oracle, a
    detector without per-label probabilities).
    """
    if read.probs is not None and len(read.probs) == len(names):
        return read.probs
    k = len(names)
    conf = min(max(read.conf, 1.0 / k), 1.0 - EVIDENCE_FLOOR)
    out = np.full(k, (1.0 - conf) / (k - 1), np.float32)
    out[names.index(read.label)] = conf
    return out


def label_scores(reads: Sequence[Read], names: Sequence[str]) -> np.ndarray:
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
        history: the last reads (:class:`Read`), at most ``history_frames``
            of them (:func:`history_frames`: the frames
            :attr:`vision.config.TrackingConfig.history_s` spans).
        gap_s: the longest the track may go unseen between two reads that
            a still-window joins (:attr:`vision.config.TrackingConfig.gap_s`).
    """

    id: int
    born: float
    seen: float
    disturbed: float = 0.0
    names: Sequence[str] = CLASSES
    history_frames: int = HISTORY_FRAMES
    gap_s: float = TrackingConfig.gap_s
    history: deque[Read] = field(init=False)

    def __post_init__(self) -> None:
        self.history = deque(maxlen=self.history_frames)

    @property
    def label(self) -> str:
        """The label with the most evidence over the recent reads."""
        scores = label_scores(list(self.history), self.names)
        return self.names[int(np.argmax(scores))]

    @property
    def xy(self) -> np.ndarray:
        last = self.history[-1]
        return np.array((last.x, last.y))

    def still_reads(
        self,
        now: float,
        frames: int,
        seconds: float,
        move_mm: float,
        evidence_s: float = 0.5,
        touched_ok: bool = False,
        flicker_reads: int = 0,
        look_mm: float = 2.0,
        size_mm: float | None = None,
        edge_mm: float = 0.0,
        grow_mm: float = 0.0,
        edge_after: float = float("-inf"),
        edge_keep_mm: float | None = None,
    ) -> list[Read] | None:
        """The reads of a card lying still and untouched, or ``None``.

        The reads of the last ``seconds`` (at least ``frames`` of them, the
        newest at ``now``) must all be untouched and lie, position and size,
        within ``move_mm`` of the newest (their size within ``size_mm`` when
        given: a box's size moves by both its edges' jitter). Returned are those reads and the
        older ones that still fit (back to ``evidence_s``): the evidence for
        the card's label. Labels play no part here: a misread frame is still
        the same box. ``touched_ok``: reads a hand touched count too (a card
        lying still under a hand that let go of it). The window stops at a gap
        of more than ``gap_s`` between two reads: the track was hidden (a hand
        over it), and what shows after may be another card put where it lay
        (the detector boxes it alike, and the track goes on), whose reads and
        stillness are its own.

        ``flicker_reads`` (untouched reads only): up to that many reads in a
        row whose box differs do not end the window when an older read in it
        shows the newest look again (within ``look_mm``, place and size): the
        detector's box of a card lying still flickers for a frame or two
        (with, then without, an edge of the card below) while an arm
        withdraws, and comes back to the very box; a card that moves never
        gives back the box it had. Such reads are the same card and count
        among the reads (and the evidence).

        ``edge_mm`` / ``grow_mm``: a read whose box lies as the newest's on
        three edges (each within ``edge_keep_mm``, else ``size_mm``) also fits when its fourth edge
        lies within ``edge_mm`` of the newest's, or the newest reaches out
        past it there by at most ``grow_mm`` (:func:`_one_edge_off`): the
        detector refits one edge of a card lying still (jitter, or the card's
        end showing as a hand clears it), while a moving card shifts them all.
        Only reads newer than ``edge_after``, and of the newest's label, fit
        so (the arm that last reached in began then: an older box is the card
        that lay there before, which a card put on it can match on three
        edges).
        """
        if len(self.history) < frames or self.seen < now - 1e-9:
            return None
        reads = list(self.history)
        last = reads[-1]
        out: list[Read] = []
        pending: list[Read] = []  # reads off the newest box, not yet bridged
        flicker = 0 if touched_ok else max(int(flicker_reads), 0)
        size_mm = move_mm if size_mm is None else size_mm
        keep_mm = size_mm if edge_keep_mm is None else edge_keep_mm
        newer = last.t
        for r in reversed(reads):
            kept = (
                newer - r.t <= self.gap_s + 1e-9
                and (touched_ok or not r.touched)
                and now - r.t <= evidence_s + 1e-9
            )
            fits = kept and (
                (
                    np.hypot(r.x - last.x, r.y - last.y) <= move_mm
                    and max(abs(r.w - last.w), abs(r.h - last.h)) <= size_mm
                )
                or (
                    (edge_mm > 0 or grow_mm > 0)
                    and r.t > edge_after
                    and r.label == last.label
                    and _one_edge_off(r, last, keep_mm, edge_mm, grow_mm)
                )
            )
            if fits and pending:
                if not _same_look(r, last, look_mm):
                    break  # only the very look coming back bridges a flicker
                out += pending
                pending = []
            if fits:
                out.append(r)
                newer = r.t
                continue
            if kept and len(pending) < flicker:
                pending.append(r)
                newer = r.t
                continue
            break
        if len(out) < frames or now - out[-1].t < seconds - 1e-9:
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


def held_covers(
    xyxy: np.ndarray, touched: np.ndarray, share: float = TrackingConfig.cover_share
) -> np.ndarray:
    """Which touched box covers which box: ``out[i, j]`` when box ``j``,
    touched (a card in a hand, above), is not ``i`` and overlaps at least
    ``share`` of box ``i``'s area."""
    n = len(xyxy)
    out = np.zeros((n, n), bool)
    held = np.nonzero(touched)[0]
    if n < 2 or not len(held):
        return out
    area = np.maximum((xyxy[:, 2] - xyxy[:, 0]) * (xyxy[:, 3] - xyxy[:, 1]), 1e-6)
    for j in held:
        w = np.minimum(xyxy[:, 2], xyxy[j, 2]) - np.maximum(xyxy[:, 0], xyxy[j, 0])
        h = np.minimum(xyxy[:, 3], xyxy[j, 3]) - np.maximum(xyxy[:, 1], xyxy[j, 1])
        inter = np.clip(w, 0, None) * np.clip(h, 0, None)
        out[:, j] = inter >= share * area
        out[j, j] = False
    return out


def covered_by_held(
    xyxy: np.ndarray, touched: np.ndarray, share: float = TrackingConfig.cover_share
) -> np.ndarray:
    """Which boxes another, touched box (a card in a hand, above) covers.

    A box counts as covered when a touched box other than itself overlaps at
    least ``share`` of its area: a card carried over the pile hides part of
    the card below, whose box then shrinks or shifts (:func:`held_covers`).
    """
    return held_covers(xyxy, touched, share).any(axis=1)


class CardTracker:
    """Greedy nearest-neighbour tracker on the table plane.

    A detection continues the nearest live track within ``match_mm``; a
    differing label adds ``label_penalty_mm`` to the distance, so a card is
    matched to a track of its own label first but one misread still continues
    its track. A track unseen for ``keep_s`` is dropped.

    Args:
        geometry: the table's homography.
        config: the thresholds (:class:`~vision.config.TrackingConfig`).
        fps: the frames a second the tracker is fed (:data:`DEFAULT_FPS` when
            not given): each track keeps the reads of ``config.history_s``
            at that rate.
    """

    def __init__(self, geometry: TableGeometry, config: TrackingConfig | None = None,
                 fps: float | None = None):
        self.geometry = geometry
        self.config = config = config or TrackingConfig()
        self.history_frames = history_frames(config.history_s, fps)
        self.match_mm = config.match_mm
        self.label_penalty_mm = config.label_penalty_mm
        self.keep_s = config.keep_s
        self.tracks: dict[int, Track] = {}
        self._next_id = 1

    def update(self, detections: Detections, t: float) -> Detections:
        """Assign every detection to a track and return them with track data."""
        n = len(detections)
        xy = self.geometry.to_table(detections.centers) if n else np.zeros((0, 2))
        wh = self.geometry.box_size(detections.xyxy) if n else np.zeros((0, 2))
        touched = np.asarray(detections.data.get("touched", np.zeros(n, bool)), bool)
        probs = detections.data.get("probs")
        covers = held_covers(detections.xyxy, touched, self.config.cover_share)
        covered = covers.any(axis=1)
        labels = detections.labels
        # covered by a touched box of another label: not only the card itself
        # boxed a second time with the fingers on it
        ids_ = np.asarray(detections.class_id)
        covered_other = (covers & (ids_[:, None] != ids_[None, :])).any(axis=1)
        ids = np.zeros(n, dtype=np.int64)
        live = [tr for tr in self.tracks.values() if t - tr.seen <= self.keep_s]
        pairs = []
        for j, tr in enumerate(live):
            last = tr.history[-1]
            for i in range(n):
                d = float(np.hypot(xy[i, 0] - last.x, xy[i, 1] - last.y))
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
                    self._next_id, t, t, t, detections.names,
                    self.history_frames, self.config.gap_s,
                )
                self._next_id += 1
            tr = self.tracks[int(ids[i])]
            tr.seen = t
            if touched[i] or covered[i]:
                tr.disturbed = t
            tr.history.append(
                Read(
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
        data["covered_other"] = covered_other
        return Detections(
            detections.xyxy,
            detections.confidence,
            detections.class_id,
            detections.corners,
            ids,
            detections.names,
            data,
        )


