"""Narabe-runo's rulings in the viewer's language (issue 26): every ruling is
a message, its Japanese uses the seed's terms and survives the JSON trip."""

from __future__ import annotations

import json
import re

from referee.game import replay
from referee.session import Referee
from referee.text import Text, render_data
from test_narabe_playout import simulate

P3 = ["A", "B", "C"]
SPOTS = [[3, 0], [-3, 0], [0, 3], [0, -3]]
LATIN = re.compile(r"[A-Za-z]")


def run(events, players=P3):
    head = {"type": "game", "game": "narabe-runo", "rules": "narabe-runo",
            "players": players}
    return replay([json.dumps(head)] + [json.dumps(e) for e in events])


def setup(card="red-5"):
    return [{"type": "start", "card": card}, {"type": "score-cards", "at": SPOTS}]


def play(player, card, at, **kw):
    return {"type": "play", "player": player, "card": card, "at": at, **kw}


def japanese(rulings, players):
    """Each ruling's Japanese, checked: a message, the same after JSON, and no
    Latin letter left once the players' names are taken out."""
    out = []
    for r in rulings:
        assert isinstance(r.text, Text), r
        ja = r.text.render("ja")
        msg = json.loads(r.to_json())["msg"]
        assert render_data(msg, "ja") == ja
        rest = ja
        for p in sorted(players, key=len, reverse=True):
            rest = rest.replace(p, "")
        assert not LATIN.search(rest), (r.rule, ja)
        out.append(ja)
    return out


def test_placements_refused_in_japanese_with_the_reason():
    res = run(setup() + [play("A", "blue-6", [1, 0]), play("A", "red-6", [2, 0]),
                         play("A", "red-6", [0, 0]), play("B", "red-6", [1, 0])])
    said = japanese(res.rulings, P3)
    assert said[0] == "スタートカードは赤の5で、Aから始めます。"
    assert said[1] == "得点カード4枚がスタートカードの周りに裏向きで置かれました。"
    assert said[2] == ("Aの青の6はそこに置けず、青の6は隣のカードと色も数字・記号も合"
                       "っていないので、戻してください。")
    assert said[3] == ("Aの赤の6はそこに置けず、スタートカードか、分岐の最後のカード"
                       "の隣に置かなければならないので、戻してください。")
    assert said[4] == ("Aの赤の6はそこに置けず、そこにはもうカードがあるので、戻して"
                       "ください。")
    assert said[5] == "Aの番で、Bの番ではなく、Bはカードを戻します。"


def test_a_reverse_a_skip_and_a_draw_in_japanese():
    events = setup() + [play("A", "red-reverse", [1, 0]),
                        {"type": "draw", "player": "A", "count": 3},
                        {"type": "draw", "player": "A"}]
    res = run(events)
    said = japanese(res.rulings, P3)
    assert said[-4:] == [
        "Aは赤のリバースを出し、1枚引きます。",
        "Bは別の分岐に繋げるか、スタートカードから新しい分岐を作ります。",
        ("Aが引けるのは1枚だけで（Aの直前のプレイか捨て札の分は1枚です）、2枚戻してく"
         "ださい。"),
        ("Aが引けるのは0枚だけで（Aの直前のプレイか捨て札の分はありません）、1枚戻し"
         "てください。"),
    ]
    res = run(setup() + [play("A", "red-skip", [1, 0])])
    assert japanese(res.rulings, P3)[-1] == "スキップでBの手番は飛ばされます。"


def test_a_card_of_another_deck_and_a_bad_position():
    res = run(setup() + [play("A", "wild-shuffle", [1, 0]),
                         play("A", "red-6", [1, "x"])])
    said = japanese(res.rulings[:-1], P3)
    assert said[-1] == ("シャッフルワイルドはこのゲームのデッキ（108枚のウノ）にはな"
                        "く、数えずに戻してください。")
    bad = res.rulings[-1]
    assert bad.rule == "log.malformed"
    assert bad.text.render("ja") == ("4行目（play）は解釈できないため飛ばしました（「"
                                     "at」はカード単位の[x, y]で指定します（[1, 'x']"
                                     "は使えません））。")


def test_a_whole_game_says_every_ruling_in_japanese():
    players = ["P0", "P1", "P2"]
    ref = Referee({"type": "game", "game": "narabe-runo", "rules": "narabe-runo",
                   "players": players})
    for event in simulate(2, players):
        ref.append(event)
    assert ref.game.over
    said = japanese(ref.rulings, players)
    assert said[-1].startswith("獲得した得点カードをすべて計算し、")
    assert {r.rule for r in ref.rulings} >= {"narabe-runo.start", "narabe-runo.play",
                                             "narabe-runo.capture",
                                             "narabe-runo.end-of-play",
                                             "narabe-runo.game-end"}
