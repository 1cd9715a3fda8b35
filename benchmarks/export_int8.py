"""Make an INT8 OpenVINO export of the shipped card finder, to measure it.

    .venv/bin/pip install nncf==3.4.0       # not a dependency of tableref
    .venv/bin/python -m benchmarks.export_int8 --out /tmp/int8
    M=/tmp/int8/uno-yolo11n_int8_openvino_model
    .venv/bin/python -m benchmarks.eval_detector --model $M
    .venv/bin/python -m benchmarks.bench_detector --model $M
    .venv/bin/python -m benchmarks.eval_pipeline --detector model --seed 54 --fps 15 \\
        --model $M

Ultralytics' OpenVINO export with NNCF's post-training quantisation (mixed preset;
the detection head's box decoding stays float), calibrated on the validation split
of the finder's own synthetic training set (158 rendered images, no real photo;
rendered under ``--data-root`` first if missing). The calibration loader's order
draws from the global generators, which this script seeds: unseeded, two exports
of the same weights differed by up to 0.048 in box scores; seeded, they are the
same bytes. Tried and not shipped: ``models/MODEL_CARD.md`` gives the measurements.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for the export")
    parser.add_argument("--weights", type=Path, default=None,
                        help="finder weights (default: the shipped .pt)")
    parser.add_argument("--data-root", type=Path, default=ROOT / "data")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        import nncf  # noqa: F401
    except ImportError:
        print("export_int8: needs NNCF: .venv/bin/pip install nncf==3.4.0",
              file=sys.stderr)
        return 2
    import numpy as np
    import torch

    from vision.detector import IMGSZ, MODEL_DIR, PT_NAME
    from training.detector import RECIPE, recipe_data
    from vision.ultralytics_setup import setup

    stage = RECIPE["stages"][-1]
    data = recipe_data(args.data_root, stage["synth_count"], stage["synth_seed"],
                       RECIPE["synth_imgsz"])
    args.out.mkdir(parents=True, exist_ok=True)
    weights = args.out / PT_NAME
    shutil.copyfile(args.weights or MODEL_DIR / PT_NAME, weights)
    setup()
    from ultralytics import YOLO

    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    out = YOLO(str(weights)).export(
        format="openvino", imgsz=IMGSZ, int8=True, half=False, dynamic=False,
        data=str(data),
    )
    print(f"INT8 export: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
