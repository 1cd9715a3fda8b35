"""Milliseconds per frame of the runtime card detector (goal: <= 10 ms at the
working size, 256).

    .venv/bin/python -m benchmarks.bench_detector [--runs 200] [--model FOLDER]

Times ``Detector.detect`` (letterbox, inference, NMS, boxes back in the frame's
pixels, the classifier naming each box, none of its reads reused from the
frame before) on one 640x480 synthetic table frame,
batch 1, after a warm-up, for the shipped OpenVINO export (or ``--model``, e.g.
an INT8 export from ``python -m benchmarks.export_int8``) and the PyTorch weights (torch
at 2 threads).
Prints the median and the 90th percentile of the wall-clock time and the CPU
time a frame costs (``time.process_time``: every thread of the process; on a
machine shared with other work the CPU time is the steadier figure, and with
one inference thread, the default, the two agree on an idle machine).
``--threads N`` runs OpenVINO on N inference threads (0: its latency hint,
every core for one frame). Each backend runs in its own process so thread
settings do not leak between them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path



def frame_640x480():
    """A 640x480 BGR table frame with a few cards (deterministic)."""
    import cv2
    import numpy as np

    from datasets.scenes import compose_scene

    scene = compose_scene(np.random.default_rng([2024, 3]), 640, empty_fraction=0.0)
    return cv2.resize(scene.image, (640, 480))


def time_backend(
    model: str, imgsz: int, runs: int, warmup: int = 10, classifier: bool = True,
    threads: int | None = None,
) -> dict:
    """Time one backend in this process (with or without the crop classifier)."""
    import numpy as np

    from vision.detector import THREADS, Detector

    detector = Detector(model, imgsz=imgsz, classifier=None if classifier else False,
                        threads=THREADS if threads is None else threads)
    frame = frame_640x480()
    for _ in range(warmup):
        detector.detect(frame)
    times, cpu = [], []
    for _ in range(runs):
        detector._last = None  # every card new: no classifier read reused
        t0, c0 = time.perf_counter(), time.process_time()
        detector.detect(frame)
        cpu.append((time.process_time() - c0) * 1000)
        times.append((time.perf_counter() - t0) * 1000)
    import torch

    return {
        "backend": detector.backend + ("+classifier" if detector.classifier else ""),
        "model": str(detector.path),
        "imgsz": imgsz,
        "boxes": len(detector.detect(frame)),
        "runs": runs,
        "median_ms": float(np.median(times)),
        "p90_ms": float(np.percentile(times, 90)),
        "cpu_ms": float(np.mean(cpu)),
        "threads": detector.ov_threads,
        "torch_threads": torch.get_num_threads(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument(
        "--imgsz",
        type=int,
        default=None,
        help="inference size (default: the runtime's working size)",
    )
    parser.add_argument(
        "--backend", choices=["openvino", "pytorch", "all"], default="all"
    )
    parser.add_argument(
        "--model", type=Path, default=None,
        help="an OpenVINO folder to time instead of the shipped one",
    )
    parser.add_argument(
        "--threads", type=int, default=None,
        help="OpenVINO inference threads (default: the runtime's, "
        "detector.threads; 0: every core for one frame)",
    )
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--no-classifier", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    from vision.detector import IMGSZ, MODEL_DIR, OPENVINO_NAME, PT_NAME

    imgsz = args.imgsz or IMGSZ
    if args.child:
        print(
            json.dumps(
                time_backend(
                    args.child, imgsz, args.runs, classifier=not args.no_classifier,
                    threads=args.threads,
                )
            )
        )
        return 0
    models = {
        "openvino": args.model or MODEL_DIR / OPENVINO_NAME,
        "pytorch": MODEL_DIR / PT_NAME,
    }
    wanted = list(models) if args.backend == "all" else [args.backend]
    # the shipped card finder is one-class: the runtime always runs the classifier
    for name, extra in [(n, []) for n in wanted]:
        if not models[name].exists():
            print(f"{name}: no model at {models[name]}; skipped")
            continue
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--child",
                str(models[name]),
                "--runs",
                str(args.runs),
                "--imgsz",
                str(imgsz),
                *extra,
                *(["--threads", str(args.threads)] if args.threads is not None else []),
            ],
            capture_output=True,
            text=True,
        )
        if out.returncode != 0:
            print(f"{name}: failed\n{out.stderr[-1500:]}")
            continue
        r = json.loads(out.stdout.strip().splitlines()[-1])
        verdict = "meets" if r["median_ms"] <= 10 else "misses"
        print(
            f"{r['backend']:19s} imgsz {r['imgsz']}  640x480 frame: median "
            f"{r['median_ms']:.2f} ms  p90 {r['p90_ms']:.2f} ms  CPU {r['cpu_ms']:.2f} ms "
            f"a frame ({r['runs']} runs, {r['boxes']} cards, OpenVINO threads "
            f"{r['threads']}, torch threads {r['torch_threads']}; median {verdict} "
            f"the 10 ms goal)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
