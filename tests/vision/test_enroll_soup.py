"""A soup of fine-tunings (EnrollConfig.soup): the mean of runs with other seeds."""

from __future__ import annotations

import numpy as np


def _shots():
    from tests.vision.test_enroll import _close_up
    from vision.enroll import Shot

    out = []
    for i, label in enumerate(("blue-4", "red-7")):
        frame, box = _close_up(label, 0.8, seed=20 + i)
        out.append(Shot(label, frame, box, f"{label}.jpg"))
    return out


def test_a_soup_is_the_mean_of_the_fine_tunings_with_other_seeds() -> None:
    from dataclasses import replace

    from vision.enroll import SOUP_SEED_STEP, EnrollConfig, fine_tune

    shots = _shots()
    config = EnrollConfig(steps=3, views=4, threads=1, seed=5)
    quiet = {"progress": lambda _: None}
    one = fine_tune(shots, config=config, **quiet).checkpoint["members"]
    other = fine_tune(shots, config=replace(config, seed=5 + SOUP_SEED_STEP),
                      **quiet).checkpoint["members"]
    soup = fine_tune(shots, config=replace(config, soup=2), **quiet).checkpoint
    assert soup["enroll"]["soup"] == 2
    assert len(soup["members"]) == len(one)
    moved = 0.0
    for a, b, s in zip(one, other, soup["members"]):
        assert set(s) == set(a)
        for k in a:
            if a[k].is_floating_point():
                assert np.allclose(s[k].numpy(), ((a[k] + b[k]) / 2).numpy(), atol=1e-6)
                moved += float((a[k] - b[k]).abs().sum())
            else:
                assert bool((s[k] == a[k]).all())
    assert moved > 0  # the two runs differ: the soup is not one of them


def test_one_fine_tuning_is_the_default() -> None:
    from vision.enroll import EnrollConfig

    assert EnrollConfig().soup == 1
