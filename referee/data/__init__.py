"""Table logs bundled with the referee.

:data:`DEMO_LOG` is a recorded UNO game that shows off the official rules
(challenges, UNO calls, Draw Twos, scoring); ``tableref replay`` and the page's
recorded demo read it.
"""

from __future__ import annotations

from pathlib import Path

DEMO_LOG = Path(__file__).resolve().parent / "demo-game.jsonl"
