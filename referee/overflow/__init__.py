"""Overflow ("overflow limits"): a memory game on the UNO deck (seed 004).

The game lives in :mod:`referee.overflow.game`; it builds on
:mod:`referee.phased`, the small base class shared by the three games of
issue 4 (overflow, junocos, narabe-runo). Importing this package registers the game.
"""

from __future__ import annotations

from .game import Overflow, OverflowOptions

__all__ = ["Overflow", "OverflowOptions"]
