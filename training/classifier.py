"""The crop classifier: the network that names the card in each box the finder proposes.

:data:`WIDE_RECIPE` reproduces the shipped ``models/`` checkpoint
(``tableref train --classifier --ship``; a GPU run). :data:`HELD_RECIPE`, a
narrower network on half the crops, is ``--recipe held``, and
:data:`CLASSIFIER_RECIPE`, that without held cards, ``--recipe plain``. The
crops are rendered by :mod:`datasets.crops`, the network is
:func:`vision.detector.card_net`.
"""

from __future__ import annotations

from pathlib import Path

# The crop classifier's recipe without held cards (tableref train --classifier
# --recipe plain); HELD_RECIPE and WIDE_RECIPE below build on it.
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
    # Share of the other card crops drawn as a card held up before a webcam
    # (datasets.held_views.held_crop: tilted before a blurred person, fingers,
    # a hand over it for a share held_hand, one side up to held_tilt shorter),
    # and of the "no card" crops drawn as a person with no card (person_crop).
    "held": 0.0,
    "held_hand": 0.5,
    "held_tilt": 0.25,
    "held_background": 0.0,
    # Where the networks learn: "auto" (CUDA when there is one), "cpu", "cuda".
    # The crops and the batches' order and changes do not depend on it.
    "device": "auto",
}

# With held cards (``--recipe held``): twice the crops, a third of the card
# crops held before a webcam, a tenth of the "no card" crops a person; the
# network and the rest as CLASSIFIER_RECIPE.
HELD_RECIPE: dict = {
    **CLASSIFIER_RECIPE,
    "count": 96000,
    "held": 0.3,
    "held_background": 0.1,
}

# The held recipe at a 96 px input, from scratch (``--recipe held96``; a GPU
# run: about 2.3 times the held recipe's steps' cost). A candidate for the
# still-photo path alone (enrollment and its reads): not for ``--ship``, which
# would put it on the live video path too, whose classifier reads at 64 px.
# training.classifier_finetune is the CPU's short fine-tune at that size.
HELD96_RECIPE: dict = {**HELD_RECIPE, "size": 96}

# The shipped recipe (``tableref train --classifier``; a GPU run, hours on a
# CPU): the held recipe with twice its crops again, 0.4 of the card crops held,
# a wider network at the live path's 64 px, and batches of 256 at twice the
# learning rate.
WIDE_RECIPE: dict = {
    **HELD_RECIPE,
    "count": 192000,
    "held": 0.4,
    "width": 32,
    "batch": 256,
    "lr": 0.006,
}

#: ``--recipe`` names; SHIPPED is the one ``models/uno-cardnet.pt`` was trained with.
RECIPES = {"wide": WIDE_RECIPE, "held": HELD_RECIPE, "plain": CLASSIFIER_RECIPE,
           "held96": HELD96_RECIPE}
SHIPPED = "wide"


def _augment(batch, gen):  # noqa: ANN001, ANN202 - torch tensors
    """Cheap train-time changes to a (N, 3, H, W) batch in [0, 1] (see the recipe)."""
    import torch

    n = len(batch)
    turn = (torch.rand(n, generator=gen) < 0.5).to(batch.device)
    batch = torch.where(turn[:, None, None, None], batch.flip(2, 3), batch)
    gain = (0.85 + 0.3 * torch.rand(n, 3, 1, 1, generator=gen)).to(batch.device)
    batch = (batch * gain).clamp_(0, 1)
    dx, dy = (int(v) for v in torch.randint(-4, 5, (2,), generator=gen))
    return torch.roll(batch, shifts=(dy, dx), dims=(2, 3))


def train_classifier(
    out_dir: Path,
    threads: int = 1,
    recipe: dict | None = None,
    ship_to: Path | None = None,
    stop_after: int | None = None,
    workers: int = 1,
) -> Path:
    """Train the crop classifier on rendered card crops; returns its checkpoint.

    Deterministic from the recipe's seed (torch at ``threads`` threads on the
    CPU; on CUDA up to the GPU's own rounding). ``workers`` processes render the
    crops (the same crops as one). With
    ``members`` > 1 in the recipe, one network per seed (``seed``, ``seed + 1``,
    ...) is trained in ``out_dir/member<i>/`` and they are joined into
    ``out_dir/last.pt`` (:func:`join_classifiers`); one network is saved as
    ``out_dir/last.pt`` after each epoch with its validation accuracy.
    """
    r = {**CLASSIFIER_RECIPE, **(recipe or {})}
    members = int(r.get("members", 1))
    if members <= 1:
        path = _train_one_classifier(out_dir, threads, r, stop_after, workers)
    else:
        parts = [
            _train_one_classifier(
                out_dir / f"member{i}", threads, {**r, "seed": r["seed"] + i},
                stop_after, workers,
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


def crop_options(r: dict, workers: int = 1) -> dict:
    """The keyword arguments of ``datasets.crops.crop_set`` a recipe ``r`` asks
    for (its print variants, busy "no card" crops, covered and held shares)."""
    return {
        "variants": r.get("variants", 4),
        "ornaments": bool(r.get("ornaments", False)),
        "covered": float(r.get("covered", 0.0)),
        "held": float(r.get("held", 0.0)),
        "held_hand": float(r.get("held_hand", 0.5)),
        "held_tilt": float(r.get("held_tilt", 0.25)),
        "held_background": float(r.get("held_background", 0.0)),
        "workers": workers,
    }


def pick_device(name: str = "auto") -> str:
    """The recipe's ``device``: "auto" is CUDA when torch has it, else the CPU."""
    import torch

    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return name


def _train_one_classifier(
    out_dir: Path, threads: int, r: dict, stop_after: int | None, workers: int = 1
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
    opts = crop_options(r, workers)
    x, y = crop_set(r["count"], r["seed"], r["size"], **opts)
    xv, yv = crop_set(r["val_count"], r["seed"] + 1000, r["size"], **opts)
    print(f"crops rendered in {time.time() - t0:.0f}s ({workers} process(es))",
          flush=True)
    device = pick_device(r.get("device", "auto"))
    if device.startswith("cuda"):
        torch.backends.cudnn.deterministic = True
        torch.backends.cudnn.benchmark = False
    net = card_net(width=r.get("width", 16)).to(device)
    steps = r["epochs"] * (len(x) // r["batch"])
    opt = torch.optim.AdamW(net.parameters(), lr=r["lr"], weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=r["lr"], total_steps=steps, pct_start=0.15
    )
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=r["label_smoothing"])
    gen = torch.Generator().manual_seed(r["seed"])
    xv_t, yv_t = crops_to_tensor(xv).to(device), torch.from_numpy(yv).to(device)
    on_cpu = device == "cpu"
    if not on_cpu:  # the whole set on the GPU as bytes, a batch made there
        x_dev = torch.from_numpy(np.ascontiguousarray(x)).to(device)
        y_dev = torch.from_numpy(y).to(device)
    path = out_dir / "last.pt"
    for epoch in range(r["epochs"]):
        net.train()
        order = torch.randperm(len(x), generator=gen).numpy()
        total = torch.zeros((), device=device)
        for b in range(len(x) // r["batch"]):
            idx = np.sort(order[b * r["batch"] : (b + 1) * r["batch"]])
            if on_cpu:
                batch, target = crops_to_tensor(x[idx]), torch.from_numpy(y[idx])
            else:
                at = torch.from_numpy(idx).to(device)
                batch = x_dev[at].permute(0, 3, 1, 2).float() / 255
                target = y_dev[at]
            if r.get("augment"):
                batch = _augment(batch, gen)
            logits = net(batch)
            loss = loss_fn(logits, target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.detach()
        net.eval()
        with torch.no_grad():
            pred = torch.cat(
                [net(xv_t[i : i + 256]).argmax(1) for i in range(0, len(xv_t), 256)]
            )
        acc = float((pred == yv_t).float().mean())
        print(
            f"epoch {epoch + 1}/{r['epochs']} "
            f"loss {float(total) / max(1, len(x) // r['batch']):.3f}"
            f" val_acc {acc:.4f} ({time.time() - t0:.0f}s)",
            flush=True,
        )
        torch.save(
            {
                "state_dict": {k: v.detach().cpu()
                               for k, v in net.state_dict().items()},
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
