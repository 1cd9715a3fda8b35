"""Rulings of turns, scoring and the TGUS rules said in Japanese (issue 26).

Each ruling's text is a :class:`referee.text.Text`: its English is the ruling's
``text`` as before, ``render("ja")`` says it in Japanese, and its ``msg`` in
JSON renders to the same Japanese on the other side.
"""

from __future__ import annotations

import json
import re

from referee.game import replay
from referee.text import Text, render_data
from referee.uno.tgus_simulate import simulate_tgus

from test_uno_support import header

#: Rules whose rulings come from turns, play_checks, scoring and the tgus modules
#: (draws, calls, challenges and starts are said by other modules).
OWN_RULES = {"match", "skip", "reverse", "draw2", "wd4", "stacking", "jump-in",
             "round-end", "reveal", "scoring", "game-end", "ranking", "white-wild",
             "draw-then-play", "number-finish", "multi-out", "hand-count",
             "multi-play", "drawn-card", "going-out", "hand-size", "face-down",
             "doubt", "points-end", "direction", "picture-leftover", "shuffle-hands"}


def rulings(events, **kw):
    lines = [json.dumps(header(**kw))] + [json.dumps(e) for e in events]
    return replay(lines).rulings


def ja(ruling) -> str:
    assert isinstance(ruling.text, Text), ruling.text
    return ruling.text.render("ja")


def latin_words(text: str, players) -> list[str]:
    for name in sorted(players, key=len, reverse=True):
        text = text.replace(name, "")
    return re.findall(r"[A-Za-z]{2,}", text)


def test_a_play_names_the_card_and_whose_turn_it_is():
    out = rulings([{"type": "start", "card": "red-5"},
                   {"type": "play", "player": "A", "cards": ["red-3"]}])
    play = out[-1]
    assert play.text == "A plays the red 3; it is B's turn."
    assert ja(play) == "Aは赤の3を出し、Bの番です。"


def test_card_effects_are_said_in_japanese():
    out = rulings([{"type": "start", "card": "red-5"},
                   {"type": "play", "player": "A", "cards": ["red-skip"]},
                   {"type": "play", "player": "C", "cards": ["red-reverse"]},
                   {"type": "play", "player": "B", "cards": ["wild"], "color": "blue"},
                   {"type": "play", "player": "A", "cards": ["blue-draw2"]}])
    skip, reverse, wild, draw2 = out[-4:]
    assert ja(skip) == "Aは赤のスキップを出し、Bはとばされ、Cの番です。"
    assert "反時計回り" in ja(reverse) and "Bの番です" in ja(reverse)
    assert ja(wild) == "Bはワイルドを出して青を指定し、Aの番です。"
    assert draw2.text == "A plays the blue Draw Two: D draws 2 and loses the turn."
    assert ja(draw2) == "Aは青のドロー2を出し、Dは2枚引いて、手番を失います。"


def test_a_refused_play_says_whose_turn_it_is_and_what_goes_back():
    out = rulings([{"type": "start", "card": "red-5"},
                   {"type": "play", "player": "C", "cards": ["red-3"]}])
    refusal = out[-1]
    assert refusal.ruling == "illegal"
    assert ja(refusal) == "CではなくAの番なので、Cは赤の3を戻し、Aから続けます。"
    out = rulings([{"type": "start", "card": "red-5"},
                   {"type": "play", "player": "A", "cards": ["blue-3"]}])
    said = ja(out[-1])
    assert said.startswith("色（赤）にも数字にも合わないので、青の3は出せず、")
    assert said.endswith("Aは青の3を戻し、まだAの番です。")


def test_the_round_end_gives_the_points_and_totals_in_japanese():
    out = rulings([{"type": "start", "card": "red-5"},
                   {"type": "play", "player": "A", "cards": ["red-3"]},
                   {"type": "reveal", "player": "B", "cards": ["blue-skip"]}],
                  players=("A", "B"), dealer="B", hand_size=1)
    won, shown, scored = out[-3:]
    assert ja(won).startswith("Aは赤の3を出し、これがAの最後のカードなので、"
                              "ラウンド1はAの勝ちとなり、")
    assert ja(shown) == "Bは1枚を見せ、20点です。"
    assert scored.text == "A wins round 1 and scores 20; totals: A 20, B -20."
    assert ja(scored) == "ラウンド1はAの勝ちで、20点を得ます（合計: A 20点、B -20点）。"


def test_msg_round_trips_through_json_to_the_same_japanese():
    out = rulings([{"type": "start", "card": "red-5"},
                   {"type": "play", "player": "A", "cards": ["red-skip"]},
                   {"type": "play", "player": "C", "cards": ["wild-draw4"],
                    "color": "green"},
                   {"type": "play", "player": "A", "cards": ["green-1"]}])
    for ruling in out:
        data = json.loads(json.dumps(ruling.to_dict()))
        assert render_data(data["msg"], "ja", data["text"]) == ja(ruling)
        assert render_data(data["msg"], "en", "") == data["text"]


def test_a_tgus_playout_is_said_in_japanese_without_english_words():
    sim = simulate_tgus(3, 4, "tgus-2")
    players = sim.header["players"]
    own = [r for r in sim.rulings if r.rule.split(".", 1)[1] in OWN_RULES]
    assert len({r.rule for r in own}) >= 5
    for ruling in own:
        said = ja(ruling)
        assert said != str(ruling.text)
        assert not latin_words(said, players), (ruling.rule, said)


def test_a_tgus_ranking_says_the_place_in_japanese():
    out = rulings([{"type": "start", "card": "red-5"},
                   {"type": "play", "player": "A", "cards": ["red-3"]}],
                  players=("A", "B", "C"), dealer="C", rules="tgus-1", hand_size=1)
    ranked = [r for r in out if r.rule == "tgus-1.ranking"][0]
    assert "1st place" in ranked.text
    assert "Aは1位で上がり、" in ja(ranked) and "BとC" not in ja(ranked)
    assert "B、Cで続け、" in ja(ranked)


def test_a_malformed_play_is_skipped_with_a_reason_in_japanese():
    out = rulings([{"type": "start", "card": "red-5"},
                   {"type": "play", "player": "A", "cards": []}])
    skipped = out[-1]
    assert skipped.rule == "log.malformed"
    assert "non-empty 'cards' list" in skipped.text
    assert "プレイには出したカードが1枚以上必要です" in ja(skipped)
