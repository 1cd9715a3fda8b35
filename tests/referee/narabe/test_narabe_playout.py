"""Seeded random playouts of narabe-runo: cards conserved, consistent scores, an end."""

from __future__ import annotations

import math
import random

import pytest

from referee.cards import Card, standard_deck
from referee.game import replay
from referee.narabe.geometry import outside_boundary
from referee.session import Referee


def simulate(seed: int, players: list[str]):
    """A whole game with real cards and legal random moves; yields the events."""
    rng = random.Random(seed)
    pile = standard_deck()
    rng.shuffle(pile)
    discards: list[Card] = []
    hands = {p: [pile.pop() for _ in range(3)] for p in players}
    start = pile.pop()
    yield {"type": "start", "card": start.label, "color": "red"}
    spots = set()
    count = rng.randint(3, 6)
    for k in range(count):  # spread around the start card, as players lay them
        angle = 2 * math.pi * (k + rng.random() * 0.5) / count
        radius = rng.uniform(2.5, 4.5)
        spots.add((round(radius * math.cos(angle)), round(radius * math.sin(angle))))
    all_spots = list(spots)
    score_cards = {s: pile.pop() for s in spots}
    yield {"type": "score-cards", "at": [list(s) for s in all_spots]}
    captured = {p: [] for p in players}
    branches: list[list[tuple]] = []  # (cell, card, colour)
    cur, must = None, "free"
    root = ((0, 0), start, start.color or "red")
    turn = 0
    for _ in range(400):
        if len(spots) <= 1:
            break
        p = players[turn % len(players)]
        used = {c for b in branches for c, _, _ in b} | {(0, 0)}
        tips = [(i, b[-1]) for i, b in enumerate(branches)]
        if must == "continue":
            anchors = [t for t in tips if t[0] == cur]
        else:
            anchors = [t for t in tips if must == "free" or t[0] != cur] + [
                (None, root)
            ]
        moves = []
        for card in hands[p]:
            for bi, (cell, acard, acol) in anchors:
                if not (
                    card.is_wild or card.color == acol or card.value == acard.value
                ):
                    continue
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    nc = (cell[0] + dx, cell[1] + dy)
                    if nc not in used and not outside_boundary(nc, all_spots):
                        dist = min(abs(nc[0] - s[0]) + abs(nc[1] - s[1]) for s in spots)
                        moves.append((dist, rng.random(), card, bi, nc))
        if moves:
            _, _, card, bi, nc = min(moves) if rng.random() < 0.7 else rng.choice(moves)
            color = (
                rng.choice(["red", "blue", "green", "yellow"])
                if card.is_wild
                else card.color
            )
            hands[p].remove(card)
            ev = {"type": "play", "player": p, "card": card.label, "at": list(nc)}
            if card.is_wild:
                ev["color"] = color
            yield ev
            if bi is None:
                branches.append([])
                bi = len(branches) - 1
            branches[bi].append((nc, card, color))
            if nc in spots:
                spots.discard(nc)
                captured[p].append(score_cards[nc])
                discards += [c for _, c, _ in branches.pop(bi)]
                cur, must = None, "free"
            else:
                cur, must = bi, "other" if card.value == "reverse" else "continue"
            want = {"draw2": 2, "wild-draw4": 4}.get(card.value, 1)
        else:
            card = hands[p].pop(rng.randrange(len(hands[p])))
            discards.append(card)
            yield {"type": "discard", "player": p, "card": card.label}
            want = 1
        want = min(want, 7 - len(hands[p]))
        if want:
            if want > len(pile):
                rng.shuffle(discards)
                pile[:0] = discards
                discards.clear()
            hands[p] += [pile.pop() for _ in range(want)]
            yield {"type": "draw", "player": p, "count": want}
        turn += 2 if moves and card.value == "skip" else 1
    for p in players:
        if captured[p]:
            yield {
                "type": "reveal",
                "player": p,
                "cards": [c.label for c in captured[p]],
            }
            for c in captured[p]:
                if c.value in ("draw2", "wild-draw4"):
                    k = 2 if c.value == "draw2" else 4
                    yield {
                        "type": "score-draw",
                        "player": p,
                        "cards": [pile.pop().label for _ in range(k)],
                    }


@pytest.mark.parametrize("seed,n", [(1, 2), (2, 3), (3, 4), (4, 4), (5, 3)])
def test_random_playout(seed, n):
    players = [f"P{i}" for i in range(n)]
    ref = Referee(
        {
            "type": "game",
            "game": "narabe-runo",
            "rules": "narabe-runo",
            "players": players,
        }
    )
    for event in simulate(seed, players):
        ref.append(event)
        st = ref.state()
        if st["phase"] == "play":
            on_table = 1 + sum(len(b) for b in st["branches"]) + len(st["score_cards"])
            held = sum(st["hand_counts"].values()) + sum(st["captured"].values())
            assert held + on_table + st["pile"] + st["discards"] == 108
            assert max(st["hand_counts"].values()) <= 7
    bad = [r for r in ref.rulings if r.ruling == "illegal"]
    assert not bad, bad
    res = replay(ref.log_lines())  # the written log replays to the same state
    assert res.game.state() == ref.state()
    st = ref.state()
    assert st["over"] and len(st["score_cards"]) == 1
    assert sum(st["captured"].values()) >= 2
    assert st["scores"] == st["rounds"][0]["deltas"]
    best = max(st["scores"].values())
    assert st["winners"] == [p for p in players if st["scores"][p] == best]
