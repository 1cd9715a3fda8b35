"""Hit+?: the pending draw resolved from the cards turned (000 §T2's table).

Players A, B, C, D sit clockwise, D deals, A begins; line 1 is the start card.
"""

from __future__ import annotations

import pytest
import test_tgus_t_support as support

from referee.cards import Card
from referee.game import apply_safely
from referee.log import read_log
from referee.tgus_t import TgusTGame
from referee.tgus_t.hitx import resolve_all, resolve_card

START = {"type": "start", "card": "red-5"}
HITX = {"type": "play", "player": "A", "cards": ["wild-hit-x"], "color": "red"}


def run(events, players=("A", "B", "C", "D"), rules="tgus-t2"):
    """Replay ``events`` under tgus-t2 with four players (see the support module)."""
    return support.run(rules, events, players)


def turned(*cards, **kw):
    return {"type": "turned", "cards": list(cards), **kw}


@pytest.mark.parametrize(
    "card, total, target",
    [
        ("blue-7", 7, "B"),  # 1-9: that many
        ("blue-1", 1, "B"),
        ("red-0", 10, "B"),  # 0: ten
        ("green-skip", 2, "C"),  # Skip: +2 to the player after the target
        ("red-hit2", 2, "B"),  # a Hit card with nothing pending: 2
        ("change", 2, "B"),  # a picture not in the table: 2
    ],
)
def test_one_turned_card(card, total, target):
    state, by = run([HITX, turned(card, color="green")])
    r = by[3][0]
    assert (r.ruling, r.rule, r.player, r.draw) == (
        "pending",
        "tgus-t2.hit-x",
        target,
        total,
    )
    assert r.extra["turned"] == [card]
    assert state["top"] == card and state["turn"] == target


@pytest.mark.parametrize("card", ["yellow-reverse", "counter"])
def test_reverse_or_counter_sends_it_back(card):
    state, by = run([HITX, turned(card, color="blue")])
    assert (by[3][0].player, by[3][0].draw) == ("A", 2)
    assert state["direction"] == -1


def test_hit_card_doubles_a_pending_draw():
    events = [
        {"type": "play", "player": "A", "cards": ["wild-hit4"], "color": "red"},
        {"type": "play", "player": "B", "cards": ["wild-hit-x"], "color": "red"},
        turned("red-hit2"),
    ]
    state, by = run(events)
    assert (by[4][0].player, by[4][0].draw) == ("C", 8)


def test_reverse_hit2_doubles_and_sends_back_to_the_hit_x_player():
    events = [
        {"type": "play", "player": "A", "cards": ["wild-hit4"], "color": "red"},
        {"type": "play", "player": "B", "cards": ["wild-hit-x"], "color": "red"},
        turned("blue-reverse-hit2"),
    ]
    state, by = run(events)
    assert (by[4][0].player, by[4][0].draw) == ("B", 8)


def test_turned_hit_x_turns_two_more():
    state, by = run([HITX, turned("wild-hit-x"), turned("blue-3", "green-4")])
    assert by[3][0].ruling == "pending" and "2 more" in by[3][0].text
    assert (by[4][0].player, by[4][0].draw) == ("B", 7)
    # tgus-t2: 122 - 4 x 10 dealt - 1 start card = 81, less three turned cards
    assert (state["pile"], state["discards"]) == (78, 5)


def test_turned_gamble_takes_the_row_its_player_picks():
    _, by = run([HITX, turned("gamble", effect="9", color="blue")])
    assert by[3][0].draw == 9
    _, by = run([HITX, turned("gamble", effect="skip", color="blue")])
    assert (by[3][0].player, by[3][0].draw) == ("C", 2)


def test_turned_wild_lets_the_hit_x_player_name_the_colour():
    state, by = run(
        [HITX, turned("wild"), {"type": "color", "player": "A", "color": "yellow"}]
    )
    assert by[3][0].draw == 2 and state["color"] == "yellow"
    assert by[4][0].ruling == "ok"


def test_counter_after_a_turned_skip_goes_to_the_skipped_player():
    # 000 §T2: after a Skip, a Counter gives the draw to the skipped player, not to
    # the Hit+? player.
    events = [
        HITX,
        turned("green-skip"),
        {"type": "play", "player": "C", "cards": ["counter"]},
    ]
    state, by = run(events)
    assert (state["pending_target"], state["pending_draw"]) == ("B", 2)


def test_two_players_a_turned_skip_comes_back_to_its_player():
    state, by = run([HITX, turned("green-skip")], players=("A", "B"))
    assert (by[3][0].player, by[3][0].draw) == ("A", 2)


def test_nothing_happens_before_the_cards_are_turned():
    _, by = run(
        [
            HITX,
            {"type": "play", "player": "B", "cards": ["red-3"]},
            {"type": "draw", "player": "B", "count": 1},
        ]
    )
    assert by[3][0].ruling == "illegal" and by[3][0].rule == "tgus-t2.hit-x"
    assert by[4][0].ruling == "illegal"


def test_turned_without_hit_x_is_ignored():
    _, by = run([turned("red-3")])
    assert by[2][0].ruling == "info"


def test_t1_uses_the_same_table_and_its_own_rank():
    state, by = run([HITX, turned("blue-9")], rules="tgus-t1")
    assert by[3][0].draw == 9 and state["pending_rank"] == 3


def test_resolve_all_in_order():
    cards = [Card.from_label(x) for x in ("wild-hit-x", "red-0", "blue-hit2")]
    steps, more = resolve_all(cards, [], 8)
    assert more == 0 and [s.total for s in steps] == [8, 18, 36]
    steps, more = resolve_all(cards[:1], [], 0)
    assert more == 2


def test_resolve_card_gamble_cannot_be_all_hit2():
    step = resolve_card(Card(None, "gamble"), 4, "all-hit2")
    assert step.total == 6  # falls back to a plain picture: +2


def test_the_example_of_the_events_doc_replays_as_described():
    from pathlib import Path

    doc = Path(__file__).resolve().parents[3] / "docs" / "events-tgus-t.md"
    block = doc.read_text(encoding="utf-8").split("## Example")[1]
    lines = block.split("```json")[1].split("```")[0].strip().splitlines()
    log = read_log(lines)
    game = TgusTGame(log.header)
    rulings = [r for e in log.events for r in apply_safely(game, e)]
    assert not any(r.ruling in ("illegal", "info") for r in rulings)
    took = next(r for r in rulings if r.event == 6)
    assert (took.player, took.draw) == ("C", 6)
    state = game.state()
    assert state["color"] == "yellow" and state["direction"] == -1
    assert state["hand_counts"] == {"A": 10, "B": 8, "C": 16, "D": 9}
