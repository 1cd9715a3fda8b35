"""The table the page referees: store, live referee, pause flag and a message feed.

Every change goes the same way: validated, written to the store (durable
before anything else happens), applied to the :class:`referee.session.Referee`,
then announced on the feed that the SSE stream serves. Corrections replace the
stored event list in one ``set_events`` call and the referee replays it.
"""

from __future__ import annotations

import errno
import logging
import threading
import time
from collections import deque
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from flask import Flask, current_app

from referee.game import GameError
from referee.log import Header, LogError
from referee.session import Change, Referee

from .events import EventError, check_event, check_header, text_only
from .privacy import is_secret, public_change, public_rulings
from .undo import MAX_STEPS, Step, take_back

log = logging.getLogger(__name__)

FEED_SIZE = 1000  # messages the SSE stream can resume from


class TableError(ValueError):
    """A request the table cannot carry out; the message says why (a 4xx)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


@contextmanager
def _storing() -> Iterator[None]:
    """Turn a store failure (disk full, database locked) into a 503 saying so."""
    try:
        yield
    except (RuntimeError, OSError) as exc:
        log.error("the game store failed: %s", exc)
        full = "full" in str(exc).lower() or getattr(exc, "errno", None) == errno.ENOSPC
        raise TableError(
            f"the event was not recorded: the game store failed ({exc})", 507 if full else 503
        ) from exc


class Table:
    """One table at a time: the current game, its referee and the feed.

    Args:
        store: a ``GameStore`` (or :class:`web.memstore.MemoryStore`).
    """

    def __init__(self, store: Any):
        self.store = store
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.gid: int | None = None
        self.referee: Referee | None = None
        self.paused = False
        self.dropped = 0  # camera/voice events ignored while paused
        self.last_change: dict[str, Any] | None = None
        self.last_change_public: dict[str, Any] | None = None  # no hidden card
        # Event by event: does it name cards only the referee may see (decided
        # when it is applied: see web.privacy)
        self.secret: list[bool] = []
        # (id, kind, data, the data as the table view may see it)
        self.feed: deque[tuple[int, str, dict[str, Any], dict[str, Any]]] = deque(
            maxlen=FEED_SIZE
        )
        # Feed ids start from the clock so that they never repeat across restarts
        # of the server: a page reconnecting with an old Last-Event-ID always
        # gets a reset instead of silently missing what happened in between.
        self.seq = time.time_ns() // 1_000_000
        self.camera: Any = None  # web.camera.Camera, set by the serve command
        self.steps: deque[Step] = deque(maxlen=MAX_STEPS)  # what undo takes back
        self.finished: set[int] = set()

    # -- the feed ---------------------------------------------------------------
    def _announce(
        self, kind: str, data: dict[str, Any], public: dict[str, Any] | None = None
    ) -> None:
        """Put a message on the feed; ``public`` is what the table view may see."""
        self.seq += 1
        self.feed.append((self.seq, kind, data, data if public is None else public))
        self.changed.notify_all()

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
            reset = [(self.seq, "reset", {"game": self.gid})]
            if last > self.seq:  # an id from another run of the server
                return reset
            oldest = self.feed[0][0] if self.feed else self.seq + 1
            if last > 0 and oldest > last + 1:  # what came after it is gone
                return reset
            if not self.feed or self.feed[-1][0] <= last:
                self.changed.wait(timeout)
            return [
                (seq, kind, shown if public else data)
                for seq, kind, data, shown in self.feed
                if seq > last
            ]

    # -- games ------------------------------------------------------------------
    def _referee(self) -> Referee:
        if self.referee is None or self.gid is None:
            raise TableError("no game is running: start one on the setup page", 409)
        return self.referee

    def new_game(self, header: Mapping[str, Any]) -> int:
        """Validate a header, store a new game and make it the current one."""
        header = check_header(header)
        try:
            referee = Referee(header)
        except (LogError, GameError, ValueError) as exc:
            raise TableError(f"cannot start this game: {exc}") from None
        except ImportError as exc:  # a game module of this installation is broken
            raise TableError(
                f"cannot start this game: a game module failed to load ({exc})", 503
            ) from None
        with self.lock:
            with _storing():
                gid = int(self.store.create_game(referee.header.to_dict()))
            self.gid, self.referee, self.secret = gid, referee, []
            self.steps.clear()
            self.paused, self.dropped, self.last_change = False, 0, None
            self.last_change_public = None
            self._announce("game", {"game": gid})
            return gid

    def resume(self, gid: int | None = None) -> bool:
        """Load a stored game (default: the last one) and replay it; False if none."""
        with self.lock:
            if gid is None:
                gid = self.store.last_game()
                if isinstance(gid, Mapping):
                    gid = gid.get("id")
            if gid is None:
                return False
            try:
                header = self.store.header(gid)
            except (KeyError, RuntimeError):
                raise TableError(f"there is no stored game {gid}", 404) from None
            events = list(self.store.events(gid))
            try:  # a store written before the check may hold a lone surrogate
                text_only(header, f"stored game {gid}'s header")
                text_only(events, f"stored game {gid}'s log")
            except EventError as exc:
                raise TableError(exc.message, 409) from None
            try:
                referee = Referee(Header.from_dict(header))
            except (LogError, GameError, ValueError, ImportError) as exc:
                raise TableError(
                    f"stored game {gid} cannot be refereed: {exc}", 409
                ) from None
            secret = []
            for event in events:
                try:
                    new = referee.append(event)
                except LogError:
                    continue  # the store only holds checked events; be tolerant anyway
                secret.append(_secret_after(referee, event, new))
            self.gid, self.referee, self.secret = int(gid), referee, secret
            self.steps.clear()
            self.paused, self.dropped, self.last_change = False, 0, None
            self.last_change_public = None
            self._announce("game", {"game": self.gid})
            return True

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
            try:
                new = referee.append(event)
            except Exception as exc:  # an engine bug must not take the table down
                log.exception("the referee failed on line %s", line)
                while len(self.secret) < len(referee.events):  # keep its cards hidden
                    self.secret.append(True)
                raise TableError(
                    f"line {line} was recorded, but the referee failed on it "
                    f"({exc.__class__.__name__}); correct or delete it",
                    422,
                ) from exc
            if len(self.secret) == len(referee.events) - 1:
                self.secret.append(_secret_after(referee, event, new))
            self.steps.append(Step("append", len(referee.events)))
            start = len(referee.rulings) - len(new)
            out = [self._ruling(r, start + i) for i, r in enumerate(new)]
            shown = public_rulings(out, referee.events, self.secret)
            for item, public in zip(out, shown):
                self._announce("ruling", item, public)
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

    def _edit(
        self,
        action: str,
        line: int,
        events: list[dict],
        apply,
        step: Step | None = None,
    ) -> dict[str, Any]:
        """Replay the corrected log, store it (one ``set_events``), announce the change.

        The replay runs first so that a log the engine cannot replay changes
        nothing; the answer is sent only once the store holds the new list.
        ``step`` is what undo will take back (none for an undo itself).
        """
        with self.lock:
            before = list(self._referee().events)
            secret_before = list(self.secret)
            try:
                change: Change = apply()
            except Exception as exc:  # an engine bug: keep the table as it was
                log.exception("the referee could not replay after %s %s", action, line)
                self.referee = self._replayed(before)
                self.secret = secret_before
                raise TableError(
                    f"the referee could not replay the log after this {action} "
                    f"({exc.__class__.__name__}); nothing was changed",
                    422,
                ) from exc
            try:
                with _storing():
                    self.store.set_events(
                        self.gid, events, reason=f"{action} line {line}"
                    )
            except TableError:
                self.referee = self._replayed(before)
                self.secret = secret_before
                raise
            result = {
                "action": action,
                "line": line,
                "removed": [r.to_dict() for r in change.removed],
                "added": [r.to_dict() for r in change.added],
            }
            if step is not None:
                self.steps.append(step)
            after = list(self._referee().events)
            self.secret = self._secrets(after)
            self.last_change = result
            self.last_change_public = public_change(
                result, (before, secret_before), (after, self.secret)
            )
            self._announce("change", result, self.last_change_public)
            self._finish_if_over()
            return result

    def _secrets(self, events: list[dict]) -> list[bool]:
        """:func:`web.privacy.is_secret` for each event of a corrected log, by a
        replay of its own (only where an event shows cards)."""
        if not any(e.get("type") in ("reveal", "doubt") for e in events):
            return [is_secret(e, lambda: ({}, {})) for e in events]
        referee = Referee(self._referee().header)
        out = []
        for event in events:
            try:
                new = referee.append(event)
            except Exception:  # the engine failed on it: keep its cards hidden
                out.append(True)
                continue
            out.append(_secret_after(referee, event, new))
        return out

    def _replayed(self, events: list[dict]) -> Referee:
        referee = Referee(self._referee().header)
        for event in events:
            try:
                referee.append(event)
            except Exception:  # the same engine failure as when it was first applied
                log.exception("the referee failed on a stored event")
        return referee

    def _check_line(self, line: Any) -> None:
        n = len(self._referee().events)
        if not isinstance(line, int) or isinstance(line, bool) or not 1 <= line <= n:
            raise TableError(
                f"there is no event on line {line!r} (the log has {n})", 404
            )

    def correct(self, line: Any, obj: Any) -> dict[str, Any]:
        """Replace the event on ``line`` and replay; returns what changed."""
        event = check_event(obj)
        with self.lock:
            referee = self._referee()
            self._check_line(line)
            events = list(referee.events)
            old = dict(events[line - 1])
            events[line - 1] = event
            return self._edit(
                "correct",
                line,
                events,
                lambda: referee.correct(line, event),
                Step("correct", line, old),
            )

    def insert(self, line: Any, obj: Any) -> dict[str, Any]:
        """Insert a forgotten event before ``line`` and replay."""
        event = check_event(obj)
        event.setdefault("source", "manual")
        with self.lock:
            referee = self._referee()
            n = len(referee.events)
            if (
                not isinstance(line, int)
                or isinstance(line, bool)
                or not 1 <= line <= n + 1
            ):
                raise TableError(
                    f"cannot insert before line {line!r} (the log has {n})", 404
                )
            events = list(referee.events)
            events.insert(line - 1, event)
            return self._edit(
                "insert",
                line,
                events,
                lambda: referee.insert(line, event),
                Step("insert", line),
            )

    def delete(self, line: Any) -> dict[str, Any]:
        """Remove the event on ``line`` (a misread) and replay."""
        with self.lock:
            referee = self._referee()
            self._check_line(line)
            events = list(referee.events)
            removed = events.pop(line - 1)
            return self._edit(
                "delete",
                line,
                events,
                lambda: referee.delete(line),
                Step("delete", line, dict(removed)),
            )

    def undo(self) -> dict[str, Any]:
        """Take back the last change to the log and replay (see :mod:`web.undo`).

        The answer says which change was taken back (``undid``: ``append``,
        ``correct``, ``insert`` or ``delete``) and on which line.
        """
        with self.lock:
            referee = self._referee()
            events = list(referee.events)
            step = self.steps[-1] if self.steps else None
            if step is None:  # a resumed game: the log alone says what came last
                if not events:
                    raise TableError("there is no event to undo", 409)
                step = Step("append", len(events))
            try:
                events, action, line, event = take_back(step, events)
            except ValueError:  # cannot happen while every change goes through here
                self.steps.clear()
                raise TableError("the last change can no longer be undone", 409)
            apply = {
                "insert": lambda: referee.insert(line, event),
                "correct": lambda: referee.correct(line, event),
                "delete": lambda: referee.delete(line),
            }[action]
            result = self._edit("undo", line, events, apply)
            if self.steps and self.steps[-1] is step:
                self.steps.pop()
            result["undid"] = step.action
            if self.last_change is result and self.last_change_public is not None:
                self.last_change_public["undid"] = step.action
            return result

    def set_paused(self, paused: bool) -> None:
        with self.lock:
            self._referee()
            self.paused = bool(paused)
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
                "seq": self.seq,
            }


def _secret_after(referee: Referee, event: Mapping[str, Any], new: list) -> bool:
    """Whether ``event``, just applied (``new``: its rulings), names cards only
    the referee may see."""
    return is_secret(
        event,
        lambda: (referee.state(), referee.public_view()),
        [r.ruling for r in new],
    )


def init_app(app: Flask) -> None:
    """Attach a :class:`Table` on the app's store and resume the last stored game."""
    table = Table(app.extensions["tableref.store"])
    app.extensions["tableref.table"] = table
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
