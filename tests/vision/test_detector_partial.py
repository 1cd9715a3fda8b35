"""With ``detector.finder_crop_margin`` set, the finder searches only the part
of a frame that changed: a crop around the moved blocks at the whole frame's
scale, merged with the boxes kept elsewhere; the whole frame when the crop cut a
card it took, when the change is large, and every few crop searches
(``detector.finder_crop_*``, ``detector.finder_whole_every``). A negative
margin searches every changed frame whole."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision import detector as detector_module  # noqa: E402
from vision.openvino_runtime import OpenVinoFinder  # noqa: E402

MODEL = detector_module.default_model()
needs_openvino = pytest.mark.skipif(
    MODEL.suffix == ".pt" or not MODEL.exists()
    or not (detector_module.MODEL_DIR / detector_module.CLASSIFIER_NAME).exists(),
    reason="the shipped OpenVINO finder or the classifier is absent",
)

W, H = 640, 480
CONF = 0.5
MARGIN = 96.0  # px: a card's longest box on these tables


class RedFinder(OpenVinoFinder):
    """A finder whose cards are red rectangles: each red blob in the part of
    the frame it is shown (the whole frame, or the frame's pixels a window
    covers) is one box, cut where that part ends. Windows as the real finder
    makes them (a dynamic export at 256); every call's window logged."""

    def __init__(self) -> None:  # no network
        self.imgsz, self.rect, self.static = 256, False, None
        self._compiled: dict = {}
        self.windows: list = []

    def __call__(self, frame, conf, iou, max_det, agnostic=False, window=None):  # noqa: ANN001, ANN204
        h, w = frame.shape[:2]
        self.windows.append(window)
        x1, y1, x2, y2 = ((0, 0, w, h) if window is None
                          else (round(v) for v in self.window_region(h, w, window)))
        red = ((frame[y1:y2, x1:x2, 2] > 200) & (frame[y1:y2, x1:x2, 1] < 60)
               ).astype(np.uint8)
        _, _, stats, _ = cv2.connectedComponentsWithStats(red)
        boxes = np.array([[x1 + x, y1 + y, x1 + x + bw, y1 + y + bh]
                          for x, y, bw, bh, area in stats[1:] if area > 50],
                         np.float32).reshape(-1, 4)
        return boxes, np.full(len(boxes), 0.9, np.float32), np.zeros(len(boxes), np.int32)


@pytest.fixture(scope="module")
def loaded():
    return detector_module.Detector()


@pytest.fixture()
def detector(loaded, monkeypatch):
    """The shipped detector with the red-rectangle finder, the crop search on
    (margin :data:`MARGIN`), its other settings the shipped ones."""
    finder = RedFinder()
    monkeypatch.setattr(loaded, "model", finder)
    loaded.forget()
    for name, value in detector_module.finder_crop(detector_module._DEFAULTS).items():
        monkeypatch.setattr(loaded, name, value)
    monkeypatch.setattr(loaded, "crop_margin", MARGIN)
    for name in ("finder_kept", "finder_cropped", "finder_whole", "finder_crop_fallbacks"):
        monkeypatch.setattr(loaded, name, 0)
    yield loaded
    loaded.forget()


def table(*cards: tuple[int, int, int, int]) -> np.ndarray:
    """A grey 640x480 table with red cards (x, y, width, height)."""
    frame = np.full((H, W, 3), 100, np.uint8)
    for x, y, w, h in cards:
        frame[y:y + h, x:x + w] = (30, 30, 230)
    return frame


def find(detector, frame):  # noqa: ANN001, ANN201
    return detector._find(frame, CONF, True)


def boxes_of(found) -> set:  # noqa: ANN001
    return {tuple(int(round(v)) for v in box) for box in found[0]}


A = (40, 40, 60, 90)    # a card far from the changes below
B = (480, 330, 60, 90)


@needs_openvino
def test_boxes_outside_the_change_are_kept(detector) -> None:
    finder = detector.model
    first = find(detector, table(A, B))
    assert boxes_of(first) == {(40, 40, 100, 130), (480, 330, 540, 420)}
    assert finder.windows == [None]
    hand = table(A, B)
    hand[200:260, 280:330] = 40  # a hand (no card) in the middle of the table
    second = find(detector, hand)
    window = finder.windows[-1]
    assert window is not None  # a crop, not the whole frame
    y1, y2, x1, x2 = window
    assert (y2 - y1) * (x2 - x1) < 256 * 256 // 2
    assert boxes_of(second) == boxes_of(first)
    assert detector.finder_cropped == 1 and detector.finder_whole == 1


@needs_openvino
def test_a_card_moved_inside_the_change_gets_its_new_box(detector) -> None:
    finder = detector.model
    find(detector, table(A, B))
    moved = find(detector, table(A, (500, 300, 60, 90)))
    assert finder.windows[-1] is not None
    assert boxes_of(moved) == {(40, 40, 100, 130), (500, 300, 560, 390)}
    # a card put down where nothing was, and one taken away
    laid = find(detector, table(A, (500, 300, 60, 90), (300, 200, 60, 90)))
    assert finder.windows[-1] is not None
    assert boxes_of(laid) == {(40, 40, 100, 130), (500, 300, 560, 390),
                              (300, 200, 360, 290)}
    gone = find(detector, table(A, (300, 200, 60, 90)))
    assert finder.windows[-1] is not None
    assert boxes_of(gone) == {(40, 40, 100, 130), (300, 200, 360, 290)}
    assert detector.finder_whole == 1


@needs_openvino
def test_a_card_cut_by_the_crop_searches_the_whole_frame(detector, monkeypatch) -> None:
    """A finger on the corner of a large card (held near the camera) moves a
    few blocks; with a margin smaller than the card, the crop cuts it: the
    whole frame is searched and the card keeps its whole box."""
    finder = detector.model
    monkeypatch.setattr(detector, "crop_margin", 8.0)
    big = (200, 150, 200, 200)
    find(detector, table(A, big))
    finger = table(A, big)
    finger[165:175, 215:225] = 40
    found = find(detector, finger)
    assert finder.windows[-2] is not None and finder.windows[-1] is None
    assert detector.finder_crop_fallbacks == 1
    assert boxes_of(found) == {(40, 40, 100, 130), (200, 150, 400, 350)}
    # with a margin as large as the card, the crop holds it
    monkeypatch.setattr(detector, "crop_margin", 200.0)
    finger[165:175, 215:225] = 60
    found = find(detector, finger)
    assert finder.windows[-1] is not None and detector.finder_crop_fallbacks == 1
    assert boxes_of(found) == {(40, 40, 100, 130), (200, 150, 400, 350)}


@needs_openvino
def test_the_whole_frame_is_searched_every_few_crops(detector, monkeypatch) -> None:
    finder = detector.model
    monkeypatch.setattr(detector, "whole_every", 3)
    for k in range(9):
        frame = table(A, B)
        frame[200:240, 250 + 10 * k:290 + 10 * k] = 40  # a hand moving
        find(detector, frame)
    whole = [w is None for w in finder.windows]
    assert whole == [True, False, False, False, True, False, False, False, True]


@needs_openvino
def test_a_large_change_searches_the_whole_frame(detector) -> None:
    finder = detector.model
    find(detector, table(A, B))
    small = table(A, B)
    small[200:240, 280:320] = 40
    find(detector, small)
    assert finder.windows[-1] is not None
    large = table(A, B)
    large[:, :400] = 60  # a shadow over most of the table
    large[40:130, 40:100] = (30, 30, 230)
    found = find(detector, large)
    assert finder.windows[-1] is None
    assert boxes_of(found) == {(40, 40, 100, 130), (480, 330, 540, 420)}


@needs_openvino
def test_blocks_outside_the_crop_keep_their_reference(detector, monkeypatch) -> None:
    """A slow change outside the crop is compared with the frame the finder
    last searched there, not with the frames in between: it cannot add up
    unseen while crops are searched elsewhere."""
    finder = detector.model
    monkeypatch.setattr(detector, "whole_every", 0)
    monkeypatch.setattr(detector, "crop_share", 1.0)
    base = table(A, B)
    find(detector, base)
    level = int(detector.still_level)
    regions = []
    for k in range(1, 4):
        frame = base.copy()
        frame[100:140, 450 + 10 * k:490 + 10 * k] = 40  # a hand moving
        # the corner away from the hand brightens by the tolerance each frame
        frame[440:, :40] = np.clip(100 + k * level, 0, 255)
        find(detector, frame)
        assert finder.windows[-1] is not None
        regions.append(finder.window_region(H, W, finder.windows[-1]))
    # the first frame's corner is within the tolerance: not searched
    assert regions[0][0] > 40 or regions[0][3] < 440
    # on the second it moved over the tolerance from the frame the finder last
    # saw there (not from the frame before): the crop takes it in
    assert regions[1][0] <= 0 and regions[1][3] >= H
    # and the third compares with the second there
    assert regions[2][0] > 40 or regions[2][3] < 440


@needs_openvino
def test_a_negative_margin_searches_a_changed_frame_whole(loaded, monkeypatch) -> None:
    finder = RedFinder()
    monkeypatch.setattr(loaded, "model", finder)
    monkeypatch.setattr(loaded, "crop_margin", -1.0)
    loaded.forget()
    find(loaded, table(A, B))
    hand = table(A, B)
    hand[200:260, 280:330] = 40
    find(loaded, hand)
    assert finder.windows == [None, None]
    loaded.forget()


@needs_openvino
def test_a_window_sees_a_card_as_the_whole_frame_does() -> None:
    """The real finder on a crop of the whole frame's input, at its scale,
    finds a card far from the crop's sides where the whole-frame search does."""
    from benchmarks.bench_detector import frame_640x480

    finder = OpenVinoFinder(MODEL, 256, threads=1)
    frame = frame_640x480()
    boxes, scores, _ = finder(frame, 0.3, 0.5, 50, agnostic=True)
    assert len(boxes)
    x1, y1, x2, y2 = boxes[np.argmax(scores)]
    window = finder.window(480, 640, (x1 - 100, y1 - 100, x2 + 100, y2 + 100), 2)
    wy1, wy2, wx1, wx2 = window
    assert (wy2 - wy1) % 32 == 0 and (wx2 - wx1) % 32 == 0
    assert (wy2 - wy1) * (wx2 - wx1) < 256 * 256
    crop, crop_scores, _ = finder(frame, 0.3, 0.5, 50, agnostic=True, window=window)
    near = np.abs(crop - np.array([x1, y1, x2, y2])).max(axis=1)
    assert near.min() <= 3.0
    assert abs(crop_scores[near.argmin()] - scores.max()) <= 0.05


class JitterFinder(RedFinder):
    """:class:`RedFinder` whose crop searches find each card a pixel or three
    off its whole-frame box, by a shift that changes from crop to crop (the
    network sees less around a card in a crop)."""

    def __call__(self, frame, conf, iou, max_det, agnostic=False, window=None):  # noqa: ANN001, ANN204
        boxes, scores, classes = super().__call__(frame, conf, iou, max_det,
                                                  agnostic=agnostic, window=window)
        if window is not None:
            shift = 1 + len(self.windows) % 3
            boxes = boxes + np.array([shift, -shift, shift, shift], np.float32)
        return boxes, scores, classes


def box_near(found, x: int, y: int) -> np.ndarray:  # noqa: ANN001
    """The box of ``found`` whose corner is within 5 px of (x, y)."""
    near = [box for box in found[0] if abs(box[0] - x) <= 5 and abs(box[1] - y) <= 5]
    assert len(near) == 1, found[0]
    return np.array(near[0])


@needs_openvino
def test_a_still_card_keeps_its_exact_box_whatever_search_ran(detector, monkeypatch) -> None:
    """Hands moving on both sides of a still card put it inside the crop, and
    every few frames the whole frame is searched: the card keeps its box to
    the last bit. A card put down (found by a crop) keeps the crop's box
    through the whole-frame searches after it; moved, it gets its new box."""
    finder = JitterFinder()
    monkeypatch.setattr(detector, "model", finder)
    monkeypatch.setattr(detector, "whole_every", 2)
    C = (300, 200, 60, 90)
    first = find(detector, table(A, C))
    c_box, a_box = box_near(first, 300, 200), box_near(first, 40, 40)
    for k in range(5):
        frame = table(A, C)
        frame[200:260, 200 + 5 * k:250 + 5 * k] = 40   # a hand left of the card
        frame[200:260, 400 + 5 * k:450 + 5 * k] = 40   # and one right of it
        found = find(detector, frame)
        assert np.array_equal(box_near(found, 300, 200), c_box)
        assert np.array_equal(box_near(found, 40, 40), a_box)
    assert detector.finder_cropped >= 3 and detector.finder_whole >= 2
    # a card put down beside the right hand, found by a crop search
    D = (470, 330, 60, 90)
    monkeypatch.setattr(detector, "whole_every", 0)
    frame = table(A, C, D)
    frame[200:260, 220:270] = 40  # the hands where they were
    frame[200:260, 420:470] = 40
    found = find(detector, frame)
    assert finder.windows[-1] is not None
    monkeypatch.setattr(detector, "whole_every", 2)
    d_box = box_near(found, 470, 330)
    assert not np.array_equal(d_box, np.array([470, 330, 530, 420], np.float32))
    whole = detector.finder_whole
    for k in range(4):
        frame = table(A, C, D)
        frame[200:260, 200 + 5 * k:250 + 5 * k] = 40   # the left hand moves on
        found = find(detector, frame)
        assert np.array_equal(box_near(found, 470, 330), d_box)
        assert np.array_equal(box_near(found, 300, 200), c_box)
    assert detector.finder_whole > whole  # a whole-frame search among them
    # the card moved a few px: its new box
    moved = find(detector, table(A, C, (476, 334, 60, 90)))
    new = box_near(moved, 476, 334)
    assert np.abs(new - np.array([476, 334, 536, 424])).max() <= 3
    assert np.array_equal(box_near(moved, 300, 200), c_box)


@needs_openvino
def test_a_whole_frame_search_snaps_only_still_cards(detector, monkeypatch) -> None:
    """A card found by a crop and then moved by a few px (its blocks
    moved) gets the whole-frame search's box, not its old one."""
    finder = JitterFinder()
    monkeypatch.setattr(detector, "model", finder)
    monkeypatch.setattr(detector, "whole_every", 1)
    D = (470, 330, 60, 90)
    find(detector, table(A))
    laid = find(detector, table(A, D))
    assert finder.windows[-1] is not None
    d_box = box_near(laid, 470, 330)
    nudged = find(detector, table(A, (475, 330, 60, 90)))
    assert finder.windows[-1] is None  # whole_every 1: the whole frame
    assert np.array_equal(box_near(nudged, 475, 330),
                          np.array([475, 330, 535, 420], np.float32))
    assert not np.array_equal(box_near(nudged, 475, 330), d_box)


@needs_openvino
def test_a_card_a_hand_passed_over_gets_its_box_back(detector, monkeypatch) -> None:
    """A hand over part of a card, then gone: the crop search that sees the
    card whole again gives it the box it had before, not the crop's own."""
    finder = JitterFinder()
    monkeypatch.setattr(detector, "model", finder)
    monkeypatch.setattr(detector, "whole_every", 0)
    C = (300, 200, 60, 90)
    before = box_near(find(detector, table(A, C)), 300, 200)
    covered = table(A, C)
    covered[250:300, 280:380] = 40  # a hand over the card's lower half
    find(detector, covered)
    assert finder.windows[-1] is not None
    after = find(detector, table(A, C))
    assert finder.windows[-1] is not None
    assert np.array_equal(box_near(after, 300, 200), before)
