"""The table the page referees: store, live referee, pause flag and a message feed.

Every change goes the same way: validated, written to the store (durable
before anything else happens), applied to the :class:`referee.session.Referee`,
then announced on the feed (:mod:`web.feed`) that the SSE stream serves.
Corrections (:mod:`web.corrections`) replace the stored event list in one
``set_events`` call and the referee replays it.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app

from referee.game import GameError
from referee.log import Header, LogError
from referee.session import Referee

from . import corrections, lease, reread, undo
from .corrections import secret_after
from .events import EventError, check_event, check_header, stored_header, stored_log, text_only
from .feed import FEED_SIZE, Feed
from .pending import Pending
from .privacy import public_rulings
from .table_error import TableError, _reading, _storing
from .undo import LOST, Step, Steps

log = logging.getLogger(__name__)

__all__ = ["FEED_SIZE", "Table", "TableError", "game_presets", "get_table", "init_app"]


class Table:
    """One table at a time: the current game, its referee and the feed.

    Args:
        store: a ``GameStore`` (or :class:`web.memstore.MemoryStore`).
    """

    def __init__(self, store: Any):
        self.store = store
        self.lock = threading.RLock()
        self.news = Feed(self.lock)
        self.gid: int | None = None
        self.referee: Referee | None = None
        self.paused = False
        self.dropped = 0  # camera/voice events ignored while paused
        self.last_change: dict[str, Any] | None = None
        self.last_change_public: dict[str, Any] | None = None  # no hidden card
        # Event by event: does it name cards only the referee may see (decided
        # when it is applied: see web.privacy)
        self.secret: list[bool] = []
        self.camera: Any = None  # web.camera.Camera, set by the serve command
        self.listener: Any = None  # voice.bridge.ListenHandle, set by the serve command
        #: a recording's heard events held until the camera reaches them
        #: (vision.hearing.Hearing, set by the serve command), or None
        self.hearing: Any = None
        # What undo takes back, saved beside the stored game at every change
        self.steps: Steps = Steps(self._save_steps)
        # Why a resumed game has no saved steps (a key of web.undo.LOST), if so
        self.undo_lost: str | None = None
        #: the lines of the resumed game's stored log (1-based, as stored)
        #: its referee could not take: left out of the game, the numbering of
        #: its lines here is without them; the store keeps them (a correction
        #: writes a new version, the old one stays in its history)
        self.left_out: list[int] = []
        self.finished: set[int] = set()
        #: what the camera path holds between camera events, saved beside the
        #: stored game and taken up after a restart (web.pending)
        self.pending = Pending(self)
        #: this server's hold on the store's games (web.lease), or None
        self.lease: lease.Lease | None = None

    # -- the feed (web.feed) ----------------------------------------------------
    @property
    def feed(self) -> deque[tuple[int, str, dict[str, Any], dict[str, Any]]]:
        """The feed's messages: (id, kind, data, the data the table view sees)."""
        return self.news.messages

    @property
    def seq(self) -> int:
        """The id of the feed's last message."""
        return self.news.seq

    @property
    def changed(self) -> threading.Condition:
        return self.news.changed

    def _announce(
        self, kind: str, data: dict[str, Any], public: dict[str, Any] | None = None
    ) -> None:
        """Put a message on the feed; ``public`` is what the table view may see."""
        self.news.announce(kind, data, public)

    def messages_after(
        self, last: int, timeout: float, public: bool = False
    ) -> list[tuple[int, str, dict]]:
        """Feed messages with an id above ``last``, waiting up to ``timeout`` for one.

        A client whose ``last`` has already left the feed, or comes from another
        run of the server, gets one ``reset`` message alone: it reloads the state
        and goes on from the reset's id. With ``public`` the messages are those
        the table view may see (no hidden card in a ruling's text).
        """
        with self.lock:
            return self.news.after(last, timeout, public, {"game": self.gid})

    # -- games ------------------------------------------------------------------
    def _referee(self) -> Referee:
        if self.referee is None or self.gid is None:
            raise TableError(status=409, reason="no_game")
        return self.referee

    def new_game(self, header: Mapping[str, Any]) -> int:
        """Validate a header, store a new game and make it the current one."""
        header = check_header(header)
        try:
            referee = Referee(header, new=True)
        except (LogError, GameError, ValueError) as exc:
            raise TableError(reason="game_refused", params={"why": exc}) from None
        except ImportError as exc:  # a game module of this installation is broken
            raise TableError(status=503, reason="game_module_broken",
                             params={"why": exc}) from None
        with self.lock:
            with _storing():
                gid = int(self.store.create_game(referee.header.to_dict()))
            self._hold(gid)
            self.gid, self.referee, self.secret = gid, referee, []
            self.undo_lost = None
            self.left_out = []
            self.steps.clear()  # saved: a new game has nothing to undo
            self.pending.clear()
            self.paused, self.dropped, self.last_change = False, 0, None
            self.last_change_public = None
            self._announce("game", {"game": gid})
            return gid

    def resume(self, gid: int | None = None) -> bool:
        """Load a stored game (default: the last one) and replay it; False if none."""
        with self.lock:
            if gid is None:
                with _reading():
                    gid = self.store.last_game()
                if isinstance(gid, Mapping):
                    gid = gid.get("id")
            if gid is None:
                return False
            holder = lease.others(self.store)
            if holder.holds(gid):
                who = holder.games.get(int(gid)) if isinstance(gid, int) else None
                raise TableError(status=409, reason="game_held", params={
                    "gid": gid, "pid": who if who is not None else "?"})
            header, events = self._stored(gid)
            try:  # a store written before the check may hold a lone surrogate
                text_only(header, stored_header(gid))
                text_only(events, stored_log(gid))
            except EventError as exc:
                raise TableError(exc.message, 409, reason=exc.reason,
                                 params=exc.params) from None
            try:
                referee = Referee(Header.from_dict(header))
            except (LogError, GameError, ValueError, ImportError) as exc:
                raise TableError(status=409, reason="stored_game_unrefereeable",
                                 params={"gid": gid, "why": exc}) from None
            secret, left_out = [], []
            for at, event in enumerate(events, start=1):
                try:
                    new = referee.append(event)
                except LogError as exc:  # the store holds checked events: damage
                    left_out.append(at)
                    log.warning("game %s: stored line %s cannot be refereed and is "
                                "left out (the store keeps it): %s", gid, at, exc)
                    continue
                secret.append(secret_after(referee, event, new))
            self._hold(gid)
            self.gid, self.referee, self.secret = int(gid), referee, secret
            self.left_out = left_out
            steps, self.undo_lost = undo.resumed(self.store, self.gid, referee.events)
            self.steps.restore(steps)
            self.pending.load(self.gid)  # paused as it was when it stopped
            self.paused, self.dropped = self.pending.paused, self.pending.dropped
            self.last_change = None
            self.last_change_public = None
            self._announce("game", {"game": self.gid})
            return True

    def _stored(self, gid: Any) -> tuple[Mapping[str, Any], list[Any]]:
        """Stored game ``gid``'s header and lines as the store reads them
        back, or the refusal of the read by the store's kind
        (:func:`web.table_error.refused_read`): no such game (404), a row it
        cannot read back (409, ``log_damaged``: the rows are left as they
        are), a read that failed (503, by its kind: a database locked by
        another server's write, a disk's error)."""
        with _reading(gid):
            return self.store.header(gid), list(self.store.events(gid))

    def _hold(self, gid: Any) -> None:
        """Tell the other servers of this store that game ``gid`` is this one's."""
        if self.lease is not None:
            self.lease.hold(int(gid))

    # -- events -----------------------------------------------------------------
    def append(self, obj: Any, source: str = "manual") -> tuple[int, list[dict]]:
        """Record one event (store first) and return its line and its rulings.

        Events from the camera or the voice listener are dropped while the table
        is paused (the line is then 0 and there are no rulings); manual ones
        always count.
        """
        event = check_event(obj)
        event.setdefault("source", source)
        with self.lock:
            referee = self._referee()
            if self.paused and event["source"] != "manual":
                self.dropped += 1
                return 0, []
            with _storing():
                line = int(self.store.append(self.gid, event))
            at = len(referee.events) + 1  # as the page numbers it (self.left_out)
            try:
                new = referee.append(event)
            except Exception as exc:  # an engine bug must not take the table down
                log.exception("the referee failed on line %s (stored as line %s)",
                              at, line)
                while len(self.secret) < len(referee.events):  # keep its cards hidden
                    self.secret.append(True)
                raise TableError(status=422, reason="referee_failed", params={
                    "line": at, "kind": exc.__class__.__name__}) from exc
            if len(self.secret) == len(referee.events) - 1:
                self.secret.append(secret_after(referee, event, new))
            if event["source"] != "vision":  # read again as given (web.reread)
                reread.heard(self, event)
            self.steps.append(Step("append", len(referee.events)))
            start = len(referee.rulings) - len(new)
            out = [self._ruling(r, start + i) for i, r in enumerate(new)]
            shown = public_rulings(out, referee.events, self.secret)
            for item, public in zip(out, shown):
                self._announce("ruling", item, public)
            line = len(referee.events)  # as the page numbers it (web.table.left_out)
            if not out:
                self._announce("event", {"line": line})
            self._finish_if_over()
            return line, out

    def _finish_if_over(self) -> None:
        # A finished game is not resumed at the next start; the page can reopen it.
        state = self.referee.state() if self.referee else {}
        if state.get("over") and self.gid not in self.finished:
            self.finished.add(self.gid)
            try:
                self.store.finish(
                    self.gid,
                    {"scores": state.get("scores"), "winner": state.get("winner")},
                )
            except Exception:
                log.exception("could not mark game %s finished", self.gid)

    # -- corrections (web.corrections) ------------------------------------------
    # A person's change ends the game's tgus-t re-reads (web.reread).
    def correct(self, line: Any, obj: Any) -> dict[str, Any]:
        """Replace the event on ``line`` and replay; returns what changed."""
        with self.lock:
            result = corrections.correct(self, line, obj)
            reread.edited(self, "correction")
            return result

    def insert(self, line: Any, obj: Any) -> dict[str, Any]:
        """Insert a forgotten event before ``line`` and replay."""
        with self.lock:
            result = corrections.insert(self, line, obj)
            reread.edited(self, "insertion")
            return result

    def delete(self, line: Any) -> dict[str, Any]:
        """Remove the event on ``line`` (a misread) and replay."""
        with self.lock:
            result = corrections.delete(self, line)
            reread.edited(self, "deletion")
            return result

    def undo(self) -> dict[str, Any]:
        """Take back the last change to the log and replay (see :mod:`web.undo`).

        The answer says which change was taken back (``undid``: ``append``,
        ``correct``, ``insert`` or ``delete``) and on which line. Where a
        resumed game's saved steps could not be used and none were made since,
        the last event is removed, and ``lost`` (a key of
        :data:`web.undo.LOST`) and ``note`` say so.
        """
        with self.lock:
            lost = self.undo_lost if not self.steps else None
            result = corrections.undo(self)
            reread.edited(self, "undo")
            if lost is not None:
                said = {
                    "lost": lost,
                    "note": f"{LOST[lost]}, so undo removed the last event "
                    f"(line {result.get('line')}) whatever the last change was.",
                }
                result.update(said)
                if self.last_change is result and self.last_change_public is not None:
                    self.last_change_public.update(said)
            return result

    def _save_steps(self) -> None:
        """Save the undo steps beside the stored game (called at every change)."""
        if self.gid is None or self.referee is None:
            return
        try:
            data = undo.to_data(self.steps, self.referee.events, self.steps.digests)
            undo.save(self.store, self.gid, data)
        except Exception:  # the change is stored; only undo after a restart falls back
            log.warning("could not save the undo history of game %s", self.gid,
                        exc_info=True)

    def set_paused(self, paused: bool) -> None:
        with self.lock:
            self._referee()
            self.paused = bool(paused)
            self.pending.save()  # a restarted server stays paused (web.pending)
            self._announce("pause", {"paused": self.paused})

    # -- reading ----------------------------------------------------------------
    @staticmethod
    def _ruling(ruling: Any, index: int) -> dict[str, Any]:
        item = ruling.to_dict()
        item["index"] = index
        return item

    def rulings(self, public: bool = False) -> list[dict[str, Any]]:
        """Every ruling of the game; with ``public`` as the table view may see them."""
        with self.lock:
            if self.referee is None:
                return []
            out = [self._ruling(r, i) for i, r in enumerate(self.referee.rulings)]
            if public:
                return public_rulings(out, self.referee.events, self.secret)
            return out

    def snapshot(self, public: bool) -> dict[str, Any]:
        """Everything a page shows, read under the lock: state, rulings, events."""
        with self.lock:
            if self.referee is None:
                return {"game": None}
            referee = self.referee
            state = referee.public_view() if public else referee.state()
            events = [dict(e) for e in referee.events]
            rulings = [self._ruling(r, i) for i, r in enumerate(referee.rulings)]
            if public:  # the table view: no event log, no hidden card in a text
                rulings = public_rulings(rulings, events, self.secret)
            return {
                "game": self.gid,
                "header": referee.header.to_dict(),
                "state": state,
                "rulings": rulings,
                "events": [] if public else events,
                "paused": self.paused,
                "dropped": self.dropped,
                "last_change": self.last_change_public if public else self.last_change,
                "left_out": [] if public else list(self.left_out),
                "seq": self.seq,
            }


def init_app(app: Flask) -> None:
    """Attach a :class:`Table` on the app's store and resume the last stored game."""
    store = app.extensions["tableref.store"]
    table = Table(store)
    app.extensions["tableref.table"] = table
    with lease.choosing(store):  # two servers started together: one takes the game
        table.lease = lease.lease_for(store)
        if app.config.get("RESUME", True):
            try:
                table.resume()
            except TableError as exc:
                app.logger.warning("not resuming the last game: %s", exc.message)


def game_presets() -> list[tuple[str, list[str]]]:
    """Every registered game and its presets; empty where the registry fails to load."""
    from referee.game import games

    try:
        classes = games()
    except ImportError as exc:
        log.error("the game registry failed to load: %s", exc)
        return []
    found = []
    for cls in classes:
        try:
            found.append((cls.name, sorted(cls.presets())))
        except Exception:
            found.append((cls.name, [cls.name]))
    return found


def get_table() -> Table:
    return current_app.extensions["tableref.table"]
