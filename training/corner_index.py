"""Train the corner-index reader (:mod:`vision.corner_index`) on rendered crops.

    python -m training.corner_index --out models/uno-corner.pt

:data:`CORNER_RECIPE` reproduces the shipped ``models/uno-corner.pt`` on one CPU
core (about 12 minutes on this project's 2-core machine at a load of 8-10:
2.5 minutes drawing the crops, :func:`datasets.corner_crops.corner_set`, then
six epochs). Nothing real is read.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

CORNER_RECIPE: dict = {
    "count": 16000,
    "val_count": 1200,
    "seed": 0,
    "width": 16,
    "epochs": 6,
    "batch": 128,
    "lr": 0.004,
    "label_smoothing": 0.05,
    # a shift of up to this many pixels each way, per batch
    "shift": 3,
}


def train_corner(recipe: dict | None = None, progress=print,  # noqa: ANN001
                 each_epoch=None) -> tuple[dict, float]:  # noqa: ANN001
    """Draw the recipe's crops, train :func:`vision.corner_index.corner_net`;
    returns the checkpoint and its top-1 (%) on the recipe's rendered
    validation crops (``each_epoch``: called with the checkpoint after each
    epoch)."""
    import torch
    from torch import nn

    from datasets.corner_crops import corner_set
    from vision.corner_index import SYMBOLS, corner_net, prepare

    r = {**CORNER_RECIPE, **(recipe or {})}
    t0 = time.time()
    x, y = corner_set(int(r["count"]), int(r["seed"]))
    vx, vy = corner_set(int(r["val_count"]), int(r["seed"]) + 10_000)
    progress(f"crops drawn: {len(x)} + {len(vx)} in {time.time() - t0:.0f} s")
    torch.manual_seed(int(r["seed"]))
    gen = torch.Generator().manual_seed(int(r["seed"]))
    net = corner_net(len(SYMBOLS), int(r["width"]))
    xt = prepare(x)
    yt = torch.from_numpy(y)
    steps = int(r["epochs"]) * (len(x) // int(r["batch"]))
    opt = torch.optim.AdamW(net.parameters(), lr=float(r["lr"]), weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, float(r["lr"]), total_steps=steps,
                                                pct_start=0.1)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=float(r["label_smoothing"]))
    shift = int(r["shift"])
    step = 0
    for epoch in range(int(r["epochs"])):
        net.train()
        order = torch.randperm(len(x), generator=gen)
        total = 0.0
        for i in range(0, len(x) - int(r["batch"]) + 1, int(r["batch"])):
            idx = order[i : i + int(r["batch"])]
            batch = xt[idx]
            if shift:
                dx, dy = (int(v) for v in torch.randint(-shift, shift + 1, (2,),
                                                        generator=gen))
                batch = torch.roll(batch, (dy, dx), (2, 3))
            loss = loss_fn(net(batch), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            total += loss.item()
        acc = _accuracy(net, vx, vy)
        progress(f"epoch {epoch + 1}: loss {total / max(1, len(x) // int(r['batch'])):.3f}"
                 f", rendered val top-1 {acc:.1f} % ({time.time() - t0:.0f} s)")
        if each_epoch is not None:
            each_epoch(_checkpoint(net, r))
    return _checkpoint(net, r), _accuracy(net, vx, vy)


def _checkpoint(net, r: dict) -> dict:  # noqa: ANN001
    from vision.corner_index import INPUT, REGION, SYMBOLS

    return {"state": {k: v.clone() for k, v in net.state_dict().items()},
            "symbols": list(SYMBOLS), "width": int(r["width"]), "input": list(INPUT),
            "region": list(REGION), "recipe": dict(r)}


def _accuracy(net, x: np.ndarray, y: np.ndarray) -> float:  # noqa: ANN001
    import torch

    from vision.corner_index import prepare

    net.eval()
    with torch.inference_mode():
        xt = prepare(x)
        pred = torch.cat([net(xt[i : i + 256]).argmax(1) for i in range(0, len(x), 256)])
    return 100.0 * float((pred.numpy() == y).mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    for key, value in CORNER_RECIPE.items():
        parser.add_argument("--" + key.replace("_", "-"), type=type(value), default=None)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(args.threads)
    recipe = {k: getattr(args, k) for k in CORNER_RECIPE if getattr(args, k) is not None}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    ckpt, acc = train_corner(recipe, each_epoch=lambda c: torch.save(c, args.out))
    torch.save(ckpt, args.out)
    print(f"saved {args.out} (rendered val top-1 {acc:.1f} %)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
