"""The crop classifier: the network that names the card in each box the finder proposes.

:data:`CLASSIFIER_RECIPE` reproduces the shipped ``models/`` checkpoint
(``tableref train --classifier --ship``); the crops are rendered by
:mod:`datasets.crops`, the network is :func:`vision.detector.card_net`.
"""

from __future__ import annotations

from pathlib import Path

# The crop classifier's recipe (tableref train --classifier).
CLASSIFIER_RECIPE: dict = {
    "count": 48000,
    "val_count": 1140,
    "seed": 0,
    "size": 64,
    "width": 24,
    "epochs": 12,
    "batch": 64,
    "lr": 0.003,
    "label_smoothing": 0.05,
    # Print variants of the renderer used (8: also the four in another type).
    "variants": 8,
    # On-the-fly: half the batch turned 180 degrees (every card face reads the
    # same both ways up), per-channel gain 0.85-1.15, a shift of up to 4 px.
    "augment": True,
    # Busier "no card" crops: ornamental tiles, tread plate, lattices, clutter.
    "ornaments": True,
    # Share of card crops showing a card under others (datasets.crops.covered_crop);
    # off in the shipped recipe (models/MODEL_CARD.md gives what 0.2 measured).
    "covered": 0.0,
    # Networks trained with seeds seed, seed + 1, ...; the runtime averages their
    # probabilities (one retrain alone moves the real-photo scores by points).
    "members": 2,
}


def _augment(batch, gen):  # noqa: ANN001, ANN202 - torch tensors
    """Cheap train-time changes to a (N, 3, H, W) batch in [0, 1] (see the recipe)."""
    import torch

    n = len(batch)
    turn = torch.rand(n, generator=gen) < 0.5
    batch = torch.where(turn[:, None, None, None], batch.flip(2, 3), batch)
    gain = 0.85 + 0.3 * torch.rand(n, 3, 1, 1, generator=gen)
    batch = (batch * gain).clamp_(0, 1)
    dx, dy = (int(v) for v in torch.randint(-4, 5, (2,), generator=gen))
    return torch.roll(batch, shifts=(dy, dx), dims=(2, 3))


def train_classifier(
    out_dir: Path,
    threads: int = 1,
    recipe: dict | None = None,
    ship_to: Path | None = None,
    stop_after: int | None = None,
) -> Path:
    """Train the crop classifier on rendered card crops; returns its checkpoint.

    Deterministic from the recipe's seed (torch at ``threads`` threads). With
    ``members`` > 1 in the recipe, one network per seed (``seed``, ``seed + 1``,
    ...) is trained in ``out_dir/member<i>/`` and they are joined into
    ``out_dir/last.pt`` (:func:`join_classifiers`); one network is saved as
    ``out_dir/last.pt`` after each epoch with its validation accuracy.
    """
    r = {**CLASSIFIER_RECIPE, **(recipe or {})}
    members = int(r.get("members", 1))
    if members <= 1:
        path = _train_one_classifier(out_dir, threads, r, stop_after)
    else:
        parts = [
            _train_one_classifier(
                out_dir / f"member{i}", threads, {**r, "seed": r["seed"] + i},
                stop_after,
            )
            for i in range(members)
        ]
        path = join_classifiers(parts, out_dir / "last.pt", r)
    if ship_to is not None:
        import shutil

        shutil.copyfile(path, ship_to)
    return path


def join_classifiers(parts: list[Path], out: Path, recipe: dict | None = None) -> Path:
    """Join crop classifiers of one shape into one checkpoint whose ``members``
    the runtime averages (:func:`vision.detector.load_classifier`)."""
    import torch

    ckpts = [torch.load(str(p), map_location="cpu", weights_only=True) for p in parts]
    for c in ckpts[1:]:
        if (c["size"], c["width"]) != (ckpts[0]["size"], ckpts[0]["width"]):
            raise ValueError("classifiers of different shapes cannot be joined")
    accs = [float(c["val_acc"]) for c in ckpts]
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(
        {
            "members": [c["state_dict"] for c in ckpts],
            "recipe": recipe if recipe is not None else ckpts[0]["recipe"],
            "member_seeds": [c["recipe"]["seed"] for c in ckpts],
            "epoch": min(int(c["epoch"]) for c in ckpts),
            "val_acc": sum(accs) / len(accs),
            "member_val_acc": accs,
            "size": ckpts[0]["size"],
            "width": ckpts[0]["width"],
        },
        out,
    )
    return out


def _train_one_classifier(
    out_dir: Path, threads: int, r: dict, stop_after: int | None
) -> Path:
    """One network of the recipe ``r`` (its ``seed``) into ``out_dir/last.pt``."""
    import time

    import numpy as np
    import torch

    from datasets.crops import crop_set
    from vision.detector import card_net, crops_to_tensor

    torch.set_num_threads(threads)
    torch.manual_seed(r["seed"])
    out_dir.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    variants = r.get("variants", 4)
    ornaments = bool(r.get("ornaments", False))
    covered = float(r.get("covered", 0.0))
    x, y = crop_set(r["count"], r["seed"], r["size"], variants=variants,
                    ornaments=ornaments, covered=covered)
    xv, yv = crop_set(r["val_count"], r["seed"] + 1000, r["size"], variants=variants,
                      ornaments=ornaments, covered=covered)
    print(f"crops rendered in {time.time() - t0:.0f}s", flush=True)
    net = card_net(width=r.get("width", 16))
    steps = r["epochs"] * (len(x) // r["batch"])
    opt = torch.optim.AdamW(net.parameters(), lr=r["lr"], weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=r["lr"], total_steps=steps, pct_start=0.15
    )
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=r["label_smoothing"])
    gen = torch.Generator().manual_seed(r["seed"])
    xv_t, yv_t = crops_to_tensor(xv), torch.from_numpy(yv)
    path = out_dir / "last.pt"
    for epoch in range(r["epochs"]):
        net.train()
        order = torch.randperm(len(x), generator=gen).numpy()
        total = 0.0
        for b in range(len(x) // r["batch"]):
            idx = np.sort(order[b * r["batch"] : (b + 1) * r["batch"]])
            batch = crops_to_tensor(x[idx])
            if r.get("augment"):
                batch = _augment(batch, gen)
            logits = net(batch)
            loss = loss_fn(logits, torch.from_numpy(y[idx]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        net.eval()
        with torch.no_grad():
            pred = torch.cat(
                [net(xv_t[i : i + 256]).argmax(1) for i in range(0, len(xv_t), 256)]
            )
        acc = float((pred == yv_t).float().mean())
        print(
            f"epoch {epoch + 1}/{r['epochs']} "
            f"loss {total / max(1, len(x) // r['batch']):.3f}"
            f" val_acc {acc:.4f} ({time.time() - t0:.0f}s)",
            flush=True,
        )
        torch.save(
            {
                "state_dict": net.state_dict(),
                "recipe": r,
                "epoch": epoch + 1,
                "val_acc": acc,
                "size": r["size"],
                "width": r.get("width", 16),
            },
            path,
        )
        if stop_after is not None and epoch + 1 >= stop_after:
            break
    return path
