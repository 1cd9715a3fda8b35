"""Table geometry: homography, zones, seats, saving and loading; ArUco markers."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.geometry import CalibrationError, TableGeometry, table_path
from vision.markers import (
    calibrate_from_markers,
    corner_points,
    find_markers,
    marker_sheet,
)

PLAYERS = ("A", "B", "C", "D")
CORNERS = [(118, 64), (522, 64), (596, 426), (44, 426)]


def tilted() -> TableGeometry:
    return TableGeometry.from_corners(CORNERS, (640, 480), PLAYERS, (560, 420))


def test_corners_map_to_the_play_area_and_back():
    geo = tilted()
    table = geo.to_table(np.array(CORNERS, float))
    assert table == pytest.approx(
        np.array([(0, 0), (560, 0), (560, 420), (0, 420)]), abs=1e-3
    )
    pts = np.array([(100.0, 50.0), (300.0, 200.0)])
    assert geo.to_image(geo.to_table(pts)) == pytest.approx(pts, abs=1e-6)


def test_a_card_nearer_the_camera_is_not_measured_bigger_on_the_plane():
    geo = tilted()
    sizes = []
    for y_mm in (80.0, 340.0):  # far and near the camera
        quad = geo.to_image(
            np.array([(250, y_mm), (306, y_mm), (306, y_mm + 87), (250, y_mm + 87)])
        )
        box = [*quad.min(axis=0), *quad.max(axis=0)]
        sizes.append(geo.box_size(np.array([box]))[0])
    assert sizes[0] == pytest.approx(sizes[1], rel=0.12)
    assert sizes[0][0] == pytest.approx(56, rel=0.15)


def test_zones_and_seats():
    geo = tilted()
    centre = np.array([[280.0, 210.0]])
    assert geo.inside("trick", centre)[0] and geo.inside("field", centre)[0]
    assert not geo.inside("discard", np.array([[20.0, 20.0]]))[0]
    assert not geo.inside("no-such-zone", centre)[0]
    # seat 0 nearest the camera (bottom), then clockwise seen from above:
    # left, top, right
    assert geo.seat_of((280, 410)) == "A"
    assert geo.seat_of((10, 210)) == "B"
    assert geo.seat_of((280, 10)) == "C"
    assert geo.seat_of((550, 210)) == "D"


def test_with_players_reseats_the_table():
    geo = tilted().with_players(["X", "Y"])
    assert geo.seat_of((280, 410)) == "X" and geo.seat_of((280, 10)) == "Y"
    assert "seat:A" not in geo.zones and "discard" in geo.zones


def test_scaled_to_another_resolution_maps_the_same_points():
    geo = tilted()
    half = geo.scaled_to((320, 240))
    assert half.to_table(np.array([[59.0, 32.0]]))[0] == pytest.approx((0, 0), abs=1e-3)


def test_collinear_corners_are_refused():
    with pytest.raises(CalibrationError, match="quadrilateral"):
        TableGeometry.from_corners(
            [(0, 0), (10, 10), (20, 20), (0, 30)], (64, 48), PLAYERS
        )
    with pytest.raises(CalibrationError, match="four"):
        TableGeometry.from_corners([(0, 0), (10, 10)], (64, 48), PLAYERS)


def test_save_and_load_under_the_config_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLEREF_CONFIG", str(tmp_path))
    geo = tilted()
    geo.name = "kitchen"
    path = geo.save(table_path("kitchen"))
    assert path == tmp_path / "tables" / "kitchen.json"
    back = TableGeometry.load(path)
    assert back.homography == pytest.approx(geo.homography)
    assert back.players == PLAYERS and back.name == "kitchen"
    assert set(back.zones) == set(geo.zones)
    assert json.loads(path.read_text())["corners_px"][2] == pytest.approx(
        [596, 426], abs=0.01
    )


def test_bad_table_files_say_what_is_wrong(tmp_path):
    with pytest.raises(CalibrationError, match="cannot read"):
        TableGeometry.load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CalibrationError, match="not JSON"):
        TableGeometry.load(bad)
    bad.write_text(json.dumps({"zones": {}}))
    with pytest.raises(CalibrationError, match="not a saved table"):
        TableGeometry.load(bad)
    with pytest.raises(CalibrationError, match="may hold only"):
        table_path("my table!")


def test_printed_sheet_holds_the_four_corner_markers():
    sheet = marker_sheet(dpi=100)
    assert sheet.shape[0] > sheet.shape[1]  # portrait A4
    assert sorted(find_markers(sheet)) == [0, 1, 2, 3]


def warped_sheet_scene():
    """The four markers' centres on the corners of a play area seen at an angle."""
    size = (560, 420)
    canvas = np.full((620, 760, 3), (60, 110, 50), np.uint8)
    from vision.markers import marker_image

    for k, (x, y) in enumerate([(0, 0), (560, 0), (560, 420), (0, 420)]):
        cx, cy = x + 100, y + 100
        cv2.rectangle(
            canvas, (cx - 38, cy - 38), (cx + 38, cy + 38), (255, 255, 255), -1
        )
        canvas[cy - 25 : cy + 25, cx - 25 : cx + 25] = marker_image(k, 50)[:, :, None]
    src = np.float32([(100, 100), (660, 100), (660, 520), (100, 520)])
    M = cv2.getPerspectiveTransform(src, np.float32(CORNERS))
    return cv2.warpPerspective(canvas, M, (640, 480)), size


def test_calibration_from_markers_finds_the_corners():
    image, size = warped_sheet_scene()
    geo = calibrate_from_markers(image, PLAYERS, size)
    assert geo.method == "markers"
    assert geo.to_table(np.array(CORNERS, float)) == pytest.approx(
        np.array([(0, 0), (560, 0), (560, 420), (0, 420)]), abs=4.0
    )


def test_a_missing_marker_is_named():
    image, size = warped_sheet_scene()
    image[380:480, 520:640] = (60, 110, 50)  # cover the bottom-right marker
    with pytest.raises(CalibrationError, match="2 \\(bottom-right\\)"):
        calibrate_from_markers(image, PLAYERS, size)
    with pytest.raises(CalibrationError, match="markers seen: none"):
        corner_points({})
