"""What the TGUS house rules remember beside :class:`~referee.uno.state.UnoState`."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import Card
from .tgus import FaceDown, Ranking


@dataclass
class TgusTrack:
    """The TGUS part of the state (seed 000); reset by each round's start.

    Attributes:
        ranking: who went out in which place (``play_to_last``).
        wins: games won per seat (success weight ``wins``).
        face_down_left: face-down plays each seat may still make this game.
        direction_set: the rock-paper-scissors direction was logged this round.
        acted: the round's first action happened.
        face_down: the face-down card that may be doubted now.
        face_down_card: that card, when the face-down event logged it.
        doubter: who doubts it (until it is shown).
        failed_challenger: who just lost a challenge and owes the cards.
        took_draw: who drew a debt and keeps the turn (``play_after_forced_draw``).
        paying: a draw event began with a debt of the player whose turn it is.
        keep_turn: set while a paid debt keeps the turn (one draw event).
        stopped: the game was stopped to end by points.
        next_sizes: the next game's hands (success weight).
        play_cards: the cards of the play being ruled.
        play_called: their player had called UNO before that play.
        as_value: what an all-mighty white wild acts as in that play.
        void: who passes on a lost challenge's draw now (its +2 is void).
        downpour: seats hit by a Wild Downpour in that play.
    """

    ranking: Ranking
    wins: list[int]
    face_down_left: list[int]
    direction_set: bool = False
    acted: bool = False
    face_down: FaceDown | None = None
    face_down_card: Card | None = None
    doubter: int | None = None
    failed_challenger: int | None = None
    took_draw: int | None = None
    paying: bool = False
    keep_turn: bool = False
    stopped: bool = False
    next_sizes: dict[str, int] | None = None
    play_cards: list[Card] = field(default_factory=list)
    play_called: bool = False
    as_value: str | None = None
    void: int | None = None
    downpour: list[int] = field(default_factory=list)
