"""docs/rules.md names every rule the non-uno games give (the uno presets are
documented in rules-uno.md and rules-tgus.md)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from referee.tgus_t.sim import playout

ROOT = Path(__file__).resolve().parents[2]
TGUS_T = sorted((ROOT / "referee" / "tgus_t").glob("*.py"))
MODULES = ["referee/game.py", "referee/phased.py", "referee/junocos.py",
           "referee/narabe/game.py", "referee/overflow/game.py",
           *(str(p.relative_to(ROOT)) for p in TGUS_T)]


def documented() -> set[str]:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    return set(re.findall(r"`([a-z0-9-]+)`", text))


def literal_rule_names() -> set[str]:
    """The rule argument of every ``ruling(...)`` call written as a literal."""
    names: set[str] = set()
    for rel in MODULES:
        tree = ast.parse((ROOT / rel).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call)
                    and getattr(node.func, "attr", "") == "ruling"
                    and len(node.args) >= 3
                    and isinstance(node.args[2], ast.Constant)):
                names.add(node.args[2].value)
    return names


def test_every_literal_rule_name_is_documented():
    missing = literal_rule_names() - documented()
    assert not missing, sorted(missing)


def test_every_rule_a_tgus_t_playout_gives_is_documented():
    seen = {r.rule.split(".", 1)[1] for rules in ("tgus-t1", "tgus-t2")
            for seed in (0, 1) for r in playout(rules, seed).rulings}
    assert len(seen) > 10
    assert not seen - documented(), sorted(seen - documented())


def test_narabe_placement_rules_are_documented():
    assert {"path", "branch", "match", "boundary"} <= documented()
