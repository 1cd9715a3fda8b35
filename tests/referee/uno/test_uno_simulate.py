"""Random playouts: thousands of legal games across option sets, invariants checked.

The simulator (referee/uno/simulate.py) knows every hand; after each event it
asserts that the referee's hand counts, draw pile and discard pile equal the
real ones, that all cards are accounted for, that no legal move is ruled
illegal, that bluffed Wild Draw Fours are found guilty and honest ones
innocent, that each round has one winner, and that scores follow the revealed
hands. A deliberate illegal play now and then must change nothing.
"""

from __future__ import annotations

from collections import Counter

import pytest

from referee.game import replay
from referee.uno.simulate import SimulationError, Simulator, simulate

COMBOS = [
    {},
    {"stacking": True},
    {"multi_play": "same"},
    {"multi_play": "pairs"},
    {"jump_in": True},
    {"referee_catches": True, "catch_window": "next-acts"},
    {"referee_catches": True},
    {"deck": 112},
    {"first_action_returned": True, "out_on_action": False},
    {"scoring": "international", "target": 150, "doubling": True},
    {"wd4_rule": "no-current-colour", "wd4_guilty_takeback": False},
    {"multi_play": "same", "multi_out": "allowed", "stacking": True, "uno_penalty": 4,
     "jump_in": True},
]
PLAYERS = (2, 3, 4, 6, 10)
SEEDS = range(20)


@pytest.mark.parametrize("combo", range(len(COMBOS)))
def test_random_playouts_keep_every_invariant(combo):
    seen: Counter[str] = Counter()
    games = 0
    for seed in SEEDS:
        for players in PLAYERS:
            sim = simulate(seed * 100 + combo, players, {"rounds": 2, **COMBOS[combo]})
            games += 1
            seen.update(r.rule.split(".", 1)[1] + ":" + r.ruling for r in sim.rulings)
            assert sim.game.s.phase == "over" or len(sim.events) >= 4000
            if sim.game.s.phase == "over":
                assert len([r for r in sim.game.s.rounds if r["winner"]]) >= 1
    assert games == len(SEEDS) * len(PLAYERS)
    # The playouts really exercise the rules they are meant to check.
    for must in ("round-end:pending", "scoring:round-end", "game-end:game-end",
                 "wd4-challenge:penalty", "uno-call:ok", "draw:ok", "pass:ok"):
        assert seen[must], (must, COMBOS[combo])
    assert seen["match:illegal"] + seen["turn:illegal"] + seen["drawn-card:illegal"]
    opts = COMBOS[combo]
    if opts.get("stacking"):
        assert seen["stacking:pending"]
    if opts.get("jump_in"):
        assert seen["jump-in:ok"]
    if opts.get("referee_catches"):
        assert seen["uno-missed:penalty"]
    if opts.get("deck") == 112:
        assert seen["shuffle-hands:ok"]


def test_all_challenges_both_ways_are_seen():
    verdicts: Counter[str] = Counter()
    for seed in range(30):
        sim = simulate(seed, 4, {"rounds": 1})
        for r in sim.rulings:
            if r.rule == "official.wd4-challenge" and r.ruling == "penalty":
                verdicts["upheld" if "upheld" in r.text else "failed"] += 1
    assert verdicts["upheld"] and verdicts["failed"]


def test_simulated_log_replays_to_the_same_rulings_and_state():
    sim = simulate(7, 4, {"rounds": 3, "stacking": True})
    result = replay(sim.lines())
    assert [r.to_dict() for r in result.rulings] == [r.to_dict() for r in sim.rulings]
    assert result.state() == sim.game.state()


def test_same_seed_same_game():
    assert simulate(3, 3).lines() == simulate(3, 3).lines()
    assert simulate(3, 3).lines() != simulate(4, 3).lines()


def test_the_invariant_check_catches_a_wrong_count():
    sim = Simulator(1, 3)
    sim.step()
    sim.hands[0].pop()  # a card vanishes from the real hand
    with pytest.raises(SimulationError, match="hand counts"):
        sim.verify()
