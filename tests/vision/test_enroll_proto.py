"""The class-mean head folded into an enrolled classifier (EnrollConfig.proto)."""

from __future__ import annotations

import numpy as np
import pytest


def _head(n_classes: int = 4, dim: int = 6):  # noqa: ANN202
    """A head like the crop classifier's after its stem: features -> embedding
    (the identity here) -> a last layer that knows nothing (zero weights)."""
    import torch

    head = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Dropout(0.1),
                               torch.nn.Linear(dim, n_classes)).eval()
    with torch.no_grad():
        head[-1].weight.zero_()
        head[-1].bias.zero_()
    return head


def _clusters(n_classes: int = 4, dim: int = 6, each: int = 30, seed: int = 0):
    import torch

    gen = torch.Generator().manual_seed(seed)
    centres = torch.randn(n_classes, dim, generator=gen) * 3
    y = torch.arange(n_classes).repeat_interleave(each)
    x = centres[y] + torch.randn(len(y), dim, generator=gen) * 0.5
    return x, y, centres


def test_the_folded_class_means_read_each_crop_as_its_nearest_mean() -> None:
    import torch

    from vision.enroll import _fold_class_means

    x, y, _ = _clusters()
    head = _head()
    with torch.no_grad():
        assert (head(x).argmax(1) == y).float().mean() < 0.5  # knows nothing
        _fold_class_means(head, x, y, 1.0)
        logits = head(x)
    assert bool((logits.argmax(1) == y).all())
    # the logits are the Gaussian log-likelihoods of a shared variance: the
    # difference of two classes' logits is the difference of squared distances
    means = torch.stack([x[y == k].mean(0) for k in range(4)])
    var = ((x - means[y]) ** 2).mean()
    d2 = ((x[:, None, :] - means[None]) ** 2).sum(2)
    expected = -d2 / (2 * var)
    diff = (logits - logits[:, :1]) - (expected - expected[:, :1])
    assert float(diff.abs().max()) < 1e-3


def test_the_weight_scales_the_class_mean_logits_added_to_the_classifiers() -> None:
    import torch

    from vision.enroll import _fold_class_means

    x, y, _ = _clusters(seed=1)
    base = _head()
    with torch.no_grad():
        base[-1].weight.normal_()
        base[-1].bias.normal_()
    start = base(x).detach()
    one, half = _head(), _head()
    one.load_state_dict(base.state_dict())
    half.load_state_dict(base.state_dict())
    with torch.no_grad():
        _fold_class_means(one, x, y, 1.0)
        _fold_class_means(half, x, y, 0.5)
        added_one, added_half = one(x) - start, half(x) - start
    assert torch.allclose(added_half, 0.5 * added_one, atol=1e-4)


def test_a_class_without_crops_takes_the_mean_of_every_crop() -> None:
    import torch

    from vision.enroll import _fold_class_means

    x, y, _ = _clusters(n_classes=3, seed=2)
    head = _head(n_classes=4)  # class 3 has no crop
    with torch.no_grad():
        _fold_class_means(head, x, y, 1.0)
        var = ((x - torch.stack([x[y == k].mean(0) for k in range(3)])[y]) ** 2).mean()
    assert torch.allclose(head[-1].weight[3], x.mean(0) / var, atol=1e-4)
    with torch.no_grad():
        assert bool((head(x).argmax(1) == y).all())  # never the empty class


def test_proto_is_an_enroll_setting_off_by_default() -> None:
    from vision.enroll import EnrollConfig

    assert EnrollConfig().proto == 0.0
    assert EnrollConfig(proto=0.05).proto == 0.05


@pytest.mark.parametrize("proto", [0.0, 0.05])
def test_fine_tune_folds_the_class_means_into_the_last_layer_only(proto) -> None:
    import torch

    from tests.vision.test_enroll import _close_up
    from vision.enroll import EnrollConfig, Shot, fine_tune

    shots = []
    for i, label in enumerate(("red-3", "red-8", "blue-draw2", "blue-reverse")):
        frame, box = _close_up(label, 0.8, seed=i)
        shots.append(Shot(label, frame, box, f"{label}.png"))
    config = EnrollConfig(steps=2, views=4, threads=1, proto=0.0)
    plain = fine_tune(shots, config=config, progress=lambda _: None)
    folded = fine_tune(shots, config=EnrollConfig(steps=2, views=4, threads=1,
                                                  proto=proto),
                       progress=lambda _: None)
    assert folded.checkpoint["enroll"]["proto"] == proto
    for a, b in zip(plain.checkpoint["members"], folded.checkpoint["members"]):
        assert list(a) == list(b)  # the checkpoint's format stays
        last = [k for k in a if k.endswith(".weight")][-1]
        for key in a:
            same = torch.equal(a[key], b[key])
            if proto and key in (last, last[:-6] + "bias"):
                assert not same
            else:
                assert same, key
    labels = folded.checkpoint["labels"] + ["no card"]
    assert np.isfinite([float(v.abs().max()) for m in folded.checkpoint["members"]
                        for v in m.values() if v.is_floating_point()]).all()
    assert len(labels) == folded.checkpoint["members"][0][last].shape[0]


def test_eval_enroll_passes_the_class_mean_weight(monkeypatch) -> None:
    import benchmarks.eval_enroll as ev

    seen = []

    def stop(shots, config, folder, base=None):  # noqa: ANN001, ANN202
        seen.append(config)
        raise SystemExit(0)

    monkeypatch.setattr(ev, "enrolled_detector", stop)
    monkeypatch.setattr(ev, "photos", lambda data, split: [])
    with pytest.raises(SystemExit):
        ev.main(["--tune", "--proto", "0.05", "--repeats", "1", "--no-zero"])
    assert seen and seen[0].proto == 0.05
