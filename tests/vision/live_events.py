"""Helpers shared by the tests that feed camera events to a live table."""

from __future__ import annotations

import io
from typing import Any

from vision.live import LiveTable


def cam(kind: str, t: float, **kw: Any) -> dict[str, Any]:
    """A camera event of ``kind`` at video time ``t``."""
    return {"type": kind, "source": "vision", "t": t, **kw}


def uno_header(hand_size: int, players: tuple[str, ...] = ("A", "B", "C")
               ) -> dict[str, Any]:
    """An official UNO game's header: ``players`` in seating order, the last
    deals, ``hand_size`` cards each."""
    return {"type": "game", "game": "uno", "rules": "official",
            "players": list(players), "dealer": players[-1],
            "hand_size": hand_size, "options": {}}


def live_table(header: dict[str, Any], *events: dict[str, Any]) -> LiveTable:
    """A live table for ``header`` (its output kept in memory) fed ``events``."""
    live = LiveTable(dict(header), out=io.StringIO())
    for e in events:
        live.append(e)
    return live


def blocking_reread(monkeypatch: Any) -> tuple:
    """Make every tgus-t re-read wait until the test releases it: returns the
    events ``started`` (a re-read is running) and ``release`` (let it finish)
    and the list of threads the re-reads ran on."""
    import threading

    import vision.reread_tgus_t as reread

    real = reread.camera_amendment
    started, release, threads = threading.Event(), threading.Event(), []

    def slow(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread())
        started.set()
        assert release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(reread, "camera_amendment", slow)
    return started, release, threads
