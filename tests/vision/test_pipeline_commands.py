"""The camera subcommands (markers, calibrate, watch, demo) and the demo's data."""

from __future__ import annotations

import json

import cv2
import pytest

from tableref.cli import main
from referee.game import replay
from vision import pipeline as pipeline_module
from vision.demo.game import check, simulate
from vision.demo.oracle import OracleDetector
from vision.demo.timeline import build_timeline
from vision.markers import find_markers
from vision.pipeline import DEMO_DIR, DEMO_LOG, DEMO_VIDEO

ORACLE = DEMO_DIR / "demo-table.oracle.json.gz"


@pytest.fixture
def oracle_model(monkeypatch):
    """The shipped model replaced by the demo's oracle (tests stay fast and exact)."""
    monkeypatch.setattr(
        pipeline_module, "load_default_detector", lambda: OracleDetector(ORACLE)
    )


def test_the_demo_game_is_legal_and_is_the_bundled_log():
    events = simulate(23)
    assert check(events) == []
    bundled = [json.loads(x) for x in DEMO_LOG.read_text(encoding="utf-8").splitlines()]
    plain = [{k: v for k, v in e.items() if k not in ("t", "source")} for e in bundled]
    assert plain == events
    assert bundled == build_timeline(23).log()
    times = [e["t"] for e in bundled[1:]]
    assert times == sorted(times) and 60 <= times[-1] <= 90


def test_a_big_hand_is_laid_out_so_every_card_can_be_read():
    """Seed 59's second round ends with nine cards at the right-hand seat (six
    slots there): the hand is fanned within its strip and the oracle (which
    keeps a card only with 55 % of it in sight) reports every one of them."""
    from vision.demo.render import Renderer

    tl = build_timeline(59)
    big = [e for e in tl.log() if e["type"] == "reveal" and len(e["cards"]) == 9]
    assert big and big[0]["player"] == "Chie"
    _, oracle = Renderer(59).frame(tl, big[0]["t"] + 1.0)
    seen = sorted(row[0] for row in oracle if row[1] > 410)  # right of the piles
    assert seen == sorted(big[0]["cards"])


def test_the_bundled_log_replays_to_a_finished_game():
    result = replay(DEMO_LOG.read_text(encoding="utf-8").splitlines())
    assert result.game is not None and result.game.over
    assert {r.ruling for r in result.rulings} <= {
        "ok",
        "pending",
        "round-end",
        "game-end",
    }


def test_the_bundled_video_is_small_and_shows_the_markers():
    assert DEMO_VIDEO.stat().st_size < 6_000_000
    cap = cv2.VideoCapture(str(DEMO_VIDEO))
    ok, image = cap.read()
    assert ok and image.shape == (480, 640, 3)
    assert sorted(find_markers(image)) == [0, 1, 2, 3]
    assert cap.get(cv2.CAP_PROP_FRAME_COUNT) > 60 * 15


def test_demo_with_the_oracle_sees_everything_and_scores_like_the_truth(
    capsys, oracle_model, monkeypatch
):
    from vision.demo import run as demo_run

    # the camera alone (the bundled sound track: tests/voice/test_voice_demo.py)
    monkeypatch.setattr(demo_run, "audio_beside", lambda video: None)
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    truth = replay(DEMO_LOG.read_text(encoding="utf-8").splitlines()).state()["scores"]
    assert f"Final scores: {json.dumps(truth)}" in out
    assert "play    ground truth  30  seen  30  matched  30" in out
    assert "official.round-end" in out and "vision" in out
    # nothing from the ground truth: passes and colours are the table's inferences
    assert " voice " not in out and "passes after drawing" in out
    assert "(inferred: Chie drew and the next seat, Aiko, played)" in out
    assert "pass    truth   5  refereed   5  right   5" in out
    assert "uno     truth   4  refereed   0  right   0" in out  # no sound track
    assert "(none from the ground truth)" in out


def test_demo_without_a_model_replays_the_ground_truth(capsys, monkeypatch):
    def no_model():
        raise RuntimeError("the card detector is not installed (no module)")

    monkeypatch.setattr(pipeline_module, "load_default_detector", no_model)
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "cannot be used" in out and "ground-truth table log instead" in out
    assert "official.game-end" in out


def test_watch_writes_a_table_log_that_replays(tmp_path, capsys, oracle_model):
    log = tmp_path / "game.jsonl"
    code = main(
        [
            "watch",
            str(DEMO_VIDEO),
            "--players",
            "Aiko,Ben,Chie",
            "--dealer",
            "Chie",
            "--log",
            str(log),
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "official.first-card" in out
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert (
        header["players"] == ["Aiko", "Ben", "Chie"] and header["rules"] == "official"
    )
    events = [json.loads(x) for x in lines[1:]]
    plays = [e for e in events if e["type"] in ("start", "play")]
    assert len(plays) == 30 and all(e["source"] == "vision" for e in events)
    result = replay(lines)
    assert not [r for r in result.rulings if r.rule == "log.malformed"]


def test_watch_can_name_the_player_who_reached(tmp_path, capsys, oracle_model):
    log = tmp_path / "game.jsonl"
    argv = ["watch", str(DEMO_VIDEO), "--players", "Aiko,Ben,Chie"]
    assert main(argv + ["--attribute-players", "--log", str(log)]) == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    plays = [json.loads(x) for x in lines[1:] if '"type": "play"' in x]
    truth = [json.loads(x) for x in DEMO_LOG.read_text().splitlines()]
    assert [p["player"] for p in plays] == [
        e["player"] for e in truth if e["type"] == "play"
    ]
    # with the players named, a draw without a spoken pass is still ruled right
    assert "passes after drawing; it is Aiko's turn (inferred:" in (
        capsys.readouterr().out
    )


def test_watch_on_a_missing_file_says_so(tmp_path, capsys, oracle_model):
    code = main(["watch", str(tmp_path / "nope.mp4"), "--players", "A,B"])
    assert code == 1
    assert "no such video file" in capsys.readouterr().err


def test_watch_goes_on_without_a_listener(tmp_path, capsys, oracle_model, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_voice(name, *args, **kwargs):
        if name.startswith("voice"):
            raise ImportError("No module named 'voice.bridge'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_voice)
    folder = tmp_path / "frames"
    folder.mkdir()
    cap = cv2.VideoCapture(str(DEMO_VIDEO))
    for i in range(5):
        cv2.imwrite(str(folder / f"{i:03d}.jpg"), cap.read()[1])
    assert main(["watch", str(folder), "--players", "A,B,C", "--listen"]) == 0
    assert "listening is not available" in capsys.readouterr().err


def test_markers_writes_a_printable_sheet(tmp_path, capsys):
    out = tmp_path / "sheet.png"
    assert main(["markers", "--out", str(out), "--dpi", "100"]) == 0
    assert sorted(find_markers(cv2.imread(str(out)))) == [0, 1, 2, 3]
    assert "100 % scale" in capsys.readouterr().out


def test_calibrate_from_the_markers_saves_the_table(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLEREF_CONFIG", str(tmp_path))
    preview = tmp_path / "zones.jpg"
    code = main(
        [
            "calibrate",
            str(DEMO_VIDEO),
            "--table",
            "demo",
            "--players",
            "Aiko,Ben,Chie",
            "--preview",
            str(preview),
        ]
    )
    assert code == 0, capsys.readouterr().err
    saved = json.loads((tmp_path / "tables" / "demo.json").read_text())
    assert saved["method"] == "markers" and saved["players"] == ["Aiko", "Ben", "Chie"]
    assert saved["corners_px"][0] == pytest.approx([118, 64], abs=3)
    assert cv2.imread(str(preview)) is not None


def test_calibrate_by_hand_and_its_errors(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLEREF_CONFIG", str(tmp_path))
    frame = tmp_path / "frame.png"
    cv2.imwrite(str(frame), cv2.VideoCapture(str(DEMO_VIDEO)).read()[1])
    assert (
        main(["calibrate", str(frame), "--corners", "118,64,522,64,596,426,44,426"])
        == 0
    )
    assert (
        json.loads((tmp_path / "tables" / "default.json").read_text())["method"]
        == "corners"
    )
    assert main(["calibrate", str(frame), "--corners", "1,2,3"]) == 1
    assert "8 numbers" in capsys.readouterr().err
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), cv2.imread(str(frame)) * 0)
    assert main(["calibrate", str(blank)]) == 1
    assert "corner markers not seen" in capsys.readouterr().err


def test_demo_listens_to_the_sound_track_beside_the_video(
    tmp_path, capsys, oracle_model, monkeypatch
):
    """A sound track beside the video goes through the listener (here a stand-in
    that hears Aiko's and Chie's UNO calls at their times); its events join
    the log in the table's order, and the comparison counts them."""
    import sys
    import types

    from vision.demo import run as demo_run

    track = tmp_path / "demo-table.wav"
    track.write_bytes(b"")
    monkeypatch.setattr(demo_run, "audio_beside", lambda video: track)
    heard = []

    def listen_into(append, get_state, device=None, file=None, clock=None, **kw):
        assert file == str(track)
        for who, t in (("Aiko", 26.85), ("Chie", 28.3)):
            append({"type": "uno", "player": who, "t": t})
            heard.append(who)
        return types.SimpleNamespace(stop=lambda: None, _thread=None, _mic=None)

    monkeypatch.setitem(
        sys.modules, "voice.bridge", types.SimpleNamespace(listen_into=listen_into)
    )
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert heard == ["Aiko", "Chie"] and f"the audio track {track}" in out
    assert "uno     truth   4  refereed   2  right   2" in out
    assert "voice 2" in out and "official.uno-call" in out
