"""The crop classifier: its network, its training run and its recipe."""

from __future__ import annotations

import numpy as np
import pytest

from referee.cards import CLASSES as RECIPE_CLASSES


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
    from training.classifier import train_classifier

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
    from training.classifier import train_classifier

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
    from training.classifier import CLASSIFIER_RECIPE, train_classifier

    asked: list[tuple[int, bool, float]] = []
    real = crops.crop_set

    def spy(count, seed, size=64, background_share=0.1, variants=4,  # noqa: ANN001, ANN202
            ornaments=False, covered=0.0, **kw):
        asked.append((variants, ornaments, covered))
        return real(count, seed, size, background_share, variants, ornaments, covered,
                    **kw)

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


def test_held_recipe_keeps_the_network_and_asks_for_held_crops(tmp_path, monkeypatch) -> None:
    """HELD_RECIPE trains the plain recipe's network shape and passes its
    held-card shares to the crop renderer; the plain recipe asks for none."""
    pytest.importorskip("torch")
    import datasets.crops as crops
    from training.classifier import CLASSIFIER_RECIPE, HELD_RECIPE, train_classifier

    for key in ("width", "size", "members", "variants"):
        assert HELD_RECIPE[key] == CLASSIFIER_RECIPE[key]
    assert HELD_RECIPE["held"] > 0 and CLASSIFIER_RECIPE["held"] == 0
    asked: list[dict] = []
    real = crops.crop_set

    def spy(count, seed, size=64, **kw):  # noqa: ANN001, ANN202
        asked.append(kw)
        return real(count, seed, size, **kw)

    monkeypatch.setattr(crops, "crop_set", spy)
    small = {"count": 60, "val_count": 20, "epochs": 1, "batch": 32, "size": 24,
             "members": 1, "device": "cpu"}
    train_classifier(tmp_path, 1, {**HELD_RECIPE, **small})
    assert len(asked) == 2
    for kw in asked:
        assert kw["held"] == HELD_RECIPE["held"]
        assert kw["held_background"] == HELD_RECIPE["held_background"]
        assert kw["held_hand"] == HELD_RECIPE["held_hand"]
    asked.clear()
    train_classifier(tmp_path, 1, small)
    assert all(kw["held"] == 0 and kw["held_background"] == 0 for kw in asked)


def test_the_shipped_recipe_is_the_shipped_checkpoints() -> None:
    """models/uno-cardnet.pt was trained with RECIPES[SHIPPED]: its shape, crop
    size and member count are the recipe's, and the live path's 64 px."""
    torch = pytest.importorskip("torch")
    from training.classifier import RECIPES, SHIPPED, WIDE_RECIPE
    from vision.detector import CLASSIFIER_NAME, MODEL_DIR

    ckpt = torch.load(str(MODEL_DIR / CLASSIFIER_NAME), map_location="cpu",
                      weights_only=True)
    assert RECIPES[SHIPPED] is WIDE_RECIPE
    assert (ckpt["width"], ckpt["size"]) == (WIDE_RECIPE["width"], WIDE_RECIPE["size"]) == (32, 64)
    assert len(ckpt["members"]) == WIDE_RECIPE["members"]
    assert {k: v for k, v in ckpt["recipe"].items() if k != "seed"} == {
        k: v for k, v in WIDE_RECIPE.items() if k != "seed"}


def test_the_recipe_device_is_cuda_only_when_there_is_one(monkeypatch) -> None:
    torch = pytest.importorskip("torch")
    from training.classifier import pick_device

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert pick_device("auto") == "cpu"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert pick_device("auto") == "cuda"
    assert pick_device("cpu") == "cpu"


def test_train_classifier_flags_pick_the_recipe_device_and_workers(monkeypatch) -> None:
    """``tableref train --classifier --recipe held --device cpu --workers 3``."""
    import argparse

    import training.commands as commands
    from training.classifier import HELD_RECIPE, WIDE_RECIPE

    seen: dict = {}

    def fake(out_dir, threads=1, recipe=None, ship_to=None, stop_after=None,  # noqa: ANN001, ANN202
             workers=1):
        seen.update(recipe=recipe, workers=workers, ship_to=ship_to)
        return out_dir / "last.pt"

    monkeypatch.setattr(commands, "train_classifier", fake)
    parser = argparse.ArgumentParser()
    commands.train_arguments(parser)
    args = parser.parse_args(["--classifier", "--recipe", "held", "--device", "cpu",
                              "--workers", "3"])
    assert commands.train(args) == 0
    assert seen["recipe"] == {**HELD_RECIPE, "device": "cpu"}
    assert seen["workers"] == 3 and seen["ship_to"] is None
    args = parser.parse_args(["--classifier"])  # the shipped recipe by default
    commands.train(args)
    assert seen["recipe"] == WIDE_RECIPE and seen["workers"] == 1
    args = parser.parse_args(["--classifier", "--recipe", "plain"])
    commands.train(args)
    assert seen["recipe"]["held"] == 0 and seen["recipe"]["count"] < HELD_RECIPE["count"]


def test_the_finder_trains_where_the_recipe_says(monkeypatch) -> None:
    """A finder recipe's device in Ultralytics' words: none is the CPU, CUDA its
    first device."""
    import torch

    from training.detector import train_device

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert train_device(None) == "cpu"
    assert train_device("auto") == "cpu"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert train_device("auto") == "0"
    assert train_device("cuda") == "0"
    assert train_device("cpu") == "cpu"
