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
from collections import deque
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from vision.detections import Detections
from vision.detector import Detector
from vision.handsfree_common import colour as label_colour

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
        kwargs.pop("look", None)
        return Detector(**kwargs)
    from referee.cards import CLASSES

    manifest = load_manifest(name, root)
    weights = deck_folder(name, root) / WEIGHTS
    if list(manifest.labels) == list(CLASSES):
        kwargs.pop("second_look", None)
        kwargs.pop("look", None)
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


def _colour_value(label: str) -> tuple[str | None, str]:
    """A label's colour (``None``: colourless) and value."""
    head, rest = label_colour(label), label.partition("-")[2]
    return (head, rest) if head and rest else (None, label)


#: the card colours by hue (OpenCV's 0..180): (colour, least hue, most hue);
#: red wraps round 180
CARD_HUES = (("red", 0, 10), ("red", 170, 180), ("yellow", 18, 40),
             ("green", 41, 88), ("blue", 90, 135))
#: a pixel prints a card colour where its saturation and value are at least
#: this (0..255): card faces are bright and vivid, borders white, shadows dark
CARD_SATURATION, CARD_VALUE = 90, 90


def card_colour_of(pixels: np.ndarray) -> np.ndarray:
    """The card colour (``red``, ``yellow``, ``green``, ``blue``, or ``""``:
    none) each BGR pixel of ``pixels`` (N x 3, uint8) prints (:data:`CARD_HUES`)."""
    import cv2

    pixels = np.asarray(pixels, np.uint8).reshape(-1, 1, 3)
    out = np.full(len(pixels), "", dtype=object)
    if not len(pixels):
        return out
    hsv = cv2.cvtColor(pixels, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(int)
    vivid = (hsv[:, 1] >= CARD_SATURATION) & (hsv[:, 2] >= CARD_VALUE)
    for name, low, high in CARD_HUES:
        out[vivid & (hsv[:, 0] >= low) & (hsv[:, 0] <= high)] = name
    return out


#: :attr:`LookConfig.newer_sure`'s default (probability; above 1: off).
#: Off until measured on every tuning seed: ``eval_tgus_t --look
#: newer_sure=0.3`` turns it on
NEWER_SURE = 1.01


@dataclass(frozen=True)
class LookConfig:
    """The deck detector's second look (:meth:`DeckDetector._look_again`);
    ``eval_tgus_t --look FIELD=VALUE`` sets one for a run."""

    #: a box at least this wide for its height may hold cards lying fanned
    aspect: float = 0.9
    #: the window looked at again: this share of the box's size on each side
    margin: float = 1.0
    #: ... enlarged this many times
    zoom: float = 2.0
    #: a box lying within this (px, each side) of a box looked at in the last
    #: frame is not looked at again
    snap: float = 4.0
    #: a part of a second look is a card of its own where the classifier names
    #: it at least this sure, as a card no surer part of the box is named
    sure: float = 0.5
    #: a part named less surely is the surest part's value in another colour
    #: where the classifier gives that colour at least this (its labels
    #: summed) and the part came with the surest part (above 1: never)
    colour_sure: float = 0.5
    #: a box lies where another did at least this IoU
    same_iou: float = 0.5
    #: frames read (detector calls) remembered to tell whether a part came
    #: with the surest part or lay there before it (:meth:`DeckDetector._new_with`)
    memory: int = 45
    #: ... of which this many read before the surest part's are its landing
    #: (the cards played with it lowered into place), not compared
    landing: int = 8
    #: a part whose pixels beside the surest part's box differ from each
    #: earlier frame's by at least this (grey levels, mean) came with it
    changed: float = 4.0
    #: ... compared in frames this many times smaller
    small: int = 4
    #: ... over at least this many of those pixels (else it did not come)
    beside_px: int = 12
    #: a part named as the surest part's own label is that value in another
    #: colour where at least this share of its new pixels beside the surest
    #: part's box (:meth:`DeckDetector._fan_colour`) print that colour (above
    #: 1: never, the default: the camera then sees more of a fan's cards
    #: right, but the completion, fed those, rules more lines illegal
    #: (CHANGELOG); ``eval_tgus_t --look pixel_share=0.3`` turns it on)
    pixel_share: float = 1.01
    #: a pixel beside the surest part's box is new where it differs by at
    #: least this (grey levels, in its most changed colour channel) from the
    #: same pixel of each earlier frame compared
    pixel_changed: float = 40.0
    #: a part named at least this surely (less than ``sure`` may do), as
    #: another card than the surest part, is the card on top where the
    #: surest part lay there before it came (:meth:`DeckDetector._newest`):
    #: a card put down half over the pile's top card, whose part peeking out
    #: the classifier may name more surely (above 1: never, the default;
    #: ``eval_tgus_t --look newer_sure=0.3`` turns it on)
    newer_sure: float = NEWER_SURE


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
        look: the second look's settings (default :class:`LookConfig`).
        **kwargs: as for :class:`vision.detector.Detector`; its
            ``classifier_precision`` (default ``detector.classifier_precision``,
            bf16) is the enrolled classifier's too.
    """

    #: the second look's settings
    look: LookConfig = LookConfig()
    #: the last frame's looks: (box looked at, parts found, their reads)
    _looked: list = []
    #: the frames read last: (small grey frame, boxes, label ids)
    #: (:meth:`_remember`)
    _history: "deque | None" = None
    _small_of: "tuple[np.ndarray, np.ndarray] | None" = None
    _small_bgr_of: "tuple[np.ndarray, np.ndarray] | None" = None
    _colour_sum: "tuple[list[str], np.ndarray] | None" = None

    def __init__(self, weights: Path, labels: list[str],
                 shown: list[str] | None = None, second_look: bool = True,
                 look: LookConfig | None = None, **kwargs) -> None:
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
        #: (:meth:`_look_again`, with ``look``'s settings)
        self.second_look = second_look
        self.look = look or LookConfig()
        self._looked = []
        self._history = None
        self._small_of = None
        self._small_bgr_of = None
        self._colour_sum = None
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
            self._remember(frame, np.zeros((0, 4)), np.zeros((0, len(self.labels) + 1)))
            return Detections.empty(self.labels)
        known: np.ndarray | None = None
        if self.second_look:
            boxes, known = self._look_again(frame, boxes)
        probs = np.zeros((len(boxes), len(self.labels) + 1), float)
        todo = (np.ones(len(boxes), bool) if known is None
                else np.isnan(known[:, 0]))
        if known is not None:
            probs[~todo] = known[~todo]
        if todo.any():
            read = self._classify(frame, boxes.xyxy[todo]) * self.named
            probs[todo] = read / np.maximum(read.sum(axis=1, keepdims=True), 1e-12)
        self._remember(frame, boxes.xyxy, probs)
        class_id = probs.argmax(axis=1)
        confidence = probs[np.arange(len(probs)), class_id]
        least = self.conf if conf is None else conf
        keep = (class_id < len(self.labels)) & (confidence >= least)
        order = np.argsort(-confidence[keep], kind="stable")
        return Detections(
            boxes.xyxy[keep][order], confidence[keep][order], class_id[keep][order],
            names=self.labels, data={"probs": probs[keep, : len(self.labels)][order]},
        )

    def _look_again(self, frame: np.ndarray, boxes: Detections
                    ) -> tuple[Detections, np.ndarray]:
        """Boxes that may hold several cards split into the cards they hold,
        and the class probabilities of each box the look named (a row of NaN
        for a box still to be read).

        At table scale the finder draws one box around cards played together
        and lying fanned (one half over the other): that box is about as wide
        as it is tall (:attr:`LookConfig.aspect`), where a card lying straight
        is taller than wide. Such a box is looked at again in a window around
        it (``margin`` of its size each side) enlarged ``zoom`` times; where
        the finder then sees two or more cards centred inside the box, they
        replace it, if the classifier names them as different cards
        (:meth:`_named_apart`): half of a single card lying turned, or the top
        card's own box seen again, is the same card, not a second one. A box
        lying where a box was looked at in the last frame (each side within
        ``snap`` px) is not looked at again: a pile lies still for most
        frames, and its box jitters by a pixel or two; the parts that look
        found, and the classifier's reads of them, are kept. A box the look
        does not split is read as its surest part (:meth:`_surest`).
        """
        look = self.look
        h, w = frame.shape[:2]
        width = len(self.labels) + 1
        out_xyxy, out_conf, out_probs = [], [], []
        last = self._looked if isinstance(self._looked, list) else []
        looked: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        for box, conf in zip(boxes.xyxy, boxes.confidence):
            x0, y0, x1, y1 = (float(v) for v in box)
            bw, bh = x1 - x0, y1 - y0
            if bh <= 0 or bw / bh < look.aspect:
                out_xyxy.append(box)
                out_conf.append(conf)
                out_probs.append(np.full(width, np.nan))
                continue
            seen = next((entry for entry in last
                         if np.abs(entry[0] - box).max() <= look.snap), None)
            if seen is None:
                parts = self._parts(frame, (x0, y0, x1, y1), (w, h))
                read = (self._classify(frame, parts) * self.named if len(parts)
                        else np.zeros((0, width)))
                read = read / np.maximum(read.sum(axis=1, keepdims=True), 1e-12)
                seen = (np.asarray(box, float), parts, read)
            looked.append(seen)
            keep, probs = self._named_apart(seen[1], seen[2], frame)
            if keep:
                out_xyxy += list(seen[1][keep])
                out_conf += [conf] * len(keep)
                out_probs += list(probs)
            else:
                out_xyxy.append(box)
                out_conf.append(conf)
                out_probs.append(self._surest(seen[2], width))
        self._looked = looked
        return (Detections(np.array(out_xyxy, float).reshape(-1, 4),
                           np.array(out_conf, float), np.zeros(len(out_xyxy)),
                           names=boxes.names),
                np.array(out_probs, float).reshape(-1, width))

    def _surest(self, probs: np.ndarray, width: int) -> np.ndarray:
        """The read of a box a second look did not split: its surest part's
        read where that part is named at least ``sure`` (the box also holds
        cards lower in the pile peeking out beside the top one, which a read
        of the whole box mixes in), else a row of NaN (the box is read
        whole)."""
        if len(probs):
            named = probs[:, : len(self.labels)].max(axis=1)
            k = int(named.argmax())
            if named[k] >= self.look.sure and probs[k].argmax() < len(self.labels):
                return probs[k]
        return np.full(width, np.nan)

    def _named_apart(self, parts: np.ndarray, probs: np.ndarray,
                     frame: np.ndarray) -> tuple[list[int], np.ndarray]:
        """Which of the ``parts`` a second look found are cards of their own
        (their indices), with the probabilities they are named by: one for
        each card the classifier names at least :attr:`LookConfig.sure` among
        them (its surest part), if that is two cards or more; else none (the
        box stays one card), or the surest part alone where a card beside it
        lay there before it (below). A second look also boxes a single card lying
        turned in pieces: pieces named as the same card, or unsure, are not
        cards of their own. A card lower in the pile peeking out beside the
        top one, named surely, is not one either where it lay there before
        the top card came (:meth:`_new_with`): it is no card played with it.

        Cards played together share their value and lie fanned under the last
        one, about half of each in sight: the classifier is often sure of such
        a card's colour but not of its value. A part the classifier names
        less surely than ``sure`` is the surest part's value in its colour
        (:meth:`_fan_mate`) where it is sure of that colour and the part is
        new with the surest part (:meth:`_new_with`). A part it names as the
        surest part's own label, sure or not of it (the top card's corner
        lies in the part's box too), and not sure of another colour, is that
        value in another colour where the part's new pixels
        beside the top card print that colour (:meth:`_pixel_mate`): cards of
        one value played together, read as one card, otherwise.

        The surest part is not the card on top where it lay there before a
        part named less surely (at least ``newer_sure``) as another card came
        (:meth:`_newest`): a card put down half over the pile's top card,
        which peeks out beside it and may be read more surely. That part is
        then the top, and the surest part a lower card of the pile."""
        if len(parts) < 2:
            return [], probs[:0]
        ids = probs.argmax(axis=1)
        sure = probs[np.arange(len(ids)), ids]
        look = self.look
        order = [int(k) for k in np.argsort(-sure, kind="stable")]
        top = next((k for k in order if ids[k] < len(self.labels)
                    and sure[k] >= look.sure), None)
        if top is None:
            return [], probs[:0]
        surest = top
        top = self._newest(parts, ids, sure, top, frame)
        top_id = int(ids[top])
        best: dict[int, int] = {top_id: top}
        rows: dict[int, np.ndarray] = {top: probs[top]}
        old = top != surest  # the surest part lay there before the top came

        def by_pixels(k: int) -> None:
            """Part ``k``, named as the top card, is the top card's value in
            the colour its new pixels print (:meth:`_pixel_mate`), if any."""
            mate = self._pixel_mate(probs[k], parts[k], parts[top], top_id, frame)
            if mate is not None and mate[0] not in best:
                best[mate[0]] = k
                rows[k] = mate[1]

        for k in order:
            if k in (top, surest):
                continue
            i = int(ids[k])
            if i < len(self.labels) and sure[k] >= look.sure:
                if i in best:
                    if i == top_id:
                        by_pixels(k)
                    continue
                if self._new_with(parts[k], parts[top], top_id, frame) is False:
                    old = True  # it lay there before the top card came
                    continue
                best[i] = k
                rows[k] = probs[k]
                continue
            mate = self._fan_mate(probs[k], top_id)
            if mate is None:  # unsure of its colour too: its pixels may say
                if i == top_id:
                    by_pixels(k)
                continue
            if mate[0] in best:
                continue
            if not self._new_with(parts[k], parts[top], top_id, frame):
                continue
            best[mate[0]] = k
            rows[k] = mate[1]
        if len(best) < 2 and not old:
            return [], probs[:0]
        keep = sorted(best.values())
        return keep, np.array([rows[k] for k in keep])

    def _newest(self, parts: np.ndarray, ids: np.ndarray, sure: np.ndarray,
                top: int, frame: np.ndarray) -> int:
        """The part of a second look that is the card on top: ``top`` (the
        surest part), or, surest first, a part named at least ``newer_sure``
        as another card where the surest part lay there before that part came
        (:meth:`_new_with`: its pixels beside the part's box look as they did
        before). A card put down half over the pile's top card leaves that
        card peeking out beside it, and the classifier may name the old card
        more surely than the new one (a card it knows less well)."""
        look = self.look
        if look.newer_sure > 1:
            return top
        for k in np.argsort(-sure, kind="stable"):
            k = int(k)
            if (k == top or ids[k] >= len(self.labels) or ids[k] == ids[top]
                    or sure[k] < look.newer_sure):
                continue
            if self._new_with(parts[top], parts[k], int(ids[k]), frame) is False:
                return k
        return top

    def _fan_mate(self, probs: np.ndarray, top: int
                  ) -> tuple[int, np.ndarray] | None:
        """The label (id) a part read ``probs`` would be as a card played
        together with the label ``top``: the top card's value in the colour
        the classifier gives the part at least ``colour_sure`` (its colour's
        labels summed), another colour than the top's; and the part's
        probabilities with that colour's share on that label. ``None``: no
        such label (a colourless top, an unsure colour, the top's colour, a
        value the colour does not print)."""
        top_colour, value = _colour_value(self.labels[top])
        if top_colour is None:
            return None
        names, matrix = self._colours()
        share = np.asarray(probs[: len(self.labels)], float) @ matrix
        share[0] = -1.0  # colourless labels
        shares = dict(zip(names, share.tolist()))
        colour = names[int(share.argmax())]
        if colour == top_colour or shares[colour] < self.look.colour_sure:
            return None
        name = f"{colour}-{value}"
        if name not in self.labels or not self.named[self.labels.index(name)]:
            return None
        i = self.labels.index(name)
        row = np.array(probs, float)
        row[: len(self.labels)][matrix[:, names.index(colour)] > 0] = 0.0
        row[i] = shares[colour]
        return i, row

    def _new_with(self, part: np.ndarray, top: np.ndarray, top_id: int,
                  frame: np.ndarray) -> bool | None:
        """Whether ``part`` came with the ``top`` card (``True``) or lay there
        before it (``False``); ``None``: not known (no frame read before the
        top card's is remembered, or the part lies almost wholly within the
        top card's box). Where the part lies beside the top card's box,
        ``frame`` differs by at least ``changed`` grey levels (mean) from each
        frame this detector read before the top card's (the last ``memory``
        frames read, less the ``landing`` frames just before the top card's,
        when the cards played with it are lowered into place): it came with
        it. A lower card of the pile peeking out beside the top one looks as
        it did before the top came in some earlier frame (one no arm was
        over); a card played with the top one was not there."""
        look = self.look
        small = self._small(frame)
        mask = self._beside(part, top, small.shape, small.shape[1] / frame.shape[1])
        if mask.sum() < look.beside_px:
            return None
        now = small[mask].astype(np.float32)
        compared = 0
        for earlier in self._earlier(top, top_id):
            compared += 1
            if np.abs(earlier[0][mask].astype(np.float32) - now).mean() < look.changed:
                return False
        return True if compared else None

    @staticmethod
    def _beside(part: np.ndarray, top: np.ndarray, shape: tuple, scale: float
                ) -> np.ndarray:
        """The small pixels (a frame ``scale`` times its size, ``shape``)
        wholly inside ``part`` and wholly outside ``top``'s box."""
        x0, y0 = (max(0, int(np.ceil(v * scale))) for v in part[:2])
        x1, y1 = (max(0, int(np.floor(v * scale))) for v in part[2:])
        mask = np.zeros(shape[:2], bool)
        mask[y0:y1, x0:x1] = True
        t0, u0 = (max(0, int(np.floor(v * scale))) for v in top[:2])
        t1, u1 = (max(0, int(np.ceil(v * scale))) for v in top[2:])
        mask[u0:u1, t0:t1] = False
        return mask

    def _earlier(self, top: np.ndarray, top_id: int):  # noqa: ANN202
        """The remembered frames read before the ``top`` card (label id
        ``top_id``) lay where it lies, less the ``landing`` frames just before
        it, the latest first: each ``(small grey, boxes, label ids, small
        colour)``."""
        from vision.detections import box_iou

        look = self.look
        before = 0
        for entry in reversed(self._history or ()):
            boxes, ids = entry[1], entry[2]
            if not before:
                on = ids == top_id
                if on.any() and box_iou(np.asarray(top, float)[None],
                                        boxes[on]).max() >= look.same_iou:
                    continue
            before += 1
            if before > look.landing:
                yield entry

    def _pixel_mate(self, probs: np.ndarray, part: np.ndarray, top: np.ndarray,
                    top_id: int, frame: np.ndarray
                    ) -> tuple[int, np.ndarray] | None:
        """The label (id) a part the classifier names as the ``top`` card's own
        label is, where its new pixels beside the top card's box print another
        colour (:meth:`_fan_colour`): the top card's value in that colour, and
        the part's probabilities with the top label's share moved onto it (at
        least the share of the new pixels that print the colour).
        A card played together with the top one and fanned under it shows
        mostly its border and its colour; the classifier, seeing the top
        card's corner in the part too, may name it as the top card. ``None``:
        no such label."""
        top_colour, value = _colour_value(self.labels[top_id])
        if top_colour is None or self.look.pixel_share > 1:
            return None
        found = self._fan_colour(part, top, top_id, frame, top_colour)
        if found is None:
            return None
        name = f"{found[0]}-{value}"
        if name not in self.labels:
            return None
        i = self.labels.index(name)
        if not self.named[i]:
            return None
        row = np.array(probs, float)
        row[i], row[top_id] = max(row[top_id], found[1]), 0.0
        return i, row

    def _fan_colour(self, part: np.ndarray, top: np.ndarray, top_id: int,
                    frame: np.ndarray, other_than: str
                    ) -> tuple[str, float] | None:
        """The card colour (not ``other_than``) that the new pixels of ``part``
        beside the ``top`` card's box print: pixels (of the frame ``small``
        times smaller) whose largest colour channel differs by at least
        ``pixel_changed`` from the same pixel of each earlier frame
        compared (:meth:`_earlier`: the cards below lay there, the table too),
        at least ``beside_px`` of them; the colour at least ``pixel_share`` of
        them print (:func:`card_colour_of`), and ``beside_px`` pixels at
        least, with that share. ``None``: no such colour, or no earlier frame
        to compare. A card of the play lying over a card of its own colour
        (the first card of a multi-play often matches the top card's colour)
        changes few pixels there: only the pixels it did change count."""
        look = self.look
        small = self._small_colour(frame)
        mask = self._beside(part, top, small.shape, small.shape[1] / frame.shape[1])
        if mask.sum() < look.beside_px:
            return None
        now = small[mask].astype(np.int16)
        new = np.ones(len(now), bool)
        compared = 0
        for entry in self._earlier(top, top_id):
            earlier = entry[3][mask].astype(np.int16)
            new &= np.abs(earlier - now).max(axis=1) >= look.pixel_changed
            compared += 1
        if not compared or new.sum() < look.beside_px:
            return None
        colours = card_colour_of(now[new].astype(np.uint8))
        names, counts = np.unique(colours[colours != ""], return_counts=True)
        ranked = sorted(zip(counts.tolist(), names.tolist()), reverse=True)
        for count, name in ranked:
            if name == other_than:
                continue
            share = count / float(new.sum())
            if count >= look.beside_px and share >= look.pixel_share:
                return str(name), share
            return None
        return None

    def _small(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` in grey, ``small`` times smaller (what :meth:`_new_with`
        compares); one per frame."""
        if self._small_of is not None and self._small_of[0] is frame:
            return self._small_of[1]
        import cv2

        f = max(1, int(self.look.small))
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        size = (max(1, grey.shape[1] // f), max(1, grey.shape[0] // f))
        small = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
        self._small_of = (frame, small)
        return small

    def _small_colour(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` (BGR) ``small`` times smaller (what :meth:`_fan_colour`
        compares); one per frame."""
        if self._small_bgr_of is not None and self._small_bgr_of[0] is frame:
            return self._small_bgr_of[1]
        import cv2

        f = max(1, int(self.look.small))
        size = (max(1, frame.shape[1] // f), max(1, frame.shape[0] // f))
        small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        self._small_bgr_of = (frame, small)
        return small

    def _remember(self, frame: np.ndarray, xyxy: np.ndarray,
                  probs: np.ndarray) -> None:
        """This frame (small, grey), its boxes and the parts its second looks
        found, and the label each was read as, for :meth:`_new_with`."""
        if not isinstance(self._history, deque):
            self._history = deque(maxlen=max(1, self.look.memory))
        width = len(self.labels) + 1
        boxes = [np.asarray(xyxy, float).reshape(-1, 4)]
        reads = [np.asarray(probs, float).reshape(-1, width)]
        for seen in self._looked if self.second_look else ():
            boxes.append(seen[1].reshape(-1, 4))
            reads.append(seen[2].reshape(-1, width))
        reads = np.concatenate(reads)
        ids = reads.argmax(axis=1) if len(reads) else np.zeros(0, int)
        colour = self._small_colour(frame) if self.look.pixel_share <= 1 else None
        self._history.append((self._small(frame), np.concatenate(boxes), ids, colour))
        self._small_of = None
        self._small_bgr_of = None

    def _colours(self) -> tuple[list[str], np.ndarray]:
        """The colours the labels print (``""`` first, for colourless ones)
        and a (labels, colours) matrix summing a read's labels by colour."""
        if self._colour_sum is None:
            names = [""] + sorted({c for c, _ in map(_colour_value, self.labels)
                                   if c is not None})
            matrix = np.zeros((len(self.labels), len(names)))
            for i, label in enumerate(self.labels):
                matrix[i, names.index(_colour_value(label)[0] or "")] = 1.0
            self._colour_sum = (names, matrix)
        return self._colour_sum

    def _parts(self, frame: np.ndarray, box: tuple[float, float, float, float],
               size: tuple[int, int]) -> np.ndarray:
        """The card boxes (frame pixels) the finder sees centred inside ``box``
        in a window around it, enlarged."""
        import cv2

        x0, y0, x1, y1 = box
        bw, bh = x1 - x0, y1 - y0
        margin, zoom = self.look.margin, self.look.zoom
        left = int(max(0, x0 - margin * bw))
        top = int(max(0, y0 - margin * bh))
        right = int(min(size[0], x1 + margin * bw))
        bottom = int(min(size[1], y1 + margin * bh))
        window = cv2.resize(frame[top:bottom, left:right], None, fx=zoom,
                            fy=zoom, interpolation=cv2.INTER_LINEAR)
        found = CardFinder(self).detect(window).xyxy / zoom
        found += np.array([left, top, left, top], float)
        cx = (found[:, 0] + found[:, 2]) / 2
        cy = (found[:, 1] + found[:, 3]) / 2
        inside = (cx > x0) & (cx < x1) & (cy > y0) & (cy < y1)
        return found[inside]
