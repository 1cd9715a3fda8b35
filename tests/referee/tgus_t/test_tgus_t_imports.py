"""Imports in referee/tgus_t run one way: the game imports the rule modules,
never the reverse (not even under TYPE_CHECKING)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "referee" / "tgus_t"


def _local_imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level == 1:
                names |= {mod} if mod else {a.name for a in node.names}
            elif mod.startswith("referee.tgus_t."):
                names.add(mod.rsplit(".", 1)[1])
    return names


def test_no_module_imports_the_game_but_the_package_and_the_simulator():
    for path in sorted(PACKAGE.glob("*.py")):
        if path.stem in ("__init__", "sim", "game"):
            continue
        assert "game" not in _local_imports(path), path.name


def test_the_package_has_no_import_circle():
    graph = {p.stem: _local_imports(p) - {"__init__"} for p in PACKAGE.glob("*.py")}

    def reach(start: str) -> set[str]:
        seen, todo = set(), list(graph.get(start, ()))
        while todo:
            mod = todo.pop()
            if mod not in seen:
                seen.add(mod)
                todo += graph.get(mod, ())
        return seen

    for mod in graph:
        if mod != "__init__":
            assert mod not in reach(mod), mod
