"""Time a deck's enrollment on CPU: finding each card, then fine-tuning.

    python -m benchmarks.bench_enroll              # 54 cards, one photo each
    python -m benchmarks.bench_enroll --photos 3 --threads 2

The photos are rendered close-ups (one card 60-95 % of a 480x640 frame, the
classic print, plain noisy backgrounds), written to a temporary folder and read
back as ``tableref enroll`` reads a user's folder. Goal: at most 60 s of CPU for
a 54-card deck (issue 24). Each stage prints its CPU seconds (the process's, all
threads: ``time.process_time``) and, in brackets, its wall seconds, which on a
shared machine follow the other jobs' load.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np


def close_up(label: str, seed: int) -> np.ndarray:
    """A 480x640 BGR photo of one rendered card filling 60-95 % of its height."""
    import cv2

    from datasets.cards import render_card

    rng = np.random.default_rng(seed)
    frame = np.empty((480, 640, 3), np.uint8)
    frame[:] = rng.integers(60, 200, 3)
    frame = cv2.add(frame, rng.integers(0, 30, frame.shape).astype(np.uint8))
    height = int(480 * rng.uniform(0.6, 0.95))
    rgba = np.asarray(render_card(label, "classic", height=height,
                                  variant=int(rng.integers(8))))
    bgr, alpha = rgba[:, :, 2::-1], rgba[:, :, 3:] / 255.0
    h, w = bgr.shape[:2]
    y, x = (480 - h) // 2, (640 - w) // 2
    frame[y:y + h, x:x + w] = bgr * alpha + frame[y:y + h, x:x + w] * (1 - alpha)
    return frame


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cards", type=int, default=54)
    parser.add_argument("--photos", type=int, default=1, help="photos per card")
    parser.add_argument("--threads", type=int, default=None, help="torch threads")
    parser.add_argument("--held", type=float, default=None,
                        help="share of held-card views (default: EnrollConfig's)")
    parser.add_argument("--webcam", type=float, default=None,
                        help="share of the scene views drawn at a webcam frame's "
                             "size (EnrollConfig.webcam; default: EnrollConfig's)")
    parser.add_argument("--proto", type=float, default=None,
                        help="weight of the class-mean head folded into the tuned "
                             "classifier (EnrollConfig.proto; default: EnrollConfig's)")
    parser.add_argument("--soup", type=int, default=None,
                        help="fine-tunings averaged (EnrollConfig.soup; default: "
                             "EnrollConfig's)")
    parser.add_argument("--corner-adapt", type=int, default=None,
                        help="1: the enrollment also fits the corner-index reader "
                             "to the deck's photos (vision.enroll.ADAPT_CORNER); "
                             "0: not (default: the module's)")
    parser.add_argument("--base", type=Path, default=None,
                        help="crop classifier to fine-tune (default: the shipped "
                             "one; a checkpoint of another input size, e.g. "
                             "training.classifier_finetune's, enrolls at that size)")
    args = parser.parse_args(argv)

    import cv2
    import torch

    from referee.cards import CLASSES
    from vision.detector import Detector
    import vision.enroll
    from vision.enroll import EnrollConfig, find_shots, fine_tune, read_photo_folder

    if args.corner_adapt is not None:
        vision.enroll.ADAPT_CORNER = bool(args.corner_adapt)

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for i, label in enumerate(CLASSES[: args.cards]):
            (root / label).mkdir()
            for j in range(args.photos):
                photo = close_up(label, 100 * i + j)
                cv2.imwrite(str(root / label / f"{j}.jpg"), photo)
        t0, c0 = time.perf_counter(), time.process_time()
        detector = Detector()
        t1, c1 = time.perf_counter(), time.process_time()
        shots = find_shots(read_photo_folder(root), detector, progress=lambda _: None)
        t2, c2 = time.perf_counter(), time.process_time()
        config = EnrollConfig(threads=args.threads)
        if args.held is not None:
            config = replace(config, held=args.held)
        if args.webcam is not None:
            config = replace(config, webcam=args.webcam)
        if args.proto is not None:
            config = replace(config, proto=args.proto)
        if args.soup is not None:
            config = replace(config, soup=args.soup)
        result = fine_tune(shots, base=args.base, config=config,
                           progress=lambda _: None)
        t3, c3 = time.perf_counter(), time.process_time()
    n = len(shots)
    print(f"enrollment of {args.cards} cards, {n} photos, torch threads "
          f"{config.threads or torch.get_num_threads()}, {config.steps} steps x "
          f"{len(result.checkpoint['members'])} networks, "
          f"{result.checkpoint['size']} px crops; the corner reader fitted to "
          f"the deck: {'corner' in result.checkpoint}:")
    print(f"  load the detector  {c1 - c0:6.1f} s CPU ({t1 - t0:.1f} s wall)")
    unfound = sum(s.box is None for s in shots)
    print(f"  find the cards     {c2 - c1:6.1f} s CPU ({t2 - t1:.1f} s wall; "
          f"{unfound} photos without a card)")
    print(f"  fine-tune + check  {c3 - c2:6.1f} s CPU ({t3 - t2:.1f} s wall; "
          f"{len(result.confused)} photos still unsure)")
    print(f"  total              {c3 - c0:6.1f} s CPU ({t3 - t0:.1f} s wall; "
          "goal <= 60 s of CPU)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
