"""The card detector at run time: frames in, :class:`~vision.detections.Detections` out.

    from vision.detector import Detector
    detector = Detector()                  # the shipped OpenVINO model
    dets = detector.detect(frame_bgr)      # any size, any aspect ratio
    for label, confidence, box in dets: ...

By default it loads ``models/uno-yolo11n_openvino_model`` (the finder's OpenVINO
export, about 3x faster than PyTorch on this CPU) and falls back to
``models/uno-yolo11n.pt``. With the OpenVINO finder, the crop classifier is
compiled by OpenVINO too when the detector loads (a second or two), in bfloat16
where the CPU has it (:data:`CLASSIFIER_PRECISION`). The OpenVINO
finder runs without Ultralytics' predictor (:class:`OpenVinoFinder` in
:mod:`vision.openvino_runtime`: the same
letterbox, NMS and box scaling in NumPy, same boxes); a ``.pt`` model runs through
Ultralytics. Boxes come back in the frame's pixels.

Two stages (see ``docs/detector.md``): YOLO proposes boxes, and the crop
classifier ``models/uno-cardnet.pt`` (:func:`card_net`) names each box or rejects
it as "no card". The classifier learns card identity from rendered crops far
faster than the detector's own class head on this CPU; without it the YOLO labels
are used alone.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Iterator

import numpy as np

from referee.cards import CLASSES
from vision.config import DetectorConfig
from vision.detections import Detections, box_iou
from vision.openvino_runtime import (
    THREADS,
    ClassifierRequest,
    OpenVinoFinder,
    export_names,
    nms,
    openvino_classifier,
)

MODEL_DIR = Path(__file__).resolve().parent.parent / "models"
PT_NAME = "uno-yolo11n.pt"
OPENVINO_NAME = "uno-yolo11n_openvino_model"
#: The still-photo finder (``tableref train --recipe photo``): the same network
#: trained on cards near the camera too; ``detector.photo_model`` names it.
PHOTO_PT_NAME = "uno-yolo11n-photo.pt"
PHOTO_OPENVINO_NAME = "uno-yolo11n-photo_openvino_model"
CLASSIFIER_NAME = "uno-cardnet.pt"
#: The live finder's INT8 export (``benchmarks/export_int8.py``): the finder's
#: weights quantised for the live pipeline's video frames (:func:`live_model`)
INT8_OPENVINO_NAME = "uno-yolo11n-int8_openvino_model"
# The defaults and their meaning live in vision.config.DetectorConfig.
_DEFAULTS = DetectorConfig()
IMGSZ = _DEFAULTS.imgsz
CONF = _DEFAULTS.conf
BOX_CONF = _DEFAULTS.box_conf  # YOLO score a box needs before the classifier looks
CROP = 64
SURE = 0.9  # a crop named with at least this probability needs no second look
# Run a dynamic finder export at each frame's own shape (640x480 at 256x192)
# instead of the square letterbox: 7 % less CPU in the pipeline, but on a tuning
# game one play counted 1.1 s early; off (models/MODEL_CARD.md, History).
RECT = False
# A box of the previous frame again, each side within REUSE_PX px of the box the
# classifier read, whose pixels there are still those it read (the crop cut at
# that box, as blocks REUSE_CELL crop pixels wide, within REUSE_LEVEL grey levels,
# mean difference), keeps its class probabilities (detector.reuse_px,
# detector.reuse_level; the blocks average a webcam's pixel noise out).
REUSE_PX = _DEFAULTS.reuse_px
REUSE_LEVEL = _DEFAULTS.reuse_level
REUSE_CELL = _DEFAULTS.reuse_cell
# The classifier's OpenVINO inference precision, "f32" or "bf16"
# (vision.openvino_runtime.openvino_classifier): bfloat16 costs about a third
# less CPU a crop on a CPU that has it, its probabilities within 0.02 of
# float32's (the same reads of the real valid photos, the hard pairs and the
# tuning games' events as float32); float32 where the CPU lacks it.
CLASSIFIER_PRECISION = _DEFAULTS.classifier_precision
# Frame shapes whose last read the detector remembers (the live frame and the
# scan's close-ups each compare with their own kind)
REUSE_SHAPES = 4
# A frame none of whose blocks STILL_CELL px wide (their grey) moved more
# than STILL_LEVEL grey levels from the frame the finder last ran on (same shape,
# same box threshold) gets the finder's boxes of that frame again
# (detector.finder_still_cell, detector.finder_still_level; negative: never)
STILL_CELL = _DEFAULTS.finder_still_cell
STILL_LEVEL = _DEFAULTS.finder_still_level
# A frame where only some of those blocks moved: with a crop margin set (not
# negative, see DetectorConfig.finder_crop_margin) the finder searches a crop
# around them (Detector._find; detector.finder_crop_*, detector.finder_whole_every)
CROP_MARGIN = _DEFAULTS.finder_crop_margin
CROP_EDGE_PX = _DEFAULTS.finder_crop_edge_px
CROP_SHARE = _DEFAULTS.finder_crop_share
CROP_STRIDES = _DEFAULTS.finder_crop_strides
WHOLE_EVERY = _DEFAULTS.finder_whole_every
# With the crop search on, a box found (by a crop or the whole frame) that
# matches a box found before of the same card at least this well (IoU), the
# blocks under it as they were then, gets that box's coordinates
# (detector.finder_crop_snap_iou): the same pixels, the same box, whatever search ran
CROP_SNAP_IOU = _DEFAULTS.finder_crop_snap_iou
# The finder's box of a card depends on what lies around the card too (its
# receptive field reaches far past the box): a box's blocks, for whether it
# moved and for the snap, are those of the box grown by this many px on each
# side (detector.finder_crop_context_px)
CROP_CONTEXT_PX = _DEFAULTS.finder_crop_context_px
# With the crop search on, a box found within this many px (each side) of a
# box the classifier read (in the previous call, or among the last SNAP_MEMORY
# reads of frames of that shape), whose crop there is again the one read
# (detector.reuse_level, detector.finder_crop_hold_level), is given back
# exactly as read, with its read (detector.finder_crop_hold_px; negative:
# never): a card whose pixels did not change keeps its box, whatever the
# finder saw around it
CROP_HOLD_PX = _DEFAULTS.finder_crop_hold_px
CROP_HOLD_LEVEL = _DEFAULTS.finder_crop_hold_level
# boxes found that the snap remembers per frame shape (Detector._snap)
SNAP_MEMORY = 64


def finder_crop(config: DetectorConfig) -> dict:
    """:class:`Detector`'s keyword arguments of the crop search
    (``detector.finder_crop_*``, ``detector.finder_whole_every``)."""
    return {"crop_margin": config.finder_crop_margin,
            "crop_edge_px": config.finder_crop_edge_px,
            "crop_share": config.finder_crop_share,
            "crop_strides": config.finder_crop_strides,
            "whole_every": config.finder_whole_every,
            "crop_snap_iou": config.finder_crop_snap_iou,
            "crop_context_px": config.finder_crop_context_px,
            "crop_hold_px": config.finder_crop_hold_px,
            "crop_hold_level": config.finder_crop_hold_level}


def card_net(n_classes: int = len(CLASSES) + 1, width: int = 16):
    """The crop classifier: a small CNN, 64x64 BGR crop -> card label or background.

    Class ``len(CLASSES)`` means "no card here".
    """
    import torch.nn as nn

    def block(cin: int, cout: int, stride: int) -> list:
        return [
            nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        ]

    w = [width, width * 2, width * 4, width * 6]
    layers = block(3, w[0], 2) + block(w[0], w[0], 1)
    for a, b in zip(w, w[1:]):
        layers += block(a, b, 2) + block(b, b, 1)
    return nn.Sequential(
        *layers,
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Dropout(0.1),
        nn.Linear(w[-1], n_classes),
    )


def load_classifier(path: str | Path):  # noqa: ANN201
    """The crop classifier in ``path`` and its crop size.

    A checkpoint holds one network (``state_dict``) or several of one shape
    trained with different seeds (``members``): then the returned module
    answers the log of the members' mean probabilities, so that a softmax of
    its output is that mean (one network to the callers, one OpenVINO model).
    """
    import torch

    ckpt = torch.load(str(path), map_location="cpu", weights_only=True)
    width = int(ckpt.get("width", 16))
    nets = []
    for state in ckpt.get("members") or [ckpt["state_dict"]]:
        net = card_net(width=width)
        net.load_state_dict(state)
        nets.append(net.eval())
    size = int(ckpt.get("size", CROP))
    if len(nets) == 1:
        return nets[0], size
    return mean_of_nets(nets), size


def mean_of_nets(nets: list):  # noqa: ANN201
    """One module answering the log of ``nets``' mean probabilities (a softmax of
    its output is that mean), in eval mode."""
    import torch
    import torch.nn as nn

    class MeanOfNets(nn.Module):
        def __init__(self, members: list) -> None:
            super().__init__()
            self.members = nn.ModuleList(members)

        def forward(self, x):  # noqa: ANN001, ANN202
            probs = torch.stack([torch.softmax(m(x), dim=1) for m in self.members])
            return torch.log(probs.mean(dim=0).clamp_min(1e-12))

    return MeanOfNets(nets).eval()


def crops_to_tensor(crops: np.ndarray):
    """(N, H, W, 3) uint8 BGR crops -> (N, 3, H, W) float tensor in [0, 1]
    (:func:`crops_to_array` as a torch tensor)."""
    import torch

    return torch.from_numpy(crops_to_array(crops))


def crops_to_array(crops: np.ndarray) -> np.ndarray:
    """(N, H, W, 3) uint8 BGR crops -> (N, 3, H, W) float32 array in [0, 1]:
    the classifier's input (OpenVINO's as it is, PyTorch's as a tensor)."""
    crops = np.asarray(crops)
    out = np.empty((len(crops), crops.shape[3], *crops.shape[1:3]), np.float32)
    np.divide(crops.transpose(0, 3, 1, 2), 255, out=out, dtype=np.float32)
    return out


def crop_boxes(frame: np.ndarray, xyxy: np.ndarray, size: int = CROP) -> np.ndarray:
    """Square ``size`` crops of each box (stretched, as the classifier was trained)."""
    import cv2

    h, w = frame.shape[:2]
    xyxy = np.asarray(xyxy, np.float64).reshape(-1, 4)
    out = np.empty((len(xyxy), size, size, 3), np.uint8)
    lo = np.maximum(np.floor(xyxy[:, :2]), 0).astype(np.int64)
    hi = np.minimum(np.ceil(xyxy[:, 2:]), [w, h]).astype(np.int64)
    for i, ((x1, y1), (x2, y2)) in enumerate(zip(lo.tolist(), hi.tolist())):
        patch = frame[y1 : max(y2, y1 + 1), x1 : max(x2, x1 + 1)]
        out[i] = cv2.resize(patch, (size, size), interpolation=cv2.INTER_AREA)
    return out



def crop_thumbnails(crops: np.ndarray, cell: int = REUSE_CELL) -> np.ndarray:
    """(N, S, S, 3) uint8 crops -> (N, S // cell, S // cell, 3) float32, each
    pixel the mean of a ``cell``-wide block (a crop narrower than ``cell``
    stays as it is)."""
    import cv2

    crops = np.asarray(crops)
    n, size = len(crops), crops.shape[1]
    if size < cell:
        return crops.astype(np.float32)
    side = size // cell
    if not n:
        return np.zeros((0, side, side, 3), np.float32)
    # the crops stacked into one tall image: an area resize by a whole factor
    # averages each block, and no block spans two crops
    tall = np.ascontiguousarray(crops[:, : side * cell, : side * cell], np.float32)
    small = cv2.resize(tall.reshape(n * side * cell, side * cell, 3), (side, n * side),
                       interpolation=cv2.INTER_AREA)
    return small.reshape(n, side, side, 3)


def grey_thumbnail(image: np.ndarray, cell: int = STILL_CELL) -> np.ndarray:
    """(H, W, 3) BGR or (H, W) grey image -> (H // cell, W // cell) int16 grey
    thumbnail, each pixel a ``cell``-wide block's mean (at least one pixel a
    side): how the finder's reuse (:meth:`Detector._find`) and the pipeline's
    motion gate (:func:`vision.pipeline.gate_holds`) tell a frame that did not
    change."""
    import cv2

    h, w = image.shape[:2]
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    return cv2.resize(
        grey, (max(w // cell, 1), max(h // cell, 1)), interpolation=cv2.INTER_AREA
    ).astype(np.int16)


def default_model() -> Path:
    """The shipped model the runtime loads: OpenVINO if present, else the .pt."""
    openvino = MODEL_DIR / OPENVINO_NAME
    if (openvino / "metadata.yaml").exists():
        return openvino
    return MODEL_DIR / PT_NAME


def photo_model(config: DetectorConfig | None = None) -> Path:
    """The card finder of still photos (``detector.photo_model``: ``tableref
    detect``, enrollment, :mod:`vision.multiscale`): that model of ``models/``,
    its OpenVINO folder if present, else its ``.pt``; the live finder
    (:func:`default_model`) when the name is empty or no such model is there."""
    name = (config or _DEFAULTS).photo_model
    if name:
        openvino = MODEL_DIR / f"{name}_openvino_model"
        if (openvino / "metadata.yaml").exists():
            return openvino
        if (MODEL_DIR / f"{name}.pt").is_file():
            return MODEL_DIR / f"{name}.pt"
    return default_model()


def live_model(name: str | Path | None = None) -> Path | None:
    """The finder folder of the live pipeline's video frames
    (``detector.live_finder``, its default when ``None``): ``None`` for
    "float" or empty (the detector's own finder reads them too), the INT8
    export of ``models/`` for "int8", else that folder (a relative name not
    found from here is looked for in ``models/``).

    Raises:
        FileNotFoundError: no such export (for "int8": not in ``models/``).
    """
    name = _DEFAULTS.live_finder if name is None else name
    if not str(name) or str(name) == "float":
        return None
    path = MODEL_DIR / INT8_OPENVINO_NAME if str(name) == "int8" else Path(name)
    if not path.exists() and not path.is_absolute() and (MODEL_DIR / path).exists():
        path = MODEL_DIR / path
    if not (path / "metadata.yaml").exists():
        raise FileNotFoundError(f"no live finder export at {path}")
    return path


class Detector:
    """Finds UNO cards in BGR frames.

    Args:
        model_path: an OpenVINO model folder or a ``.pt`` file; ``None`` for the
            shipped model.
        imgsz: inference size (the model's working size, 256).
        conf: minimum confidence of a returned card.
        iou: NMS IoU threshold.
        max_det: most cards returned per frame.
        torch_threads: torch threads (1 next to OpenVINO, 2 for a .pt model).
        threads: OpenVINO inference threads of the finder and the classifier
            (0: every core for one frame, OpenVINO's latency hint).
        rect: run a dynamic finder export at each frame's own shape (see
            :class:`OpenVinoFinder`), not the square letterbox.
        classifier: the crop classifier checkpoint; ``None`` for the shipped one if
            present, ``False`` to use the YOLO labels alone.
        box_conf: YOLO score a box needs before the classifier names it.
        views: crops the classifier averages per box it is unsure of: 1 the box,
            2 also the box turned 180 degrees (a card reads the same both ways
            up), 3 also the box 4 % larger on each side.
        reuse_px, reuse_level: a card lying still keeps its read (see
            :meth:`_classify_reusing`).
        still_cell, still_level: a frame that did not change keeps the finder's
            boxes (see :meth:`_find`; ``still_level`` negative: never).
        crop_margin, crop_edge_px, crop_share, crop_strides, whole_every,
            crop_snap_iou, crop_context_px: a frame where only some blocks
            changed is searched in a crop around them, a card on the same
            pixels and beside the same ones keeping its box (see :meth:`_find`;
            ``crop_margin`` negative: never).
        crop_hold_px, crop_hold_level: with the crop search on, a card
            whose crop did not change keeps the box it was read at (see :meth:`_classify_reusing`;
            negative: never).
        classifier_precision: the OpenVINO classifier's inference precision,
            ``"f32"`` or ``"bf16"`` (:func:`openvino_classifier`).
        live_model: another OpenVINO export of the same finder (the INT8 one,
            :func:`live_model`) that reads frames inside :meth:`live_frames`
            (the live pipeline's video frames); ``None``: the model reads those
            too. Used only with an OpenVINO ``model_path``.

    With a classifier, YOLO proposes boxes (class-agnostic NMS) and the classifier
    names each crop; ``confidence`` is then the classifier's probability of that
    label, crops it calls "no card" are dropped, and ``data["probs"]`` holds each
    kept card's probability for every label of ``CLASSES`` (for callers that can
    weigh the runner-up, e.g. against the legal plays).

    Raises:
        FileNotFoundError: the model file is missing.
    """

    #: reads only the pixels it is given (same pixels, same cards): the live
    #: pipeline may reuse a read for a frame that did not change (its motion gate)
    motion_gate = True

    def __init__(
        self,
        model_path: str | Path | None = None,
        imgsz: int = IMGSZ,
        conf: float = CONF,
        iou: float = _DEFAULTS.iou,
        max_det: int = _DEFAULTS.max_det,
        torch_threads: int | None = None,
        classifier: str | Path | bool | None = None,
        box_conf: float = BOX_CONF,
        views: int = _DEFAULTS.views,
        threads: int = THREADS,
        rect: bool = RECT,
        reuse_px: float = REUSE_PX,
        reuse_level: float = REUSE_LEVEL,
        classifier_precision: str = CLASSIFIER_PRECISION,
        reuse_cell: int = REUSE_CELL,
        still_cell: int = STILL_CELL,
        still_level: float = STILL_LEVEL,
        crop_margin: float = CROP_MARGIN,
        crop_edge_px: float = CROP_EDGE_PX,
        crop_share: float = CROP_SHARE,
        crop_strides: int = CROP_STRIDES,
        whole_every: int = WHOLE_EVERY,
        crop_snap_iou: float = CROP_SNAP_IOU,
        crop_context_px: float = CROP_CONTEXT_PX,
        crop_hold_px: float = CROP_HOLD_PX,
        crop_hold_level: float = CROP_HOLD_LEVEL,
        live_model: str | Path | None = None,
    ) -> None:
        path = Path(model_path) if model_path is not None else default_model()
        if not path.exists():
            raise FileNotFoundError(
                f"no detector model at {path}; run 'tableref train --ship' to make one"
            )
        self.path = path
        self.backend = "pytorch" if path.suffix == ".pt" else "openvino"
        from vision.ultralytics_setup import setup

        self.ov_threads = int(threads)
        self.reuse_px, self.reuse_level = float(reuse_px), float(reuse_level)
        self.reuse_cell = max(1, int(reuse_cell))
        self.still_cell, self.still_level = max(1, int(still_cell)), float(still_level)
        self.crop_margin, self.crop_edge_px = float(crop_margin), float(crop_edge_px)
        self.crop_share, self.crop_strides = float(crop_share), max(1, int(crop_strides))
        self.whole_every = int(whole_every)
        self.crop_snap_iou = float(crop_snap_iou)
        self.crop_context_px = max(0.0, float(crop_context_px))
        self.crop_hold_px = float(crop_hold_px)
        self.crop_hold_level = float(crop_hold_level)
        # per (frame shape, box threshold): each block's grey when the finder
        # last searched it, the boxes then, and the crop searches since the
        # last whole-frame search (_find)
        self._found: dict[tuple, tuple] = {}
        # (image, cell, grey thumbnail) a caller made (share_thumbnail)
        self._shared: tuple | None = None
        # per frame shape (any box threshold), the crop search on: the last
        # boxes found, each with its class and its blocks' grey then (_snap)
        self._seen: dict[tuple, list] = {}
        # frames whose boxes were all kept, searched in a crop, searched whole
        # (crop_fallbacks: of those, after a crop that cut a card)
        self.finder_kept = 0
        self.finder_cropped = 0
        self.finder_whole = 0
        self.finder_crop_fallbacks = 0
        # boxes reported at the box read instead of the finder's fit (the
        # crop search's hold, _classify_reusing)
        self.held_boxes = 0
        self.threads = torch_threads or (2 if self.backend == "pytorch" else 1)
        setup(torch_threads=self.threads)
        self.imgsz = int(imgsz)
        self.conf = float(conf)
        self.iou = float(iou)
        self.max_det = int(max_det)
        if self.backend == "pytorch":
            from ultralytics import YOLO

            self.model = YOLO(str(path), task="detect")
            names = self.model.names
        else:
            self.model = OpenVinoFinder(path, self.imgsz, threads=self.ov_threads,
                                        rect=rect)
            names = export_names(path)
        # the live frames' finder and its own kept boxes and reads
        # (live_frames), swapped with the detector's while in use
        self.live_path: Path | None = None
        self._other: tuple | None = None
        if live_model is not None and self.backend == "openvino":
            self.live_path = Path(live_model)
            if export_names(self.live_path) != names:
                raise ValueError(
                    f"{self.live_path} does not find the cards {path} finds")
            self._other = (OpenVinoFinder(self.live_path, self.imgsz,
                                          threads=self.ov_threads, rect=rect),
                           {}, {}, {}, {})
        self._live = False
        self.names = CLASSES
        # A one-class model ("a card") only proposes boxes: the crop classifier
        # must name them (the shipped model's second training stage).
        proposals_only = bool(names) and len(names) == 1
        if (names and not proposals_only
                and [names[i] for i in sorted(names)] != list(CLASSES)):
            raise ValueError(
                f"{path} was not trained on the card labels of referee.cards"
            )
        self.box_conf = float(box_conf)
        if views not in (1, 2, 3):
            raise ValueError(f"views must be 1, 2 or 3, got {views}")
        self.views = int(views)
        self.classifier = None
        self._classifier_ov = None
        self._classifier_run: ClassifierRequest | None = None
        # per frame shape, the previous call's boxes as read, their crops'
        # thumbnails then and their probabilities (_classify_reusing)
        self._reads: dict[tuple[int, int], tuple] = {}
        # per frame shape, the crop search's hold on: the last SNAP_MEMORY
        # reads, by box read (_classify_reusing)
        self._held: dict[tuple[int, int], dict] = {}
        if classifier is None:
            default = MODEL_DIR / CLASSIFIER_NAME
            classifier = default if default.exists() else False
        if classifier is not False:
            self.classifier, self.crop = load_classifier(classifier)
            self._classifier_ov = (
                openvino_classifier(self.classifier, self.crop, self.ov_threads,
                                    classifier_precision)
                if self.backend == "openvino" else None
            )
        if proposals_only and self.classifier is None:
            raise ValueError(
                f"{path} is a one-class card finder and needs the crop classifier "
                f"({MODEL_DIR / CLASSIFIER_NAME})"
            )

    def detect(self, frame_bgr: np.ndarray, conf: float | None = None) -> Detections:
        """Detect cards in one BGR (or grey) uint8 frame.

        Args:
            frame_bgr: (H, W, 3) BGR or (H, W) grey image, any size.
            conf: least confidence of a returned card for this call (``None``:
                :attr:`conf`); the detector's own threshold is left as it is.

        Returns:
            The cards found, boxes in the frame's pixels, highest confidence first.

        Raises:
            ValueError: the array is not an image.
        """
        frame = np.asarray(frame_bgr)
        if frame.ndim == 2:
            frame = np.repeat(frame[:, :, None], 3, axis=2)
        if frame.ndim != 3 or frame.shape[2] not in (3, 4) or min(frame.shape[:2]) < 2:
            raise ValueError(f"expected an (H, W, 3) image, got shape {frame.shape}")
        if frame.shape[2] == 4:
            frame = frame[:, :, :3]
        if frame.dtype != np.uint8:
            frame = np.clip(frame, 0, 255).astype(np.uint8)
        import torch

        torch.set_num_threads(self.threads)  # Ultralytics' device selection resets it
        least = self.conf if conf is None else float(conf)
        two_stage = self.classifier is not None
        frame = np.ascontiguousarray(frame)
        xyxy, confidence, class_id = self._find(
            frame, self.box_conf if two_stage else least, two_stage)
        if not len(xyxy):
            return Detections.empty()
        data: dict[str, np.ndarray] = {}
        if two_stage:
            probs, xyxy = self._classify_reusing(frame, xyxy)
            class_id = probs.argmax(axis=1).astype(np.int32)
            confidence = probs[np.arange(len(probs)), class_id]
            keep = (class_id < len(CLASSES)) & (confidence >= least)
            xyxy, confidence, class_id = xyxy[keep], confidence[keep], class_id[keep]
            data["probs"] = probs[keep, : len(CLASSES)]
        order = np.argsort(-confidence, kind="stable")
        return Detections(xyxy[order], confidence[order], class_id[order],
                          data={k: v[order] for k, v in data.items()})

    def _find(self, frame: np.ndarray, conf: float, agnostic: bool
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The finder's boxes (xyxy, score, class id) in ``frame`` at least
        ``conf`` sure, searching only what changed.

        The frame's grey thumbnail (blocks :attr:`still_cell` px wide) is
        compared with the blocks' grey when the finder last searched them (per
        frame shape and threshold). No block moved more than :attr:`still_level`
        grey levels: the last boxes are kept (the classifier still checks each
        box's crop, each colour, at ``reuse_level``, :meth:`_classify_reusing`).
        Some blocks moved: the whole frame is searched, or, with
        :attr:`crop_margin` set (not negative) and the OpenVINO finder (a
        dynamic export), the network runs on a crop only
        (:meth:`_search_crop`), the moved blocks' bounding box grown by
        :attr:`crop_margin` px, at the whole frame's scale; the whole frame
        is still searched when that crop would be over
        :attr:`crop_share` of the whole frame's input, when it cut a card it
        took, after :attr:`whole_every` crop searches in a row, and with the
        PyTorch finder. With the crop search on, a block's reference is
        updated only where it moved (the crop search off: every block after a
        whole-frame search), so slow changes cannot add up unseen: each block
        is compared with the frame where the finder last found it changed;
        and a box found that matches one found before on the same pixels
        gets that box's coordinates (:meth:`_snap`): a still card keeps one
        box whichever search ran."""
        key = (frame.shape, float(conf), bool(agnostic))
        thumb = None
        if self.still_level >= 0:
            thumb = self._thumbnail(frame)
            last = self._found.get(key)
            if last is not None and last[0].shape == thumb.shape:
                moved = np.abs(thumb - last[0]) > self.still_level
                if not moved.any():
                    self.finder_kept += 1
                    return tuple(a.copy() for a in last[1])  # type: ignore[return-value]
                found = self._search_crop(frame, conf, agnostic, moved, last[1],
                                          last[2], key, thumb)
                if found is not None:
                    self.finder_cropped += 1
                    reference = last[0].copy()
                    reference[moved] = thumb[moved]
                    self._remember(key, (reference, tuple(a.copy() for a in found),
                                         last[2] + 1))
                    return found
                if self._crops():
                    # the whole frame, the crop search on: still cards keep
                    # their boxes, still blocks their reference
                    found = self._search_whole_snapped(frame, conf, agnostic, key, thumb)
                    reference = last[0].copy()
                    reference[moved] = thumb[moved]
                    self._remember(key, (reference, tuple(a.copy() for a in found), 0))
                    return found
        if thumb is not None and self._crops():
            found = self._search_whole_snapped(frame, conf, agnostic, key, thumb)
        else:
            found = self._search(frame, conf, agnostic)
            self.finder_whole += 1
        if thumb is not None:
            self._remember(key, (thumb, tuple(a.copy() for a in found), 0))
        return found

    def share_thumbnail(self, image: np.ndarray, cell: int, thumb: np.ndarray) -> None:
        """Hand over ``thumb``, the :func:`grey_thumbnail` of ``image`` with
        blocks ``cell`` px wide that the caller made (the live pipeline's
        motion gate), so that :meth:`detect` of this very array does not make
        it again (used when ``cell`` is :attr:`still_cell`; the array's pixels
        must not change before that call). Kept until the next call or
        :meth:`forget`; neither array is written to."""
        self._shared = (image, int(cell), thumb)

    def _thumbnail(self, frame: np.ndarray) -> np.ndarray:
        """The grey thumbnail (:attr:`still_cell`) of ``frame``: the one
        shared for this array (:meth:`share_thumbnail`), else made here."""
        shared = self._shared
        if shared is not None and shared[0] is frame and shared[1] == self.still_cell:
            return shared[2]
        return grey_thumbnail(frame, self.still_cell)

    def _search_whole_snapped(self, frame: np.ndarray, conf: float, agnostic: bool,
                              key: tuple, thumb: np.ndarray
                              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The finder run on the whole frame, the crop search on: each box
        found snapped to one found before on the same pixels (:meth:`_snap`)."""
        boxes, scores, classes = self._search(frame, conf, agnostic)
        self.finder_whole += 1
        h, w = frame.shape[:2]
        return (self._snap(key, boxes, classes, thumb, h / thumb.shape[0],
                           w / thumb.shape[1]), scores, classes)

    def _crops(self) -> bool:
        """Whether the crop search is on (a margin set, the OpenVINO finder)."""
        return self.crop_margin >= 0 and isinstance(self.model, OpenVinoFinder)

    def _snap(self, key: tuple, boxes: np.ndarray, classes: np.ndarray,
              thumb: np.ndarray, sy: float, sx: float) -> np.ndarray:
        """``boxes`` (of ``classes``) in the frame whose grey thumbnail (blocks
        ``sy`` x ``sx`` px) is ``thumb``, each that matches a box the finder
        found before (per frame shape, at any box threshold ``key`` names:
        the last :data:`SNAP_MEMORY` boxes found) of the same class with IoU
        at least :attr:`crop_snap_iou` (the best match first, each box once),
        where every block under that box and around it (within
        :attr:`crop_context_px`: the finder's box of a card depends on what
        lies beside it too) is within :attr:`still_level` of its grey when
        that box was found, given that box's coordinates: the same pixels
        give a card the same box whichever search found it (a crop or the
        whole frame, at the live threshold or a lowered one, before or after
        a hand passed over it), and a box found while a hand lay beside the
        card is not given back once the hand has gone. The others are
        remembered with their blocks' grey."""
        memory = self._seen.setdefault((key[0], key[2]), [])
        out = np.array(boxes, np.float32, copy=True)
        if not len(out):
            return out
        classes = np.asarray(classes)
        done: set[int] = set()
        if memory:
            old = np.array([m[0] for m in memory], np.float64)
            match = box_iou(out.astype(np.float64), old)
            match[classes[:, None] != np.array([m[1] for m in memory])[None, :]] = 0.0
            used: set[int] = set()
            for flat in np.argsort(-match, axis=None, kind="stable"):
                i, j = divmod(int(flat), match.shape[1])
                if match[i, j] < self.crop_snap_iou or match[i, j] <= 0:
                    break
                if i in done or j in used:
                    continue
                r0, r1, c0, c1 = memory[j][3]
                if np.abs(thumb[r0:r1, c0:c1] - memory[j][2]).max(initial=0.0) \
                        > self.still_level:
                    continue
                out[i] = memory[j][0]
                done.add(i)
                used.add(j)
        for i, box in enumerate(out):
            if i in done:
                continue
            r0, r1, c0, c1 = _block_span(box, sy, sx, thumb.shape,
                                         self.crop_context_px)
            memory.append((out[i].copy(), int(classes[i]),
                           thumb[r0:r1, c0:c1].copy(), (r0, r1, c0, c1)))
        del memory[:-SNAP_MEMORY]
        return out

    def _remember(self, key: tuple, entry: tuple) -> None:
        self._found.pop(key, None)
        self._found[key] = entry
        while len(self._found) > REUSE_SHAPES:
            self._found.pop(next(iter(self._found)))

    def _search(self, frame: np.ndarray, conf: float, agnostic: bool
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The finder run on the whole frame."""
        if self.backend == "openvino":
            return self.model(frame, conf, self.iou, self.max_det, agnostic=agnostic)
        boxes = self.model.predict(
            frame,
            imgsz=self.imgsz,
            conf=conf,
            iou=self.iou,
            max_det=self.max_det,
            verbose=False,
            device="cpu",
            agnostic_nms=agnostic,
        )[0].boxes
        if boxes is None:
            return (np.zeros((0, 4), np.float32), np.zeros(0, np.float32),
                    np.zeros(0, np.int32))
        return (boxes.xyxy.cpu().numpy(), boxes.conf.cpu().numpy(),
                boxes.cls.cpu().numpy().astype(np.int32))

    def _search_crop(self, frame: np.ndarray, conf: float, agnostic: bool,
                     moved: np.ndarray, last: tuple, crops_in_a_row: int,
                     key: tuple = (), thumb: np.ndarray | None = None
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """The boxes of ``frame`` found by searching a crop around the ``moved``
        blocks (a boolean thumbnail) merged with the ``last`` boxes, or ``None``
        where the whole frame must be searched (see :meth:`_find`).

        The crop is the moved blocks' bounding box grown by :attr:`crop_margin`
        on each side, taken from the whole frame's network input on the
        network's stride grid, its sides rounded up to :attr:`crop_strides`
        strides (:meth:`OpenVinoFinder.window`): the network sees there the
        pixels it sees in a whole-frame search, at the same scale (not the
        same boxes: it sees less around them). Each card is judged on its
        own: the last boxes on which no moved block lies, nor around them
        within :attr:`crop_context_px` (the finder's box of a card depends on
        what lies beside it too), are kept, even inside the crop; the crop's
        boxes on which or around which one does,
        or that match (IoU over :attr:`iou`) a last box that was dropped, are
        taken, snapped to a box found before on the same pixels
        (:meth:`_snap`); one
        NMS over both (no card twice). A box taken
        that lies within :attr:`crop_edge_px` of a crop side inside the frame
        was cut by the crop (the margin too small for it, e.g. a card held
        near the camera): ``None``."""
        if (not self._crops()
                or (self.whole_every and crops_in_a_row >= self.whole_every)):
            return None
        h, w = frame.shape[:2]
        sy, sx = h / moved.shape[0], w / moved.shape[1]
        rows, cols = np.flatnonzero(moved.any(axis=1)), np.flatnonzero(moved.any(axis=0))
        m = self.crop_margin
        region = (max(cols[0] * sx - m, 0.0), max(rows[0] * sy - m, 0.0),
                  min((cols[-1] + 1) * sx + m, float(w)),
                  min((rows[-1] + 1) * sy + m, float(h)))
        window = self.model.window(h, w, region, self.crop_strides)
        if window is None:
            return None
        in_h, in_w = self.model.input_shape(h, w)
        if (window[1] - window[0]) * (window[3] - window[2]) > self.crop_share * in_h * in_w:
            return None
        boxes, scores, classes = self.model(frame, conf, self.iou, self.max_det,
                                            agnostic=agnostic, window=window)
        old_boxes, old_scores, old_classes = last
        # per card: a box with a moved block under it or around it (within
        # crop_context_px) is the crop's
        pad = self.crop_context_px
        old_hit = _touches(old_boxes, moved, sy, sx, pad)
        hit = _touches(boxes, moved, sy, sx, pad)
        if old_hit.any() and len(boxes):
            hit |= (box_iou(boxes, old_boxes[old_hit]) > self.iou).any(axis=1)
        region = self.model.window_region(h, w, window)
        if (hit & ~_within(boxes, region, self.crop_edge_px, w, h)).any():
            self.finder_crop_fallbacks += 1
            return None
        taken, scores, classes = boxes[hit], scores[hit], classes[hit]
        if thumb is not None:
            taken = self._snap(key, taken, classes, thumb, sy, sx)
        xyxy = np.concatenate([old_boxes[~old_hit], taken]).astype(np.float32)
        score = np.concatenate([old_scores[~old_hit], scores]).astype(np.float32)
        cls = np.concatenate([old_classes[~old_hit], classes]).astype(np.int32)
        offset = 0 if agnostic else cls[:, None] * OpenVinoFinder.MAX_WH
        keep = nms(xyxy + offset, score, self.iou)[: self.max_det]
        return xyxy[keep], score[keep], cls[keep]

    def forget(self) -> None:
        """Drop the reads and boxes kept for reuse (both finders' with a live
        finder): the next frame is searched and its cards are all read anew."""
        self._shared = None
        self._reads.clear()
        self._found.clear()
        self._seen.clear()
        self._held.clear()
        if self._other is not None:
            for kept in self._other[1:]:
                kept.clear()

    @contextlib.contextmanager
    def live_frames(self) -> Iterator[None]:
        """Frames detected inside the block are the live pipeline's video
        frames: with a live finder (``live_model``) its network searches
        them, with boxes and reads kept for reuse apart from the other
        finder's (a card found by one is never given the other's box or
        read); without one, nothing changes. The round-end scan, its
        close-ups and still photos are read outside such a block, by the
        detector's own finder."""
        if self._other is None or self._live:
            yield
            return
        self._swap()
        self._live = True
        try:
            yield
        finally:
            self._live = False
            self._swap()

    def _swap(self) -> None:
        """Exchange the finder in use and its kept boxes and reads with the other."""
        mine = (self.model, self._found, self._seen, self._reads, self._held)
        (self.model, self._found, self._seen, self._reads,
         self._held) = self._other  # type: ignore[misc]
        self._other = mine

    def _classify_reusing(self, frame: np.ndarray, xyxy: np.ndarray
                          ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_classify` of the boxes ``xyxy`` and the boxes to report,
        except that a box of the previous call's frame (of this shape) again
        keeps its probabilities when each side lies within ``reuse_px`` of the
        box the classifier read and the frame's pixels there are still those
        it read: the crop cut at that box, compared as blocks
        :data:`REUSE_CELL` crop pixels wide, differs from the crop read by at
        most ``reuse_level`` grey levels (mean difference). On a live table a
        hand moving elsewhere does not make the cards lying still cost the
        classifier again, nor does a webcam's pixel noise (averaged in the
        blocks) or the box jittering by a pixel (the pixels are compared where
        they were read); a hand over the card, or a card moved, is read anew.
        A kept read keeps the box and crop it was read at, so slow changes
        cannot add up frame by frame unseen.

        With the crop search on and :attr:`crop_hold_px` not negative, a box
        within ``max(reuse_px, crop_hold_px)`` of a box read, in the previous
        call or among the last :data:`SNAP_MEMORY` reads of this shape, its
        crop there again the one read (:meth:`_still_reads`), keeps that read
        and is reported at the box read (the card's pixels did not change, so
        neither does its box: the finder's fit of a still card moves when a
        hand passes beside it or over it, or when a window shows it less of
        its surroundings); the boxes are otherwise reported as found."""
        shape = frame.shape[:2]
        n = len(xyxy)
        last = self._reads.get(shape)
        hold = self._crops() and self.crop_hold_px >= 0
        reach = max(self.reuse_px, self.crop_hold_px) if hold else self.reuse_px
        # each box's kept read: (box read, its crop's thumbnail, probabilities)
        keep: dict[int, tuple] = {}
        cut: dict[bytes, np.ndarray] = {}  # this frame's crops, by box (_cut)
        if last is not None:
            for i, j in self._still_reads(frame, xyxy, np.arange(n), last[0],
                                          last[1], reach, hold, cut).items():
                keep[i] = (last[0][j], last[1][j], last[2][j])
        memory = self._held.setdefault(shape, {}) if hold else {}
        rows = np.array([i for i in range(n) if i not in keep], np.int64)
        taken = {tuple(v[0].tolist()) for v in keep.values()}
        entries = [m for key, m in memory.items() if key not in taken]
        if len(rows) and entries:
            found = self._still_reads(frame, xyxy, rows,
                                      np.array([m[0] for m in entries]),
                                      np.array([m[1] for m in entries]), reach, hold,
                                      cut)
            for i, j in found.items():
                keep[i] = entries[j]
        fresh = np.array([i not in keep for i in range(n)], bool)
        kept = ~fresh
        width = last[2].shape[1] if last is not None else None
        if keep:
            width = len(next(iter(keep.values()))[2])
        new = None
        if fresh.any():
            crops = self._cut(frame, xyxy[fresh], cut)
            new = self._classify(frame, xyxy[fresh], crops)
            width = new.shape[1]
        probs = np.empty((n, width), np.float32)
        read_at = xyxy.astype(np.float32, copy=True)
        thumbs = np.empty((n, *self._thumb_shape()), np.float32)
        if new is not None:
            probs[fresh] = new
            thumbs[fresh] = crop_thumbnails(crops, self.reuse_cell)
        for i, (box, thumb, prob) in keep.items():
            read_at[i], thumbs[i], probs[i] = box, thumb, prob
        self._reads.pop(shape, None)
        self._reads[shape] = (read_at, thumbs, probs.copy())
        while len(self._reads) > REUSE_SHAPES:
            self._reads.pop(next(iter(self._reads)))
        if not hold:
            return probs, np.asarray(xyxy, np.float32)
        for i in range(n):
            key = tuple(read_at[i].tolist())
            memory.pop(key, None)
            memory[key] = (read_at[i].copy(), thumbs[i].copy(), probs[i].copy())
        while len(memory) > SNAP_MEMORY:
            memory.pop(next(iter(memory)))
        self.held_boxes += int((kept & (np.abs(read_at - xyxy).max(axis=1) > 0)).sum())
        return probs, read_at.copy()

    def _cut(self, frame: np.ndarray, boxes: np.ndarray, cut: dict) -> np.ndarray:
        """:func:`crop_boxes` of ``boxes`` in ``frame``, each box cut once: the
        crops already cut (``cut``, by box, for this frame only) taken from
        there, the others cut and added."""
        boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
        keys = [b.tobytes() for b in boxes]
        missing = [i for i, k in enumerate(keys) if k not in cut]
        if missing:
            for i, crop in zip(missing, crop_boxes(frame, boxes[missing], self.crop)):
                cut[keys[i]] = crop
        if not keys:
            return np.zeros((0, self.crop, self.crop, 3), np.uint8)
        return np.stack([cut[k] for k in keys])

    def _still_reads(self, frame: np.ndarray, xyxy: np.ndarray, rows: np.ndarray,
                     boxes: np.ndarray, thumbs: np.ndarray, reach: float,
                     hold: bool, cut: dict | None = None) -> dict[int, int]:
        """Which read each box ``xyxy[rows]`` keeps: {row: index into the
        ``boxes`` read, whose crops' thumbnails were ``thumbs``}. A box keeps
        the nearest read each side within ``reach`` px whose crop cut at the
        box read is still the one read (mean difference within
        :attr:`reuse_level`; beyond :attr:`reuse_px`, with ``hold``, also no
        block over :attr:`crop_hold_level`: a card slid by a pixel or two
        moves its sides' blocks, not the crop's mean), each read once."""
        out: dict[int, int] = {}
        if not len(rows) or not len(boxes):
            return out
        near = np.abs(xyxy[rows][:, None, :] - boxes[None, :, :]).max(axis=2)
        pairs = np.argwhere(near <= reach)
        if not len(pairs):
            return out
        js = np.unique(pairs[:, 1])
        now = crop_thumbnails(self._cut(frame, boxes[js], {} if cut is None else cut),
                              self.reuse_cell)
        diff = np.abs(now - thumbs[js])
        same = diff.mean(axis=(1, 2, 3)) <= self.reuse_level
        still = set(js[same].tolist())
        steady = (set(js[same & (diff.max(axis=(1, 2, 3)) <= self.crop_hold_level)]
                      .tolist()) if hold else set())
        used: set[int] = set()
        for k in np.argsort(near[pairs[:, 0], pairs[:, 1]], kind="stable"):
            a, j = (int(v) for v in pairs[k])
            i = int(rows[a])
            if i in out or j in used:
                continue
            if j in (still if near[a, j] <= self.reuse_px else steady):
                out[i] = j
                used.add(j)
        return out

    def _thumb_shape(self) -> tuple[int, int, int]:
        cell = self.reuse_cell
        side = self.crop // cell if self.crop >= cell else self.crop
        return side, side, 3

    def _classify(
        self, frame: np.ndarray, xyxy: np.ndarray, crops: np.ndarray | None = None
    ) -> np.ndarray:
        """(N, len(CLASSES) + 1) class probabilities of each box's crop; the last
        column is "no card". With :attr:`views` > 1, a box whose crop the
        classifier is not sure of (top probability under :data:`SURE`) gets the
        mean over several views of it: most boxes cost one crop."""
        if crops is None:
            crops = crop_boxes(frame, xyxy, self.crop)
        probs = self._probabilities(crops)
        unsure = np.flatnonzero(probs.max(axis=1) < SURE)
        if self.views == 1 or not len(unsure):
            return probs
        boxes = xyxy[unsure]
        views = [probs[unsure]]
        more = [np.ascontiguousarray(crops[unsure][:, ::-1, ::-1])]
        if self.views >= 3:
            span = boxes[:, 2:] - boxes[:, :2]
            grown = np.concatenate(
                [boxes[:, :2] - 0.04 * span, boxes[:, 2:] + 0.04 * span], 1
            )
            more.append(crop_boxes(frame, grown, self.crop))
        extra = self._probabilities(np.concatenate(more))
        views += list(extra.reshape(len(more), len(unsure), -1))
        probs = probs.copy()
        probs[unsure] = np.mean(views, axis=0)
        return probs

    def read_crops(self, crops: np.ndarray) -> np.ndarray:
        """The classifier's probabilities of (N, :attr:`crop`, :attr:`crop`, 3)
        uint8 BGR crops (as :func:`crop_boxes` cuts them): (N, len(CLASSES) + 1),
        the last column "no card" (one view each; nothing kept for reuse).

        Raises:
            ValueError: the detector has no classifier.
        """
        if self.classifier is None:
            raise ValueError("this detector has no crop classifier")
        if not len(crops):
            return np.zeros((0, len(CLASSES) + 1), np.float32)
        return self._probabilities(np.ascontiguousarray(crops))

    def _classifier_request(self) -> ClassifierRequest:
        """The kept infer request of the OpenVINO classifier
        (:attr:`_classifier_ov`; made anew when that was replaced)."""
        run = self._classifier_run
        if run is None or run.compiled is not self._classifier_ov:
            run = self._classifier_run = ClassifierRequest(self._classifier_ov)
        return run

    def _probabilities(self, crops: np.ndarray) -> np.ndarray:
        """Softmax of the classifier on (N, H, W, 3) uint8 BGR crops."""
        if self._classifier_ov is not None:
            logits = self._classifier_request()(crops)
            e = np.exp(logits - logits.max(axis=1, keepdims=True))
            return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
        import torch

        with torch.no_grad():
            prob = torch.softmax(self.classifier(crops_to_tensor(crops)), dim=1)
        return prob.numpy().astype(np.float32)


def _touches(xyxy: np.ndarray, blocks: np.ndarray, sy: float, sx: float,
             pad: float = 0.0) -> np.ndarray:
    """Which boxes (x1, y1, x2, y2), grown by ``pad`` px on each side, overlap
    a set block of ``blocks`` (a boolean grid of blocks ``sy`` x ``sx`` px)."""
    b = np.asarray(xyxy, np.float64).reshape(-1, 4)
    out = np.zeros(len(b), bool)
    for k, box in enumerate(b):
        r0, r1, c0, c1 = _block_span(box, sy, sx, blocks.shape, pad)
        out[k] = bool(blocks[r0:r1, c0:c1].any())
    return out


def _block_span(box: np.ndarray, sy: float, sx: float, shape: tuple[int, int],
                pad: float = 0.0) -> tuple[int, int, int, int]:
    """The rows and columns (r0, r1, c0, c1; ends excluded) of the blocks
    ``sy`` x ``sx`` px of a ``shape`` grid that an xyxy box, grown by ``pad``
    px on each side, overlaps."""
    x1, y1, x2, y2 = (float(v) for v in box)
    x1, y1, x2, y2 = x1 - pad, y1 - pad, x2 + pad, y2 + pad
    rows, cols = shape
    return (max(int(np.floor(y1 / sy)), 0), min(int(np.ceil(y2 / sy)), rows),
            max(int(np.floor(x1 / sx)), 0), min(int(np.ceil(x2 / sx)), cols))


def _within(xyxy: np.ndarray, region: tuple, edge: float, w: int, h: int
            ) -> np.ndarray:
    """Which boxes lie inside ``region`` (x1, y1, x2, y2) of a ``w`` x ``h``
    frame, more than ``edge`` px from each of its sides that is not the frame's
    (a box nearer was cut by it)."""
    x1, y1, x2, y2 = region
    b = np.asarray(xyxy, np.float64).reshape(-1, 4)
    return (((b[:, 0] > x1 + edge) | (x1 <= 0)) & ((b[:, 1] > y1 + edge) | (y1 <= 0))
            & ((b[:, 2] < x2 - edge) | (x2 >= w)) & ((b[:, 3] < y2 - edge) | (y2 >= h))
            & (b[:, 0] >= x1) & (b[:, 1] >= y1) & (b[:, 2] <= x2) & (b[:, 3] <= y2))
