"""A held card's outline found in its box and warped upright (vision.rectify),
and the still-photo read that uses it (vision.multiscale.read_turned)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detections import Detections


@pytest.fixture(autouse=True)
def _one_option_at_a_time(monkeypatch):  # noqa: ANN001, ANN202
    """The read's other options (the corner index, the colour's second read,
    the white balance; on by default) off: each test weighs one."""
    import vision.multiscale as ms

    monkeypatch.setattr(ms, "CORNER", 0.0)
    monkeypatch.setattr(ms, "RECOLOUR", False)
    monkeypatch.setattr(ms, "BALANCE", False)

CARD_W, CARD_H = 100, 155


def _card() -> np.ndarray:
    """An UNO-like card: a white border with rounded corners round a red face,
    a black corner index at its top left."""
    card = np.zeros((CARD_H, CARD_W, 3), np.uint8)
    cv2.rectangle(card, (0, 0), (CARD_W - 1, CARD_H - 1), (245, 245, 245), -1)
    cv2.rectangle(card, (9, 9), (CARD_W - 10, CARD_H - 10), (30, 30, 200), -1)
    cv2.rectangle(card, (12, 12), (30, 36), (0, 0, 0), -1)  # the corner index
    for x, y in ((0, 0), (CARD_W - 1, 0), (0, CARD_H - 1), (CARD_W - 1, CARD_H - 1)):
        cv2.circle(card, (x, y), 5, (0, 0, 0), -1)  # rounded corners: cut away
    return card


def _held(angle: float = 18.0, squeeze: float = 0.25,
          back: tuple = (70, 110, 160)) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The card turned by ``angle`` degrees and tilted out of the picture's
    plane (its right side ``squeeze`` shorter) over a skin-and-room backdrop:
    the frame, the card's true corners (top-left, top-right, bottom-right,
    bottom-left) and the finder's axis-aligned box round them."""
    frame = np.zeros((400, 400, 3), np.uint8)
    frame[:] = back
    frame[:, 200:] = (40, 60, 90)
    src = np.float32([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]])
    dst = src * 1.6
    dst[1, 1] += squeeze * 0.5 * CARD_H * 1.6
    dst[2, 1] -= squeeze * 0.5 * CARD_H * 1.6
    t = np.radians(angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    dst = (dst - dst.mean(0)) @ rot.T + [200, 200]
    persp = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    warped = cv2.warpPerspective(_card(), persp, (400, 400))
    mask = cv2.warpPerspective(np.full((CARD_H, CARD_W), 255, np.uint8), persp,
                               (400, 400))
    frame[mask > 127] = warped[mask > 127]
    frame = cv2.GaussianBlur(frame, (3, 3), 0)
    box = np.array([*dst.min(0) - 3, *dst.max(0) + 3], np.float32)
    return frame, dst.astype(np.float32), box


@pytest.mark.parametrize("angle,squeeze", [(0.0, 0.0), (18.0, 0.25), (-25.0, 0.35)])
def test_the_outline_of_a_turned_and_tilted_card_is_found(angle: float,
                                                          squeeze: float) -> None:
    from vision.rectify import card_quad

    frame, corners, box = _held(angle, squeeze)
    quad = card_quad(frame, box)
    assert quad is not None
    # each corner within a few pixels of the card's (the rounded corners cut a little)
    assert np.abs(quad - corners).max() < 0.06 * (box[3] - box[1])


def test_no_outline_where_the_box_holds_no_card() -> None:
    from vision.rectify import card_quad

    frame = np.full((200, 200, 3), (40, 60, 90), np.uint8)  # a shirt
    cv2.circle(frame, (100, 100), 30, (230, 230, 230), -1)  # a round white thing
    assert card_quad(frame, np.float32([40, 40, 160, 160])) is None
    flat = np.full((200, 200, 3), 120, np.uint8)
    assert card_quad(flat, np.float32([40, 40, 160, 160])) is None


def test_the_rectified_crop_shows_the_card_upright() -> None:
    from vision.detector import crop_boxes
    from vision.rectify import card_quad, rectified_crop

    frame, _, box = _held(22.0, 0.3)
    crop = rectified_crop(frame, card_quad(frame, box), 64, margin=0.0)
    assert crop.shape == (64, 64, 3)
    index = crop[7:14, 9:18].mean()  # the corner index, where an upright card has it
    assert index < 60
    assert crop[32, 3].min() > 180 and crop[32, 60].min() > 180  # the white border
    assert crop[30:34, 28:36, 2].mean() > 150 and crop[30:34, 28:36, 0].mean() < 80  # red face
    plain = crop_boxes(frame, box[None], 64)[0]  # the box's crop shows background corners
    assert plain[:4, :4].min() < 120 or plain[-4:, -4:].min() < 120


class _UprightReader:
    """A classifier that names blue-3 only a crop of a card standing upright
    (a dark corner index at its top left, the white border at its sides) and
    red-7 anything else, a slanted card's box among them."""

    names = None

    def __init__(self) -> None:
        from referee.cards import CLASSES

        self.names = CLASSES
        self.crop = 64

    def _verdict(self, crop: np.ndarray) -> np.ndarray:
        from referee.cards import CLASSES

        probs = np.zeros(len(CLASSES) + 1)
        upright = (crop[7:14, 9:18].mean() < 60 and crop[32, 3].min() > 180
                   and crop[32, 60].min() > 180)
        probs[CLASSES.index("blue-3" if upright else "red-7")] = 0.95
        probs[-1] = 0.05
        return probs

    def read_crops(self, crops: np.ndarray) -> np.ndarray:
        return np.stack([self._verdict(c) for c in crops])

    def _classify(self, frame: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
        from vision.detector import crop_boxes

        return self.read_crops(crop_boxes(frame, xyxy, 64))


def test_read_turned_names_a_held_card_from_its_upright_crop() -> None:
    import vision.multiscale as ms
    from referee.cards import CLASSES
    from vision.rectify import MARGIN

    frame, _, box = _held(22.0, 0.3)
    det = _UprightReader()
    card = Detections(box[None], [0.95], [CLASSES.index("red-7")], names=CLASSES)
    kept = MARGIN
    try:
        import vision.rectify as rf

        rf.MARGIN = 0.0
        assert ms.read_turned(det, frame, card, rectify=0).labels == ["red-7"]
        read = ms.read_turned(det, frame, card, rectify=1.0)
        assert read.labels == ["blue-3"]
        np.testing.assert_allclose(read.xyxy[0], box)  # the box is kept
        assert read.confidence.tolist() == pytest.approx([0.95])
        assert ms.read_turned(det, frame, card, rectify=0.6).labels == ["blue-3"]
        assert ms.read_turned(det, frame, card, rectify=0.4).labels == ["red-7"]
        # the module default is what a caller without the argument gets
        ms_kept = ms.RECTIFY
        ms.RECTIFY = 1.0
        try:
            assert ms.read_turned(det, frame, card).labels == ["blue-3"]
        finally:
            ms.RECTIFY = ms_kept
    finally:
        rf.MARGIN = kept


def test_a_box_without_a_card_outline_is_read_as_it_is() -> None:
    import vision.multiscale as ms
    from referee.cards import CLASSES

    frame = np.full((300, 300, 3), 120, np.uint8)
    det = _UprightReader()
    card = Detections(np.float32([[60, 40, 160, 200]]), [0.95], [CLASSES.index("red-7")],
                      names=CLASSES)
    read = ms.read_turned(det, frame, card, rectify=1.0)
    assert read.labels == ["red-7"]


def test_an_outline_is_kept_only_where_the_card_shows_its_white_border() -> None:
    import vision.rectify as rf

    frame, corners, box = _held(18.0, 0.25)
    assert rf._border_sides(frame, corners) == 4
    covered = frame.copy()
    # fingers over the card's left and right edges: its border shows on two sides
    left = cv2.convexHull(np.float32([corners[0], corners[3],
                                      corners[0] * 0.8 + corners[1] * 0.2,
                                      corners[3] * 0.8 + corners[2] * 0.2]))
    right = cv2.convexHull(np.float32([corners[1], corners[2],
                                       corners[1] * 0.8 + corners[0] * 0.2,
                                       corners[2] * 0.8 + corners[3] * 0.2]))
    for hand in (left, right):
        cv2.fillConvexPoly(covered, hand.astype(np.int32), (60, 90, 150))
    assert rf._border_sides(covered, corners) == 2
    kept = rf.BORDER_SIDES
    try:
        rf.BORDER_SIDES = 3
        assert rf.card_quad(frame, box) is not None
    finally:
        rf.BORDER_SIDES = kept


def test_balance_white_undoes_a_colour_cast_and_a_dim_exposure() -> None:
    from vision.multiscale import balance_white

    crop = np.zeros((1, 64, 64, 3), np.uint8)
    crop[0, :, :] = (30, 30, 200)  # a red face
    crop[0, :6], crop[0, -6:], crop[0, :, :6], crop[0, :, -6:] = (245,) * 4  # border
    cast = (crop * np.array([0.35, 0.7, 0.5])).astype(np.uint8)  # a cast, dim
    out = balance_white(cast)
    assert out.shape == cast.shape and out.dtype == np.uint8
    np.testing.assert_allclose(out[0, 2, 32], [235, 235, 235], atol=2)  # white again
    face = out[0, 32, 32]
    assert face[2] > 150 and face[0] < 60 and face[1] < 60  # red again


class _WhiteBorderReader(_UprightReader):
    """Names blue-3 a crop whose border is near white in every channel, red-7
    a crop under a colour cast."""

    def _verdict(self, crop: np.ndarray) -> np.ndarray:
        from referee.cards import CLASSES

        probs = np.zeros(len(CLASSES) + 1)
        white = crop[32, 1].min() > 200 and crop[1, 32].min() > 200
        probs[CLASSES.index("blue-3" if white else "red-7")] = 0.9
        probs[-1] = 0.1
        return probs


def test_read_turned_names_a_card_under_a_cast_from_its_balanced_crop() -> None:
    import vision.multiscale as ms
    from referee.cards import CLASSES

    frame = np.full((300, 300, 3), (40, 40, 40), np.uint8)
    frame[50:250, 90:210] = (245, 245, 245)
    frame[60:240, 100:200] = (30, 30, 200)
    frame = (frame * np.array([0.4, 0.8, 0.6])).astype(np.uint8)  # a strong cast
    det = _WhiteBorderReader()
    card = Detections(np.float32([[90, 50, 210, 250]]), [0.9],
                      [CLASSES.index("red-7")], names=CLASSES)
    assert ms.read_turned(det, frame, card, balance=False).labels == ["red-7"]
    read = ms.read_turned(det, frame, card, balance=True)
    assert read.labels == ["blue-3"]
    np.testing.assert_allclose(read.xyxy[0], [90, 50, 210, 250])
    sideways = np.ascontiguousarray(np.rot90(frame))
    flat = Detections(np.float32([[50, 90, 250, 210]]), [0.9],
                      [CLASSES.index("red-7")], names=CLASSES)
    assert ms.read_turned(det, sideways, flat, balance=True).labels == ["blue-3"]
    assert ms.read_turned(det, sideways, flat, balance=False).labels == ["red-7"]
