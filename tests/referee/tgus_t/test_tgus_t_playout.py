"""Seeded random playouts of tgus-t1 and tgus-t2 against a simulated real table.

The simulator (referee/tgus_t/sim.py) holds the true hands and pile; after every
event the referee's counts must equal the table's.
"""

from __future__ import annotations

import pytest

from referee.tgus_t.sim import playout

SEEDS = range(12)


@pytest.mark.parametrize("rules", ["tgus-t1", "tgus-t2"])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_random_playout_conserves_cards_and_ends_with_a_full_ranking(rules, players):
    for seed in SEEDS:
        out = playout(rules, seed, players=players)
        game = out.game
        state = game.state()
        assert out.mismatches == [], (seed, out.mismatches[:3])
        assert game.t.total_cards() == game.deck_size, seed
        assert min(state["hand_counts"].values()) >= 0
        assert state["over"], (seed, len(out.events), state["awaiting"])
        assert sorted(state["ranking"]) == sorted(state["players"])
        assert state["winner"] == state["ranking"][0]
        assert all(r.rule.startswith(rules + ".") for r in out.rulings)
        assert not any(r.rule.endswith("log.malformed") for r in out.rulings)


def test_playouts_exercise_the_special_rules():
    seen: set[str] = set()
    for seed in SEEDS:
        for rules in ("tgus-t1", "tgus-t2"):
            out = playout(rules, seed, players=4)
            seen |= {r.rule.split(".", 1)[1] for r in out.rulings}
    for rule in (
        "hit-x",
        "counter",
        "change",
        "replace",
        "leftover",
        "uno-missed",
        "reshuffle",
        "going-out",
        "game-end",
        "precedence",
    ):
        assert rule in seen, rule
