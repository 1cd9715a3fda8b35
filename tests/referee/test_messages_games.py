"""Junocos and the base game's rulings in the viewer's language (issue 26).

Every ruling is a :class:`referee.text.Text`: the English value is the
ruling's text as before, the Japanese uses the seed's terms (公開札, 切り札,
マストフォロー), and the ruling's ``msg`` renders the same after JSON. Lines
the referee cannot read or interpret are said in Japanese too, with their
reason where the reason is a message.
"""

from __future__ import annotations

import json
import re

import pytest

from referee.cards import Card, CardError
from referee.game import GameError, replay, skipped_ruling
from referee.log import Event, LogError
from referee.session import Referee
from referee.text import Text, render_data
from test_junocos import drafted, play, simulate

P3 = ["A", "B", "C"]
LATIN = re.compile(r"[A-Za-z]")


def run(events, players=P3, game="junocos", **header):
    head = {"type": "game", "game": game, "rules": game, "players": players}
    head.update(header)
    return replay([json.dumps(head)] + [json.dumps(e) for e in events])


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


# -- junocos -------------------------------------------------------------------
def test_the_draft_and_the_trump_in_japanese():
    res = run(drafted())
    said = japanese(res.rulings, P3)
    assert said[0] == "13枚が表向きに並び、全員の手札は9枚で、Aから1枚ずつ取ります。"
    assert said[1] == "Aは赤の1を取りました。"
    assert said[-1] == ("Cは青の3を取り、最後に残った青の4で切り札は青と4になり、Aが"
                        "リードします。")
    assert res.rulings[-1].text == ("C took blue-3; the last card, blue-4, makes blue "
                                    "and 4 trump, and A leads.")


def test_revokes_and_tricks_in_japanese():
    events = drafted() + [play("A", "red-5"), play("B", "green-6"), play("C", "red-6")]
    events += [play("C", "green-5"), play("A", "green-0"), play("B", "red-4", "hand")]
    res = run(events)
    said = japanese(res.rulings, P3)
    assert "Cが赤の6で1トリック目に勝ち、次にリードします。" in said
    assert ("Bは手札に赤の4を持っていたのに、1トリック目で赤をマストフォローせず、"
            "フォロー違反で-5点です。") in said
    res = run(drafted() + [play("A", "blue-5"), play("B", "yellow-6")])
    assert japanese(res.rulings, P3)[-1] == (
        "Bは前に並べた公開札で青をマストフォローしなければならず、黄の6を戻して青を出"
        "してください。")


def test_refusals_in_japanese():
    said = japanese(run(drafted() + [play("B", "red-5")]).rulings, P3)
    assert said[-1] == "Aの番で、Bの番ではなく、Bはカードを戻します。"
    said = japanese(run(drafted() + [play("A", "red-3", "hand")]).rulings, P3)
    assert said[-1] == ("赤の3はすべて表向きかプレイ済みなので、手札にはありません、"
                        "戻して別のカードをプレイしてください。")
    said = japanese(run(drafted() + [play("A", "red-hit2")]).rulings, P3)
    assert said[-1] == ("赤のヒット2は40枚のジュノコスのデッキにはなく、戻して別のカ"
                        "ードをプレイしてください。")
    said = japanese(run([{"type": "deal", "cards": ["red-1"] * 12}]).rulings, P3)
    assert said[-1] == ("表向きにする数字カードは12枚ではなく13枚なので、配り直してく"
                        "ださい。")
    said = japanese(run([{"type": "take", "player": "A", "card": "red-1"}]).rulings, P3)
    assert said[-1] == ("カード配布フェイズに公開札を取ることはできず、数えませんでし"
                        "た。")


def test_a_play_naming_nobody_says_whose_turn_it_was():
    res = run(drafted() + [{"type": "play", "card": "red-5"}])
    assert res.rulings[-1].text.render("ja") == (
        "Aは赤の5をプレイしました（プレイヤーの指定がないため、手番のAとします）。")


@pytest.mark.parametrize("seed,n,rate", [(3, 3, 0.1), (2, 4, 0.0)])
def test_a_whole_game_says_every_ruling_in_japanese(seed, n, rate):
    players = [f"P{i}" for i in range(n)]
    res = run(list(simulate(seed, players, rate)) + [{"type": "deal", "cards": []}],
              players=players)
    said = japanese(res.rulings, players)
    assert said[-2].startswith("スタートプレイヤーマーカーが2周し、")
    assert said[-1] == "ゲームは終了しており、このイベントは判定しませんでした。"
    assert [s for s in said if s.startswith(f"第{2 * n}ラウンド終了です: P0 ")]


# -- the phased base: options, a shared win ---------------------------------------
def test_header_options_that_do_not_apply_are_said_in_japanese():
    res = run(drafted()[:1], options={"colour": 1, "laps": "x"})
    notes = [r for r in res.rulings if r.rule == "junocos.options"]
    assert [r.text.render("ja") for r in notes] == [
        ("オプション'colour'はこのゲームにはなく（オプション: bonus, laps, revoke_pen"
         "alty, zero_tricks）、無視しました。"),
        "オプション'laps'は整数で指定し（'x'は使えません）、プリセットの2を使います。",
    ]


def test_a_shared_win_names_both_winners():
    game = run([]).game
    game.scores = {"A": 4, "B": 2, "C": 4}
    ending = game.finish(Event(9, "play", {}), Text("junocos.laps", laps=2))
    assert ending.text == ("The marker has gone round 2 times: A and C share the win "
                           "with 4.")
    assert ending.text.render("ja") == ("スタートプレイヤーマーカーが2周し、AとCが4点"
                                        "で勝ちを分け合います。")


# -- the base game: lines it cannot read or interpret -------------------------
def test_unreadable_lines_and_headers_are_said_in_japanese():
    head = json.dumps({"type": "game", "game": "junocos", "players": P3})
    res = replay([head, "not json", "[1]", '{"x": 1}', head, json.dumps(drafted()[0]),
                  '{"type": "take", "player": "Zed", "card": "red-1"}',
                  '{"type": "take", "player": "A", "card": "red-99"}'])
    said = [r.text.render("ja") for r in res.rulings]
    assert said[:4] == [
        ("1行目は読めないため飛ばしました（JSONとして読めません（JSONDecodeError）: '"
         "not json'）。"),
        ("2行目は読めないため飛ばしました（イベントはJSONのオブジェクトでなければなり"
         "ません（listでした））。"),
        "3行目は読めないため飛ばしました（イベントには文字列の「type」が必要です）。",
        "4行目は2つ目のヘッダーなので、無視しました。",
    ]
    assert said[5] == ("6行目（take）は解釈できないため飛ばしました（'Zed'はこのゲー"
                       "ムのプレイヤーではありません）。")
    assert said[6] == ("7行目（take）は解釈できないため飛ばしました（'red-99'というカ"
                       "ードのラベルはありません）。")
    assert res.rulings[6].text == ("Line 7 (take) was skipped: unknown card label "
                                   "'red-99'.")
    for lines, ja in [
        ([], "判定できません（ログにヘッダー行がありません）。"),
        ([json.dumps({"type": "game", "players": "AB"})],
         "判定できません（ヘッダーの「players」は名前のリストで指定します（'AB'は使えませ"
         "ん））。"),
        ([json.dumps({"type": "game", "game": "overflow", "players": ["A", "B"]})],
         "判定できません（オーバーフローは3〜5人で遊ぶゲームです（2人では遊べません））"
         "。"),
    ]:
        (ruling,) = replay(lines).rulings
        assert ruling.rule == "log.header" and ruling.text.render("ja") == ja
        assert render_data(ruling.to_dict()["msg"], "ja") == ja


def test_an_unknown_game_is_said_in_japanese_with_the_same_english():
    head = {"type": "game", "game": "chess", "players": P3}
    (ruling,) = replay([json.dumps(head)]).rulings
    assert ruling.text.startswith("Nothing can be refereed: unknown game 'chess'; ")
    assert ruling.text.render("ja").startswith(
        "判定できません（'chess'というゲームはありません（遊べるゲーム: ")


def test_an_error_raised_with_a_message_is_said_in_the_viewers_language():
    event = Event(4, "play", {})
    said = skipped_ruling(event, GameError(Text("junocos.players", n=2)))
    assert said.text == ("Line 4 (play) was skipped: junocos is for 3 or 4 players, "
                         "not 2.")
    assert said.text.render("ja").endswith(
        "（ジュノコスは3〜4人で遊ぶゲームです（2人では遊べません））。")
    plain = skipped_ruling(event, GameError("a plain reason"))
    assert plain.text == "Line 4 (play) was skipped: a plain reason."
    assert plain.text.render("ja").endswith("飛ばしました（a plain reason）。")


def test_errors_keep_their_english_text_and_carry_a_message():
    with pytest.raises(CardError) as card_err:
        Card.from_label("purple-3")
    assert str(card_err.value) == "unknown card label 'purple-3'"
    assert card_err.value.args[0].render("ja") == "'purple-3'というカードのラベルはありません"
    ref = Referee({"type": "game", "game": "junocos", "players": P3})
    with pytest.raises(LogError) as log_err:
        ref.undo()
    assert str(log_err.value) == "line 0: there is no event to undo"
    assert log_err.value.args[0].render("ja") == "0行目: 取り消すイベントがありません"
    assert log_err.value.message.render("ja") == "取り消すイベントがありません"
