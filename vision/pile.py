"""Cards landing in one zone of the table: :class:`PileWatcher`.

A settled, untouched, whole card in the zone has *landed* unless the zone
already holds it: :meth:`PileWatcher.landed` names each way a card the zone
holds can show again (the same track undisturbed, the same card read two ways,
its reads torn as before, a second look at a known card, a corner of a lower
card peeking out). The UNO discard pile (:mod:`vision.plays`) and the other
games' zones (:mod:`vision.interpreters`) each use one watcher per zone.
"""

from __future__ import annotations

import numpy as np

from .card_scale import card_scale
from .config import PlayConfig
from .detections import Detections
from .geometry import TableGeometry
from .hands import Reach
from .pile_memory import PileCard, PileMemory, PileView
from .prior import LegalCheck, choose_label
from .tracking import Read, Track, label_scores


def grown_round(wh, ref) -> float:  # noqa: ANN001
    """How much larger box ``wh`` is than box ``ref`` on its least grown side
    (a share of ``ref``'s side; negative: smaller there), short side against
    short side and long against long (a card turned a quarter from the other
    swaps its box's sides). A card nearer the camera grows on every side; one
    boxed with what lies at one end of it grows on that side only."""
    a = sorted((float(wh[0]), float(wh[1])))
    b = sorted((float(ref[0]), float(ref[1])))
    return float(min(a[0] / max(b[0], 1e-6), a[1] / max(b[1], 1e-6)) - 1.0)


def pixel_mm(geometry: TableGeometry, xy) -> float:  # noqa: ANN001
    """How long one image pixel lies on the table plane at table point ``xy``
    (mm; the longer of a pixel's two sides there)."""
    p = geometry.to_image(np.array([xy], dtype=np.float64))[0]
    q = geometry.to_table(np.array([p, p + (1.0, 0.0), p + (0.0, 1.0)]))
    return float(max(np.hypot(*(q[1] - q[0])), np.hypot(*(q[2] - q[0]))))


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
        self.memory = PileMemory(geometry, self.config, stacked, zone)
        # (track, label) -> where the box lay and measured when decided, when,
        # and whether it is settled whatever the referee comes to expect (a
        # box taken as a new card, or one held already while the referee
        # expected a twin of it, :meth:`_twin_now`)
        self._done_tracks: dict[
            tuple[int, str], tuple[np.ndarray, np.ndarray, float, bool]
        ] = {}
        self._last_busy = 0.0
        self._reaching = False  # an arm was in the zone in the last frame
        # the seats of the arms last seen in the zone, and the tips of those
        # arms this frame where none is in it (:meth:`_withdrawn`)
        self._reach_seats: set[str | None] = set()
        self._left: list[tuple[float, float]] = []
        # track -> when the arm that last reached in was first seen gone from
        # the box (its tip out of the zone, past let_go_tip_mm of the box)
        self._gone: dict[int, tuple[float, float]] = {}
        #: when the zone's cards were last found gathered (:meth:`check_clear`)
        self.emptied_at = -1.0

    def see(self, view: PileView | None) -> None:
        """This frame's pixels, for the twin check (``PileMemory.keep_print``);
        called before :meth:`landed` (``None``: none, the check passes)."""
        self.memory.see(view)

    @property
    def pile(self) -> list[PileCard]:
        """The cards the zone has taken, oldest first (the top card last)."""
        return self.memory.pile

    @pile.setter
    def pile(self, cards: list[PileCard]) -> None:
        self.memory.pile = cards

    def _same_spot(
        self,
        seen: tuple[np.ndarray, np.ndarray, float],
        xy: np.ndarray,
        wh: np.ndarray,
        reached: bool = False,
    ) -> bool:
        """The box lies and measures as it did when decided (``same_spot_mm``;
        after an arm reached into the zone, ``twin_moved_mm`` / ``twin_size_mm``:
        a twin put on a card can continue its track with a box a few mm off)."""
        cfg = self.config
        moved, size = (
            (cfg.twin_moved_mm, cfg.twin_size_mm)
            if reached
            else (cfg.same_spot_mm, cfg.same_spot_mm)
        )
        return bool(
            np.hypot(*(seen[0] - xy)) <= moved and np.max(np.abs(seen[1] - wh)) <= size
        )

    def _lain(self, track: Track, t: float, seconds: float) -> bool:
        """The card has lain still (``move_mm``) and untouched for ``seconds``
        (the window reaches ``still_margin_s`` further back, so that a frame
        older than ``seconds`` is in it whatever the frame rate)."""
        cfg = self.config
        reads = track.still_reads(
            t, cfg.settle_frames, seconds, cfg.move_mm, seconds + cfg.still_margin_s,
            flicker_reads=cfg.flicker_reads, look_mm=cfg.look_mm,
        )
        return reads is not None

    def _follow_hand(self, t: float, tracks: dict[int, Track]) -> None:
        """The top card taken while its hand lingered (:meth:`_let_go`): until
        its track has been untouched for ``settle_frames`` reads, the card
        counts as taken now, where it lies now (the hand leaving it is no arm
        reaching in since, and the box it shows once uncovered is its own)."""
        if not self.pile or not self.pile[-1].held:
            return
        top = self.pile[-1]
        track = tracks.get(top.track)
        if (
            track is None
            or track.seen < t - 1e-9
            or track.history[-1].label != top.label
        ):
            top.held = False
            return
        recent = list(track.history)[-self.config.settle_frames :]
        last = recent[-1]
        top.t, top.xy, top.wh = t, (last.x, last.y), (last.w, last.h)
        if not any(r.touched for r in recent):
            top.held = False  # the hand has left: the card lies as it lies now

    def _let_go(
        self,
        track: Track,
        t: float,
        wh: np.ndarray,
        evidence: float,
        reaches: list[Reach] = (),
        copy: bool = False,
        own: bool = False,
    ) -> list[Read] | None:
        """The reads of a card a hand still touches but has let go of, or
        ``None``: it lies still (``play.let_go_mm``, its size within
        :meth:`_let_go_size_mm`, touched reads counted) for
        ``play.let_go_frames`` frames (at least ``settle_frames``: a hand holding
        a card over the pile can pause at the end of a sway for a settle's
        frames, whose reads then agree as well as a card's lying still) spanning
        ``settle_s`` (a pause lasts a time: at a higher frame rate it takes
        more frames) and measures as a card
        lying flat (at most ``play.let_go_scale`` card sizes). A hand lingering
        over the card it put down no longer moves it; a card held in the air
        measures larger (nearer the camera) and moves with the hand. A box
        up to ``max_scale`` that lies within the pile's extent
        (:meth:`_within_pile`) may be a card on the pile boxed with the edges
        of the cards below, or one held a little above the pile: size cannot
        tell them apart, so one over ``play.let_go_loose_scale`` must lie that
        still for ``play.let_go_loose_s``
        (a held card drifts with the hand within that time), unless it has
        lain still in every read since it showed
        (:meth:`_shown_still`): then the settle time is enough. A card of
        any size that the hand held over the spot where it lies for
        ``play.let_go_hover_s`` before it paused (:meth:`_hovered`: a hand
        holding a card over the pile sways, and pauses at the end of a sway,
        the first one's too; one putting a card down brings it in and lets
        go) must lie still ``play.let_go_hover_still_s`` (at least
        ``play.let_go_loose_s``), unless it showed still. A ``copy`` of
        the top card (:meth:`_may_let_go`) measuring more than
        ``play.let_go_twin_grow`` card sizes over the top card's box, taken
        as at least ``play.let_go_twin_from`` card sizes
        (:func:`card_scale`, whatever the turn: a twin lying on its copy
        measures about as its copy does, a copy held over the pile is nearer
        the camera) must also have lain still since it showed, or (with
        ``play.let_go_sway_s`` on) lie that still that long; a box over
        ``play.let_go_scale`` that sticks out of the pile's extent counts
        only so, however it showed, and with it off waits for the hand to
        leave: a card held in the air sways within that time, while one let
        go of lies still under fingers lingering in its box (they grow it),
        but a hand may hold a card still over the pile and take it back. One
        sticking out only toward the hand (:meth:`_toward_hand`: the fingers
        at the card's near end in its box) is judged as a box within the
        pile's extent when it showed still from under the hand that hid it
        (:meth:`_shown_still`), however large the two measure together, or,
        measuring at most ``max_scale`` (or more, grown at the hand's end
        only, :meth:`_hand_end_only`), when it was seen before it lay still
        (it came in, :meth:`_came_in`); otherwise it waits as any box
        sticking out. A read whose box lies as the newest's on three edges
        (``let_go_mm``) and within ``play.let_go_edge_mm`` on the fourth lies
        still too (the detector refits one edge of a card lying still; one
        held over the pile sways, moving every edge). With
        ``play.edge_let_go``, one measuring at most ``max_scale`` that sticks
        out at one end while its other end follows a pile card's edge
        (:meth:`_edge_below`: a card laid off the pile, boxed with the edge
        of the one it half covers) is judged as one sticking out toward the
        hand. With ``play.shown_loose``, a box
        within the pile's extent measuring over ``max_scale`` (at most
        ``loose_scale``) counts
        when it showed still from under the hand that hid it (the card and
        the fingers on it, or the edges of the cards below), and waits for
        the hand otherwise. ``own``: the box is covered only by the hand's
        box of its own card (:meth:`_own_box`), so the hand is at it wherever
        its arm's tip lies.
        Asked only where :meth:`_may_let_go` allows (the top card under a
        passing arm waits for the hand to leave), and only while
        the hand is at the card: where arms are seen, one's tip lies within
        ``play.let_go_tip_mm`` of it (an arm passing over the pile on its way
        to the draw pile hides part of the top card, whose box may then read
        as another card; a hand lingering so still that its arm faded into the
        background leaves no tip)."""
        cfg = self.config
        # ``own``: the hand's box of the card covers it (:meth:`_own_box`):
        # the hand is at the card wherever its tip lies
        if reaches and not own and min(
            float(np.hypot(r.tip[0] - track.xy[0], r.tip[1] - track.xy[1]))
            for r in reaches
        ) > cfg.let_go_tip_mm:
            return None
        w, h = (float(v) for v in wh)
        scale = card_scale(w, h, self.geometry.card)
        frames = max(cfg.settle_frames, cfg.let_go_frames)
        size_mm = self._let_go_size_mm(track.xy)
        edge_mm = cfg.let_go_edge_mm

        def still(seconds: float) -> list[Read] | None:
            return track.still_reads(
                t, frames, seconds, cfg.let_go_mm,
                max(evidence, seconds + cfg.still_margin_s), touched_ok=True,
                size_mm=size_mm, edge_mm=edge_mm, edge_after=self._edge_after(),
                edge_keep_mm=cfg.let_go_mm,
            )

        # a box lying within the pile as its top card does, grown on one
        # side only (:meth:`_lies_as_pile`): a loose box, not a card held up
        held_up = scale > cfg.let_go_scale and not self._lies_as_pile(
            track.xy, (w, h), scale
        )
        # measures as a card held up, and sticks out of the pile's extent;
        # only toward the hand: the card and the fingers lingering at its end
        # (:meth:`_toward_hand`), whatever the two measure together
        out = held_up and not self._within_pile(track.xy, (w, h))
        handed = out and (
            self._toward_hand(track.xy, (w, h), reaches)
            # its ends follow a pile card's edge (:meth:`_edge_below`): a card
            # laid off the pile, boxed with the edge of the one it half covers
            or (
                cfg.edge_let_go
                and scale <= cfg.max_scale
                and self._edge_below(np.asarray(track.xy, float), (w, h))
            )
        )
        # within the pile's extent, up to loose_scale: judged once it has
        # shown still from under the hand (:meth:`_shown_still`)
        lying_loose = (
            cfg.shown_loose and held_up and not out and scale <= cfg.loose_scale
        )
        if held_up and scale > cfg.max_scale and not (handed or lying_loose):
            return None
        off = out and not handed
        # within the pile's extent: a loose box, or a card held a little above
        loose = scale > cfg.let_go_loose_scale and not handed
        sway = max(cfg.settle_s, cfg.let_go_loose_s, cfg.let_go_sway_s)
        if off and cfg.let_go_sway_s <= 0:
            return None
        settled = still(cfg.settle_s)
        if settled is None:
            return None
        if off:
            return still(sway)
        shown = self._shown_still(track, settled)
        if lying_loose and scale > cfg.max_scale and not shown:
            return None
        # over max_scale, but grown at the hand's end only: the card and
        # the fingers lingering at its near end (:meth:`_hand_end_only`)
        high = scale > cfg.max_scale and not self._hand_end_only((w, h), scale)
        if handed and not shown and (high or not self._came_in(track, settled)):
            # measuring as a card held up high, or come into view held
            # still: as a box sticking out anywhere
            if cfg.let_go_sway_s > 0 and not high:
                return still(sway)
            return None
        if copy and not shown:
            top = self.pile[-1]
            top_scale = card_scale(top.wh[0], top.wh[1], self.geometry.card)
            floor = max(top_scale, cfg.let_go_twin_from)
            grow = scale - floor
            # a copy held over the pile grows on every side; one lying on it
            # under fingers lingering at one end grows on that side only
            whole = np.multiply(top.wh, floor / max(top_scale, 1e-6))
            if grow > cfg.let_go_twin_grow and (
                cfg.round_grow <= 0 or grown_round((w, h), whole) > cfg.round_grow
            ):
                return still(sway) if cfg.let_go_sway_s > 0 else None
        if shown:
            return settled
        if self._hovered(track, settled):
            return still(max(cfg.settle_s, cfg.let_go_loose_s,
                             cfg.let_go_hover_still_s))
        if loose:
            return still(max(cfg.settle_s, cfg.let_go_loose_s))
        return settled

    def _edge_after(self) -> float:
        """Reads newer than this may lie still with one edge refit
        (``Track.still_reads``' ``edge_mm`` / ``grow_mm``): those since the
        arm that last reached into the zone began to (an older box is the card
        that lay there before, which a card put on it can match on three
        edges); none where no arm has reached in."""
        began = self.memory.reach_began
        return began if began >= 0 else float("inf")

    def _hand_end_only(self, wh: tuple[float, float], scale: float) -> bool:
        """A box sticking out of the stacked pile only toward the hand
        (:meth:`_toward_hand`), at most ``play.loose_scale``, that is larger
        than the top card's box by at most ``play.handed_grow`` on its least
        grown side (:func:`grown_round`): the card and the fingers at its near
        end, which lengthen the box on that side only. A card held up nearer
        the camera grows on every side."""
        grow = self.config.handed_grow
        if grow <= 0 or scale > self.config.loose_scale or not (
            self.stacked and self.pile
        ):
            return False
        return grown_round(wh, self.pile[-1].wh) <= grow

    def _lies_as_pile(self, xy, wh: tuple[float, float], scale: float) -> bool:  # noqa: ANN001
        """A box over a card's size (at most ``play.loose_scale``) that lies
        on the stacked pile as its top card does: within the pile's extent
        (:meth:`_within_pile`) and larger than the top card's box by at most
        ``play.round_grow`` on one of its sides (:func:`grown_round`). A card
        held above the pile is nearer the camera and grows on every side; the
        detector's box of a card lying on a messy pile takes in the edges of
        the cards below (or fingers) at one end, as the top card's own box
        did."""
        if (
            self.config.round_grow <= 0
            or scale > self.config.loose_scale
            or not (self.stacked and self.pile)
        ):
            return False
        return (
            self._within_pile(np.asarray(xy, dtype=float), wh)
            and grown_round(wh, self.pile[-1].wh) <= self.config.round_grow
        )

    def _toward_hand(
        self, xy, wh: tuple[float, float], reaches: list[Reach] = ()  # noqa: ANN001
    ) -> bool:
        """Box (``xy``, ``wh``) sticks out of the stacked pile's extent
        (``same_spot_mm`` to spare) only at ends facing the hand: the way back
        along the nearest arm (from its tip to where it enters) points toward
        that end, its share along that side of the table at least
        ``play.hand_side`` (an arm whose entry is not known: its tip lies past
        the box's centre toward that end by that share of the box's side),
        and by no more than
        ``same_card_mm`` past the extent. Fingers lingering on a card let go
        of lengthen its box toward the arm, the card's far end lying on the
        pile; a card held up off the pile sticks out on its far side too. A
        box reaching farther takes in the hand, its centre well off the
        card's (the card's own box, once the hand has gone, would be taken
        for another card)."""
        share = self.config.hand_side
        if share <= 0 or not reaches or (extent := self._extent()) is None:
            return False
        lo, hi = extent
        spare = self.config.same_spot_mm
        x = np.asarray(xy, dtype=float)
        arm = min(
            reaches, key=lambda r: float(np.hypot(r.tip[0] - x[0], r.tip[1] - x[1]))
        )
        tip = np.asarray(arm.tip, dtype=float)
        if arm.entry is not None:
            # the way back along the arm, from its tip to where it enters
            back = np.asarray(arm.entry, dtype=float) - tip
            side = back / max(float(np.hypot(*back)), 1e-6)
        else:  # the tip's side of the box's centre
            side = (tip - x) / np.maximum(np.asarray(wh, dtype=float), 1e-6)
        reach = self.config.same_card_mm
        out = False
        for k in range(2):
            toward = float(side[k])
            a, b = x[k] - float(wh[k]) / 2, x[k] + float(wh[k]) / 2
            if a < lo[k] - spare:
                if toward > -share or lo[k] - a > reach:
                    return False
                out = True
            if b > hi[k] + spare:
                if toward < share or b - hi[k] > reach:
                    return False
                out = True
        return out

    def _let_go_size_mm(self, xy) -> float:  # noqa: ANN001
        """How much (mm) the size of the reads of a card a hand still touches
        may differ from its newest and count as lying still:
        ``play.let_go_mm``, or ``play.let_go_size_px`` of the frame's pixels
        at ``xy`` where that is more (a box's jitter is a pixel's, whatever a
        pixel spans on the table)."""
        mm, px = self.config.let_go_mm, self.config.let_go_size_px
        if px <= 0:
            return mm
        return max(mm, px * pixel_mm(self.geometry, xy))

    def _hovered(self, track: Track, reads: list[Read]) -> bool:
        """Before its still ``reads`` (the newest of ``track``), the hand held
        the card over the spot where it lies for ``play.let_go_hover_s`` or
        more: the track's reads just before them, of the newest read's label
        and within ``same_card_mm`` of it, with no gap of
        ``play.let_go_hidden_s`` between them, span that long from the oldest
        touched one. A hand putting a card down brings it in and lets go (its
        reads over that spot span a frame or two, about a tenth of a second);
        one holding it over the pile sways there, and a pause at the end of a
        sway lies as still as a card let go of, the first sway's end too.
        Untouched reads in a row, fewer than
        ``settle_frames`` or spanning less than ``settle_s``, do not end the
        hover: a second, larger box over the held card (the card with the
        hand) takes the hand's pixels out of the touch test for a frame or
        two, while a card lying untouched that long is judged as lying
        there."""
        cfg = self.config
        if not reads:
            return False
        first, last = reads[0], track.history[-1]
        gap = cfg.let_go_hidden_s if cfg.let_go_hidden_s > 0 else float("inf")
        since = newer = first.t
        missed, missed_at = 0, first.t  # untouched reads in a row, the newest's time
        for r in reversed([r for r in track.history if r.t < first.t - 1e-9]):
            if r.touched:
                missed = 0
            else:
                missed, missed_at = missed + 1, (r.t if missed == 0 else missed_at)
            # untouched as long as a card lying there is judged: no hover
            lay = missed >= cfg.settle_frames and missed_at - r.t >= cfg.settle_s - 1e-9
            if (
                lay
                or r.label != last.label
                or newer - r.t >= gap - 1e-9
                or float(np.hypot(r.x - last.x, r.y - last.y)) > cfg.same_card_mm
            ):
                break
            newer = r.t
            if r.touched:
                since = r.t
        return first.t - since >= cfg.let_go_hover_s - 1e-9

    def _came_in(self, track: Track, reads: list[Read]) -> bool:
        """The read of ``track`` just before its still ``reads`` (the newest
        of ``track``) lay elsewhere (farther than ``play.let_go_mm`` from the
        newest): the card was seen coming in before it lay still, rather than
        coming into view held still."""
        if not reads:
            return False
        last = reads[-1]
        before = [r for r in track.history if r.t < reads[0].t - 1e-9]
        return bool(before) and float(
            np.hypot(before[-1].x - last.x, before[-1].y - last.y)
        ) > self.config.let_go_mm

    def _shown_still(self, track: Track, reads: list[Read]) -> bool:
        """The still ``reads`` (the newest of ``track``) reach back to when the
        box showed: the track was unseen at least ``play.let_go_hidden_s``
        just before them (a track that began with them may be a card that came
        into view held still). A hand putting a card down over
        the pile hides it (and the card below) until it lets go; a card held
        over the pile shows swaying before it pauses at the end of a sway."""
        hidden = self.config.let_go_hidden_s
        if hidden <= 0 or not reads:
            return False
        first = reads[0]
        before = [r for r in track.history if r.t < first.t - 1e-9]
        return bool(before) and first.t - before[-1].t >= hidden - 1e-9

    def _may_let_go(self, label: str) -> bool:
        """Whether a box read as ``label`` that a hand still touches may count
        at let go (:meth:`_let_go`): one of another label than the top card's,
        or a copy of the top card when ``play.let_go_twin`` is on, an arm has
        reached into the zone since the top card was taken, the referee expects
        a twin of it from that arm (``PileMemory.twin_ok``) and the top card
        is not one still under the hand that put it down (``PileCard.held``;
        :meth:`_let_go` asks more of a copy's box). The pile memory then judges whether the top changed
        (:meth:`PileMemory.held_already`): the top card under a hand that only
        passes or rests there shows where it lay, a twin laid on it a few
        millimetres or degrees off. Otherwise a copy of the top card waits for
        the hand to leave."""
        if not self.pile or self.pile[-1].label != label:
            return True
        top = self.pile[-1]
        return bool(
            self.config.let_go_twin
            and not top.held
            and self.memory.last_reach > top.t
            and self.memory.twin_ok(label)
        )

    def _own_box(self, dets: Detections, i: int) -> bool:
        """With ``play.own_box``: detection ``i``, covered
        (``tracking.cover_share``) and of another label than the top card's,
        is covered only by touched boxes of its own label (the tracker's
        ``covered_other`` false): the card lying under the fingers that let go
        of it, boxed a second time with them (the hand's box holds no other
        card). A copy of the top card keeps waiting (a twin held over its copy
        covers it)."""
        if not self.config.own_box:
            return False
        if self.pile and self.pile[-1].label == dets.labels[i]:
            return False
        other = dets.data.get("covered_other")
        return other is not None and not bool(other[i])

    def _starts_round(self) -> bool:
        """The zone is the empty UNO discard pile: its next card is the round's
        start card, which the dealer's hand covers as it lets go of it (the card
        shows a frame or two later, under the fingertips). Once the hand has
        left it, it counts when it has lain within ``play.start_mm`` for
        ``settle_frames`` frames spanning ``play.start_s``, its reads under the
        hand included: nothing lies below it to peek out or be twinned, and a
        card still in the hand is touched in its newest read."""
        return self.zone == "discard" and self.stacked and not self.pile

    @staticmethod
    def _covered(dets: Detections, i: int) -> bool:
        """A card in a hand covers part of it: not all of it shows (yet)."""
        covered = dets.data.get("covered")
        return bool(covered[i]) if covered is not None else False

    def _size_ok(
        self, dets: Detections, i: int, t: float, track: Track, judged: bool = False,
    ) -> bool:
        """A whole card lying on the table: not held up, not partly covered.

        A card that has just landed is the top of the pile, so all of it shows;
        a smaller box is part of a card under others (or under a hand). A
        larger box is a card held above the table, or a loose box: on a messy
        pile the detector's box of the top card may take in the edges of the
        cards below that stick out (:meth:`_loose_on_pile`); one no larger on
        every side than the top card's own box lies on the pile as that card
        does (:meth:`_lies_as_pile`). ``judged``: :meth:`_let_go` counted the
        box at let go with an arm in view, and a larger box only where it
        judged its size (one sticking out of the pile's extent only toward the
        hand, :meth:`_toward_hand`, or, with ``play.shown_loose``, one within
        the extent up to ``loose_scale`` shown still from under the hand).
        """
        cfg = self.config
        w, h = (float(v) for v in dets.data["table_wh"][i])
        scale = card_scale(w, h, self.geometry.card)
        if cfg.min_scale <= scale <= cfg.max_scale:
            return True
        if judged and scale > cfg.max_scale:
            return True
        if scale > cfg.max_scale and self._lies_as_pile(
            dets.data["table_xy"][i], (w, h), scale
        ):
            return True  # measures as the pile's top card: a loose box on it
        return scale <= cfg.loose_scale and self._loose_on_pile(
            dets.data["table_xy"][i], (w, h), t, track
        )

    def _loose_on_pile(
        self, xy: np.ndarray, wh: tuple[float, float], t: float, track: Track
    ) -> bool:
        """A box somewhat over ``max_scale`` that is a card on the pile, boxed
        with the edges of the cards below it: the box lies within the pile's
        extent (the boxes of the cards it holds, ``same_spot_mm`` to spare),
        or reaches out of it where a card laid off the pile would, its other
        end at a pile card's edge (:meth:`_edge_below`), and the card has lain
        still and untouched for ``loose_s`` with no hand reaching into the
        zone meanwhile, or since the arm that last reached in was seen gone
        from it (:meth:`_withdrawn`). A card held up over the pile measures
        as much, but a hand holds it (and reaches there), and it does not stay
        within ``move_mm`` that long; one held off the pile's extent sticks out
        of it."""
        cfg = self.config
        if not (self.stacked and self.pile):
            return False
        if not self._withdrawn(track, t) and (
            self.memory.last_reach > t - cfg.loose_s
            or not self._lain(track, t, cfg.loose_s)
        ):
            return False
        return self._within_pile(xy, wh) or self._edge_below(xy, wh)

    def _withdrawn(self, track: Track, t: float) -> bool:
        """With ``play.loose_left``: the arm that last reached into the zone
        was seen out of it since, its tip farther than ``play.let_go_tip_mm``
        from ``track``'s box, while the box lay still and untouched as it lies
        now (its settle window reaching back to then): the hand let go of it
        and left. A hand holding a card up over the pile stays at it, or fades
        into the background where it is and shows no tip."""
        if not self.config.loose_left:
            return False
        gone = self._gone.get(track.id)
        if gone is None or gone[1] < self.memory.last_reach:
            return False
        cfg = self.config
        reads = track.still_reads(
            t, cfg.settle_frames, cfg.settle_s, cfg.move_mm,
            max(t - gone[0], cfg.settle_s) + 1e-6,
        )
        return reads is not None and reads[0].t <= gone[0] + 1e-9

    def _note_gone(self, track: Track, xy, t: float) -> None:  # noqa: ANN001
        """With ``play.loose_left``: note when the arm that last reached into
        the zone is first seen out of it (:attr:`_left`), its tip farther than
        ``play.let_go_tip_mm`` from ``track``'s box (at ``xy``), the box's
        newest read untouched (:meth:`_withdrawn` asks it)."""
        if not (self.config.loose_left and self._left) or track.history[-1].touched:
            return
        gone = self._gone.get(track.id)
        if gone is not None and gone[1] >= self.memory.last_reach:
            return  # already seen gone since that reach
        if min(
            float(np.hypot(tip[0] - xy[0], tip[1] - xy[1])) for tip in self._left
        ) > self.config.let_go_tip_mm:
            self._gone[track.id] = (t, self.memory.last_reach)

    def _edge_below(self, xy: np.ndarray, wh: tuple[float, float]) -> bool:
        """A loose box that is a card laid off the stacked pile, boxed with the
        edge of a pile card it half covers: along each side of the table it
        lies within the pile's extent (``same_spot_mm`` to spare) or reaches
        out past it at one end only, its other end lying within
        ``play.loose_edge_mm`` of the same end of a card the pile holds (that
        card's edge peeking out from under it). Cards land a couple of
        centimetres apart and turned, so a new card may lie well off the few
        cards of a young pile; a card held up off the pile measures larger
        all round, and its box's ends follow no pile card's edge."""
        if self.config.loose_edge_mm <= 0 or (extent := self._extent()) is None:
            return False
        lo, hi = extent
        spare, edge = self.config.same_spot_mm, self.config.loose_edge_mm
        out_any = False
        for k in range(2):
            a = float(xy[k]) - float(wh[k]) / 2
            b = float(xy[k]) + float(wh[k]) / 2
            below, above = a < lo[k] - spare, b > hi[k] + spare
            if below and above:
                return False
            if not (below or above):
                continue
            out_any = True
            # out at the high end: its low end is a pile card's low edge; and
            # the other way round
            end, side = (a, -1.0) if above else (b, 1.0)
            if min(abs(end - (c.xy[k] + side * c.wh[k] / 2)) for c in self.pile) > edge:
                return False
        return out_any

    def _extent(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The stacked pile's extent, the low and high corners of the boxes of
        the cards it holds, each taken as at least a whole card
        (:meth:`_whole_wh`; None: no stacked pile)."""
        if not (self.stacked and self.pile):
            return None
        half = [np.divide(self._whole_wh(c.wh), 2) for c in self.pile]
        lo = np.min([np.subtract(c.xy, d) for c, d in zip(self.pile, half)], axis=0)
        hi = np.max([np.add(c.xy, d) for c, d in zip(self.pile, half)], axis=0)
        return lo, hi

    def _whole_wh(self, wh) -> np.ndarray:  # noqa: ANN001
        """A pile card's box ``wh`` grown about its centre, side by side, to
        at least ``play.whole_min`` of a card's side where it measures less
        (``play.extent_whole``; its short side against the card's short side,
        its long against the long): the finder boxed that card short, or part
        of it was hidden, at one end or along one edge, and the card itself
        covers at least a whole card. A side as long as a card's is not
        grown."""
        wh = np.asarray(wh, dtype=float)
        if not self.config.extent_whole:
            return wh
        floor = self.config.whole_min
        out = wh.copy()
        for k, side in zip(np.argsort(wh, kind="stable"), sorted(self.geometry.card)):
            out[k] = max(out[k], floor * float(side))
        return out

    def _within_pile(self, xy: np.ndarray, wh: tuple[float, float]) -> bool:
        """The box lies within the stacked pile's extent (:meth:`_extent`),
        ``same_spot_mm`` to spare."""
        if (extent := self._extent()) is None:
            return False
        lo, hi = extent
        half = np.array(wh) / 2
        spare = self.config.same_spot_mm
        return bool(
            np.all(xy - half >= lo - spare) and np.all(xy + half <= hi + spare)
        )

    def landed(
        self,
        dets: Detections,
        t: float,
        tracks: dict[int, Track],
        reaches: list[Reach] = (),
        legal: LegalCheck | None = None,
    ) -> list[PileCard]:
        """Cards that have landed in the zone with this frame (now remembered).

        A detection in the zone lands when its track has lain still and
        untouched for ``settle_frames`` frames spanning ``settle_s``
        (:meth:`Track.still_reads`; a read since the arm last reached in
        whose box the newest's covers, the same on three edges and reaching
        out past it on the fourth by at most ``play.settle_grow_mm``, lies still:
        the card's end showing once the hand has cleared it), it is not
        covered by a card in a hand (one covered only by the hand's box of its
        own card is judged at let go, :meth:`_own_box`),
        it measures as a whole card lying flat (:meth:`_size_ok`), its reads
        agree (or it has waited ``unsure_s``), it was not decided already
        (a box decided as a card the zone holds is judged again once the
        referee comes to expect a twin of it, :meth:`_twin_now`),
        and it is not a card the zone holds (:meth:`PileMemory.held_already`). Its label
        is the one with the most evidence over the frames it has lain still
        (:func:`~vision.tracking.label_scores`), weighed with ``legal`` (the
        referee's prior, :func:`choose_label`) when given. A copy of the top
        card is marked ``carried`` when a card of its label was seen on its way
        in from a hand (:meth:`PileMemory.carried_in`, ``far``).
        """
        cfg = self.config
        reaching = any(
            self.geometry.inside(self.zone, np.array([r.tip]))[0] for r in reaches
        )
        if reaching:
            if not self._reaching:
                self.memory.reach_before = self.memory.last_reach
                self.memory.reach_began = t
            self.memory.last_reach = t
            self._reach_seats = {
                r.seat for r in reaches
                if self.geometry.inside(self.zone, np.array([r.tip]))[0]
            }
        self._reaching = reaching
        # the arm that last reached into the zone, seen out of it since
        self._left = [
            r.tip for r in reaches
            if not reaching and r.seat in self._reach_seats
        ]
        if not len(dets):
            return []
        self._gone = {k: v for k, v in self._gone.items() if k in tracks}
        self.memory.remember_carried(dets, t, tracks)
        self.memory.watch_print(t)
        self._follow_hand(t, tracks)
        in_zone = self.geometry.inside(self.zone, dets.data["table_xy"])
        top = self.pile[-1] if self.pile else None
        out: list[tuple[float, PileCard]] = []
        for i in np.nonzero(in_zone)[0]:
            tid = int(dets.tracker_id[i])
            track = tracks.get(tid)
            xy = dets.data["table_xy"][i]
            wh = dets.data["table_wh"][i]
            if track is None:
                continue
            self._note_gone(track, xy, t)
            evidence = max(cfg.evidence_s, cfg.settle_s + cfg.still_margin_s)
            reads = track.still_reads(
                t, cfg.settle_frames, cfg.settle_s, cfg.move_mm, evidence,
                flicker_reads=cfg.flicker_reads, look_mm=cfg.look_mm,
                grow_mm=cfg.settle_grow_mm,
                edge_after=self._edge_after(),
            )
            let_go = False
            covered = self._covered(dets, i)
            # the card under the fingers, boxed again with them: judged at let go
            own = covered and self._own_box(dets, i)
            if own:
                reads = None
            if (
                reads is None
                and cfg.start_s > 0
                and self._starts_round()
                and not track.history[-1].touched
            ):
                reads = track.still_reads(
                    t, cfg.settle_frames, cfg.start_s, cfg.start_mm, evidence,
                    touched_ok=True,
                )
            if (
                reads is None
                and cfg.let_go_mm > 0
                and (track.history[-1].touched or own)
                and self._may_let_go(track.history[-1].label)
            ):
                reads = self._let_go(
                    track, t, wh, evidence, reaches,
                    copy=bool(self.pile)
                    and self.pile[-1].label == track.history[-1].label,
                    own=own,
                )
                let_go = reads is not None
            if (
                reads is None
                or (covered and not (own and let_go))
                or not self._size_ok(dets, i, t, track, judged=let_go and bool(reaches))
            ):
                continue
            scores = label_scores(reads, track.names)
            runner_up, best = np.sort(scores)[-2:]
            close = frozenset(
                track.names[int(k)]
                for k in np.flatnonzero(scores >= best - cfg.decide_margin)
            )
            if best - runner_up < cfg.decide_margin and not self._lain(
                track, t, cfg.unsure_s
            ):
                continue  # the reads disagree: gather more (up to unsure_s)
            label = choose_label(scores, track.names, legal, cfg.legal_margin)
            done = self._done_tracks.get((tid, label))
            expected = self._twin_now(label)
            if (
                done is not None
                and track.disturbed <= done[2]
                and self._same_spot(done, xy, wh, self.memory.last_reach > done[2])
                and (done[3] or not expected)
            ):
                # decided already, and nothing happened to it since (nor has
                # the referee come to expect a twin of it since)
                continue
            self._done_tracks[(tid, label)] = (xy.copy(), wh.copy(), t, expected)
            if self.memory.held_already(dets, tracks, i, label, close) is not None:
                if self.memory.retry:
                    del self._done_tracks[(tid, label)]
                continue
            # taken as a new card: that card, whatever the referee comes to expect
            self._done_tracks[(tid, label)] = (xy.copy(), wh.copy(), t, True)
            out.append(
                (
                    track.born,
                    PileCard(
                        label,
                        (float(xy[0]), float(xy[1])),
                        t,
                        (float(wh[0]), float(wh[1])),
                        tid,
                        close if len(close) > 1 else frozenset(),
                        let_go,
                        # a copy of the top card seen coming in from a hand
                        top is not None and label == top.label
                        and self.memory.carried_in(top, far=True),
                    ),
                )
            )
        out.sort(key=lambda pair: pair[0])
        cards = self._one_box_each([card for _, card in out])
        self.pile += cards
        self.memory.remember_looks(dets, t, tracks)
        self.memory.keep_print(tracks, t)
        return cards

    def _twin_now(self, label: str) -> bool:
        """The referee expects a copy of the top card of ``label`` now, from
        the arm that last reached into the zone (``PileMemory.twin_ok``, or
        ``twin_if_laid``: the pixels then decide). A box of the top card's
        label decided while it did not is judged again once it does: the
        referee's state can change after the box settled (a draw sent, a pass
        heard), and the memory's twin checks would have judged that box
        otherwise."""
        if not self.pile or self.pile[-1].label != label:
            return False
        memory = self.memory
        return bool(memory.twin_ok(label)) or bool(memory.twin_if_laid(label))

    def _one_box_each(self, cards: list[PileCard]) -> list[PileCard]:
        """Cards landing in one frame, less a second box of one card: two
        boxes of one label, each with its centre inside the other's box, are
        one card the detector boxed twice (the card alone, and the card with
        an edge of the one below); the box nearer a card's size is kept. Two
        copies put down at once lie side by side, neither centre on the
        other (one lying on the other hides it)."""
        card = self.geometry.card
        kept: list[PileCard] = []
        for c in cards:
            same = next(
                (
                    k for k in kept
                    if k.label == c.label
                    and abs(c.xy[0] - k.xy[0]) <= min(c.wh[0], k.wh[0]) / 2
                    and abs(c.xy[1] - k.xy[1]) <= min(c.wh[1], k.wh[1]) / 2
                ),
                None,
            )
            if same is None:
                kept.append(c)
            elif abs(card_scale(*c.wh, card) - 1) < abs(card_scale(*same.wh, card) - 1):
                kept[kept.index(same)] = c
        return kept

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
            self.emptied_at = t
            return True
        return False
