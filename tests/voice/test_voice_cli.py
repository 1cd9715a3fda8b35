"""``tableref listen`` on files, and its messages for bad input."""

from __future__ import annotations

from tableref.cli import main
from voice import audio
from voice.audio import Microphone


def test_listen_prints_time_word_and_score_per_call(uno_en, capsys):
    assert main(["listen", "--file", str(uno_en)]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == 1
    t, word, score = lines[0].split()
    assert word == "uno" and 0.6 <= float(t) <= 1.3 and 0.5 < float(score) <= 1
    assert "1 call(s)" in err


def test_listen_with_other_words_hears_nothing_here(uno_ja, capsys):
    assert main(["listen", "--file", str(uno_ja), "--words", "taro=T AA R OW"]) == 0
    out, err = capsys.readouterr()
    assert out == "" and "0 call(s)" in err


def test_missing_file_is_reported(tmp_path, capsys):
    assert main(["listen", "--file", str(tmp_path / "gone.wav")]) == 2
    assert "no such audio file" in capsys.readouterr().err


def test_not_audio_is_reported(tmp_path, capsys):
    path = tmp_path / "notes.wav"
    path.write_text("not audio")
    assert main(["listen", "--file", str(path)]) == 2
    assert str(path) in capsys.readouterr().err


def test_unreadable_word_is_reported(uno_en, capsys):
    assert main(["listen", "--file", str(uno_en), "--words", "uno,xq"]) == 2
    assert "give its phones as xq=PH ON ES" in capsys.readouterr().err


def test_no_microphone_is_reported(monkeypatch, capsys):
    def no_portaudio(self):
        raise audio._NoPortAudio("PortAudio unavailable: test")

    monkeypatch.setattr(Microphone, "_open_portaudio", no_portaudio)
    monkeypatch.setattr(audio.shutil, "which", lambda name: None)
    assert main(["listen", "--device", "3"]) == 2
    assert "no microphone support" in capsys.readouterr().err
