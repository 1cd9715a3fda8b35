"""How a camera table takes one camera event: :class:`Completion`.

``tableref watch``'s :class:`vision.live.LiveTable` and the page's camera path
(``tableref serve``, :mod:`web.recover`) both take each camera event through
one :class:`Completion`, so that the two rule a video the same way and a
change to how a camera event is completed is made here alone. What differs
between them is a hook of the table the completion serves (:class:`Table`):
how a line goes into the log (the live table appends it to its referee and
prints it; the page stores it first and announces it), how a reading of the
log is adopted (the live table carries on with its referee; the page stores
it as a correction that undo takes back), and how a tgus-t camera line ruled
illegal is amended by one line.

For each camera event, in this order:

1. the heard events held up to its time are let out
   (:class:`vision.hearing.Hearing`);
2. a tgus-t table keeps it as it came, to be read again
   (:class:`vision.reread_tgus_t.CameraRereads`); the table's
   :class:`vision.recoveries.Recoveries` keeps it after a round end or a
   question;
3. a drawn copy of the top card held for the camera's next move is settled by
   it, and the event itself may be held in turn
   (:class:`vision.handsfree.HandsFree`);
4. its completed lines go in, a tgus-t play holding two turns' cards one piece
   a turn; a heard UNO call waiting for its play goes in just before that play,
   and heard colours waiting for their wild are tried after each piece;
5. a tgus-t re-read is asked for where its lines stay ruled illegal;
6. the log is read again while the recoveries find a reading.

At the end of the camera's source (:meth:`Completion.finish`), a tgus-t game
still under way is read once more: its last play may have held the last card
of its player too (:func:`vision.handsfree_tgus_t.out_together`).

Every line (completed, heard, or of a held copy) goes in through
:meth:`Completion.line`: the table's hook puts it in the log, the recoveries
are told, the round-end scan switched on where its rulings wait for the hands,
and a tgus-t camera line ruled illegal is explained by the multi-play before
it read with another card on top (:func:`vision.handsfree_tgus_t.reordered`,
adopted as a reading of the log: the colour inferred from its first card may
change too), else amended by one line.
"""

from __future__ import annotations

from typing import Any, Mapping, Protocol

from .recoveries import carry_on, wants_hands


class Table(Protocol):
    """What a camera table gives its :class:`Completion`.

    Attributes:
        handsfree: the completion of camera events
            (:class:`vision.handsfree.HandsFree`).
        hearing: heard events held for the camera
            (:class:`vision.hearing.Hearing`), or ``None``.
        recoveries: the log's readings (:class:`vision.recoveries.Recoveries`),
            or ``None`` (the page while paused).
        rereads: a tgus-t table's re-reads
            (:class:`vision.reread_tgus_t.CameraRereads`), or ``None``.
        referee: the referee now.
        play: the play settings in force (``None``: the defaults).
    """

    handsfree: Any
    hearing: Any
    recoveries: Any
    rereads: Any
    referee: Any
    play: Any

    def now(self) -> Mapping[str, Any]:
        """The referee's state now."""

    def put(self, event: dict[str, Any]) -> tuple[int, Mapping[str, Any], list] | None:
        """One line into the log: its line, the event as logged and its
        rulings; ``None`` where the log did not take it."""

    def amend(self, event: Mapping[str, Any]) -> list:
        """A tgus-t camera play or draw ruled illegal, amended by one line;
        the rulings that added."""

    def adopt(self, found: Any) -> list | None:
        """A reading of the log (:meth:`vision.recoveries.Recoveries.next`)
        made the table's own; the rulings it added, or ``None`` where it was
        not kept."""

    def set_scan(self, on: bool) -> None:
        """The round-end scan on or off."""


class Completion:
    """The completion loop of a camera table (see the module docstring).

    Args:
        table: the hooks and the parts of the table it serves (:class:`Table`).
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        #: tgus-t: the index in ``rereads.fed`` of the camera event being
        #: taken, or ``None``
        self.camera_at: int | None = None
        #: whether a heard line going in now goes before the camera event's
        #: own (a call before the play it comes with)
        self.before_camera = False
        self._stood: list = []  # rulings of colours named by a copy that stood

    def take(self, event: Mapping[str, Any]) -> list:
        """Take one event (the camera's, completed; any other as it is).
        Returns the rulings of every line it put in the log."""
        try:
            return self._take(event)
        finally:
            self.camera_at = None

    def _take(self, event: Mapping[str, Any]) -> list:
        table = self.table
        rulings: list = []
        camera = event.get("source") == "vision"
        hearing, handsfree = table.hearing, table.handsfree
        if getattr(handsfree, "tgus_t", None) is not None:
            handsfree.tgus_t.config = getattr(table, "play", None)
        if camera and hearing is not None and hearing.held:
            rulings += hearing.release(float(event.get("t", 0)))
        rereads = table.rereads if camera else None
        if rereads is not None:  # kept as it came (held or not), to be read again
            self.camera_at = rereads.camera(event)
        recoveries = table.recoveries
        if camera and recoveries is not None:  # read again after an end, a question
            recoveries.camera(event)
        if camera:  # a held copy settled by this move, then this one held?
            for e in handsfree.settle(event, table.now()):
                rulings += self.line(e)
            rulings += self._stood
            self._stood = []
            if handsfree.read_state is not None and handsfree.hold(event, table.now()):
                return rulings
        before = len(table.referee.events)
        if camera and recoveries is not None:
            recoveries.completing(before, event)
        try:
            try:  # a tgus-t play holding two turns' cards: one piece a turn
                pieces = handsfree.pieces(event, table.now())
            except Exception:  # a state the completion cannot read: as it came
                pieces = [dict(event)]
            for piece in pieces:
                rulings += self._complete(piece, camera)
            if rereads is not None and self.camera_at is not None:
                rereads.read(self.camera_at, event, table.referee, before)
        finally:
            if recoveries is not None:
                recoveries.done()
        if camera and recoveries is not None:
            rulings += self._read_again(recoveries)
        return rulings

    def _complete(self, event: Mapping[str, Any], camera: bool) -> list:
        """Complete ``event`` from the referee's state now and put it in."""
        table = self.table
        try:
            events = table.handsfree.complete(event, table.now())
        except Exception:  # a state the completion cannot read: as it came
            events = [dict(event)]
        if not events:  # folded into the event that follows (tgus-t Hit+?)
            return []
        rulings: list = []
        for e in events[:-1]:
            rulings += self.line(e)
        hearing = table.hearing
        t = float(event.get("t", 0))
        if camera and hearing is not None and hearing.calls:
            self.before_camera = True  # before the play the call comes with
            try:
                rulings += hearing.calls_before(t, events[-1])
            finally:
                self.before_camera = False
        rulings += self.line(events[-1])
        if camera and hearing is not None:
            rulings += hearing.after(t, t)
        return rulings

    def _read_again(self, recoveries: Any) -> list:
        """The log read again while a reading is found; each one the table
        adopts, its completion carrying on as the reading left it."""
        table = self.table
        added: list = []
        while recoveries.due:
            found = recoveries.next(table.referee, table.play)
            if found is None:
                break
            new = table.adopt(found)
            if new is None:  # not kept: the log stays as it was
                recoveries.forget()
                break
            carry_on(table.handsfree, found)
            table.set_scan(table.now().get("phase") == "scoring")
            added += new
        return added

    def line(self, event: dict[str, Any]) -> list:
        """One line into the log (completed, heard, or of a held copy), told
        to the recoveries; returns its rulings and those of its amendment."""
        table = self.table
        put = table.put(event)
        if put is None:
            return []
        line, logged, rulings = put
        if table.recoveries is not None:
            table.recoveries.appended(logged, rulings, line)
        if wants_hands(rulings):
            table.set_scan(True)
        reordered = self._reordered(logged, rulings)
        if reordered is not None:
            return list(rulings) + reordered
        return list(rulings) + table.amend(logged)

    def _reordered(self, logged: Mapping[str, Any], rulings: list) -> list | None:
        """A tgus-t camera line ruled illegal that the multi-play before it
        explains, read with another of its cards on top and the colour
        inferred from its first card named again
        (:func:`vision.handsfree_tgus_t.reordered`): that reading adopted.
        Returns the rulings it added, or ``None`` (none found or kept: the
        line is amended as :meth:`Table.amend` finds)."""
        if logged.get("source") != "vision" or not any(
                getattr(r, "ruling", None) == "illegal" for r in rulings):
            return None
        from .handsfree_tgus_t import reordered

        table = self.table
        try:
            found = reordered(table.referee, table.play)
        except Exception:  # a log it cannot read: amended as before
            return None
        if found is None:
            return None
        new = table.adopt(found)
        return None if new is None else list(new)

    def stood(self, held: Mapping[str, Any], move: Mapping[str, Any]) -> None:
        """The hook of :class:`vision.handsfree.HandsFree` once a held copy
        stood: a colour heard while it was held names it before the move that
        settled it is completed (which would infer one)."""
        hearing = self.table.hearing
        if hearing is not None:
            self._stood += hearing.after(float(held.get("t", 0)),
                                         float(move.get("t", 0)))

    def finish(self, ended: bool = True) -> list:
        """The end of the camera's source: a copy still held stands, the
        heard events still held go in, and, where the source ran out by
        itself (``ended``: a recording played to its end, not a camera a
        person stopped mid-game), a tgus-t game still under way may be read as
        ended by its last play (:meth:`_out_together`). Returns their
        rulings."""
        table = self.table
        rulings: list = []
        if table.handsfree is not None:
            for e in table.handsfree.finish(table.now()):
                rulings += self.line(e)
        if table.hearing is not None:
            rulings += table.hearing.finish()
        return rulings + (self._out_together() if ended else [])

    def _out_together(self) -> list:
        """A tgus-t game still under way when the camera's source ended: its
        last play read again as the last player but one putting their last
        cards down together (:func:`vision.handsfree_tgus_t.out_together`),
        adopted as a reading of the log. Returns the rulings it added."""
        from .handsfree_tgus_t import out_together

        table = self.table
        try:
            found = out_together(table.referee, table.play)
        except Exception:  # a log it cannot read: left as it is
            return []
        if found is None:
            return []
        return list(table.adopt(found) or [])
