"""The referee side of a camera-read tgus-t1 game (benchmarks/eval_tgus_t.py):
the camera's events alone, completed from the referee's state
(vision.handsfree_tgus_t.TgusTHandsFree), make the game the players played."""

from __future__ import annotations

import pytest

from benchmarks.eval_tgus_t import CameraTable, score
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
    # a tuning game whose spoken fields the camera can do without: a Hit+?, a
    # Replace, leftovers, passes, colours shown by the next play
    events = playout(1)
    _, truth, _said = build_timeline(events, 1)
    return truth


def _run(truth, camera):
    table = CameraTable(truth[0])
    for e in camera:
        table.camera(e)
    table.finish()
    return {"truth": truth, "events": camera, "table": table}


def test_a_camera_that_reads_every_card_gives_the_played_game(game) -> None:
    truth = game
    camera = _camera(truth)
    result = _run(truth, camera)
    s = score(result)
    assert s["found"] == s["right"] == s["cards"]
    assert s["draw_found"] == s["draw_right"] == s["draws"]
    assert s["illegal"] == 0
    assert s["ranking"] == s["ranking_truth"] and s["scores"] == s["scores_truth"]
    kinds = [e["type"] for e in result["table"].appended]
    assert kinds.count("turned") == sum(e["type"] == "turned" for e in truth)
    # nothing came from the script: every event the camera did not report is
    # marked inferred, with its reason
    camera_kinds = {"start", "play", "draw"}
    assert all("inferred" in e for e in result["table"].appended
               if e["type"] not in camera_kinds)
    assert kinds.count("pass") == sum(e["type"] == "pass" for e in truth)


def test_a_misread_card_is_scored_wrong(game) -> None:
    truth = game
    camera = _camera(truth)
    i = next(k for k, e in enumerate(camera) if e["type"] == "play"
             and len(e["cards"]) == 1 and e["cards"][0].startswith("red-"))
    camera[i] = {**camera[i], "cards": ["gamble"]}
    s = score(_run(truth, camera))
    assert s["found"] == s["cards"] and s["right"] == s["cards"] - 1
    assert len(s["wrong"]) == 1 and "read as gamble" in s["wrong"][0]


def test_a_missed_play_is_not_found_and_the_game_goes_astray(game) -> None:
    truth = game
    camera = _camera(truth)
    i = next(k for k, e in enumerate(camera) if e["type"] == "play" and k > 3)
    del camera[i]
    s = score(_run(truth, camera))
    assert s["found"] == s["right"] == s["cards"] - 1
    assert s["illegal"] > 0 or s["ranking"] != s["ranking_truth"]


def test_plays_seen_merged_or_in_another_order_still_give_the_played_game(game) -> None:
    # the camera reports a multi-play's cards in another order, and two turns
    # put down close together as one play (the seats reaching in, in order)
    truth = game
    camera = _camera(truth)
    # (multi-plays on a number card of another value: only the card of the
    # colour in play may go first)
    multi = [k for k, e in enumerate(camera) if e["type"] == "play" and k
             and len(e["cards"]) > 1 and len({c.split("-")[0] for c in e["cards"]}) > 1
             and camera[k - 1]["type"] == "play"
             and camera[k - 1]["cards"][-1].split("-")[-1].isdigit()
             and camera[k - 1]["cards"][-1].split("-")[-1]
             != e["cards"][0].split("-")[-1]]
    assert multi
    for k in multi:
        camera[k] = {**camera[k], "cards": camera[k]["cards"][::-1]}
    pairs = [k for k in range(len(camera) - 1)
             if camera[k]["type"] == camera[k + 1]["type"] == "play"
             and camera[k]["cards"][0].split("-")[-1]
             != camera[k + 1]["cards"][0].split("-")[-1]
             and camera[k]["reach_from"] != camera[k + 1]["reach_from"]
             and not any(c.startswith(("wild", "change", "replace", "gamble", "counter"))
                         for c in camera[k]["cards"] + camera[k + 1]["cards"])]
    assert pairs
    k = pairs[len(pairs) // 2]
    a, b = camera[k], camera[k + 1]
    camera[k:k + 2] = [{**b, "cards": a["cards"] + b["cards"],
                        "pile_reaches": [a["reach_from"], b["reach_from"]]}]
    result = _run(truth, camera)
    s = score(result)
    assert s["illegal"] == 0
    assert s["ranking"] == s["ranking_truth"] and s["scores"] == s["scores_truth"]
    # the camera's merged play is one card event short; the referee got both
    assert s["right"] < s["cards"] == s["refereed_found"] == s["refereed_right"]


def test_a_camera_that_sees_only_the_top_card_of_a_multi_play_rules_nothing_illegal(
        game) -> None:
    # the finder boxes cards played together as one, named by the top card:
    # the cards under it are inferred where a play or a later play needs them
    truth = game
    camera = _camera(truth)
    multi = [e for e in camera if e["type"] == "play" and len(e["cards"]) > 1]
    assert len(multi) > 3
    for e in multi:
        e["cards"] = e["cards"][-1:]
    s = score(_run(truth, camera))
    assert s["illegal"] == 0
    assert s["right"] == s["cards"] - len(multi) < s["refereed_right"]



@pytest.mark.parametrize("rules, options, grouped", [
    # the preset allows several cards a turn, but its cards land together and
    # the next turn follows close: the camera groups them as they land
    ("tgus-t1", {}, False),
    ("official", {}, False),
    ("official", {"multi_play": "same"}, True),
    ("official", {"multi_play": True}, True),
    ("official", {"multi_play": "off"}, False),  # said off: no wider window
    ("official", {"two_card": True}, True),
])
def test_the_pipeline_groups_plays_when_the_options_allow_several_cards(
        rules, options, grouped) -> None:
    from vision.config import PlayConfig
    from vision.geometry import TableGeometry
    from vision.pipeline_parts import make_interpreter

    config = PlayConfig()
    geometry = TableGeometry.default((1280, 720), ["A", "B", "C"])
    stage = make_interpreter("uno", geometry, options,
                             game_state=lambda: {"rules": rules}, config=config)
    want = config.multi_group_s if grouped else config.group_s
    assert stage.config.group_s == want


def test_draws_are_scored_as_refereed_by_runs_of_one_seat(game) -> None:
    # a camera that counts a Hit's draw whole at its first take (the cards
    # owed, then the rest as a draw of its own, which the completion drops):
    # the referee's draws hold the truth's runs (1 to decline, the rest owed)
    truth = game
    camera = _camera(truth)
    counted = 0
    for k in range(len(camera) - 1):
        e, nxt = camera[k], camera[k + 1]
        if (e["type"] == nxt["type"] == "draw" and e["reach_from"] == nxt["reach_from"]
                and "takes" not in e):
            camera[k] = {**e, "count": e["count"] + nxt["count"], "takes": e["count"]}
            counted += 1
    assert counted
    s = score(_run(truth, camera))
    assert s["draw_runs"] > 0
    assert s["draw_runs_found"] == s["draw_runs_right"] == s["draw_runs"]
    assert not s["draw_runs_wrong"]


def test_a_draw_run_of_another_seat_or_count_is_scored_wrong(game) -> None:
    truth = game
    camera = _camera(truth)
    i = next(k for k, e in enumerate(camera) if e["type"] == "draw"
             and camera[k - 1]["type"] == "play" and camera[k + 1]["type"] == "play")
    camera[i] = {**camera[i], "count": camera[i]["count"] + 2}
    s = score(_run(truth, camera))
    assert s["draw_runs_right"] == s["draw_runs"] - 1
    assert len(s["draw_runs_wrong"]) == 1


def test_camera_moves_after_a_log_that_ended_the_game_early_are_counted(game) -> None:
    # a camera that reads every card: nothing after the end; the same camera
    # going on past the game's end (its last play seen again, later, by the
    # seat left last, who still holds cards): each play the log refuses as
    # after the end is counted, none ruled illegal
    truth = game
    camera = _camera(truth)
    s = score(_run(truth, camera))
    assert s["after_end"] == 0
    last = {**camera[-1], "reach_from": s["ranking_truth"][-1]}
    more = [{**last, "t": last["t"] + 5 + k} for k in range(3)]
    s = score(_run(truth, camera + more))
    assert s["after_end"] == 3 and s["illegal"] == 0


def test_plays_refused_after_a_log_that_ended_early_are_not_refereed_right(game) -> None:
    # a draw of a seat's late in the game missed: the log empties that seat's
    # hand too early and refuses its last plays as after the game's end. The
    # referee counts nothing of them, so neither does the refereed score:
    # their cards are missed there although the camera read them right
    from benchmarks.eval_tgus_t import _after_end

    truth = game
    camera = _camera(truth)
    i = next(k for k, e in enumerate(camera) if e["type"] == "draw"
             and e["reach_from"] == "P2" and e["t"] > 150)
    result = _run(truth, camera[:i] + camera[i + 1:])
    s = score(result)
    events = result["table"].referee.events
    refused = [events[r.event - 1] for r in result["table"].rulings
               if _after_end(r, events) and events[r.event - 1]["type"] == "play"]
    assert refused and s["after_end"] >= len(refused)
    for e in refused:
        assert f"{e['t'] - 0.4:.1f}s {'+'.join(sorted(e['cards']))}" in s["refereed_missed"]
    assert s["refereed_right"] <= s["right"] - len(refused)


def test_the_standing_by_the_seats_last_camera_moves() -> None:
    from benchmarks.eval_tgus_t import camera_standing

    def move(kind, seat, t):
        return {"type": kind, "reach_from": seat, "t": t}

    # A stops moving first (out first); C's play ends the game, so B, who
    # moved last before it, is last
    events = [move("play", "A", 1), move("play", "B", 2), move("play", "C", 3),
              move("play", "B", 4), move("draw", "C", 5), move("play", "B", 6),
              move("play", "C", 7)]
    assert camera_standing(events, ["A", "B", "C"]) == ["A", "C", "B"]
    # a seat named by the completion wins over the reach; a seat never seen: None
    events[-1] = {**events[-1], "player": "B"}
    assert camera_standing(events, ["A", "B", "C"]) == ["A", "B", "C"]
    assert camera_standing(events[:3], ["A", "B", "C", "D"]) is None
    assert camera_standing([move("draw", "A", 1)], ["A"]) is None
