"""Scoring of captured narabe-runo score cards (003 §得点カードの獲得点)."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card

#: Cards drawn for a Draw score card (and after playing one).
DRAWS = {"draw2": 2, "wild-draw4": 4}


def score_cards(
    players: Sequence[str],
    revealed: dict[str, list[Card]],
    picks: dict[str, list[list[Card]]],
    gift: int = 3,
) -> dict[str, int]:
    """Every player's points from the score cards each one captured.

    A number scores its value; Draw Two / Wild Draw Four score the highest
    number among the 2 / 4 cards drawn for it (``picks``; 0 when none is a
    number); a Skip gives ``gift`` to the player two seats after its owner, a
    Reverse to the player before, and any other wild to every other player.

    Args:
        players: seating order, clockwise.
        revealed: player -> the score cards they captured.
        picks: player -> the card lists drawn for their Draw score cards.
        gift: points a Skip/Reverse/Wild gives away.
    """
    n = len(players)
    deltas = {p: 0 for p in players}
    for p, cards in revealed.items():
        seat = players.index(p)
        drawn = {k: [d for d in picks.get(p, []) if len(d) == k] for k in (2, 4)}
        for card in cards:
            if card.is_number:
                deltas[p] += int(card.value)
            elif card.value in DRAWS:
                pick = drawn[DRAWS[card.value]].pop(0)
                deltas[p] += max((c.number for c in pick if c.is_number), default=0)
            elif card.value == "skip":
                deltas[players[(seat + 2) % n]] += gift
            elif card.value == "reverse":
                deltas[players[(seat - 1) % n]] += gift
            else:
                for q in players:
                    deltas[q] += gift if q != p else 0
    return deltas


def missing_draws(cards: list[Card], picks: list[list[Card]], size: int) -> int:
    """How many Draw score cards drawing ``size`` still wait for their cards."""
    want = sum(1 for c in cards if DRAWS.get(c.value) == size)
    return want - sum(1 for d in picks if len(d) == size)
