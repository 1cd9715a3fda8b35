"""Seeded random playouts of overflow: cards conserved, consistent scores, an end."""

from __future__ import annotations

import json
import random

import pytest

from referee.cards import COLORS, Card, standard_deck
from referee.game import replay


def simulate(seed: int, players: list[str]):
    """Yield each round's events of a random game played with real cards."""
    rng = random.Random(seed)
    limit_decks = {
        c: [Card(c, v) for v in ("reverse", "0", "1", "2", "3")] for c in COLORS
    }
    pile = [c for c in standard_deck() if c.value != "wild-draw4"]
    for deck in limit_decks.values():
        for c in deck:
            pile.remove(c)
    rng.shuffle(pile)  # pile.pop() takes the top; pile[:0] = ... puts under it
    hands = {p: [pile.pop() for _ in range(5)] for p in players}
    start = players[0]
    while True:
        events: list[dict] = []
        shown = 0
        for color in COLORS:
            deck = limit_decks[color][:]
            rng.shuffle(deck)
            while deck[0].value == "reverse" and shown >= 2:
                events.append({"type": "limit", "card": deck[0].label})
                deck.append(deck.pop(0))
            shown += deck[0].value == "reverse"
            events.append({"type": "limit", "card": deck[0].label})
        down = {}
        for p in players:
            down[p] = hands[p].pop(rng.randrange(5))
            events.append({"type": "limit-break", "player": p, "card": down[p].label})
        box: list[tuple[int, str, Card]] = []
        last: dict[str, int] = {}
        turn = players.index(start)
        while True:
            p = players[turn % len(players)]
            targets = [q for n, q, _ in box if n > last.get(p, 0) and q != p]
            if targets and (len(box) > 12 or rng.random() < 0.06 or len(pile) < 6):
                events.append({"type": "overflow", "player": p, "target": targets[-1]})
                break
            if len({c.color for c in hands[p] if c.color}) <= 1:
                events.append(
                    {"type": "bonus", "player": p, "cards": [c.label for c in hands[p]]}
                )
                shown_cards, hands[p] = hands[p], [pile.pop() for _ in range(4)]
                pile[:0] = shown_cards
                events.append({"type": "draw", "player": p, "count": 4})
            card = hands[p].pop(rng.randrange(len(hands[p])))
            box.append((len(box) + 1, p, card))
            last[p] = len(box)
            events.append(
                {
                    "type": "insert",
                    "player": p,
                    "card": card.label,
                    "call": card.color or "pass",
                }
            )
            hands[p].append(pile.pop())
            events.append({"type": "draw", "player": p, "count": 1})
            turn += 1
        for p in players:
            events.append({"type": "reveal", "player": p, "cards": [down[p].label]})
            hands[p].append(down[p])
        pile[:0] = [c for _, _, c in box]
        start = yield events


@pytest.mark.parametrize("seed,n", [(1, 3), (2, 4), (3, 5), (4, 3)])
def test_random_playout_conserves_cards_and_ends(seed, n):
    players = [f"P{i}" for i in range(n)]
    head = json.dumps(
        {"type": "game", "game": "overflow", "rules": "overflow", "players": players}
    )
    lines = [head]
    res = None
    game = simulate(seed, players)
    chunk = next(game)
    for _ in range(60):
        lines += [json.dumps(e) for e in chunk]
        res = replay(lines)
        st = res.game.state()
        total = sum(st["hand_counts"].values()) + st["pile"] + len(st["box"])
        total += len(st["face_down"]) if st["phase"] != "limit" else 0
        assert total == 84
        assert not [r for r in res.rulings if r.ruling == "illegal"], res.rulings
        if res.game.over:
            break
        # the next round starts with the loser of the last
        assert st["turn"] == st["rounds"][-1]["loser"]
        chunk = game.send(st["turn"])
    st = res.game.state()
    assert st["over"] and min(st["scores"].values()) <= -8
    for p in players:
        assert st["scores"][p] == sum(r["deltas"][p] for r in st["rounds"])
