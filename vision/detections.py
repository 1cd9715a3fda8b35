"""Detections as parallel arrays, the currency of every vision stage.

Modelled on roboflow/supervision's ``Detections``: one dataclass carries
``xyxy``, ``confidence``, ``class_id`` (and optionally ``corners`` and
``tracker_id``), validated in ``__post_init__``. Every later stage (tracking,
smoothing, zone filtering) maps detections to detections.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

import numpy as np

from referee.cards import CLASSES


@dataclass
class Detections:
    """Cards found in one frame.

    Attributes:
        xyxy: (N, 4) float32 boxes in pixels.
        confidence: (N,) float32 scores in [0, 1].
        class_id: (N,) int32 indices into ``names``.
        corners: optional (N, 4, 2) float32 card corners in pixels (oriented boxes).
        tracker_id: optional (N,) int64 track ids assigned by a tracker.
        names: class names, the card labels of ``referee.cards.CLASSES`` by default.
        data: extra per-detection arrays, each of length N.
    """

    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray
    corners: np.ndarray | None = None
    tracker_id: np.ndarray | None = None
    names: Sequence[str] = CLASSES
    data: dict[str, np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.xyxy = np.asarray(self.xyxy, dtype=np.float32).reshape(-1, 4)
        n = len(self.xyxy)
        self.confidence = np.asarray(self.confidence, dtype=np.float32).reshape(n)
        self.class_id = np.asarray(self.class_id, dtype=np.int32).reshape(n)
        if self.corners is not None:
            self.corners = np.asarray(self.corners, dtype=np.float32).reshape(n, 4, 2)
        if self.tracker_id is not None:
            self.tracker_id = np.asarray(self.tracker_id, dtype=np.int64).reshape(n)
        for key, value in self.data.items():
            if len(value) != n:
                raise ValueError(f"data[{key!r}] has {len(value)} rows, expected {n}")
        if n and (self.class_id.min() < 0 or self.class_id.max() >= len(self.names)):
            raise ValueError(f"class_id out of range for {len(self.names)} names")

    @classmethod
    def empty(cls, names: Sequence[str] = CLASSES) -> "Detections":
        return cls(np.zeros((0, 4)), np.zeros(0), np.zeros(0), names=names)

    @classmethod
    def concat(cls, parts: Sequence["Detections"]) -> "Detections":
        """The rows of ``parts`` in order, as one set: the first part's names, and
        the extra ``data`` that every part has (corners and track ids dropped)."""
        if not parts:
            return cls.empty()
        keys = set.intersection(*(set(p.data) for p in parts))
        return cls(
            np.concatenate([p.xyxy for p in parts]),
            np.concatenate([p.confidence for p in parts]),
            np.concatenate([p.class_id for p in parts]),
            names=parts[0].names,
            data={k: np.concatenate([p.data[k] for p in parts]) for k in sorted(keys)},
        )

    def __len__(self) -> int:
        return len(self.xyxy)

    def __getitem__(self, index: Any) -> "Detections":
        """Select rows with an int, slice, index array or boolean mask."""
        if isinstance(index, (int, np.integer)):
            index = [int(index)]
        return Detections(
            self.xyxy[index],
            self.confidence[index],
            self.class_id[index],
            None if self.corners is None else self.corners[index],
            None if self.tracker_id is None else self.tracker_id[index],
            self.names,
            {k: np.asarray(v)[index] for k, v in self.data.items()},
        )

    @property
    def labels(self) -> list[str]:
        return [self.names[i] for i in self.class_id]

    @property
    def centers(self) -> np.ndarray:
        return np.stack([(self.xyxy[:, 0] + self.xyxy[:, 2]) / 2,
                         (self.xyxy[:, 1] + self.xyxy[:, 3]) / 2], axis=1)

    def __iter__(self) -> Iterator[tuple[str, float, np.ndarray]]:
        for i in range(len(self)):
            yield self.names[self.class_id[i]], float(self.confidence[i]), self.xyxy[i]

    def to_json(self) -> list[dict[str, Any]]:
        """The ``cards`` list of ``tableref detect --json``."""
        out = []
        for i in range(len(self)):
            item: dict[str, Any] = {
                "label": self.names[self.class_id[i]],
                "confidence": round(float(self.confidence[i]), 4),
                "box": [round(float(v), 1) for v in self.xyxy[i]],
            }
            if self.corners is not None:
                item["corners"] = [[round(float(x), 1), round(float(y), 1)]
                                   for x, y in self.corners[i]]
            out.append(item)
        return out


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(len(a), len(b)) intersection over union of two sets of xyxy boxes."""
    lo = np.maximum(a[:, None, :2], b[None, :, :2])
    hi = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod(np.clip(hi - lo, 0, None), axis=2)
    area_a = np.prod(a[:, 2:] - a[:, :2], axis=1)
    area_b = np.prod(b[:, 2:] - b[:, :2], axis=1)
    return inter / (area_a[:, None] + area_b[None, :] - inter + 1e-9)
