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

import numpy as np

from vision.detections import Detections
from vision.detector import Detector

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


def open_detector(  # noqa: ANN201
    name: str | None = None, root: Path | None = None, **kwargs
):
    """A :class:`vision.detector.Detector` reading cards with the enrolled deck
    ``name``'s classifier (the shipped one when ``name`` is ``None``).

    Raises:
        DeckError: no such deck.
    """
    if name is None:
        return Detector(**kwargs)
    from referee.cards import CLASSES

    manifest = load_manifest(name, root)
    weights = deck_folder(name, root) / WEIGHTS
    if list(manifest.labels) == list(CLASSES):
        return Detector(classifier=weights, **kwargs)
    return DeckDetector(weights, manifest.labels, **kwargs)


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


class CardFinder:
    """The finder stage of a :class:`vision.detector.Detector` alone: boxes the
    finder scores at least ``box_conf``, unnamed (every box is ``card``). An
    unfamiliar print may be called "no card" by the shipped classifier; the
    finder still boxes it."""

    names = ("card",)

    def __init__(self, detector: Detector) -> None:
        self.detector = detector

    def detect(self, frame: np.ndarray) -> Detections:
        d = self.detector
        frame = np.ascontiguousarray(frame[:, :, :3])
        if d.backend == "openvino":
            xyxy, conf, _ = d.model(frame, d.box_conf, d.iou, d.max_det, agnostic=True)
        else:
            boxes = d.model.predict(frame, imgsz=d.imgsz, conf=d.box_conf, iou=d.iou,
                                    max_det=d.max_det, verbose=False, device="cpu",
                                    agnostic_nms=True)[0].boxes
            xyxy = boxes.xyxy.cpu().numpy() if boxes is not None else np.zeros((0, 4))
            conf = boxes.conf.cpu().numpy() if boxes is not None else np.zeros(0)
        return Detections(xyxy, conf, np.zeros(len(xyxy)), names=self.names)


def load_deck_classifier(path: Path):  # noqa: ANN201
    """An enrolled classifier with its own ``labels`` (more than the shipped
    ones): one module answering the log of its members' mean probabilities, and
    its crop size."""
    import torch

    from vision.detector import card_net, mean_of_nets

    ckpt = torch.load(str(path), map_location="cpu", weights_only=True)
    n_classes, width = len(ckpt["labels"]) + 1, int(ckpt["width"])
    nets = []
    for state in ckpt["members"]:
        net = card_net(n_classes, width)
        net.load_state_dict(state)
        nets.append(net.eval())
    return mean_of_nets(nets), int(ckpt["size"])


class DeckDetector(Detector):
    """A :class:`vision.detector.Detector` whose classifier names a deck's own
    labels (the shipped ones and, say, the tgus-t deck's Counter and Hit+2):
    the finder proposes boxes, the enrolled classifier names them, and the
    detections carry ``labels`` as their names.

    Args:
        weights: the enrolled classifier (``cardnet.pt`` with ``labels``).
        labels: its labels in class-id order ("no card" is the class after them).
        **kwargs: as for :class:`vision.detector.Detector`.
    """

    def __init__(self, weights: Path, labels: list[str], **kwargs) -> None:
        super().__init__(**kwargs)
        from vision.openvino_runtime import openvino_classifier

        self.labels = tuple(labels)
        self.classifier, self.crop = load_deck_classifier(weights)
        self._classifier_ov = (
            openvino_classifier(self.classifier, self.crop)
            if self.backend == "openvino" else None
        )

    def detect(self, frame_bgr: np.ndarray) -> Detections:
        """Cards in one BGR frame, named with the deck's labels."""
        frame = np.asarray(frame_bgr)
        if frame.ndim == 2:
            frame = np.repeat(frame[:, :, None], 3, axis=2)
        if frame.ndim != 3 or frame.shape[2] not in (3, 4) or min(frame.shape[:2]) < 2:
            raise ValueError(f"expected an (H, W, 3) image, got shape {frame.shape}")
        frame = np.ascontiguousarray(frame[:, :, :3]).astype(np.uint8, copy=False)
        boxes = CardFinder(self).detect(frame)
        if not len(boxes):
            return Detections.empty(self.labels)
        probs = self._classify(frame, boxes.xyxy)
        class_id = probs.argmax(axis=1)
        confidence = probs[np.arange(len(probs)), class_id]
        keep = (class_id < len(self.labels)) & (confidence >= self.conf)
        order = np.argsort(-confidence[keep], kind="stable")
        return Detections(
            boxes.xyxy[keep][order], confidence[keep][order], class_id[keep][order],
            names=self.labels, data={"probs": probs[keep, : len(self.labels)][order]},
        )
