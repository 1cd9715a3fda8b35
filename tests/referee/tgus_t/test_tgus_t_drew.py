"""The tgus-t state says whether the player to move drew on this turn
(``drew``), as UNO's state does with its ``drawn`` phase: the camera's
completion reads it to tell a drawer's pass from an out-of-turn move."""

from __future__ import annotations

from test_tgus_t_support import draw, play, run  # noqa: F401


def test_drew_is_set_by_the_turns_draw_and_cleared_when_the_turn_moves_on():
    state, _ = run("tgus-t1", [])
    assert state["drew"] is False
    state, _ = run("tgus-t1", [draw("A")])
    assert state["drew"] is True and state["turn"] == "A"
    state, _ = run("tgus-t1", [draw("A"), {"type": "pass", "player": "A"}])
    assert state["drew"] is False and state["turn"] == "B"
    state, _ = run("tgus-t1", [play("A", "red-7")])
    assert state["drew"] is False and state["turn"] == "B"
