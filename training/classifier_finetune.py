"""The crop classifier fine-tuned at a larger input size (a still-photo candidate).

:func:`vision.detector.card_net` ends in global average pooling, so a
checkpoint's weights run at any input size; the runtime cuts crops at the
checkpoint's ``size``. :data:`FINETUNE_RECIPE` starts every member of the
shipped classifier (``models/uno-cardnet.pt``) and trains it further on
rendered crops cut at ``size`` px (:func:`datasets.crops.crop_set`, the held
recipe's mix with ``held`` of the card crops held before a webcam): the digit
of a card held at arm's length keeps more pixels than at 64 px. The crops are
rendered once and every member learns from them (its own order and on-the-fly
changes, seeded ``seed + i``); the members are joined as
:func:`training.classifier.join_classifiers` does. Run on the CPU::

    nice -n 10 .venv/bin/python -m training.classifier_finetune OUT_DIR [--threads 1]

Nothing here reads a real photo. The result is not shipped by this module: it
is a candidate for the still-photo path (``tableref detect``, enrollment and
its reads), never the live video path, whose cost stays at 64 px.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from training.classifier import (
    HELD_RECIPE,
    _augment,
    crop_options,
    join_classifiers,
    pick_device,
)

ROOT = Path(__file__).resolve().parents[1]

#: The fine-tune at 96 px from the shipped weights (CPU, one thread: about 30
#: crops a second to render and 0.6 s a batch of 64 to learn on a quiet core).
FINETUNE_RECIPE: dict = {
    **HELD_RECIPE,
    # the checkpoint every member starts from (its members, in order)
    "base": "models/uno-cardnet.pt",
    "size": 96,
    "count": 8000,
    "val_count": 570,
    # crops and batches of their own (not the base recipe's seeds 0 and 1000)
    "seed": 2000,
    "epochs": 3,
    # one-cycle peak; the base learnt at 0.003 from scratch
    "lr": 0.001,
    "held": 0.4,
    "held_background": 0.1,
    "device": "cpu",
}


def finetune_classifier(
    out_dir: Path,
    threads: int = 1,
    recipe: dict | None = None,
    workers: int = 1,
    stop_after: int | None = None,
) -> Path:
    """Fine-tune every member of the recipe's ``base`` at its ``size``; returns
    ``out_dir/last.pt`` (the members joined; the format of
    :func:`vision.detector.load_classifier`, ``size`` the new input size).
    After each epoch the members so far are saved as ``member<i>/last.pt``."""
    import numpy as np
    import torch

    from datasets.crops import crop_set
    from vision.detector import card_net, crops_to_tensor

    r = {**FINETUNE_RECIPE, **(recipe or {})}
    torch.set_num_threads(threads)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    base_path = Path(r["base"])
    if not base_path.is_absolute():
        base_path = ROOT / base_path
    base = torch.load(str(base_path), map_location="cpu", weights_only=True)
    states = base.get("members") or [base["state_dict"]]
    width = int(base.get("width", 16))
    t0 = time.time()
    opts = crop_options(r, workers)
    x, y = crop_set(r["count"], r["seed"], r["size"], **opts)
    xv, yv = crop_set(r["val_count"], r["seed"] + 1000, r["size"], **opts)
    print(f"{len(x)} + {len(xv)} crops at {r['size']} px rendered in "
          f"{time.time() - t0:.0f}s", flush=True)
    device = pick_device(r.get("device", "cpu"))
    xv_t, yv_t = crops_to_tensor(xv).to(device), torch.from_numpy(yv).to(device)
    parts = []
    for i, state in enumerate(states):
        seed = int(r["seed"]) + i
        torch.manual_seed(seed)
        net = card_net(width=width)
        net.load_state_dict(state)
        net.to(device)
        steps_per_epoch = len(x) // r["batch"]
        opt = torch.optim.AdamW(net.parameters(), lr=r["lr"], weight_decay=1e-4)
        sched = torch.optim.lr_scheduler.OneCycleLR(
            opt, max_lr=r["lr"], total_steps=r["epochs"] * steps_per_epoch,
            pct_start=0.15,
        )
        loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=r["label_smoothing"])
        gen = torch.Generator().manual_seed(seed)
        path = out_dir / f"member{i}" / "last.pt"
        path.parent.mkdir(parents=True, exist_ok=True)
        for epoch in range(r["epochs"]):
            net.train()
            order = torch.randperm(len(x), generator=gen).numpy()
            total = 0.0
            for b in range(steps_per_epoch):
                idx = np.sort(order[b * r["batch"] : (b + 1) * r["batch"]])
                batch = crops_to_tensor(x[idx]).to(device)
                target = torch.from_numpy(y[idx]).to(device)
                if r.get("augment"):
                    batch = _augment(batch, gen)
                loss = loss_fn(net(batch), target)
                opt.zero_grad()
                loss.backward()
                opt.step()
                sched.step()
                total += float(loss.detach())
            net.eval()
            with torch.no_grad():
                pred = torch.cat([net(xv_t[j : j + 256]).argmax(1)
                                  for j in range(0, len(xv_t), 256)])
            acc = float((pred == yv_t).float().mean())
            print(f"member {i} epoch {epoch + 1}/{r['epochs']} "
                  f"loss {total / max(1, steps_per_epoch):.3f} val_acc {acc:.4f} "
                  f"({time.time() - t0:.0f}s)", flush=True)
            torch.save(
                {
                    "state_dict": {k: v.detach().cpu()
                                   for k, v in net.state_dict().items()},
                    "recipe": {**r, "seed": seed},
                    "epoch": epoch + 1,
                    "val_acc": acc,
                    "size": r["size"],
                    "width": width,
                },
                path,
            )
            if stop_after is not None and epoch + 1 >= stop_after:
                break
        parts.append(path)
    return join_classifiers(parts, out_dir / "last.pt", r)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder for the members and last.pt")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes rendering the crops (the same crops)")
    parser.add_argument("--size", type=int, default=None, help="input size, px")
    parser.add_argument("--count", type=int, default=None, help="training crops")
    parser.add_argument("--epochs", type=int, default=None)
    parser.add_argument("--lr", type=float, default=None)
    parser.add_argument("--held", type=float, default=None)
    args = parser.parse_args(argv)
    over = {k: v for k, v in {"size": args.size, "count": args.count,
                              "epochs": args.epochs, "lr": args.lr,
                              "held": args.held}.items() if v is not None}
    path = finetune_classifier(args.out, args.threads, over, args.workers)
    print(path)


if __name__ == "__main__":
    main()
