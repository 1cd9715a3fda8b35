"""What a zone remembers of the cards it took, and how one shows again.

:class:`PileMemory` holds the cards a zone has taken (:class:`PileCard`: label,
place, size, the track it was read from, the labels its reads were torn
between), the whole cards recently seen in a hand or moving, and when an arm
last reached into the zone. :meth:`PileMemory.held_already` says whether a
card that has just settled in the zone is one of those cards showing again,
and which situation makes it so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

import cv2
import numpy as np

from .card_scale import card_scale
from .config import PlayConfig
from .detections import Detections
from .geometry import TableGeometry
from .tracking import Track


class _Carried(NamedTuple):
    """A whole card seen in a hand or moving (for :meth:`PileMemory._known`)."""

    t: float
    label: str
    x: float
    y: float
    track: int


class _Look(NamedTuple):
    """A box the detector gave of the top card (for :meth:`PileMemory._seen_before`)."""

    t: float
    x: float
    y: float
    w: float
    h: float
    track: int
    touched: bool = False  # a hand touched the box


class PileView(NamedTuple):
    """One frame's pixels for the pile's checks (:meth:`PileMemory.see`)."""

    #: the frame as the table's geometry maps it (BGR or grey)
    image: np.ndarray
    #: where hands are: a top-down mask of the table, ``mm_px`` mm a pixel
    #: (``None``: not known)
    hands: np.ndarray | None = None
    mm_px: float = 4.0


class _Print(NamedTuple):
    """The top card's pixels as it lay untouched since taken (:meth:`PileMemory.keep_print`)."""

    card: "PileCard"
    box: tuple[float, float, float, float]  # the region: centre, size (table mm)
    grey: np.ndarray  # top-down grey patch, ``play.twin_px_mm`` a pixel
    valid: np.ndarray  # the patch's pixels no hand lay over


@dataclass
class PileCard:
    """A card the zone has taken: label, place and size (mm), when (s)."""

    label: str
    xy: tuple[float, float]
    t: float
    wh: tuple[float, float] = (0.0, 0.0)
    track: int = -1  # the track it was read from
    # The labels its reads could not tell apart when it was taken (within
    # ``decide_margin`` of the best, the taken one included).
    torn: frozenset[str] = frozenset()
    # taken while the hand that put it down still touched it: until that
    # hand leaves, ``t`` follows it (what happens under that hand is the
    # putting down, not a new arm reaching in)
    held: bool = False
    # a copy of the card below it seen on its way in (``PileMemory.carried_in``
    # with ``far``): a second card, not the one below moved by a hand
    carried: bool = False

    @property
    def area(self) -> float:
        return self.wh[0] * self.wh[1]


class PileMemory:
    """The cards a zone holds, and the checks that a settled card is one of them.

    Args:
        geometry: the table (its card size).
        config: thresholds.
        stacked: cards pile on top of each other (a lower card's corner can
            peek out).
    """

    def __init__(self, geometry: TableGeometry, config: PlayConfig, stacked: bool,
                 zone: str | None = None):
        self.geometry = geometry
        #: the zone's name in ``geometry`` (``None``: no card is known to have
        #: left it, :meth:`_out_again`)
        self.zone = zone
        self.config = config
        self.stacked = stacked
        self.pile: list[PileCard] = []
        #: when an arm last reached into the zone, and when that reach began
        #: (the first of the frames in a row with an arm in the zone)
        self.last_reach = -1.0
        self.reach_began = -1.0
        #: when the arm before that one last reached into the zone
        self.reach_before = -1.0
        # cards seen in a hand or moving, the last ``carry_memory_s``
        self._carried: list[_Carried] = []
        #: label -> whether the referee expects the arm that last reached into
        #: the zone to put that card down now (set by the game's detector)
        self.twin_ok: Callable[[str], bool] = lambda label: False
        #: label -> whether the referee expects that card from that arm only
        #: if the top card's pixels show it laid (:meth:`_twin_expected`; set
        #: by the game's detector): a copy of the top card from a seat whose
        #: drawing arm may have passed over the pile
        self.twin_if_laid: Callable[[str], bool] = lambda label: False
        #: the top card when the box last taken as a new card is a copy of it
        #: that the top card's pixels are sure lies on it (:meth:`_laid_on`),
        #: else ``None``: a second card, not the top card's box moved by a hand
        #: (:meth:`carried_in` with ``far`` says so)
        self.laid_sure: PileCard | None = None
        self._reads_agree = False
        # judge the box again next frame: a twin whose reads do not agree yet,
        # or a box taken for a pile card partly covered (it may grow whole)
        self.retry = False
        # the top card in view (``_top_visible``), or covered (``_top_hidden``)
        self._top_seen = False
        self._top_gone = False
        # the looks of the top card (``_looks_of``) seen since it was taken
        self._looks: list[_Look] = []
        self._looks_of: PileCard | None = None
        self._xy: tuple[float, float] | None = None  # the box being judged
        self._steady = False
        self._stay: tuple[int, float] = (-1, float("inf"))  # judged track, stay
        # the judged track and the top card's (for :meth:`_stood`)
        self._tracks: tuple[Track | None, Track | None] = (None, None)
        #: this frame's pixels (:meth:`see`; ``None``: the stage gets none)
        self.view: PileView | None = None
        self._print: _Print | None = None  # the top card's pixels (keep_print)
        #: the last pixel comparison (:meth:`_print_kept`): mean grey
        #: difference and the share of the region compared (for diagnostics)
        self.print_diff: tuple[float, float] | None = None
        # the top card's pixel comparisons since an arm reached in after it
        # was taken, one a frame (:meth:`watch_print`): card, time, difference
        self._print_diffs: list[tuple[PileCard, float, float]] = []
        # the top card and the last frame its pixels showed as its print
        # (under ``play.twin_pixels_sure``, :meth:`watch_print`)
        self._print_seen: tuple[PileCard | None, float] = (None, -1.0)

    def held_already(
        self,
        dets: Detections,
        tracks: dict[int, Track],
        i: int,
        label: str,
        close: frozenset[str],
    ) -> str | None:
        """Why settled detection ``i``, read as ``label``, is a card the zone
        already holds; ``None`` when it is a new card.

        A card the zone took shows again as if it had just landed whenever
        something passes over it, its box jitters or its reads change. Each
        situation below is one such way, tried in order (the first that
        fits is the answer):

        - ``"seen-before"``: the top card, whose box the detector gave this
          very look (place and size within ``play.look_mm``) at an earlier moment
          since it was taken (:meth:`_seen_before`);
        - ``"same-track"``: the track it was taken from, seen whole and
          untouched in every frame since (:meth:`_same_card`);
        - ``"read-two-ways"``: that track again, under another label, lying
          and measuring as it did with no hand in the zone since
          (:meth:`_reread`);
        - ``"torn-again"``: the top card, whose reads were torn between two
          labels, read as the other of the two where it lay
          (:meth:`_torn_again`);
        - ``"known"``: a card of its label at about its place, with no sign
          of a second copy coming in, or that card partly covered
          (:meth:`_known`);
        - ``"corner-below"``: on a pile, a card of its label lies lower down
          and the top card is in view, so this is a corner of the lower card
          peeking out (:meth:`_top_visible`).
        """
        tid = int(dets.tracker_id[i])
        track = tracks[tid]
        xy, wh = dets.data["table_xy"][i], dets.data["table_wh"][i]
        self.retry = False
        self.laid_sure = None
        self._tracks = (track, tracks.get(self.pile[-1].track) if self.pile else None)
        self._top_seen = self._top_visible(dets, tracks, i)
        # its newest reads name this label (a card put on another can
        # continue the other's track, and its reads)
        recent = list(track.history)[-max(self.config.settle_frames, 1) :]
        self._reads_agree = bool(recent) and all(r.label == label for r in recent)
        self._top_gone = self._top_hidden(dets, i)
        self._xy = (float(xy[0]), float(xy[1]))
        # the box has shown its look (within ``play.look_mm``) for settle_frames reads
        stay = self._stay_start(track)
        self._stay = (tid, stay)
        self._steady = (
            sum(1 for r in track.history if r.t >= stay) >= self.config.settle_frames
        )
        if self._seen_before(label, track, xy, wh):
            return "seen-before"
        if self._same_card(tid, label, track, xy, wh):
            return "same-track"
        if self._reread(tid, track, xy, wh):
            return "read-two-ways"
        if self._torn_again(label, close, xy, wh):
            return "torn-again"
        if self._known(label, xy, wh):
            return "known"
        if (
            self.stacked
            and any(c.label == label for c in self.pile)
            and self._top_seen
        ):
            return "corner-below"
        self._laid_on(label)
        return None

    def _laid_on(self, label: str) -> None:
        """Note whether the box just taken as a new card, of ``label``, is a
        copy of the top card that its pixels are sure lies on it
        (:meth:`_pixels_sure`, :attr:`laid_sure`). Asked whatever made the box
        new (a moved or resized box is taken first where the referee expects
        the copy), and leaving :attr:`retry` as it was."""
        retry = self.retry
        top = self.pile[-1] if self.pile else None
        self.laid_sure = (
            top if self.config.laid_sure and top is not None and top.label == label
            and self._pixels_sure() else None
        )
        self.retry = retry

    def _seen_before(
        self, label: str, track: Track, xy: np.ndarray, wh: np.ndarray
    ) -> bool:
        """The top card showing a look it showed before: a box of its label,
        lying and measuring within ``play.look_mm`` of one the detector gave since
        the top card was taken (:meth:`remember_looks`), first seen before
        this track's current stay (its newest reads, touched or not, showing
        the same look). A detector's box of a card lying still
        flips between a few looks (the card alone, the card with an edge of
        the one below, the card with an arm over one end) as hands pass near;
        a look seen before is that card again, however much it differs from
        the box it was taken with. A second copy put on it lies or turns
        visibly differently (issue 25: a few mm and degrees), and its own
        stay since it landed is not a look seen before. Not while the referee
        expects a twin from the arm that reached in since the top card was
        taken (``twin_ok``): a twin laid neatly may measure just as its copy
        did, and :meth:`_top_changed` judges it."""
        if not self.pile or label != self.pile[-1].label or not self._looks:
            return False
        top = self.pile[-1]
        if self.last_reach > top.t and self._twin_expected(label):
            return False  # a twin is expected: it may lie just as its copy did
        cfg = self.config
        since = self._stay_start(track)
        x, y, w, h = (float(v) for v in (*xy, *wh))
        lim = self.config.look_mm
        for look in self._looks:
            if look.track == track.id and look.t >= since:
                continue
            if (
                abs(look.x - x) <= lim
                and abs(look.y - y) <= lim
                and abs(look.w - w) <= lim
                and abs(look.h - h) <= lim
            ):
                return True
        return False

    def _new_look(self, wh: np.ndarray) -> bool:
        """The box being judged (its place ``self._xy``) matches none of the
        top card's untouched looks seen since it was taken (``play.look_mm``;
        other than those its own track first showed in its current stay), and
        there are some: the top shows a face it never showed lying untouched
        (a box a hand touched may be the twin on its way down)."""
        if not self._looks or self._xy is None:
            return False
        x, y = self._xy
        w, h = (float(v) for v in wh)
        tid, since = self._stay
        looks = [
            k for k in self._looks
            if not k.touched and (k.track != tid or k.t < since)
        ]
        return bool(looks) and not any(
            max(abs(k.x - x), abs(k.y - y), abs(k.w - w), abs(k.h - h)) <= self.config.look_mm
            for k in looks
        )

    def _stay_start(self, track: Track) -> float:
        """When the track's current stay began: the oldest of its newest reads
        (touched or not) that all show the newest look (within ``play.look_mm``),
        but for up to ``play.flicker_reads`` untouched reads in a row between
        two of them (the box flickering to another look and back while an arm
        withdraws, :meth:`Track.still_reads`)."""
        reads = list(track.history)
        if not reads:
            return float("inf")
        last, lim, start = reads[-1], self.config.look_mm, reads[-1].t
        flicker, off = self.config.flicker_reads, 0
        for r in reversed(reads):
            if max(abs(r.x - last.x), abs(r.y - last.y), abs(r.w - last.w),
                   abs(r.h - last.h)) > lim:
                if off < flicker and not r.touched:
                    off += 1
                    continue
                break
            off = 0
            start = r.t
        return start

    def remember_looks(
        self, dets: Detections, t: float, tracks: dict[int, Track]
    ) -> None:
        """Note this frame's boxes of the top card's label in the zone, each
        lying within ``move_mm`` of its track's previous read (a card lying
        there, not one on the move): the looks :meth:`_seen_before` knows,
        each marked touched or not (:meth:`_new_look` knows the untouched),
        and lying within ``same_card_mm`` of the top card or with its centre on
        it (:meth:`_on_top`: an arm over one end of the pile leaves a box of
        the other end in view, off the card's centre). Only the top card's
        looks are kept (a new top forgets them), one per look
        (``play.look_mm``), with when it was first seen."""
        if not self.pile or not len(dets):
            return
        top = self.pile[-1]
        if self._looks_of is not top:
            self._looks_of, self._looks = top, []
        lim = self.config.look_mm
        for i in np.flatnonzero(np.asarray(dets.labels) == top.label):
            track = tracks.get(int(dets.tracker_id[i]))
            if track is None or len(track.history) < 2 or track.history[-1].t != t:
                continue
            r, prev = track.history[-1], track.history[-2]
            if r.t <= top.t or (
                np.hypot(r.x - prev.x, r.y - prev.y) > self.config.move_mm
            ):
                continue
            if np.hypot(
                r.x - top.xy[0], r.y - top.xy[1]
            ) > self.config.same_card_mm and not self._on_top(r.x, r.y):
                continue
            same = [
                k for k, look in enumerate(self._looks)
                if look.track == track.id
                and look.touched == bool(r.touched)
                and max(abs(look.x - r.x), abs(look.y - r.y), abs(look.w - r.w),
                        abs(look.h - r.h)) <= lim / 2
            ]
            if not same and len(self._looks) < self.config.max_looks:
                self._looks.append(
                    _Look(r.t, r.x, r.y, r.w, r.h, track.id, bool(r.touched))
                )

    def see(self, view: PileView | None) -> None:
        """This frame's pixels (``None``: none; the pixel checks then pass)."""
        self.view = view

    def keep_print(self, tracks: dict[int, Track], t: float) -> None:
        """Keep the top card's pixels (its box's region, top-down, grey, at
        ``play.twin_px_mm`` a pixel, hands left out) while its own track shows
        it undisturbed since it was taken (``Track.disturbed``: touched,
        covered or unseen; a card taken under the hand that put it down counts
        from its taking, the hand's pixels left out): what a card laid on it
        later must change (:meth:`_print_kept`). A region no longer kept so
        stays as last kept, for this top card."""
        cfg = self.config
        if self.view is None or not self.pile or cfg.twin_pixels <= 0:
            return
        top = self.pile[-1]
        box = (*top.xy, *top.wh)
        mine = self._print is not None and self._print.card is top
        track = tracks.get(top.track)
        if (
            track is None
            or track.seen < t - 1e-9
            or track.disturbed > top.t + 1e-9
            or (mine and self._print.box != box and top.t < t - 1e-9)
        ):
            return
        patch = self._patch(box)
        if patch is None:
            return
        grey, valid = patch
        if mine and self._print.box == box:
            old = self._print
            grey = np.where(valid, grey, old.grey)
            valid = valid | old.valid
        self._print = _Print(top, box, grey, valid)

    def watch_print(self, t: float) -> None:
        """Compare the top card's pixels with its print this frame
        (:meth:`_print_kept`): what :meth:`_pixels_sure` reads back for the
        judged box's newest reads (kept once an arm has reached into the zone
        since the top card was taken), and the last frame they showed as the
        print. Called each frame before the boxes are judged."""
        top = self.pile[-1] if self.pile else None
        self._print_diffs = [
            d for d in self._print_diffs[-16:] if d[0] is top
        ]
        sure = self.config.twin_pixels_sure
        if (
            top is None
            or sure <= 0
            or self.view is None
            or self._print is None
            or self._print.card is not top
        ):
            return
        self._print_kept()
        if self.print_diff is None or self.print_diff[0] != self.print_diff[0]:
            return
        diff = self.print_diff[0]
        if diff < sure:
            self._print_seen = (top, t)
        if self.last_reach > top.t:
            self._print_diffs.append((top, t, diff))

    def _pixels_sure(self) -> bool:
        """A card lies on the top card, as its pixels tell: in each of the
        judged box's newest ``settle_frames`` reads (:meth:`watch_print`) the
        top card's region, where no hand lies over it, differs from its print
        by ``play.twin_pixels_sure`` grey levels or more. A hand passing
        beside or over the pile leaves the pixels it does not cover as they
        were (a few grey levels), and a box's jitter does not change them; a
        card laid on the top card, however neatly, covers it with a fresh
        print of its own, a few mm or degrees off. The pixels must have
        shown as the print after the arm before the last one left the zone:
        the change came with the last arm (a twin laid earlier and missed
        differs from the print ever after, and an arm passing later laid
        nothing). Where only the newest reads are so (the box's still window
        reaches back past the arm that hid the pile), the box is judged again
        the next frame (``retry``)."""
        sure = self.config.twin_pixels_sure
        track = self._tracks[0]
        if sure <= 0 or track is None or not self.pile or not track.history:
            return False
        top = self.pile[-1]
        card, seen_at = self._print_seen
        if card is not top or seen_at <= self.reach_before:
            return False
        n = max(self.config.settle_frames, 1)
        recent = list(track.history)[-n:]
        seen = {round(t, 6): diff for card, t, diff in self._print_diffs if card is top}
        ok = [seen.get(round(r.t, 6), 0.0) >= sure for r in recent]
        if len(recent) == n and all(ok):
            return True
        if ok[-1]:
            self.retry = True  # sure so far in the newest reads: judge it again
        return False

    def _patch(
        self, box: tuple[float, float, float, float]
    ) -> tuple[np.ndarray, np.ndarray] | None:
        """This frame's pixels of a table region (centre, size in mm): a
        top-down grey patch at ``play.twin_px_mm`` a pixel, and which of its
        pixels lie in the frame with no hand over them (``None``: no pixels)."""
        view = self.view
        if view is None:
            return None
        res = max(self.config.twin_px_mm, 1e-3)
        x, y, w, h = box
        cols, rows = max(2, int(round(w / res))), max(2, int(round(h / res)))
        x0, y0 = x - cols * res / 2, y - rows * res / 2
        to_patch = np.array(
            [[1 / res, 0, -x0 / res], [0, 1 / res, -y0 / res], [0, 0, 1]]
        ) @ self.geometry.homography
        image = view.image
        if image.ndim == 3:
            image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        grey = cv2.warpPerspective(
            image, to_patch, (cols, rows), flags=cv2.INTER_AREA,
            borderMode=cv2.BORDER_CONSTANT, borderValue=0,
        ).astype(np.float32)
        inside = cv2.warpPerspective(
            np.full(image.shape[:2], 255, np.uint8), to_patch, (cols, rows),
            flags=cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT, borderValue=0,
        ) > 0
        valid = inside
        if view.hands is not None and view.hands.any():
            mask = cv2.dilate(view.hands.astype(np.uint8), np.ones((3, 3), np.uint8))
            us = x0 + (np.arange(cols) + 0.5) * res
            vs = y0 + (np.arange(rows) + 0.5) * res
            ix = np.clip((us / view.mm_px).astype(int), 0, mask.shape[1] - 1)
            iy = np.clip((vs / view.mm_px).astype(int), 0, mask.shape[0] - 1)
            valid = valid & (mask[np.ix_(iy, ix)] == 0)
        return grey, valid

    def _print_kept(self) -> bool:
        """The top card's pixels show as it lay before (:meth:`keep_print`):
        over the part of its region that no hand covers, now or when kept
        (at least ``play.twin_px_share`` of it), the grey levels differ by at
        most ``play.twin_pixels`` on average (brightness matched). A card
        laid on it covers it with another card's pixels (a fresh print, a few
        mm or degrees off); a detector's box of the top card shifting while
        an arm passes beside the pile leaves them as they were. ``False``
        where that cannot be told (no pixels, no print, too little of it in
        view)."""
        self.print_diff = None
        cfg = self.config
        kept = self._print
        if (
            cfg.twin_pixels <= 0
            or kept is None
            or not self.pile
            or kept.card is not self.pile[-1]
        ):
            return False
        patch = self._patch(kept.box)
        if patch is None:
            return False
        grey, valid = patch
        both = valid & kept.valid
        share = float(both.mean())
        if share < cfg.twin_px_share or not both.any():
            self.print_diff = (float("nan"), share)
            return False
        now, before = grey[both], kept.grey[both]
        gain = float(before.mean()) / max(float(now.mean()), 1.0)
        diff = float(np.abs(now * gain - before).mean())
        self.print_diff = (diff, share)
        return diff <= cfg.twin_pixels

    def _same_card(
        self, tid: int, label: str, track: Track, xy: np.ndarray, wh: np.ndarray
    ) -> bool:
        """The zone took this card from this very track, and the track has been
        seen in every frame since, untouched, unmoved and uncovered
        (``Track.disturbed``): the same card, however its box jitters (up to
        8 mm while a hand passes near). Unless it is the top card and, after
        an arm reached in, lies still elsewhere or turned (:meth:`_top_changed`):
        a twin put on it took over its track in one frame."""
        for c in self.pile:
            if c.track != tid or c.label != label or track.disturbed > c.t:
                continue
            moved = float(np.hypot(*(np.array(c.xy) - xy)))
            resized = float(np.max(np.abs(np.array(c.wh) - wh)))
            if c is self.pile[-1] and self._top_changed(c, moved, resized, wh):
                continue
            return True
        return False

    def _reread(
        self, tid: int, track: Track, xy: np.ndarray, wh: np.ndarray
    ) -> bool:
        """A card the zone took from this very track, now read under another
        label: no arm has reached into the zone since, no read of the track
        since was touched by a hand, and every read since (and this box) lies
        and measures as the card did (within ``same_spot_mm``). The same card
        read two ways (a card the classifier is torn about flips between its
        two best labels as its box shifts by a pixel, and drops out of a few
        frames when its best probability dips under the detector's threshold),
        not a second card: a card put on it comes in a hand. When the track's
        reads do not reach back to the card's landing, the track must not have
        been disturbed since (``Track.disturbed``: touched, covered or unseen).
        """
        for c in self.pile:
            if c.track != tid or self.last_reach > c.t:
                continue
            if not self._where_it_lay(*(float(v) for v in (*xy, *wh)), c):
                continue
            if track.history and track.history[0].t <= c.t:
                since = [r for r in track.history if r.t >= c.t]
                if all(not r.touched and self._where_it_lay(*r.box, c) for r in since):
                    return True
            elif track.disturbed <= c.t:
                return True
        return False

    def _torn_again(
        self, label: str, close: frozenset[str], xy: np.ndarray, wh: np.ndarray
    ) -> bool:
        """The pile's top card read again, whatever passed over it: it was taken
        from reads torn between two labels, this card's reads are torn between
        the same two (this label and the top card's), and it lies and measures
        as the top card did (``same_spot_mm``). Such reads cannot tell a second
        card from the first, and a card put down lies visibly elsewhere or reads
        clearly (a hand passing over the pile leaves the card where it was, and
        its reads torn as before). A clear read of a new card on the same spot
        still counts."""
        if not self.pile:
            return False
        top = self.pile[-1]
        return (
            label != top.label
            and label in top.torn
            and top.label in close
            and self._where_it_lay(*(float(v) for v in (*xy, *wh)), top)
        )

    def _known(self, label: str, xy: np.ndarray, wh: np.ndarray) -> bool:
        """A card the zone already holds: same label at about the same place.

        Two copies of one card can land almost on the same spot; the second
        counts as new when a hand has reached into the zone since the first
        landed and it lies (``same_spot_mm``) or measures (its rotation
        changes its box; ``same_size_mm``) visibly differently, or when a card
        of that label was seen on its way in since (read whole, in a hand or
        moving, farther than ``same_card_mm`` from the first copy but within
        ``carry_mm``; not the top card's own end under an arm,
        :meth:`_top_under_hand`): a detector's box jitters by about as much as two
        copies' places may differ, so the carrying is the surer sign, unless
        such a card is seen again after an arm last reached into the zone (a
        hand may take the copy over the pile, hover and take it back, the top
        card showing again as it was). A box
        that measures less than ``shrunk`` of the first copy's card size
        (:func:`card_scale`, whatever the turn; that size taken as between
        ``whole_min`` and ``whole_max``, what a whole card's box measures) is
        that card partly covered (an arm over one end of the pile), not a
        whole second copy, if it lies
        within ``same_card_mm`` of it or its centre lies inside that card's box
        (``same_spot_mm`` to spare: what is left of a card half hidden is off
        its centre, and its box may take in an edge of the cards below); such a
        box is judged again the next frame (``retry``: a card put down under a
        lingering hand shows whole once the hand leaves, its box grown by less
        than a box's jitter); not a twin the finder boxed short, reaching out
        past the top card's box with no hand over it and the top's pixels
        sure of a card on it (:meth:`_twin_boxed_short`), nor a twin under the
        hand that let go of it (:meth:`_twin_under_hand`). The
        carried card must be another track than the first copy's (a hand
        hovering a card over the pile drags the pile card's own box along,
        and its uncertain reads may name the card beneath). The top card is
        judged first: where it changed after a reach (as above, or
        :meth:`_top_changed`), the box is a new card whatever copies of its
        label lie beneath (the top covers them), once its newest reads name
        the label and it has kept its look (``play.look_mm``) for
        ``settle_frames`` reads; until then it is judged again the next frame
        (``retry``: a copy coming in over the top card shifts and covers the
        top's box a frame or two before it lands itself, while the hand that
        brings it is only arriving).
        """
        cfg = self.config
        card = self.geometry.card
        for c in reversed(self.pile):  # the top card first
            if c.label != label:
                continue
            moved = float(np.hypot(*(np.array(c.xy) - xy)))
            # a whole card's box measures about one card (a little loose or
            # tight); the first copy's box may have taken in more (a card below)
            whole = min(
                max(card_scale(c.wh[0], c.wh[1], card), cfg.whole_min), cfg.whole_max
            )
            smaller = card_scale(float(wh[0]), float(wh[1]), card) < cfg.shrunk * whole
            inside = bool(np.all(
                np.abs(xy - np.array(c.xy)) <= np.array(c.wh) / 2 + cfg.same_spot_mm
            ))
            if smaller and (moved <= cfg.same_card_mm or inside) and not (
                self._covers_top(c) or self._twin_boxed_short(c, wh)
                or self._twin_under_hand(c)
            ):
                # that card with part of it covered: no whole card yet, and
                # the box judged again as it grows (a card put down under a
                # hand shows whole once the hand leaves it)
                self.retry = True
                return True
            if moved > cfg.same_card_mm:
                continue
            carried = self.carried_in(c)
            resized = float(np.max(np.abs(np.array(c.wh) - wh)))
            differs = (
                carried
                or moved > cfg.same_spot_mm
                or resized > cfg.same_size_mm
                or self._top_changed(c, moved, resized, wh)
            )
            if differs and (
                self._reached(c) or (carried and self.last_reach > c.t)
            ):
                if c is not self.pile[-1]:
                    continue
                if not (self._reads_agree and self._steady):
                    # a box still changing: a card coming in over the top
                    # card shifts the top's box before it lands itself
                    self.retry = True
                    return True
                if self._print_kept():
                    return True  # the top's pixels as they were: no card on it
                return False  # the top changed: lower copies lie beneath it
            return True
        return False

    def carried_in(self, c: PileCard, far: bool = False) -> bool:
        """A card of ``c``'s label seen on its way in since ``c`` was taken: read
        whole in a hand or moving, another track than ``c``'s, farther than
        ``same_card_mm`` from ``c`` but within ``carry_mm``; not seen so after
        the arm last left the zone, nor out of the zone after it was held over
        the top card (the hand took the copy away again, still holding it).
        With ``far``, one such sighting also has its centre off ``c``'s box
        (``same_spot_mm`` to spare): a card brought in from a hand, not ``c``
        itself dragged a little way by a hand passing over it; or ``c`` is
        the top card and the box just taken as a new card is a copy of it that
        the top card's pixels are sure lies on it (:attr:`laid_sure`): a
        second card however it came."""
        cfg = self.config
        seen = [
            k for k in self._carried
            if k.t > c.t
            and k.label == c.label
            and k.track != c.track
            and cfg.same_card_mm
            < np.hypot(k.x - c.xy[0], k.y - c.xy[1])
            <= cfg.carry_mm
        ]
        if far and c is self.laid_sure:
            return True  # its pixels are sure a second card lies on it
        if not seen or max(k.t for k in seen) > self.last_reach:
            return False
        if far and all(
            abs(k.x - c.xy[0]) <= c.wh[0] / 2 + cfg.same_spot_mm
            and abs(k.y - c.xy[1]) <= c.wh[1] / 2 + cfg.same_spot_mm
            for k in seen
        ):
            return False
        return not self._out_again(c.label, c.t)

    def _top_changed(
        self, c: PileCard, moved: float, resized: float, wh: np.ndarray
    ) -> bool:
        """After a hand reached into the zone, the pile's top changed where a
        copy of this label lay: a twin put on it (position or turn changed by
        ``twin_moved_mm`` / ``twin_size_mm``, when ``c`` is the top), or its
        face (another card lay on ``c``, and a whole box of ``c``'s label is
        the only whole card where the top card lay: a second copy now covers
        the top card). A hand passing over the pile leaves the top card
        where it lay, in view: no change. A detector's box of the card
        itself may settle 10 mm off after an arm passed near it, so this
        counts only where ``twin_ok`` says the referee expects such a card
        from the arm that reached in (its turn, the card legal; with no
        referee, never; or ``twin_if_laid`` and the pixels are sure,
        :meth:`_twin_expected`), the newest reads all name the label, and the box
        has kept its look (``play.look_mm``) for ``settle_frames`` reads (a card
        coming in over the top card grows its box for a frame or two), and the
        top did not stand as it was taken after that arm left (:meth:`_reached`).
        A twin's box is whole (``shrunk``) and not the top's box cut on one
        side (``cut_min_mm`` or more, :meth:`_within`) under a hand
        (:meth:`_hand_over`): a twin laid a little off its copy may measure
        smaller, but reaches out past the copy's box, or differs from it by no
        more than a box's jitter, or lies there with no hand over it. Where the
        top card's pixels are sure a card lies on it (:meth:`_pixels_sure`),
        its box need not have changed: a twin laid neatly on its copy may
        measure as the copy did, to a fraction of a mm."""
        cfg = self.config
        top = self.pile[-1]
        if self.last_reach <= top.t or not self._twin_expected(c.label):
            return False
        if c is top and not self._reached(top):
            return False  # the arm that reached in left the top as it was
        if c is top and self._taken_back(top):
            return False  # a card held over the top card and taken back
        changed = self._changed(c, top, moved, resized, wh)
        settled = self._reads_agree and self._steady
        if changed and not settled:
            self.retry = True  # judge it again once the newest reads agree
        return changed and settled

    def _covers_top(self, c: PileCard) -> bool:
        """The box being judged, of the label of ``c``, a card lower in the
        pile, lies on the top card (:meth:`_on_top`) where no other whole
        card shows (:meth:`_top_hidden`: the top card is covered), with no
        arm in the zone and its newest read untouched (no hand covers the
        top card), or (``play.cover_sure``) with a hand still at it where the
        top card's pixels are sure a card lies on it (:meth:`_pixels_sure`;
        a lower card peeking out leaves the top card as it lay): it covers
        the top card, so it is no part of ``c`` peeking out from under it,
        however small its box."""
        track = self._tracks[0]
        if (
            not self.pile
            or c is self.pile[-1]
            or self._xy is None
            or track is None
            or not track.history
        ):
            return False
        newest = track.history[-1]
        if not (self._top_gone and self._on_top(*self._xy)):
            return False
        if self.last_reach < newest.t and not newest.touched:
            return True
        # a hand still at it: the top card's pixels, where no hand lies over
        # them, sure a card lies on it (a lower card peeking out leaves the
        # top card as it lay)
        return self.config.cover_sure and self._pixels_sure()

    def _taken_back(self, top: PileCard) -> bool:
        """The arm that last reached into the zone held a card over the top
        card and took it back: a whole card was seen in that hand with its
        centre on the top card (:meth:`_on_top`) while the arm reached in,
        and a card of that label, another track than the top card's, is seen
        in a hand or moving after the arm left the zone, farther than
        ``same_card_mm`` from the top card but within ``carry_mm``. A card
        put down on the top card stays there (a twin put on its copy leaves
        nothing of its label in the hand); the top card showing again once
        the hand has gone lies as it lay, whatever its box jittered by under
        the hand (:meth:`_new_look`)."""
        cfg = self.config
        over = {
            k.label for k in self._carried
            if self.reach_began <= k.t <= self.last_reach and self._on_top(k.x, k.y)
        }
        if any(self._out_again(label, self.reach_began) for label in over):
            return True
        return any(
            k.label in over
            and k.t > self.last_reach
            and k.track != top.track
            and cfg.same_card_mm
            < np.hypot(k.x - top.xy[0], k.y - top.xy[1])
            <= cfg.carry_mm
            for k in self._carried
        )

    def _out_again(self, label: str, since: float) -> bool:
        """A card of ``label`` seen in a hand over the top card (its centre on
        it, :meth:`_on_top`, but farther than ``same_spot_mm`` from where the
        top card lies: a box there under a hand may be the top card's own)
        after ``since`` was seen in a hand or moving out of the zone after
        that: the hand took the card back. A card put down on the pile does
        not leave the zone again in a hand; an arm's tip may show in the zone
        a frame longer than the card it holds."""
        if self.zone is None or not self.pile:
            return False
        top = self.pile[-1]
        over = [
            k.t for k in self._carried
            if k.label == label
            and k.t > since
            and self._on_top(k.x, k.y)
            and np.hypot(k.x - top.xy[0], k.y - top.xy[1]) > self.config.same_spot_mm
        ]
        if not over:
            return False
        last = max(over)
        out = [k for k in self._carried if k.label == label and k.t > last]
        if not out:
            return False
        inside = self.geometry.inside(self.zone, np.array([[k.x, k.y] for k in out]))
        return not bool(np.all(inside))

    def _changed(self, c: PileCard, top: PileCard, moved: float, resized: float,
                 wh: np.ndarray) -> bool:
        cfg = self.config
        if c is top:
            card = self.geometry.card
            # a twin shows whole (as :meth:`_known` measures one: not under
            # ``shrunk`` of the copy's card size, taken as between
            # ``whole_min`` and ``whole_max``); the top partly covered not
            size = min(max(card_scale(c.wh[0], c.wh[1], card), cfg.whole_min),
                       cfg.whole_max)
            whole = card_scale(
                float(wh[0]), float(wh[1]), card
            ) >= cfg.shrunk * size or self._twin_boxed_short(c, wh)
            # Turning a card changes both sides of its box the same way; a card
            # coming over one edge of the top card cuts one side only (by
            # ``cut_min_mm`` or more: less is what a box jitters by, or a twin
            # laid neatly on its copy), what is left of the top lies within
            # its box (``look_mm`` to spare): a box reaching out past the
            # copy's is another card; and a hand is over it (:meth:`_hand_over`):
            # with none, nothing covers the top, and the narrower box is a
            # twin's (the copy's box may have taken in an edge of the card below).
            dw, dh = float(wh[0]) - c.wh[0], float(wh[1]) - c.wh[1]
            cut_mm = cfg.cut_min_mm
            one_side = (dw <= -cut_mm and abs(dh) <= 1.0) or (
                dh <= -cut_mm and abs(dw) <= 1.0
            )
            if not whole:
                return False
            # the pixels sure of a card on the top card: a twin laid so neatly
            # on its copy that its box lies and measures as the copy's did, or
            # one boxed shorter on one side under the hand still over it (the
            # pixels are asked only where the hands leave the top's region
            # showing, so a hand cutting the top card is no card on it)
            if self._pixels_sure():
                return True
            if one_side and self._within(c, wh) and self._hand_over():
                return False
            return (
                (
                    moved > cfg.twin_moved_mm
                    or resized > cfg.twin_size_mm
                    or self._new_look(wh)
                )
                and not self._looked_so_before(wh)
                and not self._print_kept()
            )
        return top.label != c.label and self._top_gone

    def _twin_boxed_short(self, c: PileCard, wh: np.ndarray) -> bool:
        """The box being judged, of the top card ``c``'s label and smaller than
        a whole card (``shrunk``), is a twin the finder boxed short, not the
        top card partly covered: it reaches out past the top card's box
        (:meth:`_within`; what is left of a card partly covered lies within
        its own box), no hand is over it (:meth:`_hand_over`; only a hand
        covers the top card without being a card itself), the referee
        expects the copy from the arm that last reached in
        (:meth:`_twin_expected`) and the top card's pixels are sure a card
        lies on it (:meth:`_pixels_sure`). A copy laid a little off and turned
        on a top card whose box took in an edge of the cards below may be
        boxed a card's end short, and shows so however long it lies."""
        if not self._top_reached(c) or self._within(c, wh) or self._hand_over():
            return False
        return self._twin_expected(c.label) and self._pixels_sure()

    def _twin_under_hand(self, c: PileCard) -> bool:
        """``play.twin_under_hand``: the box being judged, of the top card ``c``'s
        label and smaller than a whole card, is a twin partly covered by the
        hand that let go of it (:meth:`_hand_over`; with no hand over it,
        :meth:`_twin_boxed_short` judges): an arm reached in since ``c`` was
        taken, the referee expects the copy from it (:meth:`_twin_expected`)
        and the top card's pixels, where no hand lies over them, are sure a
        card lies on it (:meth:`_pixels_sure`). The top card partly covered
        by a hand leaves its pixels as they were; the twin's box grows whole
        once the hand leaves, and is that card (its own print)."""
        if (not self.config.twin_under_hand or not self._top_reached(c)
                or not self._hand_over()):
            return False
        return self._twin_expected(c.label) and self._pixels_sure()

    def _top_reached(self, c: PileCard) -> bool:
        """``c`` is the pile's top card and an arm reached in since it was taken."""
        return bool(self.pile) and c is self.pile[-1] and self.last_reach > c.t

    def _hand_over(self) -> bool:
        """A hand is over the box being judged: an arm reaches into the zone
        now, or a read of the box's current stay (its track's newest reads
        showing its look) was touched. (Where that cannot be told: taken as
        so.)"""
        track = self._tracks[0]
        if track is None or not track.history:
            return True
        if self.last_reach >= track.history[-1].t - 1e-9:
            return True
        since = self._stay[1]
        return any(r.touched for r in track.history if r.t >= since)

    def _looked_so_before(self, wh: np.ndarray) -> bool:
        """The box being judged (its place ``self._xy``, size ``wh``) is a look
        the top card showed untouched before the arm that last reached into the
        zone came (within ``play.look_mm``): the detector's box of a card lying still
        flips between a few looks, and a hand hovering over the pile and taken
        back leaves one of them, not a twin."""
        if self._xy is None:
            return False
        x, y = self._xy
        w, h = (float(v) for v in wh)
        lim = self.config.look_mm
        return any(
            not k.touched
            and k.t < self.reach_began
            and max(abs(k.x - x), abs(k.y - y), abs(k.w - w), abs(k.h - h)) <= lim
            for k in self._looks
        )

    def _reached(self, c: PileCard) -> bool:
        """An arm reached into the zone since card ``c`` was taken and, when
        ``c`` is the top card, that arm changed it: the top did not stand as
        it was taken after the arm left (:meth:`_stood`; a copy seen carried
        in, :meth:`_known`, may be put down just as its twin lay), and the box
        being judged did not lie as it lies before the arm came
        (:meth:`_lay_before`), unless the referee expects a copy of it from
        that arm (``twin_ok``) and the top card's pixels are sure a card lies
        on it (:meth:`_pixels_sure`): a twin laid neatly stands just as its
        copy lay."""
        if self.last_reach <= c.t:
            return False
        if not (self.pile and c is self.pile[-1]):
            return True
        if not (self._stood(c) or self._lay_before()):
            return True
        # a twin the referee expects, that the pixels are sure of
        # (:meth:`_pixels_sure`): laid so neatly it stands as its copy lay
        return self._twin_expected(c.label) and self._pixels_sure()

    def _twin_expected(self, label: str) -> bool:
        """The referee expects a card of ``label`` from the arm that last
        reached into the zone (``twin_ok``), or expects it only if laid
        (``twin_if_laid``) and the top card's pixels are sure a card lies on
        it (:meth:`_pixels_sure`): a seat that has just drawn may play the
        card it drew, a copy of the top card, while its drawing arm passing
        over the pile may only have shifted the top card's box (which leaves
        the pixels as they were)."""
        return bool(self.twin_ok(label)) or (
            bool(self.twin_if_laid(label)) and self._pixels_sure()
        )

    def _lay_before(self) -> bool:
        """The box being judged lay as it lies (its track's current stay),
        untouched, for ``settle_frames`` reads before the arm last reached into
        the zone: no card that arm put down (the top card's box flipped to
        another look of its own, and an arm came later)."""
        track = self._tracks[0]
        if track is None:
            return False
        since = self._stay[1]
        # an arm still in the zone now: its reach began when it came
        came = (
            self.reach_began
            if track.history and self.last_reach >= track.history[-1].t - 1e-9
            else self.last_reach
        )
        before = [
            r for r in track.history
            if since <= r.t < came and not r.touched
        ]
        return len(before) >= max(self.config.settle_frames, 1)

    def _stood(self, c: PileCard) -> bool:
        """After the arm last reached into the zone, the judged track or the
        top card's showed the top card as it was taken (its box within
        ``look_mm``), untouched, for ``settle_frames`` reads: that arm left
        the top as it was; a box changing later, with no arm reaching in
        (one passing near the pile on its way elsewhere), is no card it put
        down. So is a box that took its look after one such read (fewer than
        ``settle_frames``) and has not been touched since: the arm had left
        the top as it was, and the box changed under no hand."""
        lim, seen = self.config.look_mm, set()
        for track in self._tracks:
            if track is None:
                continue
            for r in track.history:
                if (
                    r.t > self.last_reach
                    and not r.touched
                    and max(abs(r.x - c.xy[0]), abs(r.y - c.xy[1]),
                            abs(r.w - c.wh[0]), abs(r.h - c.wh[1])) <= lim
                ):
                    seen.add(r.t)
        if len(seen) >= max(self.config.settle_frames, 1):
            return True
        # the box being judged took its look only after such a read, and no
        # hand touched it since: it changed with no arm in the zone (the
        # detector's box of a card lying still flipping to another look)
        track, since = self._tracks[0], self._stay[1]
        return (
            bool(seen)
            and track is not None
            and since > max(seen)
            and not any(r.touched for r in track.history if r.t >= since)
        )

    def _within(self, c: PileCard, wh: np.ndarray) -> bool:
        """The box being judged (its place ``self._xy``, size ``wh``) lies
        within card ``c``'s box, no edge more than ``look_mm`` outside it."""
        if self._xy is None:
            return True
        lim = self.config.look_mm
        for k in range(2):
            lo, hi = self._xy[k] - float(wh[k]) / 2, self._xy[k] + float(wh[k]) / 2
            if lo < c.xy[k] - c.wh[k] / 2 - lim or hi > c.xy[k] + c.wh[k] / 2 + lim:
                return False
        return True

    def _top_hidden(self, dets: Detections, but: int) -> bool:
        """No whole card (``min_scale`` card sizes or more) but detection
        ``but`` lies within ``same_card_mm`` of where the top card lay: the top
        card is covered, and ``but`` is what now lies on top."""
        if not self.pile:
            return False
        top, card = self.pile[-1], self.geometry.card
        for j in range(len(dets)):
            if j == but:
                continue
            w, h = dets.data["table_wh"][j]
            if (
                np.hypot(*(dets.data["table_xy"][j] - np.array(top.xy)))
                <= self.config.same_card_mm
                and card_scale(float(w), float(h), card) >= self.config.min_scale
            ):
                return False
        return True

    def remember_carried(
        self, dets: Detections, t: float, tracks: dict[int, Track]
    ) -> None:
        """Note the whole cards seen in a hand or on the move this frame,
        read with at least ``carry_conf`` (for :meth:`_known`): a card lying
        on the table does neither. A still box of the top card under an arm
        (:meth:`_top_under_hand`) is that card, not one carried."""
        cfg = self.config
        keep = t - cfg.carry_memory_s
        self._carried = [c for c in self._carried if c.t >= keep]
        touched = dets.data.get("touched", np.zeros(len(dets), bool))
        for i in range(len(dets)):
            track = tracks.get(int(dets.tracker_id[i]))
            moving = (
                track is not None
                and len(track.history) >= 2
                and float(
                    np.hypot(
                        track.history[-1].x - track.history[-2].x,
                        track.history[-1].y - track.history[-2].y,
                    )
                )
                > cfg.move_mm
            )
            if not (touched[i] or moving) or dets.confidence[i] < cfg.carry_conf:
                continue
            w, h = dets.data["table_wh"][i]
            scale = card_scale(float(w), float(h), self.geometry.card)
            if scale < cfg.carry_scale:
                continue  # part of a card (one a hand covers), not one held up
            x, y = dets.data["table_xy"][i]
            if not moving and self._top_under_hand(dets.labels[i], x, y, scale):
                continue
            self._carried.append(
                _Carried(t, dets.labels[i], float(x), float(y), int(dets.tracker_id[i]))
            )

    def _on_top(self, x: float, y: float) -> bool:
        """A box centre ``(x, y)`` lies on the top card (within its box)."""
        if not self.pile:
            return False
        top = self.pile[-1]
        return abs(x - top.xy[0]) <= top.wh[0] / 2 and abs(y - top.xy[1]) <= top.wh[1] / 2

    def _top_under_hand(self, label: str, x: float, y: float, scale: float) -> bool:
        """A box of the top card's label that a hand touches, lying still with
        its centre on the top card (:meth:`_on_top`) and measuring no more
        than the top card's own box (:func:`card_scale`): the part of the top
        card an arm over the pile leaves in view, not a copy in a hand (one
        held up is nearer the camera and measures more; one brought in moves)."""
        if not (self.stacked and self.pile) or label != self.pile[-1].label:
            return False
        top = self.pile[-1]
        return self._on_top(x, y) and scale <= card_scale(
            top.wh[0], top.wh[1], self.geometry.card
        )

    def _where_it_lay(
        self, x: float, y: float, w: float, h: float, c: PileCard
    ) -> bool:
        """A box (centre, size) that lies and measures as card ``c`` did, within
        ``same_spot_mm``."""
        lim = self.config.same_spot_mm
        return (
            float(np.hypot(x - c.xy[0], y - c.xy[1])) <= lim
            and max(abs(w - c.wh[0]), abs(h - c.wh[1])) <= lim
        )

    def _top_visible(
        self, dets: Detections, tracks: dict[int, Track], but: int
    ) -> bool:
        """The top card is in view, whole (``top_visible_share`` of its area,
        within ``same_card_mm`` of it), as another detection than ``but``.

        Then a settled detection of a label that lies lower in the pile is a
        corner of that lower card peeking out from under the top one: a card
        put on the pile would cover the top card.
        """
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
                and w * h >= self.config.top_visible_share * top.area
            ):
                return True
        return False
