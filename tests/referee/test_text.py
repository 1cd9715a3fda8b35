"""Ruling sentences from data: English as the value, other languages on demand."""

from __future__ import annotations

import json
import pickle

import pytest

from referee import game as game_mod
from referee.rulings import Ruling
from referee.text import (LANGS, Text, card, cards, catalog, count, define, fields,
                          from_data, join, render_data)

define({"test.takes-back": {"en": "{player} takes {what} back.",
                            "ja": "{player}は{what}を戻します。"}})


def test_value_is_english_and_render_says_japanese():
    t = Text("test.takes-back", player="Ann", what=card("yellow-draw2"))
    assert t == "Ann takes yellow Draw Two back."
    assert t.render("ja") == "Annは黄のドロー2を戻します。"
    assert t.render("fr") == str(t)  # a language nobody wrote falls back to English


def test_data_round_trips_through_json():
    t = Text("test.takes-back", player="Bo",
             what=cards(["red-7", "blue-skip", "wild-draw4"]))
    back = from_data(json.loads(json.dumps(t.data())))
    assert back == t and back.render("ja") == t.render("ja")
    assert render_data(t.data(), "ja") == "Boは赤の7、青のスキップとワイルドドロー4を戻します。"
    assert pickle.loads(pickle.dumps(t)).render("ja") == t.render("ja")


def test_render_data_falls_back_to_the_english_text():
    assert render_data(None, "ja", "As written.") == "As written."
    assert render_data({"key": "no.such-message", "args": {}}, "ja", "x") == "x"
    assert render_data("garbage", "ja", "y") == "y"


def test_counts_agree_with_their_noun():
    assert [str(count(n, "card")) for n in (1, 2)] == ["1 card", "2 cards"]
    assert count(4, "card").render("ja") == "4枚"


def test_join_and_inferred_clause():
    t = Text("@inferred", text=join("Ann passed.", ""), why="the next seat played")
    assert t == "Ann passed (inferred: the next seat played)."


def test_a_ruling_with_a_text_carries_its_message():
    r = Ruling(3, "illegal", "official.turn",
               Text("test.takes-back", player="Ann", what=card("red-7")))
    d = json.loads(r.to_json())
    assert d["text"] == "Ann takes red 7 back."
    assert render_data(d["msg"], "ja") == "Annは赤の7を戻します。"
    assert "msg" not in Ruling(3, "ok", "official.play", "plain").to_dict()


def test_a_key_defined_twice_differently_is_refused():
    with pytest.raises(ValueError):
        define({"test.takes-back": {"en": "something else"}})


def test_every_message_is_written_in_every_language_with_the_same_fields():
    game_mod.games()  # every built-in game's catalog
    missing, mismatched = [], []
    for key, texts in catalog().items():
        for lang in LANGS:
            if not texts.get(lang):
                missing.append((key, lang))
        want = fields(texts["en"])
        for lang in LANGS[1:]:
            if texts.get(lang) and fields(texts[lang]) != want:
                mismatched.append((key, lang))
    assert not missing, missing
    assert not mismatched, mismatched
