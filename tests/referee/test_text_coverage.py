"""Every ruling, in every game, is said in every language.

Seeded playouts of every preset the simulators play (official UNO with local
rules on, tgus-1/2/3, tgus-t1/t2) and the table logs of the other games'
scenarios are replayed; each ruling's text must be a :class:`referee.text.Text`
whose Japanese holds no English word (a run of four Latin letters or more that
is not a player's name or quoted as written in 「」).
"""

from __future__ import annotations

import re

import pytest

from referee.game import replay
from referee.text import Text

WORD = re.compile(r"[A-Za-z][A-Za-z'-]{3,}")
UNO_OPTIONS = [
    {}, {"stacking": True}, {"jump_in": True},
    {"multi_play": "same", "multi_out": "allowed"},
    {"scoring": "international", "doubling": True},
    {"catch_window": "next-acts", "referee_catches": True, "uno_penalty": 4},
    {"wd4_guilty_takeback": False, "first_action_returned": True},
    {"stacking": True, "challenge": False, "deck": 112},
]


def _untranslated(lines: list[str]) -> list[str]:
    result = replay(lines)
    names = {w for p in result.log.header.players for w in str(p).split()}
    bad = []
    for r in result.rulings:
        if not isinstance(r.text, Text):
            bad.append(f"{r.rule}: not a message: {r.text}")
            continue
        ja = re.sub(r"「[^」]*」", "", r.text.render("ja"))  # quoted as written
        left = [w for w in WORD.findall(ja) if w not in names]
        if left:
            bad.append(f"{r.rule}: English left in {ja!r}")
    return bad


@pytest.mark.parametrize("k", range(len(UNO_OPTIONS)))
def test_official_uno_with_local_rules(k):
    from referee.uno.simulate import Simulator

    bad = []
    for seed in range(6):
        sim = Simulator(seed, 2 + seed % 4, UNO_OPTIONS[k], check=False).run()
        bad += _untranslated(sim.lines())
    assert not bad, bad[:5]


@pytest.mark.parametrize("rules", ["tgus-1", "tgus-2", "tgus-3"])
def test_tgus_presets(rules):
    from referee.uno.tgus_simulate import TgusSimulator

    bad = []
    for seed in range(6):
        sim = TgusSimulator(seed, 3 + seed % 3, None, rules=rules, check=False).run()
        bad += _untranslated(sim.lines())
    assert not bad, bad[:5]


@pytest.mark.parametrize("rules", ["tgus-t1", "tgus-t2"])
def test_tgus_t_deck(rules):
    from tests.referee.playouts import tgus_t_lines

    bad = []
    for lines in tgus_t_lines(rules, range(6)):
        bad += _untranslated(lines)
    assert not bad, bad[:5]
