"""An in-memory stand-in for :class:`referee.store.GameStore`.

The page is written against the durable store's interface (``create_game``,
``append``, ``set_events``, ``header``, ``events``, ``games``, ``last_game``,
``save_evidence``, ``drop_evidence``, ``finish``, ``export``). This class
implements the same interface without a disk (and keeps the undo steps of
:mod:`web.undo` beside each game, ``save_undo`` and ``load_undo``, and the
camera path's pending state of :mod:`web.pending`, ``save_pending`` and
``load_pending``, which a GameStore's page keeps in files beside the
database), for tests and for an installation whose store module is missing;
:func:`open_store` prefers the real one.
"""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any


class MemoryStore:
    """Games kept in memory: header, events, corrections audit, evidence frames."""

    durable = False

    def __init__(self, evidence_dir: str | Path | None = None):
        self._lock = threading.Lock()
        self._games: dict[int, dict[str, Any]] = {}
        self.evidence_dir = Path(evidence_dir) if evidence_dir else None

    def create_game(self, header: Mapping[str, Any]) -> int:
        """Start a game; returns its id."""
        with self._lock:
            gid = max(self._games, default=0) + 1
            self._games[gid] = {
                "header": copy.deepcopy(dict(header)),
                "events": [],
                "audit": [],
                "finished": False,
            }
            return gid

    def _game(self, gid: int) -> dict[str, Any]:
        if gid not in self._games:
            raise KeyError(f"no game {gid}")
        return self._games[gid]

    def append(self, gid: int, event: Mapping[str, Any]) -> int:
        """Record one event; returns its 1-based line number."""
        with self._lock:
            events = self._game(gid)["events"]
            events.append(copy.deepcopy(dict(event)))
            return len(events)

    def set_events(
        self, gid: int, events: list[Mapping[str, Any]], reason: str = ""
    ) -> None:
        """Replace the whole event list (a correction), keeping an audit entry."""
        with self._lock:
            game = self._game(gid)
            game["audit"].append({"reason": reason, "before": game["events"]})
            game["events"] = [copy.deepcopy(dict(e)) for e in events]

    def header(self, gid: int) -> dict[str, Any]:
        return copy.deepcopy(self._game(gid)["header"])

    def events(self, gid: int) -> list[dict[str, Any]]:
        return copy.deepcopy(self._game(gid)["events"])

    def games(self) -> list[dict[str, Any]]:
        """Every game, newest first (the fields of ``GameSummary``)."""
        return [
            {
                "id": gid,
                "game": g["header"].get("game"),
                "rules": g["header"].get("rules"),
                "players": list(g["header"].get("players", [])),
                "events": len(g["events"]),
                "finished": g["finished"] or None,
            }
            for gid, g in sorted(self._games.items(), reverse=True)
        ]

    def last_game(self) -> int | None:
        """The newest unfinished game."""
        return max(
            (gid for gid, g in self._games.items() if not g["finished"]), default=None
        )

    def save_evidence(self, gid: int, jpeg: bytes) -> str:
        """Write a frame to the evidence folder (if there is one); returns its
        path (a name no frame of the folder has had, so that a frame deleted
        before it never lends its name to another)."""
        if self.evidence_dir is None:
            raise OSError("this store keeps no evidence frames")
        with self._lock:
            game = self._game(gid)
            folder = self.evidence_dir / f"game-{gid}"
            folder.mkdir(parents=True, exist_ok=True)
            numbers = [int(p.stem) for p in folder.glob("*.jpg") if p.stem.isdigit()]
            game["frames"] = n = max([game.get("frames", 0), *numbers]) + 1
            path = folder / f"{n:06d}.jpg"
            path.write_bytes(jpeg)
            game.setdefault("evidence", set()).add(str(path))
            return str(path)

    def drop_evidence(self, gid: int, path: str) -> bool:
        """Delete frame ``path`` that no event of the game (its log now, or
        one a correction replaced) names; whether it was deleted. Only a
        frame this store saved is deleted (as ``GameStore.drop_evidence``)."""
        path = str(path)
        with self._lock:
            game = self._game(gid)
            kept = game.get("evidence", set())
            logs = [game["events"], *(a["before"] for a in game["audit"])]
            named = json.dumps(path, ensure_ascii=False)
            if path not in kept or any(
                    named in json.dumps(e, ensure_ascii=False, default=str)
                    for events in logs for e in events):
                return False
            kept.discard(path)
        Path(path).unlink(missing_ok=True)
        return True

    def finish(self, gid: int, summary: Mapping[str, Any] | None = None) -> None:
        self._game(gid)["finished"] = True

    def save_undo(self, gid: int, data: Mapping[str, Any]) -> None:
        """Keep a game's undo steps (:mod:`web.undo`) beside its log."""
        with self._lock:
            self._game(gid)["undo"] = json.dumps(data, ensure_ascii=True)

    def load_undo(self, gid: int) -> Any:
        """A game's saved undo steps as data; None where none were saved.

        Kept as JSON text, as a file would be, so that what comes back is a
        copy read from the saved text.
        """
        with self._lock:
            text = self._game(gid).get("undo")
        return None if text is None else json.loads(text)

    def save_pending(self, gid: int, data: Mapping[str, Any]) -> None:
        """Keep what a game's camera path holds between camera events
        (:mod:`web.pending`) beside its log."""
        with self._lock:
            self._game(gid)["pending"] = json.dumps(data, ensure_ascii=True)

    def load_pending(self, gid: int) -> Any:
        """A game's saved camera pending state as data; None where none was
        saved (kept as JSON text, as a file would be)."""
        with self._lock:
            text = self._game(gid).get("pending")
        return None if text is None else json.loads(text)

    def export(self, gid: int) -> list[str]:
        game = self._game(gid)
        dump = lambda obj: json.dumps(obj, ensure_ascii=False)  # noqa: E731
        return [dump(game["header"])] + [dump(e) for e in game["events"]]


def game_list(store: Any) -> list[dict[str, Any]]:
    """``store.games()`` as dicts: ``id, game, rules, players, events,
    finished, damaged`` (``damaged``: ``log_damaged`` where the game's header
    cannot be read back, its game then ``"?"``; else ``None``).

    Raises:
        referee.store.StoreError: the store could not be read (by its kind).
    """
    out = []
    for item in store.games():
        row = item.to_dict() if hasattr(item, "to_dict") else dict(item)
        out.append(
            _unicode(
                {
                    k: row.get(k)
                    for k in ("id", "game", "rules", "players", "events", "finished",
                              "damaged")
                }
            )
        )
    return out


def _unicode(value: Any) -> Any:
    """``value`` with any lone UTF-16 surrogate (not text) replaced by "?"."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
        return value
    except UnicodeEncodeError:
        text = json.dumps(value, ensure_ascii=False)
        return json.loads(text.encode("utf-8", "replace").decode("utf-8"))
    except (TypeError, ValueError):
        return value


def open_store(path: str | Path, evidence_dir: str | Path | None = None) -> Any:
    """The durable :class:`referee.store.GameStore` at ``path``, or a MemoryStore.

    The GameStore keeps evidence frames beside its database; ``evidence_dir``
    is only where a MemoryStore would keep them.

    The memory store is used only where ``referee.store`` is not installed; its
    games are lost when the process ends, and ``tableref serve`` says so.
    """
    try:
        from referee.store import GameStore
    except ImportError:
        return MemoryStore(evidence_dir)
    return GameStore(path)
