"""``tableref train`` arguments and the card finder's recipe (no training here)."""

from __future__ import annotations

import argparse

import pytest

from tableref.cli import main
from training.commands import train_arguments
from pathlib import Path

from training.detector import PHOTO_RECIPE, RECIPE, recipe_data


def test_heldout_seed_is_not_a_training_seed() -> None:
    from training.commands import evaluate_arguments

    parser = argparse.ArgumentParser()
    evaluate_arguments(parser)
    heldout = parser.parse_args([]).heldout_seed
    assert heldout not in {stage["synth_seed"] for stage in RECIPE["stages"]}


def test_recipe_is_offline_and_deterministic_by_construction() -> None:
    assert RECIPE["model"].endswith(".yaml")  # from scratch, nothing downloaded
    assert RECIPE["hyp"]["fliplr"] == 0.0  # mirrored digits never occur on a table
    # No stage repeats an earlier one: a fine-tuning stage gets fresh scenes.
    runs = [(stage["synth_seed"], stage.get("single_cls", False))
            for stage in RECIPE["stages"]]
    assert len(set(runs)) == len(runs)
    assert RECIPE["stages"][-1].get("single_cls")  # the shipped card finder


def test_defaults_reproduce_the_recipe(monkeypatch) -> None:
    """With no arguments ``tableref train`` runs the live finder's recipe, with
    ``--recipe photo`` the still-photo finder's, each at its own size, batch
    and seed."""
    from training import commands

    seen = []
    monkeypatch.setattr(commands, "train_once",
                        lambda init, data, run, epochs, args, stage, stop, recipe:
                        seen.append((args.imgsz, args.batch, args.seed, epochs,
                                     recipe)) or run / "weights" / "last.pt")
    monkeypatch.setattr(commands, "recipe_data", lambda *a, **k: Path("d.yaml"))
    monkeypatch.setattr("vision.ultralytics_setup.setup", lambda **k: None)
    for chosen, recipe in (([], RECIPE), (["--recipe", "photo"], PHOTO_RECIPE)):
        parser = argparse.ArgumentParser()
        train_arguments(parser)
        args = parser.parse_args(chosen)
        assert args.stages is None and args.stop_after is None
        assert commands.train(args) == 0
        assert seen[-1] == (recipe["imgsz"], recipe["batch"], recipe["seed"],
                            recipe["stages"][-1]["epochs"], recipe)
    assert PHOTO_RECIPE["batch"] != RECIPE["batch"]


def test_photo_recipe_renders_near_cards_and_other_frames(tmp_path) -> None:
    """The still-photo finder's scenes hold cards near the camera and frames of
    other shapes; its seed is neither a live stage's nor a held-out set's."""
    stage = PHOTO_RECIPE["stages"][-1]
    assert stage["near"] > 0 and stage["aspect"] > 0 and stage["single_cls"]
    assert stage["synth_seed"] not in {s["synth_seed"] for s in RECIPE["stages"]}
    assert stage["synth_seed"] not in (1001, 1002)
    near = recipe_data(tmp_path, 2, 5, 64, near=0.5, aspect=0.4, workers=2)
    assert near.parent.name.endswith("-n0.5-a0.4")


def test_recipes_belong_to_their_network(tmp_path, capsys) -> None:
    assert main(["train", "--recipe", "held", "--project", str(tmp_path)]) == 2
    assert "--classifier" in capsys.readouterr().err
    assert main(["train", "--classifier", "--recipe", "photo",
                 "--project", str(tmp_path)]) == 2
    assert "finder" in capsys.readouterr().err


def test_a_classifier_of_another_crop_size_is_not_shipped(tmp_path, capsys) -> None:
    """The 96 px recipe trains (a GPU job) but cannot replace the live
    classifier, whose crop size every enrolled deck and the live cost follow."""
    assert main(["train", "--classifier", "--recipe", "held96", "--ship",
                 "--project", str(tmp_path)]) == 2
    assert "96 px" in capsys.readouterr().err
    assert not (tmp_path / "cardnet").exists()


def test_a_stage_starting_from_weights_keeps_them(tmp_path, monkeypatch) -> None:
    """Ultralytics drops a checkpoint's weights when told ``pretrained=False``: a
    fine-tuning stage must say True, a stage from the yaml may say either."""
    import ultralytics

    from training import detector

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
    args.seed, args.batch, args.imgsz = RECIPE["seed"], RECIPE["batch"], RECIPE["imgsz"]
    for init in ("yolo11n.yaml", str(tmp_path / "last.pt")):
        detector.train_once(init, tmp_path / "d.yaml", tmp_path / "run", 1, args,
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
