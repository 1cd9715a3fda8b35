"""``watch --deck`` and ``serve --deck``: the live camera reads with an enrolled
deck."""

from __future__ import annotations

import argparse
import threading

import cv2
import numpy as np
import pytest

from vision import decks
from vision.config import DetectorConfig
from vision.config_load import config_from_args


@pytest.fixture
def store(tmp_path, monkeypatch):
    """A game store whose decks folder holds the deck ``kitchen`` (files only)."""
    monkeypatch.setenv("TABLEREF_DB", str(tmp_path / "tableref.sqlite3"))
    folder = tmp_path / "decks" / "kitchen"
    folder.mkdir(parents=True)
    (folder / decks.WEIGHTS).write_bytes(b"not read in these tests")
    manifest = decks.DeckManifest(name="kitchen", labels=["red-0"], photos={})
    (folder / decks.MANIFEST).write_text(manifest.to_json(), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("command, first", [("watch", ["0", "--players", "A,B"]),
                                            ("serve", [])])
def test_an_unknown_deck_exits_2_naming_the_enrolled_decks(store, capsys, command,
                                                           first) -> None:
    from tableref.cli import main

    with pytest.raises(SystemExit) as exc:
        main([command, *first, "--deck", "garage"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "argument --deck: no enrolled deck 'garage'" in err
    assert "(enrolled: kitchen)" in err


def _parse(setup, *argv) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    setup(p)
    return p.parse_args(list(argv))


@pytest.mark.parametrize("which", ["watch", "serve"])
def test_deck_reaches_the_pipelines_detector_config(store, which) -> None:
    from vision.commands import watch_arguments
    from web.commands import serve_arguments

    setup, first = ((watch_arguments, ["0"]) if which == "watch"
                    else (serve_arguments, []))
    args = _parse(setup, *first, "--players", "A,B", "--deck", "kitchen")
    assert config_from_args(args).detector.deck == "kitchen"
    plain = _parse(setup, *first, "--players", "A,B")
    assert config_from_args(plain).detector.deck == ""


class _NoCards:
    def detect(self, frame):
        from vision.detections import Detections

        return Detections.empty(("red-0",))


def test_the_live_pipeline_builds_the_enrolled_decks_detector(store, tmp_path,
                                                             monkeypatch) -> None:
    from vision.commands import watch_arguments
    from vision.pipeline import TablePipeline

    frames = tmp_path / "frames"
    frames.mkdir()
    for i in range(3):
        cv2.imwrite(str(frames / f"{i}.png"), np.full((120, 160, 3), 90, np.uint8))
    calls = []
    fake = _NoCards()

    def open_detector(name=None, root=None, **kwargs):
        calls.append((name, kwargs))
        return fake

    monkeypatch.setattr(decks, "open_detector", open_detector)
    args = _parse(watch_arguments, str(frames), "--players", "A,B", "--deck", "kitchen",
                  "--set", "detector.conf=0.4")
    pipe = TablePipeline(str(frames), players=["A", "B"], realtime=False,
                         config=config_from_args(args))
    pipe.run(threading.Event())
    assert pipe.detector is fake
    assert [name for name, _ in calls] == ["kitchen"]
    assert calls[0][1]["conf"] == 0.4 and calls[0][1]["imgsz"] == DetectorConfig().imgsz


def test_a_deck_gone_since_is_the_pipelines_error_status(store, tmp_path) -> None:
    from vision.config import PipelineConfig
    from vision.pipeline import TablePipeline

    config = PipelineConfig().updated({"detector.deck": "garage"})
    pipe = TablePipeline(str(tmp_path), players=["A", "B"], realtime=False,
                         config=config)
    pipe.run(threading.Event())
    status = pipe.status()
    assert status["state"] == "error"
    assert "no enrolled deck 'garage'" in status["message"]
    assert "kitchen" in status["message"]
