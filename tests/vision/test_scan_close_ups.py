"""The round-end scan's close-ups: seats detected tile by tile replace what the
whole frame saw there (merged or missed cards); the piles stay as they were."""

from __future__ import annotations

import numpy as np

from referee.cards import CLASSES
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.pipeline import TablePipeline
from vision.config import ScanConfig
from vision.scan import seat_close_ups, seat_windows

W, H = 640, 480
COLOURS = {  # a flat colour per card stands in for its face
    "red-3": (0, 0, 200),
    "blue-5": (200, 0, 0),
    "green-7": (0, 200, 0),
    "yellow-1": (0, 200, 200),
}


def _at(geo: TableGeometry, zone: str) -> np.ndarray:
    return geo.to_image(geo.zones[zone].centre[None])[0]


class CoarseDetector:
    """Reads each card's flat colour exactly in a tile; on the whole frame it
    merges the two cards that touch into one box (named as the first) and
    misses nothing else: what a small working size does to a laid-out hand."""

    def __init__(self, merged: tuple[str, str]):
        self.merged = merged
        self.calls: list[tuple[int, int]] = []

    def _boxes(self, image: np.ndarray) -> dict[str, list[float]]:
        out = {}
        for label, colour in COLOURS.items():
            ys, xs = np.nonzero(np.all(image == colour, axis=2))
            if len(xs):
                out[label] = [xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]
        return out

    def detect(self, image: np.ndarray) -> Detections:
        self.calls.append(image.shape[:2])
        boxes = self._boxes(image)
        if image.shape[:2] == (H, W) and self.merged:
            a, b = (boxes.pop(x) for x in self.merged)
            boxes[self.merged[0]] = [
                min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])
            ]
        labels = sorted(boxes)
        if not labels:
            return Detections.empty()
        return Detections(
            np.array([boxes[k] for k in labels], np.float32),
            np.full(len(labels), 0.9),
            [CLASSES.index(k) for k in labels],
            data={"probs": np.full((len(labels), len(CLASSES)), 0.01, np.float32)},
        )


def _table() -> tuple[TableGeometry, np.ndarray]:
    geo = TableGeometry.default((W, H), ["A", "B", "C"])
    image = np.full((H, W, 3), 40, np.uint8)
    x, y = _at(geo, "seat:A").astype(int)
    image[y - 20 : y + 20, x - 30 : x - 1] = COLOURS["red-3"]  # touching pair
    image[y - 20 : y + 20, x : x + 29] = COLOURS["blue-5"]
    px, py = _at(geo, "discard").astype(int)
    image[py - 20 : py + 20, px - 14 : px + 14] = COLOURS["green-7"]
    return geo, image


def test_close_ups_split_a_merged_hand_and_leave_the_pile_alone() -> None:
    geo, image = _table()
    detector = CoarseDetector(("red-3", "blue-5"))
    whole = detector.detect(image)
    assert sorted(whole.labels) == ["green-7", "red-3"]  # the pair came out as one
    dets = seat_close_ups(detector.detect, image, whole, geo)
    assert sorted(dets.labels) == ["blue-5", "green-7", "red-3"]
    red = dets.xyxy[dets.labels.index("red-3")]
    assert red[2] - red[0] < 35  # one card's width, not the pair's
    pile = dets.xyxy[dets.labels.index("green-7")]
    assert np.array_equal(pile, whole.xyxy[whole.labels.index("green-7")])
    assert "probs" in dets.data and len(dets.data["probs"]) == 3
    # the frame, then 2 x 2 tiles, then one window around seat A's cards
    assert len(detector.calls) == 1 + 4 + 1
    assert all(h < H and w < W for h, w in detector.calls[1:])
    wh, ww = detector.calls[-1]
    assert wh * ww < 0.1 * H * W  # the window is about the hand, not the seat


def test_a_card_cut_by_a_tile_edge_counts_once_and_whole() -> None:
    """A card on the line between two tiles is whole in one of them (the tiles
    overlap); the tile that cuts it adds no half card. (2 x 2 tiles of a 640 x
    480 frame: the left ones end at x = 366, the right ones start at 274.)"""
    geo = TableGeometry.default((W, H), ["A", "B", "C"])
    image = np.full((H, W, 3), 40, np.uint8)
    image[390:430, 352:380] = COLOURS["yellow-1"]  # across x = 366, seat A
    image[390:430, 420:448] = COLOURS["red-3"]
    assert geo.seat_of(geo.to_table(np.array([[366.0, 410.0]]))[0]) == "A"
    detector = CoarseDetector(())  # the whole frame sees both cards as they are
    dets = seat_close_ups(detector.detect, image, Detections.empty(), geo)
    assert sorted(dets.labels) == ["red-3", "yellow-1"]
    yellow = dets.xyxy[dets.labels.index("yellow-1")]
    assert yellow.tolist() == [352, 390, 380, 430]


def test_pipeline_looks_close_only_with_a_detector_that_reads_pixels() -> None:
    class FrameReader:  # the demo's oracle: knows frames by index, not pixels
        def detect_frame(self, frame):  # pragma: no cover - not called here
            raise AssertionError

    pipe = TablePipeline.__new__(TablePipeline)
    pipe.detector = FrameReader()
    assert pipe._tile_detect() is None
    pixels = CoarseDetector(("red-3", "blue-5"))
    pipe.detector = pixels
    assert pipe._tile_detect() == pixels.detect


def test_scan_waits_only_for_hands_still_to_be_read() -> None:
    """Close-ups cost four detector calls a frame: the scan asks for them only
    while a player holding cards has not been revealed yet."""
    from vision.scan import HandScan

    geo = TableGeometry.default((W, H), ["A", "B", "C"])
    counts = {"A": 0, "B": 2, "C": 1}  # A went out
    scan = HandScan(geo, game_state=lambda: {"hand_counts": counts})
    assert not scan.waiting  # off
    scan.active = True
    assert scan.waiting
    scan._sent.update({"B", "C"})  # both losers' hands sent
    assert not scan.waiting
    unknown = HandScan(geo)  # no referee counts: every seat until revealed
    unknown.active = True
    unknown._sent.update({"B", "C"})
    assert unknown.waiting


class ShyDetector(CoarseDetector):
    """Misses ``shy`` in any image more than ``big`` pixels wide: a card its
    neighbours mostly cover, found only when blown up."""

    def __init__(self, shy: str, big: int):
        super().__init__(())
        self.shy, self.big = shy, big

    def _boxes(self, image: np.ndarray) -> dict[str, list[float]]:
        boxes = super()._boxes(image)
        if image.shape[1] > self.big:
            boxes.pop(self.shy, None)
        return boxes


def test_a_window_around_a_seats_cards_finds_one_the_tiles_miss() -> None:
    geo = TableGeometry.default((W, H), ["A", "B", "C"])
    image = np.full((H, W, 3), 40, np.uint8)
    x, y = _at(geo, "seat:A").astype(int)
    image[y - 20 : y + 20, x - 45 : x - 17] = COLOURS["red-3"]
    image[y - 20 : y + 20, x - 14 : x + 14] = COLOURS["yellow-1"]
    image[y - 20 : y + 20, x + 17 : x + 45] = COLOURS["blue-5"]
    detector = ShyDetector("yellow-1", big=200)  # tiles are 366 wide
    whole = detector.detect(image)
    assert sorted(whole.labels) == ["blue-5", "red-3"]
    tiles_only = seat_close_ups(detector.detect, image, whole, geo,
                                config=ScanConfig(seat_close_up=False))
    assert sorted(tiles_only.labels) == ["blue-5", "red-3"]
    dets = seat_close_ups(detector.detect, image, whole, geo)
    assert sorted(dets.labels) == ["blue-5", "red-3", "yellow-1"]
    # only the seats asked for get a window
    calls = len(detector.calls)
    seat_close_ups(detector.detect, image, whole, geo, seats={"B"})
    assert len(detector.calls) == calls + 4


def test_seat_windows_cover_the_cards_and_skip_a_seat_too_wide() -> None:
    geo = TableGeometry.default((W, H), ["A", "B", "C"])
    x, y = _at(geo, "seat:A")
    dets = Detections(np.array([[x - 40, y - 20, x - 10, y + 20],
                                [x + 10, y - 20, x + 40, y + 20]], np.float32),
                      np.full(2, 0.9), [0, 1])
    win = seat_windows(dets, geo, (W, H))
    assert set(win) == {"A"}
    x1, y1, x2, y2 = win["A"]
    assert x1 <= x - 40 - 15 and x2 >= x + 40 + 15 and y1 <= y - 30 and y2 >= y + 30
    assert seat_windows(dets, geo, (W, H), config=ScanConfig(seat_max_area=0.001)) == {}
