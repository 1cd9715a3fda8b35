"""Scenario tests for overflow (seed 004) and a seeded random playout."""

from __future__ import annotations

import json

from referee.cards import COLORS
from tableref.cli import main as cli_main
from referee.game import replay

PLAYERS = ["A", "B", "C"]


def run(events, players=PLAYERS, **header):
    head = {"type": "game", "game": "overflow", "rules": "overflow", "players": players}
    head.update(header)
    lines = [json.dumps(head)] + [json.dumps(e) for e in events]
    return replay(lines)


def by_event(result, index):
    return [r for r in result.rulings if r.event == index]


def limits(red="1", yellow="2", green="3", blue="0"):
    vals = {"red": red, "yellow": yellow, "green": green, "blue": blue}
    return [{"type": "limit", "card": f"{c}-{v}"} for c, v in vals.items()]


def breaks(cards=("red-5", "yellow-5", "blue-5")):
    pairs = zip(PLAYERS, cards, strict=True)
    return [{"type": "limit-break", "player": p, "card": c} for p, c in pairs]


def ins(player, card):
    return [
        {"type": "insert", "player": player, "card": card},
        {"type": "draw", "player": player, "count": 1},
    ]


def test_limit_phase_third_reverse_goes_under_the_deck():
    events = [
        {"type": "limit", "card": "red-reverse"},
        {"type": "limit", "card": "yellow-reverse"},
        {"type": "limit", "card": "green-reverse"},
        {"type": "limit", "card": "green-2"},
        {"type": "limit", "card": "blue-7"},
        {"type": "limit", "card": "blue-1"},
    ]
    res = run(events)
    assert by_event(res, 3)[0].ruling == "pending"
    assert by_event(res, 3)[0].rule == "overflow.third-reverse"
    assert by_event(res, 5)[0].ruling == "illegal"
    assert res.game.state()["limit_cards"] == {
        "red": "red-reverse",
        "yellow": "yellow-reverse",
        "green": "green-2",
        "blue": "blue-1",
    }
    assert res.game.state()["phase"] == "limit-break"


def test_inserts_follow_the_turn_and_draw_back_to_hand_size():
    events = (
        limits()
        + breaks()
        + ins("A", "red-7")
        + [{"type": "insert", "player": "C", "card": "red-8"}]
    )
    res = run(events)
    last = by_event(res, len(events))[0]
    assert last.ruling == "illegal" and last.rule == "overflow.turn"
    st = res.game.state()
    assert st["turn"] == "B"
    assert st["hand_counts"] == {"A": 4, "B": 4, "C": 4}
    assert st["pile"] == 84 - 15 - 1


def test_drawing_more_than_owed_is_illegal():
    events = (
        limits()
        + breaks()
        + [
            {"type": "insert", "player": "A", "card": "red-7"},
            {"type": "draw", "player": "A", "count": 2},
        ]
    )
    res = run(events)
    assert by_event(res, len(events))[0].ruling == "illegal"
    assert res.game.state()["hand_counts"]["A"] == 4


def test_wrong_call_is_flagged_but_the_card_counts():
    events = (
        limits()
        + breaks()
        + [
            {"type": "insert", "player": "A", "card": "red-7", "call": "blue"},
            {"type": "insert", "player": "B", "card": "wild", "call": "pass"},
        ]
    )
    res = run(events)
    rules = [r.rule for r in by_event(res, len(events) - 1)]
    assert "overflow.call" in rules
    assert [r.ruling for r in by_event(res, len(events))] == ["ok"]
    assert res.game.state()["box_counts"] == {"red": 1, "pass": 1}


def judged(box, accuse, face_down=("red-5", "yellow-5", "blue-5"), lim=None):
    """Insert ``box`` (player, card) in turn order, then the next player accuses."""
    events = limits(**(lim or {})) + breaks(face_down)
    for player, card in box:
        events += ins(player, card)
    caller = PLAYERS[len(box) % 3]
    events.append({"type": "overflow", "player": caller, "target": accuse})
    return run(events), caller


def test_accused_over_the_final_limit_scores_minus_three():
    # red limit 1 + A's red face-down card = 2; C's red is the third red.
    box = [("A", "red-1"), ("B", "red-2"), ("C", "red-3")]
    res, caller = judged(box, "C")
    assert caller == "A"
    st = res.game.state()
    assert st["scores"] == {"A": 0, "B": 0, "C": -3}
    assert st["rounds"][0]["limits"]["red"] == 2
    assert st["rounds"][0]["deltas"] == {"A": 0, "B": 0, "C": -3}
    assert st["start_player"] == "C" and st["turn"] == "C"
    assert any(
        r.ruling == "round-end" and r.rule == "overflow.round-end" for r in res.rulings
    )


def test_caller_wrong_when_face_down_cards_lift_the_limit():
    # red 1 + red face-down (A) + Wild face-down (C) = 3: three reds are fine.
    box = [("A", "red-1"), ("B", "red-2"), ("C", "red-3")]
    res, caller = judged(box, "C", face_down=("red-5", "yellow-5", "wild"))
    assert res.game.state()["scores"] == {"A": -3, "B": 0, "C": 0}
    assert res.game.state()["start_player"] == "A"


def test_reverse_limit_is_unlimited_and_a_wild_insert_never_overflows():
    box = [("A", "red-1"), ("B", "red-2"), ("C", "red-3"), ("A", "wild")]
    res, _ = judged(box, "C", lim={"red": "reverse"})
    assert res.game.state()["scores"]["B"] == -3  # B called and was wrong
    res, _ = judged(box, "A", lim={"red": "reverse"})
    assert res.game.state()["scores"]["B"] == -3


def test_cannot_accuse_inserts_before_own_previous_insert():
    events = limits() + breaks()
    for player, card in [
        ("A", "red-1"),
        ("B", "red-2"),
        ("C", "red-3"),
        ("A", "blue-1"),
    ]:
        events += ins(player, card)
    # B's previous insert is #2: A's insert #1 came before it and cannot be accused.
    bad = run(
        events + [{"type": "overflow", "player": "B", "target": "A", "insert": 1}]
    )
    assert (
        bad.rulings[-1].ruling == "illegal" and bad.rulings[-1].rule == "overflow.call"
    )
    assert bad.game.state()["phase"] == "insert" and bad.game.state()["turn"] == "B"
    # Pointing at A means A's latest insert after B's own: #4.
    res = run(events + [{"type": "overflow", "player": "B", "target": "A"}])
    assert res.game.state()["rounds"][0]["insert"] == 4
    res = run(
        events + [{"type": "overflow", "player": "B", "target": "C", "insert": 3}]
    )
    assert res.game.state()["rounds"][0]["insert"] == 3
    # Nobody may accuse their own insert.
    bad = run(events + [{"type": "overflow", "player": "B", "target": "B"}])
    assert bad.rulings[-1].ruling == "illegal"


def test_overflow_out_of_turn_is_void():
    events = (
        limits()
        + breaks()
        + ins("A", "red-1")
        + [{"type": "overflow", "player": "C", "target": "A"}]
    )
    res = run(events)
    assert res.rulings[-1].ruling == "illegal"
    assert res.game.state()["phase"] == "insert"


def test_judgement_waits_for_face_down_cards_revealed_at_the_end():
    events = limits() + [{"type": "limit-break", "player": p} for p in PLAYERS]
    events += ins("A", "red-1") + ins("B", "red-2")
    events.append({"type": "overflow", "player": "C", "target": "B"})
    res = run(events)
    assert res.game.state()["phase"] == "judgement"
    events += [
        {"type": "reveal", "player": "A", "cards": ["red-9"]},
        {"type": "reveal", "player": "B", "card": "green-9"},
        {"type": "reveal", "player": "C", "card": "green-4"},
    ]
    res = run(events)
    # red limit 1 + 1 = 2: B's red was the second red, so C was wrong.
    assert res.game.state()["scores"] == {"A": 0, "B": 0, "C": -3}


def test_four_of_a_colour_bonus():
    events = (
        limits()
        + breaks()
        + [
            {
                "type": "bonus",
                "player": "A",
                "cards": ["red-1", "red-9", "wild", "red-skip"],
            },
            {"type": "draw", "player": "A", "count": 4},
        ]
        + ins("A", "blue-3")
    )
    res = run(events)
    st = res.game.state()
    assert st["scores"]["A"] == 2 and st["hand_counts"]["A"] == 4
    assert st["pile"] == 84 - 15 + 4 - 4 - 1
    bad = run(
        limits()
        + breaks()
        + [
            {
                "type": "bonus",
                "player": "A",
                "cards": ["red-1", "blue-9", "red-2", "red-3"],
            }
        ]
    )
    assert bad.rulings[-1].ruling == "illegal" and bad.game.state()["scores"]["A"] == 0


def play_to():
    """Rounds where the caller is always wrong until someone reaches -8 or below."""
    events = []
    start = 0
    for _ in range(20):
        events += limits(red="3") + breaks()
        a, b = PLAYERS[start], PLAYERS[(start + 1) % 3]
        events += ins(a, "red-1")
        events.append({"type": "overflow", "player": b, "target": a})
        start = (start + 1) % 3  # the wrong caller starts next
        res = run(events)
        if res.game.over:
            return res
    raise AssertionError("game did not end")


def test_game_ends_at_minus_eight_with_winners():
    res = play_to()
    st = res.game.state()
    assert st["over"] and min(st["scores"].values()) <= -8
    best = max(st["scores"].values())
    assert st["winners"] == [p for p in PLAYERS if st["scores"][p] == best]
    assert res.rulings[-1].ruling == "game-end"
    # every caller was wrong: B, C, A, B, C, A, B lost 3 each in turn
    assert st["scores"] == {"A": -6, "B": -9, "C": -6}
    assert st["winner"] == ["A", "C"] and "share the win" in res.rulings[-1].text
    for p in PLAYERS:
        assert st["scores"][p] == sum(r["deltas"][p] for r in st["rounds"])


def test_public_view_never_shows_box_or_limits():
    events = limits() + breaks(("red-5", "wild", "green-5"))
    events += ins("A", "red-1") + ins("B", "yellow-2") + ins("C", "wild")
    res = run(events)
    view = res.game.public_view()
    view.pop("limit_cards")  # face up on the table, so public
    text = json.dumps(view)
    for word in COLORS + ("wild", "pass", "box", 'limit"', "final", 'count"'):
        assert word not in text, word
    assert [i["player"] for i in view["inserts"]] == ["A", "B", "C"]
    assert "box" in res.game.state() and "final_limits" in res.game.state()


def test_bad_events_are_rulings_not_crashes():
    events = limits() + [
        {"type": "insert", "player": "A", "card": "red-1"},  # wrong phase
        {"type": "limit-break", "player": "Z", "card": "red-1"},  # no such player
        {"type": "limit-break", "player": "A", "card": "red-99"},  # no such card
        {"type": "shout", "player": "A"},
    ] + breaks() + [{"type": "insert", "player": "A"}, {"type": "draw", "count": 0}]
    res = run(events)
    rules = [r.rule for r in res.rulings[4:]]
    assert rules[:4] == ["overflow.phase", "log.malformed", "log.malformed",
                         "overflow.unknown-event"]
    assert rules[-2:] == ["log.malformed", "log.malformed"]
    assert res.game.state()["phase"] == "insert"


def test_cli_replay(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    head = {"type": "game", "game": "overflow", "rules": "overflow", "players": PLAYERS}
    log.write_text("\n".join(json.dumps(e) for e in [head] + limits()) + "\n")
    assert cli_main(["replay", str(log), "--state", str(tmp_path / "s.json")]) == 0
    assert len(capsys.readouterr().out.strip().splitlines()) == 4
    assert json.loads((tmp_path / "s.json").read_text())["phase"] == "limit-break"


def test_header_options_override_and_bad_ones_are_reported():
    res = run(limits(), options={"penalty": 5, "colour": "red", "end_at": "x"})
    assert res.game.options.penalty == 5 and res.game.options.end_at == -8
    notes = [r for r in res.rulings if r.rule == "overflow.options"]
    assert len(notes) == 2 and all(r.ruling == "info" for r in notes)
    assert res.rulings[-1].rule == "overflow.limit"  # the game went on
    assert run(limits(), players=["A", "B"]).game is None  # 3-5 players


def test_a_draw_naming_nobody_is_the_player_who_owes():
    res = run(limits() + breaks() + [{"type": "insert", "card": "red-1"},
                                     {"type": "draw", "count": 1}])
    assert [r.ruling for r in res.rulings[-2:]] == ["ok", "ok"]
    assert res.game.state()["hand_counts"] == {"A": 4, "B": 4, "C": 4}


def test_refill_draw_logged_after_the_judgement_still_counts():
    events = limits() + breaks() + [
        {"type": "insert", "player": "A", "card": "red-1"},
        {"type": "overflow", "player": "B", "target": "A"},
        {"type": "draw", "player": "A", "count": 1},
    ]
    res = run(events)
    assert res.rulings[-1].ruling == "ok"
    assert res.game.state()["hand_counts"] == {"A": 5, "B": 5, "C": 5}


def test_cards_of_another_deck_are_refused_and_the_game_goes_on():
    # 004: the four colours and four Wilds, Draw Fours removed; a 東幻符闘祭 card
    # (red-hit2, counter) is no card of overflow.
    res = run(limits() + breaks() + [{"type": "insert", "player": "A",
                                      "card": "red-hit2"}])
    last = res.rulings[-1]
    assert (last.ruling, last.rule) == ("illegal", "overflow.deck")
    assert res.game.state()["box"] == [] and res.game.state()["turn"] == "A"
    res = run(limits() + breaks() + ins("A", "counter") + ins("A", "red-7"))
    assert by_event(res, 8)[0].rule == "overflow.deck"
    assert [b["card"] for b in res.game.state()["box"]] == ["red-7"]
    res = run(limits() + breaks(("counter", "yellow-5", "blue-5")))
    assert by_event(res, 5)[0].rule == "overflow.deck"
    assert res.game.state()["face_down_placed"] == ["B", "C"]
    res = run(limits() + breaks() + [{"type": "insert", "player": "A",
                                      "card": "wild-draw4"}])
    assert res.rulings[-1].rule == "overflow.deck"


def test_each_viewer_sees_the_table_and_only_their_own_face_down_card():
    res = run(limits() + breaks() + ins("A", "red-7"))
    game = res.game
    table = game.observe(None)
    assert table == game.public_view()
    assert "face_down" not in table and "box" not in table
    assert table["inserts"] == [{"n": 1, "player": "A"}]
    mine = game.observe("B")
    assert mine["face_down"] == {"B": "yellow-5"} and "box" not in mine
    assert game.state()["face_down"] == {"A": "red-5", "B": "yellow-5", "C": "blue-5"}
