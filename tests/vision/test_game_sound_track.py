"""Every rendered game's sound track (issue 25, items 6 and 7): rendered from the
game's script by the bundled demo's renderer, its utterances where the script's
UNO calls and wild colours are; the hands-free evaluation adds a missing one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from benchmarks.eval_handsfree import game_folder
from vision.demo.audio import TRACK_NAME, render_track, track_made
from vision.demo.run import audio_beside
from voice.audio import RATE, read_wav

HEADER = {"type": "game", "game": "uno", "rules": "official",
          "players": ["Aiko", "Ben", "Dora"], "dealer": "Dora", "hand_size": 2}
SCRIPT = [
    HEADER,
    {"type": "start", "card": "red-3", "t": 0.5},
    {"type": "uno", "player": "Aiko", "source": "voice", "t": 2.0},
    {"type": "play", "player": "Aiko", "cards": ["red-5"], "t": 2.5},
    {"type": "play", "player": "Ben", "cards": ["wild"], "color": "blue", "t": 4.0},
    {"type": "play", "player": "Dora", "cards": ["blue-2"], "t": 6.0},
    {"type": "play", "player": "Aiko", "cards": ["wild-draw4"], "color": "green",
     "t": 8.0},
    {"type": "uno", "player": "Dora", "source": "voice", "t": 10.0},
]


@pytest.fixture(autouse=True)
def _tools():
    for tool in ("espeak-ng", "sox"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (Debian package {tool})")


def game(folder: Path, script=SCRIPT) -> Path:
    """A rendered game's folder as far as the track needs it (no video)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "demo-table.jsonl").write_text(
        "".join(json.dumps(e) + "\n" for e in script), encoding="utf-8")
    return folder


def loud(x: np.ndarray, step: float = 0.02) -> np.ndarray:
    """Whether each ``step`` seconds of ``x`` holds more than the noise."""
    n = int(step * RATE)
    rms = np.sqrt(np.mean(x[: len(x) // n * n].reshape(-1, n) ** 2, axis=1))
    return rms > 4 * np.median(rms)


def test_the_track_says_each_call_and_colour_where_the_script_has_it(tmp_path):
    path, said = render_track(game(tmp_path / "g"), seed=3, snr=40.0)
    assert path == tmp_path / "g" / TRACK_NAME and path.is_file()
    calls = [e for e in SCRIPT if e.get("type") == "uno"]
    wilds = [e for e in SCRIPT if e.get("color")]
    assert len(said) == len(calls) + len(wilds)
    for e in calls:  # the call ends at the call's time, in the caller's voice
        assert [who for _s, end, who, _t in said if abs(end - e["t"]) < 0.01] == [
            e["player"]]
    for e in wilds:  # the colour is said just after the wild lands
        text = [t for s, _e, who, t in said
                if who == e["player"] and 0 < s - e["t"] < 1.0]
        assert len(text) == 1
    ja = [t for _s, _e, who, t in said if who == "Aiko"]
    assert "ウノ!" in ja and "みどり!" in ja  # Aiko's own voice speaks Japanese
    # Dora has no voice of her own: she is given one and is heard
    assert any(who == "Dora" for _s, _e, who, _t in said)
    x = np.frombuffer(read_wav(str(path)), "<i2").astype(np.float32) / 32768
    on = loud(x)
    speech = np.zeros_like(on)
    for start, end, _who, _text in said:
        speech[int(start / 0.02) + 1: int(end / 0.02) - 1] = True
    # the track is loud where something is said and mostly quiet elsewhere
    # (card slaps are short)
    assert on[speech].mean() > 0.5
    assert on[~speech].mean() < 0.1


def test_the_noise_is_the_games_seeds_and_the_level_is_the_snr(tmp_path):
    a, _ = render_track(game(tmp_path / "a"), seed=3, snr=10.0)
    b, _ = render_track(game(tmp_path / "b"), seed=3, snr=10.0)
    c, _ = render_track(game(tmp_path / "c"), seed=4, snr=10.0)
    d, _ = render_track(game(tmp_path / "d"), seed=3, snr=30.0)
    pcm = {k: np.frombuffer(read_wav(str(p)), "<i2").astype(np.float32)
           for k, p in dict(a=a, b=b, c=c, d=d).items()}
    quiet = slice(int(0.1 * RATE), int(1.4 * RATE))  # before anything is said
    assert np.array_equal(pcm["a"][quiet], pcm["b"][quiet])
    assert not np.array_equal(pcm["a"][quiet], pcm["c"][quiet])
    level = {k: float(np.sqrt(np.mean(x[quiet] ** 2))) for k, x in pcm.items()}
    assert level["a"] > 5 * level["d"]  # 20 dB less noise is a tenth of it
    assert track_made(tmp_path / "a") == {"snr": 10.0, "seed": 3}
    assert track_made(tmp_path / "nowhere") is None


def test_game_folder_adds_a_missing_track_and_remixes_another_snr(tmp_path):
    folder = game(tmp_path / "tableref-real-s3-15fps")
    (folder / "demo-table.oracle.json.gz").write_bytes(b"")  # the video is there
    (folder / "demo-table.mp4").write_bytes(b"")
    assert audio_beside(folder / "demo-table.mp4") is None
    assert game_folder(3, 15, snr=10.0, root=tmp_path) == folder
    track = audio_beside(folder / "demo-table.mp4")
    assert track == folder / TRACK_NAME
    assert track_made(folder) == {"snr": 10.0, "seed": 3}
    first = track.read_bytes()
    game_folder(3, 15, snr=10.0, root=tmp_path)  # there already: kept
    assert track.read_bytes() == first
    game_folder(3, 15, snr=20.0, root=tmp_path)
    assert track_made(folder) == {"snr": 20.0, "seed": 3}
    assert track.read_bytes() != first
    game_folder(3, 15, snr=None, root=tmp_path)  # video alone: left as it is
    assert track_made(folder) == {"snr": 20.0, "seed": 3}
