"""Printed ArUco markers that calibrate the table.

Four markers of OpenCV's ``DICT_4X4_50`` dictionary, ids 0-3, mark the corners
of the play area: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left as
the camera sees the table. Each marker's *centre* goes on its corner.
:func:`marker_sheet` draws a printable A4 page with the four markers, cut lines
and the instructions; :func:`find_markers` finds them in a frame and
:func:`calibrate_from_markers` turns them into a :class:`TableGeometry`.
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from .geometry import TABLE_MM, CalibrationError, TableGeometry

CORNER_IDS = (0, 1, 2, 3)  # top-left, top-right, bottom-right, bottom-left
CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")
A4_MM = (210.0, 297.0)


def dictionary() -> "cv2.aruco.Dictionary":
    return cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)


def marker_image(marker_id: int, pixels: int) -> np.ndarray:
    """One marker as a ``pixels`` x ``pixels`` grey image (no quiet zone)."""
    return cv2.aruco.generateImageMarker(dictionary(), marker_id, pixels)


def marker_sheet(dpi: int = 150, marker_mm: float = 60.0) -> np.ndarray:
    """A printable A4 sheet (BGR) with the four corner markers.

    Args:
        dpi: print resolution.
        marker_mm: printed side of each marker in millimetres.
    """
    px = dpi / 25.4
    width, height = int(round(A4_MM[0] * px)), int(round(A4_MM[1] * px))
    sheet = np.full((height, width, 3), 255, np.uint8)
    side = int(round(marker_mm * px))
    cell_w, cell_h = width // 2, (height - int(30 * px)) // 2
    top = int(30 * px)
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = dpi / 150 * 0.55
    lines = [
        "tableref calibration markers (ArUco 4x4, ids 0-3)",
        "Cut along the dashed lines. Put each marker's CENTRE (+) on a corner of",
        "the play area, as the camera sees it. Default area: 560 x 420 mm.",
    ]
    for i, text in enumerate(lines):
        cv2.putText(
            sheet,
            text,
            (int(8 * px), int((8 + 7 * i) * px)),
            font,
            scale,
            (0, 0, 0),
            max(1, dpi // 150),
            cv2.LINE_AA,
        )
    for k, (marker_id, name) in enumerate(zip(CORNER_IDS, CORNER_NAMES)):
        col, row = k % 2, k // 2
        if (
            k >= 2
        ):  # bottom row: bottom-left under top-left, bottom-right under top-right
            col = 1 - col
        x0 = col * cell_w + (cell_w - side) // 2
        y0 = top + row * cell_h + (cell_h - side) // 2
        marker = cv2.cvtColor(marker_image(marker_id, side), cv2.COLOR_GRAY2BGR)
        sheet[y0 : y0 + side, x0 : x0 + side] = marker
        cx, cy = x0 + side // 2, y0 + side // 2
        cv2.drawMarker(sheet, (cx, cy), (0, 0, 255), cv2.MARKER_CROSS, side // 6, 2)
        cv2.putText(
            sheet,
            f"{marker_id}: {name}",
            (x0, y0 + side + int(8 * px)),
            font,
            scale,
            (0, 0, 0),
            max(1, dpi // 150),
            cv2.LINE_AA,
        )
    for x in range(0, width, int(6 * px)):  # dashed cut lines
        cv2.line(
            sheet,
            (x, top + cell_h),
            (x + int(3 * px), top + cell_h),
            (128, 128, 128),
            1,
        )
    for y in range(top, height, int(6 * px)):
        cv2.line(sheet, (cell_w, y), (cell_w, y + int(3 * px)), (128, 128, 128), 1)
    return sheet


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Marker id -> (4, 2) corner pixels for every dictionary marker in a frame.

    Small, sheared markers of a low-resolution camera are looked for again
    in the frame upscaled 2x when a corner marker is missing.
    """
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    detector = cv2.aruco.ArucoDetector(dictionary(), cv2.aruco.DetectorParameters())
    found: dict[int, np.ndarray] = {}
    for scale in (1, 2):
        if scale > 1:
            if all(i in found for i in CORNER_IDS) or max(grey.shape) > 2000:
                break
            grey = cv2.resize(
                grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC
            )
        corners, ids, _ = detector.detectMarkers(grey)
        if ids is None:
            continue
        for quad, marker_id in zip(corners, ids.reshape(-1)):
            found.setdefault(
                int(marker_id), np.asarray(quad, dtype=np.float32).reshape(4, 2) / scale
            )
    return found


def corner_points(found: dict[int, np.ndarray]) -> np.ndarray:
    """The play area's four corners (marker centres) in corner order.

    Raises:
        CalibrationError: naming the corner markers that were not seen.
    """
    missing = [f"{i} ({n})" for i, n in zip(CORNER_IDS, CORNER_NAMES) if i not in found]
    if missing:
        seen = sorted(found) or "none"
        raise CalibrationError(
            f"corner markers not seen: {', '.join(missing)}; markers seen: {seen}"
        )
    return np.array([found[i].mean(axis=0) for i in CORNER_IDS], dtype=np.float32)


def calibrate_from_markers(
    image: np.ndarray, players: Sequence[str], size: tuple[float, float] = TABLE_MM
) -> TableGeometry:
    """Calibrate a table from one frame showing the four corner markers.

    Raises:
        CalibrationError: a marker is missing (the message names it).
    """
    corners = corner_points(find_markers(image))
    h, w = image.shape[:2]
    return TableGeometry.from_corners(corners, (w, h), players, size, method="markers")
