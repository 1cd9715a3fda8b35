"""The bundled demo's sound track (issue 25, item 6): small, rendered from the
scripted game by ``vision.demo.audio``, and heard by ``tableref demo`` beside the
video: every UNO call and every wild's colour from the sound alone."""

from __future__ import annotations

import json
import shutil

import pytest

from referee.game import replay
from tableref.cli import main
from vision import pipeline as pipeline_module
from vision.demo.audio import TRACK, render
from vision.demo.oracle import OracleDetector
from vision.demo.run import ORACLE
from vision.pipeline import DEMO_LOG


def test_the_track_is_small_and_says_each_call_and_colour():
    assert TRACK.is_file() and TRACK.stat().st_size < 2_000_000
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (Debian package espeak-ng)")
    lines = [json.loads(x) for x in DEMO_LOG.read_text(encoding="utf-8").splitlines()]
    _audio, said = render(lines)
    calls = [e for e in lines if e.get("type") == "uno"]
    wilds = [e for e in lines if e.get("type") == "play" and e.get("color")]
    assert len(said) == len(calls) + len(wilds)
    for e in calls:  # the call ends at the call's time
        assert any(abs(end - e["t"]) < 0.01 for _s, end, who, _t in said
                   if who == e["player"])


def test_the_demo_hears_calls_and_colours_from_the_track(capsys, monkeypatch):
    monkeypatch.setattr(pipeline_module, "load_default_detector",
                        lambda: OracleDetector(ORACLE))
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    truth = replay(DEMO_LOG.read_text(encoding="utf-8").splitlines()).state()["scores"]
    assert f"the audio track {TRACK}" in out
    assert "color   truth   3  refereed   3  right   3" in out
    assert "uno     truth   4  refereed   4  right   4" in out
    assert "voice 7 (none from the ground truth)" in out
    assert f"Final scores: {json.dumps(truth)}" in out
