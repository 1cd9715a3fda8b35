"""What a camera table does around its referee: :class:`Recoveries`.

Both tables that referee the camera's events, ``tableref watch``'s
:class:`vision.live.LiveTable` and ``tableref serve``'s page
(:mod:`web.recover`), keep one :class:`Recoveries` beside their referee and
tell it what reached the log; it says when the log is to be read again and
how, so that the page and the command line rule the same camera events the
same way:

- **A round that went on**: the referee ruled a round won on a camera play
  (a ``round-end`` ruled ``pending``), no hand has been shown since, and the
  camera's plays keep landing (:func:`vision.handsfree.went_on`: the count
  was short by a card, a draw is inferred before that play).
- **A question the plays answered**: a camera play asked about with a
  ``missed-draw`` answer (out of turn, or the player to move drew and passed
  unseen) that the camera's plays after it answer
  (:func:`vision.handsfree.answered`); one that ``play.answer_plays`` camera
  plays did not answer is left to a person.
- **The hands awaited**: a ruling that waits for the losers' hands switches
  the pipeline's round-end scan on (:func:`wants_hands`); after a reading
  the scan runs while the referee holds the round in scoring.

A table calls, in this order, for each camera event it takes:
:meth:`Recoveries.camera` (the event as the camera sent it),
:meth:`Recoveries.completing` (the log's length before the event's own lines)
while it appends the event's completed lines, :meth:`Recoveries.appended` for
every line the referee took (heard, entered and inferred lines too), then
:meth:`Recoveries.done`, and :meth:`Recoveries.next` until it returns
``None``: each reading it returns is a referee holding the log read again,
which the table adopts its own way (the live table carries on with it; the
page stores it as a correction), with :func:`carry_on` for its completion.
"""

from __future__ import annotations

from typing import Any, Mapping

from .config import PlayConfig
from .handsfree import Asked, RoundEnd, WentOn, answered, round_end_on, went_on


def wants_hands(rulings: list[Any]) -> bool:
    """Whether ``rulings`` wait for the losers' hands (a ``round-end`` ruled
    ``pending``): the round-end scan is to run."""
    return any(r.ruling == "pending" and r.rule.endswith("round-end")
               for r in rulings)


def asks_missed_draw(event: Mapping[str, Any], rulings: list[Any]) -> bool:
    """Whether the referee holds ``event``, a play, as a question one of whose
    answers is a draw the camera missed (``missed-draw``)."""
    return (event.get("type") == "play"
            and any(a.get("id") == "missed-draw" for a in event.get("answers") or ()
                    if isinstance(a, dict))
            and any(r.ruling == "pending" and r.rule.endswith(".question")
                    for r in rulings))


class Recoveries:
    """A round ended on a camera play and a question the plays may answer,
    kept with what came after them, and the readings of the log they lead to.

    Args:
        on: whether the log is read again at all (``False``: a tgus-t table,
            whose re-reads are :mod:`vision.reread_tgus_t`'s).
    """

    def __init__(self, on: bool = True) -> None:
        self.on = on
        #: the round the referee ruled won on a camera play, no hand shown
        #: since, with what came after it
        self.round_end: RoundEnd | None = None
        #: a camera play held as a question the plays after it may answer
        self.asked: Asked | None = None
        #: the log lines of the draws inferred by the readings taken
        self.lines: list[int] = []
        self._own: tuple[int, dict[str, Any]] | None = None

    def forget(self) -> None:
        """Nothing more to read again (a person changed the log: their word
        stands)."""
        self.round_end = self.asked = self._own = None

    def camera(self, event: Mapping[str, Any]) -> None:
        """A camera event reached the table, as the camera sent it (before it
        is completed): kept after a round end or a question, to be read again."""
        if self.round_end is not None:
            self.round_end.after.append(("camera", dict(event)))
        if self.asked is not None:
            self.asked.after.append(("camera", dict(event)))

    def completing(self, start: int, event: Mapping[str, Any]) -> None:
        """The lines of camera ``event`` itself (not a held copy it settled)
        are being appended after the log's first ``start`` lines."""
        self._own = (start, dict(event))

    def done(self) -> None:
        """The camera event's own lines are in."""
        self._own = None

    def appended(self, event: Mapping[str, Any], rulings: list[Any],
                 line: int) -> None:
        """The referee took ``event`` as log line ``line``, ruling ``rulings``."""
        camera = event.get("source") == "vision"
        kind = event.get("type")
        if kind in ("reveal", "start"):  # the round did end
            self.round_end = None
        elif self.round_end is not None and not camera:
            self.round_end.after.append(("as-is", dict(event)))
        if kind == "start":
            self.asked = None
        elif self.asked is not None and not camera:
            self.asked.after.append(("as-is", dict(event)))
        if not self.on:
            return
        if round_end_on(event, rulings):
            self.round_end = RoundEnd(line)
        if (self.asked is None and self._own is not None
                and asks_missed_draw(event, rulings)):
            self.asked = Asked(*self._own)

    @property
    def due(self) -> bool:
        """Whether a reading may be found now."""
        return self.round_end is not None or self.asked is not None

    def next(self, referee: Any, play: PlayConfig | None = None) -> WentOn | None:
        """The log of ``referee`` read again, or ``None``: first a question
        the plays after it answered, else a round that went on. The reading
        returned is taken (the table adopts it: call again with its referee
        for a round it ends early again). ``play``: ``went_on_plays`` and
        ``answer_plays`` (``None``: the defaults)."""
        play = play or PlayConfig()
        least = play.went_on_plays
        if self.asked is not None and self.asked.camera_plays() > play.answer_plays:
            self.asked = None  # the plays after it did not answer it
        found = None
        try:
            if self.asked is not None:
                found = answered(referee, self.asked, least)
                if found is not None:
                    self.asked = None
            if found is None and self.round_end is not None:
                found = went_on(referee, self.round_end, least)
        except Exception:  # a log it cannot read again: left as it is
            found = None
        if found is None:
            return None
        self.round_end = found.end
        self.lines.append(found.line)
        return found


def carry_on(handsfree: Any, found: WentOn) -> None:
    """``handsfree`` (the table's :class:`vision.handsfree.HandsFree`) goes on
    as the reading's completion left it: the copy it holds for the next move,
    and the copies it ruled."""
    done = found.completion
    handsfree.held = done.held
    handsfree.set_aside += done.set_aside
    handsfree.ruled += done.ruled
