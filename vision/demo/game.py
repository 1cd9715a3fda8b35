"""A scripted, legal game of official UNO for the bundled demo table.

:func:`simulate` deals from a seeded deck and plays a few rounds with simple
players (play the first playable card, keep the Wild Draw Four for when
nothing else fits, call UNO before going down to one card, draw and pass when
stuck), writing the table log the camera should see. :func:`check` replays it
through the referee and lists every ruling that is not plainly legal, so the
demo's ground truth is known to be a real game.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from referee.cards import COLORS, Card, shuffled, standard_deck
from referee.game import replay
from referee.log import dump_event

PLAYERS = ("Aiko", "Ben", "Chie")


def _playable(card: Card, top: Card, colour: str) -> bool:
    return card.is_wild or card.color == colour or card.value == top.value


def _choose(
    hand: list[Card], top: Card, colour: str, twins: bool = False
) -> Card | None:
    normal = [c for c in hand if _playable(c, top, colour) and c.value != "wild-draw4"]
    if twins:  # a copy of the top card first, then its number or symbol
        normal.sort(key=lambda c: (c.label != top.label, c.value != top.value))
    if normal:
        return normal[0]
    return next((c for c in hand if c.value == "wild-draw4"), None)


def _best_colour(hand: list[Card], rng: random.Random) -> str:
    counts = Counter(c.color for c in hand if c.color)
    return counts.most_common(1)[0][0] if counts else rng.choice(COLORS)


def simulate(
    seed: int = 7,
    rounds: int = 2,
    hand_size: int = 5,
    players: tuple[str, ...] = PLAYERS,
    max_turns: int = 60,
    twins: bool = False,
) -> list[dict[str, Any]]:
    """Header plus events (no times) of ``rounds`` rounds of official UNO.

    ``twins``: players put a copy of the top card on it whenever they hold one
    (then a card of its number or symbol), so the game has twins landing on
    each other (the harder rendered games of ``benchmarks/eval_handsfree.py``).

    Raises:
        ValueError: a round did not finish within ``max_turns`` turns.
    """
    rng = random.Random(seed)
    n = len(players)
    dealer = n - 1
    header = {
        "type": "game",
        "game": "uno",
        "rules": "official",
        "players": list(players),
        "dealer": players[dealer],
        "hand_size": hand_size,
        "options": {"scoring": "japan", "rounds": rounds},
    }
    events: list[dict[str, Any]] = [header]
    for _ in range(rounds):
        while True:
            deck = shuffled(standard_deck(), rng)
            if deck[n * hand_size].is_number:
                break
        hands = [deck[i * hand_size : (i + 1) * hand_size] for i in range(n)]
        pile = deck[n * hand_size + 1 :]
        top = deck[n * hand_size]
        colour = top.color or ""
        events.append({"type": "start", "card": top.label})
        turn, direction = (dealer + 1) % n, 1
        for _turn in range(max_turns):
            hand = hands[turn]
            card = _choose(hand, top, colour, twins)
            drew = False
            if card is None:
                got = pile.pop(0)
                hand.append(got)
                events.append({"type": "draw", "player": players[turn], "count": 1})
                drew = True
                card = got if _playable(got, top, colour) else None
                if card is None:
                    events.append({"type": "pass", "player": players[turn]})
                    turn = (turn + direction) % n
                    continue
            if len(hand) == 2:
                events.append({"type": "uno", "player": players[turn]})
            hand.remove(card)
            play: dict[str, Any] = {
                "type": "play",
                "player": players[turn],
                "cards": [card.label],
            }
            if card.is_wild:
                play["color"] = _best_colour(hand, rng)
            if drew:
                play["after_draw"] = True
            events.append(play)
            top, colour = card, card.color or play["color"]
            step = 1
            if card.value == "reverse":
                direction = -direction
                step = 2 if n == 2 else 1
            elif card.value == "skip":
                step = 2
            elif card.value in ("draw2", "wild-draw4"):
                victim = (turn + direction) % n
                count = 2 if card.value == "draw2" else 4
                events.append(
                    {"type": "draw", "player": players[victim], "count": count}
                )
                hands[victim] += [pile.pop(0) for _ in range(count)]
                step = 2
            if not hand:
                dealer = turn
                break
            turn = (turn + direction * step) % n
        else:
            raise ValueError(f"seed {seed}: a round took more than {max_turns} turns")
        for p in range(n):
            if hands[p]:
                events.append(
                    {
                        "type": "reveal",
                        "player": players[p],
                        "cards": sorted(c.label for c in hands[p]),
                    }
                )
    for e in events:
        e.pop("after_draw", None)
    return events


def check(events: list[dict[str, Any]]) -> list[str]:
    """Rulings of its replay that are not ok, pending, round-end or game-end."""
    result = replay(dump_event(e) for e in events)
    return [
        r.to_json()
        for r in result.rulings
        if r.ruling not in ("ok", "pending", "round-end", "game-end")
    ]
