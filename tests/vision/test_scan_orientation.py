"""The round-end scan reads a shown 6 or 9 whose underline is hidden by which end
of its digit the loop is at, the card upright toward its seat; its close-ups
keep a card whose probability the 6 and the 9 split between them."""

from __future__ import annotations

import cv2
import numpy as np

from referee.cards import CLASSES
from vision.config import ScanConfig
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.scan import loop_end, seat_close_ups, turn_twins, twin_of

W, H = 640, 480
RED = (40, 40, 215)
CARD = (60, 92)  # px: about a card's size on the default table


def _card(value: str, turned: bool = False) -> np.ndarray:
    """A red card face: white oval, the value in the middle, no underline (the
    part of a card a neighbour laid over it leaves in sight)."""
    w, h = CARD
    img = np.full((h, w, 3), 255, np.uint8)
    cv2.rectangle(img, (3, 3), (w - 4, h - 4), RED, -1)
    cv2.ellipse(img, (w // 2, h // 2), (w // 2 - 6, h // 3), 0, 0, 360,
                (255, 255, 255), -1)
    (tw, th), _ = cv2.getTextSize(value, cv2.FONT_HERSHEY_SIMPLEX, 1.4, 4)
    cv2.putText(img, value, ((w - tw) // 2, (h + th) // 2), cv2.FONT_HERSHEY_SIMPLEX,
                1.4, RED, 4, cv2.LINE_AA)
    return np.ascontiguousarray(img[::-1, ::-1]) if turned else img


def _table(players: list[str], seat: str, face: np.ndarray):
    """A green table with ``face`` lying in ``seat``; its box in the frame."""
    geo = TableGeometry.default((W, H), players)
    image = np.full((H, W, 3), (60, 130, 40), np.uint8)
    x, y = geo.to_image(geo.zones[f"seat:{seat}"].centre[None])[0]
    x, y = int(x), int(y)
    x = min(max(x, CARD[0]), W - CARD[0])
    y = min(max(y, CARD[1]), H - CARD[1])
    x1, y1 = x - CARD[0] // 2, y - CARD[1] // 2
    image[y1 : y1 + CARD[1], x1 : x1 + CARD[0]] = face
    assert geo.seat_of(geo.to_table(np.array([[x, y]]))[0]) == seat
    return geo, image, np.array([x1, y1, x1 + CARD[0], y1 + CARD[1]], np.float32)


def _read(probs: dict[str, float], box: np.ndarray) -> Detections:
    p = np.full(len(CLASSES), 0.001, np.float32)
    for label, v in probs.items():
        p[CLASSES.index(label)] = v
    top = int(np.argmax(p))
    return Detections(box[None], np.array([p[top]]), [top], data={"probs": p[None]})


def test_the_turned_twin_of_a_six_is_a_nine() -> None:
    assert twin_of("red-6") == "red-9"
    assert twin_of("blue-9") == "blue-6"
    assert twin_of("red-8") is None
    assert twin_of("wild") is None


def test_the_loop_of_a_six_is_at_its_bottom_and_of_a_nine_at_its_top() -> None:
    box = np.array([0, 0, *CARD], np.float32)
    up = np.array([0.0, -1.0])
    assert loop_end(_card("6"), box, up) < -ScanConfig().loop_offset
    assert loop_end(_card("9"), box, up) > ScanConfig().loop_offset
    # turned over, the same card's loop is at the other end of the frame
    assert loop_end(_card("6", turned=True), box, up) > ScanConfig().loop_offset
    assert loop_end(_card("6", turned=True), box, -up) < -ScanConfig().loop_offset
    assert loop_end(np.full((*CARD[::-1], 3), 255, np.uint8), box, up) is None


def test_a_hesitant_six_or_nine_is_read_by_its_loop() -> None:
    for value, label in (("6", "red-6"), ("9", "red-9")):
        geo, image, box = _table(["A", "B", "C"], "A", _card(value))
        # the detector leans the wrong way either time
        wrong = "red-9" if value == "6" else "red-6"
        dets = _read({wrong: 0.45, twin_of(wrong): 0.40, "red-8": 0.05}, box)
        read = turn_twins(image, dets, geo)
        assert read.labels == [label]
        assert read.confidence[0] >= 0.85 - 1e-6  # the pair's probability
        assert dets.labels == [wrong]  # the input is left as it was


def test_a_card_facing_the_seat_across_the_table_is_read_turned() -> None:
    # four players: C sits across from the camera and lays its cards facing
    # itself, upside down to the camera: its 6 looks like a 9 from here
    geo, image, box = _table(["A", "B", "C", "D"], "C", _card("6", turned=True))
    dets = _read({"red-9": 0.5, "red-6": 0.4}, box)
    assert turn_twins(image, dets, geo).labels == ["red-6"]
    # the same picture in the camera's own seat is a 9 facing its player
    geo, image, box = _table(["A", "B", "C", "D"], "A", _card("6", turned=True))
    dets = _read({"red-6": 0.5, "red-9": 0.4}, box)
    assert turn_twins(image, dets, geo).labels == ["red-9"]


def test_a_sure_read_and_other_doubts_stay_as_read() -> None:
    geo, image, box = _table(["A", "B", "C"], "A", _card("6"))
    sure = _read({"red-9": 0.95, "red-6": 0.04}, box)
    assert turn_twins(image, sure, geo).labels == ["red-9"]
    other = _read({"red-9": 0.5, "red-8": 0.4}, box)  # the runner-up is no twin
    assert turn_twins(image, other, geo).labels == ["red-9"]
    off = ScanConfig(turn_sure=0)
    split = _read({"red-9": 0.5, "red-6": 0.4}, box)
    assert turn_twins(image, split, geo, config=off).labels == ["red-9"]
    assert turn_twins(image, split, geo, seats=["B"]).labels == ["red-9"]


class SplitDetector:
    """Finds the red card and reads it split between the two labels it is given;
    like the shipped detector, drops a read below its ``conf``."""

    def __init__(self, first: str, second: str, conf: float = 0.35):
        self.labels = (first, second)
        self.conf = conf
        self.confs: list[float] = []

    def detect(self, image: np.ndarray, conf: float | None = None) -> Detections:
        least = self.conf if conf is None else conf
        self.confs.append(least)
        ys, xs = np.nonzero(np.all(image == RED, axis=2))
        if not len(xs):
            return Detections.empty()
        box = np.array([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1], np.float32)
        dets = _read({self.labels[0]: 0.30, self.labels[1]: 0.26}, box)
        return dets[np.nonzero(dets.confidence >= least)[0]]


def test_close_ups_keep_a_card_split_between_six_and_nine() -> None:
    geo, image, _ = _table(["A", "B", "C"], "A", _card("6"))
    twins = SplitDetector("red-9", "red-6")
    dets = seat_close_ups(twins.detect, image, Detections.empty(), geo)
    assert dets.labels == ["red-6"]  # kept, and read by its loop
    assert min(twins.confs) == ScanConfig().turn_keep
    assert twins.conf == 0.35  # the detector's own threshold is left as it is
    # a card split between two labels that are no twins is still dropped
    others = SplitDetector("red-3", "red-5")
    assert not len(seat_close_ups(others.detect, image, Detections.empty(), geo))


def test_a_six_or_nine_split_with_the_zero_is_read_by_its_loop() -> None:
    # a far card's few pixels split its probability between the one-loop
    # digits of its colour, the 0 among them
    for value, read_as, runner_up in (("9", "red-0", "red-9"), ("6", "red-9", "red-0")):
        geo, image, box = _table(["A", "B", "C"], "A", _card(value))
        dets = _read({read_as: 0.45, runner_up: 0.30, "red-8": 0.05}, box)
        read = turn_twins(image, dets, geo)
        assert read.labels == [f"red-{value}"]
        assert read.confidence[0] >= 0.75 - 1e-6  # the colour's one-loop probability
    # a 0's loop lies at its centre: it stays as read
    geo, image, box = _table(["A", "B", "C"], "A", _card("0"))
    assert loop_end(image, box, np.array([0.0, -1.0])) is not None
    dets = _read({"red-0": 0.45, "red-9": 0.30}, box)
    assert turn_twins(image, dets, geo).labels == ["red-0"]


def test_the_loop_is_found_in_the_oval_a_fanned_card_edge_joins() -> None:
    # the white edge of the card laid below joins the oval: its hull would
    # take in that card's ink; the hole the oval closes round the digit does not
    w, h = CARD
    face = _card("6")
    face[:3], face[-3:], face[:, :3], face[:, -3:] = RED, RED, RED, RED  # no margin
    image = np.full((h + 40, w, 3), (60, 130, 40), np.uint8)
    image[:h] = face
    image[h - 14 : h + 40] = 255  # the next card's white border and face
    cv2.rectangle(image, (w // 2 - 15, h // 2 + 24), (w // 2 + 15, h), (255, 255, 255), -1)
    # the card below's symbol, cut by the box's edge, more ink than the digit
    cv2.circle(image, (w // 2, h + 40), 24, RED, 10)
    box = np.array([0, 0, w, h + 40], np.float32)
    assert loop_end(image, box, np.array([0.0, -1.0])) < -ScanConfig().loop_offset
