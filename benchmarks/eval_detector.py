"""Measure the card detector: real photos, synthetic held-out mAP, hard pairs.

    .venv/bin/python benchmarks/eval_detector.py [--real DIR] [--out REPORT.json]
    tableref evaluate ...            # the same code

1. real-uno-dev (``../shared/datasets/real-uno-dev``; evaluation only): per split,
   image-level identity = the top detection's label vs the image's card (its
   label file's class, mapped from ``source-data.yaml`` names to ours); colour and
   value accuracy; the share of card images with no detection; on the empty
   images (label file empty or missing) the share with any detection.
2. Synthetic held-out set (a seed never used for training): mAP50 and mAP50-95
   with Ultralytics' validator on the .pt weights.
3. Hard pairs on purpose-made synthetic single-card images: red vs yellow under
   warm light, blue vs green under a teal cast, 6 vs 9 at any rotation, skip vs
   reverse, wild vs wild-draw4.
Prints the numbers against the goals and writes a JSON report.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from referee.cards import CLASSES, COLORS  # noqa: E402

REAL_DEFAULT = ROOT.parent / "shared" / "datasets" / "real-uno-dev"
GOALS = {"test_top1": 0.95, "valid_top1": 0.97, "empty_false_rate": 0.02,
         "synthetic_map50_95": 0.90}
HARD_PAIRS = {
    "red-vs-yellow-warm": ({"red", "yellow"}, None, "warm", "colour"),
    "blue-vs-green-teal": ({"blue", "green"}, None, "teal", "colour"),
    "6-vs-9-rotated": (None, ("6", "9"), None, "value"),
    "skip-vs-reverse": (None, ("skip", "reverse"), None, "value"),
    "wild-vs-wild-draw4": (None, ("wild", "wild-draw4"), None, "label"),
}


def source_label(name: str) -> str:
    """real-uno-dev class name (``blue draw two``, ``draw four``) -> our label."""
    words = name.strip().lower().split()
    if words == ["wild"]:
        return "wild"
    if words == ["draw", "four"]:
        return "wild-draw4"
    colour, rest = words[0], " ".join(words[1:])
    value = {"draw two": "draw2", "reverse": "reverse", "skip": "skip"}.get(rest, rest)
    label = f"{colour}-{value}"
    if label not in CLASSES:
        raise ValueError(f"cannot map real-uno-dev class {name!r}")
    return label


def read_source_names(real: Path) -> list[str]:
    """Class names of ``source-data.yaml`` in id order, as our labels."""
    import yaml

    data = yaml.safe_load((real / "source-data.yaml").read_text())
    names = data["names"]
    names = [names[i] for i in sorted(names)] if isinstance(names, dict) else names
    return [source_label(n) for n in names]


def _colour_value(label: str) -> tuple[str | None, str]:
    colour, _, value = label.partition("-")
    return (colour, value) if colour in COLORS else (None, label)


def eval_real(detector, real: Path, splits: list[str]) -> dict:
    """Image-level identity and false detections on real-uno-dev."""
    import cv2

    names = read_source_names(real)
    report: dict = {}
    confusions: Counter = Counter()
    for split in splits:
        images = sorted((real / "images" / split).glob("*.jpg"))
        hits = colour_hits = value_hits = missed = cards = empty = false_pos = 0
        for path in images:
            label_file = real / "labels" / split / f"{path.stem}.txt"
            rows = label_file.read_text().split() if label_file.exists() else []
            dets = detector.detect(cv2.imread(str(path)))
            if not rows:
                empty += 1
                false_pos += len(dets) > 0
                continue
            cards += 1
            truth = names[int(rows[0])]
            guess = dets.labels[0] if len(dets) else "none"
            missed += guess == "none"
            hits += guess == truth
            tc, tv = _colour_value(truth)
            gc, gv = _colour_value(guess)
            colour_hits += tc == gc
            value_hits += tv == gv
            if guess != truth:
                confusions[f"{truth} -> {guess}"] += 1
        report[split] = {
            "card_images": cards, "top1": hits / max(cards, 1),
            "colour_acc": colour_hits / max(cards, 1), "value_acc": value_hits / max(cards, 1),
            "no_detection": missed / max(cards, 1), "empty_images": empty,
            "empty_false_rate": false_pos / max(empty, 1)}
    report["confusions"] = confusions.most_common(15)
    return report


def eval_synthetic_map(weights: Path, data_root: Path, count: int, seed: int,
                       imgsz: int) -> dict:
    """mAP50 / mAP50-95 on a synthetic held-out set (rendered once, then reused)."""
    from datasets.commands import write_dataset
    from vision.ultralytics_setup import setup

    setup(torch_threads=2)
    out = data_root / f"heldout-s{seed}-n{count}-{imgsz}"
    if not (out / "recipe.json").exists():
        write_dataset(out, count, seed, imgsz, val_fraction=0.0)
    yaml_path = out / "heldout.yaml"
    yaml_path.write_text((out / "data.yaml").read_text().replace(
        "val: images/val", "val: images/train"))
    from ultralytics import YOLO

    metrics = YOLO(str(weights)).val(data=str(yaml_path), imgsz=imgsz, batch=16,
                                     device="cpu", plots=False, verbose=False,
                                     workers=0, project=str(ROOT / "runs"),
                                     name="eval-heldout", exist_ok=True)
    return {"images": count, "seed": seed, "map50": float(metrics.box.map50),
            "map50_95": float(metrics.box.map)}


def eval_hard_pairs(detector, per_class: int, seed: int, imgsz: int) -> dict:
    """Accuracy on purpose-made images of each known hard pair."""
    from datasets.scenes import compose_single

    report = {}
    for k, (name, (colours, values, cast, _)) in enumerate(HARD_PAIRS.items()):
        if colours is not None:
            labels = [lab for lab in CLASSES if _colour_value(lab)[0] in colours]
        else:
            labels = [lab for lab in CLASSES if _colour_value(lab)[1] in values]
        rng = np.random.default_rng([seed, k])
        total = correct = pair_swaps = 0
        swaps: Counter = Counter()
        for i in range(per_class * 2):
            label = labels[int(rng.integers(len(labels)))]
            angle = float(rng.uniform(-np.pi, np.pi)) if values else None
            scene = compose_single(rng, label, imgsz, cast=cast, angle=angle)
            dets = detector.detect(scene.image)
            guess = dets.labels[0] if len(dets) else "none"
            total += 1
            correct += guess == label
            tc, tv = _colour_value(label)
            gc, gv = _colour_value(guess)
            swapped = (colours is not None and gc in colours and gc != tc) or \
                (values is not None and gv in values and gv != tv)
            pair_swaps += swapped
            if guess != label:
                swaps[f"{label} -> {guess}"] += 1
        report[name] = {"images": total, "top1": correct / total,
                        "pair_swap_rate": pair_swaps / total,
                        "worst": swaps.most_common(3)}
    return report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments shared by this script and ``tableref evaluate``."""
    parser.add_argument("--model", type=Path, default=None,
                        help="OpenVINO folder or .pt for detection (default: shipped)")
    parser.add_argument("--weights", type=Path, default=None,
                        help=".pt weights for the mAP run (default: models/uno-yolo11n.pt)")
    parser.add_argument("--real", type=Path, default=REAL_DEFAULT)
    parser.add_argument("--splits", default="train,valid,test")
    parser.add_argument("--conf", type=float, default=None)
    parser.add_argument("--heldout-count", type=int, default=300)
    parser.add_argument("--heldout-seed", type=int, default=1001)
    parser.add_argument("--hard-per-class", type=int, default=40)
    parser.add_argument("--data-root", type=Path, default=ROOT / "data")
    parser.add_argument("--skip", default="", help="comma list of: real,map,hard")
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "eval-detector.json")


def run(args: argparse.Namespace) -> int:
    """Run every evaluation, print a summary, write the JSON report."""
    from vision.detector import IMGSZ, MODEL_DIR, PT_NAME, Detector

    skip = set(filter(None, args.skip.split(",")))
    kwargs = {"conf": args.conf} if args.conf is not None else {}
    detector = Detector(args.model, **kwargs)
    report: dict = {"model": str(detector.path), "conf": detector.conf,
                    "imgsz": detector.imgsz, "goals": GOALS}
    t0 = time.time()
    if "real" not in skip:
        if (args.real / "source-data.yaml").exists():
            report["real"] = eval_real(detector, args.real, args.splits.split(","))
        else:
            print(f"real-uno-dev not found at {args.real}; skipped")
    if "hard" not in skip:
        report["hard_pairs"] = eval_hard_pairs(detector, args.hard_per_class, 7, IMGSZ)
    if "map" not in skip:
        report["synthetic"] = eval_synthetic_map(args.weights or MODEL_DIR / PT_NAME,
                                                 args.data_root, args.heldout_count,
                                                 args.heldout_seed, IMGSZ)
    report["seconds"] = round(time.time() - t0, 1)
    print_summary(report)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    print(f"report: {args.out}")
    return 0


def print_summary(report: dict) -> None:
    """Human-readable lines, goals alongside."""
    real = report.get("real", {})
    for split in ("train", "valid", "test"):
        if split in real:
            r = real[split]
            print(f"real {split:5s}: top1 {r['top1']:.3f}  colour {r['colour_acc']:.3f}  "
                  f"value {r['value_acc']:.3f}  no-detection {r['no_detection']:.3f}  "
                  f"({r['card_images']} cards)  empty false-detection "
                  f"{r['empty_false_rate']:.3f} ({r['empty_images']} empty)")
    for pair, count in real.get("confusions", [])[:10]:
        print(f"  confusion {pair}: {count}")
    for name, r in report.get("hard_pairs", {}).items():
        print(f"hard {name:20s}: top1 {r['top1']:.3f}  pair swaps {r['pair_swap_rate']:.3f}"
              f"  worst {r['worst']}")
    if "synthetic" in report:
        s = report["synthetic"]
        print(f"synthetic held-out ({s['images']} images, seed {s['seed']}): "
              f"mAP50 {s['map50']:.3f}  mAP50-95 {s['map50_95']:.3f}")
    print(f"goals: {report['goals']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
