"""The live referee session: append, correct, insert, delete, undo (as a replay)."""

from __future__ import annotations

import json

import pytest

from referee.game import replay
from referee.log import LogError
from referee.session import Referee

HEAD = {"type": "game", "game": "uno", "rules": "official", "players": ["A", "B", "C"],
        "dealer": "C"}


def feed(events):
    ref = Referee(HEAD)
    for e in events:
        ref.append(e)
    return ref


def clean(events):
    return replay([json.dumps(HEAD)] + [json.dumps(e) for e in events])


def same_as_clean_replay(ref):
    result = clean(ref.events)
    assert ref.rulings == result.rulings
    assert ref.state() == result.state()


EVENTS = [{"type": "start", "card": "red-5"},
          {"type": "play", "player": "A", "cards": ["red-6"]},
          {"type": "play", "player": "B", "cards": ["blue-9"]},
          {"type": "play", "player": "B", "cards": ["red-9"]}]


def test_append_returns_the_new_rulings():
    ref = Referee(HEAD)
    assert ref.append(EVENTS[0])[0].rule == "official.first-card"
    ref.append(EVENTS[1])
    new = ref.append(EVENTS[2])
    assert [r.ruling for r in new] == ["illegal"]
    same_as_clean_replay(ref)


def test_correct_a_misread_card():
    ref = feed(EVENTS)
    change = ref.correct(3, {"type": "play", "player": "B", "cards": ["red-8"]})
    assert [r.ruling for r in change.removed] == ["illegal", "ok"]
    assert ref.state()["turn"] == "C" and ref.state()["hand_counts"]["B"] == 6
    assert [r.ruling for r in change.added] == ["ok", "illegal"]
    same_as_clean_replay(ref)


def test_insert_a_forgotten_event_and_delete_it():
    ref = feed(EVENTS[:2])
    ref.insert(2, {"type": "uno", "player": "A"})
    assert ref.events[1]["type"] == "uno"
    same_as_clean_replay(ref)
    ref.delete(2)
    assert [e["type"] for e in ref.events] == ["start", "play"]
    same_as_clean_replay(ref)


def test_undo_removes_the_last_event():
    ref = feed(EVENTS[:2])
    ref.undo()
    assert ref.state()["turn"] == "A" and ref.state()["hand_counts"]["A"] == 7
    ref.undo()
    with pytest.raises(LogError):
        ref.undo()


def test_bad_event_objects_are_refused_without_recording():
    ref = feed(EVENTS[:1])
    with pytest.raises(LogError):
        ref.append({"player": "A"})
    with pytest.raises(LogError):
        ref.correct(5, EVENTS[1])
    assert len(ref.events) == 1


def test_log_lines_round_trip():
    ref = feed(EVENTS)
    result = replay(ref.log_lines())
    assert result.rulings == ref.rulings


def test_public_view_of_the_session():
    ref = feed(EVENTS[:2] + [{"type": "draw", "player": "B", "cards": ["green-1"]}])
    assert ref.state()["drawn_card"] == "green-1"
    assert "drawn_card" not in ref.public_view()


def test_observe_gives_each_viewer_their_view():
    ref = Referee({"type": "game", "game": "overflow", "rules": "overflow",
                   "players": ["A", "B", "C"]})
    for color, value in (("red", "1"), ("yellow", "2"), ("green", "3"), ("blue", "0")):
        ref.append({"type": "limit", "card": f"{color}-{value}"})
    ref.append({"type": "limit-break", "player": "A", "card": "red-5"})
    assert ref.observe(None) == ref.public_view()
    assert "face_down" not in ref.observe(None)
    assert ref.observe("A")["face_down"] == {"A": "red-5"}
    assert ref.state()["face_down"] == {"A": "red-5"}
