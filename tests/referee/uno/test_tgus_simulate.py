"""Random playouts of every tgus preset with the referee's bookkeeping checked.

referee/uno/tgus_simulate.py plays whole games with real shuffled cards (the
core simulator's invariants: hand counts, piles, no legal move ruled illegal,
challenge verdicts, scores from the real hands) plus the TGUS habits. The
playouts must end and must really exercise each preset's own rules.
"""

from __future__ import annotations

from collections import Counter

import pytest

from referee.game import replay
from referee.uno.tgus_simulate import simulate_tgus



MUST = {
    "tgus-1": (
        "direction:ok",
        "ranking:ok",
        "ranking:pending",
        "picture-leftover:penalty",
        "stacking:pending",
        "scoring:round-end",
        "game-end:game-end",
    ),
    "tgus-2": (
        "direction:ok",
        "ranking:ok",
        "number-finish:penalty",
        "draw-then-play:ok",
        "white-wild:penalty",
        "shuffle-hands:ok",
        "stacking:pending",
        "wd4-challenge:penalty",
        "scoring:round-end",
    ),
    "tgus-3": (
        "face-down:ok",
        "doubt:penalty",
        "multi-out:penalty",
        "number-finish:penalty",
        "draw-then-play:ok",
        "ranking:ok",
        "stacking:pending",
        "scoring:round-end",
    ),
}


@pytest.mark.parametrize("rules", sorted(MUST))
def test_random_playouts_of_each_tgus_preset(rules):
    seen: Counter[str] = Counter()
    for seed in range(8):
        for players in (2, 3, 4, 6):
            sim = simulate_tgus(seed * 10 + players, players, rules, {"rounds": 2})
            assert sim.game.s.phase == "over", (rules, seed, players, len(sim.events))
            seen.update(r.rule.split(".", 1)[1] + ":" + r.ruling for r in sim.rulings)
            assert all(r.rule.startswith(rules + ".") for r in sim.rulings)
    missing = [m for m in MUST[rules] if not seen[m]]
    assert not missing, (rules, missing)


def test_a_simulated_log_replays_to_the_same_rulings():
    sim = simulate_tgus(7, 4, "tgus-3", {"rounds": 1})
    again = replay(sim.lines())
    assert [r.to_dict() for r in again.rulings] == [r.to_dict() for r in sim.rulings]


def test_success_weight_deals_bigger_hands_in_the_simulation():
    sim = simulate_tgus(3, 3, "tgus-3", {"rounds": 3})
    ends = [r for r in sim.rulings if r.ruling == "round-end"]
    assert len(ends) >= 2
    wins = Counter()
    for r in ends[:-1]:
        wins[r.extra["ranking"][0]] += 1
        sizes = r.extra["next_hand_sizes"]
        assert sizes == {p: 7 + wins[p] for p in sizes}
