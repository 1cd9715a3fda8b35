"""The live table pipeline: frames -> detections -> tracks -> table events.

Every stage maps detections to detections (supervision's style)::

    source -> resize -> detector -> HandTracker (touched) -> CardTracker (tracks)
           -> game interpreter (UNO plays, overflow inserts ...) -> events

:class:`TablePipeline` runs that loop in the caller's thread (the page runs it
in a background thread), retries a failing source with back-off, keeps the
newest frame with overlays for the page, and calls ``on_event`` for every table
event, in order, each with ``"source": "vision"``, ``t`` and an evidence JPEG.
The detector is injected, so tests drive the pipeline with an oracle. Every
stage's thresholds come from one :class:`~vision.config.PipelineConfig`.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import cv2
import numpy as np

from .config import DetectorConfig, PipelineConfig
from .detections import Detections, box_iou
from .detector import grey_thumbnail
from .geometry import CalibrationError, TableGeometry, table_path
from .hands import HandTracker
from .overlay import draw_overlay
from .pile_memory import PileView
from .pipeline_parts import (
    DEMO_DIR,
    DEMO_LOG,
    DEMO_VIDEO,
    DetectorLike,
    bundled_demo,
    load_default_detector,
    make_interpreter,
)
from .scan import HandScan, deck_labels, seat_close_ups
from .sources import Frame, FrameSource, RetryingSource
from .tracking import CardTracker

MAX_FAILURES = 50  # frames in a row that fail before the pipeline gives up
# Motion gate: a frame that hardly differs from the one the detector last read
# gets that frame's cards again instead of a new read (a detector marked
# ``motion_gate``, as the shipped one is: same pixels, same cards). About half
# of a game's frames are such still frames. The frames are compared as grey
# thumbnails (``detector.gate_cell``, ``detector.gate_level``,
# ``detector.gate_refresh_s``).
log = logging.getLogger(__name__)

__all__ = [
    "DEMO_DIR",
    "DEMO_LOG",
    "DEMO_VIDEO",
    "MAX_FAILURES",
    "DetectorLike",
    "TablePipeline",
    "bundled_demo",
    "load_default_detector",
    "make_interpreter",
]


def gate_holds(
    thumb: np.ndarray, last: np.ndarray | None, age_s: float, cfg: DetectorConfig
) -> bool:
    """Whether a frame (``thumb``) may reuse the read of the frame whose
    thumbnail is ``last``, taken ``age_s`` before: the same size, under
    ``cfg.gate_refresh_s`` old, no block more than ``cfg.gate_level`` apart."""
    return (
        last is not None
        and last.shape == thumb.shape
        and 0 <= age_s < cfg.gate_refresh_s
        and int(np.abs(thumb - last).max()) <= cfg.gate_level
    )


class TablePipeline:
    """Camera frames in, table events out.

    Args:
        source: a source spec (camera index, file, folder, URL) or a FrameSource.
        game: ``uno``, ``overflow``, ``junocos`` or ``narabe-runo``.
        players: names in seating order (seat 0 nearest the camera).
        table: a saved table's name or path, a TableGeometry, or ``None``:
            calibrate from the markers in the first frames, else the whole frame.
        detector: anything with ``detect(frame_bgr) -> Detections`` (an object
            with ``detect_frame(frame)`` gets the whole :class:`Frame`);
            ``None`` loads the shipped model.
        evidence_dir: where evidence JPEGs go (none written when ``None``).
        on_event: called with every event dict, in order.
        fps: process at most this many frames a second (skip the rest).
        realtime: pace files to their frame rate (default: yes for the page).
        options: the game's house-rule options (``multi_play`` groups plays).
        max_retries: give a failing source up after this many retries.
        attribute_players: UNO plays and draws name the seat the arm came
            from in ``player`` (else in ``reach_from``, and the referee takes
            the player whose turn it is).
        game_state: returns the live referee's state (``Referee.state``):
            UNO play detection then settles close calls between two labels
            in favour of the legal play (see ``docs/vision.md``).
        config: every stage's thresholds (:class:`~vision.config.PipelineConfig`;
            ``None``: the defaults). Its ``detector`` section applies when the
            pipeline loads the shipped detector itself.
    """

    def __init__(
        self,
        source: str | int | FrameSource,
        *,
        game: str = "uno",
        players: Sequence[str] = ("A", "B", "C", "D"),
        table: str | Path | TableGeometry | None = None,
        detector: DetectorLike | None = None,
        evidence_dir: str | Path | None = None,
        on_event: Callable[[dict[str, Any]], None] | None = None,
        fps: float | None = None,
        realtime: bool = True,
        options: dict[str, Any] | None = None,
        max_retries: int | None = None,
        attribute_players: bool = False,
        game_state: Callable[[], dict[str, Any]] | None = None,
        config: PipelineConfig | None = None,
    ):
        self.config = config or PipelineConfig()
        self.source = (
            source
            if isinstance(source, FrameSource)
            else FrameSource(source, realtime=realtime)
        )
        self.game = game
        self.players = tuple(players)
        self.table = table
        self.detector = detector
        self.evidence_dir = Path(evidence_dir) if evidence_dir else None
        self.on_event = on_event or (lambda event: None)
        self.fps_cap = fps
        self.options = dict(options or {})
        self.max_retries = max_retries
        self.attribute_players = attribute_players
        self.game_state = game_state
        self.events: list[dict[str, Any]] = []
        self.skipped_frames = 0
        self.geometry: TableGeometry | None = None
        #: seats whose arm reached onto the discard pile since the last play
        #: (or start card) emitted, first reach first (classic UNO: each play
        #: and draw carries them)
        self._pile_reaches: dict[str, None] = {}
        #: seats whose arm is on the discard pile in this frame, and those whose
        #: arm was there when the last play was emitted and has not left since
        #: (a card let go is played while the hand lingers on it: that reach
        #: put the card down, it is no reach after the play)
        self._on_pile: set[str] = set()
        #: the table points (mm) of the arms' tips on the discard pile in the
        #: last frame (:meth:`_pile_look`)
        self._pile_tips = np.zeros((0, 2))
        self._tips = np.zeros((0, 2))  # every arm's tip in the last frame
        self._spent_reaches: set[str] = set()
        self._lock = threading.Lock()
        self._latest: np.ndarray | None = None
        self._jpeg: bytes | None = None
        self._status = {
            "state": "starting",
            "message": "not started",
            "source": self.source.describe(),
            "fps": 0.0,
            "frames": 0,
        }
        self._times: list[float] = []
        self._last_t: float | None = None
        self._scan_request: bool | None = None
        self.stages: dict[str, Any] = {}
        # the motion gate's last read: thumbnail, key, time, cards
        self._gate: tuple[np.ndarray, tuple, float, Detections] | None = None
        self.gated_frames = 0  # frames that reused the last read

    # -- public API ----------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        """State for the page: starting, running, retrying, ended or error."""
        with self._lock:
            return dict(self._status)

    def latest_jpeg(self) -> bytes | None:
        """The newest frame with zones, cards and hands drawn, as JPEG bytes."""
        with self._lock:
            if self._jpeg is None and self._latest is not None:
                ok, buf = cv2.imencode(
                    ".jpg", self._latest, [cv2.IMWRITE_JPEG_QUALITY, 80]
                )
                self._jpeg = buf.tobytes() if ok else None
            return self._jpeg

    def set_scan(self, on: bool) -> None:
        """Start or stop the round-end scoring scan (hands laid out -> ``reveal``)."""
        self._scan_request = on

    def run(self, stop: threading.Event) -> None:
        """Process frames until the source ends, gives up, or ``stop`` is set."""
        if self.detector is None:
            try:
                wanted = self.config.detector
                self.detector = (
                    load_default_detector()
                    if wanted == DetectorConfig()
                    else load_default_detector(wanted)
                )
            except RuntimeError as exc:
                self._set_status("error", str(exc), "detector_missing")
                return
        feed = RetryingSource(
            self.source, self._source_status, max_retries=self.max_retries
        )
        failures = 0
        for frame in feed.frames(stop):
            try:
                self.process(frame)
                failures = 0
            except CalibrationError as exc:
                self._set_status("error", str(exc), "calibration")
                return
            except Exception as exc:  # one bad frame (or detector hiccup) is skipped
                failures += 1
                self.skipped_frames += 1
                log.warning("frame %s skipped: %r", frame.index, exc)
                if failures >= MAX_FAILURES:
                    self._set_status(
                        "error", f"{failures} frames in a row failed: {exc!r}",
                        "frames_failed",
                    )
                    return
        for event in self._flush():
            self._emit(event, None)

    # -- one frame -----------------------------------------------------------------
    def _source_status(self, state: str, message: str) -> None:
        # the kind of the source's failure while it retries or gave up
        # (vision.sources.FrameSource.failure, set where it was raised)
        failure = self.source.failure if state in ("retrying", "error") else None
        self._set_status(state, message, failure)

    def _set_status(self, state: str, message: str,
                    failure: str | None = None) -> None:
        """``failure``: the kind of failure ``message`` says, a code set
        where it was raised (the page says it in the viewer's language:
        ``web.errors.FAILURES``), ``None`` for none."""
        with self._lock:
            self._status.update(state=state, message=message)
            self._status.pop("failure", None)
            if failure is not None:
                self._status["failure"] = failure

    def _setup(self, image: np.ndarray) -> None:
        h, w = image.shape[:2]
        geo = self._load_geometry(image)
        self.geometry = geo.with_players(self.players).scaled_to((w, h))
        cfg = self.config
        self.stages = {
            "hands": HandTracker(self.geometry, cfg.hands),
            "tracker": CardTracker(self.geometry, cfg.tracking, self._fps()),
            "game": make_interpreter(
                self.game,
                self.geometry,
                self.options,
                self.attribute_players,
                self.game_state,
                cfg.play,
            ),
            "scan": HandScan(
                self.geometry,
                cfg.scan,
                allowed=deck_labels(self.game, self.options),
                game_state=self.game_state if self.game == "uno" else None,
            ),
        }
        self._check_history()

    def _fps(self) -> float | None:
        """The frames a second the stages are fed: the source's rate, under
        the cap (``None``: neither says)."""
        fps = self.source.fps or 0.0
        if self.fps_cap:
            fps = min(fps, self.fps_cap) if fps else self.fps_cap
        return fps or None

    def _check_history(self) -> None:
        """Warn when a track's history (``tracking.history_s``) is shorter than
        the longest still-window of the play stage (that window is then cut
        short: set ``tracking.history_s`` higher)."""
        play = self.config.play
        longest = max(
            play.evidence_s,
            max(play.unsure_s, play.loose_s) + play.still_margin_s,
        )
        held = self.config.tracking.history_s
        if held < longest - 1e-9:
            log.warning(
                "tracking.history_s = %.2f s is less than the play stage's "
                "longest window (%.2f s): raise it to %.2f",
                held, longest, longest,
            )

    def _load_geometry(self, image: np.ndarray) -> TableGeometry:
        h, w = image.shape[:2]
        if isinstance(self.table, TableGeometry):
            return self.table
        if self.table:
            return TableGeometry.load(table_path(str(self.table)))
        from .markers import calibrate_from_markers

        try:
            return calibrate_from_markers(image, self.players)
        except CalibrationError:
            return TableGeometry.default((w, h), self.players)

    def _detect(self, frame: Frame, image: np.ndarray) -> Detections:
        assert self.detector is not None
        scan = self.stages.get("scan")
        cfg = self.config.scan
        if scan is not None and scan.active and self._lowers_box_conf():
            # Hands laid out on the far side of the table are small and get
            # weak proposals; the scan's own checks (still for a while, a card
            # of the deck, appeared after the round ended) keep out what the
            # lower threshold lets in. While a hand is still to be read the
            # seats are also detected tile by tile: cards laid side by side or
            # next to a corner marker merge or fade at the frame's working size.
            with self._box_conf(cfg.box_conf):
                dets = self._detect_once(frame, image)
                tiles = self._tile_detect() if scan.waiting else None
                if tiles is not None and cfg.grid > 1 and self.geometry is not None:
                    dets = seat_close_ups(
                        tiles, image, dets, self.geometry, cfg.grid, cfg.overlap,
                        config=cfg, seats=self._unread_seats(),
                    )
                return dets
        # a video frame outside the scan: the live finder's
        # (detector.live_finder, Detector.live_frames), the pile's second look too
        live = getattr(self.detector, "live_frames", None)
        with live() if live is not None else contextlib.nullcontext():
            return self._pile_look(frame, image, self._detect_once(frame, image))

    def _pile_look(self, frame: Frame, image: np.ndarray, dets: Detections) -> Detections:
        """``dets`` and the cards a second read at ``play.reach_box_conf`` adds
        in the discard zone, when an arm's tip lay on the discard pile in the
        last frame and ``dets`` boxes no card within ``play.let_go_tip_mm`` of
        it, or (``play.top_look``) the pile holds cards, an arm reached onto
        it since its top card was last boxed (or, ``play.top_unreached``,
        whether or not one did: :meth:`_pile_top`), no arm's tip lay within
        ``play.let_go_tip_mm`` of that card in the last frame and ``dets``
        boxes none within ``play.same_card_mm`` of it, or (``play.top_look``)
        the pile is empty, an arm reached onto its zone since it was emptied
        (:meth:`_empty_pile_reached`) and ``dets`` boxes no card in the zone
        (UNO; a detector with a
        ``box_conf`` above that threshold). A hand lingering on the card it
        let go of covers part of it, and the finder's score for the rest can
        fall under its threshold until the hand leaves; read so, the card lies
        still under the hand from the frame it was let go of (the let-go rule,
        :mod:`vision.pile`). A card laid neatly on the pile, the edge of the
        one below showing round it, can score under the threshold after the
        hand has left too: a pile does not vanish in a frame, so what lies on
        it is looked for, and so is the start card the dealer turned up on
        the empty pile. Cards the second read adds elsewhere, or over a box
        of ``dets``, are left out."""
        play = self.config.play
        tips = self._pile_tips
        top = self._pile_top() if play.top_look else None
        # the empty pile an arm reached onto (the start card turned up)
        empty = play.top_look and self._empty_pile_reached()
        if top is not None and len(self._tips) and np.hypot(
            *(self._tips - top).T
        ).min() <= play.let_go_tip_mm:
            top = None  # a hand at the pile: only the look under an arm
        if (
            not (len(tips) or top is not None or empty)
            or self.geometry is None
            or not self._lowers_box_conf()
            or play.reach_box_conf >= self.detector.box_conf
        ):
            return dets
        xy = self.geometry.to_table(dets.centers) if len(dets) else np.zeros((0, 2))
        bare = empty and not (
            len(xy) and self.geometry.inside("discard", xy).any()
        )
        if not (
            self._unseen(xy, tips, play.let_go_tip_mm, inside=True)
            or (top is not None and self._unseen(xy, top[None], play.same_card_mm))
            or bare
        ):
            return dets
        with self._box_conf(play.reach_box_conf):
            more = self._detect_once(frame, image)
        if not len(more):
            return dets
        keep = self.geometry.inside("discard", self.geometry.to_table(more.centers))
        if len(dets):
            keep &= ~(box_iou(more.xyxy, dets.xyxy) > 0).any(axis=1)
        if not keep.any():
            return dets
        if not len(dets):
            return more[np.flatnonzero(keep)]
        return Detections.concat([dets, more[np.flatnonzero(keep)]])

    def _empty_pile_reached(self) -> bool:
        """The UNO discard pile is empty and an arm has reached onto its zone
        since it was emptied (or since the game began): the dealer may have
        turned the start card up there. Alone on the cloth, it can score under
        the finder's threshold once the hand has left, like a card laid
        neatly on the pile (:meth:`_pile_look`)."""
        watcher = getattr(self.stages.get("game"), "watcher", None)
        if self.game != "uno" or watcher is None or watcher.pile:
            return False
        return watcher.memory.last_reach > getattr(watcher, "emptied_at", -1.0)

    def _pile_top(self) -> np.ndarray | None:
        """Where the UNO discard pile's top card lies (table mm) while an arm
        has reached onto the pile since it was last boxed (a card may have
        been put on it), or, with ``play.top_unreached``, whenever the pile
        holds cards (a still card's finder score can fall under the threshold
        once the hand that played it has gone, and a pile is not gathered
        without a hand); ``None``: no pile (another game, an empty pile), or
        no reach since and ``play.top_unreached`` off."""
        watcher = getattr(self.stages.get("game"), "watcher", None)
        if self.game != "uno" or watcher is None or not watcher.pile:
            return None
        top = watcher.pile[-1]
        if watcher.memory.last_reach <= top.t and not self.config.play.top_unreached:
            return None
        return np.asarray(top.xy, float)

    def _unseen(self, xy: np.ndarray, spots: np.ndarray, mm: float,
                inside: bool = False) -> bool:
        """No box centre of ``xy`` (``inside``: of those in the discard zone)
        lies within ``mm`` of any of the ``spots`` (table mm; none: False):
        a card there that the frame's read did not box."""
        if not len(spots):
            return False
        if inside and len(xy):
            xy = xy[self.geometry.inside("discard", xy)]
        if not len(xy):
            return True
        near = np.hypot(
            xy[:, None, 0] - spots[None, :, 0], xy[:, None, 1] - spots[None, :, 1]
        ) <= mm
        return not bool(near.any())

    def _lowers_box_conf(self) -> bool:
        """Whether the detector has a finder threshold (``box_conf``) to lower."""
        return isinstance(getattr(self.detector, "box_conf", None), float)

    @contextlib.contextmanager
    def _box_conf(self, least: float) -> Iterator[None]:
        """The detector's finder threshold lowered to ``least`` for the block
        (the scan's reads of hands far from the camera), given back after."""
        normal = self.detector.box_conf
        self.detector.box_conf = min(normal, least)
        try:
            yield
        finally:
            self.detector.box_conf = normal

    def _unread_seats(self) -> list[str] | None:
        """The seats whose hands the scan still waits for: players the referee
        counts with cards (any, where it cannot say) and has no hand shown of;
        ``None`` (every seat) without a referee's state."""
        if self.game_state is None or self.geometry is None:
            return None
        try:
            state = self.game_state() or {}
            counts = state.get("hand_counts") or {}
            shown = state.get("revealed") or {}
            return [
                seat for seat in self.geometry.players
                if seat not in shown and (not counts or int(counts.get(seat, 0)) > 0)
            ]
        except Exception:  # a state it cannot read: every seat
            return None

    def _tile_detect(self):  # noqa: ANN202 - a detect(image) callable or None
        """The detector's ``detect(image)`` for close-ups: ``None`` for a detector
        that reads frames by their index (the demo's oracle), not their pixels."""
        detector = self.detector
        if getattr(detector, "close_ups", not hasattr(detector, "detect_frame")):
            return detector.detect
        return None

    def _detect_once(self, frame: Frame, image: np.ndarray) -> Detections:
        assert self.detector is not None
        if hasattr(self.detector, "detect_frame"):
            dets = self.detector.detect_frame(Frame(frame.index, frame.t, image))
        else:
            dets = self.detector.detect(image)
        return dets

    def _gated_detect(self, frame: Frame, image: np.ndarray) -> Detections:
        """:meth:`_detect`, or the last read's cards again when this frame is
        still the scene it read (``detector.gate_level``) and that read is under
        ``detector.gate_refresh_s`` old, with the same scan state and box threshold."""
        if not getattr(self.detector, "motion_gate", False):
            return self._detect(frame, image)
        gate = self.config.detector
        thumb = grey_thumbnail(image, gate.gate_cell)
        share = getattr(self.detector, "share_thumbnail", None)
        if share is not None:  # the detector's own still check needs it too
            share(image, gate.gate_cell, thumb)
        scan = self.stages.get("scan")
        key = (
            bool(scan is not None and scan.active),
            bool(scan is not None and scan.waiting),
            getattr(self.detector, "box_conf", None),
        )
        last = self._gate
        if (
            last is not None
            and last[1] == key
            and gate_holds(thumb, last[0], frame.t - last[2], gate)
        ):
            self.gated_frames += 1
            dets = last[3]
            return dets[np.arange(len(dets))]  # a copy: stages may write to it
        dets = self._detect(frame, image)
        self._gate = (thumb, key, frame.t, dets[np.arange(len(dets))])
        return dets

    def _probe_look(self, frame: Frame, image: np.ndarray, dets: Detections) -> Detections:
        """The sleeping scan's sharper look (:meth:`HandScan.probe`): this
        frame detected again at ``scan.box_conf`` (hands laid out far from the
        camera get weak box scores), past the motion gate; a detector without
        a ``box_conf`` gives the frame's own cards."""
        if not self._lowers_box_conf():
            return dets
        with self._box_conf(self.config.scan.box_conf):
            return self._detect_once(frame, image)

    def process(self, frame: Frame) -> list[dict[str, Any]]:
        """Run every stage on one frame; returns (and emits) the events it completes."""
        if (
            self.fps_cap
            and self._last_t is not None
            and (frame.t - self._last_t < 1.0 / self.fps_cap - 1e-6)
        ):
            return []
        self._last_t = frame.t
        image = frame.image
        width = self.config.detector.work_width
        if image.shape[1] > width:
            scale = width / image.shape[1]
            image = cv2.resize(
                image,
                (width, int(round(image.shape[0] * scale))),
                interpolation=cv2.INTER_AREA,
            )
        if self.geometry is None:
            self._setup(image)
        scan: HandScan = self.stages["scan"]
        if self._scan_request is not None:
            scan.active, self._scan_request = self._scan_request, None
        dets = self._gated_detect(frame, image)
        if scan.probe_due(frame.t):
            scan.probe(self._probe_look(frame, image, dets), frame.t)
        hands: HandTracker = self.stages["hands"]
        dets = hands.update(image, dets, frame.t)
        self._note_pile_reaches(hands.reaches)
        dets = self.stages["tracker"].update(dets, frame.t)
        tracks = self.stages["tracker"].tracks
        see = getattr(self.stages["game"], "see", None)
        if see is not None:  # the frame's pixels, for the pile's twin check
            see(PileView(image, getattr(hands, "mask", None),
                         float(getattr(hands, "mm_px", 4.0))))
        events = self.stages["game"].update(dets, frame.t, tracks, hands.reaches)
        if getattr(self.stages["game"], "cleared", False):
            hands.take_in("discard")
        if any(e["type"] == "start" for e in events):
            scan.active = False
        events += scan.update(dets, frame.t, tracks, hands.reaches)
        overlay = draw_overlay(
            image, dets, events, self.geometry, self.game, self.stages["hands"].reaches
        )
        for event in events:
            self._emit(event, overlay)
        self._tick(frame, overlay)
        return events

    def _flush(self) -> list[dict[str, Any]]:
        game = self.stages.get("game")
        return game.flush() if game is not None else []

    def _note_pile_reaches(self, reaches: list) -> None:
        """Remember the seats whose arm's tip lies on the discard pile now."""
        if self.game != "uno" or self.geometry is None:
            return
        self._tips = np.array([r.tip for r in reaches], float).reshape(-1, 2)
        self._pile_tips = np.array(
            [r.tip for r in reaches
             if self.geometry.inside("discard", np.array([r.tip]))[0]],
            float,
        ).reshape(-1, 2)
        self._on_pile = {
            r.seat for r in reaches
            if r.seat is not None
            and self.geometry.inside("discard", np.array([r.tip]))[0]
        }
        # an arm that put the last play down counts again once it has left
        self._spent_reaches &= self._on_pile
        for r in reaches:
            if r.seat in self._on_pile and r.seat not in self._spent_reaches:
                self._pile_reaches.setdefault(r.seat, None)

    def _emit(self, event: dict[str, Any], overlay: np.ndarray | None) -> None:
        event = {**event, "source": "vision"}
        if self.game == "uno" and event.get("type") in ("play", "draw", "reveal"):
            # who reached onto the pile since the last play: a seat that did
            # and whose card the camera did not see land may have put a twin
            # on its copy, or gone out with one (vision.handsfree)
            event["pile_reaches"] = list(self._pile_reaches)
        if event.get("type") in ("play", "start"):  # the dealer turned the start card
            self._pile_reaches = {}
            self._spent_reaches = set(self._on_pile)
        if self.evidence_dir is not None and overlay is not None:
            self.evidence_dir.mkdir(parents=True, exist_ok=True)
            path = self.evidence_dir / f"{len(self.events) + 1:04d}-{event['type']}.jpg"
            cv2.imwrite(str(path), overlay, [cv2.IMWRITE_JPEG_QUALITY, 85])
            event["evidence"] = str(path)
        self.events.append(event)
        self.on_event(event)

    def _tick(self, frame: Frame, overlay: np.ndarray) -> None:
        now = time.monotonic()
        self._times = [x for x in self._times if now - x < 2.0] + [now]
        span = self._times[-1] - self._times[0]
        with self._lock:
            self._latest, self._jpeg = overlay, None
            self._status["frames"] += 1
            self._status["fps"] = (
                round((len(self._times) - 1) / span, 1) if span > 0 else 0.0
            )
