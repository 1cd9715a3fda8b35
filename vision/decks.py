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
        kwargs.pop("second_look", None)
        return Detector(classifier=weights, **kwargs)
    shown = [label for label in manifest.labels if manifest.photos.get(label)]
    return DeckDetector(weights, manifest.labels, shown=shown or None, **kwargs)


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

    A deck of its own lacks some shipped cards (the tgus-t deck has no Draw Two,
    Wild Draw Four or Wild Shuffle): the classifier still has their rows, but
    only the labels the deck was enrolled with (``shown``) are named; the
    probability of the others goes to the rest in proportion.

    Args:
        weights: the enrolled classifier (``cardnet.pt`` with ``labels``).
        labels: its labels in class-id order ("no card" is the class after them).
        shown: the labels the deck holds (those with enrollment photos); ``None``:
            all of ``labels``.
        second_look: look again, zoomed in, at boxes that may hold several
            cards (:meth:`_look_again`): cards played together lie fanned,
            and the finder boxes the fan as one card.
        **kwargs: as for :class:`vision.detector.Detector`; its
            ``classifier_precision`` (default ``detector.classifier_precision``,
            bf16) is the enrolled classifier's too.
    """

    def __init__(self, weights: Path, labels: list[str],
                 shown: list[str] | None = None, second_look: bool = True,
                 **kwargs) -> None:
        super().__init__(**kwargs)
        from vision.detector import CLASSIFIER_PRECISION
        from vision.openvino_runtime import openvino_classifier

        #: the enrolled classifier's OpenVINO inference precision, as the
        #: shipped one's (``detector.classifier_precision``)
        self.classifier_precision = kwargs.get("classifier_precision",
                                               CLASSIFIER_PRECISION)

        self.labels = tuple(labels)
        keep = set(labels if shown is None else shown)
        #: 1 for the labels named (and "no card"), 0 for the deck's absent ones
        self.named = np.array([label in keep for label in self.labels] + [True],
                              np.float32)
        #: boxes as wide as they are tall are looked at again, zoomed in
        #: (:meth:`_look_again`); the cards each such box was found to hold,
        #: by the box (a pile lies still: one look while it does)
        self.second_look = second_look
        self._looked: dict[tuple[int, ...], np.ndarray] = {}
        self.classifier, self.crop = load_deck_classifier(weights)
        self._classifier_ov = (
            openvino_classifier(self.classifier, self.crop, self.ov_threads,
                                self.classifier_precision)
            if self.backend == "openvino" else None
        )

    def detect(self, frame_bgr: np.ndarray, conf: float | None = None) -> Detections:
        """Cards in one BGR frame, named with the deck's labels; ``conf`` is the
        least confidence of a returned card for this call (``None``: :attr:`conf`,
        which is left as it is)."""
        frame = np.asarray(frame_bgr)
        if frame.ndim == 2:
            frame = np.repeat(frame[:, :, None], 3, axis=2)
        if frame.ndim != 3 or frame.shape[2] not in (3, 4) or min(frame.shape[:2]) < 2:
            raise ValueError(f"expected an (H, W, 3) image, got shape {frame.shape}")
        frame = np.ascontiguousarray(frame[:, :, :3]).astype(np.uint8, copy=False)
        boxes = CardFinder(self).detect(frame)
        if not len(boxes):
            return Detections.empty(self.labels)
        if self.second_look:
            boxes = self._look_again(frame, boxes)
        probs = self._classify(frame, boxes.xyxy) * self.named
        probs /= np.maximum(probs.sum(axis=1, keepdims=True), 1e-12)
        class_id = probs.argmax(axis=1)
        confidence = probs[np.arange(len(probs)), class_id]
        least = self.conf if conf is None else conf
        keep = (class_id < len(self.labels)) & (confidence >= least)
        order = np.argsort(-confidence[keep], kind="stable")
        return Detections(
            boxes.xyxy[keep][order], confidence[keep][order], class_id[keep][order],
            names=self.labels, data={"probs": probs[keep, : len(self.labels)][order]},
        )

    def _look_again(self, frame: np.ndarray, boxes: Detections) -> Detections:
        """Boxes that may hold several cards split into the cards they hold.

        At table scale the finder draws one box around cards played together
        and lying fanned (one half over the other): that box is about as wide
        as it is tall (``LOOK_ASPECT``), where a card lying straight is taller
        than wide. Such a box is looked at again in a window around it
        (``LOOK_MARGIN`` of its size each side) enlarged ``LOOK_ZOOM`` times;
        where the finder then sees two or more cards centred inside the box,
        they replace it, if the classifier names them as different cards
        (:meth:`_named_apart`): half of a single card lying turned, or the
        top card's own box seen again, is the same card, not a second one.
        A box that stays where it was (within ``LOOK_SNAP`` px) is not looked
        at again: a pile lies still for most frames.
        """
        h, w = frame.shape[:2]
        out_xyxy, out_conf = [], []
        looked: dict[tuple[int, ...], np.ndarray] = {}
        for box, conf in zip(boxes.xyxy, boxes.confidence):
            x0, y0, x1, y1 = (float(v) for v in box)
            bw, bh = x1 - x0, y1 - y0
            if bh <= 0 or bw / bh < LOOK_ASPECT:
                out_xyxy.append(box)
                out_conf.append(conf)
                continue
            key = tuple(int(round(v / LOOK_SNAP)) for v in box)
            parts = self._looked.get(key)
            if parts is None:
                parts = self._named_apart(
                    frame, self._parts(frame, (x0, y0, x1, y1), (w, h)))
            looked[key] = parts
            if len(parts) >= 2:
                out_xyxy += list(parts)
                out_conf += [conf] * len(parts)
            else:
                out_xyxy.append(box)
                out_conf.append(conf)
        self._looked = looked
        return Detections(np.array(out_xyxy, float).reshape(-1, 4),
                          np.array(out_conf, float), np.zeros(len(out_xyxy)),
                          names=boxes.names)

    def _named_apart(self, frame: np.ndarray, parts: np.ndarray) -> np.ndarray:
        """The ``parts`` a second look found, one for each card the classifier
        names at least ``LOOK_SURE`` among them (its surest part), if that is
        two cards or more; else none (the box stays one card). A second look
        also boxes a single card lying turned in pieces: pieces named as the
        same card, or unsure, are not cards of their own. A card lower in the
        pile peeking out beside the top one, named surely, is a card: the
        pile's watcher and the game's completion tell it from a card played."""
        if len(parts) < 2:
            return parts[:0]
        probs = self._classify(frame, parts) * self.named
        probs /= np.maximum(probs.sum(axis=1, keepdims=True), 1e-12)
        ids = probs.argmax(axis=1)
        sure = probs[np.arange(len(ids)), ids]
        best: dict[int, int] = {}
        for k in np.argsort(-sure, kind="stable"):
            i = int(ids[k])
            if i < len(self.labels) and sure[k] >= LOOK_SURE and i not in best:
                best[i] = int(k)
        if len(best) < 2:
            return parts[:0]
        return parts[sorted(best.values())]

    def _parts(self, frame: np.ndarray, box: tuple[float, float, float, float],
               size: tuple[int, int]) -> np.ndarray:
        """The card boxes (frame pixels) the finder sees centred inside ``box``
        in a window around it, enlarged."""
        import cv2

        x0, y0, x1, y1 = box
        bw, bh = x1 - x0, y1 - y0
        left = int(max(0, x0 - LOOK_MARGIN * bw))
        top = int(max(0, y0 - LOOK_MARGIN * bh))
        right = int(min(size[0], x1 + LOOK_MARGIN * bw))
        bottom = int(min(size[1], y1 + LOOK_MARGIN * bh))
        window = cv2.resize(frame[top:bottom, left:right], None, fx=LOOK_ZOOM,
                            fy=LOOK_ZOOM, interpolation=cv2.INTER_LINEAR)
        found = CardFinder(self).detect(window).xyxy / LOOK_ZOOM
        found += np.array([left, top, left, top], float)
        cx = (found[:, 0] + found[:, 2]) / 2
        cy = (found[:, 1] + found[:, 3]) / 2
        inside = (cx > x0) & (cx < x1) & (cy > y0) & (cy < y1)
        return found[inside]


#: a box at least this wide for its height may hold cards lying fanned
#: (:meth:`DeckDetector._look_again`)
LOOK_ASPECT = 0.9
#: the window looked at again: this share of the box's size on each side
LOOK_MARGIN = 1.0
#: ... enlarged this many times
LOOK_ZOOM = 2.0
#: a box that moved less than this (px) is not looked at again
LOOK_SNAP = 4.0
#: a part of a second look is a card of its own where the classifier names it
#: at least this sure, as a card no surer part of the box is named
LOOK_SURE = 0.5
