"""What the rule modules of tgus-t may use of the game: :class:`TgusTReferee`.

The rule modules (:mod:`.plays`, :mod:`.counter`, :mod:`.draws`,
:mod:`.turned`, :mod:`.pile`) take the game as their first argument. They never
import :mod:`.game`: this Protocol names the part of the game they use, so the
imports run one way (game -> rule modules -> context, table, options, cards).
"""

from __future__ import annotations

from typing import Any, Mapping, Protocol

from referee.log import Event
from referee.rulings import Ruling
from referee.text import Text

from .options import TgusTOptions
from .table import Table


class TgusTReferee(Protocol):
    """The game as the rule modules see it.

    Attributes:
        t: the table of the round (counts, turn, pending draws).
        opts: the preset's options with the header's overrides.
        players: the players in seating order.
        prefix: the preset's name, the first part of every rule name.
        winner: the first player out this round, if any.
        wins: rounds won by each player.
    """

    t: Table
    opts: TgusTOptions
    players: tuple[str, ...]
    prefix: str
    winner: str | None
    wins: dict[str, int]

    def ruling(self, event: int, kind: str, rule: str, text: Text, *,
               player: str | None = None, draw: int | None = None,
               scores: Mapping[str, int] | None = None, **extra: Any) -> Ruling:
        """A ruling named ``<prefix>.<rule>`` (:meth:`referee.game.Game.ruling`)."""
        ...

    def who(self, ev: Event, notes: list[str]) -> str:
        """The acting player: the event's, or the player on turn (noted)."""
        ...

    def owe(self, player: str, count: int) -> Text:
        """Make ``player`` owe ``count`` cards (:func:`.pile.owe`); what is drawn,
        as a part of a ruling's sentence."""
        ...

    def take_from_pile(self, ev: Event, count: int, out: list[Ruling]) -> None:
        """Move ``count`` cards from the pile (:func:`.pile.take_from_pile`)."""
        ...

    def close_catch_window(self, player: str) -> None:
        """Another player acting ends the window to catch a missing call."""
        ...
