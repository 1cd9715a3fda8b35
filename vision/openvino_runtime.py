"""The detector's OpenVINO runtime: the finder run without Ultralytics'
predictor (:class:`OpenVinoFinder`), the crop classifier compiled by OpenVINO
(:func:`openvino_classifier`) and an export's class names (:func:`export_names`).
Used by :class:`vision.detector.Detector`.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from vision.config import DetectorConfig
from vision.ultralytics_setup import nms_numpy

#: OpenVINO inference threads of each stage (``detector.threads``)
THREADS = DetectorConfig().threads


def resized_part(frame: np.ndarray, new_w: int, new_h: int,
                 y1: int, y2: int, x1: int, x2: int) -> np.ndarray:
    """Rows ``y1:y2`` and columns ``x1:x2`` of ``cv2.resize(frame, (new_w,
    new_h), interpolation=cv2.INTER_LINEAR)``, the same values, resizing only
    the frame's pixels they are made from where the scale allows it (each
    side's scale a whole number of source pixels to a power of two, at most
    16, of resized pixels, e.g. 640 to 256: the part's pixels then have the
    same source pixels and weights as in the whole frame resized); the whole
    frame resized and cut otherwise."""
    import cv2

    h, w = frame.shape[:2]
    ys, xs = _part_span(h, new_h, y1, y2), _part_span(w, new_w, x1, x2)
    if ys is None or xs is None:
        if (new_w, new_h) != (w, h):
            frame = cv2.resize(frame, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
        return frame[y1:y2, x1:x2]
    (sy1, sy2, dy1, dy2), (sx1, sx2, dx1, dx2) = ys, xs
    part = frame[sy1:sy2, sx1:sx2]
    if (dx2 - dx1, dy2 - dy1) != (sx2 - sx1, sy2 - sy1):
        part = cv2.resize(part, (dx2 - dx1, dy2 - dy1), interpolation=cv2.INTER_LINEAR)
    return part[y1 - dy1:y2 - dy1, x1 - dx1:x2 - dx1]


def _part_span(size: int, new: int, a: int, b: int
               ) -> tuple[int, int, int, int] | None:
    """For :func:`resized_part`, one side: the source pixels (s1, s2) to
    resize into resized pixels (d1, d2) that hold ``a:b`` with a step of
    margin on each side (no pixel kept is made from a pixel beyond the part's
    edge, unless that edge is the frame's); ``None`` where the scale does not
    allow it."""
    from math import gcd

    g = gcd(size, new)
    ds, ss = new // g, size // g  # ds resized pixels are made from ss source pixels
    if ds > 16 or ds & (ds - 1):
        return None
    d1 = max((a // ds - 1) * ds, 0)
    d2 = min((-(-b // ds) + 1) * ds, new)
    s1 = d1 // ds * ss
    s2 = size if d2 == new else d2 // ds * ss
    return s1, s2, d1, d2


#: boxes up to which :func:`nms` compares every pair at once (beyond:
#: :func:`vision.ultralytics_setup.nms_numpy`, one kept box at a time)
NMS_MATRIX = 256


def nms(boxes: np.ndarray, scores: np.ndarray, iou_threshold: float) -> np.ndarray:
    """:func:`vision.ultralytics_setup.nms_numpy`'s kept indices (the same
    ones: the same IoU, computed the same way, and the same greedy pass),
    with every pair's IoU computed at once for up to :data:`NMS_MATRIX`
    boxes (a few boxes: about a quarter of its time)."""
    n = len(boxes)
    if n > NMS_MATRIX:
        return nms_numpy(boxes, scores, iou_threshold)
    if not n:
        return np.empty(0, np.int64)
    order = np.argsort(-np.asarray(scores, np.float32), kind="stable")
    b = np.asarray(boxes, np.float64)[order]
    area = np.clip(b[:, 2] - b[:, 0], 0, None) * np.clip(b[:, 3] - b[:, 1], 0, None)
    iw = np.clip(np.minimum(b[:, None, 2], b[None, :, 2])
                 - np.maximum(b[:, None, 0], b[None, :, 0]), 0, None)
    ih = np.clip(np.minimum(b[:, None, 3], b[None, :, 3])
                 - np.maximum(b[:, None, 1], b[None, :, 1]), 0, None)
    inter = iw * ih
    union = area[:, None] + area[None, :] - inter
    over = np.divide(inter, union, out=np.zeros_like(inter), where=union > 0) \
        > iou_threshold
    alive = np.ones(n, bool)
    keep = []
    for i in range(n):
        if alive[i]:
            keep.append(i)
            alive[i + 1:] &= ~over[i, i + 1:]
    return order[np.asarray(keep, np.int64)]


#: the letterbox's border, grey 114, as the network's input value
GREY = np.float32(114) / np.float32(255)


def _fill_around(x: np.ndarray, y1: int, y2: int, x1: int, x2: int) -> None:
    """Set every pixel of a (1, C, H, W) input outside rows ``y1:y2`` and
    columns ``x1:x2`` (where the frame's pixels go) to :data:`GREY`: only the
    border is written."""
    h, w = x.shape[2:]
    if y1 > 0:
        x[0, :, :y1].fill(GREY)
    if y2 < h:
        x[0, :, y2:].fill(GREY)
    if x1 > 0:
        x[0, :, y1:y2, :x1].fill(GREY)
    if x2 < w:
        x[0, :, y1:y2, x2:].fill(GREY)


class OpenVinoFinder:
    """The exported YOLO model run by OpenVINO directly, with Ultralytics'
    pre- and post-processing written out in NumPy: letterbox (grey 114 borders,
    the image centred), RGB in [0, 1], one inference, boxes above the score
    threshold, greedy NMS, boxes back in the frame's pixels. Same boxes as
    ``YOLO(folder).predict`` (tested), without its predictor's per-call overhead.

    Args:
        folder: an Ultralytics OpenVINO export (one ``.xml`` with its ``.bin``).
        imgsz: working size, the long side of the network's input.
        threads: OpenVINO inference threads per request; 0: OpenVINO's latency
            hint picks them (every core for one request).
        rect: with a dynamic export, run each frame at its own shape (below);
            otherwise every frame is letterboxed into ``imgsz`` x ``imgsz``.

    A static export runs at its own input shape only (its anchors are constants
    of that shape; ValueError when its long side is not ``imgsz``): every frame
    is letterboxed into it. A dynamic export runs at ``imgsz`` x ``imgsz``
    (the static export's outputs exactly), or with ``rect`` each frame at the
    smallest input that holds it scaled to ``imgsz`` on its long side, both
    sides rounded up to the stride, as Ultralytics' predictor does (a 640x480
    frame at 256x192: a quarter fewer pixels, no grey rows); one compiled model
    per input shape, made when a frame first needs it.
    """

    MAX_WH = 7680  # Ultralytics' per-class offset for class-aware NMS
    STRIDE = 32  # the network's largest stride: a dynamic input's sides are multiples

    def __init__(
        self, folder: Path, imgsz: int, threads: int = 0, rect: bool = False
    ) -> None:
        import openvino as ov

        xmls = sorted(Path(folder).glob("*.xml"))
        if len(xmls) != 1:
            raise FileNotFoundError(f"expected one OpenVINO .xml in {folder}")
        self.core = ov.Core()
        self.model = self.core.read_model(str(xmls[0]))
        self.imgsz = int(imgsz)
        self.rect = bool(rect)
        self.config: dict = {"PERFORMANCE_HINT": "LATENCY"}
        if threads:
            self.config["INFERENCE_NUM_THREADS"] = int(threads)
        shape = self.model.input(0).get_partial_shape()
        self.static: tuple[int, int] | None = None
        self._compiled: dict[tuple[int, int], tuple] = {}
        self._inputs: dict[tuple[int, int], np.ndarray] = {}
        # while remembering (remembering()): per input shape, the last input
        # run and the network's output for it
        self._remember = 0
        self._last: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        self.reused = 0  # inferences answered from the last one (remembering)
        if shape.is_static:
            h, w = (int(v) for v in list(shape.to_shape())[2:])
            if max(h, w) != self.imgsz:
                raise ValueError(
                    f"{folder} was exported at {[h, w]}: run it at imgsz {max(h, w)} "
                    f"or export it again at {imgsz}"
                )
            self.static = (h, w)
            self._request(self.static)
        else:
            self._request(self.input_shape(self.imgsz, self.imgsz))

    def input_shape(self, h: int, w: int) -> tuple[int, int]:
        """The network's input (height, width) for an ``h`` x ``w`` frame."""
        if self.static is not None:
            return self.static
        if not self.rect:
            return self.imgsz, self.imgsz
        r = min(self.imgsz / h, self.imgsz / w)
        new_h, new_w = max(round(h * r), 1), max(round(w * r), 1)
        s = self.STRIDE
        return -(-new_h // s) * s, -(-new_w // s) * s

    def _request(self, shape: tuple[int, int]):  # noqa: ANN202
        """The compiled model and infer request for an input ``shape`` (h, w)."""
        got = self._compiled.get(shape)
        if got is None:
            model = self.model
            if self.static is None:
                model = model.clone()
                model.reshape({model.input(0): [1, 3, *shape]})
            compiled = self.core.compile_model(model, "CPU", self.config)
            request = compiled.create_infer_request()
            # the request reads its input from this array (no copy, no input
            # dispatch a frame): letterbox writes each frame into it
            buffer = np.zeros((1, 3, *shape), np.float32)
            import openvino as ov

            request.set_input_tensor(ov.Tensor(buffer, shared_memory=True))
            self._inputs[shape] = buffer
            got = self._compiled[shape] = (compiled, request)
        return got

    @contextmanager
    def remembering(self) -> Iterator[None]:
        """While in this context, an input equal to the last one run at its
        shape (the same frame or window, every value the same) gets that run's
        output again without a second inference: a caller that asks the same
        image at two thresholds (the scan's faint look) pays the network once.
        The outputs are those an inference gives (the same input, the same
        network). The inputs and outputs kept are dropped on leaving."""
        self._remember += 1
        try:
            yield
        finally:
            self._remember -= 1
            if not self._remember:
                self._last.clear()

    def _infer(self, request, x: np.ndarray) -> np.ndarray:  # noqa: ANN001
        """The network's output (4 + classes, anchors) for the input ``x``
        that ``request`` reads: run, or while :meth:`remembering`, the last
        output of an equal input."""
        if self._remember:
            last = self._last.get(x.shape[2:])
            if last is not None and np.array_equal(last[0], x):
                self.reused += 1
                return last[1]
        request.infer()
        # a view of the request's output (read before the next inference)
        pred = request.get_output_tensor(0).data[0]
        if self._remember:
            self._last[x.shape[2:]] = (x.copy(), pred.copy())
        return pred

    def fit(self, h: int, w: int) -> tuple[int, int, int, int, int, int]:
        """Where an ``h`` x ``w`` frame lies in the network's input: the input's
        (height, width), the frame's size there (height, width) and its top-left
        corner (top, left)."""
        in_h, in_w = self.input_shape(h, w)
        r = min(in_h / h, in_w / w)
        new_w, new_h = max(round(w * r), 1), max(round(h * r), 1)
        dw, dh = (in_w - new_w) / 2, (in_h - new_h) / 2
        return in_h, in_w, new_h, new_w, round(dh - 0.1), round(dw - 0.1)

    def letterbox(
        self, frame: np.ndarray, out: np.ndarray | None = None
    ) -> tuple[np.ndarray, tuple]:
        """(1, 3, H, W) float32 RGB input (written into ``out`` when given, an
        array of that shape), and the (gain x, gain y, pad x, pad y) that map its
        pixels back to the frame's."""
        import cv2

        h, w = frame.shape[:2]
        in_h, in_w, new_h, new_w, top, left = self.fit(h, w)
        if (new_w, new_h) != (w, h):
            frame = cv2.resize(frame, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
        # float32 RGB / 255 written straight into the input, each channel a
        # plane; the borders grey 114 (the same values as converting a padded
        # uint8 image, without its transposed float copies: ~0.2 ms less a frame)
        x = np.empty((1, 3, in_h, in_w), np.float32) if out is None else out
        _fill_around(x, top, top + new_h, left, left + new_w)
        inner = x[0, :, top : top + new_h, left : left + new_w]
        np.divide(frame.transpose(2, 0, 1)[::-1], 255, out=inner, dtype=np.float32)
        return x, (new_w / w, new_h / h, left, top)

    def letterbox_window(
        self, frame: np.ndarray, window: tuple[int, int, int, int], out: np.ndarray
    ) -> tuple[float, float, int, int]:
        """The part ``window`` (:meth:`window`) of :meth:`letterbox`'s input,
        written into ``out`` (an array of the window's shape): the same values
        as cutting it from the whole input, only the window's pixels converted.
        Returns :meth:`letterbox`'s (gain x, gain y, pad x, pad y)."""
        import cv2

        h, w = frame.shape[:2]
        _, _, new_h, new_w, top, left = self.fit(h, w)
        y1, y2, x1, x2 = window
        # the frame's pixels inside the window, in the input's pixels
        fy1, fy2 = max(y1, top), min(y2, top + new_h)
        fx1, fx2 = max(x1, left), min(x2, left + new_w)
        if fy1 < fy2 and fx1 < fx2:
            _fill_around(out, fy1 - y1, fy2 - y1, fx1 - x1, fx2 - x1)
            inner = out[0, :, fy1 - y1:fy2 - y1, fx1 - x1:fx2 - x1]
            part = resized_part(frame, new_w, new_h, fy1 - top, fy2 - top,
                                fx1 - left, fx2 - left)
            np.divide(part.transpose(2, 0, 1)[::-1], 255, out=inner, dtype=np.float32)
        else:
            out.fill(GREY)
        return new_w / w, new_h / h, left, top

    def window(
        self, h: int, w: int, region: tuple[float, float, float, float],
        multiple: int = 1,
    ) -> tuple[int, int, int, int] | None:
        """The part of the whole frame's input that holds ``region`` (x1, y1,
        x2, y2 in the frame's pixels) for :meth:`__call__`'s ``window``: (top,
        bottom, left, right) in the input's pixels, on the network's stride
        grid (so that the network sees there what it sees in the whole input,
        away from the window's edges), each side a number of strides rounded up
        to a multiple of ``multiple`` (fewer shapes, each a compiled model) and
        grown about the region to fill it, within the input; a window that
        reaches the frame's edge takes the letterbox's grey border beyond it too.
        ``None`` for a static export (one input shape)."""
        if self.static is not None:
            return None
        in_h, in_w, new_h, new_w, top, left = self.fit(h, w)
        s, m = self.STRIDE, max(1, int(multiple))
        x1, y1, x2, y2 = region
        out = []
        for a, b, size, new, pad, side in ((y1, y2, h, new_h, top, in_h),
                                           (x1, x2, w, new_w, left, in_w)):
            a = int(np.floor((pad + a * new / size) / s)) * s
            b = int(np.ceil((pad + b * new / size) / s)) * s
            # a window reaching the frame's edge takes the grey border beyond
            # it too, as the whole input has it there
            a = 0 if a <= pad else a
            b = side if b >= pad + new else b
            b = max(b, a + s)
            n = (b - a) // s
            want = min(-(-n // m) * m, side // s)
            grow = want - n
            a -= grow // 2 * s
            b += (grow - grow // 2) * s
            if a < 0:
                a, b = 0, b - a
            if b > side:
                a, b = a - (b - side), side
            out += [max(a, 0), b]
        return out[0], out[1], out[2], out[3]

    def window_region(self, h: int, w: int, window: tuple[int, int, int, int]
                      ) -> tuple[float, float, float, float]:
        """The frame's pixels (x1, y1, x2, y2) a :meth:`window` of the input
        covers, within the frame."""
        _, _, new_h, new_w, top, left = self.fit(h, w)
        y1, y2, x1, x2 = window
        return (min(max((x1 - left) * w / new_w, 0.0), w),
                min(max((y1 - top) * h / new_h, 0.0), h),
                min(max((x2 - left) * w / new_w, 0.0), w),
                min(max((y2 - top) * h / new_h, 0.0), h))

    def __call__(
        self,
        frame: np.ndarray,
        conf: float,
        iou: float,
        max_det: int,
        agnostic: bool = False,
        window: tuple[int, int, int, int] | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Boxes (N, 4) xyxy in the frame's pixels, scores (N,), class ids (N,),
        best score first. With a ``window`` (:meth:`window`) the network runs on
        that part of the whole frame's input only, at its own shape (the same
        pixels per network pixel as the whole frame)."""
        h, w = frame.shape[:2]
        shape = self.input_shape(h, w)
        off_x = off_y = 0
        if window is None:
            _, request = self._request(shape)
            given = self._inputs[shape]
            _, (gain_x, gain_y, pad_x, pad_y) = self.letterbox(frame, given)
        else:
            y1, y2, x1, x2 = window
            shape = (y2 - y1, x2 - x1)
            _, request = self._request(shape)
            given = self._inputs[shape]
            gain_x, gain_y, pad_x, pad_y = self.letterbox_window(frame, window, given)
            off_x, off_y = x1, y1
        pred = self._infer(request, given)  # (4 + nc, A)
        if len(pred) == 5:  # one class: its score is every box's best
            score = pred[4]
            keep = np.flatnonzero(score > conf)
            score = score[keep]
            cls = np.zeros(len(keep), np.int64)
        else:
            scores = pred[4:]
            cls = scores.argmax(0)
            score = scores[cls, np.arange(scores.shape[1])]
            keep = np.flatnonzero(score > conf)
            score, cls = score[keep], cls[keep]
        x, y, half_w, half_h = pred[:4, keep]
        half_w, half_h = half_w / 2, half_h / 2
        boxes = np.stack([x - half_w, y - half_h, x + half_w, y + half_h], 1)
        kept = nms(boxes if agnostic else boxes + cls[:, None] * self.MAX_WH,
                   score, iou)[:max_det]
        boxes, score, cls = boxes[kept], score[kept], cls[kept]
        boxes -= np.array([pad_x - off_x, pad_y - off_y] * 2, np.float32)
        boxes /= np.array([gain_x, gain_y, gain_x, gain_y], np.float32)
        np.clip(boxes, 0, np.array([w, h, w, h], np.float32), out=boxes)
        return boxes, score.astype(np.float32), cls.astype(np.int32)


#: each compiled classifier's network and settings (openvino_classifier), from
#: which ClassifierRequest compiles it again at a fixed batch size
_SOURCES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def openvino_classifier(net, size: int, threads: int | None = None,  # noqa: ANN001, ANN202
                        precision: str = "f32"):
    """The crop classifier compiled by OpenVINO (about 5x faster than PyTorch for
    this small net), or ``None`` when OpenVINO cannot take it (the PyTorch net is
    used then). Like the finder it runs on OpenVINO's latency hint with ``threads``
    inference threads (``None``: :data:`THREADS`, ``detector.threads``; 0: every
    core for one request), at the inference ``precision``: ``"f32"`` (the PyTorch
    net's outputs) or ``"bf16"`` (on a CPU with bfloat16 instructions about a third
    less CPU a crop; the logits move by about 0.02)."""
    if precision not in ("f32", "bf16"):
        raise ValueError(f"precision must be 'f32' or 'bf16', got {precision!r}")
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
        config = {"PERFORMANCE_HINT": "LATENCY", "INFERENCE_PRECISION_HINT": precision}
        if threads is None:
            threads = THREADS
        if threads:
            config["INFERENCE_NUM_THREADS"] = int(threads)
        compiled = ov.Core().compile_model(model, "CPU", config)
        _SOURCES[compiled] = (model, config)
        return compiled
    except Exception:  # noqa: BLE001 - any failure: PyTorch still works
        return None


class ClassifierRequest:
    """Infer requests of a compiled crop classifier (:func:`openvino_classifier`)
    kept for every call: the crops are written as the network's input straight
    into an array the request reads (no input dispatch, no copy), and the
    logits read from its output. A batch of up to :attr:`BUFFERS` crops runs
    on the network compiled again at that batch size (a static shape, made
    the first time that size comes, about 50 ms: on this CPU 0.05-0.3 ms less
    a call than the dynamic batch, most of it the last layer's, the same
    logits bit for bit), with its input array and request kept; a larger
    batch, or a compiled model whose network is not known here, runs on the
    compiled model's own dynamic batch. The same logits as calling the
    compiled model (tested).

    Args:
        compiled: the compiled classifier (input (N, 3, S, S) float32 in
            [0, 1], output (N, classes) logits).
    """

    #: most crops a batch whose network, input array and request are kept
    BUFFERS = 16

    def __init__(self, compiled) -> None:  # noqa: ANN001
        self.compiled = compiled
        self.request = compiled.create_infer_request()  # the dynamic batch's
        self._source = _SOURCES.get(compiled)
        self._core = None
        # per batch size: (input array, its tensor, the request that reads it)
        self._runs: dict[int, tuple[np.ndarray, object, object]] = {}
        self._set: object = None  # the input tensor the dynamic request reads now

    def _run(self, shape: tuple[int, ...]) -> tuple[np.ndarray, object, object]:
        """The input array, its tensor and the request of a batch of ``shape``
        (N, C, S, S)."""
        import openvino as ov

        got = self._runs.get(shape[0])
        if got is not None and got[0].shape == shape:
            return got
        buffer = np.empty(shape, np.float32)
        tensor = ov.Tensor(buffer, shared_memory=True)
        request = self.request
        if self._source is not None and 0 < shape[0] <= self.BUFFERS:
            model, config = self._source
            try:
                model = model.clone()
                model.reshape({model.input(0): list(shape)})
                if self._core is None:
                    self._core = ov.Core()
                request = self._core.compile_model(model, "CPU", config) \
                    .create_infer_request()
                request.set_input_tensor(tensor)
            except Exception:  # noqa: BLE001 - the dynamic batch still works
                request = self.request
        got = (buffer, tensor, request)
        if shape[0] <= self.BUFFERS:
            self._runs[shape[0]] = got
        return got

    def __call__(self, crops: np.ndarray) -> np.ndarray:
        """(N, C) float32 logits of (N, S, S, 3) uint8 BGR crops (a new array)."""
        crops = np.asarray(crops)
        buffer, tensor, request = self._run(
            (len(crops), crops.shape[3], *crops.shape[1:3]))
        # crops_to_array's values, written into the request's input
        np.divide(crops.transpose(0, 3, 1, 2), 255, out=buffer, dtype=np.float32)
        if request is self.request and tensor is not self._set:
            request.set_input_tensor(tensor)
            self._set = tensor
        request.infer()
        return np.array(request.get_output_tensor(0).data, np.float32)


def export_names(path: Path) -> dict[int, str] | None:
    """Class names recorded in an exported model folder's metadata.yaml, if any."""
    meta = Path(path) / "metadata.yaml"
    if not meta.is_file():
        return None
    import yaml

    try:
        names = (yaml.safe_load(meta.read_text(encoding="utf-8")) or {}).get("names")
    except (OSError, yaml.YAMLError):
        return None
    if not isinstance(names, dict):
        return None
    return {int(k): str(v) for k, v in names.items()}

