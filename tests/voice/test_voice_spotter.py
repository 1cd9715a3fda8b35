"""The spotter on small recordings: calls found, at the right time; noise and talk
without the word stay quiet. The UNO call is heard by the neural spotter (the
default), other words and ``engine="pocketsphinx"`` by keyword search."""

from __future__ import annotations

import numpy as np
import pytest

from voicetest_audio import RATE, noise, read
from voice.audio import read_wav, to_pcm16
from voice.spotter import Spotter, SpotterConfig
from voice.words import parse_words


def run(samples: np.ndarray, words: str | None = None, config=None):
    spotter = Spotter(parse_words(words), config)
    pcm = to_pcm16(samples, RATE)
    step = int(0.1 * RATE) * 2
    found = []
    for i in range(0, len(pcm), step):
        found += spotter.feed(pcm[i:i + step])
    return found + spotter.flush()


def speech_span(x: np.ndarray) -> tuple[float, float]:
    loud = np.flatnonzero(np.abs(x) > 0.02)
    return loud[0] / RATE, loud[-1] / RATE


@pytest.mark.parametrize("name", ["uno_en", "uno_ja"])
def test_a_call_on_its_own_is_heard_once_where_it_was_said(name, request):
    x = read(request.getfixturevalue(name))
    start, end = speech_span(x)
    found = run(x)
    assert len(found) == 1
    det = found[0]
    assert det.word == "uno"
    assert start - 0.15 <= det.start and det.end <= end + 0.25
    assert 0.5 < det.score <= 1


def test_a_call_in_table_noise_at_20_db_is_heard(uno_en):
    x = read(uno_en)
    bed = noise(4.0, level=float(np.sqrt(np.mean(x[np.abs(x) > 0.02] ** 2))) / 10)
    bed[RATE:RATE + len(x)] += x
    found = run(bed)
    assert [d.word for d in found] == ["uno"]
    assert 1.0 + speech_span(x)[0] - 0.2 <= found[0].start


@pytest.mark.parametrize("level", [0.0, 0.01, 0.1])
def test_silence_and_steady_noise_are_not_calls(level):
    assert run(noise(6.0, level, seed=3)) == []


def test_other_words_of_a_custom_list_ignore_uno(uno_en):
    assert run(read(uno_en), words="taro=T AA R OW") == []


def test_keyword_search_detections_carry_their_measurements(uno_en):
    found = run(read(uno_en), config=SpotterConfig(engine="pocketsphinx", gates=False))
    assert found and all(d.length > 0 and d.rise_db > 10 for d in found)
    assert SpotterConfig().accepts(max(found, key=lambda d: d.ratio))
    assert all(d.engine == "pocketsphinx" for d in found)
    strict = SpotterConfig(min_ratio=50.0)
    assert not any(strict.accepts(d) for d in found)


def test_a_call_after_a_sentence_is_heard_after_it(say):
    sentence, call = say("Red seven on the pile."), say("Uno!", "en")
    gap = np.zeros(int(0.6 * RATE), np.float32)
    x = np.concatenate([gap, sentence, gap, call, gap])
    x = x + noise(len(x) / RATE, 0.003, seed=5)[:len(x)]
    found = run(x)
    assert len(found) == 1
    assert found[0].start >= (len(gap) * 2 + len(sentence)) / RATE - 0.2


@pytest.mark.parametrize(("text", "voice"), [
    ("Your turn, Bob. Shuffle the deck please.", "en-us"),
    ("Draw four and pick a colour.", "en"),
    ("つぎは あなたの ばんです。", "ja"),
])
def test_table_talk_without_the_word_is_not_a_call(say, text, voice):
    x = say(text, voice)
    x = np.concatenate([np.zeros(RATE // 2, np.float32), x, np.zeros(RATE, np.float32)])
    x = x + noise(len(x) / RATE, 0.003, seed=7)[:len(x)]
    assert run(x) == []


def test_a_name_called_instead_of_uno(say):
    x = say("たろう!", "ja")
    x = np.concatenate([np.zeros(RATE // 2, np.float32), x, np.zeros(RATE, np.float32)])
    x = x + noise(len(x) / RATE, 0.003, seed=9)[:len(x)]
    assert [d.word for d in run(x, words="uno,たろう")] == ["たろう"]


def test_wav_reader_resamples_and_mixes_down(tmp_path, uno_en):
    from voicetest_audio import write

    x = read(uno_en)
    stereo_8k = x[::2]
    path = write(tmp_path / "low.wav", stereo_8k, rate=8000)
    pcm = read_wav(str(path))
    assert abs(len(pcm) / 2 / RATE - len(x) / RATE) < 0.01


def test_verifier_rejects_stretches_too_short_to_hold_a_word(uno_en):
    from voice.verify import Verifier

    verifier = Verifier(parse_words(None))
    assert verifier.score(b"")[0] is None
    assert verifier.score(b"\x00\x01" * 100)[0] is None
    pcm = read_wav(str(uno_en))
    word = pcm[int(0.55 * RATE) * 2:int(1.0 * RATE) * 2]
    index, ratio = verifier.score(word)
    assert index == 0 and ratio > SpotterConfig().min_ratio
    # the same stretch does not sound like another word
    other = Verifier(parse_words("taro=T AA R OW")).score(word)[1]
    assert other < SpotterConfig().min_ratio < ratio
