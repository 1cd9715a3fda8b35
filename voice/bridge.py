"""The listener as a background thread that appends ``uno`` events to a live referee.

``tableref serve --listen`` and ``tableref watch --listen`` call
:func:`listen_into` with their referee's ``append`` and ``state``::

    handle = listen_into(referee.append, referee.state)
    ...
    handle.stop()

Each spotted call becomes ``{"type": "uno", "player": P, "source": "voice", "t": T,
"word": "uno", "score": 0.8}`` where ``P`` comes from :mod:`voice.attribution` and
``T`` is when the word ended, on the caller's clock (seconds since the listener
started unless ``clock`` is given). A call that cannot be attributed is logged and
dropped.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from voice.attribution import attribute
from voice.audio import RATE, Microphone, file_chunks
from voice.spotter import Detection, Spotter, SpotterConfig
from voice.words import parse_words

log = logging.getLogger("tableref.voice")


class ListenHandle:
    """A running listener; :meth:`stop` ends it.

    Attributes:
        events: the events appended so far.
        detections: every call heard, attributed or not.
        error: the exception that stopped the listener early, if any.
    """

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.detections: list[Detection] = []
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._mic: Microphone | None = None

    @property
    def running(self) -> bool:
        """Whether the listener thread is still alive."""
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout: float | None = 5.0) -> None:
        """Stop listening and wait (up to ``timeout`` seconds) for the thread."""
        self._stop.set()
        if self._mic is not None:
            self._mic.close()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def join(self, timeout: float | None = None) -> None:
        """Wait for the listener to finish (a file listener ends at the file's end)."""
        if self._thread is not None:
            self._thread.join(timeout)


def _event(det: Detection, player: str, t: float) -> dict[str, Any]:
    return {"type": "uno", "player": player, "source": "voice", "t": round(t, 2),
            "word": det.word, "score": det.score}


def listen_into(append: Callable[[dict[str, Any]], Any],
                get_state: Callable[[], Mapping[str, Any]],
                device: int | str | None = None, file: str | None = None,
                words: str | None = None, *,
                clock: Callable[[], float] | None = None,
                config: SpotterConfig | None = None,
                realtime: bool = False) -> ListenHandle:
    """Listen in a thread and append an ``uno`` event for each attributed call.

    ``append`` and ``get_state`` are called from the listener's thread; wrap them in
    the app's referee lock where other threads use the referee too.

    Args:
        append: called with each event dict (for example ``Referee.append``).
        get_state: returns the referee's current state (``Referee.state``).
        device: microphone device (index or name); None for the default.
        file: read this audio file instead of a microphone (ends at its end).
        words: comma-separated call words (default ``"uno,ウノ"``).
        clock: the game clock for the events' ``t``; default: seconds since this call.
        config: spotter thresholds.
        realtime: with ``file``, feed the file at the speed it was recorded.

    Returns:
        The handle; the microphone is opened before returning, so a missing
        device raises here.

    Raises:
        voice.audio.AudioError: no microphone or an unreadable file.
        voice.words.WordError: a call word that cannot be pronounced.
    """
    call_words = parse_words(words)
    spotter = Spotter(call_words, config)
    handle = ListenHandle()
    started = time.monotonic()
    game_clock = clock or (lambda: time.monotonic() - started)
    if file is not None:
        chunks: Iterable[bytes] = file_chunks(file)
    else:
        handle._mic = Microphone(device)
        chunks = handle._mic
    recent: list[dict[str, Any]] = []

    def on_detection(det: Detection) -> None:
        handle.detections.append(det)
        # the word ended (spotter.seconds - det.end) seconds of audio ago
        t = game_clock() - max(spotter.seconds - det.end, 0.0) if realtime or \
            file is None else det.end
        result = attribute(get_state(), recent, now=t)
        if result.player is None:
            log.info("heard %r at %.2f s (score %.2f), no event: %s", det.word, t,
                     det.score, result.reason)
            return
        event = _event(det, result.player, t)
        recent.append(event)
        del recent[:-20]
        log.info("heard %r at %.2f s: uno for %s (%s)", det.word, t, result.player,
                 result.reason)
        handle.events.append(event)
        append(event)

    def run() -> None:
        try:
            for chunk in chunks:
                if handle._stop.is_set():
                    break
                for det in spotter.feed(chunk):
                    on_detection(det)
                if realtime and file is not None:
                    time.sleep(len(chunk) / (2 * RATE))
            else:
                for det in spotter.flush():
                    on_detection(det)
        except Exception as exc:  # the game goes on without the listener
            handle.error = exc
            log.error("the voice listener stopped: %s", exc)
        finally:
            if handle._mic is not None:
                handle._mic.close()

    handle._thread = threading.Thread(target=run, name="tableref-listen", daemon=True)
    handle._thread.start()
    return handle
