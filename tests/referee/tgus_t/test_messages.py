"""tgus-t rulings said in the viewer's language: every ruling is a Text, its
English is what the rulings always said, its Japanese uses 000's own names.

Players A, B, C sit clockwise, C deals, A begins; line 1 is the start card
(red-5), so the n-th event after it is line n + 1 (see the support module).
"""

from __future__ import annotations

import json
import re

import pytest
import test_tgus_t_support as support
from test_tgus_t_support import play

from referee.game import games
from referee.tgus_t.cards import card_name
from referee.tgus_t.sim import playout
from referee.text import LANGS, Text, card, catalog, fields, plain, render_data

LATIN = re.compile(r"[A-Za-z]{2,}")
QUOTED = re.compile(r"「[^」]*」")  # speech quoted as said (a called name)


def latin_words(ja: str, players=()) -> list[str]:
    """Runs of Latin letters left in a Japanese sentence, players' names and
    quoted speech aside."""
    ja = QUOTED.sub("", ja)
    for name in sorted(players, key=len, reverse=True):
        ja = ja.replace(name, "")
    return LATIN.findall(ja)


# -- card names ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "label, ja",
    [
        ("red-hit2", "赤のヒット2"),
        ("blue-reverse-hit2", "青のリバースヒット2"),
        ("green-7", "緑の7"),
        ("yellow-skip", "黄のスキップ"),
        ("red-reverse", "赤のリバース"),
        ("wild", "ワイルド"),
        ("wild-hit4", "ワイルド・ヒット4"),
        ("wild-hit-x", "ヒット?"),
        ("counter", "カウンター"),
        ("change", "チェンジ"),
        ("replace", "リプレイス"),
        ("gamble", "ギャンブル"),
        ("red-draw2", "赤のドロー2"),  # another deck's card: its standard name
    ],
)
def test_the_deck_namer_says_labels_in_english_and_000s_names_in_japanese(label, ja):
    assert card_name(label, "en") == label  # what the rulings always printed
    assert card_name(label, "ja") == ja
    said = card(label, deck="tgus-t")
    assert (str(said), said.render("ja")) == (label, ja)


def test_a_played_card_is_said_by_the_deck_namer():
    _, by = support.run("tgus-t1", [play("A", "blue-reverse-hit2")])
    r = by[2][0]
    assert "blue-reverse-hit2" in r.text
    assert card_name("blue-reverse-hit2", "ja") in r.text.render("ja")


# -- sentences -------------------------------------------------------------------------
def test_hit2_answered_by_counter_in_japanese():
    _, by = support.run("tgus-t1", [play("A", "red-hit2"), play("B", "counter")])
    hit, bounced = by[2][0], by[3][0]
    assert hit.text == (
        "A plays red-hit2: B must draw 2 or answer with Hit+2, Reverse Hit+2, "
        "Wild Hit+4, Hit+? or Counter."
    )
    assert hit.text.render("ja") == (
        "Aは赤のヒット2を出し、Bは2枚引くか、ヒット2、リバースヒット2、ワイルド・ヒッ"
        "ト4、ヒット?またはカウンターで返します。"
    )
    assert bounced.text == (
        "B counters: the draw of 2 turns round to A, who may only answer with "
        "Counter, and play goes the other way (the project's reading of 000)."
    )
    assert bounced.text.render("ja") == (
        "Bはカウンターし、2枚のドローはAに回り、Aが返せるのはカウンターだけで、順番は"
        "逆回りになります（000の本プロジェクトでの解釈）。"
    )


def test_a_refused_play_says_why_and_take_it_back_in_japanese():
    _, by = support.run("tgus-t1", [play("B", "red-7")])
    r = by[2][0]
    assert r.text == "B played red-7 but it is A's turn, not B's: take it back."
    assert r.text.render("ja") == (
        "Bは赤の7を出しましたが、今はAの番で、Bの番ではないので、カードを戻します。"
    )


def test_the_player_taken_from_the_turn_is_noted_in_both_languages():
    _, by = support.run("tgus-t1", [{"type": "draw"}])
    r = by[2][0]
    assert r.text.endswith("(player taken from the turn).")
    assert r.text.render("ja").endswith("（プレイヤーは手番から判断）。")


def test_turned_cards_of_a_hit_x_are_said_one_after_the_other():
    hitx = play("A", "wild-hit-x", color="red")
    turned = {"type": "turned", "cards": ["wild-hit-x", "blue-3", "gamble"],
              "effects": ["7"]}
    _, by = support.run("tgus-t1", [hitx, turned])
    r = by[3][0]
    assert r.text.startswith(
        "Hit+? turned wild-hit-x turns two more cards; blue-3 adds 3; "
        "gamble as 7 adds 7 (by T2's table"
    )
    assert r.text.render("ja").startswith(
        "ヒット?でめくったカード: ヒット?でさらに2枚めくる、青の3で3枚追加、"
        "ギャンブル（7として）で7枚追加（T1には表がないため"
    )
    again = render_data(json.loads(json.dumps(r.text.data())), "ja")
    assert again == r.text.render("ja")


def test_gamble_hand_of_two_and_several_counters():
    # B holds 7, plays the Gamble and makes the 6 left 2: 4 go under the pile
    _, by = support.run("tgus-t1", [play("A", "red-3"), play("B", "gamble",
                                                          effect="hand2")])
    r = by[3][0]
    assert "(B puts 4 cards under the pile and keeps 2;" in r.text
    assert r.text.render("ja").startswith(
        "Bはギャンブルを出し、Bの手札は2枚になり（4枚を山札の下に入れて"
        "2枚残し、000の「手札を二枚にする」の本プロジェクトでの解釈）、"
    )
    _, by = support.run(
        "tgus-t1", [play("A", "red-hit2"), play("B", "counter", "counter")]
    )
    r = by[3][0]
    assert r.text.startswith("B counters (several Counters count as one): ")
    assert r.text.render("ja").startswith(
        "Bはカウンターし（複数枚のカウンターは1回分です）、"
    )


def test_the_last_player_confesses_in_tgus_t2():
    # A plays its only card and goes out: B is last
    _, by = support.run("tgus-t2", [play("A", "red-3")], players=("A", "B"),
                        hand_size=1)
    end = [r for rs in by.values() for r in rs if r.rule == "tgus-t2.game-end"]
    assert len(end) == 1
    assert end[0].text == (
        "A goes out in place 1 and B is last, and B names their favourite "
        "character: 1. A, 2. B."
    )
    assert end[0].text.render("ja") == (
        "Aが1位で上がり、Bが最下位で、Bは嫁キャラクターを暴露し、順位は1位 A、2位 Bで"
        "す。"
    )


def test_a_called_name_is_quoted_as_said_and_a_plain_uno_is_said_in_japanese():
    calls = [{"type": "call", "player": "A", "name": "uno"},
             {"type": "call", "player": "B", "name": "霊夢"}]
    _, by = support.run("tgus-t1", calls, hand_size=2)
    plain_uno, named = by[2][0], by[3][0]
    assert plain_uno.text == "A called 'UNO' in time."
    assert plain_uno.text.render("ja") == "Aは「ウノ」と宣言し、間に合っています。"
    assert named.text == "B called '霊夢' in time."
    assert named.text.render("ja") == "Bは「霊夢」と宣言し、間に合っています。"


# -- JSON ------------------------------------------------------------------------------
def test_msg_round_trips_through_json_to_the_same_japanese():
    out = playout("tgus-t2", 3, players=3)
    assert out.rulings
    for r in out.rulings:
        d = json.loads(r.to_json())
        assert d["text"] == str(r.text)
        assert render_data(d["msg"], "ja") == r.text.render("ja"), d["text"]
        assert render_data(d["msg"], "en") == d["text"]


# -- whole games -----------------------------------------------------------------------
@pytest.mark.parametrize("rules", ["tgus-t1", "tgus-t2"])
def test_a_playout_gives_only_texts_whose_japanese_has_no_english(rules):
    rules_seen = set()
    for seed in range(4):
        out = playout(rules, seed, players=3 + seed % 3)
        players = out.game.players
        for r in out.rulings:
            assert isinstance(r.text, Text), (r.rule, r.text)
            ja = r.text.render("ja")
            assert ja != str(r.text), r.text
            assert not latin_words(ja, players), (r.rule, ja)
            rules_seen.add(r.rule.split(".", 1)[1])
    assert {"play", "precedence", "hit-x", "counter"} <= rules_seen


def test_the_state_says_what_the_referee_waits_for_in_both_languages():
    state, _ = support.run("tgus-t1", [play("A", "red-hit2")])
    assert state["awaiting"] == "B to draw 2 or answer"
    assert state["awaiting"].render("ja") == "Bが2枚引くか返すこと"


# -- every message, even those no game reaches -----------------------------------------
def test_every_tgus_t_message_is_japanese_without_english_words():
    games()
    messages = {k: v for k, v in catalog().items() if k.startswith("tgus-t.")}
    assert len(messages) > 60
    for key, texts in messages.items():
        assert set(LANGS) <= set(texts), key
        args = {name: plain("P1") for name in fields(texts["en"])}
        ja = Text(key, **args).render("ja")
        assert not latin_words(ja, ["P1"]), (key, ja)


def test_a_change_without_a_target_says_so_without_english():
    _, by = support.run("tgus-t1", [play("A", "change")])
    r = by[2][0]
    assert r.text == (
        "A played change but a Change needs a target among the other players "
        "still in, got None: take it back."
    )
    assert r.text.render("ja") == (
        "Aはチェンジを出しましたが、チェンジの対象は残っているほかのプレイヤーでなけ"
        "ればならず、指名はなしだったので、カードを戻します。"
    )


def test_a_malformed_event_says_why_in_japanese_too():
    _, by = support.run("tgus-t1", [play("A", "red-7", color="purple")])
    r = by[2][0]
    assert r.rule == "log.malformed"
    assert r.text.endswith(
        "color must be one of red, yellow, green, blue, got 'purple'."
    )
    assert "（色は赤、黄、緑、青のどれかでなければなりませんが、「purple」でした）。" in (
        r.text.render("ja")
    )
