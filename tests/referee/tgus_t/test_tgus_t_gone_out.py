"""gone-out: a seat the log holds in, seen no more while the others play on."""

from __future__ import annotations

from tests.referee.tgus_t.test_tgus_t_support import replayed as run


def test_gone_out_takes_the_seat_on_turn_out_and_passes_the_turn():
    res = run({"type": "play", "player": "A", "cards": ["red-7"]},
              {"type": "gone-out", "player": "B"},
              {"type": "play", "player": "C", "cards": ["red-8"]})
    gone = [r for r in res.rulings if r.event == 3]
    assert ("ok", "tgus-t1.gone-out") in [(r.ruling, r.rule) for r in gone]
    assert "tgus-t1.going-out" in [r.rule for r in gone]
    for lang in ("en", "ja"):
        text = gone[0].text.render(lang)
        assert "B" in text and text.count("." if lang == "en" else "。") == 1
    plays = [r for r in res.rulings if r.event == 4]
    assert [r.ruling for r in plays] == ["ok"]
    state = res.game.state()
    assert state["ranking"] == ["B"] and state["scores"]["B"] == 1
    assert state["hand_counts"]["B"] == 0 and state["turn"] == "A"


def test_gone_out_of_the_last_two_ends_the_game():
    res = run({"type": "play", "player": "A", "cards": ["red-7"]},
              {"type": "gone-out", "player": "B"},
              {"type": "gone-out", "player": "C"})
    state = res.game.state()
    assert state["over"] and state["ranking"] == ["B", "C", "A"]
    assert "game-end" in [r.ruling for r in res.rulings if r.event == 4]


def test_a_malformed_or_needless_gone_out_is_ruled_not_raised():
    res = run({"type": "gone-out"},
              {"type": "gone-out", "player": "Z"},
              {"type": "gone-out", "player": "A"},
              {"type": "gone-out", "player": "A"})
    assert {r.event for r in res.rulings if r.event >= 2} == {2, 3, 4, 5}
    again = [r for r in res.rulings if r.event == 5]
    assert [(r.ruling, r.rule) for r in again] == [("info", "tgus-t1.gone-out")]
    assert res.game.state()["ranking"] == ["A"]


def _camera(seat, card, t):
    return {"type": "play", "source": "vision", "t": t, "reach_from": seat,
            "cards": [card]}


def test_completion_infers_gone_out_when_the_seat_on_turn_is_seen_no_more():
    from vision.handsfree_tgus_t import TgusTHandsFree

    res = run({"type": "play", "player": "A", "cards": ["red-7"]})
    state = res.game.state()  # B on turn, holding cards in the log
    done = TgusTHandsFree()
    done.moved = ["A", "B", "C", "A", "C", "A"]  # B's last move, then C and A twice
    done.stuck = ("B", 2)  # the referee held B on turn through two plays of others
    out = done(_camera("C", "red-8", 9.0), state)
    assert [e["type"] for e in out] == ["gone-out", "play"]
    assert out[0]["player"] == "B" and out[0]["inferred"]
    assert out[1]["player"] == "C"


def test_completion_waits_while_the_seat_on_turn_moved_lately():
    from vision.handsfree_tgus_t import TgusTHandsFree

    res = run({"type": "play", "player": "A", "cards": ["red-7"]})
    state = res.game.state()
    done = TgusTHandsFree()
    done.moved = ["A", "C", "A", "B", "C"]  # A once since B's move
    done.stuck = ("B", 2)
    out = done(_camera("C", "red-8", 9.0), state)
    assert "gone-out" not in [e["type"] for e in out]


def test_completion_waits_while_the_turn_moved_on_lately():
    from vision.handsfree_tgus_t import TgusTHandsFree

    res = run({"type": "play", "player": "A", "cards": ["red-7"]})
    state = res.game.state()
    done = TgusTHandsFree()
    done.moved = ["A", "B", "C", "A", "C", "A"]
    done.stuck = ("B", 1)  # the others' plays were taken in turn until lately
    out = done(_camera("C", "red-8", 9.0), state)
    assert "gone-out" not in [e["type"] for e in out]
    assert done.stuck == ("B", 2)


def test_gone_out_of_a_seat_off_turn_leaves_the_turn_and_its_draw_as_they_were():
    res = run({"type": "draw", "player": "A", "count": 1},
              {"type": "gone-out", "player": "C"}, players=("A", "B", "C", "D"))
    state = res.game.state()
    assert state["ranking"] == ["C"]
    assert state["turn"] == "A" and state["drew"] is True
