"""The corner-index reader fitted to an enrolled deck's own print
(vision.corner_index.adapt, vision.enroll.ADAPT_CORNER) and the read that
weighs by a deck's own reader (vision.corner_index.attach)."""

from __future__ import annotations

import numpy as np

from referee.cards import CLASSES
from tests.vision.test_corner_index import DrawTwoIndex, ReverseReader
from vision.detections import Detections


def face(label: str, height: int = 155) -> np.ndarray:
    import cv2

    from datasets.cards import render_card

    rgba = np.asarray(render_card(label, "modern", height))
    return cv2.resize(rgba[:, :, 2::-1], (100, height)).copy()


def test_a_photos_card_is_drawn_held_and_labelled_by_its_symbol() -> None:
    """A photo's face stands in for the rendered card: the crop is the reader's
    input, labelled with the face's symbol, and shows that face's pixels (a
    plain grey face gives a crop with no colour of a rendered card)."""
    from datasets.corner_crops import corner_crop
    from vision.corner_index import INPUT, SYMBOLS

    crop, y = corner_crop(np.random.default_rng(1), "green-6", face("green-6"))
    assert crop.shape == (INPUT[1], INPUT[0], 3) and SYMBOLS[y] == "6"
    grey = np.full((155, 100, 3), 128, np.uint8)
    plain, _ = corner_crop(np.random.default_rng(2), "red-3", grey, turn=0.0,
                           squeeze=0.0)
    drawn, _ = corner_crop(np.random.default_rng(2), "red-3", None, turn=0.0,
                           squeeze=0.0)
    assert not np.array_equal(plain, drawn)


def test_card_face_stands_a_card_lying_sideways_up() -> None:
    from datasets.corner_crops import card_face

    frame = np.zeros((300, 400, 3), np.uint8)
    frame[100:200, 50:205] = 200  # a card lying sideways: 155 wide, 100 high
    up = card_face(frame, [50, 100, 205, 200])
    assert up.shape[0] > up.shape[1] and up.shape[:2] == (155, 100)
    tall = card_face(frame, [60, 0, 160, 300], height=200)
    assert tall.shape[0] == 200


def test_adapting_fits_a_new_reader_to_the_decks_cards_and_leaves_the_shipped_one() -> None:
    """A few steps on the deck's cards move the weights (the shipped reader's
    are untouched) and raise the probability the reader gives those cards'
    symbols on their views; a deck whose labels have no UNO index gets the
    reader back as it was."""
    import torch

    from datasets.corner_crops import corner_crop
    from vision.corner_index import AdaptConfig, CornerReader, adapt, prepare

    torch.manual_seed(0)
    shipped = CornerReader.load()
    before = {k: v.clone() for k, v in shipped.net.state_dict().items()}
    cards = [(face("red-6"), "red-6"), (face("blue-draw2"), "blue-draw2")]
    config = AdaptConfig(views=12, steps=25, batch=24)
    fitted = adapt(shipped, cards, config)
    assert fitted is not shipped
    for k, v in shipped.net.state_dict().items():
        assert torch.equal(v, before[k])
    assert any(not torch.equal(v, before[k]) for k, v in fitted.net.state_dict().items())
    rng = np.random.default_rng(99)
    xs, ys = zip(*[corner_crop(rng, lab, img) for img, lab in cards for _ in range(12)])
    x, y = np.stack(xs), np.array(ys)

    def right(reader: CornerReader) -> float:
        with torch.inference_mode():
            p = torch.softmax(reader.net(prepare(x)), 1).numpy()
        return float(p[np.arange(len(y)), y].mean())

    assert right(fitted) > right(shipped)
    assert adapt(shipped, [(face("red-6"), "counter")], config) is shipped


def test_the_read_weighs_by_the_decks_own_reader_where_attached(monkeypatch) -> None:
    """A detector with an enrolled deck's reader is weighed by that reader, not
    the shipped one; a checkpoint without a reader attaches nothing."""
    import vision.multiscale as ms
    from vision.corner_index import CornerReader, attach

    class Unsure:
        symbols = DrawTwoIndex().symbols

        def symbol_probs(self, frame, xyxy):  # noqa: ANN001, ANN201
            return np.full(len(self.symbols), 1 / len(self.symbols))

    monkeypatch.setattr(ms, "corner_reader", lambda path=None: Unsure())
    monkeypatch.setattr(ms, "CORNER", 1.0)
    frame = np.full((200, 200, 3), 90, np.uint8)
    card = Detections([[50, 20, 150, 180]], [0.55], [CLASSES.index("red-reverse")])
    plain = ReverseReader()
    assert ms.read_turned(plain, frame, card).labels == ["red-reverse"]
    deck = ReverseReader()
    deck.corner_reader = DrawTwoIndex()
    assert ms.read_turned(deck, frame, card).labels == ["red-draw2"]
    bare = attach(ReverseReader(), {"members": []})
    assert not hasattr(bare, "corner_reader")
    ckpt = {"members": [], "corner": CornerReader.load().checkpoint()}
    assert isinstance(attach(ReverseReader(), ckpt).corner_reader, CornerReader)


def test_enrollment_keeps_a_fitted_reader_only_when_asked(monkeypatch) -> None:
    """With ADAPT_CORNER the enrolled checkpoint carries the deck's corner
    reader (fitted on the shots' cards); off (the default) it has none."""
    import vision.enroll as enroll
    from vision.enroll import EnrollConfig, Shot, fine_tune

    shots = []
    for label in ("red-6", "blue-0"):
        frame = np.full((240, 200, 3), 60, np.uint8)
        frame[40:195, 50:150] = face(label)
        shots.append(Shot(label, frame, np.array([50.0, 40.0, 150.0, 195.0]), label))
    config = EnrollConfig(steps=2, views=2, threads=1)
    assert enroll.ADAPT_CORNER is False
    assert "corner" not in fine_tune(shots, config=config, progress=lambda _: None).checkpoint
    monkeypatch.setattr(enroll, "ADAPT_CORNER", True)
    from vision.corner_index import AdaptConfig

    monkeypatch.setattr(enroll, "CORNER_ADAPT", AdaptConfig(views=2, steps=2, batch=4))
    ckpt = fine_tune(shots, config=config, progress=lambda _: None).checkpoint
    assert set(ckpt["corner"]) >= {"state", "symbols", "input", "region"}


def test_bench_enroll_times_the_enrollment_with_the_fitted_reader(monkeypatch) -> None:  # noqa: ANN001
    import pytest

    import vision.enroll
    from benchmarks.bench_enroll import main

    monkeypatch.setattr(vision.enroll, "ADAPT_CORNER", False)  # restored after
    seen = []

    def stop(shots, **kwargs):  # noqa: ANN001, ANN202
        seen.append(vision.enroll.ADAPT_CORNER)
        raise vision.enroll.EnrollError("stopped by the test")

    monkeypatch.setattr(vision.enroll, "fine_tune", stop)
    with pytest.raises(vision.enroll.EnrollError):
        main(["--cards", "1", "--threads", "1", "--corner-adapt", "1"])
    assert seen == [True]
