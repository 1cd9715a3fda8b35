"""The colour of a card's face read from its box's pixels, for still photos.

A card held before a webcam is seen under the room's light and the webcam's
white balance. The crop classifier names colour and symbol together; now and
then it gives the right symbol in the wrong colour (a green card under a blue
cast named blue). This module reads the face's colour from the pixels
themselves, robust to a colour cast: each channel is scaled so that its bright
end (the card's white border and oval, its brightest pixels) is white
(:func:`balance_white`, which the still-photo read's own white balance,
:data:`vision.multiscale.BALANCE`, uses too),
then the saturated pixels vote by hue for red, yellow, green or blue.

:func:`recolour` uses that vote only to choose between the classifier's
candidates of one symbol: the classifier's symbol is kept, and its colour is
changed only where the pixels are strongly of another colour and the
classifier itself gives that colour's card of the symbol some probability (a
person's skin or lips behind a small card read as red and must not repaint
it).

    from vision.card_colour import face_colour
    colour, share, cover = face_colour(crop)   # e.g. ("green", 0.87, 0.22)

Only the still-photo read uses it (:func:`vision.multiscale.read_turned`,
:data:`vision.multiscale.RECOLOUR`, on by default); the live path does not.
"""

from __future__ import annotations

import numpy as np

#: The colours a card's face can have (wilds have none).
COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue")
#: Hue ranges of each colour, OpenCV's half-degrees (0-180), after the crop is
#: white-balanced; orange (between red and yellow, skin's hue) is no colour.
HUES: dict[str, tuple[tuple[int, int], ...]] = {
    "red": ((0, 8), (165, 181)), "yellow": ((20, 36),),
    "green": ((40, 85),), "blue": ((92, 130),),
}
#: Least saturation (0-1) of a pixel that votes.
SATURATION = 0.45
#: Least saturation of a red vote (skin is a dull red).
RED_SATURATION = 0.55
#: Least value (brightness, 0-1) of a pixel that votes.
VALUE = 0.2
#: The crop's bright end, a percentile of each channel's levels
#: (:func:`balance_white`).
BALANCE_PERCENTILE = 97.0
#: The level that bright end is scaled to.
BALANCE_WHITE = 235.0
#: :func:`recolour` changes a colour only where at least this share of the
#: votes is of the new colour...
STRONG_SHARE = 0.8
#: ... and at least this share of the crop's pixels vote ...
LEAST_COVER = 0.05
#: ... and the classifier gives the new colour's card of the symbol at least
#: this share of its own name's probability (a candidate, not a stranger).
LEAST_CANDIDATE = 0.03


def balance_white(crops: np.ndarray, percentile: float | None = None,
                  white: float | None = None) -> np.ndarray:
    """(N, S, S, 3) uint8 crops, each with every colour channel scaled so that
    its ``percentile`` (default :data:`BALANCE_PERCENTILE`) level becomes
    ``white`` (default :data:`BALANCE_WHITE`), clipped: a card's white border
    and centre are its brightest pixels, so a colour cast and a dim exposure
    are undone and the digit's contrast stretched."""
    percentile = BALANCE_PERCENTILE if percentile is None else percentile
    white = BALANCE_WHITE if white is None else white
    crops = np.asarray(crops)
    flat = crops.reshape(len(crops), -1, crops.shape[-1]).astype(np.float32)
    top = np.percentile(flat, percentile, axis=1)  # (N, 3)
    gain = white / np.maximum(top, 1.0)
    out = crops.astype(np.float32) * gain[:, None, None, :]
    return np.clip(out, 0, 255).astype(np.uint8)


def face_colour(crop: np.ndarray) -> tuple[str | None, float, float]:
    """The colour most saturated pixels of a card's crop vote for.

    Args:
        crop: (H, W, 3) uint8 BGR crop of a card's box.

    Returns:
        ``(colour, share, cover)``: the winning colour (``None`` where no pixel
        votes), its share of the votes, and the share of the crop's pixels
        that vote.
    """
    import cv2

    balanced = balance_white(np.asarray(crop)[None])[0]
    hsv = cv2.cvtColor(balanced, cv2.COLOR_BGR2HSV).reshape(-1, 3)
    hue = hsv[:, 0].astype(np.int32)
    sat, val = hsv[:, 1] / 255.0, hsv[:, 2] / 255.0
    bright = val >= VALUE
    votes = []
    for colour in COLOURS:
        least = RED_SATURATION if colour == "red" else SATURATION
        inside = np.zeros(len(hue), bool)
        for lo, hi in HUES[colour]:
            inside |= (hue >= lo) & (hue < hi)
        votes.append(int((inside & bright & (sat >= least)).sum()))
    total = sum(votes)
    if not total:
        return None, 0.0, 0.0
    k = int(np.argmax(votes))
    return COLOURS[k], votes[k] / total, total / len(hue)


def recolour(label: str, probs: dict[str, float], crop: np.ndarray
             ) -> str:
    """``label`` (the classifier's name of a card's crop) with its colour
    changed to the one the crop's pixels show (:func:`face_colour`) where they
    are strongly of another colour (:data:`STRONG_SHARE` of the votes,
    :data:`LEAST_COVER` of the pixels) and ``probs`` (the classifier's
    probability of each name) gives that colour's card of the same symbol at
    least :data:`LEAST_CANDIDATE` of ``label``'s. A wild, a name whose
    recoloured card is not in ``probs``, or weak pixels keep ``label``."""
    colour, _, symbol = label.partition("-")
    if colour not in COLOURS or not symbol:
        return label
    seen, share, cover = face_colour(crop)
    if seen is None or seen == colour or share < STRONG_SHARE or cover < LEAST_COVER:
        return label
    other = f"{seen}-{symbol}"
    if other not in probs or probs[other] < LEAST_CANDIDATE * probs.get(label, 0.0):
        return label
    return other
