"""``tableref train`` arguments and the recipe (no training here: too slow for CI)."""

from __future__ import annotations

import argparse

import numpy as np

import pytest

from referee.cards import CLASSES as RECIPE_CLASSES
from referee.cli import main
from vision.detector_cli import RECIPE, recipe_data, train_arguments


def test_heldout_seed_is_not_a_training_seed() -> None:
    from benchmarks.eval_detector import add_arguments

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    heldout = parser.parse_args([]).heldout_seed
    assert heldout not in {stage["synth_seed"] for stage in RECIPE["stages"]}


def test_eval_detector_measures_another_classifier(tmp_path, monkeypatch) -> None:
    """``--classifier`` puts that checkpoint in the measured detector and says so
    in the report (to measure a candidate before shipping it)."""
    import json

    import benchmarks.eval_detector as ev
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
    ev.main(["--classifier", str(candidate), "--skip", "real,map,hard",
             "--out", str(out)])
    assert seen["classifier"] == candidate
    assert json.loads(out.read_text())["classifier"] == str(candidate)
    ev.main(["--skip", "real,map,hard", "--out", str(out)])
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
    import benchmarks.eval_detector as ev
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


def test_recipe_is_offline_and_deterministic_by_construction() -> None:
    assert RECIPE["model"].endswith(".yaml")  # from scratch, nothing downloaded
    assert RECIPE["hyp"]["fliplr"] == 0.0  # mirrored digits never occur on a table
    # No stage repeats an earlier one: a fine-tuning stage gets fresh scenes.
    runs = [(stage["synth_seed"], stage.get("single_cls", False))
            for stage in RECIPE["stages"]]
    assert len(set(runs)) == len(runs)
    assert RECIPE["stages"][-1].get("single_cls")  # the shipped card finder


def test_defaults_reproduce_the_recipe() -> None:
    parser = argparse.ArgumentParser()
    train_arguments(parser)
    args = parser.parse_args([])
    assert (args.imgsz, args.batch, args.seed) == (
        RECIPE["imgsz"],
        RECIPE["batch"],
        RECIPE["seed"],
    )
    assert args.stages == len(RECIPE["stages"]) and args.stop_after is None


def test_a_stage_starting_from_weights_keeps_them(tmp_path, monkeypatch) -> None:
    """Ultralytics drops a checkpoint's weights when told ``pretrained=False``: a
    fine-tuning stage must say True, a stage from the yaml may say either."""
    import ultralytics

    from vision import detector_cli

    calls = []

    class FakeYOLO:
        def __init__(self, init):
            self.init = init

        def add_callback(self, *_):
            pass

        def train(self, **kw):
            calls.append((self.init, kw))

    monkeypatch.setattr(ultralytics, "YOLO", FakeYOLO)
    parser = argparse.ArgumentParser()
    train_arguments(parser)
    args = parser.parse_args([])
    for init in ("yolo11n.yaml", str(tmp_path / "last.pt")):
        detector_cli._train_once(init, tmp_path / "d.yaml", tmp_path / "run", 1, args,
                                 RECIPE["stages"][-1], None)
    assert calls[1][0].endswith("last.pt") and calls[1][1]["pretrained"] is True
    assert calls[1][1]["single_cls"] is True


def test_from_stage_needs_the_previous_weights(tmp_path, capsys) -> None:
    assert main(["train", "--from-stage", "2", "--project", str(tmp_path)]) == 2
    assert "last.pt" in capsys.readouterr().err


def test_weights_need_ship(tmp_path, capsys) -> None:
    assert main(["train", "--weights", str(tmp_path / "x.pt")]) == 2
    assert "--ship" in capsys.readouterr().err


def test_recipe_data_is_rendered_once(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(RECIPE, "val_fraction", 0.5)
    first = recipe_data(tmp_path, 2, 5, 64)
    stamp = first.stat().st_mtime_ns
    again = recipe_data(tmp_path, 2, 5, 64)
    assert again == first and again.stat().st_mtime_ns == stamp
    assert len(list((tmp_path / "synth-s5-n2-64" / "images").rglob("*.jpg"))) == 2
    closer = recipe_data(tmp_path, 2, 5, 64, closeups=0.5)
    assert closer != first and "c0.5" in closer.parent.name
    rows = recipe_data(tmp_path, 2, 5, 64, laid=0.4)
    assert rows not in (first, closer) and rows.parent.name.endswith("-l0.4")
    marked = recipe_data(tmp_path, 2, 5, 64, laid=0.4, markers=0.5)
    assert marked != rows and marked.parent.name.endswith("-l0.4-m0.5")


@pytest.mark.parametrize(
    "bad",
    [["--count", "0"], ["--imgsz", "8"], ["--val-fraction", "1.5"], ["--laid", "2"],
     ["--markers", "-0.1"]],
)
def test_synth_rejects_bad_arguments(tmp_path, bad, capsys) -> None:
    assert main(["synth", "--out", str(tmp_path), *bad]) == 2
    assert "tableref synth:" in capsys.readouterr().out


def test_card_net_and_crops() -> None:
    torch = pytest.importorskip("torch")
    import numpy as np

    from vision.detector import card_net, crop_boxes, crops_to_tensor

    frame = np.random.default_rng(0).integers(0, 255, (100, 160, 3), dtype=np.uint8)
    boxes = np.array([[10, 10, 60, 90], [-5, -5, 300, 300], [150, 90, 150, 90.5]])
    crops = crop_boxes(frame, boxes, 64)
    assert crops.shape == (3, 64, 64, 3)
    # The first crop is the box's pixels, stretched.
    import cv2

    expected = cv2.resize(frame[10:90, 10:60], (64, 64), interpolation=cv2.INTER_AREA)
    assert np.array_equal(crops[0], expected)
    net = card_net().eval()
    with torch.no_grad():
        logits = net(crops_to_tensor(crops))
    assert logits.shape == (3, len(RECIPE_CLASSES) + 1)


def test_classifier_training_runs_and_saves(tmp_path) -> None:
    pytest.importorskip("torch")
    from vision.detector_cli import train_classifier

    path = train_classifier(
        tmp_path,
        1,
        {"count": 120, "val_count": 40, "epochs": 1, "batch": 32, "size": 32},
    )
    import torch

    ckpt = torch.load(path, weights_only=True)
    assert ckpt["epoch"] == 1 and 0 <= ckpt["val_acc"] <= 1 and ckpt["size"] == 32


def test_classifier_members_are_trained_apart_and_averaged(tmp_path) -> None:
    """``members`` networks, one per seed, joined into one checkpoint; the loaded
    classifier's softmax is the mean of the members' probabilities."""
    pytest.importorskip("torch")
    import torch

    from vision.detector import crops_to_tensor, load_classifier
    from vision.detector_cli import train_classifier

    small = {"count": 120, "val_count": 40, "epochs": 1, "batch": 32, "size": 32,
             "members": 2, "seed": 5}
    path = train_classifier(tmp_path, 1, small)
    ckpt = torch.load(path, weights_only=True)
    assert len(ckpt["members"]) == 2 and ckpt["member_seeds"] == [5, 6]
    one = [load_classifier(tmp_path / f"member{i}" / "last.pt")[0] for i in (0, 1)]
    both, size = load_classifier(path)
    assert size == 32
    crops = np.random.default_rng(0).integers(0, 256, (6, 32, 32, 3), np.uint8)
    x = crops_to_tensor(crops)
    with torch.no_grad():
        mean = sum(torch.softmax(n(x), 1) for n in one) / 2
        got = torch.softmax(both(x), 1)
        assert torch.allclose(got, mean, atol=1e-5)
        # the members differ (other seeds), so the mean is neither of them
        assert not torch.allclose(torch.softmax(one[0](x), 1), mean, atol=1e-3)


def test_classifier_recipe_asks_for_every_print_variant(tmp_path, monkeypatch) -> None:
    """The shipped recipe trains on all eight print variants of the renderer."""
    pytest.importorskip("torch")
    import datasets.crops as crops
    from vision.detector_cli import CLASSIFIER_RECIPE, train_classifier

    asked: list[tuple[int, bool, float]] = []
    real = crops.crop_set

    def spy(count, seed, size=64, background_share=0.1, variants=4,  # noqa: ANN001, ANN202
            ornaments=False, covered=0.0):
        asked.append((variants, ornaments, covered))
        return real(count, seed, size, background_share, variants, ornaments, covered)

    monkeypatch.setattr(crops, "crop_set", spy)
    assert CLASSIFIER_RECIPE["variants"] == 8
    small = {"count": 60, "val_count": 20, "epochs": 1, "batch": 32, "size": 24}
    train_classifier(tmp_path, 1, small)
    shipped = bool(CLASSIFIER_RECIPE.get("ornaments", False))
    covered = float(CLASSIFIER_RECIPE.get("covered", 0.0))
    members = int(CLASSIFIER_RECIPE.get("members", 1))
    # train and val sets per member
    assert asked == [(8, shipped, covered), (8, shipped, covered)] * members
    asked.clear()
    other = {**small, "ornaments": not shipped, "covered": 0.25, "members": 1}
    train_classifier(tmp_path, 1, other)
    assert asked == [(8, not shipped, 0.25), (8, not shipped, 0.25)]


def test_int8_export_script_names_its_missing_package(monkeypatch, capsys) -> None:
    """``benchmarks/export_int8.py`` (an experiment's export, NNCF not a
    dependency) says what to install instead of failing inside Ultralytics."""
    import sys

    from benchmarks.export_int8 import main as export_int8

    monkeypatch.setitem(sys.modules, "nncf", None)  # import nncf -> ImportError
    assert export_int8(["--out", "unused"]) == 2
    assert "pip install nncf" in capsys.readouterr().err
