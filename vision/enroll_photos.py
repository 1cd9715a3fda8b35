"""Enrollment's input: a folder of photos per card label, each photo's card found.

``read_photo_folder`` reads ``folder/<label>/*.jpg`` (labels of the standard
deck or of the tgus-t deck, short forms allowed), ``find_shots`` loads each photo
and boxes its card with the shipped finder at several zooms
(:mod:`vision.multiscale`; the largest box). :mod:`vision.enroll` fine-tunes the
classifier on the result and re-exports these names.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from referee.cards import CLASSES, Card, CardError
from vision.decks import CardFinder
from vision.multiscale import ZOOMS, detect_multiscale, largest

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


class EnrollError(ValueError):
    """Enrollment input that cannot be used (no photos, an unknown label)."""


@dataclass
class Shot:
    """One enrollment photo: its label, the frame, and the card's box in it
    (``None`` when the finder found no card)."""

    label: str
    frame: np.ndarray
    box: np.ndarray | None = None
    source: str = ""


def _other_deck_labels() -> tuple[str, ...]:
    """Labels of the decks beside the standard one (the tgus-t deck's), in its
    deck order, without the standard labels."""
    from referee.tgus_t.cards import deck_counts

    return tuple(label for label in deck_counts() if label not in CLASSES)


def canonical_label(text: str) -> str:
    """A folder's name as a card label (``R7`` -> ``red-7``, ``CO`` -> ``counter``):
    a label of ``referee.cards.CLASSES`` or of the tgus-t deck.

    Raises:
        EnrollError: the name is no card of those decks.
    """
    extra = _other_deck_labels()  # registers the tgus-t deck's labels
    try:
        label = Card.from_label(text).label
    except CardError:
        raise EnrollError(f"{text!r} is not a card label (e.g. red-7)") from None
    if label not in CLASSES and label not in extra:
        raise EnrollError(f"{label!r} is a card of no deck the reader knows")
    return label


def deck_labels(present: Sequence[str]) -> tuple[list[str], list[str]]:
    """The classifier's labels for a deck whose photos show ``present``, and the
    labels that deck should have: ``CLASSES`` (the shipped classes keep their
    ids), then the other deck's own labels when any of them is present."""
    extra = _other_deck_labels()
    if not any(label in extra for label in present):
        return list(CLASSES), list(CLASSES)
    from referee.tgus_t.cards import deck_counts

    return list(CLASSES) + list(extra), list(deck_counts())


def read_photo_folder(folder: Path) -> dict[str, list[Path]]:
    """``folder/<label>/*.jpg`` -> label -> photo paths (sorted).

    Raises:
        EnrollError: the folder is missing, holds no photo, or a sub-folder's
            name is no card label.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise EnrollError(f"no folder {folder}")
    out: dict[str, list[Path]] = {}
    for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
        photos = sorted(p for p in sub.iterdir()
                        if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        if photos:
            out.setdefault(canonical_label(sub.name), []).extend(photos)
    if not out:
        raise EnrollError(f"no photos in {folder}/<label>/ (e.g. {folder}/red-7/a.jpg)")
    return out


def find_card(  # noqa: ANN201
    finder: CardFinder, frame: np.ndarray, zooms: Sequence[float] = ZOOMS
):
    """The largest card box the finder draws at any of ``zooms``, or ``None``."""
    best = largest(detect_multiscale(finder, frame, zooms))
    return best.xyxy[0].copy() if len(best) else None


def _load_frame(path: Path) -> np.ndarray:
    import cv2

    data = np.fromfile(str(path), dtype=np.uint8)
    frame = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if frame is None:
        raise EnrollError(f"{path}: not a readable image")
    return frame


def find_shots(
    photos: dict[str, list[Path]], detector=None,  # noqa: ANN001
    zooms: Sequence[float] = ZOOMS, progress: Callable[[str], None] = print,
) -> list[Shot]:
    """Load every photo and box its card (``box`` ``None`` where none is found;
    default ``detector``: the still-photo finder's, ``detector.photo_model``)."""
    if detector is None:
        from vision.detector import Detector, photo_model

        detector = Detector(photo_model())
    finder = CardFinder(detector)
    shots = []
    total = sum(len(v) for v in photos.values())
    for label, paths in photos.items():
        for path in paths:
            frame = _load_frame(path)
            shots.append(Shot(label, frame, find_card(finder, frame, zooms), str(path)))
            if len(shots) % 10 == 0 or len(shots) == total:
                progress(f"finding cards: {len(shots)}/{total} photos")
    return shots


