"""The listener as a background thread that appends ``uno`` and ``color`` events to a
live referee.

``tableref serve --listen`` and ``tableref watch --listen`` call
:func:`listen_into` with their referee's ``append`` and ``state``::

    handle = listen_into(referee.append, referee.state)
    ...
    handle.stop()

Each spotted call becomes ``{"type": "uno", "player": P, "source": "voice", "t": T,
"word": "uno", "score": 0.8}`` where ``P`` comes from :mod:`voice.attribution` and
``T`` is when the word ended, on the caller's clock (seconds since the listener
started unless ``clock`` is given). A call that cannot be attributed is logged and
dropped. A likely call (:attr:`Detection.likely`; its event says ``"likely":
true``) counts only where the player it is attributed to went down to one
card by a play at most :data:`voice.attribution.LIKELY_PLAY_S` seconds from
it (before or after: it waits that long for the play), and is dropped
anywhere else.

A wild's colour heard (red/blue/green/yellow, 赤/青/緑/黄; by the colour spotter,
``models/colour-kws.pt``) becomes ``{"type": "color", "color": "red", "player": P,
"source": "voice", "t": T, "heard": "red", "score": 0.7}`` (``heard``: the word
the spotter reported; the colour spotter names the colour whichever language
said it, keyword search the word, ``"赤"``) for the player of the wild on top
that waits for a colour
(:func:`voice.attribution.attribute_colour`), heard at most
``colour_after`` seconds (the config's ``listen.colour_after_s``, default
:data:`voice.attribution.COLOUR_AFTER`) after the wild was first seen
(:class:`voice.attribution.WildClock`). A colour heard before the camera has
seen the wild waits up to :data:`COLOUR_WAIT` seconds of the game clock for it
(``t`` is then when it was attributed); when several wait, the last one heard
names the wild ("red... no, blue"). Any other colour is dropped, so table talk
about colours makes no event. That gate is the colour's only defence against
table talk: ``benchmarks/eval_colours.py`` reports the wrong colours an hour of
talk with it and without it.

An audio file listened to beside a video (``file`` and ``clock`` given, not
``realtime``) is read ahead, but each word is attributed only once the game
clock (the video's time) has reached the word's end, so the state it is judged
against is the table's at that moment.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from voice.attribution import (COLOUR_AFTER, LIKELY_PLAY_S, Attribution,
                               DownClock, WildClock, attribute, attribute_colour)
from voice.audio import RATE, Microphone, file_chunks
from voice.spotter import Detection, Spotter, SpotterConfig
from voice.words import colour_of, parse_words

log = logging.getLogger("tableref.voice")

#: seconds (game clock) a heard colour waits for the camera to see its wild
COLOUR_WAIT = 3.0
#: a paced file listener stops waiting when the game clock stands this long (s)
STALL_SECONDS = 3.0
#: seconds of audio after a word's end before the spotters have decided it
#: (the keyword search's longest stretch and its hold, with a margin)
DECISION_LAG = 1.8


class ListenHandle:
    """A running listener; :meth:`stop` ends it.

    Attributes:
        events: the events appended so far.
        detections: every call heard, attributed or not.
        error: the exception that stopped the listener early, if any.
        heard_until: seconds of the audio whose words are all decided (a file:
            what was read, less :data:`DECISION_LAG`; infinite once it ended), so
            a camera reading a video beside it can wait for the listener.

    :meth:`retry_colours` tries the heard colours still waiting for their wild
    at once, from any thread (a camera play the table has just let stand);
    it never waits for the listener's thread: while that thread is trying
    them itself, it returns at once (the thread tries them again at its next
    chunk of audio), so a caller holding what the listener's ``get_state``
    waits for cannot lock the two threads.
    """

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.detections: list[Detection] = []
        self.error: BaseException | None = None
        self.heard_until = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._mic: Microphone | None = None
        self._retry: Callable[[], None] | None = None
        self._rebuild: Callable[[Any], None] | None = None

    def rebuild(self, referee: Any, new_game: bool = False) -> None:
        """What the listener learnt from the game so far (who went down to one
        card and when, for a likely call; when a wild began to wait for its
        colour; the recent calls of its repeat check), read again from a
        game's log (``referee``: a :class:`referee.session.Referee` holding
        it) by :meth:`voice.attribution.DownClock.read`, the mechanism
        ``vision.hearing.Hearing.rebuild`` uses: a server started again on a
        stored game, or a new game, starts with what its own log says and
        nothing of another game's. Only lines its clock places (the
        ``timed`` of :func:`listen_into`) are noted at a time; a microphone's
        clock starts with the listener, so before it nothing is near a call.
        ``new_game``: the game changed under the listener (a new one begun,
        another resumed): the colours and likely calls still waiting were
        heard in the last game and make no event in this one. Called from the
        listener's thread (its ``get_state``), or before it hears anything."""
        if self._rebuild is not None:
            self._rebuild(referee, new_game)

    def retry_colours(self) -> None:
        """Try the colours waiting for their wild now (a wild may just have
        joined the log); nothing for a listener that keeps none waiting."""
        if self._retry is not None:
            self._retry()

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


class Attributor:
    """Gives a heard event (an ``uno`` or ``color`` event without ``player``) its
    player from the referee's state when it joins the log, for a listener started
    with ``attribute_later=True``: a recording heard ahead of (or behind) the
    video whose events a live table holds until the camera reaches their time
    (``vision.live.LiveTable.hear``). Keeps the recent calls, so a repeated call
    counts once.
    """

    def __init__(self, after: float = COLOUR_AFTER) -> None:
        self.recent: list[dict[str, Any]] = []
        self.clock = WildClock(after)

    def observe(self, state: Mapping[str, Any], t: float) -> None:
        """The referee's state after an event of the camera at ``t``: starts
        the colour window of a wild that now waits (:class:`WildClock`); without
        these calls a colour is judged by the state alone."""
        self.clock.observe(state, t)

    def __call__(self, event: dict[str, Any], state: Mapping[str, Any],
                 accept: Callable[[str], str | None] | None = None
                 ) -> dict[str, Any] | None:
        """The event with its player, or None (logged) when nobody can be meant.
        ``accept``: says why the player found may not be meant (None: they
        may), for a call that counts only in some moments (a likely call)."""
        t = float(event.get("t", 0.0))
        if event.get("type") == "color":
            result = attribute_colour(state, str(event.get("color")))
            late = self.clock.too_late(t) if result.player is not None else None
            if late:
                result = Attribution(None, late)
        else:
            result = attribute(state, self.recent, now=t)
        if result.player is not None and accept is not None:
            why = accept(result.player)
            if why:
                result = Attribution(None, why)
        if result.player is None:
            log.info("heard %r at %.2f s, no event: %s", event.get("heard") or
                     event.get("word"), t, result.reason)
            return None
        out = {**event, "player": result.player}
        self.recent.append(out)
        del self.recent[:-20]
        log.info("heard %r at %.2f s: %s for %s (%s)", event.get("heard") or
                 event.get("word"), t, event.get("type"), result.player, result.reason)
        return out


def _unattributed(det: Detection, t: float) -> dict[str, Any]:
    event = _event(det, "", t)
    del event["player"]
    return event


def _event(det: Detection, player: str, t: float) -> dict[str, Any]:
    colour = colour_of(det.word)
    if colour is not None:
        return {"type": "color", "color": colour, "player": player, "source": "voice",
                "t": round(t, 2), "heard": det.word, "score": det.score}
    event = {"type": "uno", "player": player, "source": "voice", "t": round(t, 2),
             "word": det.word, "score": det.score}
    if det.likely:  # heard only by the lower decision: counts at a play near it
        event["likely"] = True
    return event


def listen_into(append: Callable[[dict[str, Any]], Any],
                get_state: Callable[[], Mapping[str, Any]],
                device: int | str | None = None, file: str | None = None,
                words: str | None = None, *,
                clock: Callable[[], float] | None = None,
                config: SpotterConfig | None = None,
                realtime: bool = False, colours: bool = True,
                attribute_later: bool = False,
                colour_after: float = COLOUR_AFTER,
                likely_play: float = LIKELY_PLAY_S,
                timed: Callable[[Mapping[str, Any]], float | None] | None = None,
                ) -> ListenHandle:
    """Listen in a thread and append an ``uno`` event for each attributed call
    (and a ``color`` event for each attributed colour word).

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
        colours: also hear a wild's colour (default True).
        attribute_later: append each event without ``player``, for the caller
            to attribute when the event joins the log (:class:`Attributor`).
        colour_after: seconds after a wild was first seen during which a heard
            colour may name it (the config's ``listen.colour_after_s``).
        likely_play: seconds between a likely UNO call and the play that
            leaves its caller with one card within which it counts (the
            config's ``listen.likely_play_s``).
        timed: a game's log line's time on this listener's clock (``None``:
            a line it cannot place), for :meth:`ListenHandle.rebuild`;
            default: none (a microphone's clock starts with the listener).

    Returns:
        The handle; the microphone is opened before returning, so a missing
        device raises here.

    Raises:
        voice.audio.AudioError: no microphone or an unreadable file.
        voice.words.WordError: a call word that cannot be pronounced.
    """
    call_words = parse_words(words)
    # every colour passes the gate below: the colour spotter decides with the
    # gate's setting (voice.spotter.colour_decision)
    spotter = Spotter(call_words, config, colours=colours, gated=True)
    handle = ListenHandle()
    started = time.monotonic()
    game_clock = clock or (lambda: time.monotonic() - started)
    if file is not None:
        chunks: Iterable[bytes] = file_chunks(file)
    else:
        handle._mic = Microphone(device)
        chunks = handle._mic
    recent: list[dict[str, Any]] = []
    # colours waiting for their wild, likely calls waiting for a play: each
    # with the game it was heard in (``game[0]``, counted by rebuild)
    waiting: list[tuple[Detection, float, int]] = []
    likely: list[tuple[Detection, float, int]] = []
    game = [0]
    paced = file is not None and clock is not None and not realtime
    # a file without a clock is judged on its own time (the words' ``t``)
    audio_time = file is not None and clock is None and not realtime
    wild = WildClock(colour_after)
    downs = DownClock()

    def emit(det: Detection, player: str, t: float, why: str) -> None:
        event = _event(det, player, t)
        recent.append(event)
        del recent[:-20]
        log.info("heard %r at %.2f s: %s for %s (%s)", det.word, t, event["type"],
                 player, why)
        handle.events.append(event)
        append(event)

    def another_game(det: Detection, t: float, heard_in: int) -> bool:
        """Whether a word waiting since ``t`` was heard in a game before the
        one now (said in the log: it makes no event in this one)."""
        if heard_in == game[0]:
            return False
        log.info("heard %r at %.2f s in the last game, no event in this one",
                 det.word, t)
        return True

    def try_colour(det: Detection, t: float, now: float, last: bool,
                   heard_in: int) -> bool:
        """Attribute a colour; False while it may still wait for its wild."""
        colour = colour_of(det.word) or ""
        state = get_state()
        if another_game(det, t, heard_in):
            return True
        wild.observe(state, now)
        result = attribute_colour(state, colour)
        late = wild.too_late(t) if result.player is not None else None
        if late:
            result = Attribution(None, late)
        elif result.player is not None:
            emit(det, result.player, max(t, now), result.reason)
            return True
        if not late and not last and now - t < COLOUR_WAIT:
            return False
        log.info("heard %r (%s) at %.2f s (score %.2f), no event: %s", det.word,
                 colour, t, det.score, result.reason)
        return True

    def try_likely(det: Detection, t: float, now: float, last: bool,
                   heard_in: int) -> bool:
        """A likely call: counted for the player the state names only where
        that player went down to one card by a play within likely_play of
        it; False while that play may still come."""
        state = get_state()
        if another_game(det, t, heard_in):
            return True
        downs.observe(state, now)
        result = attribute(state, recent, now=t)
        if result.player is not None and downs.near(result.player, t, likely_play):
            emit(det, result.player, max(t, now), f"{result.reason} (a likely "
                 f"call, at a play down to one card)")
            return True
        if not last and now - t <= likely_play:
            return False
        log.info("heard %r at %.2f s (score %.2f, likely), no event: %s", det.word,
                 t, det.score, f"{result.player} went down to one card by no play "
                 f"within {likely_play:g} s of it" if result.player is not None
                 else result.reason)
        return True

    def clock_now() -> float:
        """Now on the clock the events' ``t`` are on."""
        return spotter.seconds if audio_time else game_clock()

    def retry_likely(now: float, last: bool = False) -> None:
        likely[:] = [(d, t, g) for d, t, g in likely
                     if not try_likely(d, t, now, last, g)]

    lock = threading.RLock()  # the waiting colours: this thread and retry_colours

    def retry(now: float, last: bool = False) -> None:
        # the last colour heard first: when the wild appears it names it, and
        # the earlier ones then find its colour named
        with lock:
            left = [(d, t, g) for d, t, g in reversed(waiting)
                    if not try_colour(d, t, now, last, g)]
            waiting[:] = left[::-1]

    def retry_now() -> None:
        if colours and not paced and not attribute_later and not handle._stop.is_set():
            # never waits for the listener's thread: that thread may be trying
            # them now, waiting for the state (``get_state``) that the caller
            # holds (the page's table lock, held by the camera's path that
            # calls this); it tries them again at its next chunk of audio
            if not lock.acquire(blocking=False):
                return
            try:
                retry(spotter.seconds if audio_time else game_clock())
            finally:
                lock.release()

    handle._retry = retry_now

    def rebuild(referee: Any, new_game: bool = False) -> None:
        """The listener's clocks and recent calls read again from the log;
        ``new_game``: the words still waiting were heard in the last game.
        Read aside and swapped in without the listener's lock: the caller
        holds the table, which the listener's thread may be waiting for
        (its ``get_state``) while it holds that lock."""
        place = timed or (lambda event: None)
        fresh = WildClock(colour_after)  # noted again from the log's start
        read = DownClock.read(referee, place, fresh.observe)
        said = [dict(e) for e in referee.events
                if e.get("source") == "voice" and e.get("player") is not None
                and e.get("type") in ("uno", "color") and place(e) is not None][-20:]
        if new_game:  # the waiting words are told apart where next tried
            game[0] += 1
        wild.key, wild.since = fresh.key, fresh.since
        downs.counts, downs.at = read.counts, read.at
        recent[:] = said

    handle._rebuild = rebuild

    def wait_for(t: float) -> None:
        """A file beside a video: wait until the game clock reaches ``t``."""
        seen, since = None, time.monotonic()
        while not handle._stop.is_set():
            now = game_clock()
            state = get_state()
            wild.observe(state, now)
            downs.observe(state, now)
            retry(now)
            if likely:
                retry_likely(now)
            if now >= t:
                return
            if now != seen:
                seen, since = now, time.monotonic()
            elif time.monotonic() - since > STALL_SECONDS:
                return  # the video has ended (or stopped): judge what is left now
            time.sleep(0.02)

    def on_detection(det: Detection) -> None:
        handle.detections.append(det)
        if attribute_later:
            event = _unattributed(det, det.end if file is not None and not realtime
                                  else game_clock() - max(spotter.seconds - det.end,
                                                          0.0))
            handle.events.append(event)
            append(event)
            return
        if paced:
            wait_for(det.end)
        # the word ended (spotter.seconds - det.end) seconds of audio ago
        t = game_clock() - max(spotter.seconds - det.end, 0.0) if realtime or \
            file is None else det.end
        if colour_of(det.word) is not None:
            now = game_clock() if paced or file is None or realtime else t
            with lock:
                get_state()  # a game begun since is taken up first (rebuild)
                heard_in = game[0]
                if not try_colour(det, t, now, last=not (paced or file is None
                                                          or realtime),
                                  heard_in=heard_in):
                    waiting.append((det, t, heard_in))
            return
        if det.likely:  # counts only at a play down to one card close to it
            get_state()  # a game begun since is taken up first (rebuild)
            heard_in = game[0]
            if not try_likely(det, t, clock_now(), last=False, heard_in=heard_in):
                likely.append((det, t, heard_in))
            return
        result = attribute(get_state(), recent, now=t)
        if result.player is None:
            log.info("heard %r at %.2f s (score %.2f), no event: %s", det.word, t,
                     det.score, result.reason)
            return
        emit(det, result.player, t, result.reason)

    def run() -> None:
        try:
            for chunk in chunks:
                if handle._stop.is_set():
                    break
                for det in spotter.feed(chunk):
                    on_detection(det)
                handle.heard_until = spotter.seconds - DECISION_LAG
                if not attribute_later:  # who went down to one card, and when
                    now = clock_now()
                    state = get_state()
                    downs.observe(state, now)
                    if likely:
                        retry_likely(now)
                    if colours and not paced:
                        wild.observe(state, now)
                        if waiting and not audio_time:
                            retry(now)
                if realtime and file is not None:
                    time.sleep(len(chunk) / (2 * RATE))
            else:
                for det in spotter.flush():
                    on_detection(det)
                if likely and paced:
                    wait_for(max(t for _d, t, _g in likely) + likely_play)
                retry_likely(clock_now(), last=True)
                if waiting and paced:
                    wait_for(max(t for _d, t, _g in waiting) + COLOUR_WAIT)
                retry(game_clock() if paced else float("inf"), last=True)
        except Exception as exc:  # the game goes on without the listener
            handle.error = exc
            log.error("the voice listener stopped: %s", exc)
        finally:
            handle.heard_until = float("inf")
            if handle._mic is not None:
                handle._mic.close()

    handle._thread = threading.Thread(target=run, name="tableref-listen", daemon=True)
    handle._thread.start()
    return handle
