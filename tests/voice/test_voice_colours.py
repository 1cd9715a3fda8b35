"""A wild's colour heard by the listener: words, spotting in noise, attribution,
and the ``color`` events it appends (issue 25, item 5)."""

from __future__ import annotations

import itertools
import time

import numpy as np
import pytest

from referee.session import Referee
from voice.attribution import COLOUR_AFTER, WildClock, attribute_colour
from voice.audio import RATE, to_pcm16
from voice.bridge import Attributor, listen_into
from voice.spotter import Spotter
from voice.words import colour_of, colour_words, parse_words
from voicetest_audio import noise, write


def test_colour_words_in_english_and_japanese():
    assert [colour_of(w) for w in ("red", "Blue", "green", "yellow")] == [
        "red", "blue", "green", "yellow"]
    assert [colour_of(w) for w in ("赤", "あお", "ミドリ", "kiiro", "黄色")] == [
        "red", "blue", "green", "yellow", "yellow"]
    assert colour_of("uno") is None and colour_of("taro") is None
    assert parse_words("あか")[0].name == "赤"
    assert "AA K AA" in parse_words("aka")[0].pronunciations
    assert {w.name for w in colour_words()} == {
        "red", "blue", "green", "yellow", "赤", "青", "緑", "黄"}


def _track(say, items, snr=10.0, seed=3):
    """The clips said 2 s apart over noise at ``snr`` dB; (audio, marks)."""
    parts, marks, pos = [np.zeros(RATE, np.float32)], [], RATE
    for text, voice in items:
        clip = say(text, voice)
        clip = clip / np.sqrt(np.mean(clip[np.abs(clip) > 0.01] ** 2)) * 0.1
        parts += [clip, np.zeros(2 * RATE, np.float32)]
        marks.append((pos / RATE, (pos + len(clip)) / RATE, text))
        pos += len(clip) + 2 * RATE
    audio = np.concatenate(parts)
    return audio + noise(len(audio) / RATE, 0.1 / 10 ** (snr / 20), seed), marks


def _heard(audio):
    spotter = Spotter(parse_words(None), colours=True)
    pcm = to_pcm16(audio, RATE)
    out = []
    for i in range(0, len(pcm), 3200):
        out += spotter.feed(pcm[i:i + 3200])
    return out + spotter.flush()


@pytest.mark.parametrize("lang,snr", [("en", 10.0), ("ja", 10.0)])
def test_colours_heard_in_noise(say, lang, snr):
    """espeak-ng en-us and ja at 10 dB SNR: each colour heard, as itself (by the
    colour spotter, the listener's default)."""
    items = ([(w, "en-us") for w in ("Red!", "Blue!", "Green!", "Yellow!")]
             if lang == "en" else
             [(w, "ja") for w in ("あか!", "あお!", "みどり!", "きいろ!")])
    audio, marks = _track(say, items, snr=snr)
    dets = [d for d in _heard(audio) if colour_of(d.word)]
    for start, end, text in marks:
        near = [d for d in dets if start - 0.3 <= d.end <= end + 1.0]
        assert [colour_of(d.word) for d in near] == [colour_of(text.strip("!"))], text
    assert len(dets) == len(marks)


def test_colour_words_inside_sentences_and_the_uno_call_are_not_colours(say):
    items = [("Red seven on the pile, and then a green skip.", "en-us"),
             ("Uno!", "en-us"), ("ウノ!", "ja")]
    audio, _ = _track(say, items, snr=20)
    dets = _heard(audio)
    assert [d.word for d in dets if colour_of(d.word)] == []
    assert [d.word for d in dets] == ["uno", "uno"]


def _wild_on_top() -> Referee:
    ref = Referee({"type": "game", "game": "uno", "rules": "official",
                   "players": ["A", "B", "C"], "dealer": "C", "hand_size": 5})
    ref.append({"type": "start", "card": "red-5"})
    ref.append({"type": "play", "player": "A", "cards": ["wild"]})
    return ref


def test_attribution_of_a_colour():
    ref = _wild_on_top()
    got = attribute_colour(ref.state(), "blue")
    assert got.player == "A" and "played the wild" in got.reason
    ref.append({"type": "color", "color": "blue"})
    assert attribute_colour(ref.state(), "red").player is None
    ref.append({"type": "play", "player": "B", "cards": ["blue-3"]})
    assert "no wild" in attribute_colour(ref.state(), "red").reason


def test_the_colour_of_a_wild_that_won_the_round_is_its_winners():
    """A wild played as the last card ends the round: no one is to move, and the
    colour heard is the winner's (the referee notes it and scores on)."""
    ref = Referee({"type": "game", "game": "uno", "rules": "official",
                   "players": ["A", "B"], "dealer": "B", "hand_size": 1})
    ref.append({"type": "start", "card": "red-5"})
    ref.append({"type": "play", "player": "A", "cards": ["wild"]})
    state = ref.state()
    assert state["turn"] is None and state["round_winner"] == "A"
    got = attribute_colour(state, "blue")
    assert got.player == "A" and "went out" in got.reason
    (ruling,) = ref.append({"type": "color", "player": "A", "color": "blue"})
    assert ruling.ruling == "info"


def test_a_heard_colour_names_the_wild(tmp_path, say):
    audio, _ = _track(say, [("Green!", "en-us")])
    path = write(tmp_path / "green.wav", audio)
    ref = _wild_on_top()
    rulings = []
    handle = listen_into(lambda ev: rulings.extend(ref.append(ev)), ref.state,
                         file=str(path))
    handle.join(60)
    assert handle.error is None
    (event,) = handle.events
    assert event["type"] == "color" and event["color"] == "green"
    assert event["player"] == "A" and event["heard"] == "green"
    assert event["source"] == "voice"
    assert ref.state()["color"] == "green"
    assert [(r.rule, r.ruling) for r in rulings] == [("official.wild", "ok")]


def test_a_colour_without_a_wild_waiting_makes_no_event(tmp_path, say, caplog):
    audio, _ = _track(say, [("Yellow!", "en-us")])
    path = write(tmp_path / "yellow.wav", audio)
    ref = Referee({"type": "game", "game": "uno", "rules": "official",
                   "players": ["A", "B", "C"], "dealer": "C", "hand_size": 5})
    ref.append({"type": "start", "card": "red-5"})
    with caplog.at_level("INFO", logger="tableref.voice"):
        handle = listen_into(ref.append, ref.state, file=str(path))
        handle.join(60)
    assert handle.events == [] and len(handle.detections) == 1
    assert "no wild is on top" in caplog.text


def test_a_file_beside_a_video_is_judged_at_the_video_time(tmp_path, say):
    """Read ahead, but attributed once the game clock reaches the word: the wild
    that the camera sees at 1.0 s (before the word ends) is named."""
    audio, marks = _track(say, [("Blue!", "en-us")])
    path = write(tmp_path / "blue.wav", audio)
    ref = Referee({"type": "game", "game": "uno", "rules": "official",
                   "players": ["A", "B", "C"], "dealer": "C", "hand_size": 5})
    ref.append({"type": "start", "card": "red-5"})
    ticks = itertools.count()
    video_t = [0.0]

    def clock() -> float:  # the camera: 0.05 s of video per call; the wild at 1.0 s
        video_t[0] = next(ticks) * 0.05
        if video_t[0] >= 1.0 and ref.state()["top"] != "wild":
            ref.append({"type": "play", "player": "A", "cards": ["wild"]})
        return video_t[0]

    handle = listen_into(ref.append, ref.state, file=str(path), clock=clock)
    handle.join(60)
    (event,) = handle.events
    assert event["color"] == "blue" and event["player"] == "A"
    assert 1.0 <= event["t"] <= marks[0][1] + 1.0
    assert ref.state()["color"] == "blue"


def test_the_colour_window_opens_when_a_wild_waits_and_each_wild_has_its_own():
    ref = _wild_on_top()
    clock = WildClock()
    clock.observe({"top": "red-5", "color": "red", "discard_pile": 1}, 0.0)
    assert clock.since is None and clock.too_late(100.0) is None
    clock.observe(ref.state(), 10.0)
    clock.observe(ref.state(), 12.0)  # the same wild still waiting
    assert clock.since == 10.0
    assert clock.too_late(10.0 + COLOUR_AFTER - 0.1) is None
    assert "after the wild was seen" in clock.too_late(10.0 + COLOUR_AFTER + 0.1)
    ref.append({"type": "color", "color": "blue"})
    ref.append({"type": "play", "player": "B", "cards": ["wild"]})
    clock.observe(ref.state(), 30.0)  # another wild: its own window
    assert clock.since == 30.0 and clock.too_late(31.0) is None


def test_a_recording_attributor_drops_a_colour_heard_after_the_window():
    ref = _wild_on_top()
    attributor = Attributor()
    attributor.observe(ref.state(), 5.0)
    late = {"type": "color", "color": "red", "source": "voice",
            "t": 5.0 + COLOUR_AFTER + 1.0}
    assert attributor(late, ref.state()) is None
    event = attributor({**late, "t": 6.0}, ref.state())
    assert event is not None and event["player"] == "A"


def test_the_colour_window_is_the_config_field_listen_colour_after_s():
    from vision.config import PipelineConfig

    config = PipelineConfig()
    assert config.listen.colour_after_s == COLOUR_AFTER  # the listener's default
    short = config.updated({"listen.colour_after_s": 2.0}).listen.colour_after_s
    ref = _wild_on_top()
    attributor = Attributor(after=short)
    attributor.observe(ref.state(), 5.0)
    heard = {"type": "color", "color": "red", "source": "voice", "t": 8.0}
    assert attributor(heard, ref.state()) is None  # 3 s: past a 2 s window
    assert Attributor()(heard, ref.state())["player"] == "A"


def test_a_listener_with_a_longer_colour_window_takes_a_later_colour(tmp_path, say):
    audio, _ = _track(say, [("Green!", "en-us")])
    audio = np.concatenate([np.zeros(int((COLOUR_AFTER + 1) * RATE), np.float32),
                            audio])
    path = write(tmp_path / "late-green.wav", audio)
    ref = _wild_on_top()
    handle = listen_into(ref.append, ref.state, file=str(path),
                         colour_after=COLOUR_AFTER + 5.0)
    handle.join(60)
    assert handle.error is None
    assert [e["color"] for e in handle.events] == ["green"]
    assert ref.state()["color"] == "green"


def test_a_colour_heard_long_after_the_wild_makes_no_event(tmp_path, say, caplog):
    """The wild waits from the start of the file; "Green!" comes more than
    COLOUR_AFTER seconds later: table talk, not the wild's colour."""
    audio, _ = _track(say, [("Green!", "en-us")])
    audio = np.concatenate([np.zeros(int((COLOUR_AFTER + 1) * RATE), np.float32),
                            audio])
    path = write(tmp_path / "late-green.wav", audio)
    ref = _wild_on_top()
    with caplog.at_level("INFO", logger="tableref.voice"):
        handle = listen_into(ref.append, ref.state, file=str(path))
        handle.join(60)
    assert handle.error is None
    assert handle.events == [] and len(handle.detections) == 1
    assert "after the wild was seen" in caplog.text
    assert ref.state()["color"] is None


def test_of_two_colours_waiting_for_the_wild_the_last_heard_names_it(tmp_path, say):
    """"Red!" then "Blue!" before the camera sees the wild: blue names it."""
    parts, ends = [np.zeros(RATE, np.float32)], []
    for text in ("Red!", "Blue!"):
        clip = say(text, "en-us")
        clip = clip / np.sqrt(np.mean(clip[np.abs(clip) > 0.01] ** 2)) * 0.1
        parts += [clip, np.zeros(int(1.3 * RATE), np.float32)]
        ends.append(sum(len(p) for p in parts[:-1]) / RATE)
    parts.append(np.zeros(2 * RATE, np.float32))
    audio = np.concatenate(parts)
    audio = audio + noise(len(audio) / RATE, 0.01, 4)
    path = write(tmp_path / "red-blue.wav", audio)
    ref = Referee({"type": "game", "game": "uno", "rules": "official",
                   "players": ["A", "B", "C"], "dealer": "C", "hand_size": 5})
    ref.append({"type": "start", "card": "red-5"})
    ticks = itertools.count()

    def clock() -> float:  # 0.05 s of video per call; the wild after "Blue!"
        now = next(ticks) * 0.05
        if now >= ends[1] + 0.4 and ref.state()["top"] != "wild":
            ref.append({"type": "play", "player": "A", "cards": ["wild"]})
        return now

    handle = listen_into(ref.append, ref.state, file=str(path), clock=clock)
    handle.join(60)
    assert handle.error is None
    assert [colour_of(d.word) for d in handle.detections] == ["red", "blue"]
    assert [(e["color"], e["player"]) for e in handle.events] == [("blue", "A")]
    assert ref.state()["color"] == "blue"


def test_retry_colours_names_a_wild_that_has_just_joined_the_log(tmp_path, say):
    """A live listener (a file fed at its own speed, as ``serve`` plays the
    demo's track) keeps a colour heard before its wild waiting; when the table
    lets a camera play stand later (a held copy), :meth:`retry_colours` names it
    at once, from the caller's thread."""
    audio, _ = _track(say, [("Blue!", "en-us")])
    path = write(tmp_path / "blue.wav", audio)
    ref = Referee({"type": "game", "game": "uno", "rules": "official",
                   "players": ["A", "B", "C"], "dealer": "C", "hand_size": 5})
    ref.append({"type": "start", "card": "red-5"})
    handle = listen_into(ref.append, ref.state, file=str(path), realtime=True)
    deadline = time.monotonic() + 30
    while not handle.detections and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [colour_of(d.word) for d in handle.detections] == ["blue"]
    assert handle.events == []  # no wild yet: the colour waits
    ref.append({"type": "play", "player": "A", "cards": ["wild"]})
    handle.retry_colours()
    assert [(e["color"], e["player"]) for e in handle.events] == [("blue", "A")]
    assert ref.state()["color"] == "blue"
    handle.stop()
