"""Guided enrollment at the table: show the camera the cards one by one.

    tableref enroll --deck kitchen --camera 0            # the 54 cards of a UNO deck
    tableref enroll --deck t1 --camera 0 --labels tgus-t

The guide names a card ("show red-0"), waits until a card lies still under the
camera (its box steady for a few frames), takes a few frames of it, says so, and
asks for the next card once the table is clear again. At about a second a card
plus the person's own pace, a 54-card deck takes two to three minutes. The frames
taken become the enrollment photos of :mod:`vision.enroll` (the same finding,
fine-tuning and report as for a folder of photos).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

import numpy as np

from vision.decks import CardFinder
from vision.detections import box_iou
from vision.enroll import Shot
from vision.multiscale import detect_multiscale, largest


@dataclass(frozen=True)
class GuideConfig:
    """When the guide takes a card.

    Attributes:
        steady: frames in a row the card's box must hold still before frames
            are taken.
        steady_iou: overlap (IoU) with the previous frame's box that counts as
            holding still.
        shots: frames taken of each card.
        gap: frames between two frames taken (other light, other noise).
        away: frames in a row without a card before the next card is asked for.
        zooms: zooms of the finder pass on each frame (one is enough for a card
            lying on the table; add 0.5 for a camera held close).
    """

    steady: int = 6
    steady_iou: float = 0.85
    shots: int = 3
    gap: int = 3
    away: int = 3
    zooms: tuple[float, ...] = (1.0,)


def label_set(name: str) -> list[str]:
    """``uno`` (the 54 cards of a standard deck), ``tgus-t`` (that deck's cards),
    or labels separated by commas.

    Raises:
        ValueError: a label that is no card.
    """
    from referee.cards import CLASSES
    from vision.enroll import canonical_label

    if name == "uno":
        return [c for c in CLASSES if c not in ("wild-shuffle", "wild-custom")]
    if name == "tgus-t":
        from referee.tgus_t.cards import deck_counts

        return list(deck_counts())
    return [canonical_label(t.strip()) for t in name.split(",") if t.strip()]


def guided_shots(
    frames: Iterable[np.ndarray], labels: Sequence[str], finder: CardFinder,
    config: GuideConfig = GuideConfig(), say: Callable[[str], None] = print,
) -> list[Shot]:
    """The frames taken of each card of ``labels``, shown one by one.

    Args:
        frames: BGR frames of the camera, in order (it stops when they end).
        labels: the cards to ask for, in order.
        finder: boxes cards (the shipped finder, :class:`vision.decks.CardFinder`).
        config: when a card is taken (:class:`GuideConfig`).
        say: where the prompts go ("show red-0", "got red-0").

    Returns:
        One :class:`vision.enroll.Shot` per frame taken, with the card's box.
    """
    shots: list[Shot] = []
    todo = list(labels)
    if not todo:
        return shots
    say(f"show {todo[0]} (1/{len(labels)})")
    still, since_taken, taken, empty = 0, 0, 0, 0
    previous = None
    waiting_for_clear = False
    for index, frame in enumerate(frames):
        best = largest(detect_multiscale(finder, frame, config.zooms))
        box = best.xyxy[0].copy() if len(best) else None
        if waiting_for_clear:
            empty = empty + 1 if box is None else 0
            if empty >= config.away:
                waiting_for_clear, still, taken, previous = False, 0, 0, None
                say(f"show {todo[0]} ({len(labels) - len(todo) + 1}/{len(labels)})")
            continue
        if box is None:
            still, previous = 0, None
            continue
        if previous is not None and box_iou(box[None], previous[None])[0, 0] >= \
                config.steady_iou:
            still += 1
        else:
            still = 1
        previous = box
        if still < config.steady:
            continue
        if taken == 0 or since_taken >= config.gap:
            shots.append(Shot(todo[0], frame.copy(), box, f"frame {index}"))
            taken, since_taken = taken + 1, 0
        else:
            since_taken += 1
        if taken >= config.shots:
            say(f"got {todo.pop(0)}")
            if not todo:
                break
            waiting_for_clear, empty = True, 0
    if todo:
        say("not taken: " + ", ".join(todo))
    return shots
