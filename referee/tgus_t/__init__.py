"""tgus-t1 and tgus-t2: UNO with the 東幻符闘祭 deck (000 §T1, §T2).

Importing the package registers the deck's card labels and the game class
(``find_game("uno", "tgus-t1")``).
"""

from __future__ import annotations

from .cards import deck, deck_counts
from .game import TgusTGame
from .options import PRESETS, TGUS_T1, TGUS_T2, TgusTOptions

__all__ = [
    "PRESETS",
    "TGUS_T1",
    "TGUS_T2",
    "TgusTGame",
    "TgusTOptions",
    "deck",
    "deck_counts",
]
