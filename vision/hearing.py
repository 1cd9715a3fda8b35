"""Heard events of a recording held until the camera reaches them: :class:`Hearing`.

``tableref watch`` (:class:`vision.live.LiveTable`) and the page's camera path
(``tableref serve``, :mod:`web.recover`) keep one each, so that a video and its
sound track give the same rulings on both.

A heard event (an UNO call, a wild's colour, without a player) is held
(:meth:`Hearing.hear`) until the camera's events reach its time
(:meth:`Hearing.release`), and then gets its player from the referee's state
(the listener's ``Attributor``, :attr:`Hearing.attribute`), which learns from
every camera event when a wild began to wait for its colour
(:meth:`Hearing.after`). A heard colour that names no wild when its time comes
waits up to ``listen.colour_wait_s`` seconds of the camera's clock for the
wild to be seen, tried again after each camera event, the last heard first. A
heard UNO call waits for the camera's next play (up to ``listen.uno_wait_s``
seconds, :meth:`Hearing.calls_before`): a play by a player who then holds two
cards and has not called names the caller (:func:`caller`); any other play,
or none in time, leaves the call to the attributor's rules on the state of
that moment. A **likely** call (``"likely": True``: heard only by the
listener's lower decision, ``voice.detection.SpotterConfig.likely_cut_threshold``)
counts only at a play that leaves its player with one card (a play made with
two cards in hand) at most ``listen.likely_play_s`` seconds from it: the
camera's next play by a player with two cards who has not called, or a play
that took a player down to one card just before the call (the attributor
names that player); anywhere else it is dropped, so a word heard as a call at
any other moment makes no event. :meth:`Hearing.finish` lets out what is
left at the end.

What the hearing learns from the camera's events (who went down to one card
and when, when a wild began to wait for its colour, the calls just heard) is
not a log line of its own: a server started again on a stored game reads it
again from the game's log (:meth:`Hearing.rebuild`), so a likely call whose
player went down to one card before the restart still counts.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping
from typing import Any

from voice.attribution import DownClock, WildClock

from .config import ListenConfig

log = logging.getLogger(__name__)


class Hearing:
    """Heard events waiting for the camera.

    Args:
        append: puts one event in the log; returns its rulings (a list).
        state: the referee's state now.
        listen: the waits (:class:`~vision.config.ListenConfig`) now.
        doubt: whether the referee holds a question open now (the play after
            a call then names the caller whatever the counts say).
    """

    def __init__(
        self,
        append: Callable[[dict[str, Any]], list],
        state: Callable[[], Mapping[str, Any]],
        listen: Callable[[], ListenConfig] = ListenConfig,
        doubt: Callable[[], bool] = lambda: False,
    ):
        self.append = append
        self.state = state
        self.listen = listen
        self.doubt = doubt
        #: heard events waiting for the camera to reach their time
        self.held: list[dict[str, Any]] = []
        #: gives a held heard event without a player its player when released
        #: (voice.bridge.Attributor), or None
        self.attribute: Callable[..., Any] | None = None
        #: heard colours whose time came before the camera saw a wild they can
        #: name, oldest first
        self.waiting: list[dict[str, Any]] = []
        #: heard UNO calls waiting for the camera's next play, oldest first
        self.calls: list[dict[str, Any]] = []
        #: when each player last went down to one card by a play (camera
        #: time), from the hand counts at each camera event
        self.downs = DownClock()

    def hear(self, event: Mapping[str, Any]) -> None:
        """Hold a heard event until the camera's events reach its time."""
        self.held.append(dict(event))
        self.held.sort(key=lambda e: float(e.get("t", 0)))

    def release(self, t: float) -> list:
        """The held events up to camera time ``t`` into the log (a call to
        wait for the next play, a colour to wait for its wild)."""
        rulings: list = []
        while self.held and float(self.held[0].get("t", 0)) <= t:
            heard = self.held.pop(0)
            event: dict[str, Any] | None = heard
            if self.attribute is not None and "player" not in heard:
                if heard.get("type") == "uno":
                    self.calls.append(heard)  # the play it comes with is next
                    continue
                event = self.attribute(heard, self.state())
                if event is None and heard.get("type") == "color":
                    self.waiting.append(heard)  # its wild may not be seen yet
                    continue
            if event is not None:
                rulings += self.append(event)
        return rulings

    def after(self, seen: float, now: float) -> list:
        """After a camera event seen at ``seen`` was appended at camera time
        ``now``: the attributor learns when a wild began to wait, the players
        who went down to one card are noted (a likely call's play), and heard
        colours waiting for their wild are tried again."""
        if self.attribute is None:
            return []
        state = self.state()
        self.downs.observe(state, seen)
        observe = getattr(self.attribute, "observe", None)
        if observe is not None:  # when a wild began to wait
            observe(state, seen)
        return self.retry(now)

    def rebuild(self, referee: Any, new_game: bool = False) -> None:
        """What :meth:`after` learns from the camera's events, read again
        from a game's log (``referee``: a :class:`referee.session.Referee`
        holding it), as if this hearing had followed the game from its start
        (a server started again on a stored game, ``web.pending``): the log
        is replayed (:meth:`voice.attribution.DownClock.read`, the listener's
        mechanism too), and after each camera line (:func:`camera_time`) the
        players who went down to one card (:attr:`downs`) and the wild
        waiting for its colour (the attributor's ``observe``) are noted at
        that line's time; the attributor's recent calls (its repeat check)
        are the log's last heard lines that name a player. What was noted
        before is replaced. ``new_game``: the game changed under this hearing
        (a new one begun, another resumed; as the listener's
        ``voice.bridge.ListenHandle.rebuild``): the events still held or
        waiting (:attr:`held`, :attr:`waiting`, :attr:`calls`) were heard in
        the last game and make no event in this one (said in the server's
        log); else (this hearing's first game, a restart's) they are kept."""
        if new_game:
            for name in ("held", "waiting", "calls"):
                for heard in getattr(self, name):
                    log.info("heard %r at %.2f s in the last game, no event in "
                             "this one", heard.get("type"), float(heard.get("t", 0)))
            self.held, self.waiting, self.calls = [], [], []
        clock = getattr(self.attribute, "clock", None)
        if isinstance(clock, WildClock):  # noted again from the log's start
            self.attribute.clock = WildClock(clock.after)
        observe = getattr(self.attribute, "observe", None)
        self.downs = DownClock.read(referee, camera_time, observe)
        recent = getattr(self.attribute, "recent", None)
        if isinstance(recent, list):
            recent[:] = [dict(e) for e in referee.events
                         if e.get("source") == "voice" and e.get("player") is not None
                         and e.get("type") in ("uno", "color")][-20:]

    def near_down(self, player: Any, t: float) -> bool:
        """Whether ``player`` went down to one card by a play at most
        ``listen.likely_play_s`` seconds from camera time ``t``."""
        return self.downs.near(str(player), t, self.listen().likely_play_s)

    def retry(self, now: float, last: bool = False) -> list:
        """Heard colours waiting for their wild, tried again at camera time
        ``now``, the last heard first; those waited out (or all, ``last``)
        are dropped."""
        rulings: list = []
        left = []
        for heard in reversed(self.waiting):
            t = float(heard.get("t", 0))
            event = self.attribute(heard, self.state()) if self.attribute else None
            if event is not None:
                when = t if now == float("inf") else max(t, now)
                rulings += self.append({**event, "t": round(when, 3)})
            elif not last and now - t <= self.listen().colour_wait_s:
                left.append(heard)
        self.waiting = left[::-1]
        return rulings

    def calls_before(self, now: float, event: Mapping[str, Any] | None) -> list:
        """Heard UNO calls waiting for the camera's next play: ``event`` (the
        camera's, about to be appended; None at the end) names the caller when
        it is a play by a player with two cards who has not called; any other
        play, the end, or a call waited out (``listen.uno_wait_s``) goes to
        the attributor with the state of now. A likely call waits only
        ``listen.likely_play_s``, is named by such a play only that close to it
        (the counts decide even while a question is open), and the attributor
        may give it only to a player who went down to one card that close to
        it; else it is dropped."""
        rulings: list = []
        left = []
        play = event if event is not None and event.get("type") == "play" else None
        for call in self.calls:
            likely = bool(call.get("likely"))
            listen = self.listen()
            wait = listen.likely_play_s if likely else listen.uno_wait_s
            state = self.state()
            doubt = self.doubt() and not likely
            who = caller(play, state, doubt) if play is not None else None
            if who is not None and now - float(call.get("t", 0)) <= wait:
                out: dict[str, Any] | None = {**call, "player": who}
                recent = getattr(self.attribute, "recent", None)
                if isinstance(recent, list):  # the attributor's repeat check
                    recent.append(out)
                    del recent[:-20]
            elif play is not None or event is None or (
                now - float(call.get("t", 0)) > wait
            ):
                out = self._attributed(call, state, likely)
            else:
                left.append(call)
                continue
            if out is not None:
                rulings += self.append(out)
        self.calls = left
        return rulings

    def _attributed(self, call: dict[str, Any], state: Mapping[str, Any],
                    likely: bool) -> dict[str, Any] | None:
        """The attributor's answer for a waiting call; a likely call only
        where its player went down to one card close to it."""
        if self.attribute is None:
            return None
        if not likely:
            return self.attribute(call, state)
        t = float(call.get("t", 0))
        return self.attribute(call, state, accept=lambda p: None if self.near_down(
            p, t) else f"a likely call, but {p} went down to one card by no play "
                       f"within {self.listen().likely_play_s:g} s of it")

    def finish(self) -> list:
        """The end of the recording: everything still held or waiting goes
        in (or is dropped) now."""
        rulings = self.release(float("inf"))
        rulings += self.calls_before(float("inf"), None)
        return rulings + self.retry(float("inf"), last=True)


def camera_time(event: Mapping[str, Any]) -> float | None:
    """A camera line's time (``"source": "vision"`` with a finite ``t``): the
    clock a recording's hearing notes the camera's events on; ``None`` for
    another line."""
    t = event.get("t")
    if event.get("source") != "vision" or isinstance(t, bool) or \
            not isinstance(t, (int, float)) or not math.isfinite(t):
        return None
    return float(t)


def caller(
    play: Mapping[str, Any], state: Mapping[str, Any], doubt: bool = False
) -> str | None:
    """The player a camera ``play`` shows calling UNO with it: its player (the
    turn's when the arm was not attributed) holds two cards and has not called,
    and nobody who went down to one card without calling may be calling late;
    else None. With ``doubt`` (the referee holds a question open, so an event
    it holds changed no hand and its counts may be off) the play's player is
    the caller whatever the counts say; the referee rules the call as it sees
    it."""
    who = play.get("player", state.get("turn"))
    if who is None:
        return None
    if doubt:
        return str(who)
    counts = state.get("hand_counts") or {}
    called = {str(p) for p in state.get("uno") or ()}
    late = [p for p in state.get("catchable") or () if str(p) not in called]
    if late or str(who) in called or counts.get(who) != 2:
        return None
    return str(who)
