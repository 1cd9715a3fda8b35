"""The tolerant table-log reader and replay: bad lines are reported, never fatal.

Includes a hypothesis fuzz: garbage lines never crash the reader or the uno
replay, and line numbers are preserved.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.game import replay
from referee.log import read_log

HEAD = json.dumps({"type": "game", "game": "uno", "rules": "official",
                   "players": ["A", "B", "C"], "dealer": "C"})
GOOD = [json.dumps({"type": "start", "card": "red-5"}),
        json.dumps({"type": "play", "player": "A", "cards": ["red-6"]}),
        json.dumps({"type": "play", "player": "B", "cards": ["red-7"]})]


def test_malformed_line_reported_with_its_number_and_skipped():
    lines = [HEAD, GOOD[0], "{not json", "", "[1, 2]", GOOD[1], '{"x": 1}', GOOD[2]]
    log = read_log(lines)
    assert [e.line for e in log.errors] == [2, 4, 6]
    assert [e.index for e in log.events] == [1, 5, 7]
    result = replay(lines)
    malformed = [r.event for r in result.rulings if r.rule == "log.malformed"]
    assert malformed == [2, 4, 6]
    assert result.state()["top"] == "red-7" and result.state()["turn"] == "C"


def test_rulings_stay_in_line_order():
    lines = [HEAD, GOOD[0], "garbage", GOOD[1], GOOD[2]]
    events = [r.event for r in replay(lines).rulings]
    assert events == sorted(events)


def test_missing_or_bad_header():
    assert replay([GOOD[0]]).rulings[0].rule == "log.header"
    bad = json.dumps({"type": "game", "game": "uno", "players": []})
    assert replay([bad, GOOD[0]]).game is None
    unknown = json.dumps({"type": "game", "game": "chess", "players": ["A", "B"]})
    assert "chess" in replay([unknown]).rulings[0].text


def test_unknown_preset_is_a_header_ruling():
    head = json.dumps(
        {"type": "game", "game": "uno", "rules": "nope", "players": ["A", "B"]})
    r = replay([head]).rulings[0]
    assert r.rule == "log.header" and "nope" in r.text


def test_second_header_is_ignored():
    result = replay([HEAD, GOOD[0], HEAD, GOOD[1]])
    assert [r.rule for r in result.rulings if r.event == 2] == ["log.header"]
    assert result.state()["top"] == "red-6"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: (st.lists(inner, max_size=4)
                   | st.dictionaries(st.text(), inner, max_size=4)),
    max_leaves=12)
event_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["start", "play", "draw", "pass", "uno", "catch",
                              "challenge", "reveal", "color", "game", "bogus"])},
    optional={"player": st.sampled_from(["A", "B", "C", "Z", 3, None]),
              "cards": st.lists(st.sampled_from(["red-5", "R6", "W4", "wild",
                                                 "blue-draw2", "x", 5]),
                                max_size=3) | json_values,
              "card": (st.sampled_from(["red-5", "wild-draw4", "GS", "bad"])
                       | json_values),
              "count": st.integers(-2, 9) | json_values,
              "color": st.sampled_from(["red", "blue", "pink"]) | json_values,
              "target": st.sampled_from(["A", "B", "Q"])})
lines_strategy = st.lists(
    st.one_of(st.text(max_size=40), event_like.map(json.dumps),
              json_values.map(json.dumps)),
    max_size=40)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines_strategy)
def test_fuzz_garbage_never_crashes_and_keeps_line_numbers(lines):
    lines = [line.replace("\n", " ").replace("\r", " ") for line in lines]
    all_lines = [HEAD] + lines
    log = read_log(all_lines)
    numbers = [e.line for e in log.errors] + [e.index for e in log.events]
    assert len(set(numbers)) == len(numbers)
    assert all(0 <= n < len(all_lines) for n in numbers)
    for e in log.events:
        assert json.loads(all_lines[e.index])["type"] == e.type
    result = replay(all_lines)
    assert all(0 <= r.event < len(all_lines) for r in result.rulings)
    events = [r.event for r in result.rulings]
    assert events == sorted(events)
    state = result.state()
    assert all(v >= 0 for v in state["hand_counts"].values())
    json.dumps(state)
    for r in result.rulings:
        json.loads(r.to_json())


SIM_LINES = None


def _sim_lines():
    global SIM_LINES
    if SIM_LINES is None:
        from referee.uno.simulate import simulate

        SIM_LINES = simulate(5, 3, {"rounds": 1, "stacking": True}).lines()
    return SIM_LINES


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(1, 400), event_like.map(json.dumps)),
                max_size=12))
def test_fuzz_random_events_inside_a_real_game_never_crash(inserts):
    lines = list(_sim_lines())
    for at, text in sorted(inserts, reverse=True):
        lines.insert(min(at, len(lines)), text)
    result = replay(lines)
    assert result.game is not None
    state = result.state()
    assert all(v >= 0 for v in state["hand_counts"].values())
    assert state["draw_pile"] >= 0 and state["discard_pile"] >= 0
    assert len({r.event for r in result.rulings}) <= len(lines)
