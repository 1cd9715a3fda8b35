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


def test_a_late_colour_from_the_counterer_of_a_change_is_accepted():
    """000: the player whose Counter bounced a Change names the colour; a colour
    heard after the next seat's move (refused meanwhile) still settles it."""
    state, by = run("tgus-t1", [play("A", "change", target="C"), play("C", "counter"),
                                play("B", "red-7"),
                                {"type": "color", "player": "C", "color": "blue"}])
    assert by[4][0].ruling == "illegal"
    assert by[5][0].ruling == "ok" and state["color"] == "blue"


def test_a_counter_on_a_hit_chain_has_no_colour_to_name():
    """RULES.md: only wilds, Replace, Gamble (their player) and a Change (its
    target or counterer) name a colour; a Counter answering a Hit does not."""
    state, by = run("tgus-t1", [play("A", "red-hit2"), play("B", "counter"),
                                {"type": "color", "player": "B", "color": "blue"}])
    assert by[4][0].ruling == "illegal" and state["color"] == "red"
