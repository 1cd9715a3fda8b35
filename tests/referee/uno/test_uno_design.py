"""The shape of the uno package: variants by preset, one-way imports, data options.

Issue 23: a newcomer changes the Wild Draw Four penalty in one file found from
the rule name; the TGUS house rules are a subclass chosen by preset; rule
modules never import the game classes; views are computed per viewer.
"""

from __future__ import annotations

import ast
from dataclasses import fields
from pathlib import Path

from referee.game import find_game
from referee.uno import TgusGame, UnoGame
from referee.uno.options import UnoOptions
from referee.uno.tgus_presets import TGUS_PRESETS, TgusOptions

from test_uno_support import draw, ev, play, reveal, run, start

PACKAGE = Path(__file__).resolve().parents[3] / "referee" / "uno"
WD4 = [start("red-5"), play("A", "wild-draw4", color="blue"), ev("challenge", "B")]


# -- variants by preset (python-chess style) ---------------------------------------------
def test_the_registry_finds_the_class_of_each_preset():
    assert find_game("uno", "official") is UnoGame
    for name in TGUS_PRESETS:
        assert find_game("uno", name) is TgusGame
    assert issubclass(TgusGame, UnoGame)
    assert set(TgusGame.presets()) == {"tgus-1", "tgus-2", "tgus-3"}


def test_a_game_keeps_its_class():
    res = run([start("red-5"), play("A", "red-6")])
    assert type(res.game) is UnoGame
    res = run([start("red-5"), play("A", "red-6")], rules="tgus-2")
    assert type(res.game) is TgusGame


def test_tgus_options_are_not_options_of_the_official_preset():
    base = {f.name for f in fields(UnoOptions)}
    tgus = {f.name for f in fields(TgusOptions)}
    assert base < tgus and "face_down" in tgus - base
    res = run([start("red-5")], options={"face_down": 3})
    r = res.one(0)
    assert r["rule"] == "official.options" and "Unknown option 'face_down'" in r["text"]


def test_tgus_handlers_extend_the_base_handlers():
    assert set(UnoGame.handlers) <= set(TgusGame.handlers)
    for event in ("direction", "face-down", "doubt", "picture-leftover", "stop"):
        assert event in UnoGame.handlers  # known, answered as not used by the preset


# -- every penalty is an option ------------------------------------------------------------
def test_the_guilty_penalty_is_an_option():
    hand = ["red-9", "green-1", "green-2", "yellow-3", "yellow-4", "blue-6"]
    res = run(WD4 + [reveal("A", *hand)], options={"wd4_guilty_penalty": 2})
    r = res.one(4)
    assert r["player"] == "A" and r["draw"] == 2 and "draws 2" in r["text"]


def test_the_failed_challenge_penalty_is_an_option():
    hand = ["green-1", "green-2", "yellow-3", "yellow-4", "green-6", "yellow-6"]
    res = run(WD4 + [reveal("A", *hand), draw("B", 8)],
              options={"wd4_challenge_penalty": 4})
    r = res.one(4)
    assert r["player"] == "B" and r["draw"] == 8 and "plus 4" in r["text"]
    assert res.kinds(5) == ["ok"]


def test_every_penalty_field_names_its_rule():
    for f in fields(TgusOptions):
        penalty = f.name.endswith(("_penalty", "_draw")) or f.name == "number_finish"
        if penalty and not f.name.startswith("play_"):
            assert f.metadata.get("rule"), f.name
            assert f.metadata.get("help") and f.metadata.get("source"), f.name


# -- views per viewer ----------------------------------------------------------------------
def test_views_are_computed_per_viewer():
    hand = ["red-9", "green-1", "green-2", "yellow-3", "yellow-4", "blue-6"]
    game = run(WD4 + [reveal("A", *hand)]).game
    assert game.state()["challenge_reveal"] == {"A": hand}
    assert "challenge_reveal" not in game.observe(None)
    assert "challenge_reveal" not in game.observe("C")
    assert game.observe("B")["challenge_reveal"] == {"A": hand}  # the challenger
    assert game.public_view() == game.observe(None)


def test_the_drawn_card_is_seen_by_its_player_only():
    game = run([start("red-5"), draw("A", cards=["blue-3"])]).game
    assert game.state()["drawn_card"] == "blue-3"
    assert game.observe("A")["drawn_card"] == "blue-3"
    assert "drawn_card" not in game.observe("B")
    assert "drawn_card" not in game.observe(None)


# -- one-way imports, small modules ------------------------------------------------------
def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module)
            else:
                out.update(alias.name for alias in node.names)
    return out


def test_imports_inside_the_package_run_one_way():
    graph = {p.stem: _imports(p) for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    games = {"game", "tgus_game", "simulate", "tgus_simulate"}
    for module, imported in graph.items():
        if module not in games:  # rule and data modules never reach a game class
            assert not imported & games, (module, imported & games)
    seen: set[str] = set()
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in seen or module in done, f"import circle: {path}"
        if module in done:
            return
        seen.add(module)
        for nxt in graph.get(module, ()):
            visit(nxt, path + (nxt,))
        done.add(module)

    for module in graph:
        visit(module, (module,))


def test_no_type_checking_back_imports_and_no_class_swap():
    for path in PACKAGE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "TYPE_CHECKING" not in text, path.name
        assert "__class__ =" not in text, path.name
        assert "Mixin" not in text, path.name


def test_modules_stay_small():
    for path in PACKAGE.glob("*.py"):
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 400, path.name
