"""The card detector at run time: frames in, :class:`~vision.detections.Detections` out.

    from vision.detector import Detector
    detector = Detector()                  # the shipped OpenVINO model
    dets = detector.detect(frame_bgr)      # any size, any aspect ratio
    for label, confidence, box in dets: ...

By default it loads ``models/uno-yolo11n_openvino_model`` (the finder's OpenVINO
export, about 3x faster than PyTorch on this CPU) and falls back to
``models/uno-yolo11n.pt``. With the OpenVINO finder, the crop classifier is
compiled by OpenVINO too when the detector loads (a second or two). The OpenVINO
finder runs without Ultralytics' predictor (:class:`OpenVinoFinder`: the same
letterbox, NMS and box scaling in NumPy, same boxes); a ``.pt`` model runs through
Ultralytics. Boxes come back in the frame's pixels.

Two stages (see ``docs/detector.md``): YOLO proposes boxes, and the crop
classifier ``models/uno-cardnet.pt`` (:func:`card_net`) names each box or rejects
it as "no card". The classifier learns card identity from rendered crops far
faster than the detector's own class head on this CPU; without it the YOLO labels
are used alone.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from referee.cards import CLASSES
from vision.config import DetectorConfig
from vision.detections import Detections
from vision.ultralytics_setup import nms_numpy

MODEL_DIR = Path(__file__).resolve().parent.parent / "models"
PT_NAME = "uno-yolo11n.pt"
OPENVINO_NAME = "uno-yolo11n_openvino_model"
CLASSIFIER_NAME = "uno-cardnet.pt"
# The defaults and their meaning live in vision.config.DetectorConfig.
_DEFAULTS = DetectorConfig()
IMGSZ = _DEFAULTS.imgsz
CONF = _DEFAULTS.conf
BOX_CONF = _DEFAULTS.box_conf  # YOLO score a box needs before the classifier looks
CROP = 64
SURE = 0.9  # a crop named with at least this probability needs no second look


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
    import torch.nn as nn

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

    class MeanOfNets(nn.Module):
        def __init__(self, members: list) -> None:
            super().__init__()
            self.members = nn.ModuleList(members)

        def forward(self, x):  # noqa: ANN001, ANN202
            probs = torch.stack([torch.softmax(m(x), dim=1) for m in self.members])
            return torch.log(probs.mean(dim=0).clamp_min(1e-12))

    return MeanOfNets(nets).eval(), size


def crops_to_tensor(crops: np.ndarray):
    """(N, H, W, 3) uint8 BGR crops -> (N, 3, H, W) float tensor in [0, 1]."""
    import torch

    return (
        torch.from_numpy(np.ascontiguousarray(crops)).permute(0, 3, 1, 2).float() / 255
    )


def crop_boxes(frame: np.ndarray, xyxy: np.ndarray, size: int = CROP) -> np.ndarray:
    """Square ``size`` crops of each box (stretched, as the classifier was trained)."""
    import cv2

    h, w = frame.shape[:2]
    out = np.empty((len(xyxy), size, size, 3), np.uint8)
    for i, (x1, y1, x2, y2) in enumerate(xyxy):
        x1, y1 = int(max(0, np.floor(x1))), int(max(0, np.floor(y1)))
        x2, y2 = int(min(w, np.ceil(x2))), int(min(h, np.ceil(y2)))
        patch = frame[y1 : max(y2, y1 + 1), x1 : max(x2, x1 + 1)]
        out[i] = cv2.resize(patch, (size, size), interpolation=cv2.INTER_AREA)
    return out


def default_model() -> Path:
    """The shipped model the runtime loads: OpenVINO if present, else the .pt."""
    openvino = MODEL_DIR / OPENVINO_NAME
    if (openvino / "metadata.yaml").exists():
        return openvino
    return MODEL_DIR / PT_NAME


class Detector:
    """Finds UNO cards in BGR frames.

    Args:
        model_path: an OpenVINO model folder or a ``.pt`` file; ``None`` for the
            shipped model.
        imgsz: inference size (the model's working size, 256).
        conf: minimum confidence of a returned card.
        iou: NMS IoU threshold.
        max_det: most cards returned per frame.
        torch_threads: torch threads (1 next to OpenVINO, 2 for a .pt model);
            OpenVINO takes every core for each inference (its latency hint).
        classifier: the crop classifier checkpoint; ``None`` for the shipped one if
            present, ``False`` to use the YOLO labels alone.
        box_conf: YOLO score a box needs before the classifier names it.
        views: crops the classifier averages per box it is unsure of: 1 the box,
            2 also the box turned 180 degrees (a card reads the same both ways
            up), 3 also the box 4 % larger on each side.

    With a classifier, YOLO proposes boxes (class-agnostic NMS) and the classifier
    names each crop; ``confidence`` is then the classifier's probability of that
    label, crops it calls "no card" are dropped, and ``data["probs"]`` holds each
    kept card's probability for every label of ``CLASSES`` (for callers that can
    weigh the runner-up, e.g. against the legal plays).

    Raises:
        FileNotFoundError: the model file is missing.
    """

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
    ) -> None:
        path = Path(model_path) if model_path is not None else default_model()
        if not path.exists():
            raise FileNotFoundError(
                f"no detector model at {path}; run 'tableref train --ship' to make one"
            )
        self.path = path
        self.backend = "pytorch" if path.suffix == ".pt" else "openvino"
        from vision.ultralytics_setup import setup

        threads = torch_threads or (2 if self.backend == "pytorch" else 1)
        self.threads = threads
        setup(torch_threads=threads)
        self.imgsz = int(imgsz)
        self.conf = float(conf)
        self.iou = float(iou)
        self.max_det = int(max_det)
        if self.backend == "pytorch":
            from ultralytics import YOLO

            self.model = YOLO(str(path), task="detect")
            names = self.model.names
        else:
            self.model = OpenVinoFinder(path, self.imgsz)
            names = _export_names(path)
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
        if classifier is None:
            default = MODEL_DIR / CLASSIFIER_NAME
            classifier = default if default.exists() else False
        if classifier is not False:
            self.classifier, self.crop = load_classifier(classifier)
            self._classifier_ov = (
                _openvino_classifier(self.classifier, self.crop)
                if self.backend == "openvino" else None
            )
        if proposals_only and self.classifier is None:
            raise ValueError(
                f"{path} is a one-class card finder and needs the crop classifier "
                f"({MODEL_DIR / CLASSIFIER_NAME})"
            )

    def detect(self, frame_bgr: np.ndarray) -> Detections:
        """Detect cards in one BGR (or grey) uint8 frame.

        Args:
            frame_bgr: (H, W, 3) BGR or (H, W) grey image, any size.

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
        two_stage = self.classifier is not None
        frame = np.ascontiguousarray(frame)
        conf = self.box_conf if two_stage else self.conf
        if self.backend == "openvino":
            xyxy, confidence, class_id = self.model(
                frame, conf, self.iou, self.max_det, agnostic=two_stage
            )
        else:
            boxes = self.model.predict(
                frame,
                imgsz=self.imgsz,
                conf=conf,
                iou=self.iou,
                max_det=self.max_det,
                verbose=False,
                device="cpu",
                agnostic_nms=two_stage,
            )[0].boxes
            if boxes is None:
                return Detections.empty()
            xyxy = boxes.xyxy.cpu().numpy()
            confidence = boxes.conf.cpu().numpy()
            class_id = boxes.cls.cpu().numpy().astype(np.int32)
        if not len(xyxy):
            return Detections.empty()
        data: dict[str, np.ndarray] = {}
        if two_stage:
            probs = self._classify(frame, xyxy)
            class_id = probs.argmax(axis=1).astype(np.int32)
            confidence = probs[np.arange(len(probs)), class_id]
            keep = (class_id < len(CLASSES)) & (confidence >= self.conf)
            xyxy, confidence, class_id = xyxy[keep], confidence[keep], class_id[keep]
            data["probs"] = probs[keep, : len(CLASSES)]
        order = np.argsort(-confidence, kind="stable")
        return Detections(xyxy[order], confidence[order], class_id[order],
                          data={k: v[order] for k, v in data.items()})

    def _classify(self, frame: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
        """(N, len(CLASSES) + 1) class probabilities of each box's crop; the last
        column is "no card". With :attr:`views` > 1, a box whose crop the
        classifier is not sure of (top probability under :data:`SURE`) gets the
        mean over several views of it: most boxes cost one crop."""
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

    def _probabilities(self, crops: np.ndarray) -> np.ndarray:
        """Softmax of the classifier on (N, H, W, 3) uint8 BGR crops."""
        if self._classifier_ov is not None:
            x = crops_to_tensor(crops).numpy()
            logits = np.asarray(self._classifier_ov(x)[0], np.float32)
            e = np.exp(logits - logits.max(axis=1, keepdims=True))
            return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
        import torch

        with torch.no_grad():
            prob = torch.softmax(self.classifier(crops_to_tensor(crops)), dim=1)
        return prob.numpy().astype(np.float32)


class OpenVinoFinder:
    """The exported YOLO model run by OpenVINO directly, with Ultralytics'
    pre- and post-processing written out in NumPy: letterbox to ``imgsz`` (grey
    114 borders, the image centred), RGB in [0, 1], one inference, boxes above the
    score threshold, greedy NMS, boxes back in the frame's pixels. Same boxes as
    ``YOLO(folder).predict`` (tested), without its predictor's per-call overhead.

    Args:
        folder: an Ultralytics OpenVINO export (one ``.xml`` with its ``.bin``).
        imgsz: working size; a static export runs at its own size only
            (ValueError otherwise), a dynamic one is fixed to this size.

    OpenVINO's latency hint picks the threads (every core for one request).
    """

    MAX_WH = 7680  # Ultralytics' per-class offset for class-aware NMS

    def __init__(self, folder: Path, imgsz: int) -> None:
        import openvino as ov

        xmls = sorted(Path(folder).glob("*.xml"))
        if len(xmls) != 1:
            raise FileNotFoundError(f"expected one OpenVINO .xml in {folder}")
        core = ov.Core()
        model = core.read_model(str(xmls[0]))
        shape = model.input(0).get_partial_shape()
        if shape.is_static and list(shape.to_shape()) != [1, 3, imgsz, imgsz]:
            # Its anchors are constants of that size: it cannot be reshaped.
            raise ValueError(
                f"{folder} was exported at {list(shape.to_shape())[2:]}: run it at "
                f"imgsz {shape.to_shape()[2]} or export it again at {imgsz}"
            )
        if shape.is_dynamic:
            model.reshape({model.input(0): [1, 3, imgsz, imgsz]})
        self.compiled = core.compile_model(
            model, "CPU", {"PERFORMANCE_HINT": "LATENCY"}
        )
        self.request = self.compiled.create_infer_request()
        self.imgsz = int(imgsz)

    def letterbox(self, frame: np.ndarray) -> tuple[np.ndarray, tuple]:
        """(1, 3, S, S) float32 RGB input, and the (gain x, gain y, pad x, pad y)
        that map its pixels back to the frame's."""
        import cv2

        h, w = frame.shape[:2]
        s = self.imgsz
        r = min(s / h, s / w)
        new_w, new_h = max(round(w * r), 1), max(round(h * r), 1)
        if (new_w, new_h) != (w, h):
            frame = cv2.resize(frame, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
        dw, dh = (s - new_w) / 2, (s - new_h) / 2
        top, bottom = round(dh - 0.1), round(dh + 0.1)
        left, right = round(dw - 0.1), round(dw + 0.1)
        img = cv2.copyMakeBorder(
            frame, top, bottom, left, right, cv2.BORDER_CONSTANT, value=(114, 114, 114)
        )
        x = img[None, :, :, ::-1].transpose(0, 3, 1, 2).astype(np.float32) / 255
        return np.ascontiguousarray(x), (new_w / w, new_h / h, left, top)

    def __call__(
        self,
        frame: np.ndarray,
        conf: float,
        iou: float,
        max_det: int,
        agnostic: bool = False,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Boxes (N, 4) xyxy in the frame's pixels, scores (N,), class ids (N,),
        best score first."""
        x, (gain_x, gain_y, pad_x, pad_y) = self.letterbox(frame)
        pred = self.request.infer({0: x})[self.compiled.output(0)][0]  # (4 + nc, A)
        scores = pred[4:]
        cls = scores.argmax(0)
        score = scores[cls, np.arange(scores.shape[1])]
        keep = np.flatnonzero(score > conf)
        xywh = pred[:4, keep].T
        boxes = np.concatenate([xywh[:, :2] - xywh[:, 2:] / 2,
                                xywh[:, :2] + xywh[:, 2:] / 2], 1)
        score, cls = score[keep], cls[keep]
        offset = 0 if agnostic else cls[:, None] * self.MAX_WH
        kept = nms_numpy(boxes + offset, score, iou)[:max_det]
        boxes, score, cls = boxes[kept], score[kept], cls[kept]
        boxes -= np.array([pad_x, pad_y, pad_x, pad_y], np.float32)
        boxes /= np.array([gain_x, gain_y, gain_x, gain_y], np.float32)
        h, w = frame.shape[:2]
        boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, w)
        boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, h)
        return boxes.astype(np.float32), score.astype(np.float32), cls.astype(np.int32)


def _openvino_classifier(net, size: int):  # noqa: ANN001, ANN202
    """The crop classifier compiled by OpenVINO (about 5x faster than PyTorch for
    this small net, same outputs to ~0.02 in the logits), or ``None`` when OpenVINO
    cannot take it (the PyTorch net is used then). Like the finder it runs on
    OpenVINO's latency hint (every core for one request: the two stages run one
    after the other), in float32 (bfloat16 moves the logits by ~0.02)."""
    import warnings

    try:
        import openvino as ov
        import torch

        with warnings.catch_warnings():  # it traces the net with torch.jit
            warnings.simplefilter("ignore")
            model = ov.convert_model(
                net,
                example_input=torch.zeros(1, 3, size, size),
                input=[(-1, 3, size, size)],
            )
        return ov.Core().compile_model(
            model,
            "CPU",
            {"PERFORMANCE_HINT": "LATENCY", "INFERENCE_PRECISION_HINT": "f32"},
        )
    except Exception:  # noqa: BLE001 - any failure: PyTorch still works
        return None


def _export_names(path: Path) -> dict[int, str] | None:
    """Class names recorded in an exported model folder's metadata.yaml, if any."""
    meta = Path(path) / "metadata.yaml"
    if not meta.is_file():
        return None
    import yaml

    try:
        names = (yaml.safe_load(meta.read_text(encoding="utf-8")) or {}).get("names")
    except (OSError, yaml.YAMLError):
        return None
    return {int(k): str(v) for k, v in names.items()} if isinstance(names, dict) else None

