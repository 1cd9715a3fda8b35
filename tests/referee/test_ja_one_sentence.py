"""Every Japanese ruling is one sentence, in every game.

A ruling explains itself in one short sentence in the viewer's language. The
English joins a ruling's parts with "; " or ": "; the Japanese joins them with
、 in the continuative form (「Benは黄の3を出し、Chieの番です。」), so its text
ends in a single 。 (！ or ？) and holds none before it, not even in a
parenthetical note (（解釈: ...）); only what is quoted as written (「」) may.

Seeded playouts of every game are replayed (official UNO with its house rules,
tgus-1/2/3, tgus-t1/t2, junocos, narabe-runo, overflow) with the bundled demo
table's log; each ruling is rendered in Japanese. Every catalogue message is
checked as written too.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from referee.game import replay
from referee.text import Text, catalog
from tests.referee.playouts import tgus_t_lines

STOPS = re.compile(r"[。！？]")
WORD = re.compile(r"[A-Za-z][A-Za-z'-]{3,}")
INNER = re.compile(r"「[^「」]*」")


def outside_notes(text: str) -> str:
    """The text without what is quoted as written (「」, nested too)."""
    before = None
    while before != text:
        before, text = text, INNER.sub("", text)
    return text


def sentence_problem(ja: str) -> str:
    """Why ``ja`` is not one Japanese sentence ('' when it is)."""
    bare = outside_notes(ja)
    stops = STOPS.findall(bare)
    if not ja.endswith(("。", "！", "？")):
        return "does not end in 。"
    if len(stops) != 1:
        return f"{len(stops)} sentence stops"
    return ""


def problems(lines: list[str]) -> list[str]:
    result = replay(lines)
    names = {w for p in result.log.header.players for w in str(p).split()}
    bad = []
    for r in result.rulings:
        assert isinstance(r.text, Text), r
        ja = r.text.render("ja")
        why = sentence_problem(ja)
        left = [w for w in WORD.findall(re.sub(r"「[^」]*」", "", ja)) if w not in names]
        if left:
            why = (why + "; " if why else "") + f"English {left}"
        if why:
            bad.append(f"{r.rule} ({why}): {ja}")
    return bad


def uno_games():
    from tests.referee.test_text_coverage import UNO_OPTIONS

    from referee.uno.simulate import Simulator

    for options in UNO_OPTIONS:
        for seed in range(4):
            yield Simulator(seed, 2 + seed % 4, options, check=False).run().lines()


def tgus_games(rules):
    from referee.uno.tgus_simulate import TgusSimulator

    for seed in range(5):
        yield TgusSimulator(seed, 3 + seed % 3, None, rules=rules, check=False).run().lines()


def tgus_t_games(rules):
    return tgus_t_lines(rules, range(5))


def header(game, players):
    return json.dumps({"type": "game", "game": game, "rules": game, "players": players})


def junocos_games():
    from tests.referee.test_junocos import simulate

    for seed, n, rate in [(3, 3, 0.1), (2, 4, 0.0), (5, 3, 0.2)]:
        players = [f"P{i}" for i in range(n)]
        events = list(simulate(seed, players, rate)) + [{"type": "deal", "cards": []}]
        yield [header("junocos", players)] + [json.dumps(e) for e in events]


def narabe_games():
    from tests.referee.narabe.test_narabe_playout import simulate

    for seed, n in [(1, 2), (2, 3), (3, 4), (5, 3)]:
        players = [f"P{i}" for i in range(n)]
        events = list(simulate(seed, players)) + [{"type": "play", "player": "P0",
                                                    "card": "red-1", "at": [9, 9]}]
        yield [header("narabe-runo", players)] + [json.dumps(e) for e in events]


def overflow_games():
    from tests.referee.overflow.test_overflow_playout import simulate

    for seed, n in [(1, 3), (2, 4), (3, 5)]:
        players = [f"P{i}" for i in range(n)]
        lines = [header("overflow", players)]
        game = simulate(seed, players)
        chunk = next(game)
        for _ in range(60):
            lines += [json.dumps(e) for e in chunk]
            res = replay(lines)
            if res.game.over:
                break
            try:
                chunk = game.send(res.game.state()["rounds"][-1]["loser"])
            except StopIteration:
                break
        yield lines + [json.dumps({"type": "bonus", "player": players[0], "cards": []})]


def demo_game():
    from vision import pipeline
    from web.camera import read_demo_log

    head, events = read_demo_log(pipeline.DEMO_LOG)
    yield [json.dumps(head)] + [json.dumps(e) for e in events]


GAMES = {
    "official-uno": uno_games,
    "tgus-1": lambda: tgus_games("tgus-1"),
    "tgus-2": lambda: tgus_games("tgus-2"),
    "tgus-3": lambda: tgus_games("tgus-3"),
    "tgus-t1": lambda: tgus_t_games("tgus-t1"),
    "tgus-t2": lambda: tgus_t_games("tgus-t2"),
    "junocos": junocos_games,
    "narabe-runo": narabe_games,
    "overflow": overflow_games,
    "demo": demo_game,
}


@pytest.mark.parametrize("game", list(GAMES))
def test_every_japanese_ruling_of_a_played_game_is_one_sentence(game):
    bad = []
    for lines in GAMES[game]():
        bad += problems(lines)
    assert not bad, f"{len(bad)} rulings, first: {sorted(set(bad))[:8]}"


def test_every_catalogue_message_has_at_most_one_stop_at_its_end():
    """No message of the referee's catalogues, whole ruling or part, holds a
    sentence stop before its end (outside quotes): a part that ends in 。 is
    said last, or in its continuative form ({part!l}), as a reason ({part!c})
    or inside parentheses ({part!s}). The referee's modules are imported alone
    (the camera's modules define messages of their own)."""
    import subprocess

    code = (
        "import importlib, json, pkgutil, referee\n"
        "from referee.text import catalog\n"
        "for m in pkgutil.walk_packages(referee.__path__, 'referee.'):\n"
        "    importlib.import_module(m.name)\n"
        "print(json.dumps(catalog(), ensure_ascii=False))\n"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, check=True,
                         capture_output=True, text=True).stdout
    bad = []
    for key, texts in sorted(json.loads(out).items()):
        ja = outside_notes(texts.get("ja", ""))
        if STOPS.search(ja[:-1]) or ja.startswith("。"):
            bad.append(f"{key}: {texts['ja']}")
    assert not bad, bad


def test_parts_join_in_the_continuative_form():
    from referee.text import connective

    assert connective("Benは黄の3を出します。") == "Benは黄の3を出し"
    assert connective("Chieの番です") == "Chieの番で"
    assert connective("黄の7は出せません") == "黄の7は出せず"
    assert connective("色（青）にも数字にも合いません") == "色（青）にも数字にも合わず"
    assert connective("Aikoはカードを1枚引きました（推定）") == "Aikoはカードを1枚引き（推定）"
    assert connective("手札がありません") == "手札がなく"
    assert connective("何も変わりません") == "何も変わらず"
    assert connective("戻してください") == "戻して"
    assert connective("もう上がっています") == "もう上がっており"
    assert connective("ゲーム終了です") == "ゲーム終了となり"
    assert connective("3点") == "3点"  # no ending it knows: said as it is


def test_a_reason_is_said_before_what_follows_it():
    from referee.text import because

    assert because("今はAの番で、Bの番ではありません") == "今はAの番で、Bの番ではないので"
    assert because("色（青）にも数字にも合いません") == "色（青）にも数字にも合わないので"
    assert because("P2の手札は12枚です。") == "P2の手札は12枚なので"
    assert because("そこにはもうカードがあります") == "そこにはもうカードがあるので"
    assert because("指名はなしでした") == "指名はなしだったので"
    assert because("手札がありません（推定）") == "手札がないので（推定）"


def test_a_demo_play_and_a_draw_read_as_one_sentence():
    lines = next(demo_game())
    said = [r.text.render("ja") for r in replay(lines).rulings]
    plays = [s for s in said if "を出し、" in s and s.endswith("の番です。")]
    assert plays and all(sentence_problem(s) == "" for s in plays)
    assert not [s for s in said if "を出します。" in s[:-1]]
