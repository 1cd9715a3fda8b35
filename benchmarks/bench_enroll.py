"""Time a deck's enrollment on CPU: finding each card, then fine-tuning.

    python -m benchmarks.bench_enroll              # 54 cards, one photo each
    python -m benchmarks.bench_enroll --photos 3 --threads 2

The photos are rendered close-ups (one card 60-95 % of a 480x640 frame, the
classic print, plain noisy backgrounds), written to a temporary folder and read
back as ``tableref enroll`` reads a user's folder. Goal: at most 60 s for a
54-card deck (issue 24).
"""

from __future__ import annotations

import argparse
import tempfile
import time
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
    args = parser.parse_args(argv)

    import cv2
    import torch

    from referee.cards import CLASSES
    from vision.detector import Detector
    from vision.enroll import EnrollConfig, find_shots, fine_tune, read_photo_folder

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for i, label in enumerate(CLASSES[: args.cards]):
            (root / label).mkdir()
            for j in range(args.photos):
                photo = close_up(label, 100 * i + j)
                cv2.imwrite(str(root / label / f"{j}.jpg"), photo)
        t0 = time.perf_counter()
        detector = Detector()
        t1 = time.perf_counter()
        shots = find_shots(read_photo_folder(root), detector, progress=lambda _: None)
        t2 = time.perf_counter()
        config = EnrollConfig(threads=args.threads)
        result = fine_tune(shots, config=config, progress=lambda _: None)
        t3 = time.perf_counter()
    n = len(shots)
    print(f"enrollment of {args.cards} cards, {n} photos, torch threads "
          f"{config.threads or torch.get_num_threads()}, {config.steps} steps x "
          f"{len(result.checkpoint['members'])} networks:")
    print(f"  load the detector  {t1 - t0:6.1f} s")
    unfound = sum(s.box is None for s in shots)
    print(f"  find the cards     {t2 - t1:6.1f} s  ({unfound} photos without a card)")
    print(f"  fine-tune + check  {t3 - t2:6.1f} s  ({len(result.confused)} photos "
          "still unsure)")
    print(f"  total              {t3 - t0:6.1f} s  (goal <= 60 s)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
