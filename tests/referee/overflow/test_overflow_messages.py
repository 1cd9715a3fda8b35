"""Overflow's rulings in the viewer's language (issue 26): every ruling is a
message, its Japanese uses the seed's terms and survives the JSON trip."""

from __future__ import annotations

import json
import re

from referee.game import replay
from referee.text import Text, render_data
from test_overflow_playout import simulate

PLAYERS = ["A", "B", "C"]
LATIN = re.compile(r"[A-Za-z]")


def run(events, players=PLAYERS, **header):
    head = {"type": "game", "game": "overflow", "rules": "overflow", "players": players}
    head.update(header)
    return replay([json.dumps(head)] + [json.dumps(e) for e in events])


def limits():
    return [{"type": "limit", "card": c} for c in
            ("red-1", "yellow-2", "green-3", "blue-0")]


def breaks():
    return [{"type": "limit-break", "player": p, "card": c}
            for p, c in zip(PLAYERS, ("red-5", "yellow-5", "blue-5"))]


def ins(player, card, **more):
    return [{"type": "insert", "player": player, "card": card, **more},
            {"type": "draw", "player": player, "count": 1}]


def japanese(rulings, players):
    """Each ruling's Japanese, checked: a message, the same after JSON, and no
    Latin letter left once the players' names are taken out."""
    out = []
    for r in rulings:
        assert isinstance(r.text, Text), r
        ja = r.text.render("ja")
        msg = json.loads(r.to_json())["msg"]
        assert render_data(msg, "ja") == ja
        assert render_data(msg, "en") == r.text
        rest = ja
        for p in sorted(players, key=len, reverse=True):
            rest = rest.replace(p, "")
        assert not LATIN.search(rest), (r.rule, ja)
        out.append(ja)
    return out


def test_an_overflow_call_and_its_judgement_in_japanese():
    events = limits() + breaks() + ins("A", "red-1") + ins("B", "red-2")
    events.append({"type": "overflow", "player": "C", "target": "B"})
    res = run(events)
    call, judged = res.rulings[-2:]
    assert call.text == ("C calls Overflow on B's insert 2: everyone turns up the "
                         "face-down card.")
    assert call.text.render("ja") == ("CがBの投入（箱の2枚目）に「オーバーフロー」を"
                                      "コールしたので、全員、裏向きのカードを一斉に公"
                                      "開してください。")
    # red: limit 1 + A's face-down red 5 = 2, and B's was the second red
    assert judged.text.render("ja") == (
        "Bの投入（箱の2枚目）は赤の2枚目で、限界値は2で、Cがマイナス3点となり、次のラ"
        "ウンドのスタートプレイヤーになります。")
    back = json.loads(json.dumps(judged.to_dict(), ensure_ascii=False))
    assert render_data(back["msg"], "ja") == judged.text.render("ja")
    assert back["text"] == str(judged.text)


def test_refusals_name_cards_colours_and_phases_in_japanese():
    events = [{"type": "limit", "card": "blue-7"},
              {"type": "insert", "player": "A", "card": "red-1"},
              {"type": "limit", "card": "red-1"}, {"type": "limit", "card": "red-2"}]
    events += limits()[1:] + breaks() + ins("A", "wild-draw4")
    events += ins("A", "wild", call="red")
    events += [{"type": "overflow", "player": "A", "target": "B"},
               {"type": "bonus", "player": "A", "cards": ["red-1"]}]
    res = run(events)
    said = japanese(res.rulings, PLAYERS)
    assert said[0].startswith("青の7は限界デッキのカード（各色のリバースか0〜3）ではなく、")
    assert said[1] == "限界フェイズに投入はできず、数えませんでした。"
    assert said[3] == "赤の限界カードはもう赤の1なので、2枚目は無視しました。"
    assert [s for s in said if s.startswith("ワイルドドロー4はこのゲームのデッキ（")]
    assert "Aのコールが投入したカードと合っておらず、" in "".join(said)
    assert said[-2] == ("今「オーバーフロー」をコールできるのは手番のBだけで、Aのコー"
                        "ルは数えません。")
    assert said[-1].startswith("Aにボーナスはなく、今はBの番なので、")


def test_a_player_taken_from_the_turn_is_said_in_japanese():
    res = run(limits() + [{"type": "limit-break", "card": "red-5"}])
    assert res.rulings[-1].text.render("ja") == (
        "Aはカードを1枚裏向きに置きました（プレイヤーの指定がないため、手番のAとします）。")


def test_a_whole_game_says_every_ruling_in_japanese():
    players = ["P0", "P1", "P2", "P3"]
    head = json.dumps({"type": "game", "game": "overflow", "rules": "overflow",
                       "players": players})
    lines = [head]
    game = simulate(2, players)
    chunk = next(game)
    for _ in range(60):
        lines += [json.dumps(e) for e in chunk]
        res = replay(lines)
        if res.game.over:
            break
        chunk = game.send(res.game.state()["turn"])
    assert res.game.over
    said = japanese(res.rulings, players)
    assert any("ゲーム終了となり、" in s for s in said)
    assert {r.rule for r in res.rulings} >= {"overflow.limit", "overflow.insert",
                                             "overflow.call", "overflow.round-end",
                                             "overflow.game-end"}
