"""An oracle detector: what a perfect detector would report on a rendered video.

The renderer stores, per frame, every card face that is at least 55 % visible
(label and box). :class:`OracleDetector` returns those as
:class:`~vision.detections.Detections` for the frame it is given, optionally
with seeded noise of the kinds a real detector makes: a one-frame misread of a
card's label and a one-frame phantom card. Tests and the benchmark use it, so
they measure the pipeline, not the model.
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import numpy as np

from referee.cards import CLASSES

from ..detections import Detections
from ..sources import Frame


class OracleDetector:
    """Detections read from a renderer's oracle file.

    Args:
        path: the ``*.oracle.json.gz`` file.
        misread: probability per frame of one card read as another label.
        phantom: probability per frame of a card that is not there.
        seed: the noise's seed.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        misread: float = 0.0,
        phantom: float = 0.0,
        seed: int = 0,
    ):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            data = json.load(fh)
        self.fps = float(data["fps"])
        self.frames: list[list] = data["frames"]
        self.misread = misread
        self.phantom = phantom
        self.seed = seed
        self.noise_frames: set[int] = set()

    def detect_frame(self, frame: Frame) -> Detections:
        """The detections of frame number ``frame.index`` of the video."""
        index = frame.index
        rows = list(self.frames[index]) if 0 <= index < len(self.frames) else []
        rng = random.Random(self.seed * 1_000_003 + index)
        if rows and rng.random() < self.misread:
            k = rng.randrange(len(rows))
            wrong = rng.choice([c for c in CLASSES if c != rows[k][0]])
            rows[k] = [wrong] + rows[k][1:]
            self.noise_frames.add(index)
        if rng.random() < self.phantom:
            x, y = rng.uniform(100, 540), rng.uniform(80, 400)
            rows.append([rng.choice(CLASSES), x - 30, y - 45, x + 30, y + 45])
            self.noise_frames.add(index)
        if not rows:
            return Detections.empty()
        scale = frame.image.shape[1] / 640.0
        boxes = np.array([r[1:5] for r in rows], np.float32) * scale
        ids = [CLASSES.index(r[0]) for r in rows]
        return Detections(boxes, np.full(len(rows), 0.95), ids)

    def detect(self, frame_bgr: np.ndarray) -> Detections:  # pragma: no cover
        raise TypeError(
            "OracleDetector needs the frame index: call detect_frame(frame)"
        )
