"""The replay-speed shortcuts change nothing a table can see.

``UnoGame`` skips its TGUS hooks when no TGUS option is on (``PlainUnoGame``),
and the log reader parses the usual line on a fast path: both must give the
very rulings and state of the full path, which these tests replay side by side.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import referee.uno.engine as engine
from referee.game import replay
from referee.log import Header, iter_log, read_log
from referee.rulings import KINDS, Ruling
from referee.uno.calls import CallsMixin
from referee.uno.engine import PlainUnoGame, UnoGame
from referee.uno.options import TGUS_FIELDS, UnoOptions, uses_tgus_hooks
from referee.uno.scoring import ScoringMixin
from referee.uno.simulate import simulate
from referee.uno.tgus_calls import TgusCallsMixin
from referee.uno.tgus_facedown import FaceDownMixin
from referee.uno.tgus_rules import TgusMixin
from referee.uno.turns import TurnsMixin


def game_for(rules: str = "official", options: dict | None = None,
             **extra) -> UnoGame:
    return UnoGame(Header.from_dict({
        "type": "game", "game": "uno", "rules": rules, "players": ["A", "B", "C"],
        "options": options or {}, **extra}))


# -- which class a game gets --------------------------------------------------------
def test_official_game_takes_the_plain_path():
    game = game_for()
    assert type(game) is PlainUnoGame and isinstance(game, UnoGame)


@pytest.mark.parametrize("rules", ["tgus-1", "tgus-2", "tgus-3"])
def test_tgus_presets_keep_their_hooks(rules):
    assert type(game_for(rules)) is UnoGame


@pytest.mark.parametrize("options", [
    {"play_to_last": True}, {"white_wild": "downpour"}, {"face_down": 3},
    {"uno_catch": False}, {"stacking": True, "stack_answers": ["draw2>skip"]},
])
def test_any_tgus_option_under_official_keeps_the_hooks(options):
    assert type(game_for("official", options)) is UnoGame


def test_a_plain_class_built_for_tgus_rules_gets_the_hooks_back():
    head = Header.from_dict({"type": "game", "game": "uno", "rules": "tgus-2",
                             "players": ["A", "B"]})
    assert type(PlainUnoGame(head)) is UnoGame


def test_header_hand_sizes_keep_the_hooks():
    assert type(game_for(hand_sizes={"A": 9})) is UnoGame


def test_plain_house_rules_take_the_plain_path():
    opts = {"stacking": True, "jump_in": True, "multi_play": "same", "deck": 112,
            "doubling": True, "uno_penalty": 4}
    assert type(game_for("official", opts)) is PlainUnoGame


def test_tgus_fields_are_the_tgus_options_and_default_to_official():
    assert TGUS_FIELDS[0] == "hand_size_max" and "play_to_last" in TGUS_FIELDS
    assert "stacking" not in TGUS_FIELDS and "deck" not in TGUS_FIELDS
    assert not uses_tgus_hooks(UnoOptions())


def test_plain_class_bypasses_every_tgus_override():
    engine_classes = (TurnsMixin, CallsMixin, ScoringMixin)
    overridden = {
        name for mixin in (TgusMixin, TgusCallsMixin, FaceDownMixin)
        for name in vars(mixin)
        if not name.startswith("__") and any(hasattr(c, name) for c in engine_classes)}
    assert overridden  # on_play, play_cards, go_out ...
    for name in overridden:
        own = next(getattr(c, name) for c in engine_classes if hasattr(c, name))
        assert getattr(PlainUnoGame, name) is own, name
    assert PlainUnoGame.handlers["start"] == "on_start"
    assert UnoGame.handlers["start"] == "tgus_on_start"


# -- same rulings and state either way ------------------------------------------------
def replay_both(lines, monkeypatch):
    fast = replay(lines)
    assert type(fast.game) is PlainUnoGame
    with monkeypatch.context() as m:
        m.setattr(engine, "uses_tgus_hooks", lambda options: True)
        full = replay(lines)
    assert type(full.game) is UnoGame
    return fast, full


@pytest.mark.parametrize("seed,players,options", [
    (1, 4, {}),
    (2, 2, {"stacking": True}),
    (3, 3, {"multi_play": "same", "multi_out": "allowed", "jump_in": True}),
    (4, 5, {"scoring": "international", "target": 500, "deck": 112}),
    (5, 4, {"stacking": True, "referee_catches": True, "catch_window": "next-acts",
            "doubling": True}),
])
def test_plain_path_gives_the_rulings_and_state_of_the_hooked_path(
        seed, players, options, monkeypatch):
    lines = simulate(seed, players, options, check=False, max_events=1500).lines()
    fast, full = replay_both(lines, monkeypatch)
    assert [r.to_dict() for r in fast.rulings] == [r.to_dict() for r in full.rulings]
    assert fast.state() == full.state()
    assert len(fast.rulings) >= 50  # a real game, not an empty log


def test_plain_path_matches_on_tgus_events_and_bad_events(monkeypatch):
    head = {"type": "game", "game": "uno", "players": ["A", "B", "C"], "dealer": "C"}
    events = [
        {"type": "start", "card": "red-5"}, {"type": "direction", "direction": -1},
        {"type": "face-down", "player": "A"}, {"type": "doubt", "player": "B"},
        {"type": "stop"}, {"type": "picture-leftover", "player": "A"},
        {"type": "play", "player": "A", "cards": ["wild-custom"]},
        {"type": "play", "player": "A", "cards": ["nonsense"]},
        {"type": "play", "player": "A", "cards": ["red-7"]},
        {"type": "shuffle-hands", "hand_counts": {"A": 7}},
        {"type": "catch", "player": "B", "target": "A"},
        {"type": "draw", "player": "B"}, {"type": "pass", "player": "B"},
    ]
    lines = [json.dumps(head)] + [json.dumps(e) for e in events]
    fast, full = replay_both(lines, monkeypatch)
    assert [r.to_dict() for r in fast.rulings] == [r.to_dict() for r in full.rulings]
    assert fast.state() == full.state()


# -- the reader's fast path ---------------------------------------------------------
def reference_read(lines):
    """read_log as it was: iter_log (parse_line on every line), header first."""
    header, events, errors = None, [], []
    for item in iter_log(lines):
        if not hasattr(item, "type"):
            errors.append((item.line, item.message))
        elif header is None and not events and item.type == "game":
            try:
                header = Header.from_dict(item.data, item.index)
            except ValueError as err:
                errors.append((err.line, err.message))
        else:
            events.append((item.index, item.type, item.data))
    return header, events, errors


def same_as_reference(lines):
    log = read_log(lines)
    header, events, errors = reference_read(lines)
    assert log.header == header
    assert [(e.index, e.type, e.data) for e in log.events] == events
    assert [(e.line, e.message) for e in log.errors] == errors


HEAD = json.dumps({"type": "game", "game": "uno", "players": ["A", "B"]})


def test_reader_fast_path_agrees_on_tricky_lines():
    same_as_reference([
        HEAD, '{"type": "start", "card": "red-5"}\n', ' {"type": "pass"}',
        '{"type": "pass"}  \t\r\n', '{"type": "pass"}\u3000', '{"type": "pass"} x',
        '{"type": "pass"}{"type": "pass"}', '{"type": ""}', '{"type": 3}', '{}',
        '{"cards": []}', "[1]", "{", '{"type": "play"', "", "   ", "\u3000",
        '{"type": "game", "players": ["A"]}', "{" * 5000 + "}" * 5000,
        '{"type": "pass", "x": NaN}',
        '{"type": "pass"}' + " " * (1 << 20),
    ])


def test_reader_fast_path_agrees_on_a_bad_header_then_a_good_one():
    same_as_reference(['{"type": "game", "players": "A"}', HEAD, '{"type": "pass"}'])
    same_as_reference(['{"type": "pass"}', HEAD])


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(
    st.text(max_size=30),
    st.builds(lambda s: "{" + s, st.text(max_size=30)),
    st.builds(json.dumps, st.dictionaries(
        st.sampled_from(["type", "card", "player"]),
        st.one_of(st.text(max_size=8), st.integers(), st.none()), max_size=3)),
    st.builds(lambda d, tail: json.dumps(d) + tail,
              st.fixed_dictionaries({"type": st.sampled_from(["pass", "game", ""])}),
              st.text(alphabet=" \t\r\n\u3000\x0bx}", max_size=3)),
), max_size=8))
def test_reader_fast_path_agrees_with_parse_line_on_anything(lines):
    same_as_reference([HEAD, *lines])


# -- Ruling.to_json writes what json.dumps writes ------------------------------------
@settings(max_examples=200, deadline=None)
@given(st.builds(
    Ruling,
    event=st.integers(-5, 10**6), ruling=st.sampled_from(KINDS),
    rule=st.builds(lambda a, b: f"{a}.{b}", st.text(min_size=1, max_size=6),
                   st.text(max_size=6)),
    text=st.text(min_size=1, max_size=40),
    player=st.one_of(st.none(), st.text(max_size=8)),
    draw=st.one_of(st.none(), st.integers(0, 40), st.booleans()),
    scores=st.one_of(st.none(), st.dictionaries(st.text(max_size=3), st.integers())),
    extra=st.one_of(st.none(), st.dictionaries(st.text(max_size=4), st.integers())),
))
def test_ruling_to_json_is_json_dumps_of_to_dict(ruling):
    assert ruling.to_json() == json.dumps(ruling.to_dict(), ensure_ascii=False)


def test_ruling_to_json_keeps_escapes_and_unicode():
    r = Ruling(3, "penalty", "tgus-3.doubt", 'B draws 4: "裏" \\ \n\x00 ok.', "B", 4)
    assert r.to_json() == json.dumps(r.to_dict(), ensure_ascii=False)
    assert json.loads(r.to_json())["text"] == r.text and "裏" in r.to_json()
