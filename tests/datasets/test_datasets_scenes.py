"""Synthetic scenes and ``tableref synth``: deterministic, valid YOLO labels."""

from __future__ import annotations

import numpy as np
import pytest

from datasets import scenes
from datasets.cards import CARD_ASPECT
from datasets.commands import label_lines, write_dataset
from datasets.scenes import compose_scene, compose_single
from referee.cards import CLASSES
from tableref.cli import main


def test_same_seed_same_scene_and_different_seeds_differ() -> None:
    a = compose_scene(np.random.default_rng([3, 5]), 160)
    b = compose_scene(np.random.default_rng([3, 5]), 160)
    c = compose_scene(np.random.default_rng([3, 6]), 160)
    assert np.array_equal(a.image, b.image)
    assert a.class_ids == b.class_ids and np.array_equal(a.corners, b.corners)
    assert not np.array_equal(a.image, c.image)


def test_scenes_have_valid_labels_and_some_cards() -> None:
    total = 0
    for i in range(12):
        scene = compose_scene(np.random.default_rng([11, i]), 192)
        assert scene.image.shape == (192, 192, 3) and scene.image.dtype == np.uint8
        assert len(scene.class_ids) == len(scene.corners)
        assert all(0 <= c < len(CLASSES) for c in scene.class_ids)
        boxes = scene.boxes()
        assert np.all(boxes[:, :2] >= 0) and np.all(boxes[:, 2:] <= 192)
        assert np.all(boxes[:, 2] >= boxes[:, 0]) and np.all(boxes[:, 3] >= boxes[:, 1])
        total += len(scene.class_ids)
    assert total >= 12  # about two labelled cards a scene on average


def _one_card_areas(seed: int, count: int, **options) -> list[float]:
    """The box area (share of a 160 px frame) of each of ``count`` scenes that
    must show exactly one labelled card, its box inside the frame (empty scenes,
    or scenes whose card's identity is hidden, are skipped)."""
    areas = []
    for i in range(count):
        scene = compose_scene(np.random.default_rng([seed, i]), 160, **options)
        if not scene.class_ids:
            continue
        assert len(scene.class_ids) == 1
        x1, y1, x2, y2 = scene.boxes()[0]
        assert 0 <= x1 < x2 <= 160 and 0 <= y1 < y2 <= 160
        areas.append((x2 - x1) * (y2 - y1) / 160**2)
    return areas


def test_closeups_show_one_big_card_and_default_scenes_are_unchanged() -> None:
    """``closeup_fraction=1`` makes every card scene one card of 30-85 % of the
    frame (its box clipped where the frame cuts it); 0 draws the old scenes."""
    big = sum(a >= 0.25 for a in _one_card_areas(21, 10, closeup_fraction=1.0))
    assert big >= 6, f"only {big} of 10 close-ups show a big card"
    a = compose_scene(np.random.default_rng([3, 5]), 160)
    b = compose_scene(np.random.default_rng([3, 5]), 160, closeup_fraction=0.0)
    assert np.array_equal(a.image, b.image)


def test_laid_scenes_put_cards_side_by_side_and_default_scenes_are_unchanged() -> None:
    """``laid_fraction=1`` lays the cards of a card scene in rows: several cards
    of one size, each with a neighbour about one card width away (touching,
    overlapping a little or a small gap); 0 draws the old scenes."""
    rows = 0
    for i in range(12):
        scene = compose_scene(np.random.default_rng([31, i]), 320, laid_fraction=1.0)
        if len(scene.class_ids) < 3:
            continue  # an empty scene, a room (held card) or cards off the frame
        corners = scene.corners
        # the long side of each whole card, in pixels (perspective changes it a bit)
        heights = np.linalg.norm(corners[:, 3] - corners[:, 0], axis=1)
        widths = np.linalg.norm(corners[:, 1] - corners[:, 0], axis=1)
        centres = corners.mean(axis=1)
        gaps = np.linalg.norm(centres[:, None] - centres[None], axis=2)
        np.fill_diagonal(gaps, np.inf)
        nearest = gaps.min(axis=1) / np.median(widths)
        rows += bool(
            np.ptp(heights) <= 0.5 * np.median(heights)
            and np.median(nearest) <= 1.3
        )
    assert rows >= 5, f"only {rows} of 12 scenes show cards laid side by side"
    a = compose_scene(np.random.default_rng([3, 5]), 160)
    b = compose_scene(np.random.default_rng([3, 5]), 160, laid_fraction=0.0)
    assert np.array_equal(a.image, b.image)


def test_marker_scenes_show_real_aruco_markers_that_are_never_labelled() -> None:
    """``marker_fraction=1`` puts the table's printed markers (``DICT_4X4_50``)
    in the scene, unlabelled: an empty scene stays without labels, yet OpenCV's
    ArUco detector finds a marker in most of them; 0 draws the old scenes."""
    import cv2

    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    )
    found = 0
    for i in range(8):
        scene = compose_scene(
            np.random.default_rng([41, i]), 320, empty_fraction=1.0, marker_fraction=1.0
        )
        assert scene.class_ids == [] and len(scene.corners) == 0
        _corners, ids, _rejected = detector.detectMarkers(scene.image)
        found += ids is not None and len(ids) > 0
    assert found >= 4, f"markers found in only {found} of 8 scenes"
    plain = compose_scene(np.random.default_rng([41, 0]), 320, empty_fraction=1.0)
    _corners, ids, _rejected = detector.detectMarkers(plain.image)
    assert ids is None
    a = compose_scene(np.random.default_rng([3, 5]), 160)
    b = compose_scene(np.random.default_rng([3, 5]), 160, marker_fraction=0.0)
    assert np.array_equal(a.image, b.image)


@pytest.mark.parametrize(
    "angle,aspect", [(0.0, CARD_ASPECT), (np.pi / 2, 1 / CARD_ASPECT)]
)
def test_single_card_box_is_the_whole_card(angle: float, aspect: float) -> None:
    scene = compose_single(np.random.default_rng(1), "red-5", 256, angle=angle)
    assert scene.class_ids == [CLASSES.index("red-5")]
    x1, y1, x2, y2 = scene.boxes()[0]
    assert (x2 - x1) / (y2 - y1) == pytest.approx(aspect, rel=0.02)
    area = (x2 - x1) * (y2 - y1) / 256**2
    assert 0.07 <= area <= 0.32  # compose_single draws cards of 8-30 % of the frame


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_single_card_pixels_lie_inside_the_box(seed: int) -> None:
    """Swapping the card (same seed) changes pixels only inside its box."""
    red = compose_single(np.random.default_rng(seed), "red-0", 256, angle=0.3 * seed)
    blue = compose_single(np.random.default_rng(seed), "blue-8", 256, angle=0.3 * seed)
    assert np.array_equal(red.boxes(), blue.boxes())
    x1, y1, x2, y2 = red.boxes()[0].astype(int)
    changed = np.abs(red.image.astype(int) - blue.image.astype(int)).max(axis=2) > 40
    inside = np.zeros_like(changed)
    pad = 8  # blur and JPEG blocks smear a few pixels past the edge
    inside[max(0, y1 - pad) : y2 + pad, max(0, x1 - pad) : x2 + pad] = True
    assert changed[inside].mean() > 0.2
    assert changed[~inside].sum() == 0


def test_visibility_rule() -> None:
    """A card is labelled when its centre or one corner index is visible."""
    size = 200
    matrix = scenes._placement(100, 100, 150, 0.0)
    owner = np.full((size, size), 0, np.int32)
    assert scenes._visible(owner, matrix, 0)
    assert not scenes._visible(np.full((size, size), 1, np.int32), matrix, 0)
    covered = np.full((size, size), 1, np.int32)
    covered[:60, :84] = 0  # only the top-left corner index shows
    assert scenes._visible(covered, matrix, 0)


def test_write_dataset_labels_match_the_scenes(tmp_path) -> None:
    yaml_path = write_dataset(
        tmp_path / "set", count=6, seed=9, imgsz=128, val_fraction=0.34, progress=False
    )
    text = yaml_path.read_text()
    assert "train: images/train" in text and "val: images/val" in text
    assert f"  55: {CLASSES[55]}" in text
    train = sorted((tmp_path / "set" / "labels" / "train").glob("*.txt"))
    val = sorted((tmp_path / "set" / "labels" / "val").glob("*.txt"))
    assert [p.stem for p in train] == ["000000", "000001", "000002", "000003"]
    assert [p.stem for p in val] == ["000004", "000005"]
    for path in train + val:
        scene = compose_scene(np.random.default_rng([9, int(path.stem)]), 128)
        rows = [line.split() for line in path.read_text().splitlines()]
        assert rows == [line.split() for line in label_lines(scene)]
        for row in rows:
            assert len(row) == 5 and 0 <= int(row[0]) < len(CLASSES)
            cx, cy, w, h = map(float, row[1:])
            assert 0 < w <= 1 and 0 < h <= 1
            assert 0 <= cx - w / 2 + 1e-6 and cx + w / 2 <= 1 + 1e-6
        image = (
            path.parent.parent.parent / "images" / path.parent.name / f"{path.stem}.jpg"
        )
        assert image.exists()


def test_obb_labels_have_four_corners() -> None:
    scene = compose_single(np.random.default_rng(2), "blue-skip", 128, angle=0.5)
    (line,) = label_lines(scene, obb=True)
    parts = line.split()
    assert int(parts[0]) == CLASSES.index("blue-skip") and len(parts) == 9
    assert all(0 <= float(v) <= 1 for v in parts[1:])


def test_synth_cli(tmp_path, capsys) -> None:
    assert (
        main(
            [
                "synth",
                "--out",
                str(tmp_path / "s"),
                "--count",
                "2",
                "--seed",
                "1",
                "--imgsz",
                "96",
                "--quiet",
            ]
        )
        == 0
    )
    assert (tmp_path / "s" / "data.yaml").exists()
    assert len(list((tmp_path / "s" / "images").rglob("*.jpg"))) == 2
    assert main(["synth", "--out", str(tmp_path / "t"), "--count", "0"]) == 2
    assert "--count" in capsys.readouterr().out


def test_near_scenes_show_one_card_of_any_size_and_default_scenes_are_unchanged():
    """``near_fraction=1`` makes every card scene one card near the camera, from
    a few percent of the frame to most of it (its box clipped where the frame
    cuts it); 0 draws the old scenes."""
    areas = _one_card_areas(41, 16, near_fraction=1.0)
    assert len(areas) >= 10
    assert min(areas) < 0.1 and max(areas) > 0.5, areas
    a = compose_scene(np.random.default_rng([3, 5]), 160)
    b = compose_scene(np.random.default_rng([3, 5]), 160, near_fraction=0.0,
                      aspect_fraction=0.0)
    assert np.array_equal(a.image, b.image)


def test_other_frames_are_cut_with_their_labels() -> None:
    """``aspect_fraction=1`` cuts every scene to a 4:3, 3:4, 16:9 or 9:16 frame;
    the labelled cards' boxes lie in that frame."""
    shapes = set()
    for i in range(12):
        scene = compose_scene(np.random.default_rng([43, i]), 192, aspect_fraction=1.0)
        h, w = scene.image.shape[:2]
        assert max(h, w) == 192 and min(h, w) in (108, 144)
        shapes.add((h, w))
        boxes = scene.boxes()
        assert np.all(boxes[:, :2] >= 0) and np.all(boxes[:, 2] <= w)
        assert np.all(boxes[:, 3] <= h)
        for line in label_lines(scene):
            assert all(0 <= float(v) <= 1 for v in line.split()[1:])
    assert len(shapes) >= 3


def test_scenes_written_by_several_processes_are_the_same(tmp_path) -> None:
    one = write_dataset(tmp_path / "one", 6, 9, 96, progress=False, near=0.5,
                        aspect=0.5)
    two = write_dataset(tmp_path / "two", 6, 9, 96, progress=False, near=0.5,
                        aspect=0.5, workers=2)
    for path in sorted((one.parent / "labels").rglob("*.txt")):
        twin = two.parent / path.relative_to(one.parent)
        assert path.read_text() == twin.read_text()
    for path in sorted((one.parent / "images").rglob("*.jpg")):
        twin = two.parent / path.relative_to(one.parent)
        assert path.read_bytes() == twin.read_bytes()
