"""The corner-index reader (vision.corner_index), its training crops
(datasets.corner_crops) and the still-photo read that weighs by it
(vision.multiscale.CORNER)."""

from __future__ import annotations

import numpy as np
import pytest

from referee.cards import CLASSES
from vision.detections import Detections


def test_each_card_label_has_its_index_symbol() -> None:
    from vision.corner_index import SYMBOLS, symbol_index, symbol_of

    assert symbol_of("red-7") == "7"
    assert symbol_of("blue-draw2") == "draw2"
    assert symbol_of("wild-custom") == "wild"  # the wild's four-colour oval
    assert symbol_of("wild-draw4") == "wild-draw4"
    assert {symbol_of(lab) for lab in CLASSES} == set(SYMBOLS)
    assert SYMBOLS[symbol_index("green-reverse")] == "reverse"


def test_fuse_names_the_symbol_the_index_shows_within_the_classifiers_colour() -> None:
    """The classifier calls a red draw two a red reverse (its second choice);
    the index reads draw two: weighed, the red draw two wins, not a draw two of
    another colour the classifier ruled out; weight 0 changes nothing; cards
    at 0 stay at 0 and the sum is kept."""
    from vision.corner_index import SYMBOLS, fuse

    probs = np.full(len(CLASSES), 0.0)
    probs[CLASSES.index("red-reverse")] = 0.55
    probs[CLASSES.index("red-draw2")] = 0.35
    probs[CLASSES.index("red-9")] = 0.1
    sym = np.full(len(SYMBOLS), 0.01)
    sym[SYMBOLS.index("draw2")] = 0.8
    fused = fuse(probs, CLASSES, sym, 1.0)
    assert CLASSES[int(fused.argmax())] == "red-draw2"
    assert fused.sum() == pytest.approx(probs.sum())
    assert fused[CLASSES.index("blue-draw2")] == 0
    np.testing.assert_allclose(fuse(probs, CLASSES, sym, 0.0), probs)


def card_frame(label: str, turned: bool = False) -> tuple[np.ndarray, list[float]]:
    """A 240x240 frame with the rendered ``label`` upright (or upside down) in
    a 100x155 box, and that box."""
    import cv2

    from datasets.cards import render_card

    rgba = np.asarray(render_card(label, "modern", 155))
    face = cv2.resize(rgba[:, :, 2::-1], (100, 155))
    if turned:
        face = face[::-1, ::-1]
    frame = np.full((240, 240, 3), 70, np.uint8)
    frame[40:195, 70:170] = face
    return frame, [70.0, 40.0, 170.0, 195.0]


def test_views_are_the_top_left_corner_and_the_bottom_right_turned_half_round() -> None:
    """A card upright and the same card upside down give the same two views
    (the index either way up); a box lying sideways is read turned a quarter
    either way (four views)."""
    from vision.corner_index import INPUT, views

    up, box = card_frame("blue-4")
    down, _ = card_frame("blue-4", turned=True)
    a, b = views(up, box), views(down, box)
    assert a.shape == (2, INPUT[1], INPUT[0], 3)
    assert np.abs(a[0].astype(int) - b[1].astype(int)).mean() < 3
    assert np.abs(a[1].astype(int) - b[0].astype(int)).mean() < 3
    side = np.ascontiguousarray(np.rot90(up, 1))
    assert views(side, [40.0, 70.0, 195.0, 170.0]).shape[0] == 4


def test_training_crops_are_the_readers_input_and_labelled_by_symbol() -> None:
    from datasets.corner_crops import corner_crop, corner_set
    from vision.corner_index import INPUT, SYMBOLS

    crop, y = corner_crop(np.random.default_rng(3), "yellow-skip")
    assert crop.shape == (INPUT[1], INPUT[0], 3) and crop.dtype == np.uint8
    assert SYMBOLS[y] == "skip"
    x, ys = corner_set(8, 0)
    assert x.shape == (8, INPUT[1], INPUT[0], 3) and len(ys) == 8
    assert np.array_equal(corner_set(8, 0)[0], x)  # seeded


def test_the_shipped_reader_names_rendered_corner_indices() -> None:
    """The shipped weights read the symbols of rendered held cards (crops of
    another seed than the recipe's) far above chance (1 in 16), and the clean
    upright card's index at once."""
    from datasets.corner_crops import corner_set
    from vision.corner_index import MODEL, SYMBOLS, CornerReader

    assert MODEL.is_file()
    reader = CornerReader.load()
    x, y = corner_set(160, 777)
    assert (reader.read(x).argmax(1) == y).mean() > 0.6
    for label in ("red-7", "green-draw2", "blue-reverse"):
        frame, box = card_frame(label)
        probs = reader.symbol_probs(frame, box)
        assert SYMBOLS[int(probs.argmax())] == label.split("-", 1)[1]


class ReverseReader:
    """A crop classifier that calls every box a red reverse, red draw two its
    second choice."""

    names = CLASSES
    crop = 64

    def _classify(self, frame: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
        probs = np.full((len(xyxy), len(CLASSES) + 1), 0.001)
        probs[:, CLASSES.index("red-reverse")] = 0.55
        probs[:, CLASSES.index("red-draw2")] = 0.35
        return probs


class DrawTwoIndex:
    """A corner reader that sees draw two in every corner, counting its reads."""

    def __init__(self) -> None:
        from vision.corner_index import SYMBOLS

        self.symbols = SYMBOLS
        self.calls = 0

    def symbol_probs(self, frame: np.ndarray, xyxy) -> np.ndarray:  # noqa: ANN001
        self.calls += 1
        out = np.full(len(self.symbols), 0.01)
        out[self.symbols.index("draw2")] = 0.85
        return out


def test_the_still_photo_read_weighs_by_the_corner_index_unless_turned_off(
        monkeypatch) -> None:  # noqa: ANN001
    """By default (``CORNER`` 1) the index's symbol turns the classifier's red
    reverse into its red draw two, upright or lying sideways, the box kept; at
    0 the read is the classifier's and the corner reader is never loaded nor
    run (the read costs what it did without it)."""
    import vision.multiscale as ms

    index = DrawTwoIndex()
    monkeypatch.setattr(ms, "corner_reader", lambda path=None: index)
    frame = np.full((200, 200, 3), 90, np.uint8)
    card = Detections([[50, 20, 150, 180]], [0.55], [CLASSES.index("red-reverse")])
    assert ms.CORNER == 1.0
    monkeypatch.setattr(ms, "CORNER", 0.0)
    assert ms.read_turned(ReverseReader(), frame, card).labels == ["red-reverse"]
    assert index.calls == 0
    monkeypatch.setattr(ms, "CORNER", 1.0)
    named = ms.read_turned(ReverseReader(), frame, card)
    assert named.labels == ["red-draw2"]
    np.testing.assert_allclose(named.xyxy[0], [50, 20, 150, 180])
    side = Detections([[20, 50, 180, 150]], [0.55], [CLASSES.index("red-reverse")])
    assert ms.read_turned(ReverseReader(), frame, side).labels == ["red-draw2"]
    assert index.calls == 2


def test_another_decks_labels_are_left_unweighted():
    # a tgus-t deck's labels have no UNO index: fusing leaves them as read
    from vision.corner_index import SYMBOLS, fuse, symbol_of

    assert symbol_of("counter") is None and symbol_of("no card") is None
    assert symbol_of("red-draw2") == "draw2" and symbol_of("wild-custom") == "wild"
    probs = np.array([0.4, 0.3, 0.2, 0.1])
    symbol = np.full(len(SYMBOLS), 0.01)
    symbol[SYMBOLS.index("1")] = 0.9
    out = fuse(probs, ["red-1", "red-7", "counter", "no card"], symbol, 1.0)
    assert abs(out.sum() - 1.0) < 1e-9
    assert out[0] / out[1] > 50 * probs[0] / probs[1]  # the index names the 1
    assert abs(out[2] / out[3] - 0.2 / 0.1) < 1e-9  # the others keep their ratio


def test_weights_cut_for_another_region_are_refused(tmp_path):
    import torch

    from vision.corner_index import MODEL, CornerReader

    ckpt = torch.load(str(MODEL), map_location="cpu", weights_only=False)
    ckpt["region"] = [0.0, 0.0, 0.5, 0.5]
    path = tmp_path / "other.pt"
    torch.save(ckpt, str(path))
    with pytest.raises(ValueError, match="train it again"):
        CornerReader.load(path)
