"""Call words: pronunciations from kana, romaji, the CMU dictionary, or given."""

from __future__ import annotations

import pytest

from voice.words import (UNO_PRONUNCIATIONS, WordError, call_word, kana_phones,
                         parse_words, romaji_phones)


@pytest.mark.parametrize(("kana", "phones"), [
    ("ウノ", "UW N OW"), ("うの", "UW N OW"), ("たろう", "T AA R OW UW"),
    ("きょう", "K Y OW UW"), ("しゃしん", "SH AA SH IY N"), ("ゆき", "Y UW K IY"),
    ("ちゃん", "CH AA N"), ("ユーノ", "Y UW N OW"),
])
def test_kana_is_read_the_japanese_way(kana, phones):
    assert kana_phones(kana) == phones


@pytest.mark.parametrize(("romaji", "phones"), [
    ("yuki", "Y UW K IY"), ("taro", "T AA R OW"), ("kenji", "K EH N JH IY"),
    ("shin", "SH IY N"), ("hanako", "HH AA N AA K OW"), ("nippon", "N IY P OW N"),
])
def test_romaji_is_read_the_japanese_way(romaji, phones):
    assert romaji_phones(romaji) == phones


def test_uno_and_its_katakana_are_one_word_with_the_table_pronunciations():
    words = parse_words("uno,ウノ")
    assert len(words) == 1
    assert words[0].name == "uno" and words[0].pronunciations == UNO_PRONUNCIATIONS


def test_default_words_are_the_uno_call():
    assert [w.name for w in parse_words(None)] == ["uno"]


def test_english_words_come_from_the_bundled_dictionary():
    word = call_word("hello")
    assert "HH AH L OW" in word.pronunciations or "HH EH L OW" in word.pronunciations


def test_explicit_phones_win_and_alternatives_split_on_bars():
    word = call_word("taro=T AA R OW|t aa r ow uw")
    assert word.pronunciations == ("T AA R OW", "T AA R OW UW")


def test_several_words_keep_their_order():
    assert [w.name for w in parse_words("uno, taro=T AA R OW, ゆき")] == [
        "uno", "taro", "ゆき"]


@pytest.mark.parametrize(("spec", "fragment"), [
    ("xq", "romaji"), ("bob=B XX B", "unknown phones XX"), ("ok=OW", "two phones"),
    ("=UW N OW", "empty"), ("ウノ漢", "not kana"),
])
def test_bad_words_say_why(spec, fragment):
    with pytest.raises(WordError, match=fragment):
        call_word(spec)


def test_an_empty_list_is_an_error():
    with pytest.raises(WordError, match="no call words"):
        parse_words(" , ")
