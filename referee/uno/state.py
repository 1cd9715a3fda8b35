"""The referee's view of an uno game: a mutable record rebuilt from events.

The referee never sees hands: it tracks hand *counts*, the draw pile count,
the top card and the colour in force, the turn and direction, draws owed, UNO
calls and open catch windows, the Wild Draw Four challenge window, and scores.
Players are indices into ``players`` internally; rulings and views use names
(:meth:`UnoState.name`). What a viewer may see of it is computed by
:mod:`referee.uno.observe`.

Phases:
    ``setup``     waiting for the ``start`` of a round (first card turned).
    ``restart``   the first card went back into the pile; waiting for another.
    ``turn``      the player ``turn`` is to act (``pending`` > 0: owes cards).
    ``drawn``     the player ``turn`` drew voluntarily: play the drawn card or pass.
    ``challenge`` a Wild Draw Four is challenged; waiting for the accused's reveal.
    ``scoring``   the round is won; waiting for owed draws and the losers' reveals.
    ``over``      the game has ended.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol

from ..cards import Card
from ..game import GameError
from ..log import Event
from ..rulings import Ruling
from ..text import Text, define

define({
    "uno.not-a-player": {
        "en": '{key} {got} is not one of the players ({players})',
        "ja": '{key} {got} はプレイヤー（{players}）の一人ではありません',
    },
})

define({
    "uno.implied-turn": {"en": " (player taken from the turn)",
                         "ja": "（プレイヤーは手番から判断）"},
    "uno.implied-owed": {"en": " (player taken from the cards owed)",
                         "ja": "（プレイヤーは引くべきカードから判断）"},
})


class Say(Protocol):
    """How a rule function names its ruling: the game's ``ruling`` method.

    ``say(event, kind, rule, text, player=name, draw=n)`` gives the ruling
    ``<preset>.<rule>`` (:meth:`referee.game.Game.ruling`).
    """

    def __call__(self, event: int, kind: str, rule: str, text: str, *,
                 player: str | None = None, draw: int | None = None,
                 scores: Mapping[str, int] | None = None,
                 **extra: Any) -> Ruling: ...


@dataclass
class Wd4Record:
    """The last Wild Draw Four play, kept for a challenge."""

    player: int
    victim: int
    cards: int
    prev_top: Card | None
    prev_color: str | None
    prev_direction: int
    prev_pending: int
    prev_pending_kind: str | None
    challengeable: bool
    count_after: int = -1  # the player's hand count right after the play
    prev_wild_player: int | None = None  # who named the colour of ``prev_top``


@dataclass
class UnoState:
    """Everything the referee knows; see the module docstring for phases."""

    players: tuple[str, ...]
    dealer: int
    hand_size: int
    deck: int
    phase: str = "setup"
    round: int = 0
    turn: int = 0
    direction: int = 1
    top: Card | None = None
    color: str | None = None
    pending: int = 0
    pending_kind: str | None = None
    drawn_card: Card | None = None
    hand_counts: list[int] = field(default_factory=list)
    owed: list[int] = field(default_factory=list)
    called: list[bool] = field(default_factory=list)
    uno_calls: list[int] = field(default_factory=list)
    catchable: dict[int, int] = field(default_factory=dict)  # player -> line opened
    draw_pile: int = 0
    discard: int = 0
    scores: list[int] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    rounds_won: int = 0  # entries of ``rounds`` with a winner (japan's round count)
    round_winner: int | None = None
    revealed: dict[int, list[Card]] = field(default_factory=dict)
    secret_reveal: dict[int, list[Card]] = field(default_factory=dict)
    wd4: Wd4Record | None = None
    challenger: int | None = None
    winner: int | None = None
    out: set[int] = field(default_factory=set)  # out of the round (tgus play_to_last)
    wild_player: int | None = None  # who names the colour of the wild on top (001)
    wd4_returned: int | None = None  # its guilty Wild Draw Four came back: play another
    verdict: tuple[int, bool] | None = None  # last challenge: (accused, guilty)
    reveal_viewer: dict[int, int] = field(default_factory=dict)  # accused -> challenger
    start_sizes: list[int] | None = None  # per-player hands of the next deal (tgus)
    implied_round: int = -1  # the round whose rulings said once "player taken from ..."

    def __post_init__(self) -> None:
        self.seats = {name: i for i, name in enumerate(self.players)}
        n = len(self.players)
        self.hand_counts = self.hand_counts or [0] * n
        self.owed = self.owed or [0] * n
        self.called = self.called or [False] * n
        self.uno_calls = self.uno_calls or [0] * n
        self.scores = self.scores or [0] * n

    # -- seating -----------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.players)

    def step(self, player: int, steps: int = 1) -> int:
        """The player ``steps`` seats away from ``player`` in the current direction."""
        n = len(self.players)
        if not self.out or len(self.out) >= n:
            return (player + self.direction * steps) % n
        for _ in range(steps):  # players out of the round (tgus) are passed over
            player = (player + self.direction) % n
            while player in self.out:
                player = (player + self.direction) % n
        return player

    def index(self, name: str | None) -> int | None:
        try:
            return self.players.index(name) if name is not None else None
        except ValueError:
            return None

    def name(self, player: int | None) -> str | None:
        return None if player is None else self.players[player]

    def who(self, ev: Event, default: int | None,
            key: str = "player") -> tuple[int | None, bool]:
        """The seat an event names under ``key``, or ``default`` (implied=True).

        A camera event whose arm could not be attributed says
        ``"player_from": "turn"``: its player is implied too, named or not.

        Raises:
            GameError: the name is not one of the players.
        """
        name = ev.data.get(key)
        if name is None:
            return default, True
        seat = self.seats.get(name) if isinstance(name, str) else None
        if seat is None:
            raise GameError(Text("uno.not-a-player", key=key, got=repr(name),
                                 players=", ".join(self.players)))
        return seat, key == "player" and ev.data.get("player_from") == "turn"

    def implied_note(self, player: int, implied: bool,
                     whose: str = "turn") -> Text | str:
        """`` (player taken from the turn)``, said once a round; then ``""``.

        ``whose`` is ``"turn"`` or ``"cards owed"``. The ruling carries
        ``implied: true`` every time (the game adds it), so the fact is said
        once and is still in the data of every line.
        """
        if not implied or self.implied_round == self.round:
            return ""
        self.implied_round = self.round
        return Text("uno.implied-owed" if whose == "cards owed" else "uno.implied-turn")

    # -- round set-up --------------------------------------------------------------
    def deal(self) -> None:
        """Deal a new round: full hands, fresh pile, calls and debts cleared."""
        n = self.n
        self.round += 1
        self.hand_counts = list(self.start_sizes or [self.hand_size] * n)
        self.out = set()
        self.owed = [0] * n
        self.called = [False] * n
        self.uno_calls = [0] * n
        self.catchable = {}
        self.draw_pile = max(0, self.deck - sum(self.hand_counts))
        self.discard = 0
        self.direction = 1
        self.top = None
        self.color = None
        self.pending = 0
        self.pending_kind = None
        self.drawn_card = None
        self.round_winner = None
        self.revealed = {}
        self.secret_reveal = {}
        self.wd4 = None
        self.challenger = None
        self.wild_player = None
        self.wd4_returned = None
        self.verdict = None
        self.reveal_viewer = {}

    def take_from_pile(self, count: int) -> int:
        """Remove up to ``count`` cards from the pile, reshuffling the discards in.

        Returns how many cards were really available.
        """
        if count > self.draw_pile and self.discard > 1:
            self.draw_pile += self.discard - 1
            self.discard = 1
        got = min(count, self.draw_pile)
        self.draw_pile -= got
        return got

    def snapshot(self) -> "UnoState":
        return copy.deepcopy(self)
