"""``tableref train`` and ``tableref evaluate``.

``train`` runs the card finder's recipe (:mod:`training.detector`) or, with
``--classifier``, the crop classifier's (:mod:`training.classifier`), and with
``--ship`` puts the result in ``models/`` (:mod:`training.export`). ``evaluate``
measures the detector (:mod:`training.evaluate`) and writes a JSON report.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from training.classifier import RECIPES, SHIPPED, train_classifier
from training.detector import FINDER_RECIPES, RECIPE, ROOT, recipe_data, train_once
from training.evaluate import (
    GOALS,
    OVERLAPPED,
    REAL_DEFAULT,
    eval_detector_map,
    eval_hard_pairs,
    eval_real,
    eval_synthetic_map,
)
from training.export import ship


def train_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``tableref train``."""
    r = RECIPE
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        help="train once on this data.yaml instead of the recipe's stages",
    )
    parser.add_argument(
        "--epochs",
        type=int,
        default=None,
        help="epochs with --data (default: the recipe's first stage's)",
    )
    parser.add_argument(
        "--data-root",
        type=Path,
        default=ROOT / "data",
        help="where the recipe's synthetic sets are rendered",
    )
    parser.add_argument(
        "--stages",
        type=int,
        default=None,
        help="run only the recipe's first N stages (default: all)",
    )
    parser.add_argument(
        "--from-stage",
        type=int,
        default=1,
        help="start at this stage from the previous stage's last.pt in --project",
    )
    parser.add_argument("--imgsz", type=int, default=None,
                        help=f"default: the recipe's ({r['imgsz']} for live)")
    parser.add_argument("--batch", type=int, default=None,
                        help=f"default: the recipe's ({r['batch']} for live)")
    parser.add_argument("--seed", type=int, default=None,
                        help=f"default: the recipe's ({r['seed']} for live)")
    parser.add_argument("--threads", type=int, default=2, help="torch threads")
    parser.add_argument("--project", type=Path, default=ROOT / "runs")
    parser.add_argument(
        "--name",
        default="uno-yolo11n",
        help="run name (stage k > 1 runs as NAME-stageK)",
    )
    parser.add_argument(
        "--stop-after",
        type=int,
        default=None,
        help="end the last run after this many epochs of its schedule "
        "(reproduces a checkpoint of a run that was cut short)",
    )
    parser.add_argument(
        "--weights",
        type=Path,
        default=None,
        help="with --ship and no training: ship these weights",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="resume the interrupted run PROJECT/NAME from its last.pt",
    )
    parser.add_argument(
        "--ship",
        action="store_true",
        help="copy the final last.pt to models/ and export OpenVINO there",
    )
    parser.add_argument(
        "--classifier",
        action="store_true",
        help="train the crop classifier (WIDE_RECIPE, the shipped one) instead",
    )
    parser.add_argument(
        "--recipe",
        choices=sorted({*RECIPES, *FINDER_RECIPES}),
        default=None,
        help="the finder's recipe (live: RECIPE, the live finder, the default; "
        "photo: PHOTO_RECIPE, the still-photo finder) or with --classifier the "
        "classifier's (wide: WIDE_RECIPE, the shipped one, the default; held: "
        "HELD_RECIPE, a narrower network on half the crops; plain: "
        "CLASSIFIER_RECIPE, without held cards; held96: at 96 px)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes that render the crops or scenes (the same ones for any "
        "number) and, for a finder on a GPU, load its batches",
    )
    parser.add_argument(
        "--device",
        default=None,
        help="auto, cpu or cuda (default: the recipe's; the live finder's: cpu)",
    )
    parser.add_argument(
        "--stop-at-s",
        type=float,
        default=None,
        help="end the finder's run after the epoch that passes this many seconds "
        "(say where it stopped: --stop-after reproduces that checkpoint)",
    )


def train(args: argparse.Namespace) -> int:
    """Run ``tableref train``."""
    from vision.ultralytics_setup import setup

    chosen = getattr(args, "recipe", None)
    if args.classifier:
        from vision.detector import CLASSIFIER_NAME, MODEL_DIR

        if chosen is not None and chosen not in RECIPES:
            print(f"tableref train: --recipe {chosen} is a finder's recipe, not "
                  "the classifier's", file=sys.stderr)
            return 2
        recipe = dict(RECIPES[chosen or SHIPPED])
        if args.ship and recipe["size"] != RECIPES[SHIPPED]["size"]:
            print(f"tableref train: --recipe {chosen} reads {recipe['size']} px crops; "
                  f"the live pipeline's classifier (and every deck enrolled from it) "
                  f"reads {RECIPES[SHIPPED]['size']} px, so it cannot be shipped as it",
                  file=sys.stderr)
            return 2
        if getattr(args, "device", None):
            recipe["device"] = args.device
        path = train_classifier(
            Path(args.project).resolve() / "cardnet",
            threads=args.threads,
            recipe=recipe,
            ship_to=MODEL_DIR / CLASSIFIER_NAME if args.ship else None,
            stop_after=args.stop_after,
            workers=getattr(args, "workers", 1),
        )
        print(f"trained: {path}")
        return 0
    if chosen is not None and chosen not in FINDER_RECIPES:
        print(f"tableref train: --recipe {chosen} is the classifier's; add "
              "--classifier", file=sys.stderr)
        return 2
    recipe = FINDER_RECIPES[chosen or "live"]
    for key in ("imgsz", "batch", "seed"):
        if getattr(args, key, None) is None:
            setattr(args, key, recipe[key])
    if args.weights is not None:
        if not args.ship:
            print("tableref train: --weights only goes with --ship", file=sys.stderr)
            return 2
        ship(args.weights, args.imgsz, photo=recipe is not RECIPE)
        return 0
    setup(verbose=True, torch_threads=args.threads)
    project = Path(args.project).resolve()
    if args.resume:
        import torch
        from ultralytics import YOLO

        weights = project / args.name / "weights" / "last.pt"
        model = YOLO(str(weights))
        model.add_callback(
            "on_pretrain_routine_start", lambda _t: torch.set_num_threads(args.threads)
        )
        model.add_callback(
            "on_train_epoch_start", lambda _t: torch.set_num_threads(args.threads)
        )
        model.train(resume=True)
    elif args.data is not None:
        weights = train_once(
            recipe["model"],
            args.data,
            project / args.name,
            args.epochs if args.epochs is not None else recipe["stages"][0]["epochs"],
            args,
            recipe["stages"][0],
            args.stop_after,
            recipe,
        )
    else:
        stages = recipe["stages"][: max(1, args.stages or len(recipe["stages"]))]
        init = recipe["model"]
        first = max(1, args.from_stage) - 1
        if first:
            prev = args.name if first == 1 else f"{args.name}-stage{first}"
            init = str(project / prev / "weights" / "last.pt")
            if not Path(init).is_file():
                print(f"tableref train: --from-stage {first + 1} needs {init}",
                      file=sys.stderr)
                return 2
        for k, stage in enumerate(stages):
            if k < first:
                continue
            data = recipe_data(
                args.data_root,
                stage["synth_count"],
                stage["synth_seed"],
                recipe["synth_imgsz"],
                stage.get("closeups", 0.0),
                stage.get("laid", 0.0),
                stage.get("markers", 0.0),
                near=stage.get("near", 0.0),
                aspect=stage.get("aspect", 0.0),
                workers=getattr(args, "workers", 1),
                val_fraction=recipe["val_fraction"],
            )
            name = args.name if k == 0 else f"{args.name}-stage{k + 1}"
            last = k == len(stages) - 1
            init = str(
                train_once(
                    init,
                    data,
                    project / name,
                    stage["epochs"],
                    args,
                    stage,
                    args.stop_after if last else stage.get("stop_after"),
                    recipe,
                )
            )
        weights = Path(init)
    print(f"trained: {weights}")
    if args.ship:
        ship(weights, args.imgsz, photo=recipe is not RECIPE)
    return 0


def evaluate_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``tableref evaluate`` (also ``python -m benchmarks.eval_detector``)."""
    parser.add_argument(
        "--model",
        type=Path,
        default=None,
        help="OpenVINO folder or .pt for detection (default: shipped)",
    )
    parser.add_argument(
        "--classifier",
        type=Path,
        default=None,
        help="crop classifier checkpoint instead of the shipped one",
    )
    parser.add_argument(
        "--weights",
        type=Path,
        default=None,
        help=".pt weights for the mAP run (default: models/uno-yolo11n.pt)",
    )
    parser.add_argument("--real", type=Path, default=REAL_DEFAULT)
    parser.add_argument("--splits", default="train,valid,test")
    parser.add_argument("--conf", type=float, default=None)
    parser.add_argument("--heldout-count", type=int, default=300)
    parser.add_argument("--heldout-seed", type=int, default=1001)
    parser.add_argument(
        "--heldout-laid",
        type=float,
        default=0.0,
        help="share of held-out card scenes with cards side by side in rows",
    )
    parser.add_argument(
        "--heldout-near",
        type=float,
        default=0.0,
        help="share of held-out card scenes with one card near the camera",
    )
    parser.add_argument(
        "--heldout-aspect",
        type=float,
        default=0.0,
        help="share of held-out scenes cut to a 4:3, 3:4, 16:9 or 9:16 frame",
    )
    parser.add_argument("--hard-per-class", type=int, default=40)
    parser.add_argument("--data-root", type=Path, default=ROOT / "data")
    parser.add_argument("--skip", default="", help="comma list of: real,map,hard")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "runs" / "eval-detector.json"
    )


def evaluate(args: argparse.Namespace) -> int:
    """Run every evaluation, print a summary, write the JSON report."""
    from vision.detector import CONF, IMGSZ, MODEL_DIR, PT_NAME, Detector

    skip = set(filter(None, args.skip.split(",")))
    conf = CONF if args.conf is None else args.conf
    thresholds = sorted({conf, min(conf, 0.05)})
    detector = Detector(
        args.model, conf=min(thresholds), classifier=getattr(args, "classifier", None)
    )
    report: dict = {
        "model": str(detector.path),
        "classifier": str(getattr(args, "classifier", None) or "shipped"),
        "conf": conf,
        "imgsz": detector.imgsz,
        "goals": GOALS,
    }
    t0 = time.time()
    if "real" not in skip:
        if (args.real / "source-data.yaml").exists():
            report["real"] = eval_real(
                detector, args.real, args.splits.split(","), thresholds
            )
        else:
            print(f"real-uno-dev not found at {args.real}; skipped")
    if "hard" not in skip:
        detector.conf = conf
        report["hard_pairs"] = eval_hard_pairs(detector, args.hard_per_class, 7, IMGSZ)
    if "map" not in skip:
        report["synthetic"] = eval_synthetic_map(
            args.weights or MODEL_DIR / PT_NAME,
            args.data_root,
            args.heldout_count,
            args.heldout_seed,
            IMGSZ,
            laid=args.heldout_laid,
            near=getattr(args, "heldout_near", 0.0),
            aspect=getattr(args, "heldout_aspect", 0.0),
        )
    if "map" not in skip:
        detector.conf = conf
        report["synthetic_detector"] = eval_detector_map(
            detector, args.data_root, args.heldout_count, args.heldout_seed,
            laid=args.heldout_laid, near=getattr(args, "heldout_near", 0.0),
            aspect=getattr(args, "heldout_aspect", 0.0),
        )
    report["seconds"] = round(time.time() - t0, 1)
    print_summary(report)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    print(f"report: {args.out}")
    return 0


def print_summary(report: dict) -> None:
    """Human-readable lines, goals alongside."""
    real = report.get("real", {})
    for thr in real.get("thresholds", []):
        key = f"conf>={thr:g}"
        for split in ("train", "valid", "test"):
            if split in real:
                r = real[split][key]
                print(
                    f"real {split:5s} {key}: top1 {r['top1']:.3f}  colour "
                    f"{r['colour_acc']:.3f}  value {r['value_acc']:.3f}  no-detection "
                    f"{r['no_detection']:.3f} ({r['card_images']} cards)  empty "
                    f"false-detection {r['empty_false_rate']:.3f} "
                    f"({r['empty_images']} empty)"
                )
    for pair, count in real.get("confusions", [])[:10]:
        print(f"  confusion {pair}: {count}")
    for name, r in report.get("hard_pairs", {}).items():
        print(
            f"hard {name:20s}: top1 {r['top1']:.3f}  "
            f"pair swaps {r['pair_swap_rate']:.3f}"
            f"  worst {r['worst']}"
        )
    for key in ("synthetic", "synthetic_detector"):
        if key in report:
            s = report[key]
            rows = (f", {s['laid']:g} laid in rows" if s.get("laid") else "") + (
                f", {s['near']:g} near" if s.get("near") else "") + (
                f", {s['aspect']:g} other frames" if s.get("aspect") else "")
            print(
                f"synthetic held-out ({s['images']} images, seed {s['seed']}{rows}), "
                f"{s.get('what', key)}: "
                f"mAP50 {s['map50']:.3f}  mAP50-95 {s['map50_95']:.3f}"
            )
            if "apart_map50_95" in s:
                print(
                    f"  of which the {1 - s['overlapped_share']:.0%} of cards no "
                    f"other card overlaps (IoU < {OVERLAPPED}; the others set aside):"
                    f" mAP50 {s['apart_map50']:.3f}  mAP50-95 "
                    f"{s['apart_map50_95']:.3f}"
                )
    print(f"goals: {report['goals']}")
