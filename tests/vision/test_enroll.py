"""The multi-scale pass and deck enrollment, on rendered close-ups of cards."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.detections import Detections
from vision.multiscale import detect_multiscale, drop_nested, largest, parse_zooms


def _close_up(label: str, fill: float, seed: int, design: str = "classic"):
    """A 480x640 photo of one rendered card ``fill`` of the frame high, and its box."""
    from datasets.cards import render_card

    rng = np.random.default_rng(seed)
    frame = np.empty((480, 640, 3), np.uint8)
    frame[:] = rng.integers(60, 200, 3)
    frame = cv2.add(frame, rng.integers(0, 30, frame.shape).astype(np.uint8))
    rgba = np.asarray(render_card(label, design, height=int(480 * fill)))
    bgr, alpha = rgba[:, :, 2::-1], rgba[:, :, 3:] / 255.0
    h, w = bgr.shape[:2]
    y, x = (480 - h) // 2, (640 - w) // 2 + int(rng.integers(-30, 31))
    frame[y:y + h, x:x + w] = (bgr * alpha + frame[y:y + h, x:x + w] * (1 - alpha))
    return frame, np.array([x, y, x + w, y + h], np.float32)


class _PartsOnlyAtFullSize:
    """A stand-in detector for a close-up: at full size it boxes the card's centre
    number and a corner index; zoomed out it boxes the whole card."""

    def __init__(self, card: np.ndarray, frame_shape: tuple[int, int]) -> None:
        self.card, self.shape = card, frame_shape

    def detect(self, frame: np.ndarray) -> Detections:
        x1, y1, x2, y2 = self.card
        if frame.shape[:2] == self.shape:  # zoom 1: parts of the card
            w, h = x2 - x1, y2 - y1
            centre = [x1 + 0.3 * w, y1 + 0.3 * h, x2 - 0.3 * w, y2 - 0.3 * h]
            index = [x1 + 2, y1 + 2, x1 + 0.2 * w, y1 + 0.15 * h]
            return Detections([centre, index], [0.9, 0.8], [7, 7])
        oy = (frame.shape[0] - self.shape[0]) // 2
        ox = (frame.shape[1] - self.shape[1]) // 2
        return Detections([[x1 + ox, y1 + oy, x2 + ox, y2 + oy]], [0.7], [7])


def test_zoomed_out_pass_boxes_the_whole_card_not_its_parts() -> None:
    frame = np.zeros((400, 300, 3), np.uint8)
    card = np.array([10, 8, 290, 392], np.float32)  # 95 % of the frame
    fake = _PartsOnlyAtFullSize(card, frame.shape[:2])
    one = detect_multiscale(fake, frame, (1.0,))
    assert len(one) == 2  # one pass: two parts of the card
    dets = detect_multiscale(fake, frame, (1.0, 0.5))
    assert len(dets) == 1
    np.testing.assert_allclose(dets.xyxy[0], card, atol=1)


def test_drop_nested_keeps_separate_cards_and_merges_duplicates() -> None:
    dets = Detections(
        [[0, 0, 110, 160], [30, 40, 60, 80],  # a card and its centre number
         [200, 0, 300, 150], [202, 1, 301, 149]],  # another card, boxed twice
        [0.6, 0.95, 0.8, 0.7], [1, 2, 3, 3])
    kept = drop_nested(dets)
    assert sorted(kept.xyxy[:, 0].tolist()) == [0, 200]
    assert kept.confidence.tolist() == pytest.approx([0.8, 0.6])
    assert largest(kept).xyxy[0, 0] == 0


def test_parse_zooms() -> None:
    assert parse_zooms("1, 0.5") == (1.0, 0.5)
    for bad in ("", "0", "2", "a"):
        with pytest.raises(ValueError):
            parse_zooms(bad)


@pytest.fixture(scope="module")
def detector():
    from vision.detector import Detector

    return Detector()


@pytest.mark.parametrize("fill", [0.6, 0.95])
def test_multiscale_boxes_a_close_up_whole(detector, fill) -> None:
    frame, card = _close_up("blue-7", fill, seed=3)
    best = largest(detect_multiscale(detector, frame))
    assert best.labels == ["blue-7"]
    x1, y1, x2, y2 = best.xyxy[0]
    covered = ((min(x2, card[2]) - max(x1, card[0]))
               * (min(y2, card[3]) - max(y1, card[1])))
    assert covered >= 0.8 * (card[2] - card[0]) * (card[3] - card[1])


LABELS = ("red-7", "blue-draw2", "wild-draw4")


@pytest.fixture(scope="module")
def photo_folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("photos")
    for i, label in enumerate(LABELS):
        (root / label).mkdir()
        for j in range(2):
            frame, _ = _close_up(label, 0.7 + 0.1 * j, seed=10 * i + j)
            cv2.imwrite(str(root / label / f"{j}.png"), frame)
    return root


@pytest.fixture(scope="module")
def enrolled(photo_folder, tmp_path_factory):
    """``tableref enroll`` into a fresh store folder: (store, exit code, output)."""
    import contextlib
    import io

    from tableref.cli import main

    store = tmp_path_factory.mktemp("store")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["enroll", "--deck", "kitchen", str(photo_folder),
                     "--steps", "6", "--decks-dir", str(store / "decks")])
    return store, code, out.getvalue()


def test_enroll_stores_the_deck_and_reports_what_is_missing(enrolled) -> None:
    from referee.cards import CLASSES

    store, code, text = enrolled
    assert code == 0, text
    folder = store / "decks" / "kitchen"
    manifest = json.loads((folder / "deck.json").read_text())
    assert manifest["photos"] == {label: 2 for label in LABELS}
    assert set(manifest["missing"]) == set(CLASSES) - set(LABELS)
    assert "missing labels: red-0" in text and "fine-tuning network 2/2" in text
    assert (folder / "cardnet.pt").is_file()


def test_fine_tuning_stays_close_to_the_shipped_weights(enrolled) -> None:
    import torch

    from vision.detector import CLASSIFIER_NAME, MODEL_DIR

    store, _, _ = enrolled
    tuned = torch.load(store / "decks" / "kitchen" / "cardnet.pt", weights_only=True)
    base = torch.load(MODEL_DIR / CLASSIFIER_NAME, weights_only=True)
    assert tuned["labels"] and tuned["base"] == CLASSIFIER_NAME
    for a, b in zip(tuned["members"], base["members"]):
        moved = sum(float((a[k].float() - b[k].float()).norm()) for k in b)
        size = sum(float(b[k].float().norm()) for k in b)
        assert 0 < moved < 0.05 * size


def test_decks_lists_and_detect_reads_with_an_enrolled_deck(
    enrolled, photo_folder, monkeypatch, capsys,
) -> None:
    from tableref.cli import main

    store, _, _ = enrolled
    monkeypatch.setenv("TABLEREF_DB", str(store / "tableref.sqlite3"))
    assert main(["decks"]) == 0
    assert capsys.readouterr().out.startswith("kitchen\t6 photos of 3 cards")
    photo = photo_folder / "red-7" / "0.png"
    assert main(["detect", "--deck", "kitchen", str(photo)]) == 0
    cards = json.loads(capsys.readouterr().out)["cards"]
    assert cards[0]["label"] == "red-7"


def test_unknown_deck_is_a_clear_error(enrolled, monkeypatch, capsys) -> None:
    from tableref.cli import main

    store, _, _ = enrolled
    monkeypatch.setenv("TABLEREF_DB", str(store / "tableref.sqlite3"))
    assert main(["detect", "--deck", "garage", "x.png"]) == 2
    err = capsys.readouterr().err
    assert "no enrolled deck 'garage'" in err and "kitchen" in err


def test_enroll_refuses_folders_that_name_no_card(tmp_path, capsys) -> None:
    from tableref.cli import main
    from vision.enroll import EnrollError, read_photo_folder

    (tmp_path / "purple-3").mkdir()
    cv2.imwrite(str(tmp_path / "purple-3" / "a.png"), np.zeros((8, 8, 3), np.uint8))
    with pytest.raises(EnrollError, match="purple-3"):
        read_photo_folder(tmp_path)
    assert main(["enroll", "--deck", "x", str(tmp_path)]) == 2
    assert "not a card label" in capsys.readouterr().err
    with pytest.raises(EnrollError, match="no photos"):
        read_photo_folder(tmp_path / "purple-3")
    assert main(["enroll", "--deck", "../up", str(tmp_path)]) == 2


def test_held_views_change_the_crops_and_keep_the_first() -> None:
    from referee.cards import CLASSES
    from vision.enroll import EnrollConfig, Shot, augmented_crops, training_pool

    frame, box = _close_up("red-7", 0.6, seed=3)
    plain = augmented_crops(frame, box, 12, np.random.default_rng(0), 64, held=0.0)
    held = augmented_crops(frame, box, 12, np.random.default_rng(0), 64, held=1.0)
    assert held.shape == plain.shape == (12, 64, 64, 3)
    assert np.array_equal(held[0], plain[0])  # the box as it is, untouched
    diff = np.abs(held[1:].astype(int) - plain[1:].astype(int)).mean(axis=(1, 2, 3))
    assert (diff > 3).all()
    again = augmented_crops(frame, box, 12, np.random.default_rng(0), 64, held=1.0)
    assert np.array_equal(held, again)
    shots = [Shot("red-7", frame, box)]
    x, y = training_pool(shots, EnrollConfig(views=8, held=0.5, background=0.0))
    assert len(x) == 8 and set(y.tolist()) == {CLASSES.index("red-7")}


def test_balanced_views_are_white_balanced_as_the_read_sees_them(monkeypatch) -> None:
    import vision.enroll
    from vision.enroll import EnrollConfig, Shot, training_pool
    from vision.multiscale import balance_white

    frame, box = _close_up("blue-4", 0.6, seed=5)
    tinted = np.clip(frame.astype(np.float32) * [0.6, 0.8, 1.0], 0, 255).astype(np.uint8)
    shots = [Shot("blue-4", tinted, box)]
    config = EnrollConfig(views=8, held=0.5, background=0.0)
    monkeypatch.setattr(vision.enroll, "BALANCE_VIEWS", False)
    plain, y_plain = training_pool(shots, config)
    monkeypatch.setattr(vision.enroll, "BALANCE_VIEWS", True)
    x, y = training_pool(shots, config)
    assert np.array_equal(y, y_plain)
    # the same views, each white-balanced as the still photo's kept box is read
    assert np.array_equal(x, balance_white(plain))
    assert not np.array_equal(x, plain)
    # the first view (the box as it is) loses the photo's colour cast
    top = np.percentile(x[0].reshape(-1, 3), 97, axis=0)
    assert np.abs(top - 235).max() < 12


def test_whole_card_widens_a_named_part_to_the_finders_card_box() -> None:
    from vision.multiscale import read_card, whole_card

    named = Detections([[30, 40, 60, 80], [200, 0, 300, 150]], [0.9, 0.8], [7, 3])
    boxes = Detections([[0, 0, 110, 160], [-5, -5, 180, 240], [201, 1, 299, 149]],
                       [0.7, 0.6, 0.9], [0, 0, 0])
    wide = whole_card(named, boxes)
    np.testing.assert_allclose(wide.xyxy[0], [0, 0, 110, 160])  # the smallest
    np.testing.assert_allclose(wide.xyxy[1], [200, 0, 300, 150])  # a card: kept
    assert wide.class_id.tolist() == [7, 3]
    assert wide.confidence.tolist() == pytest.approx([0.9, 0.8])

    class Fixed:
        def __init__(self, dets: Detections) -> None:
            self.dets = dets

        def detect(self, frame: np.ndarray) -> Detections:
            return self.dets[np.arange(len(self.dets))]

    frame = np.zeros((400, 300, 3), np.uint8)
    part = Detections([[30, 40, 60, 80]], [0.9], [7])
    card = Detections([[0, 0, 110, 160]], [0.7], [0])
    assert read_card(Fixed(part), frame, (1.0,)).xyxy.tolist() == [[30, 40, 60, 80]]
    best = read_card(Fixed(part), frame, (1.0,), finder=Fixed(card))
    np.testing.assert_allclose(best.xyxy[0], [0, 0, 110, 160])


def test_a_box_of_most_of_the_card_is_widened_to_its_whole_box() -> None:
    """A box of most of the card (its corner index cut off) is not the card:
    its duplicate across zooms, or the finder's box holding it, only 1.2 times
    its area (under LARGER), is the card's extent."""
    from vision.multiscale import whole_card

    most = [22, 0, 110, 160]  # the card short of its left edge and corner index
    card = [0, 0, 110, 160]
    other = [200, 0, 300, 150]  # another card, boxed twice, barely larger
    dets = Detections([most, card, other, [199, 0, 301, 151]],
                      [0.9, 0.6, 0.8, 0.7], [7, 0, 3, 3])
    kept = drop_nested(dets)
    assert kept.class_id.tolist() == [7, 3]
    assert kept.confidence.tolist() == pytest.approx([0.9, 0.8])
    np.testing.assert_allclose(kept.xyxy[0], card)
    np.testing.assert_allclose(kept.xyxy[1], other)

    named = Detections([most, other], [0.9, 0.8], [7, 3])
    boxes = Detections([card, [199, 0, 301, 151]], [0.7, 0.6], [0, 0])
    wide = whole_card(named, boxes)
    np.testing.assert_allclose(wide.xyxy[0], card)
    np.testing.assert_allclose(wide.xyxy[1], other)
    assert wide.class_id.tolist() == [7, 3]


def test_a_card_lying_sideways_is_read_turned_upright(monkeypatch) -> None:  # noqa: ANN001
    """A photo of one card whose box is much wider than high: the card lies
    sideways and is named from the photo turned a quarter either way (the
    box's place in the turned photos is the card's); an upright box is read
    as it is (the read's other options, on by default, off here)."""
    import vision.multiscale as ms
    from referee.cards import CLASSES
    from vision.multiscale import read_card, read_turned

    monkeypatch.setattr(ms, "CORNER", 0.0)
    monkeypatch.setattr(ms, "RECOLOUR", False)
    monkeypatch.setattr(ms, "BALANCE", False)

    frame = np.zeros((200, 400, 3), np.uint8)
    frame[30:140, 60:330] = 255  # the card, lying sideways, off the middle
    seen: list[tuple] = []

    class UprightOnly:  # reads blue-3 only on an upright card, else red-7
        names = CLASSES

        def detect(self, frame: np.ndarray) -> Detections:
            return Detections([[60, 30, 330, 140]], [0.8], [CLASSES.index("red-7")])

        def _classify(self, frame: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
            probs = np.zeros((len(xyxy), len(CLASSES) + 1))
            for i, (x1, y1, x2, y2) in enumerate(xyxy):
                seen.append((frame.shape[:2], (x1, y1, x2, y2)))
                patch = frame[int(y1):int(y2), int(x1):int(x2)]
                upright = y2 - y1 > x2 - x1 and patch.size and patch.min() == 255
                probs[i, CLASSES.index("blue-3" if upright else "red-7")] = 0.6
                probs[i, -1] = 0.4
            return probs

    det = UprightOnly()
    best = read_card(det, frame, (1.0,))
    assert best.labels == ["blue-3"]
    assert best.confidence.tolist() == pytest.approx([0.6])
    np.testing.assert_allclose(best.xyxy[0], [60, 30, 330, 140])
    assert [shape for shape, _ in seen] == [(400, 200), (400, 200)]
    assert read_turned(det, frame, det.detect(frame), aspect=None).labels == ["blue-3"]
    kept = ms.TURN_ASPECT
    ms.TURN_ASPECT = None
    try:
        assert read_card(det, frame, (1.0,)).labels == ["red-7"]
    finally:
        ms.TURN_ASPECT = kept
    upright = Detections([[150, 10, 250, 190]], [0.8], [CLASSES.index("red-7")])
    assert read_turned(det, frame, upright).labels == ["red-7"]


def test_scan_like_puts_the_card_alone_on_black_and_keeps_its_index() -> None:
    from benchmarks.eval_enroll import scan_like

    frame, card = _close_up("red-7", 0.6, seed=5)
    x1, y1, x2, y2 = card
    index = (x1 + 4, y1 + 4, x1 + 0.2 * (x2 - x1), y1 + 0.15 * (y2 - y1))
    for seed in range(4):
        scan, box = scan_like(frame, seed, index, tuple(card))
        assert scan.shape == (640, 640, 3)
        assert scan[:8, :8].mean() < 40  # the black bed
        a1, b1, a2, b2 = box
        assert 0 <= a1 < a2 <= 640 and 0 <= b1 < b2 <= 640
        assert (a2 - a1) * (b2 - b1) > 200  # the index, scaled up with the card
    again, _ = scan_like(frame, 3, index, tuple(card))
    assert np.array_equal(scan, again)


def test_replay_adds_rendered_crops_of_every_shipped_label() -> None:
    from referee.cards import CLASSES
    from vision.enroll import EnrollConfig, Shot, training_pool

    frame, box = _close_up("red-7", 0.6, seed=3)
    shots = [Shot("red-7", frame, box)] * 4
    plain_x, plain_y = training_pool(shots, EnrollConfig(views=16, background=0.0))
    x, y = training_pool(shots, EnrollConfig(views=16, background=0.0, replay=1.0))
    assert len(plain_x) == 64 and set(plain_y.tolist()) == {CLASSES.index("red-7")}
    assert len(x) == 128 and x.shape[1:] == (64, 64, 3)
    replayed = y[64:]
    assert len(set(replayed.tolist())) == min(64, len(CLASSES))
    assert (replayed < len(CLASSES)).all()


class _FaintCard:
    """A finder that boxes a card only at a least box score of 0.3 or under."""

    def __init__(self) -> None:
        self.box_conf = 0.5
        self.calls: list[float] = []

    def detect(self, frame: np.ndarray) -> Detections:
        self.calls.append(self.box_conf)
        if self.box_conf > 0.3:
            return Detections(np.zeros((0, 4)), np.zeros(0), np.zeros(0))
        return Detections([[10, 10, 60, 90]], [0.3], [0])


def test_a_photo_with_no_card_is_looked_at_again_with_a_lower_box_score() -> None:
    frame = np.zeros((100, 100, 3), np.uint8)
    faint = _FaintCard()
    assert len(detect_multiscale(faint, frame, (1.0,), retry_conf=1.0)) == 0
    assert faint.calls == [0.5]
    found = detect_multiscale(faint, frame, (1.0,), retry_conf=0.25)
    assert len(found) == 1 and faint.box_conf == 0.5  # restored
    assert faint.calls[1:] == [0.5, 0.25]

    class Wrapper:  # a CardFinder: the score lives on the detector it wraps
        def __init__(self, detector: _FaintCard) -> None:
            self.detector = detector

        def detect(self, frame: np.ndarray) -> Detections:
            return self.detector.detect(frame)

    assert len(detect_multiscale(Wrapper(_FaintCard()), frame, (1.0,),
                                 retry_conf=0.25)) == 1


def test_a_refused_box_is_named_only_above_the_floor() -> None:
    from referee.cards import CLASSES
    from vision.multiscale import name_refused

    class Unsure:
        names = CLASSES

        def __init__(self, card_p: float) -> None:
            self.card_p = card_p

        def _classify(self, frame: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
            probs = np.zeros((len(xyxy), len(CLASSES) + 1))
            probs[:, CLASSES.index("blue-3")] = self.card_p
            probs[:, -1] = 1 - self.card_p  # "no card" wins
            return probs

    frame = np.zeros((100, 100, 3), np.uint8)
    boxes = Detections([[0, 0, 20, 30], [10, 10, 60, 90]], [0.9, 0.6], [0, 0])
    named = name_refused(Unsure(0.3), frame, boxes, floor=0.2)
    assert named.labels == ["blue-3"]
    np.testing.assert_allclose(named.xyxy[0], [10, 10, 60, 90])  # the largest
    # blue-3 holds every card probability: the share rule off (1) to see the floor
    assert len(name_refused(Unsure(0.1), frame, boxes, floor=0.2, card_share=1)) == 0
    assert len(name_refused(Unsure(0.3), frame, boxes[np.arange(0)], floor=0.2)) == 0


def _spread_classifier(top: float, rest: float, card: str = "blue-3"):  # noqa: ANN202
    """A classifier that gives ``card`` ``top``, every other card ``rest`` and
    "no card" what is left, whatever the box."""
    from referee.cards import CLASSES

    class Spread:
        names = CLASSES

        def _classify(self, frame: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
            probs = np.full((len(xyxy), len(CLASSES) + 1), rest)
            probs[:, CLASSES.index(card)] = top
            probs[:, -1] = 1 - probs[:, :-1].sum(axis=1)
            return probs

    return Spread()


def test_a_refused_box_is_named_by_its_card_share_not_its_probability() -> None:
    from vision.multiscale import name_refused

    frame = np.zeros((100, 100, 3), np.uint8)
    boxes = Detections([[10, 10, 60, 90]], [0.6], [0])
    # 0.15 for blue-3, "no card" about 0.8: under a 0.2 floor, but blue-3 holds
    # about three quarters of what the classifier gives the cards
    sure_card = _spread_classifier(0.15, 0.001)
    assert len(name_refused(sure_card, frame, boxes, floor=0.2, card_share=1)) == 0
    named = name_refused(sure_card, frame, boxes, floor=0.2, card_share=0.5)
    assert named.labels == ["blue-3"]
    # the same probability spread over the cards: no card stands out
    spread = _spread_classifier(0.15, 0.01)
    assert len(name_refused(spread, frame, boxes, floor=0.2, card_share=0.5)) == 0


def test_by_default_a_refused_box_is_named_when_its_card_holds_a_fifth() -> None:
    # the still-photo rules as shipped: the card share alone (0.2) names a
    # refused finder box; no probability floor, no windows
    from vision.multiscale import name_refused

    frame = np.zeros((100, 100, 3), np.uint8)
    boxes = Detections([[10, 10, 60, 90]], [0.6], [0])
    # blue-3 0.05 of 0.21 given to the cards (a share of about 0.24)
    named = name_refused(_spread_classifier(0.05, 0.003), frame, boxes)
    assert named.labels == ["blue-3"]
    np.testing.assert_allclose(named.xyxy[0], [10, 10, 60, 90])
    # 0.03 of 0.19 (about 0.16): spread over the cards, as on an empty background
    assert len(name_refused(_spread_classifier(0.03, 0.003), frame, boxes)) == 0
    # a photo with no finder box: no window is named by default
    sure_card = _spread_classifier(0.15, 0.001)
    assert len(name_refused(sure_card, frame, Detections.empty())) == 0
    # a share of 1 turns the rule off, as the config field's 1 does
    assert len(name_refused(_spread_classifier(0.05, 0.003), frame, boxes,
                            card_share=1)) == 0


def test_a_refused_box_the_classifier_calls_a_card_is_named_with_the_no_card_rule() -> None:
    # a blurred digit: the cards together outweigh "no card", but the
    # probability is spread over many of them (no card reaches a share of 0.2)
    from vision.multiscale import name_refused

    frame = np.zeros((100, 100, 3), np.uint8)
    boxes = Detections([[10, 10, 60, 90]], [0.6], [0])
    spread_card = _spread_classifier(0.08, 0.012)  # "no card" about 0.28
    assert len(name_refused(spread_card, frame, boxes, card_share=0.2)) == 0
    named = name_refused(spread_card, frame, boxes, card_share=0.2, no_card=0.5)
    assert named.labels == ["blue-3"]
    np.testing.assert_allclose(named.xyxy[0], [10, 10, 60, 90])
    # an empty background's box: "no card" about 0.81, never named by the rule
    background = _spread_classifier(0.03, 0.003)
    assert len(name_refused(background, frame, boxes, card_share=0.2, no_card=0.5)) == 0
    # below 0 turns the rule off
    assert len(name_refused(spread_card, frame, boxes, card_share=0.2, no_card=-1)) == 0


def test_by_default_the_no_card_rule_is_off() -> None:
    import vision.multiscale as ms

    assert ms.NO_CARD_AT_MOST is None
    frame = np.zeros((100, 100, 3), np.uint8)
    boxes = Detections([[10, 10, 60, 90]], [0.6], [0])
    assert len(ms.name_refused(_spread_classifier(0.08, 0.012), frame, boxes)) == 0


def test_a_photo_with_no_box_is_named_from_windows_in_its_middle() -> None:
    from vision.multiscale import name_refused

    frame = np.zeros((120, 100, 3), np.uint8)
    none = Detections.empty()
    sure_card = _spread_classifier(0.15, 0.001)
    assert len(name_refused(sure_card, frame, none, floor=0.2, card_share=0.5)) == 0
    named = name_refused(sure_card, frame, none, floor=0.2, window_share=0.5)
    assert named.labels == ["blue-3"]
    x1, y1, x2, y2 = named.xyxy[0]
    assert x1 < 50 < x2 and y1 < 60 < y2  # a window over the photo's middle
    spread = _spread_classifier(0.15, 0.01)
    assert len(name_refused(spread, frame, none, window_share=0.5)) == 0


def test_a_named_part_of_a_refused_card_is_widened_to_the_card() -> None:
    from referee.cards import CLASSES
    from vision.multiscale import name_refused

    class PartOnly:  # reads the small box (a part), calls the large one no card
        names = CLASSES

        def _classify(self, frame: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
            probs = np.zeros((len(xyxy), len(CLASSES) + 1))
            big = (xyxy[:, 2] - xyxy[:, 0]) > 40
            probs[big, -1] = 1.0
            probs[~big, CLASSES.index("red-7")] = 0.3
            probs[~big, -1] = 0.7
            return probs

    frame = np.zeros((100, 100, 3), np.uint8)
    boxes = Detections([[10, 10, 70, 90], [20, 20, 45, 50]], [0.6, 0.6], [0, 0])
    named = name_refused(PartOnly(), frame, boxes, card_share=0.5)
    assert named.labels == ["red-7"]
    np.testing.assert_allclose(named.xyxy[0], [10, 10, 70, 90])


def test_the_share_rules_are_config_fields() -> None:
    from vision.config import DetectorConfig
    from vision.multiscale import photo_shares

    assert photo_shares(DetectorConfig()) == (0.2, None)
    assert photo_shares(DetectorConfig(photo_card_share=1)) == (None, None)
    assert photo_shares(DetectorConfig(photo_card_share=0.3,
                                       photo_window_share=0.5)) == (0.3, 0.5)


def test_the_still_photo_rules_are_config_fields() -> None:
    from vision.config import DetectorConfig
    from vision.multiscale import photo_rules

    assert photo_rules(DetectorConfig()) == (None, None)
    assert photo_rules(DetectorConfig(photo_retry_conf=0.25,
                                      photo_refused_floor=0.2)) == (0.25, 0.2)
    assert photo_rules(DetectorConfig(photo_retry_conf=0.3)) == (0.3, None)


def test_a_hand_over_the_held_views_covers_part_of_each_and_keeps_the_first() -> None:
    from vision.enroll import augmented_crops

    frame = np.full((200, 160, 3), 255, np.uint8)
    frame[40:160, 40:120] = (200, 60, 20)
    box = np.array([40.0, 40.0, 120.0, 160.0])
    held = augmented_crops(frame, box, 12, np.random.default_rng(3), 64, held=1.0)
    hand = augmented_crops(frame, box, 12, np.random.default_rng(3), 64, held=1.0,
                           hand=1.0)
    assert np.array_equal(held[0], hand[0])  # the box as it is
    assert not np.array_equal(held[1:], hand[1:])


def test_the_weight_space_mix_lies_between_the_start_and_the_tuned_weights() -> None:
    import torch

    from vision.enroll import _mixed

    start = {"w": torch.zeros(3), "n": torch.tensor(5)}
    tuned = {"w": torch.tensor([2.0, -4.0, 1.0]), "n": torch.tensor(7)}
    assert torch.equal(_mixed(start, tuned, 1.0)["w"], tuned["w"])
    assert torch.equal(_mixed(start, tuned, 0.0)["w"], start["w"])
    assert torch.allclose(_mixed(start, tuned, 0.25)["w"], torch.tensor([0.5, -1, 0.25]))
    assert int(_mixed(start, tuned, 0.5)["n"]) == 7  # counters are not mixed


def test_scene_views_put_a_person_not_the_table_around_the_card() -> None:
    from vision.enroll import (
        EnrollConfig, Shot, _held_box, _scene_view, augmented_crops, training_pool,
    )

    frame = np.full((300, 260, 3), 255, np.uint8)  # a white table
    frame[60:240, 70:190] = 0  # a black card
    box = np.array([70.0, 60.0, 190.0, 240.0])
    rng = np.random.default_rng(5)
    for _ in range(20):
        view = _scene_view(frame, box, _held_box(rng), 64, rng, tilt=0.25)
        assert view.shape == (64, 64, 3)
        assert (view.min(axis=2) > 235).mean() < 0.01  # the table never shows
        assert (view.max(axis=2) < 40).mean() > 0.3  # the card does
    held = augmented_crops(frame, box, 12, np.random.default_rng(5), 64, held=1.0)
    scene = augmented_crops(frame, box, 12, np.random.default_rng(5), 64, held=1.0,
                            scene=1.0)
    assert np.array_equal(held[0], scene[0])  # the box as it is
    assert not np.array_equal(held[1:], scene[1:])
    again = augmented_crops(frame, box, 12, np.random.default_rng(5), 64, held=1.0,
                            scene=1.0)
    assert np.array_equal(scene, again)
    shots = [Shot("red-7", frame, box)]
    x, _ = training_pool(shots, EnrollConfig(views=8, held=1.0, scene=1.0,
                                             background=0.0))
    assert len(x) == 8


def test_enroll_passes_the_scene_view_settings_to_the_fine_tune(
    photo_folder, tmp_path, monkeypatch,
) -> None:
    import vision.enroll
    from tableref.cli import main

    seen = []

    def stop(*args, **kwargs):
        seen.append(next(a for a in [*args, *kwargs.values()]
                         if isinstance(a, vision.enroll.EnrollConfig)))
        raise vision.enroll.EnrollError("stopped by the test")

    monkeypatch.setattr(vision.enroll, "fine_tune", stop)
    code = main(["enroll", "--deck", "kitchen", str(photo_folder), "--scene", "0",
                 "--tilt", "0.1", "--decks-dir", str(tmp_path / "decks")])
    assert code == 2 and seen
    assert (seen[0].scene, seen[0].tilt) == (0.0, 0.1)
    code = main(["enroll", "--deck", "kitchen", str(photo_folder), "--far", "0.5",
                 "--decks-dir", str(tmp_path / "decks")])
    assert code == 2 and seen[1].far == 0.5
    code = main(["enroll", "--deck", "kitchen", str(photo_folder), "--webcam", "0.5",
                 "--decks-dir", str(tmp_path / "decks")])
    assert code == 2 and seen[2].webcam == 0.5
    code = main(["enroll", "--deck", "kitchen", str(photo_folder), "--proto", "0.03",
                 "--decks-dir", str(tmp_path / "decks")])
    assert code == 2 and seen[3].proto == 0.03
    code = main(["enroll", "--deck", "kitchen", str(photo_folder), "--soup", "2",
                 "--decks-dir", str(tmp_path / "decks")])
    assert code == 2 and seen[4].soup == 2


def _detail(views: np.ndarray) -> float:
    """Mean absolute Laplacian of grey views: their fine detail."""
    return float(np.mean([np.abs(cv2.Laplacian(cv2.cvtColor(v, cv2.COLOR_BGR2GRAY),
                                               cv2.CV_32F)).mean() for v in views]))


def test_far_views_keep_only_a_cards_coarse_shape() -> None:
    from vision.enroll import FAR_PIXELS, _far_view, augmented_crops

    crop = np.zeros((64, 64, 3), np.uint8)
    crop[:, ::2] = 255  # one-pixel stripes: detail a far card's few pixels lose
    crop[20:44, 20:44] = (0, 0, 200)  # a coarse red patch they keep
    rng = np.random.default_rng(0)
    for _ in range(10):
        far = _far_view(crop, rng)
        assert far.shape == crop.shape
        assert _detail(far[None]) < 0.2 * _detail(crop[None])
        assert far[28:36, 28:36, 2].mean() > 120 and far[28:36, 28:36, :2].mean() < 60
    assert FAR_PIXELS[1] < 32  # under half the crop's 64 pixels
    frame, box = _close_up("red-7", 0.8, seed=3)
    near = augmented_crops(frame, box, 24, np.random.default_rng(1), 64, held=1.0,
                           scene=1.0)
    far = augmented_crops(frame, box, 24, np.random.default_rng(1), 64, held=1.0,
                          scene=1.0, far=1.0)
    assert np.array_equal(near[0], far[0])  # the box as it is
    assert _detail(far[1:]) < 0.8 * _detail(near[1:])


def test_held_far_draws_a_small_held_card_and_keeps_its_index() -> None:
    from benchmarks.eval_enroll import webcam_far, webcam_held

    frame, card = _close_up("red-7", 0.6, seed=5)
    x1, y1, x2, y2 = card
    index = (x1 + 4, y1 + 4, x1 + 0.2 * (x2 - x1), y1 + 0.15 * (y2 - y1))
    areas = {webcam_held: [], webcam_far: []}
    for recipe in areas:
        for seed in range(6):
            img, box = recipe(frame, seed, index, tuple(card))
            assert img.shape == (640, 640, 3)
            a1, b1, a2, b2 = box
            assert a2 > a1 and b2 > b1
            areas[recipe].append((a2 - a1) * (b2 - b1) / 640 ** 2)
    # the index (and so the card) about a quarter to a half as high as held-like's
    assert np.median(areas[webcam_far]) < 0.3 * np.median(areas[webcam_held])
    again, _ = webcam_far(frame, 5, index, tuple(card))
    assert np.array_equal(img, again)


def test_eval_enroll_enrolls_from_the_classifier_it_is_given(tmp_path, monkeypatch) -> None:
    """``eval_enroll --classifier CKPT``: the enrollment fine-tunes that
    checkpoint and the detector reads with what it made."""
    pytest.importorskip("torch")
    import benchmarks.eval_enroll as ev
    import vision.detector
    import vision.enroll
    from vision.enroll import EnrollConfig, EnrollResult

    seen: dict = {}

    def fake_tune(shots, base=None, config=EnrollConfig(), progress=print):  # noqa: ANN001, ANN202
        seen["base"] = base
        return EnrollResult({"members": [], "tag": "tuned"}, {}, [])

    class FakeDetector:
        def __init__(self, classifier=None, **_kw) -> None:  # noqa: ANN001
            import torch

            seen["read"] = torch.load(str(classifier), weights_only=True)["tag"]

    monkeypatch.setattr(vision.enroll, "fine_tune", fake_tune)
    monkeypatch.setattr(vision.detector, "Detector", FakeDetector)
    cand = tmp_path / "cand.pt"
    ev.enrolled_detector([], EnrollConfig(), tmp_path, cand)
    assert seen == {"base": cand, "read": "tuned"}
    ev.enrolled_detector([], EnrollConfig(), tmp_path)
    assert seen["base"] is None


def test_an_unsure_upright_card_is_named_again_from_tighter_crops() -> None:
    """A photo of one card whose upright box is named under SURE_READ: the name
    comes from the mean of the box and the box moved in (fingers and the
    background round a tilted card left out); a sure name is kept."""
    from referee.cards import CLASSES
    import vision.multiscale as ms
    from vision.multiscale import read_turned

    frame = np.zeros((300, 300, 3), np.uint8)
    frame[60:240, 100:200] = 255  # the card; its box below holds 10 % background

    class TornByTheMargin:  # the loose box reads red-6, crops of the card blue-3
        names = CLASSES

        def _classify(self, frame: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
            probs = np.zeros((len(xyxy), len(CLASSES) + 1))
            for i, (x1, y1, x2, y2) in enumerate(xyxy):
                patch = frame[int(y1):int(y2), int(x1):int(x2)]
                card = float((patch.min(axis=2) == 255).mean())
                blue = 0.9 if card > 0.7 else 0.1
                probs[i, CLASSES.index("blue-3")] = blue
                probs[i, CLASSES.index("red-6")] = 0.9 - blue
            return probs

    det = TornByTheMargin()
    box = [[82, 42, 218, 258]]
    unsure = Detections(box, [0.55], [CLASSES.index("red-6")])
    sure = Detections(box, [0.95], [CLASSES.index("red-6")])
    kept = ms.TIGHT_VIEWS
    try:
        ms.TIGHT_VIEWS = ()  # off: the box alone
        assert read_turned(det, frame, unsure).labels == ["red-6"]
        ms.TIGHT_VIEWS = (0.05, 0.1)
        read = read_turned(det, frame, unsure)
        assert read.labels == ["blue-3"]
        np.testing.assert_allclose(read.xyxy[0], box[0])  # the box is kept
        assert read_turned(det, frame, sure).labels == ["red-6"]
    finally:
        ms.TIGHT_VIEWS = kept


def test_webcam_views_spoil_the_card_at_its_size_in_the_frame() -> None:
    # a webcam view is drawn at the finder box's size in a frame and cut down
    # by area as a read cuts a box: its faults (motion, defocus, noise, JPEG)
    # are the size they are in the frame, a fraction of the 64-pixel crop's
    import vision.enroll as enroll
    from vision.enroll import WEBCAM_PIXELS, _webcam_view, augmented_crops

    assert WEBCAM_PIXELS[0] > 64  # larger than the crop: cut down, not blown up
    frame, box = _close_up("red-7", 0.8, seed=3)
    rng = np.random.default_rng(2)
    view = _webcam_view(frame, box, np.zeros(4), 64, rng, 0.25, 0.0)
    assert view.shape == (64, 64, 3) and view.dtype == np.uint8
    plain = augmented_crops(frame, box, 24, np.random.default_rng(1), 64,
                            held=1.0, scene=1.0)
    webcam = augmented_crops(frame, box, 24, np.random.default_rng(1), 64,
                             held=1.0, scene=1.0, webcam=1.0)
    assert np.array_equal(plain[0], webcam[0])  # the box as it is
    assert not np.array_equal(plain[1:], webcam[1:])
    # the same faults drawn at 64 pixels would wash out more of the card's detail
    sizes = []
    saved = enroll.WEBCAM_PIXELS
    try:
        for pixels in ((64.0, 64.0), (300.0, 300.0)):
            enroll.WEBCAM_PIXELS = pixels
            views = augmented_crops(frame, box, 24, np.random.default_rng(1), 64,
                                    held=1.0, scene=1.0, webcam=1.0)
            sizes.append(_detail(views[1:]))
    finally:
        enroll.WEBCAM_PIXELS = saved
    assert sizes[1] > sizes[0]


def test_enroll_config_passes_the_webcam_share_to_the_views() -> None:
    from vision.enroll import EnrollConfig, Shot, training_pool

    frame, box = _close_up("blue-4", 0.8, seed=4)
    shots = [Shot("blue-4", frame, box, "x.jpg")]
    plain, _ = training_pool(shots, EnrollConfig(views=8, background=0.0))
    webcam, _ = training_pool(shots, EnrollConfig(views=8, background=0.0, webcam=1.0))
    assert np.array_equal(plain[0], webcam[0])
    assert not np.array_equal(plain[1:], webcam[1:])



@pytest.mark.parametrize("flag, value, field", [("--webcam", "1", "webcam"),
                                               ("--proto", "0.03", "proto"),
                                               ("--soup", "2", "soup")])
def test_bench_enroll_times_the_enrollment_with_its_settings(monkeypatch, flag, value,
                                                             field) -> None:
    import vision.enroll
    from benchmarks.bench_enroll import main

    seen = []

    def stop(shots, config=None, **kwargs):  # noqa: ANN001, ANN202
        seen.append(config)
        raise vision.enroll.EnrollError("stopped by the test")

    monkeypatch.setattr(vision.enroll, "fine_tune", stop)
    with pytest.raises(vision.enroll.EnrollError):
        main(["--cards", "1", "--threads", "1", flag, value])
    assert seen and getattr(seen[0], field) == float(value)


def test_bench_enroll_fine_tunes_the_base_it_is_given(monkeypatch, tmp_path) -> None:
    """``--base CKPT`` enrolls from that classifier (e.g. one of another input size)."""
    import vision.enroll
    from benchmarks.bench_enroll import main

    seen = []

    def stop(shots, base=None, config=None, **kwargs):  # noqa: ANN001, ANN202
        seen.append(base)
        raise vision.enroll.EnrollError("stopped by the test")

    monkeypatch.setattr(vision.enroll, "fine_tune", stop)
    with pytest.raises(vision.enroll.EnrollError):
        main(["--cards", "1", "--threads", "1", "--base", str(tmp_path / "c.pt")])
    assert seen == [tmp_path / "c.pt"]


def test_rendered_accuracy_renders_at_the_classifiers_input_size(monkeypatch) -> None:
    """The forgetting proxy cuts its rendered crops at the size the classifier
    reads (a 96 px classifier is not fed 64 px crops)."""
    import benchmarks.eval_enroll as ev

    sizes = []

    class Reader:
        crop = 40

        def _probabilities(self, x):  # noqa: ANN001, ANN202
            sizes.append(x.shape[1:3])
            return np.zeros((len(x), 57), np.float32)

    monkeypatch.setattr(ev, "_RENDERED", {})
    ev.rendered_accuracy(Reader(), 12, seed=3)
    assert sizes and all(s == (40, 40) for s in sizes)
