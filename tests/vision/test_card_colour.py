"""The colour of a card's face from its pixels (vision.card_colour) and the
still-photo read that uses it (vision.multiscale.recoloured)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detections import Detections

#: BGR of each colour's print, as a phone sees it in daylight
PRINTS = {"red": (40, 40, 210), "yellow": (30, 210, 235), "green": (70, 170, 40),
          "blue": (200, 110, 20)}


def card_crop(colour: str, cast=(1.0, 1.0, 1.0), size: int = 64) -> np.ndarray:
    """A synthetic card crop: a white border and oval on a face of ``colour``,
    a dark digit in the oval, seen under a per-channel (B, G, R) ``cast``."""
    import cv2

    img = np.full((size, size, 3), 245, np.float32)  # the white border
    img[4:-4, 4:-4] = PRINTS[colour]
    cv2.ellipse(img, (size // 2, size // 2), (size // 4, size // 3), 30, 0, 360,
                (245, 245, 245), -1)
    cv2.putText(img, "7", (size // 2 - 8, size // 2 + 9), cv2.FONT_HERSHEY_SIMPLEX,
                0.8, (30, 30, 30), 3)
    return np.clip(img * np.array(cast, np.float32), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("colour", list(PRINTS))
@pytest.mark.parametrize("cast", [(1.0, 1.0, 1.0), (1.25, 0.95, 0.6), (0.55, 0.9, 1.2),
                                  (0.6, 1.15, 0.7)])
def test_the_face_colour_is_read_through_a_colour_cast(colour, cast) -> None:
    """Under a strong cast (blue, warm, green) the crop's own white undoes it:
    each face reads as its colour, strongly."""
    from vision.card_colour import face_colour

    seen, share, cover = face_colour(card_crop(colour, cast))
    assert seen == colour
    assert share >= 0.9 and cover >= 0.2


def test_a_crop_without_saturated_pixels_has_no_colour() -> None:
    from vision.card_colour import face_colour

    grey = np.full((64, 64, 3), 128, np.uint8)
    grey[20:40, 20:40] = 40
    assert face_colour(grey) == (None, 0.0, 0.0)


def probs_of(**named: float) -> dict[str, float]:
    from referee.cards import CLASSES

    probs = {label: 0.001 for label in CLASSES}
    probs.update({k.replace("_", "-"): v for k, v in named.items()})
    return probs


def test_a_card_named_in_the_wrong_colour_is_recoloured_and_keeps_its_symbol() -> None:
    """A green 7 under a blue cast that the classifier calls blue 7 (green 7 its
    candidate too) is named green 7: the symbol stays the classifier's."""
    from vision.card_colour import recolour

    crop = card_crop("green", (1.3, 1.0, 0.6))
    assert recolour("blue-7", probs_of(blue_7=0.6, green_7=0.1, blue_1=0.2), crop) \
        == "green-7"


def test_weak_pixels_or_a_stranger_colour_keep_the_classifiers_name() -> None:
    """The classifier's name stands where the pixels disagree weakly (a face
    half of one colour, half of another), where they agree, where the other
    colour's card of the symbol is no candidate of the classifier's (a small
    card before a person's skin), and for a wild."""
    from vision.card_colour import recolour

    half = card_crop("green")
    half[:, 32:] = card_crop("blue")[:, 32:]
    assert recolour("blue-7", probs_of(blue_7=0.6, green_7=0.3), half) == "blue-7"
    assert recolour("green-7", probs_of(green_7=0.6, blue_7=0.3),
                    card_crop("green")) == "green-7"
    assert recolour("yellow-9", probs_of(yellow_9=0.6, red_9=0.003),
                    card_crop("red")) == "yellow-9"
    assert recolour("wild", probs_of(wild=0.9), card_crop("red")) == "wild"


def test_the_still_photo_read_recolours_unless_turned_off(monkeypatch) -> None:  # noqa: ANN001
    """``read_turned`` (``recolour`` on by default) names the box's card from
    the pixels' colour and the classifier's symbol, its confidence the
    classifier's probability of that card; with ``recolour`` off the name is
    the classifier's."""
    import vision.multiscale as ms

    monkeypatch.setattr(ms, "CORNER", 0.0)  # the colour alone
    from referee.cards import CLASSES

    frame = np.full((200, 200, 3), 60, np.uint8)
    frame[20:180, 50:150] = np.asarray(
        __import__("cv2").resize(card_crop("green", (1.3, 1.0, 0.6)), (100, 160)))

    class BlueReader:
        names = CLASSES
        crop = 64

        def _classify(self, frame: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
            probs = np.full((len(xyxy), len(CLASSES) + 1), 0.001)
            probs[:, CLASSES.index("blue-7")] = 0.6
            probs[:, CLASSES.index("green-7")] = 0.1
            return probs

    card = Detections([[50, 20, 150, 180]], [0.6], [CLASSES.index("blue-7")])
    assert ms.RECOLOUR is True
    assert ms.read_turned(BlueReader(), frame, card, recolour=False).labels == ["blue-7"]
    named = ms.read_turned(BlueReader(), frame, card)
    assert named.labels == ["green-7"]
    assert named.confidence.tolist() == pytest.approx([0.1])
    np.testing.assert_allclose(named.xyxy[0], [50, 20, 150, 180])
