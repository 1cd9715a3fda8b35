"""tgus-t: a camera event read otherwise, the events after it completed again.

An amendment of one log line (:func:`vision.handsfree_tgus_t.amendment`)
cannot explain a misreading whose completion shaped the lines after it: a
Gamble said to be a Hit+? turns cards that the completion took for plays, a
Change aimed at another seat makes that seat name the colour. The table keeps
the camera's events as they came (``camera``) and reads them again from the
start, each through a fresh completion and referee as the table itself does
(:func:`reread`), with one of them read otherwise: a Gamble given an effect
(and a Change's or Replace's target), a Change's or Replace's target another
seat, or a card of its value hidden under a play. :func:`camera_amendment`
tries these, the latest camera event first, among the last
``play.reread_back`` camera events, and keeps the first under which nothing
from that event's on contradicts the log: no line is ruled illegal and no
camera play or draw comes after the game's end
(:func:`vision.handsfree_tgus_t.contradicted`; a tgus-t game is played until
one player is left, so cards seen played after the end say a hand was emptied
too early). Failing those, a camera play of just
the pile's top card before it is read as no play (the top card seen again),
and, the last event first, a camera play by the seat after the one on turn
is read with a play of the seat on turn that the camera missed before it
(:func:`vision.handsfree_tgus_t.unseen_cards`: a card legal on the top card
that makes the seen play legal, marked ``inferred`` and ``unseen``), and a
camera draw by the seat before the one on turn right after the seat on turn
drew for its turn is read with a Reverse Hit+2 of the seat on turn that the
camera missed before it (:func:`vision.handsfree_tgus_t.unseen_hits`).

Each reading reads on from a copy of the table before the event it reads
otherwise, and stops once a line after that event contradicts the log for
good (:func:`_settled`: no later amendment reaches back to it); a search
starts from a copy the search before it kept (:class:`Copies`), so the events
read again are those near the end, not the whole game. The re-reads of a
table read at most ``play.reread_per_event`` camera events for each event kept so
far (:class:`Budget`): a game whose log no reading mends does not pile up
searches.

A re-read takes up to seconds of CPU, so a live table never runs it on the
camera's event callback: :class:`CameraRereads` keeps what reached the table's referee
as it came and queues a job for each camera event that left a line ruled
illegal, and for the first camera play or draw after the game's end; a
:class:`RereadWorker` (one thread) runs the jobs one at a time, in
the order given, each on a copy of the events then kept and the readings then
in force, and hands each reading found back to the table, under its lock, as
a correction: the camera and heard events that came while it ran are read on
after it, so no recorded event is lost or reordered, and the camera events
among them that the reading leaves ruled illegal get jobs of their own. A job
whose readings moved on since it was queued first checks that its event still
leaves a line ruled illegal.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from referee.text import Text

from .config import PlayConfig
from .handsfree import HandsFree
from .handsfree_tgus_t import (_awaiting, _card_text, _next_active, _seat_before,
                                amend_hidden, contradicted, first_after_end,
                                guessed_target, hidden_colours, unsaid_gamble,
                                unseen_cards, unseen_hits, unseen_why)

log = logging.getLogger(__name__)



def reread(header: Mapping[str, Any], camera: list[Mapping[str, Any]],
           changes: Mapping[int, Mapping[str, Any] | None] | None = None,
           config: PlayConfig | None = None) -> tuple[Any, Any, list[int]]:
    """The camera events ``camera`` read again from the start as a table reads
    them (a :class:`vision.handsfree.HandsFree` completion, each line ruled
    illegal amended by :func:`amend_hidden`), camera event ``k`` replaced by
    ``changes[k]`` (``None``: left out). Returns (referee, completion, the
    referee's line count before each camera event)."""
    referee, complete, starts, _ = _read(header, camera, changes, config)
    return referee, complete, starts


def _read(header: Mapping[str, Any], camera: list[Mapping[str, Any]],
          changes: Mapping[int, Mapping[str, Any] | None] | None,
          config: PlayConfig | None, keep: frozenset[int] = frozenset(),
          start: tuple[int, Any] | None = None, after: int | None = None,
          budget: "Budget | None" = None
          ) -> tuple[Any, Any, list[int], dict[int, Any]]:
    """:func:`reread`, keeping a copy of the (referee, completion) before each
    camera event of ``keep``; from ``start``, (k, such a copy), it reads on
    from camera event ``k`` (the reading up to it is the same). Also returns
    the copies. With ``after`` (a line) it stops as soon as a line after it
    contradicts the log for good (:func:`_settled`); ``budget`` counts the
    camera events read."""
    import copy

    from referee.session import Referee

    if start is None:
        first = 0
        referee = Referee(dict(header))
        complete = HandsFree(state=referee.state)
    else:  # the completion reads the copied referee (one deep copy)
        first, (referee, complete) = start[0], copy.deepcopy(start[1])
    starts, kept = _read_on(referee, complete, camera, changes, config, first, keep,
                            after, budget)
    return referee, complete, starts, kept


def _settled(referee: Any, line: int, config: PlayConfig) -> bool:
    """Whether a line after ``line`` contradicts the log
    (:func:`vision.handsfree_tgus_t.contradicted`) for good: no amendment
    (:func:`amend_hidden`) after a line appended later reaches back to it,
    and a line's ruling depends on the lines up to it alone. Such an
    amendment changes the last line, a play within ``play.hidden_back``
    lines before it, or a camera Gamble whose effect was not said within
    ``play.gamble_back`` lines before it (:func:`unsaid_gamble`)."""
    events = referee.events
    reach = len(events) + 1 - config.hidden_back
    for line_no in range(max(1, len(events) + 1 - config.gamble_back), reach):
        if unsaid_gamble(events[line_no - 1]) or guessed_target(events[line_no - 1]):
            reach = line_no
            break
    return contradicted(referee, line, before=reach)


def _read_on(referee: Any, complete: Any, camera: list[Mapping[str, Any]],
             changes: Mapping[int, Mapping[str, Any] | None] | None,
             config: PlayConfig | None, first: int,
             keep: frozenset[int] = frozenset(), after: int | None = None,
             budget: "Budget | None" = None
             ) -> tuple[list[int], dict[int, Any]]:
    """Camera events ``first`` on read into ``referee`` through ``complete``
    (both changed): the referee's line count before each, and the copies of
    (referee, completion) kept before those of ``keep``. With ``after`` (a
    line) it stops once a line after it contradicts the log for good
    (:func:`_settled`); ``budget`` counts the camera events read."""
    import copy

    changes = changes or {}
    config = config or PlayConfig()
    starts: list[int] = []
    kept: dict[int, Any] = {}
    for k in range(first, len(camera)):
        event = camera[k]
        if budget is not None:
            budget.read += 1
        if k in keep:
            kept[k] = copy.deepcopy((referee, complete))
        starts.append(len(referee.events))
        ev = changes.get(k, event) if k in changes else event
        if ev is None:
            continue
        first = ev.get("type") == "start" and referee.state().get("top") is None
        feed = [dict(ev)] if first else complete(ev, referee.state)
        for e in feed:
            try:
                referee.append(e)
            except Exception:  # noqa: BLE001 - a malformed event: the game goes on
                continue
            amend_hidden(referee, config)
        if after is not None and _settled(referee, after, config):
            break
    return starts, kept


def _asks(referee: Any, start: int, end: int) -> bool:
    """Whether one camera event's lines (``start + 1 .. end``) ask for a
    re-read: one is ruled illegal, or it is the first camera play or draw
    after the game's end (those after it ask nothing more)."""
    return any(start < r.event <= end and r.ruling == "illegal"
               for r in referee.rulings) or first_after_end(referee, start, end)


def _readings(event: Mapping[str, Any], players: list[str]
              ) -> list[tuple[dict[str, Any], Text]]:
    """The other readings of one camera event, each with its reason."""
    from referee.cards import Card
    from referee.tgus_t.cards import GAMBLE_EFFECTS
    from referee.tgus_t.common import DECK_LABELS

    if event.get("type") != "play":
        return []
    cards = [str(c) for c in event.get("cards") or []]
    seat = event.get("player") or event.get("reach_from")
    others = [p for p in players if p != seat]
    out: list[tuple[dict[str, Any], Text]] = []
    if cards == ["gamble"] and "effect" not in event:
        for effect in GAMBLE_EFFECTS:
            if effect in ("wild", "counter"):
                continue
            for target in (others if effect in ("change", "replace") else [None]):
                why = Text("camera.tgus-t.amended-gamble", player=str(seat),
                           effect=effect)
                ev = {**event, "effect": effect}
                if target is not None:
                    ev["target"] = target
                out.append((ev, why))
    if any(c in ("change", "replace") for c in cards) and "target" not in event:
        for target in others:
            why = Text("camera.tgus-t.amended-target", card=_card_text(cards[0]),
                       target=target)
            out.append(({**event, "target": target}, why))
    try:
        seen = [Card.from_label(c) for c in cards]
    except ValueError:
        seen = []
    if seen and all(c.color is not None and c.value == seen[0].value for c in seen):
        for colour in hidden_colours(seen):
            hidden = f"{colour}-{seen[0].value}"
            if hidden in DECK_LABELS:
                why = Text("camera.tgus-t.amended-hidden", player=str(seat),
                           hidden=_card_text(hidden))
                out.append(({**event, "cards": [hidden] + cards}, why))
    return out


def _top_again(event: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
    """A camera play of nothing but the pile's top card (``state``: the
    referee's before it): it may be that card seen again (an arm over the
    pile, a card below read as the new one), read as no play."""
    cards = [str(c) for c in event.get("cards") or []]
    top = state.get("top")
    return event.get("type") == "play" and bool(cards) and top is not None and all(
        c == top for c in cards)


def _unseen_readings(event: Mapping[str, Any], state: Mapping[str, Any],
                     players: list[str], before: Mapping[str, Any] | None = None
                     ) -> list[tuple[dict[str, Any], Text]]:
    """A camera play by the seat after the one on turn (``state``: the
    referee's before it, waiting for nothing) read with a play of the seat on
    turn that the camera missed before it, one reading a card
    (:func:`vision.handsfree_tgus_t.unseen_cards`). A camera draw by the
    seat before the one on turn, owing nothing, right after the seat on turn
    drew for its turn (``before``: the log's last line) is read likewise with
    a Reverse Hit+2 of the seat on turn
    (:func:`vision.handsfree_tgus_t.unseen_hits`): the card drawn was played
    at once, unseen, and turned the play back onto the drawer. (The next
    seat's draw there is the drawer's pass and its own turn draw.)"""
    if event.get("type") not in ("play", "draw") or event.get("unseen"):
        return []
    seat = event.get("player") or event.get("reach_from")
    turn = state.get("turn")
    if (
        seat not in players or turn is None or seat == turn or state.get("over")
        or _awaiting(state)[0] is not None or state.get("pending_draw")
    ):
        return []
    if event["type"] == "draw":  # cards taken as after a Hit the camera missed
        if (state.get("owed") or {}).get(seat) or before is None or (
                before.get("type") != "draw" or before.get("player") != turn
                or _seat_before(state, str(turn)) != seat):
            return []
        cards = unseen_hits(state)
    elif _next_active(state, str(turn)) != seat:
        return []
    else:
        cards = unseen_cards([str(c) for c in event.get("cards") or []], state)
    return [({**event, "unseen": {"seat": turn, "card": card}},
             unseen_why(event, turn, card)) for card in cards]


def camera_amendment(header: Mapping[str, Any], camera: list[Mapping[str, Any]],
                     changes: Mapping[int, Mapping[str, Any] | None] | None = None,
                     config: PlayConfig | None = None, last: int | None = None,
                     only_if_illegal: bool = False, budget: "Budget | None" = None,
                     copies: "Copies | None" = None
                     ) -> tuple[dict[int, Any], Any, Any] | None:
    """The camera's event ``last`` (default: the last of ``camera``) left a
    line ruled illegal that no one-line amendment explains (or came after the
    game's end, :func:`_asks`): one camera event
    among the last ``play.reread_back`` before it read otherwise (see the
    module docstring), the latest first, under which the log read again
    (:func:`reread`) holds nothing from that event's on that contradicts it
    (:func:`vision.handsfree_tgus_t.contradicted`). Events of
    ``camera`` from another source (heard, ``source`` not ``vision``) are
    read again as they came, never otherwise, and are not counted. Returns
    (the changes, with this one, the referee and the completion of that
    reading: the table carries on with them), or ``None``. With
    ``only_if_illegal`` (the changes are others than those under which the
    line was ruled illegal) ``None`` also when, read with ``changes``,
    nothing from that event's on contradicts the log. ``budget`` (a
    :class:`Budget`) ends the search with ``None`` once spent (the reading
    under way read to its end). ``copies`` (a :class:`Copies`) holds copies
    of the reading an earlier search kept: this one reads on from the latest
    that reads as it would, and leaves its own there."""
    config = config or PlayConfig()
    changes = dict(changes or {})
    players = [str(p) for p in header.get("players") or []]
    last = len(camera) - 1 if last is None else last
    window = []  # the camera events that may be read otherwise, latest first
    for k in range(last - 1, -1, -1):
        if camera[k].get("source", "vision") != "vision":
            continue  # what was heard is taken as given
        if len(window) == config.reread_back:
            break
        window.append(k)
    tries = {k: _readings(changes.get(k, camera[k]) if k in changes else camera[k],
                          players)
             for k in window if k not in changes and camera[k] is not None}
    # a play the camera missed, before the camera plays from the last back
    # (a draw only right after a camera draw: the turn draw it may follow)
    unseen = [k for k in [last] + window if k not in changes and camera[k] is not None
              and (camera[k].get("type") == "play" or (
                  camera[k].get("type") == "draw" and k > 0
                  and (camera[k - 1] or {}).get("type") == "draw"))]
    # each reading reads on from a copy of the table before its event
    keep = frozenset([k for k in tries if tries[k]] + unseen + [last])
    hit = None if copies is None else copies.before(camera, changes, config, min(keep))
    if hit is None:
        base, _, starts, kept = _read(header, camera, changes, config, keep=keep,
                                      budget=budget)
    else:
        base, _, tail, kept = _read(header, camera, changes, config, keep=keep,
                                    start=hit[:2], budget=budget)
        starts = hit[2] + tail
    if copies is not None:
        copies.keep(camera, changes, config, starts, kept)
    if only_if_illegal and not contradicted(base, starts[last]):
        return None
    order = [(k, tries.get(k, [])) for k in window]
    order += [(k, [(None, None)]) for k in unseen if k != last
              and _top_again(camera[k], kept[k][0].state())]
    order += [(k, _unseen_readings(camera[k], kept[k][0].state(), players,
                                   (kept[k][0].events or [None])[-1]))
              for k in unseen]
    for k, readings in order:
        for reading, why in readings:
            if budget is not None and budget.spent:
                return None
            if reading is not None:
                reading = {**reading, "inferred": str(why),
                           "inferred_msg": why.data()}
            tried = {**changes, k: reading}
            referee, complete, _, _ = _read(header, camera, tried, config,
                                            start=(k, kept[k]), after=starts[k],
                                            budget=budget)
            if not contradicted(referee, starts[k]):
                return tried, referee, complete
    return None


@dataclass
class Copies:
    """Copies of a reading that one search (:func:`camera_amendment`) kept
    for the next: the camera events and readings they were read under
    (:attr:`camera`, :attr:`changes`, :attr:`config`), the referee's line
    count before each camera event (:attr:`starts`) and the (referee,
    completion) before some of them (:attr:`copies`, never changed: a
    reading reads on from a copy of one)."""

    camera: list[Any] = field(default_factory=list)
    changes: dict[int, Any] = field(default_factory=dict)
    config: Any = None
    starts: list[int] = field(default_factory=list)
    copies: dict[int, Any] = field(default_factory=dict)

    def before(self, camera: list[Mapping[str, Any]], changes: Mapping[int, Any],
               config: PlayConfig, upto: int) -> tuple[int, Any, list[int]] | None:
        """The latest copy, before camera event k <= ``upto``, that the reading
        of ``camera`` under ``changes`` and ``config`` has too (the same
        events and readings before k): (k, the copy, the line counts before
        the events before k); ``None``: none."""
        if config != self.config:
            return None
        for k in sorted(self.copies, reverse=True):
            if k > upto or k > len(camera) or camera[:k] != self.camera[:k]:
                continue
            if ({c: v for c, v in changes.items() if c < k}
                    == {c: v for c, v in self.changes.items() if c < k}):
                return k, self.copies[k], self.starts[:k]
        return None

    def keep(self, camera: list[Mapping[str, Any]], changes: Mapping[int, Any],
             config: PlayConfig, starts: list[int], copies: dict[int, Any]) -> None:
        """Keep these in place of those kept before."""
        self.camera, self.changes, self.config = list(camera), dict(changes), config
        self.starts, self.copies = list(starts), dict(copies)


@dataclass
class Budget:
    """How many camera events a re-read may read (:attr:`allowed`) and has
    read (:attr:`read`)."""

    allowed: float
    read: int = 0

    @property
    def spent(self) -> bool:
        return self.read >= self.allowed


class RereadWorker:
    """Re-read jobs run one at a time, in the order given, off the caller's
    thread. A job is ``work()`` (the re-read, which holds no lock of the
    table's) and ``done(result)`` (the table takes the result); a job queued by
    ``done`` runs after those queued before it.

    Args:
        mode: ``"thread"``: one daemon thread, started with the first job;
            ``"inline"``: each job runs in the caller's thread as it is
            queued (jobs queued while one runs follow it); ``"manual"``: the
            jobs wait until :meth:`run_pending` (or :meth:`wait`) runs them in
            the caller's thread. The last two make the order of a table's
            events and re-reads exact (tests).
    """

    MODES = ("thread", "inline", "manual")

    def __init__(self, mode: str = "thread") -> None:
        if mode not in self.MODES:
            raise ValueError(f"a re-read worker's mode is one of {self.MODES}, "
                             f"not {mode!r}")
        self.mode = mode
        self._jobs: deque[tuple[Callable[[], Any], Callable[[Any], Any]]] = deque()
        self._cond = threading.Condition()
        self._busy = False  # a job is running in the thread
        self._closed = False
        self._thread: threading.Thread | None = None
        self._here = threading.local()  # run_pending is running in this thread

    @property
    def pending(self) -> int:
        """Jobs queued or running."""
        with self._cond:
            return len(self._jobs) + int(self._busy)

    def submit(self, work: Callable[[], Any], done: Callable[[Any], Any]) -> None:
        """Queue one job (see the class docstring for when it runs)."""
        with self._cond:
            self._jobs.append((work, done))
            if self.mode == "thread" and self._thread is None and not self._closed:
                self._thread = threading.Thread(target=self._loop, daemon=True,
                                                name="tgus-t re-read")
                self._thread.start()
            self._cond.notify_all()
        if self.mode == "inline":
            self.run_pending()

    def run_pending(self) -> None:
        """Run the queued jobs in this thread, in order, and those they queue
        (called from within a job it returns at once: the outer call runs them)."""
        if getattr(self._here, "running", False):
            return
        self._here.running = True
        try:
            while True:
                with self._cond:
                    if not self._jobs:
                        return
                    job = self._jobs.popleft()
                _run(job)
        finally:
            self._here.running = False

    def wait(self) -> None:
        """Until every job queued, and every job they queued, is done."""
        if self.mode != "thread" or self._thread is None:
            self.run_pending()
            return
        with self._cond:
            while self._jobs or self._busy:
                self._cond.wait()

    def close(self) -> None:
        """:meth:`wait`, then end the thread."""
        self.wait()
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join()

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._jobs and not self._closed:
                    self._cond.wait()
                if not self._jobs:
                    return
                job = self._jobs.popleft()
                self._busy = True
            try:
                _run(job)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()


def _run(job: tuple[Callable[[], Any], Callable[[Any], Any]]) -> None:
    work, done = job
    try:
        done(work())
    except Exception:  # noqa: BLE001 - a failed re-read leaves the table as it is
        log.exception("a tgus-t re-read failed; the log stays as it was")


@dataclass
class Reading:
    """A re-read found, read on to the last event kept: what the table carries
    on with."""

    #: the camera events read otherwise (index in ``fed`` -> the reading)
    changes: dict[int, Any]
    #: the referee and the completion of that reading
    referee: Any
    complete: Any
    #: the indices of ``changes`` this re-read added
    new: list[int] = field(default_factory=list)


class CameraRereads:
    """A tgus-t table's re-reads (see the module docstring): :attr:`fed`, what
    reached its referee as it came (camera events before completion, heard and
    entered events as appended), :attr:`changes`, the readings in force, and
    the jobs that look for more, run by :attr:`worker`.

    The table feeds it (:meth:`camera`, :meth:`heard`), asks for a re-read of
    a camera event that left a line ruled illegal (:meth:`request`) and, with
    its lock released, calls :meth:`flush` to queue what it asked for. A
    reading found is read on over the events kept since and handed to
    ``apply`` (a :class:`Reading`) under ``lock``; the table then carries on
    with that reading's referee and completion.

    The re-reads queued and not yet done are kept in :attr:`jobs` (with those
    asked for and not yet queued, :attr:`asked`), and what it holds is data
    (:meth:`state`) that :meth:`parse_state` reads back and :meth:`restore`
    takes up, the re-reads asked for and not done queued again by the next
    :meth:`flush`: a table that saves its state and is started again makes
    the same re-reads.

    Args:
        header: the table-log header.
        lock: the table's lock (held while the table appends or takes a
            reading; a job copies what it reads under it).
        apply: takes a :class:`Reading`, called under ``lock``.
        play: the play settings in force (``reread_back``, ``hidden_back``,
            ``gamble_back``; ``None``: the defaults), read when a job runs.
        worker: runs the jobs (default: a thread of its own).
        changed: called under ``lock`` once a job is done (or failed), so that
            a table that saves :meth:`state` saves it again.
    """

    def __init__(self, header: Mapping[str, Any], lock: Any,
                 apply: Callable[[Reading], Any],
                 play: Callable[[], PlayConfig | None] = lambda: None,
                 worker: RereadWorker | None = None,
                 changed: Callable[[], Any] = lambda: None) -> None:
        self.header = dict(header)
        #: camera events its re-reads read so far (``play.reread_per_event``)
        self.spent = 0.0
        self._copies = Copies()  # one search's copies for the next
        self.lock = lock
        self.apply = apply
        self.play = play
        self.worker = worker or RereadWorker()
        #: what reached the referee, as it came
        self.fed: list[dict[str, Any]] = []
        #: the entries of :attr:`fed` read otherwise (index -> the reading)
        self.changes: dict[int, Any] = {}
        #: how many readings were taken (a job asked under fewer re-checks)
        self.generation = 0
        #: why no more re-reads are taken (the log was changed otherwise)
        self.stopped: str | None = None
        self._due: list[tuple[int, int, int]] = []  # (at, kept, generation)
        self._asked: set[int] = set()
        #: the camera events the last reading taken read on (a range of
        #: :attr:`fed`), and those among them it left ruled illegal
        self._span: tuple[int, int] = (0, 0)
        self._still: set[int] = set()
        #: re-reads handed to the worker and not done: (at, kept, generation)
        self.jobs: list[tuple[int, int, int]] = []
        self.changed = changed

    def camera(self, event: Mapping[str, Any]) -> int:
        """Keep a camera event as it came; its index in :attr:`fed`."""
        self.fed.append(dict(event))
        return len(self.fed) - 1

    def heard(self, event: Mapping[str, Any], at: int | None = None) -> None:
        """Keep an event of another source as it reached the referee: before
        :attr:`fed` index ``at`` (a call that went before its play), else last."""
        if at is None:
            self.fed.append(dict(event))
        else:
            self.fed.insert(at, dict(event))

    def request(self, at: int) -> None:
        """The camera event ``at`` left a line ruled illegal: a re-read of the
        events kept up to now, queued by :meth:`flush`."""
        if at not in self._asked and self.stopped is None:
            self._asked.add(at)
            self._due.append((at, len(self.fed), self.generation))

    def read(self, at: int, event: Mapping[str, Any], referee: Any,
             before: int) -> None:
        """The camera event ``at`` (``event``, as it came) went into
        ``referee`` after its line ``before``: a re-read is asked for when it
        is no round's start and left a line ruled illegal or is the first
        camera play or draw after the game's end (:func:`_asks`)."""
        if event.get("type") != "start" and _asks(referee, before,
                                                  len(referee.events)):
            self.request(at)

    def stop(self, why: str) -> None:
        """No more re-reads (the log was changed otherwise); those asked for
        are dropped, and a reading found is not taken."""
        self.stopped = why
        self._due.clear()

    def flush(self) -> None:
        """Queue the re-reads asked for, each kept in :attr:`jobs` until it is
        done; call it with the table's lock released."""
        with self.lock:
            due, self._due = self._due, []
            self.jobs.extend(due)
        for job in due:
            self.worker.submit(lambda job=job: self._job(job),
                               lambda result, job=job: self._done(job, result))

    @property
    def asked(self) -> list[tuple[int, int, int]]:
        """The re-reads asked for and not done, in the order asked: (the
        camera event, the count of events kept then, the generation then);
        call it under the table's lock."""
        return list(self.jobs) + list(self._due)

    def _job(self, job: tuple[int, int, int]) -> Any:
        try:
            return self._find(*job)
        except Exception:  # a failed re-read is not tried again
            self._forget(job)
            raise

    def _done(self, job: tuple[int, int, int], result: Any) -> None:
        try:
            self._take(result)
        finally:
            self._forget(job)

    def _forget(self, job: tuple[int, int, int]) -> None:
        with self.lock:
            if job in self.jobs:
                self.jobs.remove(job)
            try:
                self.changed()
            except Exception:  # noqa: BLE001 - best effort, logged
                log.warning("the tgus-t re-reads' state was not saved", exc_info=True)

    # -- what it holds, as data (a table started again takes it up) ---------------
    def state(self) -> dict[str, Any]:
        """What it holds, as JSON-ready data (call it under the table's lock,
        while not :attr:`stopped`): the events kept, the readings in force,
        how much the re-reads read, the camera events the last reading read on
        and those it left ruled illegal, and the re-reads asked for and not
        done (:attr:`asked`)."""
        lo, hi = self._span
        return {
            "fed": [dict(e) for e in self.fed],
            "changes": [[int(k), None if v is None else dict(v)]
                        for k, v in sorted(self.changes.items())],
            "generation": int(self.generation),
            "spent": float(self.spent),
            "span": [int(lo), int(hi)],
            "still": sorted(int(k) for k in self._still),
            "asked": [[int(a), int(k), int(g)] for a, k, g in self.asked],
        }

    @staticmethod
    def parse_state(data: Mapping[str, Any],
                    event: Callable[[Any], dict[str, Any]] = dict
                    ) -> dict[str, Any]:
        """:meth:`state`'s data read back and checked, for :meth:`restore`;
        each event kept read by ``event`` (a check that raises on an event it
        refuses).

        Raises:
            ValueError, TypeError, KeyError: data that is not what
                :meth:`state` writes.
        """
        fed = [event(e) for e in data["fed"]]
        changes = {int(k): (None if v is None else event(v))
                   for k, v in data["changes"]}
        lo, hi = (int(n) for n in data["span"])
        asked = [(int(a), int(k), int(g)) for a, k, g in data["asked"]]
        if any(not 0 <= k < len(fed) for k in changes) or any(
                not (0 <= a < len(fed) and 0 <= k <= len(fed)) for a, k, _ in asked):
            raise ValueError("the saved re-reads name events they do not keep")
        return {
            "fed": fed, "changes": changes,
            "generation": int(data["generation"]), "spent": float(data["spent"]),
            "span": (lo, hi), "still": {int(k) for k in data["still"]},
            "asked": asked,
        }

    def restore(self, parsed: Mapping[str, Any]) -> None:
        """Take up what :meth:`parse_state` read (call it under the table's
        lock, before any event is kept): the re-reads asked for and not done
        are queued again, in the order asked, by the next :meth:`flush`."""
        self.fed = [dict(e) for e in parsed["fed"]]
        self.changes = dict(parsed["changes"])
        self.generation, self.spent = parsed["generation"], parsed["spent"]
        self._span, self._still = tuple(parsed["span"]), set(parsed["still"])
        self.jobs = []
        self._due = list(parsed["asked"])
        self._asked = {a for a, _, _ in self._due}

    def wait(self) -> None:
        """Until every re-read asked for is taken or found moot."""
        self.flush()
        self.worker.wait()

    def _find(self, at: int, kept: int, generation: int) -> Any:
        """The job: a reading of the events kept when ``at`` asked."""
        with self.lock:
            self._asked.discard(at)
            if self.stopped is not None:
                return None
            camera = [dict(e) for e in self.fed[:kept]]
            changes, now = dict(self.changes), self.generation
            lo, hi = self._span
            if now != generation and lo <= at < hi and at not in self._still:
                return None  # the reading taken since left its lines legal
            budget = Budget((self.play() or PlayConfig()).reread_per_event
                            * len(self.fed) - self.spent)
        if budget.spent:
            log.info("tgus-t re-read of camera event %d not run: the re-reads "
                     "read %d camera events", at, self.spent)
            return None
        found = camera_amendment(self.header, camera, changes, self.play(),
                                 last=at, only_if_illegal=now != generation,
                                 budget=budget, copies=self._copies)
        with self.lock:
            self.spent += budget.read
        return None if found is None else (found, kept, now)

    def _take(self, result: Any) -> None:
        """A reading found: read on over the events kept since (outside the
        table's lock but for the last few), handed to the table; the camera
        events read on that it leaves ruled illegal ask."""
        if result is None:
            return
        (changes, referee, complete), kept, generation = result
        play, starts, done = self.play(), [], kept
        while True:
            with self.lock:
                if self.stopped is not None or generation != self.generation:
                    return
                fed = self.fed[:]  # the entries before its end no longer move
                if done == len(fed):
                    self._taken(changes, referee, complete, kept, starts)
                    break
            starts += _read_on(referee, complete, fed, changes, play, done)[0]
            done = len(fed)
        self.flush()

    def _taken(self, changes: dict[int, Any], referee: Any, complete: Any,
               kept: int, starts: list[int]) -> None:
        """Under the lock: the reading, read on to the last event kept, taken."""
        new = [k for k in sorted(changes) if k not in self.changes]
        self.changes, self.generation = dict(changes), self.generation + 1
        self._span, self._still = (kept, len(self.fed)), set()
        ends = starts[1:] + [len(referee.events)]
        for k, start, end in zip(range(kept, len(self.fed)), starts, ends):
            e = self.fed[k]
            if e.get("source", "vision") != "vision" or e.get("type") == "start":
                continue
            if not _asks(referee, start, end):
                continue
            self._still.add(k)
            if k not in self._asked:
                self._asked.add(k)
                upto = next((j for j in range(k + 1, len(self.fed))
                             if self.fed[j].get("source", "vision") == "vision"),
                            len(self.fed))
                self._due.append((k, upto, self.generation))
        self.apply(Reading(dict(changes), referee, complete, new))
