"""Uno rulings said in the viewer's language (issue 26): calls, the Wild Draw Four
challenge, draws and passes, the first card, house-rule events, options and the
game's own rulings (the modules calls, challenge, draws, start, house, game,
options, plays and state).

Each ruling's text is a :class:`referee.text.Text`: its English is the text the
log always had, its Japanese is rendered from the ``msg`` the ruling writes in
JSON. Seats A B C D clockwise, dealer D, so A plays first (test_uno_support).
"""

from __future__ import annotations

import json
import re

import pytest
from test_uno_support import draw, ev, play, reveal, run, start

from referee.cards import Card
from referee.text import Text, render_data
from referee.uno.plays import card_name, cards_n, cards_name, off_deck_text
from referee.uno.simulate import simulate

WD4 = [start("red-5"), play("A", "wild-draw4", color="blue")]


def ja(ruling: dict) -> str:
    """A ruling as the page gets it (JSON), said in Japanese from its ``msg``."""
    back = json.loads(json.dumps(ruling))
    assert "msg" in back, f"no message data: {ruling['text']!r}"
    return render_data(back["msg"], "ja", back["text"])


# -- the helpers the play rules share --------------------------------------------------
def test_card_helpers_say_cards_in_both_languages():
    red7, skip, wd4 = (Card.from_label(x) for x in ("red-7", "blue-skip", "wild-draw4"))
    assert card_name(red7) == "red 7" and card_name(red7).render("ja") == "赤の7"
    both = cards_name([red7, skip, wd4])
    assert both == "red 7, blue Skip and Wild Draw Four"
    assert both.render("ja") == "赤の7、青のスキップとワイルドドロー4"
    assert [str(cards_n(n)) for n in (1, 3)] == ["1 card", "3 cards"]
    assert cards_n(3).render("ja") == "3枚"
    off = off_deck_text(Card.from_label("wild-shuffle"), 108)
    assert off == "The Wild Shuffle Hands is not a card of this game's 108-card deck"
    assert off.render("ja") == "シャッフルワイルドはこのゲームの108枚のデッキにないカードです"


# -- calls -----------------------------------------------------------------------------
def test_a_caught_missing_uno_call_is_said_in_japanese():
    res = run([start("red-5"), play("A", "red-7"),
               ev("catch", "C", target="A")], hand_size=2)
    r = res.one(3)
    assert r["ruling"] == "penalty" and r["player"] == "A" and r["draw"] == 2
    assert r["text"] == ("A went down to one card without calling UNO and was caught "
                         "by C before B played: A draws 2.")
    assert ja(r) == ("Aはウノと言わずに残り1枚になり、Bがカードを出す前にCに指摘され"
                     "、Aは2枚引きます。")


def test_an_uno_call_with_two_cards_and_a_catch_too_late():
    res = run([start("red-5"), ev("uno", "A"), play("A", "red-7"),
               play("B", "red-8"), ev("catch", "C", target="A")], hand_size=2)
    assert ja(res.one(2)) == "Aは残り1枚になる前にウノと言いました。"
    late = run([start("red-5"), play("A", "red-7"), play("B", "red-8"),
                ev("catch", "C", target="A")], hand_size=2)
    assert ja(late.at(3)[0]) == ("Aはウノと言わずに残り1枚になりましたが、Bがカードを"
                                 "出したので、もう指摘できません。")


def test_a_wild_colour_named_by_someone_else_is_refused_in_japanese():
    res = run([start("red-5"), play("A", "wild"), ev("color", "B", color="green")])
    r = res.one(3)
    assert r["ruling"] == "illegal"
    assert r["text"] == ("Only A, who played the Wild, names its colour, so B's green "
                         "is refused and the colour is still to be named by them.")
    assert ja(r) == ("色を決めるのはワイルドを出したAだけなので、Bの緑は認められず、"
                     "色はまだその人が決めます。")
    named = run([start("red-5"), play("A", "wild"), ev("color", color="green")])
    assert ja(named.one(3)) == "ワイルドの色は緑です。"


# -- the Wild Draw Four challenge ------------------------------------------------------
def test_a_challenge_ruling_round_trips_through_json_to_the_same_japanese():
    hand = ["red-9", "green-1", "green-2", "yellow-3", "yellow-4", "blue-6"]
    res = run(WD4 + [ev("challenge", "B"), reveal("A", *hand)])
    asked, upheld = res.one(3), res.one(4)
    assert ja(asked) == ("BがAのワイルドドロー4にチャレンジし、AはBに手札を見せ、審判"
                         "が判定します。")
    assert upheld["text"] == ("Challenge upheld: A could have played the red 9, so A "
                              "takes the Wild Draw Four back, draws 4 and must play "
                              "another card.")
    assert ja(upheld) == ("チャレンジ成功で、Aは赤の9を出せたので、ワイルドドロー4を"
                          "戻して4枚引き、別のカードを出さなければなりません。")


def test_a_failed_challenge_in_japanese():
    hand = ["green-1", "green-2", "yellow-3", "yellow-4", "blue-6", "wild-draw4"]
    res = run(WD4 + [ev("challenge", "B"), reveal("A", *hand)])
    assert ja(res.one(4)) == ("チャレンジ失敗で、Aにはほかに出せるカードがなく、Bは6"
                              "枚（ワイルドドロー4の分に2枚を足して）引き、手番を失い"
                              "ます。")


# -- draws, passes, the first card -----------------------------------------------------
def test_draw_pass_and_the_implied_player_note():
    res = run([start("red-5"), draw(None), ev("pass")])
    assert res.one(1)["text"] == ("Round 1 starts with the red 5: A, left of dealer D, "
                                  "plays first.")
    assert ja(res.one(1)) == "ラウンド1は赤の5で始まり、親のDの左のAから始めます。"
    assert res.one(2)["text"] == ("A draws a card (player taken from the turn) and may "
                                  "play that card or pass.")
    assert ja(res.one(2)) == ("Aはカードを1枚引き（プレイヤーは手番から判断）、そのカ"
                              "ードを出すか、パスできます。")
    assert ja(res.one(3)) == "Aは引いた後にパスし、Bの番です。"


def test_extra_cards_drawn_go_back_in_japanese():
    res = run([start("red-5"), draw("A", 3)])
    refused = [r for r in res.at(2) if r["ruling"] == "illegal"]
    assert refused[0]["text"] == ("A has already drawn this turn, so 2 cards go back "
                                  "to the pile.")
    assert ja(refused[0]) == "Aはこの手番ですでに引いているので、2枚を山札に戻します。"


def test_a_first_draw_two_and_a_returned_wild_draw_four():
    res = run([start("wild-draw4"), start("blue-draw2")])
    assert ja(res.one(1)) == ("ワイルドドロー4ではラウンドを始められないので、"
                              "ワイルドドロー4を山札に戻して別のカードをめくります。")
    assert ja(res.one(2)) == ("ラウンド1は青のドロー2で始まり、親のDが出したものとし"
                              "て、Aは2枚引いて手番を失います。")


# -- options, house-rule events, the game's own rulings --------------------------------
def test_options_problems_in_both_languages():
    res = run([start("red-5")], options={"bogus": 1, "uno_penalty": -1})
    problems = res.at(0)
    assert [r["rule"] for r in problems] == ["official.options"] * 2
    assert problems[1]["text"] == ("Option 'uno_penalty' was ignored: it must be at "
                                   "least 0, got -1.")
    assert ja(problems[1]) == ("オプション'uno_penalty'は無視しました（0以上でなけれ"
                               "ばなりません（指定: -1））。")
    assert problems[0]["text"].startswith("Unknown option 'bogus' was ignored (known ")
    assert ja(problems[0]).startswith("不明なオプション'bogus'は無視しました（使えるオプション: ")


def test_house_events_and_unknown_events_in_japanese():
    res = run([start("red-5"), ev("doubt", "B"), ev("bogus")])
    assert ja(res.one(2)) == "このプリセットには伏せて出すカードがないので、ダウトするものはありません。"
    assert res.one(3)["text"] == ("Line 3 has the event type 'bogus', which uno does "
                                  "not use, so it is ignored.")
    assert ja(res.one(3)) == "3行目のイベントの種類'bogus'はUNOでは使わないので、無視します。"


def test_a_game_over_event_names_the_event_in_japanese():
    res = run([start("red-5"), play("A", "red-7"), reveal("B", "blue-1"),
               reveal("C", "blue-2"), reveal("D", "blue-3"), draw("B")],
              hand_size=1, options={"rounds": 1})
    last = res.last()
    assert last["rule"] == "official.game-over"
    assert last["text"] == "The game is over, so this draw event is ignored."
    assert ja(last) == "ゲームは終わっているので、このカードを引く記録は無視します。"


# -- a playout with local rules on -----------------------------------------------------
#: rules whose rulings come only from the modules of this test's scope in a
#: playout of the official preset (play rules, reveals and scoring say theirs
#: elsewhere).
OWN_RULES = {"uno-call", "uno-missed", "wd4-challenge", "first-card", "reshuffle",
             "draw", "pass", "options", "players", "game-over", "unknown-event"}
LATIN = re.compile(r"[A-Za-z][A-Za-z'-]{3,}")


@pytest.mark.parametrize("options", [
    {"referee_catches": True, "catch_window": "next-acts", "jump_in": True,
     "first_action_returned": True, "deck": 112},
    {"stacking": True, "multi_play": "same", "wd4_rule": "no-current-colour",
     "wd4_guilty_takeback": False, "scoring": "international", "target": 200},
])
def test_a_playout_says_every_ruling_of_these_rules_in_japanese(options):
    seen: set[str] = set()
    for seed in range(3):
        sim = simulate(seed, players=3, options=options)
        for r in sim.rulings:
            rule = r.rule.split(".", 1)[1]
            if rule not in OWN_RULES:
                continue
            seen.add(rule)
            assert isinstance(r.text, Text), (r.rule, r.text)
            said = render_data(json.loads(r.to_json())["msg"], "ja")
            assert said == r.text.render("ja")
            assert not LATIN.findall(said), (r.rule, said)
    assert {"uno-call", "first-card", "draw", "pass", "wd4-challenge"} <= seen
