"""TGUS-TGC-UNO house rules (seed 000, presets tgus-1, tgus-2, tgus-3): pure parts.

Everything here is a small function of values (cards, counts, rankings) with
no knowledge of the engine's state, so each rule can be tested on its own. The
engine calls these through :mod:`referee.uno.tgus_hooks`.

Rule names used in rulings are ``tgus-N.<rule>``; ``docs/rules-tgus.md`` lists
every rule with the seed section it comes from and how unclear text was read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from ..cards import Card
from ..text import STANDARD_VALUES, formatter
from .plays import matches

#: Success weight of tgus-3 for a points series (seed 000, TGUS-TGC-UNO.3 table):
#: (points earned at least, points left to the target at most, extra cards).
POINTS_WEIGHT_TABLE: tuple[tuple[int, int, int], ...] = (
    (500, 20, 5),
    (400, 40, 4),
    (300, 50, 3),
    (200, 70, 2),
    (100, 100, 1),
)

#: Effects a tgus-3 white wild ("all-mighty", like T1's Gamble) may stand for.
ALL_MIGHTY_EFFECTS: tuple[str, ...] = (
    "skip", "reverse", "draw2", "wild", "wild-draw4", "wild-shuffle",
)

DRAW_VALUES: dict[str, int] = {"draw2": 2, "wild-draw4": 4}


# -- success weight --------------------------------------------------------------
def weight_by_points(earned: int, target: int | None = None) -> int:
    """Extra cards from the tgus-3 points table.

    A row applies when the player's points earned reach its first column OR the
    points still missing to ``target`` are at most its second column; the first
    (largest) matching row wins.

    Args:
        earned: the player's total points in the series so far.
        target: the series target (e.g. 500); ``None`` uses the earned column only.

    Returns:
        0 to 5 extra cards.
    """
    left = None if target is None else max(target - earned, 0)
    for at_least, at_most_left, extra in POINTS_WEIGHT_TABLE:
        if earned >= at_least or (left is not None and left <= at_most_left):
            return extra
    return 0


def weight_by_rank(ranking: Sequence[str], top: int = 3) -> dict[str, int]:
    """tgus-2: the previous game's winners get up to ``top`` extra cards by rank.

    1st place gets ``top``, 2nd ``top - 1`` ... down to 1; everybody else 0.
    """
    return {p: max(top - i, 0) for i, p in enumerate(ranking)}


def weight_by_wins(wins: Mapping[str, int]) -> dict[str, int]:
    """tgus-3: one extra card per game won before."""
    return {p: max(int(n), 0) for p, n in wins.items()}


def next_hand_sizes(
    players: Sequence[str],
    base: int,
    mode: str,
    *,
    ranking: Sequence[str] = (),
    wins: Mapping[str, int] | None = None,
    points: Mapping[str, int] | None = None,
    target: int | None = None,
    rank_top: int = 3,
    limit: int | None = None,
) -> dict[str, int]:
    """Each player's starting hand for the next game under a success-weight mode.

    Args:
        players: every player, in seat order.
        base: the preset's hand size (7).
        mode: ``none``, ``rank`` (tgus-2), ``wins`` or ``points`` (tgus-3).
        ranking: the finished game's ranking, first out first (mode ``rank``).
        wins: games won so far per player (mode ``wins``).
        points: series points per player (mode ``points``).
        target: the series target for the "points left" column.
        rank_top: the most extra cards in mode ``rank``.
        limit: a hand-size ceiling (tgus-1's 10), or ``None``.

    Raises:
        ValueError: an unknown mode.
    """
    if mode == "none":
        extra: dict[str, int] = {}
    elif mode == "rank":
        extra = weight_by_rank(ranking, rank_top)
    elif mode == "wins":
        extra = weight_by_wins(wins or {})
    elif mode == "points":
        extra = {p: weight_by_points(n, target) for p, n in (points or {}).items()}
    else:
        raise ValueError(f"unknown success-weight mode {mode!r} "
                         "(none, rank, wins, points)")
    sizes = {p: base + extra.get(p, 0) for p in players}
    if limit is not None:
        sizes = {p: min(n, limit) for p, n in sizes.items()}
    return sizes


# -- ranking (play on until one player is left) ---------------------------------------
@dataclass
class Ranking:
    """Who went out in which place; the game ends when one player is left.

    Attributes:
        players: everybody, in seat order.
        order: players who went out, first out first.
    """

    players: tuple[str, ...]
    order: list[str] = field(default_factory=list)

    def finish(self, player: str) -> int:
        """Record ``player`` going out and return the place (1-based).

        Raises:
            ValueError: the player is unknown or already out.
        """
        if player not in self.players:
            raise ValueError(f"{player!r} is not a player ({', '.join(self.players)})")
        if player in self.order:
            raise ValueError(f"{player} already went out in place {self.place(player)}")
        self.order.append(player)
        return len(self.order)

    def place(self, player: str) -> int | None:
        return self.order.index(player) + 1 if player in self.order else None

    @property
    def remaining(self) -> tuple[str, ...]:
        """Players still holding cards, in seat order."""
        return tuple(p for p in self.players if p not in self.order)

    @property
    def done(self) -> bool:
        return len(self.remaining) <= 1

    def full(self, by_points: Mapping[str, int] | None = None) -> list[str]:
        """The complete ranking: players out in order, then the rest.

        Players still in are ordered by ``by_points`` (fewest hand points first,
        ties in seat order) when given, else in seat order.
        """
        rest = list(self.remaining)
        if by_points is not None:
            rest.sort(key=lambda p: (by_points.get(p, 0), self.players.index(p)))
        return list(self.order) + rest


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ..."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    if 10 <= n % 100 <= 20:
        suffix = "th"
    return f"{n}{suffix}"


@formatter("uno-tgus-place")
def _place(args: Mapping[str, object], lang: str) -> str:
    """A place in the ranking: ``1st``, ``2nd``; ``1位``."""
    n = int(str(args["n"]))
    return f"{n}位" if lang == "ja" else ordinal(n)


@formatter("uno-tgus-effects")
def _effects(args: Mapping[str, object], lang: str) -> str:
    """What a white wild acts as, by value: ``skip, draw2``; ``スキップ、ドロー2``."""
    values = [str(v) for v in args["values"]]  # type: ignore[attr-defined]
    if lang == "ja":
        return "、".join(STANDARD_VALUES["ja"].get(v, v) for v in values)
    return ", ".join(values)


# -- plays -------------------------------------------------------------------------
def picture_only(cards: Iterable[Card]) -> bool:
    """True when a (non-empty) hand holds no number card: the picture leftover."""
    hand = list(cards)
    return bool(hand) and not any(c.is_number for c in hand)


def finishes_on_number(cards: Sequence[Card]) -> bool:
    """tgus-2/3: a going-out play must be of number cards (all of them)."""
    return bool(cards) and all(c.is_number for c in cards)


def effective_value(card: Card, as_value: str | None, white_wild: str) -> str:
    """The value a card acts as: a tgus-3 white wild acts as its named effect.

    Raises:
        ValueError: ``as_value`` names no picture effect.
    """
    if card.value != "wild-custom" or white_wild != "all-mighty":
        return card.value
    if as_value is None:
        return "wild"
    if as_value not in ALL_MIGHTY_EFFECTS:
        raise ValueError(
            f"a white wild may act as {', '.join(ALL_MIGHTY_EFFECTS)}, not {as_value!r}"
        )
    return as_value


# -- face-down plays and doubt (tgus-3) -----------------------------------------------
@dataclass(frozen=True)
class FaceDown:
    """A card played face down to skip a turn, waiting for a possible doubt.

    Attributes:
        player: who played it.
        top: the face-up top card it was played on.
        color: the colour in force then.
        event: the log line of the face-down play.
    """

    player: str
    top: Card
    color: str | None
    event: int


def doubt_loser(face_down: FaceDown, card: Card, doubter: str) -> tuple[str, bool]:
    """Resolve a doubt: returns (who draws the penalty, whether the card was playable).

    The card counts as playable when it matches the pile it was put on by the
    ordinary rule (colour, number or symbol; wilds always, a Wild Draw Four too,
    since its restriction is a matter for a challenge).
    """
    playable = matches(card, face_down.top, face_down.color)
    return (doubter if playable else face_down.player), playable


def shuffle_hands_counts(
    hand_counts: Mapping[str, int], seats: Sequence[str], player: str, direction: int
) -> dict[str, int]:
    """Hand counts after Wild Shuffle Hands.

    ``player`` collects every hand (their own after the play), shuffles and deals
    them out one at a time, starting with the next player in the direction of
    play; everybody still in gets cards, the dealer last.
    """
    total = sum(hand_counts.get(p, 0) for p in seats)
    n = len(seats)
    i = seats.index(player)
    order = [seats[(i + direction * k) % n] for k in range(1, n + 1)]
    counts = {p: total // n for p in seats}
    for p in order[: total % n]:
        counts[p] += 1
    return counts
