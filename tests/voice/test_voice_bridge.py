"""listen_into: heard calls become uno events through the caller's append."""

from __future__ import annotations

import logging
import stat

import pytest

from referee.session import Referee
from voice import audio
from voice.audio import AudioError, Microphone
from voice.bridge import listen_into


def catchable_b():
    return {"players": ["A", "B", "C"], "hand_counts": {"A": 5, "B": 1, "C": 4},
            "turn": "C", "direction": 1, "uno": [], "catchable": ["B"]}


def test_a_heard_call_is_appended_as_a_voice_uno_event(uno_en):
    got = []
    handle = listen_into(got.append, catchable_b, file=str(uno_en))
    handle.join(30)
    assert not handle.running and handle.error is None
    assert len(got) == 1
    event = got[0]
    assert event["type"] == "uno" and event["player"] == "B"
    assert event["source"] == "voice" and event["word"] == "uno"
    assert 0.6 <= event["t"] <= 1.3  # when the word ended, in seconds of the file
    assert handle.events == got


def test_an_unattributable_call_gives_no_event_but_a_log_line(uno_ja, caplog):
    nobody = {"players": ["A", "B"], "hand_counts": {"A": 6, "B": 7}, "turn": "A",
              "direction": 1}
    got = []
    with caplog.at_level(logging.INFO, logger="tableref.voice"):
        handle = listen_into(got.append, lambda: nobody, file=str(uno_ja))
        handle.join(30)
    assert got == [] and len(handle.detections) == 1
    assert "no event" in caplog.text and "one or two cards" in caplog.text


def test_into_a_live_referee_the_call_is_ruled(uno_en):
    ref = Referee({"type": "game", "game": "uno", "rules": "official",
                   "players": ["A", "B", "C"], "dealer": "A", "hand_size": 2})
    ref.append({"type": "start", "card": "red-5"})
    ref.append({"type": "play", "player": "B", "cards": ["red-7"]})
    rulings = []
    handle = listen_into(lambda ev: rulings.extend(ref.append(ev)), ref.state,
                         file=str(uno_en), clock=lambda: 42.0)
    handle.join(30)
    assert [(r.rule, r.ruling) for r in rulings] == [("official.uno-call", "ok")]
    assert ref.state()["uno"] == ["B"]


def test_a_failing_append_stops_the_listener_with_the_error_kept(uno_en):
    def broken(_event):
        raise ValueError("store is read-only")

    handle = listen_into(broken, catchable_b, file=str(uno_en))
    handle.join(30)
    assert isinstance(handle.error, ValueError) and not handle.running


def test_stop_ends_a_listener(uno_en):
    handle = listen_into(lambda e: None, catchable_b, file=str(uno_en), realtime=True)
    handle.stop()
    assert not handle.running


def test_a_missing_file_raises_before_the_thread_starts(tmp_path):
    with pytest.raises(AudioError, match="no such audio file"):
        listen_into(lambda e: None, catchable_b, file=str(tmp_path / "none.wav")).join()


def _no_portaudio(self):
    raise audio._NoPortAudio("PortAudio unavailable: test")


def test_no_microphone_support_at_all_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(Microphone, "_open_portaudio", _no_portaudio)
    monkeypatch.setattr(audio.shutil, "which", lambda name: None)
    with pytest.raises(AudioError, match="libportaudio2 or alsa-utils"):
        listen_into(lambda e: None, catchable_b)


def test_no_capture_device_is_a_clear_error(monkeypatch, tmp_path):
    fake = tmp_path / "arecord"
    fake.write_text("#!/bin/sh\necho 'arecord: no soundcards found...' >&2\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(Microphone, "_open_portaudio", _no_portaudio)
    monkeypatch.setattr(audio.shutil, "which", lambda name: str(fake))
    with pytest.raises(AudioError, match="no microphone found"):
        listen_into(lambda e: None, catchable_b, device=1)
