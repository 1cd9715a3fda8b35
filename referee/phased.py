"""What the three non-UNO games (overflow, junocos, narabe-runo) share.

A small base class, :class:`PhasedGame`, on :class:`referee.game.Game`'s
dispatch (``handlers``) and rulings (``Game.ruling``): an event after the game
ended is ``<game>.game-over``, an event outside its phase is an ``illegal``
ruling (``<game>.phase``) that changes nothing, a missing ``player`` is the
player whose turn it is (and the ruling says so), a card of another deck is
``<game>.deck``, and the common keys of ``state()`` (``game, rules, players,
turn, scores, rounds, over, winner, winners``) are built in one place.
Options are a frozen dataclass per game, overridden by the
header's ``options`` (:func:`build_options`).
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any, ClassVar

from .cards import Card
from .game import Game, GameError
from .log import Event, Header
from .rulings import Ruling


def build_options(cls: type, header: Header) -> tuple[Any, list[str]]:
    """The options dataclass ``cls`` with the header's ``options`` applied.

    Returns:
        The options and one sentence per header option that was ignored (an
        unknown name or a value of the wrong type); the game reports those as
        ``info`` rulings and goes on with the preset's value.
    """
    base = cls()
    known = {f.name for f in fields(cls)}
    changes: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in header.options.items():
        if key not in known:
            names = ", ".join(sorted(known))
            problems.append(f"Option {key!r} means nothing here (options: {names}), "
                            "so it was ignored.")
            continue
        want = type(getattr(base, key))
        if not isinstance(value, want) or isinstance(value, bool) != (want is bool):
            default = getattr(base, key)
            problems.append(f"Option {key!r} must be {want.__name__}, not "
                            f"{value!r}, so the preset's {default!r} applies.")
            continue
        changes[key] = value
    return replace(base, **changes), problems


def card_of(event: Event, key: str = "card") -> Card:
    """The card named by ``event[key]``; raises GameError when it is missing."""
    raw = event.get(key)
    if raw is None:
        raise GameError(f"'{event.type}' needs a '{key}' card label")
    return Card.from_label(raw)


def cards_of(event: Event, key: str = "cards", required: bool = True) -> list[Card]:
    """The cards named by the list ``event[key]`` (empty when optional and absent)."""
    raw = event.get(key)
    if raw is None and not required:
        return []
    if not isinstance(raw, list):
        raise GameError(f"'{event.type}' needs '{key}': a list of card labels")
    return [Card.from_label(x) for x in raw]


def count_of(event: Event) -> int:
    """The positive ``count`` of a draw event (default 1)."""
    count = event.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise GameError(f"'count' must be a positive integer, got {count!r}")
    return count


class PhasedGame(Game):
    """Base of a game whose events belong to phases. Subclasses set ``PHASES``.

    ``handlers`` maps an event type to its method (``Game.apply`` dispatches);
    ``PHASES`` maps an event type to the phases it is allowed in; a type not
    listed is allowed in any phase. Subclasses keep ``self.phase``,
    ``self.turn``, ``self.scores``, ``self.rounds`` and ``self.winners``.
    """

    PHASES: ClassVar[dict[str, tuple[str, ...]]] = {}

    def __init__(self, header: Header):
        super().__init__(header)
        self.turn = self.players[0]
        self.phase = "setup"
        self.scores = {p: 0 for p in self.players}
        self.rounds: list[dict[str, Any]] = []
        self.winners: list[str] = []
        self.notes: list[str] = []  # header problems, reported with the first event

    def options_from(self, cls: type, header: Header) -> Any:
        """The game's options from the header; problems become ``notes``."""
        options, self.notes = build_options(cls, header)
        return options

    @property
    def over(self) -> bool:
        return bool(self.winners)

    def off_deck(self, event: Event, cards: list[Card], deck: frozenset[Card],
                 what: str, player: str | None = None, note: str = "") -> list[Ruling]:
        """A ``deck`` ruling for the first of ``cards`` not in ``deck``, or [].

        A card of another deck (the 東幻符闘祭 deck's ``red-hit2``, ``counter``)
        is not counted and the game goes on; ``what`` names the game's deck.
        """
        for card in cards:
            if card not in deck:
                text = (f"{card} is not in the {self.name} deck ({what}){note}: take "
                        "it back; it was not counted.")
                return [self.ruling(event.index, "illegal", "deck", text,
                                    player=player)]
        return []

    def who(self, event: Event) -> tuple[str, str]:
        """The acting player and a note for the ruling when the event named nobody."""
        player = event.player
        if player is None:
            note = f" (no player was given, so {self.turn}, whose turn it is)"
            return self.turn, note
        if player not in self.players:
            raise GameError(f"{player!r} is not a player of this game")
        return player, ""

    def who_draws(self, event: Event, owed: dict[str, int]) -> tuple[str, str]:
        """Like :meth:`who`, but a draw naming nobody is the owing player nearest
        before the turn (the one who just played), not the player whose turn it is."""
        if event.player is not None:
            return self.who(event)
        for back in range(1, len(self.players) + 1):
            player = self.next_player(self.turn, -back)
            if owed.get(player):
                return player, f" (no player was given, so {player}, who owes cards)"
        return self.who(event)

    def next_player(self, player: str, steps: int = 1) -> str:
        """The player ``steps`` seats clockwise (negative: counter-clockwise)."""
        n = len(self.players)
        return self.players[(self.players.index(player) + steps) % n]

    def apply(self, event: Event) -> list[Ruling]:
        """Header problems first (once), then ``game-over`` or the dispatch."""
        notes = [self.ruling(event.index, "info", "options", n) for n in self.notes]
        self.notes = []
        if self.over:
            text = "The game is over; this event was not refereed."
            return notes + [self.ruling(event.index, "info", "game-over", text)]
        return notes + super().apply(event)

    def refusal(self, event: Event) -> Ruling | None:
        """An ``illegal`` ``phase`` ruling for an event outside its phases."""
        allowed = self.PHASES.get(event.type)
        if allowed is not None and self.phase not in allowed:
            text = (f"A '{event.type}' does not belong in the {self.phase} phase; "
                    "it was not counted.")
            return self.ruling(event.index, "illegal", "phase", text)
        return None

    def finish(self, event: Event, why: str) -> Ruling:
        """End the game: the highest score wins, ties share; the game-end ruling."""
        best = max(self.scores.values())
        self.winners = [p for p in self.players if self.scores[p] == best]
        verb = "wins" if len(self.winners) == 1 else "share the win"
        text = f"{why}: {' and '.join(self.winners)} {verb} with {best}."
        return self.ruling(event.index, "game-end", "game-end", text,
                           scores=dict(self.scores))

    def common_state(self) -> dict[str, Any]:
        """The keys every game's state has (the page's scoreboard reads these)."""
        winners = self.winners
        return {
            "game": self.name,
            "rules": self.header.rules,
            "players": list(self.players),
            "turn": None if self.over else self.turn,
            "phase": "over" if self.over else self.phase,
            "scores": dict(self.scores),
            "rounds": [dict(r) for r in self.rounds],
            "over": self.over,
            # one name, or the list of names sharing the win (the page shows both)
            "winner": winners[0] if len(winners) == 1 else list(winners) or None,
            "winners": list(self.winners),
        }
