"""The enrollment wizard's engine: the camera read in a thread, cards taken per label.

The page (:mod:`web.enroll`) drives one :class:`Wizard` at a time. It reads the
camera it was started on in a daemon thread and takes each card in one of two
ways:

- **one by one** (``one``): the card asked for is taken by
  :func:`vision.enroll_camera.guided_shots`, the CLI guide itself (the card's box
  steady for ``GuideConfig.steady`` frames, then ``shots`` frames ``gap`` apart),
  called for one label at a time so that the person can skip a card, redo one or
  pick another; between two cards the table must be clear for ``away`` frames,
  as in the CLI, and so must it when the person changes the card asked for
  while the finder boxes one (a card shown for the one asked before).
- **one by one in any order** (``any``): the same guide takes whatever card is
  shown, and the shipped classifier names it; a read under :data:`NAMED`, a
  card not asked for or one already taken is not taken (said on the page). The
  quickest with a shuffled deck; a card picked by name (take again) is asked
  for by name.
- **as on the printed sheet** (``sheet``): a page of the sheet
  (:data:`SHEET_COLUMNS` x :data:`SHEET_ROWS` cards) is laid out under the camera;
  once the finder boxes exactly that many cards in straight rows, steady by the
  same rule, :func:`sheet_shots` takes the frames and names each box by its
  place on the sheet (rows top to bottom, cards left to right).

Each card taken is read by the shipped classifier (``reader``): a card it reads
as another label, or under :data:`LOW`, is *unsure* (shown on the page, worth
a look: the wrong card shown, or a print the reader does not know yet; it does
not stop enrollment). ``Enroll`` stops the camera and fine-tunes in another
thread (:class:`EnrollJob`, :func:`vision.enroll.fine_tune` by default), then
saves the deck with :func:`vision.decks.save_deck`, as ``tableref enroll`` does.

The finder, the reader, the camera and the trainer are injected (the page's
``ENROLL_*`` settings), so tests run the wizard without models or a camera.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import numpy as np

log = logging.getLogger(__name__)

#: Cards per row and rows per page of the printed sheet.
SHEET_COLUMNS = 4
SHEET_ROWS = 3
#: A card the shipped classifier reads right but under this probability is unsure.
LOW = 0.5
#: A row of the sheet: the centres of its boxes lie within this share of the
#: boxes' median height.
ROW_SPREAD = 0.5
#: A shot keeps the frame around its card only, this share of the card's longer
#: side on every side (room for the fine-tuning's jitter and turns): 54 cards of
#: a 1080p camera, three frames each, would otherwise hold a gigabyte.
MARGIN = 0.3
MODES = ("one", "any", "sheet")
#: In ``any`` order, a card the shipped classifier names at least this surely is
#: taken as that card; a less sure read is not taken (pick that card by name).
NAMED = 0.9

Reader = Callable[[np.ndarray, np.ndarray], list[tuple[str, float]]]
Trainer = Callable[[list, Callable[[str], None]], Any]


def sheet_pages(labels: Sequence[str]) -> list[list[str]]:
    """``labels`` cut into the printed sheet's pages (row after row)."""
    per = SHEET_COLUMNS * SHEET_ROWS
    return [list(labels[i : i + per]) for i in range(0, len(labels), per)]


def assign_cells(xyxy: np.ndarray, n: int, cols: int = SHEET_COLUMNS):  # noqa: ANN201
    """The boxes in the sheet's order (row by row from the top, left to right in
    a row), or ``None`` when they are not ``n`` cards in rows of ``cols``."""
    xyxy = np.asarray(xyxy, np.float32).reshape(-1, 4)
    if n < 1 or len(xyxy) != n:
        return None
    centres = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    height = float(np.median(xyxy[:, 3] - xyxy[:, 1]))
    order = np.argsort(centres[:, 1], kind="stable")
    rows = [cols] * (n // cols) + ([n % cols] if n % cols else [])
    out: list[int] = []
    start = 0
    for size in rows:
        idx = order[start : start + size]
        start += size
        if np.ptp(centres[idx, 1]) > ROW_SPREAD * height:
            return None
        out.extend(int(i) for i in idx[np.argsort(centres[idx, 0], kind="stable")])
    return xyxy[out]


def sheet_shots(
    frames: Iterator[np.ndarray], labels: Sequence[str], finder: Any, config: Any,
    report: Callable[[str, dict], None] = lambda key, args: None,
) -> dict[str, list] | None:
    """The frames taken of a sheet page laid out as printed: label -> shots.

    The steadiness rule is :func:`vision.enroll_camera.guided_shots`'s (every
    box within ``steady_iou`` of the last frame's for ``steady`` frames, then
    ``shots`` frames ``gap`` apart). ``None`` when the frames end first.
    """
    from vision.detections import box_iou
    from vision.enroll import Shot
    from vision.multiscale import detect_multiscale

    still, since, taken = 0, 0, 0
    previous = None
    out: dict[str, list] = {label: [] for label in labels}
    for index, frame in enumerate(frames):
        dets = detect_multiscale(finder, frame, config.zooms)
        cells = assign_cells(dets.xyxy, len(labels))
        if cells is None:
            still, previous, taken = 0, None, 0
            out = {label: [] for label in labels}
            if not len(dets):
                report("lay", {"n": len(labels)})
            else:
                key = "sheet_rows" if len(dets) == len(labels) else "sheet_found"
                report(key, {"n": len(dets), "of": len(labels)})
            continue
        if previous is not None and bool(
            (np.diag(box_iou(cells, previous)) >= config.steady_iou).all()
        ):
            still += 1
        else:
            still = 1
        previous = cells
        report("hold", {})
        if still < config.steady:
            continue
        if taken == 0 or since >= config.gap:
            kept = frame.copy()
            for label, box in zip(labels, cells):
                out[label].append(Shot(label, kept, box.copy(), f"frame {index}"))
            taken, since = taken + 1, 0
        else:
            since += 1
        if taken >= config.shots:
            return out
    return None


def trimmed(shot: Any) -> Any:
    """``shot`` with its frame cut to the card and a :data:`MARGIN` around it
    (the box moved to match)."""
    if shot.box is None:
        return shot
    h, w = shot.frame.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in shot.box)
    pad = MARGIN * max(x2 - x1, y2 - y1)
    left, top = max(0, int(x1 - pad)), max(0, int(y1 - pad))
    right, bottom = min(w, int(np.ceil(x2 + pad))), min(h, int(np.ceil(y2 + pad)))
    shot.frame = np.ascontiguousarray(shot.frame[top:bottom, left:right])
    shot.box = np.asarray(shot.box, np.float32) - np.float32([left, top, left, top])
    return shot


@dataclass
class Card:
    """What the wizard holds of one label."""

    label: str
    shots: list = field(default_factory=list)
    read: str | None = None  # the shipped classifier's read of the first shot
    prob: float | None = None
    skipped: bool = False

    @property
    def status(self) -> str:
        if self.shots:
            return "unsure" if self.unsure else "captured"
        return "skipped" if self.skipped else "missing"

    @property
    def unsure(self) -> bool:
        if not self.shots or self.read is None:
            return False
        return self.read != self.label or (self.prob or 0.0) < LOW


class Stopped(Exception):
    """The wizard was stopped or its frames ended."""


class Wizard:
    """One enrollment at the table: the camera, the cards taken, the prompt.

    Args:
        deck: the deck's name (already checked).
        labels: the cards asked for, in order.
        source: an opened frame source (``read()`` -> a frame with ``.image`` or
            ``None`` at its end; ``close()``).
        tools: returns ``(finder, reader)``; called in the thread (a model load
            takes seconds).
        config: :class:`vision.enroll_camera.GuideConfig`.
        mode: ``one``, ``any`` or ``sheet`` (:data:`MODES`).
        deck_kind: the card namer's deck (``uno`` or ``tgus-t``).
    """

    def __init__(
        self, deck: str, labels: Sequence[str], source: Any,
        tools: Callable[[], tuple[Any, Reader | None]], config: Any,
        mode: str = "one", deck_kind: str = "uno", camera: str = "",
    ) -> None:
        self.deck = deck
        self.deck_kind = deck_kind
        self.camera = camera
        self.labels = list(labels)
        self.cards = {label: Card(label) for label in self.labels}
        self.source = source
        self.tools = tools
        self.config = config
        self.mode = mode
        self.page = 0
        self.first: str | None = None  # a card the person asked for next
        self.lock = threading.RLock()
        self.stop = threading.Event()
        self.generation = 0  # bumped by skip/redo/mode: the current take ends
        self.state = "loading"  # loading, running, ended, error, stopped
        self.error: str | None = None
        #: why it stopped: the kind of failure (a key of web.errors.FAILURES,
        #: from the failure's code) and the failure's own words, or ``None``
        self.failure: str | None = None
        self.detail: str | None = None
        self.say: tuple[str, dict] = ("loading", {})  # what to do now
        self.news: tuple[str, dict] | None = None  # what was taken last
        self.target: list[str] = []
        self.last: str | None = None
        self.frame: np.ndarray | None = None
        self.frame_seq = 0
        self.boxes = np.zeros((0, 4), np.float32)
        self.finder: Any = None
        self.reader: Reader | None = None
        self.released = False
        self.need_clear = False  # a card was just taken: the table must clear first
        self.thread = threading.Thread(target=self._run, name="enroll", daemon=True)

    # -- the person's actions (from the page) ------------------------------------
    def start(self) -> "Wizard":
        self.thread.start()
        return self

    def close(self) -> None:
        """Stop reading the camera and release it."""
        self.stop.set()
        self._bump()
        if self.thread.is_alive() and self.thread is not threading.current_thread():
            self.thread.join(timeout=2)
        if not self.thread.is_alive():  # else the thread releases it as it ends
            self._release()
        with self.lock:
            if self.state in ("loading", "running"):
                self.state = "stopped"

    def _release(self) -> None:
        with self.lock:
            if self.released:
                return
            self.released = True
        try:
            self.source.close()
        except Exception:  # a source that fails to close is already gone
            log.debug("enrollment source close failed", exc_info=True)

    def skip(self, label: str | None = None) -> list[str]:
        """Skip ``label`` (default: the cards asked for now); returns those skipped."""
        with self.lock:
            before = list(self.target)
            chosen = [label] if label else list(self.target)
            for name in chosen:
                card = self.cards[name]
                if not card.shots:
                    card.skipped = True
            if self.first in chosen:
                self.first = None
            self._bump()
            if self.mode == "one":
                following = self._next_label()
                if following and before and following not in before:
                    self._card_up()
                if following:
                    self._ask(following)
                else:
                    self.target = []
            return chosen

    def redo(self, label: str) -> None:
        """Drop what was taken of ``label`` and ask for it next."""
        with self.lock:
            card = self.cards[label]
            card.shots, card.read, card.prob, card.skipped = [], None, None, False
            self.first = label
            if self.mode == "sheet":
                if self._page_of(label) != self.page:
                    self._card_up()
                self.page = self._page_of(label)
            else:
                if self.target != [label]:
                    self._card_up()
                self._ask(label)
            self._bump()

    def set_mode(self, mode: str, page: int | None = None) -> None:
        with self.lock:
            if mode != self.mode or (page is not None and page != self.page):
                self._card_up()
            self.mode = mode
            if page is not None:
                self.page = page
            self._bump()

    def shots(self) -> list:
        with self.lock:
            return [s for c in self.cards.values() for s in c.shots]

    def _ask(self, label: str) -> None:
        """Ask for ``label`` next (first for a clear table if a card was just
        taken): the prompt and the target change together."""
        with self.lock:
            self.target = [label]
            self.say = ("clear", {}) if self.need_clear else ("show", {"label": label})

    def _card_up(self) -> None:
        """The person changed the card asked for: a card the finder boxes now
        was shown for the one asked before, so the table must clear before the
        next take (else it would be taken as the card asked now)."""
        with self.lock:
            if len(self.boxes):
                self.need_clear = True

    def _bump(self) -> None:
        with self.lock:
            self.generation += 1

    # -- what the page shows -----------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            cards = [
                {"label": c.label, "status": c.status, "shots": len(c.shots),
                 "read": c.read, "prob": None if c.prob is None else round(c.prob, 3)}
                for c in self.cards.values()
            ]
            counts = {k: 0 for k in ("captured", "unsure", "missing", "skipped")}
            for c in cards:
                counts[c["status"]] += 1
            return {
                "deck": self.deck, "deck_kind": self.deck_kind, "camera": self.camera,
                "state": self.state, "error": self.error, "mode": self.mode,
                "failure": self.failure, "detail": self.detail,
                "page": self.page, "pages": len(sheet_pages(self.labels)),
                "say": {"key": self.say[0], "args": dict(self.say[1])},
                "news": None if self.news is None else {
                    "key": self.news[0], "args": dict(self.news[1])},
                "target": list(self.target), "last": self.last,
                "frame_seq": self.frame_seq, "cards": cards, "counts": counts,
                "total": len(self.labels),
            }

    def preview(self) -> np.ndarray | None:
        """The latest frame with the boxes the finder drew on it (display only:
        the cards taken are the plain frames)."""
        import cv2

        with self.lock:
            if self.frame is None:
                return None
            image, boxes = self.frame.copy(), self.boxes.copy()
        for x1, y1, x2, y2 in boxes.astype(int):
            cv2.rectangle(image, (x1, y1), (x2, y2), (0, 200, 0), 2)
        return image

    # -- the thread ----------------------------------------------------------------
    def _run(self) -> None:
        try:
            self._loop()
        finally:
            self._release()

    def _loop(self) -> None:
        try:
            finder, reader = self.tools()
        except Exception as exc:
            log.exception("enrollment could not load the card finder")
            with self.lock:
                self.state, self.error = "error", f"the card finder did not load: {exc}"
                self.failure, self.detail = _kind(exc), str(exc) or repr(exc)
                self.say = ("error_finder", {})
            return
        self.finder, self.reader = _Spy(finder, self), reader
        with self.lock:
            if self.state == "loading":
                self.state = "running"
        try:
            while not self.stop.is_set():
                with self.lock:
                    gen, mode = self.generation, self.mode
                if mode == "one" or (mode == "any" and self.first):
                    self._one(gen)
                elif mode == "any":
                    self._any(gen)
                else:
                    self._sheet(gen)
        except Stopped:
            pass
        except Exception as exc:  # the camera failed: the page says why
            log.warning("enrollment camera stopped: %r", exc)
            with self.lock:
                self.state, self.error = "error", f"the camera stopped: {exc}"
                self.failure, self.detail = _kind(exc), str(exc) or repr(exc)
                self.say = ("error_camera", {})
            return
        with self.lock:
            if self.state == "running":
                self.state = "ended" if not self.stop.is_set() else "stopped"
                if self.state == "ended":
                    self.say = ("ended", {})

    def _frames(self, gen: int) -> Iterator[np.ndarray]:
        """Camera frames while nothing the person did changes the take."""
        while not self.stop.is_set() and self.generation == gen:
            frame = self.source.read()
            if frame is None:
                raise Stopped()
            image = getattr(frame, "image", frame)
            with self.lock:
                self.frame, self.frame_seq = image, self.frame_seq + 1
            yield image
        if self.stop.is_set():
            raise Stopped()

    def _set_say(self, key: str, **args: Any) -> None:
        with self.lock:
            self.say = (key, args)

    def _next_label(self) -> str | None:
        with self.lock:
            if self.first and not self.cards[self.first].shots:
                return self.first
            for card in self.cards.values():
                if not card.shots and not card.skipped:
                    return card.label
            return None

    def _page_of(self, label: str) -> int:
        return self.labels.index(label) // (SHEET_COLUMNS * SHEET_ROWS)

    def _idle(self, gen: int, done: Callable[[], bool]) -> None:
        self._set_say("done")
        for _ in self._frames(gen):
            if done():
                return

    def _wait_clear(self, gen: int, n: int = 0) -> bool:
        """After a card was taken: frames until ``away`` in a row show no card
        (with ``n``: not the ``n`` cards of a sheet page), so that it is not
        taken again as the next one; False if the take changed meanwhile."""
        from vision.multiscale import detect_multiscale

        if not self.need_clear:
            return True
        empty = 0
        for frame in self._frames(gen):
            dets = detect_multiscale(self.finder, frame, self.config.zooms)
            clear = (len(dets) != n) if n else not len(dets)
            empty = empty + 1 if clear else 0
            if empty >= self.config.away:
                with self.lock:
                    if self.generation != gen:
                        return False
                    self.need_clear = False
                return True
            if not clear:
                self._set_say("clear", n=len(dets))
        return False

    def _one(self, gen: int) -> None:
        from vision.enroll_camera import guided_shots

        label = self._next_label()
        if label is None:
            with self.lock:
                self.target = []
            mode = self.mode
            self._idle(gen, lambda: self._next_label() is not None
                       or self.mode != mode)
            return
        self._ask(label)
        if not self._wait_clear(gen):
            return
        self._set_say("show", label=label)
        shots = guided_shots(self._watched(gen, "show", label=label), [label],
                             self.finder, self.config, say=lambda text: None)
        if self.generation == gen and len(shots) >= self.config.shots:
            self._record({label: shots}, gen)

    def _watched(self, gen: int, key: str, **args: Any) -> Iterator[np.ndarray]:
        """The frames, saying "hold it still" while the finder boxes a card."""
        for image in self._frames(gen):
            yield image  # guided_shots runs the finder on it, then asks again
            with self.lock:
                seen = len(self.boxes) > 0
            self._set_say("hold" if seen else key, **args)

    def _any(self, gen: int) -> None:
        """Any card not taken yet, named by the shipped classifier's read."""
        from vision.enroll_camera import guided_shots

        with self.lock:
            left = sum(1 for c in self.cards.values() if not c.shots and not c.skipped)
            self.target = []
            if left:
                self.say = ("clear", {}) if self.need_clear else ("any", {"n": left})
        if not left:
            self._idle(gen, lambda: self._next_label() is not None
                       or self.mode != "any")
            return
        if not self._wait_clear(gen):
            return
        self._set_say("any", n=left)
        shots = guided_shots(self._watched(gen, "any", n=left), ["?"], self.finder,
                             self.config, say=lambda text: None)
        if self.generation != gen or len(shots) < self.config.shots:
            return
        read, prob = None, 0.0
        if self.reader is not None:
            try:
                got = self.reader(shots[0].frame, shots[0].box[None])
                read, prob = got[0] if got else (None, 0.0)
            except Exception:  # no read: the card is not taken
                log.warning("the shipped classifier could not read a card",
                            exc_info=True)
        with self.lock:
            card = self.cards.get(read) if read else None
            if card is not None and card.shots:
                self.news, self.need_clear = ("got_again", {"label": read}), True
                self.say = ("clear", {})
                return
            if card is None or float(prob) < NAMED:
                self.news = ("got_unknown", {"read": read})
                self.need_clear, self.say = True, ("clear", {})
                return
        for shot in shots:
            shot.label = read
        self._record({read: shots}, gen)

    def _sheet_todo(self) -> tuple[list[list[str]], list[int]]:
        """The sheet's pages, each without its skipped cards, and the pages with
        a card still to take."""
        with self.lock:
            pages = [[x for x in p if not self.cards[x].skipped]
                     for p in sheet_pages(self.labels)]
            todo = [i for i, p in enumerate(pages)
                    if any(not self.cards[x].shots for x in p)]
        return pages, todo

    def _sheet(self, gen: int) -> None:
        pages, todo = self._sheet_todo()
        with self.lock:
            if self.page not in todo and todo:
                self.page = min((i for i in todo if i > self.page), default=todo[0])
            page = self.page if todo else None
            labels = list(pages[page]) if page is not None else []
            self.target = labels
            if page is not None:
                self.say = ("clear", {}) if self.need_clear else (
                    "lay", {"page": page + 1, "pages": len(pages), "n": len(labels)})
        if page is None:
            self._idle(gen, lambda: self.mode != "sheet" or bool(self._sheet_todo()[1]))
            return
        if not self._wait_clear(gen, len(labels)):
            return
        self._set_say("lay", page=page + 1, pages=len(pages), n=len(labels))
        taken = sheet_shots(self._frames(gen), labels, self.finder, self.config,
                            report=lambda key, args: self._set_say(
                                key, page=page + 1, pages=len(pages), **args))
        if taken is not None and self.generation == gen:
            self._record(taken, gen)

    def _record(self, taken: dict[str, list], gen: int) -> None:
        """Keep the shots ``taken`` (label -> shots) unless the person changed
        the take (``gen``) while they were read."""
        taken = {label: [trimmed(s) for s in shots] for label, shots in taken.items()}
        reads: dict[str, tuple[str | None, float | None]] = {}
        for label, shots in taken.items():
            reads[label] = (None, None)
            if self.reader is not None and shots:
                try:
                    read = self.reader(shots[0].frame, shots[0].box[None])
                    reads[label] = read[0] if read else (None, None)
                except Exception:  # no read is no judgement, not a failed take
                    log.warning("the shipped classifier could not read %s", label,
                                exc_info=True)
        with self.lock:
            if self.generation != gen:
                return  # skipped, taken again or another way meanwhile
            for label, shots in taken.items():
                card = self.cards[label]
                card.shots, card.skipped = list(shots), False
                card.read, card.prob = reads[label]
                if card.prob is not None:
                    card.prob = float(card.prob)
                self.last = label
            if self.first in taken:
                self.first = None
            self.need_clear = True
            self.say = ("clear", {})
            if len(taken) == 1:
                label = next(iter(taken))
                self.news = ("got_unsure" if self.cards[label].unsure else "got",
                             {"label": label, "read": self.cards[label].read})
            else:
                unsure = [x for x in taken if self.cards[x].unsure]
                self.news = ("got_page", {"n": len(taken), "unsure": len(unsure)})


class _Spy:
    """The finder, noting the boxes of the frame it last saw (for the preview)."""

    def __init__(self, finder: Any, wizard: Wizard) -> None:
        self.finder, self.wizard = finder, wizard
        self.names = getattr(finder, "names", ("card",))

    def detect(self, frame: np.ndarray):  # noqa: ANN201
        dets = self.finder.detect(frame)
        w = self.wizard
        with w.lock:
            if w.frame is not None and frame.shape == w.frame.shape:
                w.boxes = np.asarray(dets.xyxy, np.float32).reshape(-1, 4).copy()
        return dets


# -- the fine-tuning job -------------------------------------------------------------
_STEP = re.compile(r"network (\d+)/(\d+): step (\d+)/(\d+)")


def progress_fraction(text: str) -> float | None:
    """How far :func:`vision.enroll.fine_tune` is, from one of its progress lines
    ("fine-tuning network 2/5: step 40/60 ..."); ``None`` for other lines."""
    m = _STEP.search(text)
    if not m:
        return None
    net, nets, step, steps = (int(g) for g in m.groups())
    if nets < 1 or steps < 1:
        return None
    return min(1.0, ((net - 1) + step / steps) / nets)


def default_trainer(shots: list, progress: Callable[[str], None]):  # noqa: ANN201
    """:func:`vision.enroll.fine_tune` with its defaults on one torch thread."""
    from vision.enroll import EnrollConfig, fine_tune

    return fine_tune(shots, config=EnrollConfig(threads=1), progress=progress)


def _kind(exc: BaseException) -> str:
    """The kind of failure of ``exc`` (:func:`web.errors.failure_kind`)."""
    from .errors import failure_kind

    return failure_kind(exc) or "failed"


class EnrollJob:
    """Fine-tune on the wizard's shots in a thread and save the deck."""

    def __init__(self, deck: str, shots: list, trainer: Trainer,
                 root: Path | None = None, asked: Sequence[str] = ()) -> None:
        self.deck, self.shots, self.trainer, self.root = deck, shots, trainer, root
        self.asked = list(asked)  # the cards the wizard asked for
        self.state = "training"  # training, done, failed
        self.fraction = 0.0
        self.line = ""
        self.error: str | None = None
        #: the kind of failure of :attr:`error` (a key of web.errors.FAILURES,
        #: from the failure's code), or ``None``
        self.failure: str | None = None
        self.manifest: Any = None
        self.folder: str | None = None
        self.t0 = time.time()
        self.thread = threading.Thread(target=self._run, name="enroll-job", daemon=True)

    def start(self) -> "EnrollJob":
        self.thread.start()
        return self

    def _progress(self, text: str) -> None:
        self.line = str(text)
        fraction = progress_fraction(self.line)
        if fraction is not None:
            self.fraction = max(self.fraction, fraction)

    def _run(self) -> None:
        from vision.decks import DeckManifest, save_deck

        try:
            result = self.trainer(self.shots, self._progress)
            manifest = DeckManifest(
                name=self.deck, labels=list(result.checkpoint["labels"]),
                photos=dict(result.photos), missing=list(result.missing),
                confused=list(result.confused),
                base=str(result.checkpoint.get("base", "")),
                recipe=dict(result.checkpoint.get("enroll", {})),
                seconds=round(time.time() - self.t0, 1),
                created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            )
            folder = save_deck(self.deck, result.checkpoint, manifest, self.root)
        except Exception as exc:
            log.exception("enrollment of %s failed", self.deck)
            self.state, self.error = "failed", str(exc) or repr(exc)
            self.failure = _kind(exc)
            return
        self.manifest, self.folder = manifest, str(folder)
        self.fraction, self.state = 1.0, "done"

    def snapshot(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "state": self.state, "fraction": round(self.fraction, 3),
            "line": self.line, "error": self.error, "failure": self.failure,
            "deck": self.deck,
            "seconds": round(time.time() - self.t0, 1),
        }
        if self.manifest is not None:
            m = self.manifest
            asked = set(self.asked or m.missing)
            out.update(folder=self.folder, photos=sum(m.photos.values()),
                       cards=len(m.photos),
                       missing=[x for x in m.missing if x in asked],
                       confused=[list(c) for c in m.confused],
                       seconds=m.seconds)
        return out
