"""The referee side of a camera-read tgus-t1 game (benchmarks/eval_tgus_t.py):
camera events plus the table's spoken lines make the game the players played."""

from __future__ import annotations

import pytest

from benchmarks.eval_tgus_t import SpokenTable, score
from datasets.tgus_t_table import build_timeline, playout


def _camera(truth: list[dict]) -> list[dict]:
    """What a camera that sees every card right reports: no colours, targets,
    effects or player names, turned cards as plays."""
    out = []
    for e in truth[1:]:
        kind, t = e["type"], e["t"]
        if kind == "start":
            out.append({"type": "start", "card": e["card"], "t": t + 0.4})
        elif kind in ("play", "turned"):
            out.append({"type": "play", "cards": e["cards"], "t": t + 0.4,
                        "reach_from": e.get("player")})
        elif kind == "draw":
            out.append({"type": "draw", "count": e["count"], "t": t,
                        "reach_from": e["player"]})
    return out


@pytest.fixture(scope="module")
def game():
    events = playout(6)
    _, truth, said = build_timeline(events, 6)
    return truth, said


def _run(truth, said, camera):
    table = SpokenTable(truth[0], said)
    for e in camera:
        table.camera(e)
    table.finish()
    return {"truth": truth, "events": camera, "table": table}


def test_a_camera_that_reads_every_card_gives_the_played_game(game) -> None:
    truth, said = game
    camera = _camera(truth)
    result = _run(truth, said, camera)
    s = score(result)
    assert s["found"] == s["right"] == s["cards"]
    assert s["draw_found"] == s["draw_right"] == s["draws"]
    assert s["illegal"] == 0
    assert s["ranking"] == s["ranking_truth"] and s["scores"] == s["scores_truth"]
    kinds = [e["type"] for e in result["table"].appended]
    assert kinds.count("turned") == sum(e["type"] == "turned" for e in truth)
    # the targets and effects the camera cannot see came with the right cards
    def said_with(events):
        return [(e["cards"], e.get("target"), e.get("effect")) for e in events
                if e["type"] in ("play", "turned") and ("target" in e or "effect" in e)]

    assert said_with(result["table"].appended) == said_with(truth[1:])


def test_a_misread_card_is_scored_wrong(game) -> None:
    truth, said = game
    camera = _camera(truth)
    i = next(k for k, e in enumerate(camera) if e["type"] == "play"
             and len(e["cards"]) == 1 and e["cards"][0].startswith("red-"))
    camera[i] = {**camera[i], "cards": ["gamble"]}
    s = score(_run(truth, said, camera))
    assert s["found"] == s["cards"] and s["right"] == s["cards"] - 1
    assert len(s["wrong"]) == 1 and "read as gamble" in s["wrong"][0]


def test_a_missed_play_is_not_found_and_the_game_goes_astray(game) -> None:
    truth, said = game
    camera = _camera(truth)
    i = next(k for k, e in enumerate(camera) if e["type"] == "play" and k > 3)
    del camera[i]
    s = score(_run(truth, said, camera))
    assert s["found"] == s["right"] == s["cards"] - 1
    assert s["illegal"] > 0 or s["ranking"] != s["ranking_truth"]
