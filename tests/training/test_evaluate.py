"""``tableref evaluate``'s measures and the int8 export experiment's script."""

from __future__ import annotations

import numpy as np
import pytest

from referee.cards import CLASSES as RECIPE_CLASSES
from tableref.cli import main


def test_eval_detector_measures_another_classifier(tmp_path, monkeypatch) -> None:
    """``--classifier`` puts that checkpoint in the measured detector and says so
    in the report (to measure a candidate before shipping it)."""
    import json

    import training.commands as ev
    import vision.detector as det

    seen: dict = {}

    class Fake:
        path, imgsz = "finder", 256

        def __init__(self, model=None, conf=0.35, classifier=None,  # noqa: ANN001
                     **kw):
            seen["classifier"] = classifier

    monkeypatch.setattr(det, "Detector", Fake)
    monkeypatch.setattr(ev, "print_summary", lambda report: None)
    out = tmp_path / "report.json"
    candidate = tmp_path / "candidate.pt"
    main(["evaluate", "--classifier", str(candidate), "--skip", "real,map,hard",
          "--out", str(out)])
    assert seen["classifier"] == candidate
    assert json.loads(out.read_text())["classifier"] == str(candidate)
    main(["evaluate", "--skip", "real,map,hard", "--out", str(out)])
    assert seen["classifier"] is None
    assert json.loads(out.read_text())["classifier"] == "shipped"


def _heldout(tmp_path, scenes):  # noqa: ANN001, ANN202
    """A tiny held-out set on disk: ``scenes`` are lists of (label, xyxy) in a
    200 x 100 image."""
    import cv2

    out = tmp_path / "heldout-s5-n2-320"
    (out / "images" / "train").mkdir(parents=True)
    (out / "labels" / "train").mkdir(parents=True)
    (out / "recipe.json").write_text("{}")
    for k, cards in enumerate(scenes):
        cv2.imwrite(str(out / "images" / "train" / f"{k}.jpg"),
                    np.zeros((100, 200, 3), np.uint8))
        rows = []
        for label, (x1, y1, x2, y2) in cards:
            rows.append(f"{RECIPE_CLASSES.index(label)} {(x1 + x2) / 400} "
                        f"{(y1 + y2) / 200} {(x2 - x1) / 200} {(y2 - y1) / 100}")
        (out / "labels" / "train" / f"{k}.txt").write_text("\n".join(rows))
    return tmp_path


def test_runtime_map_sets_overlapped_cards_aside_in_its_breakdown(tmp_path) -> None:
    """The goal's mAP counts every card; the breakdown counts only the cards no
    other card overlaps, and a box on an overlapped card counts neither way."""
    import training.evaluate as ev
    from vision.detections import Detections

    lone = ("red-3", (10, 10, 50, 70))
    under = ("blue-5", (100, 10, 140, 70))  # overlapped by the card on top
    top = ("green-7", (105, 15, 145, 75))
    root = _heldout(tmp_path, [[lone, under, top], [lone]])

    class Finder:
        """Reads the first scene as told and the second (``lone`` only) right."""

        def __init__(self, reads):  # noqa: ANN001
            self.scenes = [reads, [lone]]

        def detect(self, img):  # noqa: ANN001, ANN202
            reads = self.scenes.pop(0)
            boxes = np.array([b for _, b in reads], float)
            return Detections(boxes, np.array([0.9] * len(reads)),
                              [RECIPE_CLASSES.index(n) for n, _ in reads])

    right = ev.eval_detector_map(Finder([lone, under, top]), root, 2, 5)
    assert right["map50_95"] == pytest.approx(right["apart_map50_95"])
    assert right["map50"] > 0.99
    assert right["overlapped_share"] == pytest.approx(2 / 4)
    # the card beneath read as the one on top: wrong in the goal's mAP only
    misread = ("green-7", under[1])
    wrong = ev.eval_detector_map(Finder([lone, misread, top]), root, 2, 5)
    assert wrong["map50"] < right["map50"] - 0.1
    assert wrong["apart_map50"] == pytest.approx(right["apart_map50"])
    # a card read wrong where no card overlaps it counts in both
    stray = ev.eval_detector_map(
        Finder([("red-4", lone[1]), under, top]), root, 2, 5
    )
    assert stray["apart_map50"] < right["apart_map50"] - 0.1


def test_int8_export_script_names_its_missing_package(monkeypatch, capsys) -> None:
    """``benchmarks/export_int8.py`` (an experiment's export, NNCF not a
    dependency) says what to install instead of failing inside Ultralytics."""
    import sys

    from benchmarks.export_int8 import main as export_int8

    monkeypatch.setitem(sys.modules, "nncf", None)  # import nncf -> ImportError
    assert export_int8(["--out", "unused"]) == 2
    assert "pip install nncf" in capsys.readouterr().err
