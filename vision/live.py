"""The referee side of a camera session: :class:`LiveTable`.

``tableref watch`` and ``tableref demo`` feed the pipeline's events to a live
:class:`referee.session.Referee` through a :class:`LiveTable`, which prints
each ruling as it happens, writes the table log, and switches the round-end
scoring scan on when the referee asks for the losers' hands.

Each event goes through the table's :class:`vision.completion.Completion`, the
completion loop the page's camera path (``tableref serve``) takes its camera
events through too; this table gives it its hooks (:meth:`LiveTable.put`: a
line to the referee, the log file and the printed rulings;
:meth:`LiveTable.adopt`: a reading of the log carried on with;
:meth:`LiveTable.amend`: a tgus-t line amended by one line).

Camera events are completed first (:class:`vision.handsfree.HandsFree`): the
player from the arm that reached, a ``pass`` inferred for a player who drew
when the next seat acts, a wild's colour inferred from the next play, and a
copy of the top card put down by the player who has just drawn held until the
camera's next move says whether it stands (the table's hook then tries heard
colours again, so one heard while the copy was held names it). An
inferred event's printed ruling ends with ``[inferred: why]`` unless the
referee's text says it already; an event the
evidence cannot settle carries a ``question``, printed as ``[ask]`` with the
answers it offers and kept in :attr:`LiveTable.questions` (line, question);
:attr:`LiveTable.asked` keeps the same questions as data (their message, their
answers, and whether the referee holds them open).

Where the camera's plays after a line say how it went (a round the count
ended while the plays go on, a question the plays after it answered), the log
is read again (:class:`vision.recoveries.Recoveries`, the component the page's
camera path keeps too, so that ``serve`` rules a video as ``watch`` does): the
table carries on with that reading, prints it as ``[amended]`` with the
rulings that changed, and writes the log again.

Heard events of a recording (:meth:`LiveTable.hear`; held by
:class:`vision.hearing.Hearing`, the component the page's camera path keeps
too, so that ``serve`` hears a sound track as ``watch`` does) wait for the
camera to reach their time, and then get their player from the referee's state (the
listener's ``Attributor``), which learns from every camera event when a wild
began to wait for its colour. A colour is often said before the camera has
seen the wild land (the card is still in the hand, or the pile's top is being
confirmed): a heard colour that names no wild when its time comes waits up to
:attr:`LiveTable.colour_wait` seconds of the camera's clock for the wild to be
seen, tried again after each camera event, the last heard first (so "red...
no, blue" names it blue). An UNO call comes with the caller's next-to-last
card, which the camera sees land after the call: a heard call waits for the
camera's next play (up to :attr:`LiveTable.uno_wait` seconds), and a play by a
player who then holds two cards and has not called names the caller (unless
a player who went down to one card without calling may be calling late); any
other play, or none in time, leaves the call to the attributor's rules on the
state of that moment. While the referee holds a question open (an event it
holds changed no hand, so its counts may be off), the play that follows the
call names the caller whatever the counts say. That tells the player to move
who drew and passes from the next player, both with two cards, by who plays.

A tgus-t table (the 東幻符闘祭 deck) keeps what reached its referee as it came
(:attr:`LiveTable.fed`: the camera's events before completion, heard events as
attributed). A camera event whose lines are ruled illegal is first amended by
one line (:func:`vision.handsfree_tgus_t.amendment`); failing that, an earlier
camera event is read otherwise and everything after it completed again
(:func:`vision.reread_tgus_t.camera_amendment`: a Gamble's unheard effect, a
Change's or Replace's target, a card hidden under a play). That re-read takes
seconds, so it runs off the camera's callback
(:class:`vision.reread_tgus_t.CameraRereads`, one worker thread, jobs in
order): the table goes on appending, and when a reading is found it carries on
with that reading's referee and completion, read on over the events that came
meanwhile; it prints what was read otherwise as ``[amended]`` (the changed
event keeps the reason, ``inferred`` and its message) with the rulings that
changed, and writes the log file again as the referee now holds it.
:meth:`LiveTable.finish` (and :meth:`LiveTable.close`) first waits for the
re-reads asked for, so the final log holds every one.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, TextIO

from referee.game import GameError, reason
from referee.log import LogError, dump_event
from referee.session import Referee
from referee.text import Text, render_data

from .completion import Completion
from .config import ListenConfig, PlayConfig
from .handsfree import Asked, HandsFree, RoundEnd
from .handsfree_tgus_t import TGUS_T_RULES
from .hearing import Hearing
from .recoveries import Recoveries
from .reread_tgus_t import CameraRereads, Reading, RereadWorker


class GameRefused(ValueError):
    """A live table's new game that the referee refuses to start: an unknown
    game or preset, or header options the game cannot use (every one named
    with what it may be, :class:`referee.game.OptionsRefused`). Its text is
    the page's sentence for the same refusal, "cannot start this game: ..."
    (``game.cannot-start``, a catalogue text: :meth:`render` says it in
    another language); :attr:`cause` is the referee's own error."""

    def __init__(self, cause: GameError):
        self.text = Text("game.cannot-start", why=reason(cause))
        super().__init__(self.text)
        self.cause = cause

    def render(self, lang: str = "en") -> str:
        """The refusal in ``lang``."""
        return self.text.render(lang)


class LiveTable:
    """Events in, rulings out: the referee side of a camera session.

    A live table starts a new game: a header whose options the game cannot
    use is refused (:class:`GameRefused`), as the page refuses a new game;
    with ``new=False`` (a stored log's header, read again) such an option is
    an ``info`` ruling and the preset's value holds, as when the page resumes
    a stored game.

    Args:
        header: the table-log header.
        out: where rulings are printed (one line each); standard output by default.
        log_path: the table log to write (header first), or ``None``.
        config: how long heard events wait for the camera
            (:class:`~vision.config.ListenConfig`); ``None``: the attached
            pipeline's ``config.listen``, else the defaults.
        play: how far back a tgus-t amendment looks
            (:class:`~vision.config.PlayConfig`); ``None``: the attached
            pipeline's ``config.play``, else the defaults.
        reread_mode: how a tgus-t table runs its re-reads
            (:class:`~vision.reread_tgus_t.RereadWorker`'s mode): ``"thread"``
            (one worker thread), ``"inline"`` (on the caller's thread, at
            once) or ``"manual"`` (when :meth:`wait_rereads` is called).
        new: the header starts a new game (``watch``): its options are
            checked; ``False``: tolerated as a stored log's are.

    Raises:
        GameRefused: a new game the referee refuses to start.
        LogError: a header that is no header.
    """

    def __init__(
        self,
        header: dict[str, Any],
        out: TextIO | None = None,
        log_path: str | None = None,
        config: ListenConfig | None = None,
        play: PlayConfig | None = None,
        reread_mode: str = "thread",
        new: bool = True,
    ):
        self._listen = config
        self._play = play
        try:
            self.referee = Referee(header, new=new)
        except GameError as exc:  # before the log file is opened
            raise GameRefused(exc) from exc
        #: the completion loop of camera events (:class:`vision.completion.Completion`,
        #: the page's camera path takes its events through one too); this
        #: table is its :class:`vision.completion.Table`
        self.completion = Completion(self)
        #: camera events completed from the state; a drawn copy of the top
        #: card held until the camera's next move (:class:`HandsFree`)
        self.handsfree = HandsFree(state=self.referee.state,
                                   on_stood=self.completion.stood)
        self._out = out
        self.log = open(log_path, "w", encoding="utf-8") if log_path else None
        if self.log:
            self.log.write(dump_event(self.referee.header.to_dict()) + "\n")
            self.log.flush()
        self.pipeline: Any = None
        self.lock = threading.Lock()
        #: (log line, question) for every event the evidence could not settle
        self.questions: list[tuple[int, str]] = []
        #: the same questions as data: ``{"line", "question", "question_msg",
        #: "answers", "open"}`` (``open``: the referee asked it, a ``pending``
        #: ``<preset>.question`` ruling, rather than finding it moot)
        self.asked: list[dict[str, Any]] = []
        #: heard events of a recording held until the camera reaches them
        #: (:class:`vision.hearing.Hearing`, the page's camera path keeps one too)
        self.hearing = Hearing(self._append, lambda: self.referee.state(),
                               lambda: self.listen,
                               lambda: any(q.get("open") for q in self.asked))
        #: a listener reading a recording (``heard_until``): the camera's
        #: events wait until it has heard up to their time
        self.listener: Any = None
        #: tgus-t: the re-reads (what reached the referee as it came, the
        #: readings in force, the jobs); ``None`` otherwise
        self.rereads: CameraRereads | None = None
        if self.referee.header.rules in TGUS_T_RULES:
            self.rereads = CameraRereads(
                self.referee.header.to_dict(), self.lock, self._take_reading,
                play=lambda: self.play, worker=RereadWorker(reread_mode))
        #: a round ended on a camera play and a question the plays may answer,
        #: and the readings of the log they lead to (the page keeps one too)
        self.recoveries = Recoveries(on=self.rereads is None)

    @property
    def attribute(self) -> Callable[..., Any] | None:
        """Gives a held heard event without a player its player when released
        (voice.bridge.Attributor), or None."""
        return self.hearing.attribute

    @attribute.setter
    def attribute(self, value: Callable[..., Any] | None) -> None:
        self.hearing.attribute = value

    @property
    def held(self) -> list[dict[str, Any]]:
        """Heard events waiting for the camera to reach their time."""
        return self.hearing.held

    @property
    def waiting(self) -> list[dict[str, Any]]:
        """Heard colours waiting for a wild they can name, oldest first."""
        return self.hearing.waiting

    @property
    def calls(self) -> list[dict[str, Any]]:
        """Heard UNO calls waiting for the camera's next play, oldest first."""
        return self.hearing.calls

    @property
    def round_end(self) -> RoundEnd | None:
        """The round the referee ruled won on a camera play, no hand shown
        since, with what came after it (:func:`vision.handsfree.went_on`)."""
        return self.recoveries.round_end

    @property
    def asked_play(self) -> Asked | None:
        """A camera play held as a question that the plays after it may
        answer (:func:`vision.handsfree.answered`), with what came after it."""
        return self.recoveries.asked

    @property
    def went_on(self) -> list[int]:
        """The log lines of the draws inferred where a round went on, or
        where the plays after a question answered it."""
        return self.recoveries.lines

    @property
    def fed(self) -> list[dict[str, Any]]:
        """tgus-t: what reached the referee, as it came (camera events before
        completion, heard events as attributed), to be read again; empty
        otherwise."""
        return self.rereads.fed if self.rereads is not None else []

    @property
    def changes(self) -> dict[int, Any]:
        """The entries of :attr:`fed` read otherwise (index -> the reading)."""
        return self.rereads.changes if self.rereads is not None else {}

    @property
    def doubt(self) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The camera play held until the camera's next move says whether it
        stands, with what that move must show (``HandsFree.held``)."""
        return self.handsfree.held

    @property
    def set_aside(self) -> list[dict[str, Any]]:
        """The held camera plays that did not stand (``HandsFree.set_aside``)."""
        return self.handsfree.set_aside

    @property
    def listen(self) -> ListenConfig:
        """The waits in force: the table's own, the pipeline's, or the defaults."""
        if self._listen is not None:
            return self._listen
        config = getattr(self.pipeline, "config", None)
        listen = getattr(config, "listen", None)
        return listen if isinstance(listen, ListenConfig) else ListenConfig()

    @property
    def play(self) -> PlayConfig | None:
        """The play settings in force (tgus-t amendments): the table's own, the
        pipeline's, or ``None`` (the defaults)."""
        if self._play is not None:
            return self._play
        config = getattr(self.pipeline, "config", None)
        play = getattr(config, "play", None)
        return play if isinstance(play, PlayConfig) else None

    @property
    def colour_wait(self) -> float:
        """Seconds of the camera's clock a heard colour waits for its wild."""
        return self.listen.colour_wait_s

    @property
    def uno_wait(self) -> float:
        """Seconds of the camera's clock a heard UNO call waits for its play."""
        return self.listen.uno_wait_s

    @property
    def out(self) -> TextIO:
        return self._out if self._out is not None else sys.stdout

    def append(self, event: dict[str, Any]) -> list:
        """Record one event (completed if the camera's), print its rulings; start
        the scan at a round's end. Returns the rulings of every event appended
        (a tgus-t re-read it asks for prints its own when taken)."""
        if event.get("source") == "vision" and self.listener is not None:
            t, waited = float(event.get("t", 0)), 0.0
            while getattr(self.listener, "heard_until", t) < t and waited < 30:
                time.sleep(0.01)
                waited += 0.01
        try:
            with self.lock:
                return self.completion.take(event)
        finally:
            if self.rereads is not None:  # queued with the lock released
                self.rereads.flush()

    # -- the hooks of the completion loop (vision.completion.Table) -------------
    def now(self) -> dict[str, Any]:
        """The referee's state now (called under :attr:`lock`)."""
        return self.referee.state()

    def put(self, event: dict[str, Any]) -> tuple[int, dict[str, Any], list] | None:
        """One line to the referee, the log file and the printed rulings;
        ``None`` (said) for an event that is not one."""
        try:
            rulings = self.referee.append(event)
        except LogError as exc:
            print(
                f"[---] skipped an event that is not one: {exc.message}",
                file=self.out,
            )
            return None
        if self.log:
            self.log.write(dump_event(event) + "\n")
            self.log.flush()
        if self.rereads is not None and event.get("source") != "vision":
            self._feed(event)
        line = len(self.referee.events)
        inferred = str(event.get("inferred") or "")
        for r in rulings:
            # the referee may say it itself; else the printed line says it
            why = f" [inferred: {inferred}]" if inferred not in r.text else ""
            self._say(line, event, r, why)
        if event.get("question"):
            answers = self._note_question(line, event, rulings)
            labels = [render_data(a.get("label"), "en", str(a.get("id", "")))
                      for a in answers]
            offered = f" ({' / '.join(labels)})" if labels else ""
            print(f"[{line:>3}] [ask] {event['question']}{offered}", file=self.out,
                  flush=True)
        return line, event, rulings

    def adopt(self, found: Any) -> list:
        """A reading of the log (:class:`vision.recoveries.Recoveries`: a round
        the referee ruled won on a camera play while the plays went on, or a
        question the plays after it answered): the table carries on with its
        referee, prints the inferred draw and the rulings that changed, and
        writes the log again. Returns the rulings added."""
        old = list(self.referee.rulings)
        self.referee = found.referee
        self.handsfree.read_state = self.referee.state
        why = str(self.referee.events[found.line - 1].get("inferred") or "")
        print(f"[{found.line:>3}] [amended] {why}", file=self.out, flush=True)
        self._rewrite_log()
        self._questions_again()
        new = [r for r in self.referee.rulings if r not in old]
        for r in new:  # the lines ruled otherwise now
            event = self.referee.events[r.event - 1] if 0 < r.event <= len(
                self.referee.events) else {}
            self._say(r.event, event, r, "")
        return new

    def set_scan(self, on: bool) -> None:
        """The pipeline's round-end scan on or off (no pipeline: nothing)."""
        if self.pipeline is not None:
            self.pipeline.set_scan(on)

    def hear(self, event: dict[str, Any]) -> None:
        """A heard event from a recording: held until the camera's events reach
        its time (a recording is heard faster than the video is watched), so
        the log keeps the table's order. :meth:`finish` releases the rest."""
        with self.lock:
            self.hearing.hear(event)

    def wait_rereads(self) -> None:
        """Until every tgus-t re-read asked for is taken or found moot (with
        ``reread_mode="manual"``: run them now)."""
        if self.rereads is not None:
            self.rereads.wait()

    def finish(self, ended: bool = True) -> list:
        """Append what is still held (the end of a recording; a held copy
        with no move after it stands), once the re-reads asked for are taken.
        ``ended``: the source ran out by itself (False: a person stopped it,
        so the game is not read as over; :meth:`Completion.finish`)."""
        self.wait_rereads()
        with self.lock:
            return self.completion.finish(ended)

    def _append(self, event: dict[str, Any]) -> list:
        """One line into the log as the completion loop puts it (told to the
        recoveries, amended); returns its rulings."""
        return self.completion.line(event)

    def amend(self, event: dict[str, Any]) -> list:
        """A tgus-t camera play or draw ruled illegal that a card hidden under
        an earlier play, a Gamble's unheard effect or the top card seen again
        explains (:func:`vision.handsfree_tgus_t.amendment`): that one
        correction is made, printed with what it changed, and the log file
        written again as the referee now holds it. Returns the new rulings."""
        if event.get("source") != "vision" or event.get("type") not in ("play", "draw"):
            return []
        from .handsfree_tgus_t import TGUS_T_RULES, amendment

        if self.referee.header.rules not in TGUS_T_RULES:
            return []
        config = getattr(self.pipeline, "config", None)
        found = amendment(self.referee, getattr(config, "play", None))
        if found is None:
            return []
        action, line, amended = found
        if action == "delete":
            change = self.referee.delete(line)
            print(f"[{line:>3}] [amended] the camera's line {line} taken out: the "
                  "top card seen again", file=self.out, flush=True)
        else:
            change = self.referee.correct(line, amended)
            print(f"[{line:>3}] [amended] {amended.get('inferred', '')}",
                  file=self.out, flush=True)
        self._rewrite_log()
        return list(change.added)

    def _feed(self, event: dict[str, Any]) -> None:
        """Keep a heard event in :attr:`fed` where the referee got it: before
        the camera event being completed when it went before that event's own
        line (a heard call before its play), else last."""
        assert self.rereads is not None
        completion = self.completion
        if completion.before_camera and completion.camera_at is not None:
            self.rereads.heard(event, completion.camera_at)
            completion.camera_at += 1
        else:
            self.rereads.heard(event)

    def _take_reading(self, reading: Reading) -> list:
        """A re-read found (:class:`vision.reread_tgus_t.CameraRereads`, called
        under :attr:`lock`): an earlier camera event read otherwise, under which
        a camera event's lines ruled illegal are not. The table carries on with
        that reading's referee and completion (read on over every event kept),
        prints what was read otherwise and the rulings that changed, and writes
        the log file again. Returns the rulings that reading added."""
        referee, complete = reading.referee, reading.complete
        old = list(self.referee.rulings)
        complete.on_stood = self.completion.stood
        self.referee, self.handsfree = referee, complete
        for k in reading.new:
            why = str((reading.changes[k] or {}).get("inferred") or "")
            line = next((i for i, e in enumerate(referee.events, start=1)
                         if why and e.get("inferred") == why), len(referee.events))
            t = float(self.fed[k].get("t", 0))
            print(f"[{line:>3}] [amended] the camera's event at {t:.1f}s read "
                  f"again: {why}", file=self.out, flush=True)
        self._rewrite_log()
        self._questions_again()
        added = [r for r in referee.rulings if r not in old]
        for r in added:  # the lines ruled otherwise now
            event = referee.events[r.event - 1] if 0 < r.event <= len(
                referee.events) else {}
            self._say(r.event, event, r, "")
        return added

    def _say(self, line: int, event: dict[str, Any], r: Any, why: str) -> None:
        """Print one ruling on ``event`` (log line ``line``)."""
        print(
            f"[{line:>3}] {float(event.get('t', 0)):6.1f}s "
            f"{event.get('source', ''):<6} {r.ruling:<9} "
            f"{r.rule:<24} {r.text}{why}",
            file=self.out,
            flush=True,
        )

    def _questions_again(self) -> None:
        """:attr:`questions` and :attr:`asked` from the log as the referee now
        holds it (after a re-read its lines are others)."""
        self.questions, self.asked = [], []
        for line, event in enumerate(self.referee.events, start=1):
            if event.get("question"):
                self._note_question(line, event, [
                    r for r in self.referee.rulings if r.event == line])

    def _note_question(self, line: int, event: dict[str, Any], rulings: list
                       ) -> list[dict[str, Any]]:
        """Note the question of ``event`` (log line ``line``, its ``rulings``)
        in :attr:`questions` and :attr:`asked`; returns its answers."""
        answers = [a for a in event.get("answers") or [] if isinstance(a, dict)]
        self.questions.append((line, str(event["question"])))
        self.asked.append({
            "line": line,
            "question": str(event["question"]),
            "question_msg": event.get("question_msg"),
            "answers": answers,
            "open": any(r.ruling == "pending" and r.rule.endswith(".question")
                        for r in rulings),
        })
        return answers

    def _rewrite_log(self) -> None:
        """The log file written again as the referee now holds it."""
        if self.log:
            self.log.seek(0)
            self.log.truncate()
            for e in [self.referee.header.to_dict(), *self.referee.events]:
                self.log.write(dump_event(e) + "\n")
            self.log.flush()

    def state(self) -> dict[str, Any]:
        with self.lock:
            return self.referee.state()

    def close(self, ended: bool = True) -> None:
        self.finish(ended)
        if self.rereads is not None:
            self.rereads.worker.close()
        if self.log:
            self.log.close()



def start_listening(spec: str, table: LiveTable, clock: Callable[[], float]) -> Any:
    """Start the voice listener into ``table`` (a microphone, or an audio file
    whose heard events are held until the camera reaches their time); ``None``
    when it cannot run (said on standard error; the camera goes on)."""
    try:
        from voice.bridge import listen_into  # type: ignore[import-not-found]
    except ImportError as exc:
        print(
            f"listening is not available in this installation ({exc}); "
            "going on without it",
            file=sys.stderr,
        )
        return None
    device = file = None
    if spec and Path(spec).is_file():
        file = spec
    elif spec:
        device = int(spec) if spec.isdigit() else spec
    feed = table.hear if file else table.append
    bridge = sys.modules.get("voice.bridge")
    later = getattr(bridge, "Attributor", None)
    if file and later is not None:  # attributed when the camera reaches it
        table.attribute = later(after=table.listen.colour_after_s)
    try:
        handle = listen_into(
            lambda e: feed({**e, "source": e.get("source", "voice")}),
            table.state,
            device=device,
            file=file,
            clock=clock,
            colour_after=table.listen.colour_after_s,
            likely_play=table.listen.likely_play_s,
            **({"attribute_later": True} if table.attribute else {}),
        )
        if file:
            table.listener = handle
        return handle
    except Exception as exc:  # no microphone, unreadable file: the camera goes on
        print(f"cannot listen ({exc}); going on without it", file=sys.stderr)
        return None


def drain(handle: Any, wait_s: float = 30.0) -> None:
    """Let a listener reading a file finish (its thread ends at the file's end);
    stop a microphone."""
    thread = getattr(handle, "_thread", None)
    if thread is not None and getattr(handle, "_mic", None) is None:
        thread.join(wait_s)
    handle.stop()
