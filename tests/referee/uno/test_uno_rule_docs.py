"""Every rule name the uno engine emits is documented; table-log.md links every page.

Rule names come from two places: a sweep of the random-playout simulator (the
option combinations of test_uno_simulate and the tgus presets, as the
simulator tests run them) and a scan of the engine's source for the literal
rule names handed to ``self.ruling`` (rulings no playout reaches, such as a
malformed-direction answer). Each must appear as `name` in docs/rules-uno.md
or docs/rules-tgus.md.
"""

from __future__ import annotations

import ast
import re

import pytest

from referee.uno.simulate import simulate
from referee.uno.tgus_simulate import simulate_tgus

from test_tgus_support import ROOT
from test_uno_simulate import COMBOS

DOCS = ROOT / "docs"


def documented_rules(*names: str) -> set[str]:
    """Names in the first column of the pages' ``| rule | ...`` tables."""
    rules: set[str] = set()
    for name in names:
        in_table = False
        for line in (DOCS / name).read_text(encoding="utf-8").splitlines():
            if line.startswith("| rule |"):
                in_table = True
            elif not line.startswith("|"):
                in_table = False
            elif in_table:
                first = line.split("|")[1]
                rules.update(re.findall(r"`([a-z0-9][a-z0-9-]*)`", first))
    return rules


DOCUMENTED = documented_rules("rules-uno.md", "rules-tgus.md")


def rule_of(full: str) -> str | None:
    """``official.match`` -> ``match``; ``log.*`` (the replay's own) -> None."""
    prefix, _, rule = full.partition(".")
    return None if prefix == "log" else rule


def simulated_rules() -> dict[str, str]:
    """rule -> one full name it was seen under, over a sweep of playouts."""
    seen: dict[str, str] = {}
    sims = [simulate(seed * 100 + i, players, {"rounds": 2, **combo}, check=False)
            for i, combo in enumerate(COMBOS) for seed in range(3)
            for players in (2, 4)]
    sims += [simulate_tgus(seed, players, rules, check=False)
             for rules in ("tgus-1", "tgus-2", "tgus-3") for seed in range(4)
             for players in (2, 4)]
    for sim in sims:
        for r in sim.rulings:
            rule = rule_of(r.rule)
            if rule:
                seen.setdefault(rule, r.rule)
    return seen


def _names_a_ruling(node: ast.Call) -> bool:
    """``self.ruling(...)`` in a game class or ``say(...)`` in a rule function."""
    func = node.func
    return ((isinstance(func, ast.Attribute) and func.attr == "ruling")
            or (isinstance(func, ast.Name) and func.id == "say"))


def source_rules() -> dict[str, str]:
    """rule -> ``file:line`` for each literal rule name a ruling is given."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "referee" / "uno").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and _names_a_ruling(node)
                    and len(node.args) >= 3 and isinstance(node.args[2], ast.Constant)
                    and isinstance(node.args[2].value, str)):
                found.setdefault(node.args[2].value, f"{path.name}:{node.lineno}")
    return found


def implemented_in(*names: str) -> dict[str, set[str]]:
    """rule -> the modules named in the last column of the pages' rule tables."""
    out: dict[str, set[str]] = {}
    for name in names:
        in_table = False
        for line in (DOCS / name).read_text(encoding="utf-8").splitlines():
            if line.startswith("| rule |"):
                in_table = "implemented in" in line
            elif not line.startswith("|"):
                in_table = False
            elif in_table and not line.startswith("| ---"):
                cells = line.split("|")
                modules = set(re.findall(r"`([a-z_]+\.py)`", cells[-2]))
                for rule in re.findall(r"`([a-z0-9][a-z0-9-]*)`", cells[1]):
                    out.setdefault(rule, set()).update(modules)
    return out


def test_every_rule_the_simulators_emit_is_documented():
    seen = simulated_rules()
    assert len(seen) >= 30  # the sweep really reaches the rules
    missing = {rule: full for rule, full in seen.items() if rule not in DOCUMENTED}
    assert not missing, f"rules missing from docs/rules-*.md: {missing}"


def test_every_rule_name_in_the_engine_source_is_documented():
    found = source_rules()
    assert {"match", "deck", "first-card", "wd4-challenge"} <= set(found)
    missing = {rule: where for rule, where in found.items() if rule not in DOCUMENTED}
    assert not missing, f"rules missing from docs/rules-*.md: {missing}"


def test_every_documented_rule_names_modules_that_exist():
    where = implemented_in("rules-uno.md", "rules-tgus.md")
    assert where["wd4-challenge"] >= {"challenge.py", "options.py"}
    for rule, modules in where.items():
        assert modules, f"{rule}: no module named in its table row"
        for module in modules:
            assert (ROOT / "referee" / "uno" / module).exists(), (rule, module)


def test_the_wild_draw_four_penalty_is_one_option_found_from_its_rule_name():
    """Changing it is a one-file change: the options field whose metadata names it."""
    from dataclasses import fields

    from referee.uno.options import UnoOptions

    sized = {f.name for f in fields(UnoOptions)
             if f.metadata.get("rule") == "wd4-challenge" and isinstance(f.default, int)
             and not isinstance(f.default, bool)}
    assert sized == {"wd4_guilty_penalty", "wd4_challenge_penalty"}


def test_only_the_rule_tables_count_as_documentation():
    assert {"match", "deck", "ranking", "white-wild"} <= DOCUMENTED
    assert "stack_answers" not in DOCUMENTED  # an option, not a rule name
    assert "no-such-rule" not in DOCUMENTED


# -- docs/table-log.md links every per-game and project page ---------------------------
LINKED_PAGES = ["events-*.md", "rules-*.md", "cards-*.md", "records.md", "api.md",
                "vision.md", "voice.md", "detector.md"]


def pages() -> list[str]:
    return sorted({p.name for pattern in LINKED_PAGES for p in DOCS.glob(pattern)})


@pytest.mark.parametrize("page", pages())
def test_table_log_links_the_page(page):
    text = (DOCS / "table-log.md").read_text(encoding="utf-8")
    assert f"]({page})" in text or f"]({page}#" in text, (
        f"docs/{page} is not linked from docs/table-log.md (add it to its page list)")


def test_table_log_links_lead_to_pages_that_exist():
    text = (DOCS / "table-log.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#]+\.md)(?:#[^)]*)?\)", text)
    assert targets
    for target in targets:
        assert (DOCS / target).exists(), target
