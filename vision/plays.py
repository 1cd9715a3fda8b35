"""Play detection for classic UNO: tracked cards and hands -> table events.

A card counts as **played** when a card the pile did not hold before lies on
the discard pile, still (within ``move_mm``) and untouched by any hand, for
``settle_frames`` frames spanning ``settle_s`` seconds. Its label is the one
with the most evidence over the frames it has lain still (the classifier's
log-probabilities, summed: :func:`~vision.tracking.label_scores`); given the
referee's state, a close call goes to the legal play (:func:`choose_label`).
That rules out the three classic false alarms:

- a hand passing over the pile hides cards but adds none;
- a card held in the air is touched by the hand that holds it, moves, and
  measures larger than a card lying flat (:func:`card_scale`);
- a misread of one frame is outweighed by the other reads.

The pile remembers every card it has taken (label, position, size, track), so
a card that shows again after a hand has moved away is not played twice. The first
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
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from referee.cards import Card, CardError
from referee.uno.plays import matches, off_deck

from .detections import Detections
from .geometry import TableGeometry
from .tracking import Reach, Track, label_scores

#: Whether a label is a plausible play now (the referee's prior).
LegalCheck = Callable[[str], bool]


@dataclass(frozen=True)
class PlayConfig:
    """Thresholds of the play detector (times in seconds, lengths in mm)."""

    settle_frames: int = 3
    settle_s: float = 0.12
    move_mm: float = 8.0
    same_card_mm: float = 22.0
    same_spot_mm: float = 10.0
    same_size_mm: float = 15.0
    carry_mm: float = 200.0
    carry_scale: float = 0.85
    carry_conf: float = 0.6
    shrunk: float = 0.85
    carry_memory_s: float = 3.0
    min_scale: float = 0.75
    max_scale: float = 1.26
    loose_scale: float = 1.45
    loose_s: float = 0.6
    evidence_s: float = 0.5
    decide_margin: float = 1.0
    unsure_s: float = 0.8
    legal_margin: float = 1.6
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


def choose_label(
    scores: np.ndarray,
    names: Sequence[str],
    legal: LegalCheck | None = None,
    margin: float = 1.6,
) -> str:
    """The label with the most evidence, weighed with the referee's prior.

    ``scores`` are mean log-probabilities per label (:func:`label_scores`).
    When the best label is not a legal play now and a legal one scores within
    ``margin`` of it (1.6: at least a fifth of its probability, in the mean
    over the frames), the legal one is taken: most plays at a real table are
    legal, so a close call goes the referee's way. A clear read of an illegal
    card (its runner-ups far behind) stays what the camera saw, and the
    referee rules it illegal.
    """
    order = np.argsort(-scores)
    best = names[int(order[0])]
    if legal is None or legal(best):
        return best
    for k in order[1:]:
        if scores[order[0]] - scores[k] > margin:
            break
        if legal(names[int(k)]):
            return names[int(k)]
    return best


def uno_legal(state: Mapping[str, Any] | None) -> LegalCheck | None:
    """The labels the referee's UNO state allows as a play, or ``None`` (no prior).

    A label is legal when its card is in the game's deck and matches the top
    card or the colour in force. No prior while no turn is being played (set-up,
    scoring), while a player owes drawn cards (whether an answer is allowed
    depends on house rules), or while a wild's colour is not named yet.
    """
    if not state or state.get("phase") not in ("turn", "drawn"):
        return None
    if state.get("pending_draw") or not state.get("color"):
        return None
    try:
        top = Card.from_label(state["top"]) if state.get("top") else None
    except CardError:
        return None
    colour = state.get("color")
    deck = int((state.get("options") or {}).get("deck", 108))

    def legal(label: str) -> bool:
        try:
            card = Card.from_label(label)
        except CardError:
            return False
        return off_deck([card], deck) is None and matches(card, top, colour)

    return legal


@dataclass
class PileCard:
    label: str
    xy: tuple[float, float]
    t: float
    wh: tuple[float, float] = (0.0, 0.0)
    track: int = -1  # the track it was read from
    # The labels its reads could not tell apart when it was taken (within
    # ``decide_margin`` of the best, the taken one included).
    torn: frozenset[str] = frozenset()

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
        game_state: returns the referee's state now (``Referee.state()``);
            a close call between labels then goes to the legal play
            (:func:`choose_label`). ``None``: the camera's evidence alone.
    """

    def __init__(
        self,
        geometry: TableGeometry,
        config: PlayConfig | None = None,
        *,
        attribute_players: bool = False,
        game_state: Callable[[], Mapping[str, Any]] | None = None,
    ):
        self.geometry = geometry
        self.config = config or PlayConfig()
        self.attribute_players = attribute_players
        self.game_state = game_state
        self.watcher = PileWatcher(geometry, "discard", self.config)
        self._pending: list[tuple[PileCard, str | None]] = []
        self._pending_draw: dict[str, Any] | None = None
        self._draw_reach: _DrawReach | None = None
        self._discard_reach: tuple[float, str | None] | None = None
        self.cleared = False

    def _legal_now(self) -> LegalCheck:
        """The referee's prior for this frame, asked for only when a card needs it."""
        asked: list[LegalCheck | None] = []

        def check(label: str) -> bool:
            if not asked:
                try:
                    asked.append(uno_legal(self.game_state()))
                except Exception:  # a referee that cannot say: the camera alone
                    asked.append(None)
            return asked[0] is None or asked[0](label)

        return check

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
        legal = None
        if not was_empty and self.game_state is not None and not self._pending:
            legal = self._legal_now()
        landed = self.watcher.landed(dets, t, tracks, reaches, legal=legal)
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
        #: the discard pile was found gathered in this frame (its zone is bare)
        self.cleared = self.watcher.check_clear(dets, t, reaches)
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

    def _owed_now(self, seat: str | None) -> int:
        """Cards the referee says ``seat`` must take now: a penalty it owes,
        plus the Draw Two / Wild Draw Four waiting on the player to move (0 when
        nothing is owed or the referee cannot say)."""
        if self.game_state is None:
            return 0
        try:
            state = self.game_state()
            owed = {str(k): int(v) for k, v in (state.get("owed") or {}).items()}
            turn = state.get("turn")
            waiting = int(state.get("pending_draw") or 0)
        except Exception:  # a referee that cannot say: the camera alone
            return 0
        if seat is None:  # the spec's rule: the player to move, or the only debtor
            seat = turn if turn is not None else (
                next(iter(owed)) if len(owed) == 1 else None
            )
        if seat is None:
            return 0
        return owed.get(seat, 0) + (waiting if seat == turn else 0)

    def _flush_draw(self) -> list[dict[str, Any]]:
        pending, self._pending_draw = self._pending_draw, None
        if not pending:
            return []
        event: dict[str, Any] = {
            "type": "draw",
            "count": pending["count"],
            "t": round(pending["first"], 3),
        }
        # Takes that follow each other closely can look like one reach to the
        # hand tracker (the hand never leaves the pile between them). When the
        # referee says this player owes more cards than the takes counted (a
        # Draw Two, a Wild Draw Four, a penalty), they took what they owe: a
        # player cannot take fewer. The camera's count stays in ``takes``.
        owed = self._owed_now(pending["seat"])
        if owed > pending["count"]:
            event.update(count=owed, takes=pending["count"])
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
        self._done_tracks: dict[
            tuple[int, str], tuple[np.ndarray, np.ndarray, float]
        ] = {}
        self._last_busy = 0.0
        self._last_reach = -1.0
        # cards seen in a hand or moving: (t, label, x_mm, y_mm, track), the
        # last few seconds
        self._carried: list[tuple[float, str, float, float, int]] = []

    def _same_spot(
        self,
        seen: tuple[np.ndarray, np.ndarray, float],
        xy: np.ndarray,
        wh: np.ndarray,
    ) -> bool:
        lim = self.config.same_spot_mm
        return bool(
            np.hypot(*(seen[0] - xy)) <= lim and np.max(np.abs(seen[1] - wh)) <= lim
        )

    def _known(self, label: str, xy: np.ndarray, wh: np.ndarray) -> bool:
        """A card the zone already holds: same label at about the same place.

        Two copies of one card can land almost on the same spot; the second
        counts as new when a hand has reached into the zone since the first
        landed and it lies (``same_spot_mm``) or measures (its rotation
        changes its box; ``same_size_mm``) visibly differently, or when a card
        of that label was seen on its way in since (read whole, in a hand or
        moving, farther than ``same_card_mm`` from the first copy but within
        ``carry_mm``): a detector's box jitters by about as much as two
        copies' places may differ, so the carrying is the surer sign. A box
        that measures less than ``shrunk`` of the first copy's card size
        (:func:`card_scale`, whatever the turn; that size taken as 0.95-1.05,
        what a whole card's box measures) is that card partly covered
        (an arm over one end of the pile), not a whole second copy, if it lies
        within ``same_card_mm`` of it or its centre lies inside that card's box
        (``same_spot_mm`` to spare: what is left of a card half hidden is off
        its centre, and its box may take in an edge of the cards below). The
        carried card must be another track than the first copy's (a hand
        hovering a card over the pile drags the pile card's own box along,
        and its uncertain reads may name the card beneath).
        """
        cfg = self.config
        card = self.geometry.card
        for c in self.pile:
            if c.label != label:
                continue
            moved = float(np.hypot(*(np.array(c.xy) - xy)))
            # a whole card measures 1 +- 5 % (the box a little loose or tight);
            # the first copy's box may have taken in more (a card below)
            whole = min(max(card_scale(c.wh[0], c.wh[1], card), 0.95), 1.05)
            smaller = card_scale(float(wh[0]), float(wh[1]), card) < cfg.shrunk * whole
            inside = bool(np.all(
                np.abs(xy - np.array(c.xy)) <= np.array(c.wh) / 2 + cfg.same_spot_mm
            ))
            if smaller and (moved <= cfg.same_card_mm or inside):
                return True  # that card with part of it covered: no whole card
            if moved > cfg.same_card_mm:
                continue
            carried = any(
                tc > c.t
                and lc == label
                and tid != c.track
                and cfg.same_card_mm
                < np.hypot(xc - c.xy[0], yc - c.xy[1])
                <= cfg.carry_mm
                for tc, lc, xc, yc, tid in self._carried
            )
            differs = (
                carried
                or moved > cfg.same_spot_mm
                or float(np.max(np.abs(np.array(c.wh) - wh))) > cfg.same_size_mm
            )
            if differs and self._last_reach > c.t:
                continue
            return True
        return False

    def _remember_carried(
        self, dets: Detections, t: float, tracks: dict[int, Track]
    ) -> None:
        """Note the whole cards seen in a hand or on the move this frame,
        read with at least ``carry_conf`` (for :meth:`_known`): a card lying
        on the table does neither."""
        cfg = self.config
        keep = t - cfg.carry_memory_s
        self._carried = [c for c in self._carried if c[0] >= keep]
        touched = dets.data.get("touched", np.zeros(len(dets), bool))
        for i in range(len(dets)):
            track = tracks.get(int(dets.tracker_id[i]))
            moving = (
                track is not None
                and len(track.history) >= 2
                and float(
                    np.hypot(
                        track.history[-1][2] - track.history[-2][2],
                        track.history[-1][3] - track.history[-2][3],
                    )
                )
                > cfg.move_mm
            )
            if not (touched[i] or moving) or dets.confidence[i] < cfg.carry_conf:
                continue
            w, h = dets.data["table_wh"][i]
            scale = card_scale(float(w), float(h), self.geometry.card)
            if scale < self.config.carry_scale:
                continue  # part of a card (one a hand covers), not one held up
            x, y = dets.data["table_xy"][i]
            self._carried.append(
                (t, dets.labels[i], float(x), float(y), int(dets.tracker_id[i]))
            )

    def _same_card(self, tid: int, label: str, track: Track) -> bool:
        """The zone took this card from this very track, and the track has been
        seen in every frame since, untouched, unmoved and uncovered
        (``Track.disturbed``): the same card, however its box jitters (a hand
        passing near shifts a detector's box by up to 8 mm)."""
        return any(
            c.track == tid and c.label == label and track.disturbed <= c.t
            for c in self.pile
        )

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
            if c.track != tid or self._last_reach > c.t:
                continue
            if not self._where_it_lay(*(float(v) for v in (*xy, *wh)), c):
                continue
            if track.history and track.history[0][0] <= c.t:
                since = [r for r in track.history if r[0] >= c.t]
                if all(not r[6] and self._where_it_lay(*r[2:6], c) for r in since):
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

    def _lain(self, track: Track, t: float, seconds: float) -> bool:
        """The card has lain still (``move_mm``) and untouched for ``seconds``
        (the window reaches a little further back, so that a frame older than
        ``seconds`` is in it whatever the frame rate)."""
        cfg = self.config
        reads = track.still_reads(
            t, cfg.settle_frames, seconds, cfg.move_mm, seconds + 0.25
        )
        return reads is not None

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

    @staticmethod
    def _covered(dets: Detections, i: int) -> bool:
        """A card in a hand covers part of it: not all of it shows (yet)."""
        covered = dets.data.get("covered")
        return bool(covered[i]) if covered is not None else False

    def _size_ok(self, dets: Detections, i: int, t: float, track: Track) -> bool:
        """A whole card lying on the table: not held up, not partly covered.

        A card that has just landed is the top of the pile, so all of it shows;
        a smaller box is part of a card under others (or under a hand). A
        larger box is a card held above the table, or a loose box: on a messy
        pile the detector's box of the top card may take in the edges of the
        cards below that stick out (:meth:`_loose_on_pile`).
        """
        cfg = self.config
        w, h = (float(v) for v in dets.data["table_wh"][i])
        scale = card_scale(w, h, self.geometry.card)
        if cfg.min_scale <= scale <= cfg.max_scale:
            return True
        return scale <= cfg.loose_scale and self._loose_on_pile(
            dets.data["table_xy"][i], (w, h), t, track
        )

    def _loose_on_pile(
        self, xy: np.ndarray, wh: tuple[float, float], t: float, track: Track
    ) -> bool:
        """A box somewhat over ``max_scale`` that is a card on the pile, boxed
        with the edges of the cards below it: the box lies within the pile's
        extent (the boxes of the cards it holds, ``same_spot_mm`` to spare),
        and the card has lain still and untouched for ``loose_s`` with no hand
        reaching into the zone meanwhile. A card held up over the pile measures
        as much, but a hand holds it (and reaches there), and it does not stay
        within ``move_mm`` that long; one held off the pile's extent sticks out
        of it."""
        cfg = self.config
        if not (self.stacked and self.pile) or self._last_reach > t - cfg.loose_s:
            return False
        if not self._lain(track, t, cfg.loose_s):
            return False
        lo = np.min([np.subtract(c.xy, np.divide(c.wh, 2)) for c in self.pile], axis=0)
        hi = np.max([np.add(c.xy, np.divide(c.wh, 2)) for c in self.pile], axis=0)
        half = np.array(wh) / 2
        spare = cfg.same_spot_mm
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

        A card's label is the one with the most evidence over the frames it
        has lain still (:func:`~vision.tracking.label_scores`), weighed with
        ``legal`` (the referee's prior, :func:`choose_label`) when given.
        """
        cfg = self.config
        if any(self.geometry.inside(self.zone, np.array([r.tip]))[0] for r in reaches):
            self._last_reach = t
        if not len(dets):
            return []
        self._remember_carried(dets, t, tracks)
        in_zone = self.geometry.inside(self.zone, dets.data["table_xy"])
        out: list[tuple[float, PileCard]] = []
        for i in np.nonzero(in_zone)[0]:
            tid = int(dets.tracker_id[i])
            track = tracks.get(tid)
            xy = dets.data["table_xy"][i]
            wh = dets.data["table_wh"][i]
            if track is None:
                continue
            reads = track.still_reads(
                t, cfg.settle_frames, cfg.settle_s, cfg.move_mm, cfg.evidence_s
            )
            if (
                reads is None
                or self._covered(dets, i)
                or not self._size_ok(dets, i, t, track)
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
            if (
                done is not None
                and track.disturbed <= done[2]
                and self._same_spot(done, xy, wh)
            ):
                continue  # decided already, and nothing happened to it since
            self._done_tracks[(tid, label)] = (xy.copy(), wh.copy(), t)
            if (
                self._same_card(tid, label, track)
                or self._reread(tid, track, xy, wh)
                or self._torn_again(label, close, xy, wh)
                or self._known(label, xy, wh)
            ):
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
                        tid,
                        close if len(close) > 1 else frozenset(),
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
