"""Scenario tests for junocos (seed 002) and a seeded random playout."""

from __future__ import annotations

import json
import random

import pytest

from referee.cards import Card
from referee.game import replay
from referee.junocos import deck, strength

P3 = ["A", "B", "C"]
ROW3 = [
    "red-1",
    "red-2",
    "red-3",
    "yellow-1",
    "yellow-2",
    "yellow-3",
    "green-1",
    "green-2",
    "green-3",
    "blue-1",
    "blue-2",
    "blue-3",
    "blue-4",
]


def run(events, players=P3, **header):
    head = {"type": "game", "game": "junocos", "rules": "junocos", "players": players}
    head.update(header)
    return replay([json.dumps(head)] + [json.dumps(e) for e in events])


def drafted(takes=None):
    """A deal and a draft in which A takes red, B yellow, C green; blue-4 is trump."""
    order = takes or [
        ("A", "red-1"),
        ("B", "yellow-1"),
        ("C", "green-1"),
        ("A", "red-2"),
        ("B", "yellow-2"),
        ("C", "green-2"),
        ("A", "red-3"),
        ("B", "yellow-3"),
        ("C", "green-3"),
        ("A", "blue-1"),
        ("B", "blue-2"),
        ("C", "blue-3"),
    ]
    return [{"type": "deal", "cards": ROW3}] + [
        {"type": "take", "player": p, "card": c} for p, c in order
    ]


def play(player, card, src=None):
    e = {"type": "play", "player": player, "card": card}
    if src:
        e["from"] = src
    return e


def test_decks_by_player_count():
    assert sum(deck(3).values()) == 40 and sum(deck(4).values()) == 56
    assert deck(3)[Card("red", "7")] == 2 and deck(4)[Card("red", "7")] == 0
    assert deck(4)[Card("blue", "0")] == 1 and deck(4)[Card("blue", "6")] == 2


def test_deal_rejects_skips_and_wrong_counts():
    res = run([{"type": "deal", "cards": ROW3[:12] + ["blue-skip"]}])
    assert res.rulings[-1].ruling == "illegal" and "Skip" in res.rulings[-1].text
    res = run([{"type": "deal", "cards": ROW3[:12]}])
    assert res.rulings[-1].ruling == "illegal"
    res = run([{"type": "deal", "cards": ROW3[:12] + ["red-1"]}])
    assert res.rulings[-1].ruling == "illegal"  # red-1 twice: the 3p deck has one
    res = run([{"type": "deal", "cards": ROW3}])
    assert res.rulings[-1].ruling == "ok" and res.game.state()["hand_counts"]["C"] == 9


def test_draft_in_turn_and_the_last_card_is_trump():
    res = run(
        [
            {"type": "deal", "cards": ROW3},
            {"type": "take", "player": "B", "card": "red-1"},
        ]
    )
    assert (
        res.rulings[-1].ruling == "illegal" and res.rulings[-1].rule == "junocos.draft"
    )
    res = run(drafted())
    st = res.game.state()
    assert st["trump"] == "blue-4" and st["phase"] == "play" and st["turn"] == "A"
    assert st["public"]["A"] == ["red-1", "red-2", "red-3", "blue-1"]
    assert res.rulings[-1].rule == "junocos.trump"


def test_dealer_is_the_first_start_player():
    res = run(
        [
            {"type": "deal", "cards": ROW3},
            {"type": "take", "player": "B", "card": "red-1"},
        ],
        dealer="B",
    )
    assert res.rulings[-1].ruling == "ok"


def test_strength_order():
    trump = Card("blue", "4")
    led = "red"
    order = [
        "blue-4",
        "green-4",
        "blue-7",
        "blue-0",
        "blue-skip",
        "red-6",
        "red-0",
        "red-skip",
    ]
    keys = [strength(Card.from_label(c), led, trump) for c in order]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)
    assert strength(Card("green", "9"), led, trump) < strength(
        Card("red", "skip"), led, trump
    )


def test_trick_winner_ties_go_to_the_later_card_and_winner_leads():
    events = drafted() + [
        play("A", "red-1"),
        play("B", "yellow-4"),
        play("C", "green-4"),
    ]
    res = run(events)
    # B and C did not follow red; both play trump-number 4s: C (later) wins
    assert res.rulings[-1].rule == "junocos.trick" and res.rulings[-1].player == "C"
    assert res.game.state()["turn"] == "C" and res.game.state()["tricks_won"]["C"] == 1


def test_out_of_turn_play_is_illegal_and_not_counted():
    res = run(drafted() + [play("B", "red-5")])
    assert res.rulings[-1].rule == "junocos.turn"
    assert res.game.state()["hand_counts"]["B"] == 9


def test_last_public_card_can_never_be_played():
    events = drafted()
    # A plays three public cards in three tricks it wins (red led, others discard)
    for card, b, c in [
        ("red-3", "yellow-5", "green-5"),
        ("red-2", "yellow-6", "green-6"),
        ("red-1", "yellow-0", "green-0"),
    ]:
        events += [play("A", card), play("B", b), play("C", c)]
    res = run(events)
    assert (
        res.game.state()["public"]["A"] == ["blue-1"]
        and res.game.state()["turn"] == "A"
    )
    res = run(events + [play("A", "blue-1", "public")])
    assert res.rulings[-1].ruling == "illegal" and "never" in res.rulings[-1].text


def test_public_cards_must_follow_at_once():
    events = drafted() + [play("A", "blue-5")]
    # B holds blue-2 among playable public cards: playing yellow is caught at once
    res = run(events + [play("B", "yellow-6")])
    assert (
        res.rulings[-1].ruling == "illegal" and res.rulings[-1].rule == "junocos.revoke"
    )
    assert res.game.state()["turn"] == "B" and res.game.state()["hand_counts"]["B"] == 9
    res = run(events + [play("B", "blue-2")])
    assert res.rulings[-1].ruling == "ok"


def test_hand_revoke_is_caught_later_and_cites_the_trick():
    events = drafted() + [play("A", "red-5"), play("B", "green-6"), play("C", "red-6")]
    # C won trick 1 and leads green; B later plays red from hand: revoke in trick 1
    events += [play("C", "green-5"), play("A", "green-0"), play("B", "red-4", "hand")]
    res = run(events)
    pen = [r for r in res.rulings if r.rule == "junocos.revoke"]
    assert len(pen) == 1 and pen[0].ruling == "penalty" and pen[0].player == "B"
    assert pen[0].extra["trick"] == 1 and "trick 1" in pen[0].text
    assert res.game.state()["revokes"][0]["trick"] == 1


def test_impossible_hand_card_is_rejected():
    # all three red-1..3 copies are face up in the 3p deck
    res = run(drafted() + [play("A", "red-3", "hand")])
    assert res.rulings[-1].ruling == "illegal"


# -- random playout ------------------------------------------------------------
def simulate(seed: int, players: list[str], revoke_rate: float = 0.0):
    """A whole game with real cards; yields the events. Revokes only from hand."""
    rng = random.Random(seed)
    n = len(players)
    full = [c for c, k in deck(n).items() for _ in range(k)]
    for rnd in range(2 * n):
        cards = sorted(full)
        rng.shuffle(cards)
        row, skips = [], []
        while len(row) < (13 if n == 3 else 17):
            c = cards.pop()
            (row if c.is_number else skips).append(c)
        cards += skips
        rng.shuffle(cards)
        hands = {p: [cards.pop() for _ in range(9)] for p in players}
        yield {
            "type": "deal",
            "cards": [c.label for c in row],
            "aside": [c.label for c in cards],
        }
        start = rnd % n
        public = {p: [] for p in players}
        i = start
        while len(row) > 1:
            p = players[i % n]
            c = row.pop(rng.randrange(len(row)))
            public[p].append(c)
            yield {"type": "take", "player": p, "card": c.label}
            i += 1
        trump = row[0]
        lead = start
        for _ in range(12):
            led = None
            plays = []
            for k in range(n):
                p = players[(lead + k) % n]
                pub = public[p] if len(public[p]) > 1 else []
                options = [("hand", c) for c in hands[p]] + [("public", c) for c in pub]
                follow = [o for o in options if o[1].color == led]
                if (
                    led
                    and follow
                    and not (
                        rng.random() < revoke_rate
                        and [o for o in options if o[0] == "hand" and o[1].color != led]
                        and not [c for c in pub if c.color == led]
                    )
                ):
                    options = follow
                elif led and follow:
                    options = [
                        o for o in options if o[0] == "hand" and o[1].color != led
                    ]
                src, c = rng.choice(options)
                (hands[p] if src == "hand" else public[p]).remove(c)
                led = led or c.color
                plays.append(c)
                yield {"type": "play", "player": p, "card": c.label, "from": src}
            best = max(range(n), key=lambda j: (strength(plays[j], led, trump), j))
            lead = (lead + best) % n


@pytest.mark.parametrize(
    "seed,n,rate", [(1, 3, 0.0), (2, 4, 0.0), (3, 3, 0.1), (4, 4, 0.1)]
)
def test_random_playout(seed, n, rate):
    players = [f"P{i}" for i in range(n)]
    head = json.dumps(
        {"type": "game", "game": "junocos", "rules": "junocos", "players": players}
    )
    lines = [head] + [json.dumps(e) for e in simulate(seed, players, rate)]
    res = replay(lines)
    st = res.game.state()
    illegal = [r for r in res.rulings if r.ruling == "illegal"]
    assert not illegal, illegal
    assert st["over"] and len(st["rounds"]) == 2 * n
    assert [r["start"] for r in st["rounds"]] == [players[i % n] for i in range(2 * n)]
    total = 0
    for rnd in st["rounds"]:
        assert sum(rnd["tricks"].values()) == 12
        for p in players:
            won = rnd["tricks"][p]
            last = Card.from_label(rnd["last_public"][p]).number
            pen = 5 * sum(1 for r in rnd["revokes"] if r["player"] == p)
            want = (won or 10) + (5 if won == last else 0) - pen
            assert rnd["deltas"][p] == want
        total += len(rnd["revokes"])
    for p in players:
        assert st["scores"][p] == sum(r["deltas"][p] for r in st["rounds"])
    assert (total > 0) == (rate > 0)
    assert res.rulings[-1].ruling == "game-end"
    best = max(st["scores"].values())
    assert st["winners"] == [p for p in players if st["scores"][p] == best]


def test_cards_are_conserved_during_play():
    players = ["P0", "P1", "P2", "P3"]
    head = json.dumps(
        {"type": "game", "game": "junocos", "rules": "junocos", "players": players}
    )
    events = list(simulate(7, players))[:60]
    lines = [head]
    for e in events:
        lines.append(json.dumps(e))
        st = replay(lines).game.state()
        if st["phase"] != "play":
            continue
        on_table = (st["trick_no"] - 1) * 4 + len(st["trick"])
        held = sum(st["hand_counts"].values()) + sum(
            len(v) for v in st["public"].values()
        )
        assert held + on_table + 1 + len(st["aside"]) == 56


def test_options_change_the_length_of_the_game():
    players = ["P0", "P1", "P2"]
    head = {"type": "game", "game": "junocos", "rules": "junocos", "players": players,
            "options": {"laps": 1}}
    res = replay([json.dumps(head)] + [json.dumps(e) for e in simulate(9, players)])
    assert len(res.game.state()["rounds"]) == 3 and res.game.over
    assert [r.rule for r in res.rulings].count("junocos.game-over") > 0
    assert run([], players=["A", "B"]).game is None  # 3 or 4 players


def test_a_card_outside_the_junocos_deck_is_named_as_such():
    # 002: the 3-player deck is Skip, 0-6 and two 7s a colour; no Draw Two, no 9.
    for card in ("red-draw2", "red-9", "red-hit2"):
        res = run(drafted() + [play("A", card)])
        last = res.rulings[-1]
        assert (last.ruling, last.rule) == ("illegal", "junocos.deck")
        assert "not in the 40-card junocos deck" in last.text
        assert "already face up" not in last.text
    res = run(drafted() + [play("A", "red-draw2"), play("A", "red-4")])
    assert res.rulings[-1].ruling == "ok"
