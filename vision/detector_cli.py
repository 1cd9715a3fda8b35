"""``tableref train``, ``tableref detect`` and ``tableref evaluate``.

``tableref train`` with no arguments reproduces the shipped model: it renders the
synthetic data set of :data:`RECIPE` (if not already there), trains yolo11n from
its yaml (no pretrained weights exist offline) with the same seed, epochs and
hyper-parameters, and with ``--ship`` copies the weights into ``models/`` and
exports the OpenVINO model the runtime loads.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The shipped model's recipe (models/MODEL_CARD.md quotes it).
RECIPE: dict = {
    "synth_count": 3150, "synth_seed": 0, "synth_imgsz": 320, "val_fraction": 0.05,
    "model": "yolo11n.yaml", "imgsz": 256, "epochs": 5, "batch": 8, "seed": 0,
    "hyp": {
        "fraction": 0.8, "optimizer": "AdamW", "lr0": 0.0015, "lrf": 0.05,
        "momentum": 0.9, "warmup_epochs": 0.3, "nbs": 8, "cos_lr": False,
        "mosaic": 0.0, "close_mosaic": 0, "fliplr": 0.0, "degrees": 0.0,
        "hsv_h": 0.01, "hsv_s": 0.5, "hsv_v": 0.4, "scale": 0.4, "translate": 0.1,
        "val": False,
    },
}


def train_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``tableref train``."""
    r = RECIPE
    parser.add_argument("--data", type=Path, default=None,
                        help="a data.yaml to train on (default: render the recipe's set)")
    parser.add_argument("--data-root", type=Path, default=ROOT / "data",
                        help="where the recipe's synthetic set is rendered")
    parser.add_argument("--synth-count", type=int, default=r["synth_count"])
    parser.add_argument("--synth-seed", type=int, default=r["synth_seed"])
    parser.add_argument("--epochs", type=int, default=r["epochs"])
    parser.add_argument("--imgsz", type=int, default=r["imgsz"])
    parser.add_argument("--batch", type=int, default=r["batch"])
    parser.add_argument("--seed", type=int, default=r["seed"])
    parser.add_argument("--threads", type=int, default=2, help="torch threads")
    parser.add_argument("--project", type=Path, default=ROOT / "runs")
    parser.add_argument("--name", default="uno-yolo11n")
    parser.add_argument("--resume", action="store_true",
                        help="resume the run PROJECT/NAME from its last.pt")
    parser.add_argument("--ship", action="store_true",
                        help="copy best.pt to models/ and export OpenVINO there")


def recipe_data(root: Path, count: int, seed: int, imgsz: int) -> Path:
    """The recipe's synthetic data set, rendered on first use."""
    from datasets.commands import write_dataset

    out = Path(root) / f"synth-s{seed}-n{count}-{imgsz}"
    yaml_path = out / "data.yaml"
    recipe = out / "recipe.json"
    if yaml_path.exists() and recipe.exists():
        done = json.loads(recipe.read_text())
        if done.get("count") == count and done.get("seed") == seed:
            return yaml_path
    return write_dataset(out, count, seed, imgsz, val_fraction=RECIPE["val_fraction"])


def train(args: argparse.Namespace) -> int:
    """Run ``tableref train``."""
    from vision.ultralytics_setup import setup

    setup(verbose=True, torch_threads=args.threads)
    data = args.data or recipe_data(args.data_root, args.synth_count, args.synth_seed,
                                    RECIPE["synth_imgsz"])
    import torch
    from ultralytics import YOLO

    run_dir = Path(args.project).resolve() / args.name
    threads = args.threads

    def fix_threads(_trainer) -> None:  # Ultralytics' device selection resets threads
        torch.set_num_threads(threads)

    if args.resume:
        model = YOLO(str(run_dir / "weights" / "last.pt"))
        model.add_callback("on_pretrain_routine_start", fix_threads)
        model.train(resume=True)
    else:
        model = YOLO(RECIPE["model"])
        model.add_callback("on_pretrain_routine_start", fix_threads)
        model.add_callback("on_train_epoch_start", fix_threads)
        model.train(
            data=str(Path(data).resolve()), epochs=args.epochs, imgsz=args.imgsz,
            batch=args.batch, seed=args.seed, deterministic=True, device="cpu", workers=0,
            amp=False, plots=False, project=str(run_dir.parent), name=run_dir.name,
            exist_ok=True, pretrained=False, cache=False, verbose=True,
            **RECIPE["hyp"])
    best = run_dir / "weights" / "best.pt"
    print(f"trained: {best}")
    if args.ship:
        ship(best, args.imgsz)
    return 0


def ship(weights: Path, imgsz: int) -> Path:
    """Copy ``weights`` to ``models/`` (stripped) and export the OpenVINO model."""
    from vision.detector import MODEL_DIR, PT_NAME
    from vision.ultralytics_setup import setup

    setup()
    from ultralytics import YOLO

    MODEL_DIR.mkdir(exist_ok=True)
    target = MODEL_DIR / PT_NAME
    shutil.copyfile(weights, target)
    model = YOLO(str(target))
    exported = Path(model.export(format="openvino", imgsz=imgsz, half=False, dynamic=False))
    final = MODEL_DIR / exported.name
    if exported.resolve() != final.resolve():
        if final.exists():
            shutil.rmtree(final)
        shutil.move(str(exported), final)
    print(f"shipped: {target} and {final}")
    return final


def detect_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``tableref detect``."""
    parser.add_argument("images", nargs="+", help="image files")
    parser.add_argument("--json", action="store_true",
                        help="JSON lines (the default; kept for clarity)")
    parser.add_argument("--model", type=Path, default=None,
                        help="an OpenVINO model folder or .pt file (default: shipped)")
    parser.add_argument("--conf", type=float, default=None, help="confidence threshold")
    parser.add_argument("--imgsz", type=int, default=None, help="inference size")


def detect(args: argparse.Namespace) -> int:
    """Run ``tableref detect``: one JSON line per image, errors per image."""
    import cv2
    import numpy as np

    from vision.detector import Detector

    try:
        kwargs = {k: v for k, v in (("conf", args.conf), ("imgsz", args.imgsz)) if v is not None}
        detector = Detector(args.model, **kwargs)
    except (FileNotFoundError, RuntimeError, ValueError) as exc:
        print(f"tableref detect: {exc}", file=sys.stderr)
        return 2
    failures = 0
    for path in args.images:
        record: dict = {"image": path}
        try:
            data = np.fromfile(path, dtype=np.uint8)
            frame = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
            if frame is None:
                raise ValueError("not a readable image")
            record["cards"] = detector.detect(frame).to_json()
        except (OSError, ValueError) as exc:
            reason = "file not found" if isinstance(exc, FileNotFoundError) else str(exc)
            record["error"] = reason
            failures += 1
        print(json.dumps(record), flush=True)
    return 1 if failures == len(args.images) else 0


def evaluate_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``tableref evaluate`` (see ``benchmarks/eval_detector.py``)."""
    from benchmarks.eval_detector import add_arguments

    add_arguments(parser)


def evaluate(args: argparse.Namespace) -> int:
    """Run ``tableref evaluate``."""
    from benchmarks.eval_detector import run

    return run(args)
