"""Frame sources: a webcam, a video file, a folder of images or a stream URL.

A source spec is whatever a person types after ``tableref watch``: ``0`` (the
first webcam), ``game.mp4``, ``shots/`` (a folder of images, in name order) or
``rtsp://...`` / ``http://...`` (anything OpenCV's ``VideoCapture`` opens).

:class:`FrameSource` reads one frame at a time and never lets a corrupt frame
escape: a frame that does not decode, or decodes to something that is not a
3-channel image, is skipped and counted. :class:`RetryingSource` wraps it for
live use: a source that cannot be opened, or that stops delivering frames
(a camera unplugged, a stream dropped), is reopened with exponential back-off,
and every state change is reported to a callback so the page can show it.
"""

from __future__ import annotations

import errno
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


#: what can go wrong with a source, as the code a :class:`SourceError` carries
#: (``kind``), for a reader to say in its own words (the page: in the
#: viewer's language): a camera index OpenCV cannot open, another source
#: (a file, a stream) it cannot open or one read before it was opened, a
#: video file that does not exist, a folder without images, a live source
#: that stopped delivering frames
SOURCE_FAILURES = ("camera_not_found", "cannot_open_source", "video_missing",
                   "no_images", "frames_stopped")


class SourceError(RuntimeError):
    """A source that cannot be opened or has stopped delivering frames.

    Args:
        message: what failed, in English (said in logs and by the command line).
        kind: what failed, as a code (one of :data:`SOURCE_FAILURES`), set
            where the error is raised: a reader says the failure by it, not
            by the message's words.
    """

    def __init__(self, message: str, kind: str = "cannot_open_source"):
        super().__init__(message)
        self.kind = kind if kind in SOURCE_FAILURES else "cannot_open_source"


#: the numbers of an ``OSError`` that say a device or a file is not there
#: (a camera unplugged, a disk taken away): a camera's is ``camera_not_found``
GONE_ERRNOS = (errno.ENODEV, errno.ENXIO, errno.ENOENT)


def source_error(exc: OSError, source: object) -> SourceError:
    """The :class:`SourceError` a source's ``OSError`` is (``source``: the
    source that raised it, a :class:`FrameSource` or another with a ``kind``
    and a ``describe``): where a camera raised a number that says its device
    is not there (:data:`GONE_ERRNOS`), ``camera_not_found``; a video file
    that is not there, ``video_missing``; else ``cannot_open_source``. The
    kind is the source's, set here where the error came from: the same number
    raised by another part (the store's disk) says no camera. The ``OSError``
    is its cause (``raise ... from exc``)."""
    kind = getattr(source, "kind", None)
    gone = getattr(exc, "errno", None) in GONE_ERRNOS
    if gone and kind == "camera":
        said = "camera_not_found"
    elif gone and kind == "file" and getattr(exc, "errno", None) == errno.ENOENT:
        said = "video_missing"
    else:
        said = "cannot_open_source"
    try:
        name = source.describe()  # type: ignore[attr-defined]
    except Exception:  # a source that cannot say what it is
        name = "the source"
    error = SourceError(f"{name} failed: {exc}", said)
    error.__cause__ = exc
    return error


@dataclass
class Frame:
    """One decoded frame.

    Attributes:
        index: position in the source (0-based, counting skipped frames too).
        t: seconds since the source started (from the file's frame rate for
            files and folders, from the clock for live sources).
        image: BGR uint8 image, H x W x 3.
    """

    index: int
    t: float
    image: np.ndarray


def source_kind(spec: str | int) -> str:
    """Classify a source spec: ``camera``, ``stream``, ``folder`` or ``file``."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        return "camera"
    text = str(spec)
    if "://" in text:
        return "stream"
    if Path(text).is_dir():
        return "folder"
    return "file"


def valid_image(image: object) -> bool:
    """True for a non-empty H x W x 3 uint8 array (what every stage expects)."""
    return (
        isinstance(image, np.ndarray)
        and image.dtype == np.uint8
        and image.ndim == 3
        and image.shape[2] == 3
        and image.shape[0] >= 8
        and image.shape[1] >= 8
    )


class FrameSource:
    """Reads frames from one source spec.

    Args:
        spec: camera index, video path, image folder or stream URL.
        fps: frame rate used to time files and folders when the file does not
            say (folders always use it), and taken as a camera's or stream's
            rate when it does not say its own; 15 by default.
        realtime: pace a file or folder to its frame rate, as a camera would.
        max_bad: consecutive undecodable frames after which a file is taken
            to have ended (a live source is then taken to have failed).
    """

    def __init__(
        self,
        spec: str | int,
        *,
        fps: float | None = None,
        realtime: bool = False,
        max_bad: int = 30,
    ):
        self.spec = spec
        self.kind = source_kind(spec)
        self.realtime = realtime
        self.max_bad = max_bad
        self.fps = float(fps) if fps else 15.0
        self.skipped = 0
        self._cap: cv2.VideoCapture | None = None
        self._files: list[Path] = []
        self._next = 0
        self._t0 = 0.0
        #: the kind of the last :class:`SourceError` it raised (one of
        #: :data:`SOURCE_FAILURES`), ``None`` once it opened or read a frame
        #: since: what the source's failure is now, for a status
        self.failure: str | None = None

    @property
    def live(self) -> bool:
        return self.kind in ("camera", "stream")

    def describe(self) -> str:
        return {
            "camera": f"camera {self.spec}",
            "stream": f"stream {self.spec}",
            "folder": f"folder {self.spec}",
            "file": f"file {self.spec}",
        }[self.kind]

    def open(self) -> None:
        """Open the source.

        Raises:
            SourceError: it does not exist or OpenCV cannot open it (an
                ``OSError`` raised while opening it, as :func:`source_error`
                says it).
        """
        try:
            self._open()
        except OSError as exc:
            error = source_error(exc, self)
            self.failure = error.kind
            raise error from exc
        except cv2.error as exc:  # a spec OpenCV refuses (an index out of its range)
            kind = "camera_not_found" if self.kind == "camera" else "cannot_open_source"
            raise self._error(f"OpenCV cannot open {self.describe()}", kind) from exc

    def _open(self) -> None:
        self.close()
        self._next = 0
        self._t0 = time.monotonic()
        if self.kind == "folder":
            folder = Path(str(self.spec))
            self._files = sorted(
                p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES
            )
            if not self._files:
                raise self._error(
                    f"folder {folder} holds no images ({', '.join(IMAGE_SUFFIXES)})",
                    "no_images")
            self.failure = None
            return
        if self.kind == "file" and not Path(str(self.spec)).is_file():
            raise self._error(f"no such video file: {self.spec}", "video_missing")
        target = int(self.spec) if self.kind == "camera" else str(self.spec)
        cap = cv2.VideoCapture(target)
        if not cap.isOpened():
            cap.release()
            raise self._error(
                f"OpenCV cannot open {self.describe()}",
                "camera_not_found" if self.kind == "camera" else "cannot_open_source")
        self.failure = None
        rate = cap.get(cv2.CAP_PROP_FPS)  # a file's, a camera's or a stream's own rate
        if rate and 1 <= rate <= 240:
            self.fps = float(rate)
        self._cap = cap

    def _error(self, message: str, kind: str) -> SourceError:
        """The :class:`SourceError` to raise, its kind kept as :attr:`failure`."""
        self.failure = kind
        return SourceError(message, kind)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None

    def _pace(self, t: float) -> None:
        if self.realtime and not self.live:
            wait = self._t0 + t - time.monotonic()
            if wait > 0:
                time.sleep(wait)

    def read(self) -> Frame | None:
        """The next good frame, or ``None`` when a file or folder has ended.

        Raises:
            SourceError: a live source stopped delivering frames, or the
                source was never opened (an ``OSError`` raised while reading
                it, as :func:`source_error` says it).
        """
        try:
            return self._read()
        except OSError as exc:
            error = source_error(exc, self)
            self.failure = error.kind
            raise error from exc

    def _read(self) -> Frame | None:
        if self.kind == "folder":
            return self._read_folder()
        if self._cap is None:
            raise self._error(f"{self.describe()} is not open", "cannot_open_source")
        bad = 0
        while bad < self.max_bad:
            index = self._next
            self._next += 1
            ok, image = self._cap.read()
            if ok and valid_image(image):
                if self.live:
                    t = time.monotonic() - self._t0
                else:
                    t = index / self.fps
                    self._pace(t)
                self.failure = None
                return Frame(index, t, image)
            if not ok and not self.live and self._at_end():
                return None
            bad += 1
            self.skipped += 1
        if self.live:
            raise self._error(f"{self.describe()} stopped delivering frames",
                              "frames_stopped")
        return None

    def _at_end(self) -> bool:
        assert self._cap is not None
        total = self._cap.get(cv2.CAP_PROP_FRAME_COUNT)
        pos = self._cap.get(cv2.CAP_PROP_POS_FRAMES)
        return total <= 0 or pos >= total - 1

    def _read_folder(self) -> Frame | None:
        if not self._files and self._next == 0:
            raise self._error(f"{self.describe()} is not open", "cannot_open_source")
        while self._next < len(self._files):
            index = self._next
            self._next += 1
            image = cv2.imread(str(self._files[index]), cv2.IMREAD_COLOR)
            if valid_image(image):
                t = index / self.fps
                self._pace(t)
                self.failure = None
                return Frame(index, t, image)
            self.skipped += 1
        return None


StatusCallback = Callable[[str, str], None]


class RetryingSource:
    """A :class:`FrameSource` that reopens a failing source with back-off.

    States reported through ``on_status(state, message)``: ``starting``,
    ``running``, ``retrying`` (with the reason and the delay), ``ended``
    (a file or folder ran out) and ``error`` (given up after ``max_retries``).

    Args:
        source: the source to read.
        on_status: called on every state change.
        first_delay: seconds before the first retry; doubled each time.
        max_delay: cap of the back-off.
        max_retries: give up after this many failed attempts in a row
            (``None``: keep trying until stopped for a camera or stream, 3 for
            a file or folder, which rarely comes back by itself).
    """

    def __init__(
        self,
        source: FrameSource,
        on_status: StatusCallback | None = None,
        *,
        first_delay: float = 0.5,
        max_delay: float = 10.0,
        max_retries: int | None = None,
    ):
        self.source = source
        self.on_status = on_status or (lambda state, message: None)
        self.first_delay = first_delay
        self.max_delay = max_delay
        if max_retries is None and not source.live:
            max_retries = 3
        self.max_retries = max_retries
        self.state = "starting"
        self.message = ""
        self._open = False

    def _set(self, state: str, message: str) -> None:
        if (state, message) != (self.state, self.message):
            self.state, self.message = state, message
            self.on_status(state, message)

    def frames(self, stop: threading.Event):
        """Yield frames until the source ends, gives up, or ``stop`` is set."""
        failures = 0
        delay = self.first_delay
        self._set("starting", f"opening {self.source.describe()}")
        while not stop.is_set():
            try:
                if not self._open:
                    self.source.open()
                    self._open = True
                frame = self.source.read()
            except (SourceError, OSError) as exc:
                if not isinstance(exc, SourceError):  # another source's own error
                    exc = source_error(exc, self.source)
                self._open = False
                # the kind travels with the error, whoever raised it
                self.source.failure = exc.kind
                self.source.close()
                failures += 1
                if self.max_retries is not None and failures > self.max_retries:
                    self._set("error", f"{exc}; gave up after {failures - 1} retries")
                    return
                self._set("retrying", f"{exc}; retry {failures} in {delay:.1f} s")
                stop.wait(delay)
                delay = min(delay * 2, self.max_delay)
                continue
            if frame is None:
                self.source.close()
                self._open = False
                self._set("ended", f"{self.source.describe()} has ended")
                return
            failures = 0
            delay = self.first_delay
            self._set("running", f"reading {self.source.describe()}")
            yield frame
        self.source.close()
        self._open = False
