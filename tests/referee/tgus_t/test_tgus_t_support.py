"""Helpers shared by the tgus-t scenario tests (no tests here).

Players sit clockwise, the last one deals, the first begins; line 1 of every
scenario is the start card, so the n-th event after it is line n + 1.
"""

from __future__ import annotations

import json
from collections import defaultdict

from referee.game import apply_safely
from referee.log import read_log
from referee.tgus_t import TgusTGame

START = {"type": "start", "card": "red-5"}


def run(rules, events, players=("A", "B", "C"), **header):
    """Replay ``events`` after the start card; returns (state, rulings by line)."""
    head = {
        "type": "game",
        "game": "uno",
        "rules": rules,
        "players": list(players),
        "dealer": players[-1],
        **header,
    }
    log = read_log([json.dumps(head)] + [json.dumps(e) for e in [START, *events]])
    game = TgusTGame(log.header)  # directly: other games' imports cannot break these
    by_line = defaultdict(list)
    for event in log.events:
        for r in apply_safely(game, event):
            by_line[r.event].append(r)
    return game.state(), by_line


def replayed(*events, players=("A", "B", "C"), hand_size=3):
    """The referee's replay (:func:`referee.game.replay`: its game and rulings)
    of a tgus-t1 log, the start card, then ``events``."""
    from referee.game import replay

    head = {"type": "game", "game": "uno", "rules": "tgus-t1",
            "players": list(players), "hand_size": hand_size}
    return replay(json.dumps(e) for e in [head, START, *events])


def play(player, *cards, **kw):
    return {"type": "play", "player": player, "cards": list(cards), **kw}


def draw(player, count=1):
    return {"type": "draw", "player": player, "count": count}
