"""A new game's header options are checked; a stored log's are tolerated.

Where a new game is started (:func:`referee.game.start_game`,
``Referee(header, new=True)``: the page's new game), a header whose
``options`` name an option the preset does not have, or give one a value of
the wrong type or outside its allowed set, is refused with one sentence in the
viewer's language naming every such option and what each may be (and each as
data, :class:`referee.game.OptionsRefused`). A stored log being
replayed keeps such an option as an ``info`` ruling and goes on with the
preset's value (the spec: the project may add fields; a log written by another
version is still refereed). Unknown games and presets are refused by the
catalogue's messages, so they are said in Japanese too.
"""

from __future__ import annotations

import json
from dataclasses import fields, is_dataclass
from pathlib import Path

import pytest

from referee.game import (GameError, OptionsRefused, find_game, games, new_game, replay,
                          start_game)
from referee.log import Header
from referee.session import Referee
from referee.text import Text
from test_ja_one_sentence import sentence_problem

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT.parent / "shared" / "spec"

#: (game, rules, players) for one preset of each options type
KINDS = [
    ("uno", "official", ["A", "B"]),
    ("uno", "tgus-2", ["A", "B"]),
    ("uno", "tgus-t1", ["A", "B"]),
    ("junocos", "junocos", ["A", "B", "C"]),
    ("narabe-runo", "narabe-runo", ["A", "B", "C"]),
    ("overflow", "overflow", ["A", "B", "C"]),
]


def header(game="uno", rules="official", players=("A", "B"), **options):
    return Header.from_dict({"type": "game", "game": game, "rules": rules,
                             "players": list(players), "options": options})


def refusal(head: Header) -> Text:
    with pytest.raises(GameError) as info:
        start_game(head)
    said = info.value.args[0]
    assert isinstance(said, Text) and str(info.value) == str(said)
    # a clause, like every header refusal: one sentence where it is said
    whole = Text("game.no-referee", why=said)
    assert not sentence_problem(whole.render("ja")), whole.render("ja")
    assert str(whole).count(". ") == 0 and str(whole).endswith("."), str(whole)
    return said


@pytest.mark.parametrize("game,rules,players", KINDS)
def test_an_unknown_option_refuses_a_new_game_and_names_the_known_ones(
        game, rules, players):
    said = refusal(header(game, rules, players, nope=1))
    assert said.key == "game.option-not-known"
    assert "'nope'" in said and rules in said
    options = type(opts(new_game(header(game, rules, players))))
    some = sorted(f.name for f in fields(options))[0]
    assert some in said and some in said.render("ja")
    assert "'nope'" in said.render("ja") and "ありません" in said.render("ja")


@pytest.mark.parametrize("game,rules,players,name,value,allowed,allowed_ja", [
    ("uno", "official", ["A", "B"], "stacking", "x", "true or false", "trueかfalse"),
    ("uno", "official", ["A", "B"], "scoring", "us",
     'one of "japan", "international"', '"japan", "international"のどれか'),
    ("uno", "official", ["A", "B"], "rounds", 0, "a whole number of at least 1",
     "1以上の整数"),
    ("uno", "official", ["A", "B"], "deck", 100, "one of 108, 112", "108, 112のどれか"),
    ("uno", "official", ["A", "B"], "uno_penalty", True,
     "a whole number of at least 0", "0以上の整数"),
    ("uno", "tgus-2", ["A", "B"], "stack_answers", ["draw2>nine"],
     "entries with cards from draw2", "札はdraw2"),
    ("uno", "tgus-t1", ["A", "B"], "plain_uno", 1, "true or false", "trueかfalse"),
    ("uno", "tgus-t2", ["A", "B"], "uno_penalty", -1, "a whole number of at least 0",
     "0以上の整数"),
    ("uno", "tgus-t1", ["A", "B"], "precedence", [1], "whole number rank", "整数の順位"),
    ("junocos", "junocos", ["A", "B", "C"], "laps", "2", "a whole number", "整数"),
    ("overflow", "overflow", ["A", "B", "C"], "penalty", True, "a whole number", "整数"),
    ("narabe-runo", "narabe-runo", ["A", "B", "C"], "extra_wilds", "yes",
     "true or false", "trueかfalse"),
])
def test_a_wrong_value_refuses_a_new_game_saying_what_is_allowed(
        game, rules, players, name, value, allowed, allowed_ja):
    said = refusal(header(game, rules, players, **{name: value}))
    assert said.key == "game.option-bad-value"
    assert f"'{name}'" in said and json.dumps(value) in said and allowed in said
    ja = said.render("ja")
    assert f"'{name}'" in ja and allowed_ja in ja and "使えません" in ja


def test_the_page_starts_a_new_game_strictly_and_resumes_a_stored_one_tolerantly():
    head = {"type": "game", "game": "uno", "rules": "official", "players": ["A", "B"],
            "options": {"stacking": "x"}}
    with pytest.raises(GameError) as info:
        Referee(head, new=True)
    assert "'stacking'" in str(info.value)
    ref = Referee(head)  # a stored game: the preset's value holds, said once
    rulings = ref.append({"type": "start", "card": "red-7"})
    assert rulings[0].ruling == "info" and "'stacking'" in rulings[0].text
    assert ref.game.options.stacking is False
    ok = Referee({**head, "options": {"stacking": True}}, new=True)
    assert ok.game.options.stacking is True


def test_a_stored_log_with_unknown_options_is_still_refereed():
    for game, rules, players in KINDS:
        head = json.dumps({"type": "game", "game": game, "rules": rules,
                           "players": players, "options": {"nope": 1}})
        result = replay([head])
        assert result.game is not None, (game, rules)


def opts(game):
    value = getattr(game, "options", None)
    return value if is_dataclass(value) else game.opts


def as_header_options(value) -> dict:
    out = {}
    for f in fields(value):
        v = getattr(value, f.name)
        if f.name == "precedence":  # written as an object, effect -> rank
            v = dict(v)
        elif isinstance(v, tuple):
            v = list(v)
        out[f.name] = v
    return out


def test_every_preset_spelled_out_as_options_starts_a_new_game():
    checked = 0
    for cls in games():
        for rules in cls.presets():
            n = 3 if cls.name in ("junocos", "narabe-runo", "overflow") else 4
            players = ["A", "B", "C", "D"][:n]
            game = new_game(header(cls.name, rules, players))
            options = as_header_options(opts(game))
            start_game(header(cls.name, rules, players, **options))
            checked += 1
    assert checked >= 9


def test_the_specs_options_and_bundled_logs_start_new_games():
    spec_options = {"scoring": "international", "rounds": 3, "target": 500,
                    "stacking": True, "multi_play": True, "jump_in": True,
                    "uno_penalty": 4}
    start_game(header(**spec_options))
    start_game(header(multi_play="pairs", first_action_returned="action"))
    logs = [ROOT / "referee" / "data" / "demo-game.jsonl",
            *sorted((SPEC / "examples").glob("*.jsonl"))]
    for path in logs:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        start_game(Header.from_dict(json.loads(first)))


def test_an_unknown_game_or_preset_is_refused_by_the_catalogue_in_japanese():
    with pytest.raises(GameError) as info:
        find_game("chess")
    said = info.value.args[0]
    assert isinstance(said, Text) and said.key == "game.unknown-game"
    assert str(info.value).startswith("unknown game 'chess'; known games: ")
    assert said.render("ja").startswith(
        "'chess'というゲームはありません（遊べるゲーム: ")
    with pytest.raises(GameError) as info:
        find_game("uno", "nope")
    said = info.value.args[0]
    assert isinstance(said, Text) and said.key == "game.unknown-preset"
    assert str(said).startswith("game 'uno' has no rules preset 'nope'; presets: ")
    assert "official" in said.render("ja") and "プリセット" in said.render("ja")


@pytest.mark.parametrize("game,rules,players,bad,known", [
    ("uno", "official", ["A", "B"],
     {"nope": 1, "stacking": "x", "zap": 2, "rounds": 0}, "stacking"),
    ("uno", "tgus-t1", ["A", "B"], {"nope": 1, "plain_uno": 1, "precedence": [1]},
     "plain_uno"),
    ("junocos", "junocos", ["A", "B", "C"], {"laps": "2", "nope": 1}, "laps"),
    ("overflow", "overflow", ["A", "B", "C"], {"penalty": True, "bonus_points": "x"},
     "penalty"),
])
def test_every_bad_option_is_named_in_one_clause_and_as_data(game, rules, players, bad,
                                                             known):
    with pytest.raises(OptionsRefused) as info:
        start_game(header(game, rules, players, **bad))
    said = refusal(header(game, rules, players, **bad))
    en, ja = str(said), said.render("ja")
    for name in bad:
        assert f"'{name}'" in en and f"'{name}'" in ja, (name, en, ja)
    data = info.value.data("ja")
    assert sorted(d["option"] for d in data) == sorted(bad)
    for d in data:
        assert f"'{d['option']}'" in d["message"]
        if d["problem"] == "unknown":
            assert known in d["known"] and "value" not in d
        else:
            assert d["problem"] == "bad_value" and d["value"] == bad[d["option"]]
            assert d["allowed"] and d["allowed"] in ja  # what it may be, in Japanese
    unknown = [name for name in bad if name not in [f.name for f in fields(
        type(opts(new_game(header(game, rules, players)))))]]
    if len(unknown) > 1:  # the unknown names together, the preset's options once
        assert en.count("its options:") == 1 and ja.count("使えるオプション") == 1


def test_one_bad_option_is_said_as_before():
    said = refusal(header(stacking="x"))
    assert said.key == "game.option-bad-value"
    assert str(said) == "option 'stacking' cannot be \"x\": it must be true or false"
