"""Scoring a refereed table log against the truth, every event type (issue 25)."""

from __future__ import annotations

from vision.demo.evaluate import score_log, with_players

HEADER = {"type": "game", "game": "uno", "rules": "official",
          "players": ["A", "B", "C"], "dealer": "C", "hand_size": 5, "options": {}}
TRUTH = [
    {"type": "start", "card": "red-7", "t": 1.0},
    {"type": "draw", "player": "A", "count": 1, "t": 2.0},
    {"type": "pass", "player": "A", "t": 2.5, "source": "voice"},
    {"type": "play", "player": "B", "cards": ["wild"], "color": "blue", "t": 4.0},
    {"type": "uno", "player": "C", "t": 5.0},
    {"type": "play", "player": "C", "cards": ["blue-3"], "t": 5.5},
]


def test_a_log_equal_to_the_truth_is_right_in_every_type():
    scores = score_log(TRUTH, TRUTH)
    assert all(s.matched == s.truth and not s.extra for s in scores.values())
    assert (scores["color"].truth, scores["uno"].truth) == (1, 1)


def test_a_play_booked_to_another_player_is_wrong():
    log = [dict(e) for e in TRUTH]
    log[5]["player"] = "A"
    scores = score_log(TRUTH, log)
    assert scores["play"].matched == 1 and len(scores["play"].extra) == 1


def test_a_missing_call_and_a_late_inferred_pass_and_colour():
    log = [
        TRUTH[0], TRUTH[1],
        {"type": "pass", "player": "A", "t": 4.0, "inferred": "..."},
        {"type": "play", "player": "B", "cards": ["wild"], "t": 4.0},
        {"type": "color", "color": "blue", "t": 5.5, "inferred": "..."},
        TRUTH[5],
    ]
    scores = score_log(TRUTH, log)
    assert scores["pass"].matched == 1 and scores["color"].matched == 1
    assert scores["uno"].recall == 0.0


def test_players_left_out_are_the_turns_as_the_referee_takes_them():
    log = [TRUTH[0], {"type": "draw", "count": 1, "t": 2.0}]
    events, scores = with_players(HEADER, log)
    assert events[1]["player"] == "A" and scores == {"A": 0, "B": 0, "C": 0}
