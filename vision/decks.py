"""Enrolled decks: where they live, what they hold, and the detector that reads them.

A deck is enrolled once per physical deck (``tableref enroll``, :mod:`vision.enroll`)
and stored per user beside the saved tables (:func:`referee.store.default_db_path`)::

    <data>/tableref/decks/<name>/cardnet.pt   the crop classifier fine-tuned on it
    <data>/tableref/decks/<name>/deck.json    its manifest (:class:`DeckManifest`)

``tableref detect --deck NAME`` (and any caller of :func:`open_detector`) reads
cards with that classifier; the finder stays the shipped one.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

WEIGHTS = "cardnet.pt"
MANIFEST = "deck.json"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class DeckError(ValueError):
    """A deck name that is malformed or names no enrolled deck."""


@dataclass
class DeckManifest:
    """What ``deck.json`` records about one enrolled deck.

    Attributes:
        name: the deck's name (its folder's name).
        labels: the labels the classifier names, in class-id order (the
            detector's ``CLASSES``); its last class is "no card".
        photos: label -> number of enrollment photos in which a card was found.
        missing: labels of the detector with no enrollment photo.
        confused: ``[label, read as, probability]`` on the enrollment photos
            after fine-tuning, for reads that were wrong or unsure.
        base: the checkpoint the classifier was fine-tuned from (file name).
        recipe: the fine-tuning settings (:class:`vision.enroll.EnrollConfig`).
        seconds: wall time of the enrollment.
        created: UTC time, ISO 8601.
    """

    name: str
    labels: list[str]
    photos: dict[str, int]
    missing: list[str] = field(default_factory=list)
    confused: list[list] = field(default_factory=list)
    base: str = ""
    recipe: dict = field(default_factory=dict)
    seconds: float = 0.0
    created: str = ""

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> "DeckManifest":
        data = json.loads(text)
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})


def decks_root() -> Path:
    """``<folder of the game store>/decks`` (``$TABLEREF_DB``'s folder, else
    ``$XDG_DATA_HOME/tableref``)."""
    from referee.store import default_db_path

    return default_db_path().parent / "decks"


def check_name(name: str) -> str:
    """The name itself if it can name a deck's folder.

    Raises:
        DeckError: empty, too long, or other than letters, digits, ``_ . -``.
    """
    if not _NAME.match(name or ""):
        raise DeckError(
            f"deck name {name!r}: use 1-64 letters, digits, '_', '.' or '-',"
            " starting with a letter or digit"
        )
    return name


def list_decks(root: Path | None = None) -> list[DeckManifest]:
    """The enrolled decks under ``root`` (default :func:`decks_root`), by name."""
    root = Path(root) if root is not None else decks_root()
    out = []
    if root.is_dir():
        for folder in sorted(root.iterdir()):
            manifest = folder / MANIFEST
            if manifest.is_file() and (folder / WEIGHTS).is_file():
                try:
                    out.append(DeckManifest.from_json(manifest.read_text("utf-8")))
                except (OSError, ValueError, TypeError):
                    continue
    return out


def deck_folder(name: str, root: Path | None = None) -> Path:
    """The folder of the enrolled deck ``name``.

    Raises:
        DeckError: no such deck; the message names the decks there are.
    """
    root = Path(root) if root is not None else decks_root()
    folder = root / check_name(name)
    if not (folder / WEIGHTS).is_file() or not (folder / MANIFEST).is_file():
        known = [m.name for m in list_decks(root)]
        have = ", ".join(known) if known else "none yet; run 'tableref enroll'"
        raise DeckError(f"no enrolled deck {name!r} in {root} (enrolled: {have})")
    return folder


def load_manifest(name: str, root: Path | None = None) -> DeckManifest:
    """The manifest of the enrolled deck ``name`` (:class:`DeckError` if none)."""
    folder = deck_folder(name, root)
    return DeckManifest.from_json((folder / MANIFEST).read_text("utf-8"))


def open_detector(name: str | None = None, root: Path | None = None, **kwargs):  # noqa: ANN201
    """A :class:`vision.detector.Detector` reading cards with the enrolled deck
    ``name``'s classifier (the shipped one when ``name`` is ``None``).

    Raises:
        DeckError: no such deck.
    """
    from vision.detector import Detector

    if name is None:
        return Detector(**kwargs)
    from referee.cards import CLASSES

    manifest = load_manifest(name, root)
    if list(manifest.labels) != list(CLASSES):
        raise DeckError(
            f"deck {name!r} names labels this detector cannot report yet"
        )
    return Detector(classifier=deck_folder(name, root) / WEIGHTS, **kwargs)


def save_deck(
    name: str, checkpoint: dict, manifest: DeckManifest, root: Path | None = None
) -> Path:
    """Write an enrolled deck's classifier and manifest (replacing a deck of that
    name); returns its folder."""
    import torch

    root = Path(root) if root is not None else decks_root()
    folder = root / check_name(name)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / (WEIGHTS + ".tmp")
    torch.save(checkpoint, tmp)
    tmp.replace(folder / WEIGHTS)
    (folder / MANIFEST).write_text(manifest.to_json(), encoding="utf-8")
    return folder
