"""tgus-t deck labels, presets, options and the game registry."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from referee.cards import Card, CardError
from referee.game import find_game, replay
from referee.tgus_t import TGUS_T1, TGUS_T2, TgusTGame, deck, deck_counts


def test_presets_are_found_under_game_uno():
    assert find_game("uno", "tgus-t1") is TgusTGame
    assert find_game("uno", "tgus-t2") is TgusTGame
    assert set(TgusTGame.presets()) == {"tgus-t1", "tgus-t2"}


def test_every_deck_label_parses_back_to_its_card():
    for label in deck_counts():
        assert Card.from_label(label).label == label


def test_deck_has_the_documented_counts():
    counts = deck_counts()
    assert len(deck()) == 122
    assert counts["red-0"] == 1 and counts["red-9"] == 2
    assert counts["blue-hit2"] == 2 and counts["green-reverse-hit2"] == 1
    # 000 §T1: a Gamble played with the Counters is "the fourth Counter".
    assert counts["counter"] == 3 and counts["gamble"] == 1
    assert counts["wild-hit4"] == 4 and counts["wild-hit-x"] == 2
    assert "red-draw2" not in counts and "wild-draw4" not in counts


def test_documented_deck_table_matches_the_code():
    from pathlib import Path

    doc = Path(__file__).resolve().parents[3] / "docs" / "cards-tgus-t.md"
    text = doc.read_text(encoding="utf-8")
    for label, count in deck_counts().items():
        if "-" in label and label.split("-", 1)[0] in (
            "red",
            "yellow",
            "green",
            "blue",
        ):
            continue  # coloured cards are documented per value, once for all colours
        assert f"`{label}` | {count} |" in text, label


@pytest.mark.parametrize(
    "short, label",
    [
        ("RH2", "red-hit2"),
        ("brh2", "blue-reverse-hit2"),
        ("WH4", "wild-hit4"),
        ("WHX", "wild-hit-x"),
        ("CO", "counter"),
        ("CH", "change"),
        ("RP", "replace"),
        ("GB", "gamble"),
        ("R7", "red-7"),
        ("W", "wild"),
    ],
)
def test_short_forms(short, label):
    assert Card.from_label(short).label == label


def test_unknown_label_still_fails():
    with pytest.raises(CardError):
        Card.from_label("red-hit3")


def test_options_carry_help_and_source():
    for f in fields(TGUS_T1):
        assert f.metadata["help"] and f.metadata["source"]


def test_t2_differs_from_t1_where_000_says():
    assert TGUS_T1.rank("counter") == 4 and TGUS_T2.rank("counter") == 5
    assert TGUS_T2.rank("all-hit2") == 4 and TGUS_T1.rank("all-hit2") == 0
    assert TGUS_T1.hand_size in range(5, 11) and TGUS_T2.hand_size == 10
    assert not TGUS_T1.multi_wild and TGUS_T2.multi_wild
    assert not TGUS_T1.stock and TGUS_T2.stock
    assert (TGUS_T2.rebuild_at, TGUS_T2.stock_floor, TGUS_T2.leftover_penalty) == (
        10,
        15,
        3,
    )


def _run(options):
    head = {
        "type": "game",
        "game": "uno",
        "rules": "tgus-t1",
        "players": ["A", "B"],
        "options": options,
    }
    return replay([json.dumps(head), json.dumps({"type": "start", "card": "red-5"})])


def test_header_options_override_and_bad_ones_are_reported():
    result = _run({"uno_penalty": 4, "colour": "red", "stock": "yes"})
    assert result.game.opts.uno_penalty == 4
    assert not result.game.opts.stock
    texts = [r.text for r in result.rulings if r.rule == "tgus-t1.options"]
    assert len(texts) == 2
    assert any("colour" in t for t in texts) and any("stock" in t for t in texts)


def test_state_has_the_spec_keys_and_its_own():
    state = _run({}).state()
    for key in (
        "game",
        "rules",
        "players",
        "turn",
        "direction",
        "top",
        "color",
        "pending_draw",
        "hand_counts",
        "scores",
        "rounds",
        "over",
        "winner",
        "stock",
        "pile",
        "ranking",
    ):
        assert key in state
    assert state["rules"] == "tgus-t1" and state["top"] == "red-5"
    assert state["pile"] == 122 - 2 * 7 - 1


def test_live_referee_session_runs_the_preset():
    from referee.session import Referee

    ref = Referee(
        {"type": "game", "game": "uno", "rules": "tgus-t2", "players": ["A", "B"]}
    )
    ref.append({"type": "start", "card": "blue-3"})
    got = ref.append({"type": "play", "player": "A", "cards": ["blue-hit2"]})
    assert got[0].rule == "tgus-t2.precedence" and got[0].draw == 2
    change = ref.undo()
    assert change.removed and ref.state()["pending_draw"] == 0


def test_precedence_table_can_be_overridden_as_an_object():
    table = {
        "hit2": 1,
        "reverse-hit2": 1,
        "wild-hit4": 1,
        "wild-hit-x": 3,
        "counter": 4,
    }
    result = _run({"precedence": table})
    assert result.game.opts.rank("wild-hit4") == 1
    assert _run({"precedence": {"hit2": "high"}}).game.opts.rank("hit2") == 1


def test_every_deck_card_short_form_parses_back():
    for card in set(deck()):
        assert Card.from_label(card.short) == card
