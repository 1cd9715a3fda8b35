"""Narabe-runo: building one path of UNO cards on the table (seed 003).

:mod:`referee.narabe.game` is the referee, :mod:`referee.narabe.geometry` the
table grid (``"at": [x, y]`` in card units, adjacency, the score-card
boundary) and :mod:`referee.narabe.scoring` the score-card scoring. Importing
this package registers the game. Events and interpretations:
``docs/events-narabe-runo.md``.
"""

from __future__ import annotations

from .game import NarabeOptions, NarabeRuno

__all__ = ["NarabeOptions", "NarabeRuno"]
