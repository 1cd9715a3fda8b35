"""A question on an event that partly went through (000 §T1): a Counter
answering a Hit stands even when the colour written on it is refused, so the
camera's question on it does not hold the whole play.

Players A, B, C sit clockwise, C deals, A begins; line 1 is the start card."""

from __future__ import annotations

import pytest
from test_tgus_t_support import play, run


@pytest.mark.parametrize("rules", ["tgus-t1", "tgus-t2"])
def test_a_counter_with_a_refused_colour_and_a_question_still_stands(rules):
    counter = play("B", "counter", color="blue", question="Was a card missed?")
    state, by = run(rules, [play("A", "red-hit2"), counter])
    kinds = [(r.ruling, r.rule.split(".", 1)[1]) for r in by[3]]
    # the Counter went through: the draw turned round to A, B's card left the hand
    assert ("pending", "counter") in kinds
    assert state["pending_target"] == "A"
    assert state["hand_counts"]["B"] == state["hand_counts"]["C"] - 1
    # the refused colour stays refused, not turned into a question holding the play
    assert ("illegal", "color") in kinds
    assert state["color"] == "red"
    assert not any(k == "question" for _, k in kinds)


@pytest.mark.parametrize("rules", ["tgus-t1", "tgus-t2"])
def test_a_refused_play_with_a_question_is_still_held_as_a_question(rules):
    wrong = play("A", "blue-1", question="Was a card missed?")
    state, by = run(rules, [wrong])
    kinds = [(r.ruling, r.rule.split(".", 1)[1]) for r in by[2]]
    assert kinds[0] == ("pending", "question")
    assert "refused" in by[2][0].extra
    assert state["hand_counts"]["A"] == state["hand_counts"]["B"]
