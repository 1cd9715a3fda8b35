"""The crop classifier fine-tuned at a larger input size (training.classifier_finetune)."""

from __future__ import annotations

import pytest


def _base(tmp_path, torch):  # noqa: ANN001, ANN202
    """A small two-member checkpoint at 32 px to start from."""
    from vision.detector import card_net

    torch.manual_seed(0)
    states = [card_net(width=4).state_dict() for _ in range(2)]
    path = tmp_path / "base.pt"
    torch.save({"members": states, "size": 32, "width": 4, "val_acc": 0.0,
                "recipe": {}}, path)
    return path, states


def test_finetune_starts_from_each_member_and_records_the_new_size(tmp_path) -> None:
    """Every member of the base is the start of its own fine-tune (with no
    learning rate its weights stay the base's), and the joined checkpoint runs
    at the recipe's size."""
    torch = pytest.importorskip("torch")
    from training.classifier_finetune import finetune_classifier
    from vision.detector import load_classifier

    base, states = _base(tmp_path, torch)
    path = finetune_classifier(
        tmp_path / "out", 1,
        {"base": str(base), "size": 48, "count": 64, "val_count": 16, "epochs": 1,
         "batch": 32, "lr": 0.0},
    )
    ckpt = torch.load(path, weights_only=True)
    assert ckpt["size"] == 48 and ckpt["width"] == 4 and len(ckpt["members"]) == 2
    for got, start in zip(ckpt["members"], states):
        for name, value in start.items():
            if name.endswith(("weight", "bias")):
                assert torch.equal(got[name], value), name
    assert not torch.equal(ckpt["members"][0]["0.weight"], ckpt["members"][1]["0.weight"])
    net, size = load_classifier(path)
    assert size == 48
    with torch.no_grad():
        assert net(torch.rand(2, 3, 48, 48)).shape[0] == 2


def test_finetune_learns(tmp_path) -> None:
    """With a learning rate the members move away from the base."""
    torch = pytest.importorskip("torch")
    from training.classifier_finetune import finetune_classifier

    base, states = _base(tmp_path, torch)
    path = finetune_classifier(
        tmp_path / "out", 1,
        {"base": str(base), "size": 40, "count": 64, "val_count": 16, "epochs": 1,
         "batch": 32, "lr": 0.01},
    )
    ckpt = torch.load(path, weights_only=True)
    assert not torch.equal(ckpt["members"][0]["0.weight"], states[0]["0.weight"])


def test_the_held_recipe_at_96_px_is_the_held_recipe_but_its_size() -> None:
    from training.classifier import HELD_RECIPE, RECIPES

    r = RECIPES["held96"]
    assert r["size"] == 96
    assert {k: v for k, v in r.items() if k != "size"} == \
        {k: v for k, v in HELD_RECIPE.items() if k != "size"}
