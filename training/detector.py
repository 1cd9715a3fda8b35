"""The card finder's training recipe and its Ultralytics runs.

``tableref train`` with no arguments reproduces the shipped model: it renders the
synthetic data set of :data:`RECIPE` (if not already there), trains yolo11n from
its yaml (no pretrained weights exist offline) with the same seed, epochs and
hyper-parameters; :func:`training.export.ship` then copies the weights into
``models/`` and exports the OpenVINO model the runtime loads. The recipe's
measurements are in ``models/MODEL_CARD.md``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The shipped model's recipe (models/MODEL_CARD.md quotes it, with the stages
# that were tried and not shipped): a one-class card finder trained from
# yolo11n's yaml on the seed-0 set. More stages can be appended: each starts from
# the previous stage's last.pt (with ``pretrained=True``, see :func:`train_once`).
RECIPE: dict = {
    "synth_imgsz": 320,
    "val_fraction": 0.05,
    "model": "yolo11n.yaml",
    "imgsz": 256,
    "batch": 8,
    "seed": 0,
    "hyp": {
        "fraction": 0.8,
        "optimizer": "AdamW",
        "lrf": 0.05,
        "momentum": 0.9,
        "nbs": 8,
        "cos_lr": False,
        "mosaic": 0.0,
        "close_mosaic": 0,
        "fliplr": 0.0,
        "degrees": 0.0,
        "hsv_h": 0.01,
        "hsv_s": 0.5,
        "hsv_v": 0.4,
        "scale": 0.4,
        "translate": 0.1,
        "val": False,
    },
    "stages": [
        {
            # One class ("a card"): YOLO only proposes boxes; the crop classifier
            # names them. One class learns far faster on a CPU budget than 56.
            "synth_seed": 0,
            "synth_count": 3150,
            "epochs": 12,
            "lr0": 0.001,
            "warmup_epochs": 0.3,
            "single_cls": True,
        },
    ],
}


# The still-photo finder's recipe (``tableref train --recipe photo``): the same
# network and working size as the live finder, trained from yolo11n's yaml on
# ten times the scenes, a third of the card scenes one card near the camera
# (held up before a person or photographed close, 3-95 % of the frame, tilted,
# cut by the frame's edge), a tenth table close-ups, two in five scenes cut to
# a 4:3, 3:4, 16:9 or 9:16 frame. Trained on one GPU (``device`` "auto": CUDA
# when there is one; the CPU runs the same recipe, far slower, not bit for bit):
# ``tableref train --recipe photo --workers 16``. models/MODEL_CARD.md has its
# measurements.
PHOTO_RECIPE: dict = {
    "synth_imgsz": 320,
    "val_fraction": 0.05,
    "model": "yolo11n.yaml",
    "imgsz": 256,
    "batch": 64,
    "seed": 0,
    "device": "auto",
    "hyp": {
        **RECIPE["hyp"],
        "fraction": 1.0,
        "nbs": 64,
    },
    "stages": [
        {
            "synth_seed": 11,
            "synth_count": 24000,
            "near": 0.35,
            "closeups": 0.1,
            "aspect": 0.4,
            "epochs": 24,
            # the GPU run's time budget ended it after 16 of its 24 epochs
            "stop_after": 16,
            "lr0": 0.002,
            "warmup_epochs": 1.0,
            "single_cls": True,
        },
        {
            # the learning rate brought down from where the first stage ended
            "synth_seed": 11,
            "synth_count": 24000,
            "near": 0.35,
            "closeups": 0.1,
            "aspect": 0.4,
            "epochs": 5,
            "lr0": 0.0008,
            "warmup_epochs": 0.0,
            "single_cls": True,
        },
    ],
}

#: The finder recipes of ``tableref train --recipe``.
FINDER_RECIPES: dict[str, dict] = {"live": RECIPE, "photo": PHOTO_RECIPE}


def recipe_data(
    root: Path,
    count: int,
    seed: int,
    imgsz: int,
    closeups: float = 0.0,
    laid: float = 0.0,
    markers: float = 0.0,
    near: float = 0.0,
    aspect: float = 0.0,
    workers: int = 1,
    val_fraction: float | None = None,
) -> Path:
    """A recipe's synthetic data set, rendered on first use (``workers``
    processes draw the same scenes as one)."""
    from datasets.commands import write_dataset

    tag = (
        (f"-c{closeups:g}" if closeups else "")
        + (f"-l{laid:g}" if laid else "")
        + (f"-m{markers:g}" if markers else "")
        + (f"-n{near:g}" if near else "")
        + (f"-a{aspect:g}" if aspect else "")
    )
    out = Path(root) / f"synth-s{seed}-n{count}-{imgsz}{tag}"
    yaml_path = out / "data.yaml"
    recipe = out / "recipe.json"
    if yaml_path.exists() and recipe.exists():
        done = json.loads(recipe.read_text())
        if (done.get("count") == count and done.get("seed") == seed
                and done.get("closeups", 0.0) == closeups
                and done.get("laid", 0.0) == laid
                and done.get("markers", 0.0) == markers
                and done.get("near", 0.0) == near
                and done.get("aspect", 0.0) == aspect):
            return yaml_path
    return write_dataset(
        out, count, seed, imgsz,
        val_fraction=RECIPE["val_fraction"] if val_fraction is None else val_fraction,
        closeups=closeups,
        laid=laid,
        markers=markers,
        near=near,
        aspect=aspect,
        workers=workers,
    )


def train_device(wanted: str | None) -> str:
    """Ultralytics' device for a recipe's ``device``
    (:func:`training.classifier.pick_device`; none given: the CPU), CUDA named
    as its first device, "0"."""
    from training.classifier import pick_device

    device = pick_device(wanted or "cpu")
    return "0" if device == "cuda" else device


def train_once(
    init: str,
    data: Path,
    run_dir: Path,
    epochs: int,
    args: argparse.Namespace,
    stage: dict,
    stop_after: int | None,
    recipe: dict | None = None,
) -> Path:
    """One Ultralytics training run of ``recipe`` (default :data:`RECIPE`);
    returns its last.pt."""
    import time

    import torch
    from ultralytics import YOLO

    recipe = RECIPE if recipe is None else recipe
    threads = args.threads
    device = train_device(getattr(args, "device", None) or recipe.get("device"))
    # data-loading processes: none on the CPU recipe (bit-for-bit reruns)
    loaders = int(getattr(args, "workers", 1)) if device != "cpu" else 0
    budget = getattr(args, "stop_at_s", None)
    start = time.time()

    def fix_threads(_trainer) -> None:  # Ultralytics' device selection resets threads
        torch.set_num_threads(threads)

    def stop_early(trainer) -> None:
        if stop_after is not None and trainer.epoch + 1 >= stop_after:
            trainer.stop = True
        if budget is not None and time.time() - start >= budget:
            print(f"stopped after epoch {trainer.epoch + 1} (--stop-at-s {budget:g})")
            trainer.stop = True

    model = YOLO(init)
    model.add_callback("on_pretrain_routine_start", fix_threads)
    model.add_callback("on_train_epoch_start", fix_threads)
    model.add_callback("on_fit_epoch_end", stop_early)
    hyp = {
        **recipe["hyp"],
        "lr0": stage["lr0"],
        "warmup_epochs": stage["warmup_epochs"],
        "single_cls": bool(stage.get("single_cls", False)),
    }
    model.train(
        data=str(Path(data).resolve()),
        epochs=epochs,
        imgsz=args.imgsz,
        batch=args.batch,
        seed=args.seed,
        deterministic=True,
        device=device,
        workers=loaders,
        amp=False,
        plots=False,
        project=str(run_dir.parent),
        name=run_dir.name,
        exist_ok=True,
        cache=False,
        verbose=True,
        # A .pt start keeps its weights (False would start from scratch).
        pretrained=str(init).endswith(".pt"),
        **hyp,
    )
    return run_dir / "weights" / "last.pt"
