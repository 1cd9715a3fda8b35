"""The corner-index reader's recipe (training.corner_index) on CPU."""

from __future__ import annotations


def test_the_recipe_trains_a_reader_the_runtime_loads(tmp_path) -> None:  # noqa: ANN001
    """A tiny run of the recipe writes a checkpoint that
    vision.corner_index.CornerReader loads and runs, its symbols and crop
    geometry recorded beside the weights."""
    import numpy as np
    import torch

    from training.corner_index import CORNER_RECIPE, main
    from vision.corner_index import INPUT, REGION, SYMBOLS, CornerReader

    assert CORNER_RECIPE["count"] >= 10_000  # the shipped recipe, not a toy
    out = tmp_path / "corner.pt"
    assert main(["--out", str(out), "--count", "64", "--val-count", "16",
                 "--epochs", "1", "--batch", "32"]) == 0
    ckpt = torch.load(out, weights_only=False)
    assert ckpt["symbols"] == list(SYMBOLS)
    assert ckpt["input"] == list(INPUT) and ckpt["region"] == list(REGION)
    probs = CornerReader.load(out).read(np.zeros((3, INPUT[1], INPUT[0], 3), np.uint8))
    assert probs.shape == (3, len(SYMBOLS))
    np.testing.assert_allclose(probs.sum(1), 1, rtol=1e-5)
