"""The live referee's replays: from the game's snapshots, a correction tried
and put back, and copies."""

from __future__ import annotations

import copy
import json

import pytest

import referee.session as session
from referee.game import replay
from referee.session import SNAPSHOT_EVERY
from tests.referee.test_session import HEAD, feed


def long_log(turns: int) -> list[dict]:
    """A first card, then each player on turn draws one and passes."""
    out = [{"type": "start", "card": "red-5"}]
    for k in range(turns):
        p = "ABC"[k % 3]
        out += [{"type": "draw", "player": p, "count": 1},
                {"type": "pass", "player": p}]
    return out


def same_as_clean_replay(ref):
    clean = replay([json.dumps(HEAD)] + [json.dumps(e) for e in ref.events])
    assert ref.rulings == clean.rulings
    assert ref.state() == clean.state()


@pytest.fixture
def applied(monkeypatch):
    """The lines the referee applies, counted."""
    count = [0]
    real = session.apply_safely

    def counting(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(session, "apply_safely", counting)
    return count


def test_a_correction_near_the_end_replays_from_the_last_snapshot(applied):
    ref = feed(long_log(3 * SNAPSHOT_EVERY))
    n = len(ref.events)
    applied[0] = 0
    ref.correct(n - 2, {"type": "draw", "player": ref.events[n - 3]["player"],
                        "count": 2})
    assert applied[0] <= SNAPSHOT_EVERY + 2 < n
    same_as_clean_replay(ref)


@pytest.mark.parametrize("line", [1, 2, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 1, 40, 97])
def test_every_correction_is_a_clean_replay(line):
    ref = feed(long_log(3 * SNAPSHOT_EVERY + 1))
    ref.correct(line, {"type": "draw", "player": "B", "count": 3})
    same_as_clean_replay(ref)
    ref.insert(line, {"type": "uno", "player": "A"})
    same_as_clean_replay(ref)
    ref.delete(line + 1)
    same_as_clean_replay(ref)
    ref.correct(line - 1 or 1, {"type": "draw", "player": "C", "count": 1})
    same_as_clean_replay(ref)
    for e in long_log(SNAPSHOT_EVERY)[1:]:
        ref.append(e)
    same_as_clean_replay(ref)
    ref.undo()
    same_as_clean_replay(ref)


def test_a_correction_tried_and_not_kept_leaves_the_referee_as_it_was(applied):
    ref = feed(long_log(2 * SNAPSHOT_EVERY))
    events, rulings, state = list(ref.events), list(ref.rulings), ref.state()
    applied[0] = 0
    kept = ref.try_correct(5, {"type": "play", "player": "C", "cards": ["blue-9"]},
                           keep=lambda r: True, refused=lambda r: r.ruling == "illegal")
    assert not kept
    assert applied[0] < len(ref.events) - 5  # stopped at the first refused ruling
    assert ref.events == events and ref.rulings == rulings and ref.state() == state
    ref.append({"type": "draw", "player": ref.state()["turn"], "count": 1})
    same_as_clean_replay(ref)


def test_a_correction_tried_and_kept_is_a_correction():
    ref = feed(long_log(2 * SNAPSHOT_EVERY))
    other = feed(long_log(2 * SNAPSHOT_EVERY))
    new = {"type": "draw", "player": ref.events[4]["player"], "count": 2}
    assert ref.try_correct(5, new, keep=lambda r: True)
    other.correct(5, new)
    assert ref.events == other.events and ref.rulings == other.rulings
    assert not ref.try_correct(5, {**new, "count": 3}, keep=lambda r: False)
    assert ref.events == other.events and ref.rulings == other.rulings
    same_as_clean_replay(ref)


def test_a_copy_corrected_leaves_the_original_as_it_was():
    ref = feed(long_log(2 * SNAPSHOT_EVERY))
    events, rulings = [dict(e) for e in ref.events], list(ref.rulings)
    state = ref.state()
    twin = copy.deepcopy(ref)
    twin.correct(3, {"type": "draw", "player": "B", "count": 4})
    twin.append({"type": "draw", "player": twin.state()["turn"], "count": 1})
    same_as_clean_replay(twin)
    assert ref.events == events and ref.rulings == rulings and ref.state() == state
    ref.correct(len(ref.events), {"type": "pass", "player": ref.events[-1]["player"]})
    same_as_clean_replay(ref)


def test_what_a_correction_changed_is_the_rulings_it_removed_and_added():
    ref = feed(long_log(2 * SNAPSHOT_EVERY))
    before = list(ref.rulings)
    change = ref.correct(4, {"type": "play", "player": "B", "cards": ["blue-9"]})
    assert change.removed == [r for r in before if r not in ref.rulings]
    assert change.added == [r for r in ref.rulings if r not in before]
    assert change.added and change.removed


@pytest.mark.parametrize("lines", [0, 1, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 5, 97])
def test_a_referee_up_to_a_line_is_a_clean_replay_of_those_lines(applied, lines):
    ref = feed(long_log(3 * SNAPSHOT_EVERY + 1))
    events, rulings = list(ref.events), list(ref.rulings)
    applied[0] = 0
    head = ref.upto(lines)
    assert applied[0] <= SNAPSHOT_EVERY  # from the last snapshot before them
    assert head.events == events[:lines]
    same_as_clean_replay(head)
    head.append({"type": "uno", "player": "A"})
    same_as_clean_replay(head)
    assert ref.events == events and ref.rulings == rulings  # the original as it was
    same_as_clean_replay(ref)
