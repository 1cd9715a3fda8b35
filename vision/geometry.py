"""Table geometry: a homography to a top-down table plane, and named zones on it.

The table plane is measured in millimetres: ``x`` to the right and ``y`` down,
in the image's own orientation once the perspective is removed. The play area
is the rectangle ``(0, 0)-(width, height)`` whose corners are the four
calibration markers (or the four corners a person clicked). Zones are polygons
in that plane (:mod:`vision.zones`: the piles, overflow's box and limits, the
seats).

A geometry is saved per table as JSON (:func:`table_path`) and reloaded at start.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import cv2
import numpy as np

from .zones import (
    CARD_MM,
    TABLE_MM,
    CalibrationError,
    Zone,
    default_zones,
    seat_angles,
)

__all__ = [
    "CARD_MM",
    "TABLE_MM",
    "CalibrationError",
    "TableGeometry",
    "Zone",
    "config_dir",
    "default_zones",
    "seat_angles",
    "table_path",
]


def config_dir() -> Path:
    """``$TABLEREF_CONFIG`` or ``~/.config/tableref``."""
    env = os.environ.get("TABLEREF_CONFIG")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "tableref"


def table_path(name: str) -> Path:
    """Where the table called ``name`` is saved (a name or an explicit .json path)."""
    if name.endswith(".json") or "/" in name:
        return Path(name)
    if not name or not all(c.isalnum() or c in "-_." for c in name):
        raise CalibrationError(
            f"table name {name!r} may hold only letters, digits, - _ ."
        )
    return config_dir() / "tables" / f"{name}.json"



@dataclass
class TableGeometry:
    """Homography from image pixels to the table plane, and the zones on it.

    Attributes:
        homography: 3x3 matrix mapping image pixels to table millimetres.
        size: play-area width and height in millimetres.
        zones: zone name -> :class:`Zone`.
        image_size: width, height of the frames it was calibrated on.
        card: card width and height in millimetres.
        method: how it was made: ``markers``, ``corners`` or ``default``.
        name: the table's name when saved.
    """

    homography: np.ndarray
    size: tuple[float, float]
    zones: dict[str, Zone]
    image_size: tuple[int, int]
    card: tuple[float, float] = CARD_MM
    method: str = "default"
    name: str = ""
    players: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.homography = np.asarray(self.homography, dtype=np.float64).reshape(3, 3)
        if abs(np.linalg.det(self.homography)) < 1e-12:
            raise CalibrationError("the homography is singular (corners on one line?)")
        self._inverse = np.linalg.inv(self.homography)

    # -- construction ------------------------------------------------------------
    @classmethod
    def from_corners(
        cls,
        corners: Sequence[Sequence[float]],
        image_size: tuple[int, int],
        players: Sequence[str],
        size: tuple[float, float] = TABLE_MM,
        method: str = "corners",
    ) -> "TableGeometry":
        """Calibrate from the play area's corners in the image.

        Args:
            corners: four (x, y) pixels: top-left, top-right, bottom-right,
                bottom-left of the play area as the camera sees it.
            image_size: frame width, height.
            players: names in seating order (seat 0 nearest the camera).
            size: the play area's width and height in millimetres.
            method: recorded in the saved file.

        Raises:
            CalibrationError: not four points, or three of them on one line.
        """
        pts = np.asarray(corners, dtype=np.float32)
        if pts.shape != (4, 2) or not np.all(np.isfinite(pts)):
            raise CalibrationError(
                f"need four (x, y) corners, got {np.asarray(corners).tolist()}"
            )
        for i in range(4):  # any three corners on one line make no quadrilateral
            a, b, c = pts[i], pts[(i + 1) % 4], pts[(i + 2) % 4]
            cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
            if abs(float(cross)) < 1e-3 * max(1.0, float(np.ptp(pts)) ** 2):
                raise CalibrationError(
                    f"corners {pts.tolist()} do not make a quadrilateral"
                )
        w, h = size
        dst = np.array([(0, 0), (w, 0), (w, h), (0, h)], dtype=np.float32)
        matrix = cv2.getPerspectiveTransform(pts, dst)
        return cls(
            matrix,
            (float(w), float(h)),
            default_zones(players, size),
            (int(image_size[0]), int(image_size[1])),
            method=method,
            players=tuple(players),
        )

    @classmethod
    def default(
        cls,
        image_size: tuple[int, int],
        players: Sequence[str],
        size: tuple[float, float] = TABLE_MM,
    ) -> "TableGeometry":
        """The whole frame as the play area (a camera straight above, uncalibrated)."""
        w, h = image_size
        geo = cls.from_corners(
            [(0, 0), (w, 0), (w, h), (0, h)],
            image_size,
            players,
            size,
            method="default",
        )
        return geo

    def with_players(self, players: Sequence[str]) -> "TableGeometry":
        """The same table with seat zones for ``players`` (other zones kept)."""
        zones = {k: v for k, v in self.zones.items() if not k.startswith("seat:")}
        seats = {
            k: v
            for k, v in default_zones(players, self.size, self.card).items()
            if k.startswith("seat:")
        }
        return TableGeometry(
            self.homography,
            self.size,
            {**zones, **seats},
            self.image_size,
            self.card,
            self.method,
            self.name,
            tuple(players),
            dict(self.extra),
        )

    def scaled_to(self, image_size: tuple[int, int]) -> "TableGeometry":
        """The same calibration for frames of another resolution."""
        sx = self.image_size[0] / image_size[0]
        sy = self.image_size[1] / image_size[1]
        if abs(sx - 1) < 1e-9 and abs(sy - 1) < 1e-9:
            return self
        scale = np.diag([sx, sy, 1.0])
        return TableGeometry(
            self.homography @ scale,
            self.size,
            self.zones,
            (int(image_size[0]), int(image_size[1])),
            self.card,
            self.method,
            self.name,
            self.players,
            dict(self.extra),
        )

    # -- mapping -------------------------------------------------------------------
    def to_table(self, points: np.ndarray) -> np.ndarray:
        """Map (N, 2) image pixels to table millimetres."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
        if not len(pts):
            return np.zeros((0, 2))
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def to_image(self, points: np.ndarray) -> np.ndarray:
        """Map (N, 2) table millimetres to image pixels."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
        if not len(pts):
            return np.zeros((0, 2))
        return cv2.perspectiveTransform(pts, self._inverse).reshape(-1, 2)

    def box_size(self, xyxy: np.ndarray) -> np.ndarray:
        """(N, 2) width and height on the table plane of (N, 4) image boxes.

        Measured through the box's four corners mapped to the plane, so a card
        held in the air (closer to the camera) measures larger than one lying
        on the table.
        """
        boxes = np.asarray(xyxy, dtype=np.float64).reshape(-1, 4)
        if not len(boxes):
            return np.zeros((0, 2))
        x0, y0, x1, y1 = boxes.T
        corners = np.stack(
            [
                np.stack([x0, y0], 1),
                np.stack([x1, y0], 1),
                np.stack([x1, y1], 1),
                np.stack([x0, y1], 1),
            ],
            1,
        )
        table = self.to_table(corners.reshape(-1, 2)).reshape(-1, 4, 2)
        width = (
            np.linalg.norm(table[:, 1] - table[:, 0], axis=1)
            + np.linalg.norm(table[:, 2] - table[:, 3], axis=1)
        ) / 2
        height = (
            np.linalg.norm(table[:, 3] - table[:, 0], axis=1)
            + np.linalg.norm(table[:, 2] - table[:, 1], axis=1)
        ) / 2
        return np.stack([width, height], axis=1)

    def inside(self, zone: str, points: np.ndarray) -> np.ndarray:
        """Which table points lie in ``zone`` (none, for a zone this table lacks)."""
        pts = np.asarray(points).reshape(-1, 2)
        if zone not in self.zones:
            return np.zeros(len(pts), dtype=bool)
        return self.zones[zone].contains(pts)

    def seat_of(self, point: Sequence[float]) -> str | None:
        """The player whose seat wedge holds a table point."""
        for name in self.players:
            if self.zones[f"seat:{name}"].contains(np.array([point]))[0]:
                return name
        return None

    # -- persistence ---------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "method": self.method,
            "image_size": list(self.image_size),
            "size_mm": list(self.size),
            "card_mm": list(self.card),
            "players": list(self.players),
            "homography": self.homography.tolist(),
            "corners_px": self.to_image(
                np.array([(0, 0), (self.size[0], 0), self.size, (0, self.size[1])])
            )
            .round(2)
            .tolist(),
            "zones": {k: z.polygon.round(2).tolist() for k, z in self.zones.items()},
            **({"extra": self.extra} if self.extra else {}),
        }

    @classmethod
    def from_dict(cls, obj: dict[str, Any]) -> "TableGeometry":
        """Rebuild a saved geometry; raises :class:`CalibrationError` saying why not."""
        try:
            zones = {k: Zone(k, v) for k, v in obj["zones"].items()}
            return cls(
                np.array(obj["homography"], dtype=np.float64),
                tuple(float(v) for v in obj["size_mm"]),
                zones,
                tuple(int(v) for v in obj["image_size"]),
                tuple(float(v) for v in obj.get("card_mm", CARD_MM)),
                str(obj.get("method", "corners")),
                str(obj.get("name", "")),
                tuple(obj.get("players", ())),
                dict(obj.get("extra", {})),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(f"not a saved table geometry: {exc!r}") from None

    def save(self, path: str | Path) -> Path:
        """Write the geometry as JSON (creating the folder)."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")
        return target

    @classmethod
    def load(cls, path: str | Path) -> "TableGeometry":
        """Read a geometry saved by :meth:`save`.

        Raises:
            CalibrationError: the file is missing or is not a saved geometry.
        """
        try:
            obj = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise CalibrationError(
                f"cannot read table file {path}: {exc.strerror}"
            ) from None
        except ValueError as exc:
            raise CalibrationError(f"table file {path} is not JSON: {exc}") from None
        if not isinstance(obj, dict):
            raise CalibrationError(f"table file {path} does not hold a JSON object")
        return cls.from_dict(obj)
