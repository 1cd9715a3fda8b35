"""still-in: a seat the log holds out, seen still playing, is taken back in."""

from __future__ import annotations

from tests.referee.tgus_t.test_tgus_t_support import replayed


def run(*events):
    return replayed(*events, hand_size=1)


def test_still_in_reopens_an_ended_game_and_moves_the_win():
    res = run({"type": "play", "player": "A", "cards": ["red-7"]},
              {"type": "play", "player": "B", "cards": ["red-8"]},
              {"type": "still-in", "player": "A", "count": 2},
              {"type": "play", "player": "A", "cards": ["red-1", "blue-1"]})
    still = [r for r in res.rulings if r.rule == "tgus-t1.still-in"]
    assert [r.ruling for r in still] == ["ok"]
    assert "1位" in still[0].text.render("ja") and still[0].text.render("ja").count("。") == 1
    plays = [r for r in res.rulings if r.event == 5]
    assert ("ok", "tgus-t1.play") in [(r.ruling, r.rule) for r in plays]
    state = res.game.state()
    assert state["ranking"] == ["B", "A", "C"] and state["scores"]["B"] == 1
    assert state["scores"]["A"] == 0


def test_still_in_for_a_seat_in_play_changes_nothing():
    res = run({"type": "still-in", "player": "A", "count": 1})
    r = [r for r in res.rulings if r.event == 2][0]
    assert (r.ruling, r.rule) == ("info", "tgus-t1.still-in")


def test_completion_puts_still_in_before_a_seen_move_of_a_seat_out():
    from vision.handsfree_tgus_t import complete_tgus_t

    res = run({"type": "play", "player": "A", "cards": ["red-7"]},
              {"type": "play", "player": "B", "cards": ["red-8"]})
    ev = {"type": "play", "source": "vision", "t": 9.0, "reach_from": "A",
          "cards": ["red-1"]}
    out = complete_tgus_t(ev, res.game.state())
    assert [e["type"] for e in out] == ["still-in", "play"]
    assert out[0]["player"] == "A" and out[0]["inferred"]


def test_a_malformed_still_in_is_ruled_not_raised():
    res = run({"type": "play", "player": "A", "cards": ["red-7"]},
              {"type": "still-in"},
              {"type": "still-in", "player": "Z", "count": "x"},
              {"type": "still-in", "player": "A", "count": "x"})
    kinds = [(r.event, r.rule) for r in res.rulings if r.event >= 3]
    # no player: the player on turn, who is in play (noted); an unknown player
    # and a count that is no number are malformed: A stays out
    assert kinds == [(3, "tgus-t1.still-in"), (4, "log.malformed"), (5, "log.malformed")]
    assert res.game.state()["ranking"] == ["A"]


def test_a_still_in_count_that_is_no_card_count_is_malformed():
    # a count that is no whole number of cards the deck could hold changes
    # nothing (a stored log is read as it is: ``Infinity`` is valid JSON there)
    for bad in (float("inf"), 1e300, 2.5, True, "7", -1, 10_000):
        res = run({"type": "play", "player": "A", "cards": ["red-7"]},
                  {"type": "still-in", "player": "A", "count": bad})
        assert res.game.state()["ranking"] == ["A"], bad
        assert [r.rule for r in res.rulings if r.event == 3] == ["log.malformed"], bad
