"""The referee's view of a tgus-t table: counts, turn order, draws owed, the pile.

The referee never sees hands. It tracks hand *counts*, the draw pile and
discard counts (so that tgus-t2's stock and rebuild can be ruled), the top card
and colour, the turn and direction, the pending Hit chain, draws owed now and
draws stocked for later, and the finishing order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.cards import Card


@dataclass
class Chain:
    """A pending draw: who must answer it, how many cards, the rank to beat."""

    amount: int
    target: str
    rank: int
    source: str


@dataclass
class HitX:
    """A Hit+? waiting for the cards turned from the pile."""

    player: str
    base: int
    target: str
    count: int  # Hit+? cards played at once: each turns one card
    cards: list[Card] = field(default_factory=list)
    effects: list[str] = field(default_factory=list)


@dataclass
class ChangeHit:
    """A Change waiting for its colour (or a Counter from its target)."""

    source: str
    target: str
    chooser: str


@dataclass
class Table:
    """Everything the referee knows about one round."""

    players: tuple[str, ...]
    started: bool = False
    round: int = 0
    turn: str | None = None
    direction: int = 1
    top: Card | None = None
    top_effect: str | None = None
    color: str | None = None
    hands: dict[str, int] = field(default_factory=dict)
    pile: int = 0
    discards: int = 0
    owed: dict[str, int] = field(default_factory=dict)
    stock: dict[str, int] = field(default_factory=dict)
    picture_stock: set[str] = field(default_factory=set)
    chain: Chain | None = None
    hitx: HitX | None = None
    change: ChangeHit | None = None
    all_hit_open: set[str] = field(default_factory=set)
    all_hit_source: str | None = None
    awaiting_color: str | None = None
    #: players whose Counter since the last other card names no colour, and what
    #: it answered (``hit`` or ``all-hit2``): why their colour does not count
    countered: dict[str, str] = field(default_factory=dict)
    drew: bool = False
    called: set[str] = field(default_factory=set)
    exposed: str | None = None
    leftover: set[str] = field(default_factory=set)
    ranking: list[str] = field(default_factory=list)
    over: bool = False

    # -- seats -------------------------------------------------------------------
    def active(self) -> list[str]:
        """Players still in the round, in seating order."""
        return [p for p in self.players if p not in self.ranking]

    def next(self, player: str, steps: int = 1, direction: int | None = None) -> str:
        """The player ``steps`` seats on from ``player``, skipping players out."""
        d = self.direction if direction is None else direction
        n = len(self.players)
        i = self.players.index(player)
        left = steps
        current = player
        for _ in range(n * (steps + 1)):
            i = (i + d) % n
            current = self.players[i]
            if current in self.ranking:
                continue
            left -= 1
            if left <= 0:
                break
        return current

    def prev(self, player: str) -> str:
        """The player before ``player`` in the direction of play."""
        return self.next(player, 1, -self.direction)

    # -- counts ------------------------------------------------------------------
    def owed_total(self) -> int:
        """Cards owed now by all players together."""
        return sum(self.owed.values())

    def total_cards(self) -> int:
        """Cards the referee accounts for: hands, pile, discards (conserved)."""
        return sum(self.hands.values()) + self.pile + self.discards
