"""Cards played together lie fanned, and the finder boxes the fan as one card: the
deck detector's second look splits such a box only into cards the classifier names
apart (vision.decks.DeckDetector._look_again)."""

from __future__ import annotations

import numpy as np

import vision.decks as decks
from vision.detections import Detections

LABELS = ["red-5", "yellow-5", "counter", "yellow-7", "yellow-hit2"]
WHOLE = [40, 40, 80, 80]  # the fan's box: as wide as tall
LEFT, RIGHT = [40, 40, 65, 80], [55, 40, 80, 80]  # the cards a zoomed look finds


class _FannedFinder:
    """The finder at table scale: one box around the fan in the frame (160 x
    160); two boxes where it looks at the window (x, y 0..120) enlarged twice."""

    shift = 0.0  # px the fan's box lies off WHOLE (a box jittering)
    looks = 0  # windows looked at
    empty = False  # no card in the frame yet (before the fan landed)

    def __init__(self, detector) -> None:
        pass

    def detect(self, frame):  # noqa: ANN001, ANN201
        if _FannedFinder.empty:
            xyxy = np.zeros((0, 4))
        elif frame.shape[:2] == (160, 160):
            xyxy = np.array([WHOLE], float) + _FannedFinder.shift
        else:
            _FannedFinder.looks += 1
            xyxy = np.array([[80, 80, 130, 160], [110, 80, 160, 160]], float)
        return Detections(xyxy, np.ones(len(xyxy)), np.zeros(len(xyxy)),
                          names=("card",))


def _probs(label: str, p: float) -> list[float]:
    row = [(1 - p) / len(LABELS)] * (len(LABELS) + 1)
    row[LABELS.index(label)] = p
    return row


def _detector(monkeypatch, named: dict[tuple, tuple[str, float] | list[float]]):
    """A deck detector whose classifier names each box as ``named`` says (a
    label and its probability, or a row of probabilities)."""
    monkeypatch.setattr(decks, "CardFinder", _FannedFinder)
    det = object.__new__(decks.DeckDetector)
    det.labels = tuple(LABELS)
    det.named = np.ones(len(LABELS) + 1, np.float32)
    det.conf = 0.3
    det.second_look = True
    det.reads = 0
    _FannedFinder.shift, _FannedFinder.looks, _FannedFinder.empty = 0.0, 0, False

    def classify(frame, xyxy):  # noqa: ANN001, ANN202
        det.reads += len(xyxy)
        rows = [named.get(tuple(int(round(v)) for v in box), named[tuple(WHOLE)])
                for box in xyxy]
        return np.array([row if isinstance(row, list) else _probs(*row)
                         for row in rows], float)

    det._classify = classify
    return det


def _names(got: Detections) -> list[str]:
    return sorted(got.names[int(c)] for c in got.class_id)


def test_a_fan_named_as_two_cards_is_read_as_both(monkeypatch) -> None:
    det = _detector(monkeypatch, {tuple(WHOLE): ("red-5", 0.9),
                                  tuple(LEFT): ("red-5", 0.95),
                                  tuple(RIGHT): ("yellow-5", 0.7)})
    got = det.detect(np.zeros((160, 160, 3), np.uint8))
    assert _names(got) == ["red-5", "yellow-5"]


def test_a_single_card_boxed_in_pieces_stays_one_card(monkeypatch) -> None:
    # a card lying turned: the zoomed look boxes it twice, both named as it
    det = _detector(monkeypatch, {tuple(WHOLE): ("counter", 0.9),
                                  tuple(LEFT): ("counter", 0.9),
                                  tuple(RIGHT): ("counter", 0.6)})
    got = det.detect(np.zeros((160, 160, 3), np.uint8))
    assert _names(got) == ["counter"]
    assert np.allclose(got.xyxy, [WHOLE])


def test_a_fan_box_left_whole_is_read_as_its_surest_part(monkeypatch) -> None:
    # the whole box takes in a lower card peeking out and reads as another
    # card; its surest part, boxed tightly, is the card on top
    det = _detector(monkeypatch, {tuple(WHOLE): ("yellow-5", 0.6),
                                  tuple(LEFT): ("red-5", 0.95),
                                  tuple(RIGHT): ("red-5", 0.6)})
    got = det.detect(np.zeros((160, 160, 3), np.uint8))
    assert _names(got) == ["red-5"]
    assert np.allclose(got.xyxy, [WHOLE])


def test_a_piece_the_classifier_is_unsure_of_is_no_card_of_its_own(
        monkeypatch) -> None:
    # the corner of a card lower in the pile, or a piece of the top card, read
    # as another card only faintly
    det = _detector(monkeypatch, {tuple(WHOLE): ("red-5", 0.9),
                                  tuple(LEFT): ("red-5", 0.95),
                                  tuple(RIGHT): ("yellow-5", 0.35)})
    got = det.detect(np.zeros((160, 160, 3), np.uint8))
    assert _names(got) == ["red-5"]
    assert np.allclose(got.xyxy, [WHOLE])


def test_a_still_fan_is_not_looked_at_again(monkeypatch) -> None:
    det = _detector(monkeypatch, {tuple(WHOLE): ("red-5", 0.9),
                                  tuple(LEFT): ("red-5", 0.95),
                                  tuple(RIGHT): ("yellow-5", 0.7)})
    frame = np.zeros((160, 160, 3), np.uint8)
    det.detect(frame)
    first, looks = det.reads, _FannedFinder.looks
    assert _names(det.detect(frame)) == ["red-5", "yellow-5"]
    # no parts looked for again, and the reads of the parts kept
    assert (det.reads, _FannedFinder.looks) == (first, looks)


def test_a_fan_whose_box_jitters_is_not_looked_at_again(monkeypatch) -> None:
    det = _detector(monkeypatch, {tuple(WHOLE): ("red-5", 0.9),
                                  tuple(LEFT): ("red-5", 0.95),
                                  tuple(RIGHT): ("yellow-5", 0.7)})
    frame = np.zeros((160, 160, 3), np.uint8)
    det.detect(frame)
    for shift in (1.9, 2.1, -1.9, 0.4):  # a pixel or two either way
        _FannedFinder.shift = shift
        assert _names(det.detect(frame)) == ["red-5", "yellow-5"]
    assert _FannedFinder.looks == 1
    _FannedFinder.shift = 12.0  # the fan moved (a card landed on it)
    det.detect(frame)
    assert _FannedFinder.looks == 2


#: the lower card of a fan: the classifier sure of its colour (0.7 yellow) but
#: of no value
YELLOW_UNSURE = [0.05, 0.1, 0.05, 0.3, 0.3, 0.2]


def _fan_lands(det, before: np.ndarray, after: np.ndarray,  # noqa: ANN001, ANN202
               frames: int = 12):
    """``frames`` frames with no card found (the pile ``before``), then the fan
    (the pile ``after``); what the detector reads in the fan's frames."""
    _FannedFinder.empty = True
    for _ in range(frames):
        det.detect(before)
    _FannedFinder.empty = False
    return [det.detect(after) for _ in range(3)]


def test_a_fanned_card_sure_only_of_its_colour_is_the_top_cards_value(
        monkeypatch) -> None:
    # cards played together share their value: the lower one, about half of
    # it in sight, is the top card's value in the colour it shows
    det = _detector(monkeypatch, {tuple(WHOLE): ("red-5", 0.9),
                                  tuple(LEFT): ("red-5", 0.95),
                                  tuple(RIGHT): YELLOW_UNSURE})
    before = np.zeros((160, 160, 3), np.uint8)
    after = before.copy()
    after[40:80, 40:80] = 200  # the fan landed there
    for got in _fan_lands(det, before, after):
        assert _names(got) == ["red-5", "yellow-5"]
        assert got.confidence.min() >= 0.5


def test_a_card_lying_there_before_the_top_one_is_not_named_by_colour(
        monkeypatch) -> None:
    # the same reads, but the yellow card peeking out beside the top one lay
    # there before the top card came: a lower card of the pile
    det = _detector(monkeypatch, {tuple(WHOLE): ("red-5", 0.9),
                                  tuple(LEFT): ("red-5", 0.95),
                                  tuple(RIGHT): YELLOW_UNSURE})
    before = np.zeros((160, 160, 3), np.uint8)
    before[40:80, 55:80] = 120  # the lower card
    after = before.copy()
    after[40:80, 40:65] = 200  # the top card, on it
    for got in _fan_lands(det, before, after):
        assert _names(got) == ["red-5"]



#: the second look that takes a less sure part for the card on top where the
#: surest part lay there before it (off by default)
NEWER_ON = decks.LookConfig(newer_sure=0.3)


def _counter_over_red5(monkeypatch, look=None, red5_before=True):
    """A detector reading a Counter (less sure) half over a red 5 (surer),
    and the frames before and after the Counter lands: the red 5 lying there
    before it (``red5_before``) or both landing together."""
    det = _detector(monkeypatch, {tuple(WHOLE): ("red-5", 0.9),
                                  tuple(LEFT): ("counter", 0.45),
                                  tuple(RIGHT): ("red-5", 0.9)})
    if look is not None:
        det.look = look
    before = np.zeros((160, 160, 3), np.uint8)
    after = before.copy()
    if red5_before:
        before[40:80, 55:80] = 120  # the red 5, the pile's top card
        after = before.copy()
        after[40:80, 40:65] = 200  # the Counter, half over it
    else:
        after[40:80, 40:80] = 200  # both at once
    return det, before, after


def test_a_card_put_down_over_the_top_card_is_read_though_less_sure(
        monkeypatch) -> None:
    # a Counter put down half over the pile's red 5: the red 5 peeking out
    # is the surer read, but it lay there before the Counter came, so the
    # Counter is the card on top, read alone
    det, before, after = _counter_over_red5(monkeypatch, NEWER_ON)
    for got in _fan_lands(det, before, after):
        assert _names(got) == ["counter"]
        assert np.allclose(got.xyxy, [LEFT])


def test_a_less_sure_card_that_came_with_the_surest_one_does_not_replace_it(
        monkeypatch) -> None:
    # the same reads, but both cards came together (a fan landing on an
    # empty spot): the surest part stays the card on top
    det, before, after = _counter_over_red5(monkeypatch, NEWER_ON, red5_before=False)
    for got in _fan_lands(det, before, after):
        assert _names(got) == ["red-5"]


def test_the_newer_part_check_is_off_by_default(monkeypatch) -> None:
    det, before, after = _counter_over_red5(monkeypatch)
    for got in _fan_lands(det, before, after):
        assert _names(got) == ["red-5"]


RED, YELLOW = (40, 40, 220), (30, 210, 230)  # BGR, as card faces print them
#: the second look with its pixel check on (off by default)
PIXELS_ON = decks.LookConfig(pixel_share=0.3)


def test_a_fanned_card_named_as_the_top_one_is_read_by_its_new_colour(
        monkeypatch) -> None:
    # the lower card of a fan, half covered, named as the top card itself
    # (the top card's corner lies in its box too); its new pixels beside the
    # top card print yellow: the top card's value in yellow
    det = _detector(monkeypatch, {tuple(WHOLE): ("red-5", 0.9),
                                  tuple(LEFT): ("red-5", 0.95),
                                  tuple(RIGHT): ("red-5", 0.72)})
    det.look = PIXELS_ON
    before = np.zeros((160, 160, 3), np.uint8)
    after = before.copy()
    after[40:80, 40:65] = RED
    after[40:80, 65:80] = YELLOW
    for got in _fan_lands(det, before, after):
        assert _names(got) == ["red-5", "yellow-5"]
        assert got.confidence.min() >= 0.5


def test_a_card_boxed_in_pieces_of_its_own_colour_stays_one_card(
        monkeypatch) -> None:
    # the same reads, but the pixels beside the top part print its own colour:
    # one red card lying turned, boxed twice
    det = _detector(monkeypatch, {tuple(WHOLE): ("red-5", 0.9),
                                  tuple(LEFT): ("red-5", 0.95),
                                  tuple(RIGHT): ("red-5", 0.72)})
    det.look = PIXELS_ON
    before = np.zeros((160, 160, 3), np.uint8)
    after = before.copy()
    after[40:80, 40:80] = RED
    for got in _fan_lands(det, before, after):
        assert _names(got) == ["red-5"]


def test_a_lower_card_of_another_colour_named_as_the_top_one_stays_below(
        monkeypatch) -> None:
    # the yellow pixels beside the top card lay there before it came: a card
    # lower in the pile, no card played with it
    det = _detector(monkeypatch, {tuple(WHOLE): ("red-5", 0.9),
                                  tuple(LEFT): ("red-5", 0.95),
                                  tuple(RIGHT): ("red-5", 0.72)})
    det.look = PIXELS_ON
    before = np.zeros((160, 160, 3), np.uint8)
    before[40:80, 55:80] = YELLOW
    after = before.copy()
    after[40:80, 40:65] = RED
    for got in _fan_lands(det, before, after):
        assert _names(got) == ["red-5"]


def test_card_colours_by_pixel() -> None:
    pixels = np.array([RED, YELLOW, (200, 90, 30), (60, 170, 60), (240, 240, 240),
                       (20, 20, 20)], np.uint8)
    assert list(decks.card_colour_of(pixels)) == ["red", "yellow", "blue", "green",
                                                  "", ""]


def test_a_fanned_card_named_unsurely_as_the_top_one_is_read_by_its_new_colour(
        monkeypatch) -> None:
    # the lower card named as the top card, unsurely, and not surely of any
    # colour either: its new pixels beside the top card print yellow
    det = _detector(monkeypatch, {tuple(WHOLE): ("red-5", 0.9),
                                  tuple(LEFT): ("red-5", 0.95),
                                  tuple(RIGHT): ("red-5", 0.4)})
    det.look = PIXELS_ON
    before = np.zeros((160, 160, 3), np.uint8)
    after = before.copy()
    after[40:80, 40:65] = RED
    after[40:80, 65:80] = YELLOW
    for got in _fan_lands(det, before, after):
        assert _names(got) == ["red-5", "yellow-5"]
        assert got.confidence.min() >= 0.4


def test_the_pixel_check_is_off_by_default(monkeypatch) -> None:
    det = _detector(monkeypatch, {tuple(WHOLE): ("red-5", 0.9),
                                  tuple(LEFT): ("red-5", 0.95),
                                  tuple(RIGHT): ("red-5", 0.72)})
    before = np.zeros((160, 160, 3), np.uint8)
    after = before.copy()
    after[40:80, 40:65] = RED
    after[40:80, 65:80] = YELLOW
    for got in _fan_lands(det, before, after):
        assert _names(got) == ["red-5"]
