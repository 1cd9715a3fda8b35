"""Helpers shared by the tests that feed camera events to a live table."""

from __future__ import annotations

import io
from typing import Any

from vision.live import LiveTable


def cam(kind: str, t: float, **kw: Any) -> dict[str, Any]:
    """A camera event of ``kind`` at video time ``t``."""
    return {"type": kind, "source": "vision", "t": t, **kw}


def live_table(header: dict[str, Any], *events: dict[str, Any]) -> LiveTable:
    """A live table for ``header`` (its output kept in memory) fed ``events``."""
    live = LiveTable(dict(header), out=io.StringIO())
    for e in events:
        live.append(e)
    return live
