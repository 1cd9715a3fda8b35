"""Make Ultralytics, torchvision and OpenVINO work offline on this CPU-only install.

Call :func:`setup` before the first ``import ultralytics`` (or ``torchvision``).
It is idempotent and does, in order:

1. environment: ``YOLO_OFFLINE=1`` (no DNS probes, analytics, sync or installs),
   ``YOLO_AUTOINSTALL=False``, ``YOLO_VERBOSE`` as asked, and ``YOLO_CONFIG_DIR``
   (default ``~/.cache/tableref/ultralytics``) so settings never land elsewhere;
2. fonts: copies matplotlib's ``DejaVuSans.ttf`` to
   ``$YOLO_CONFIG_DIR/Ultralytics/Arial.ttf`` (and ``Arial.Unicode.ttf``), since
   every training run's dataset check otherwise tries to download Arial;
3. OpenVINO telemetry: writes the opt-out consent file (what ``opt_in_out
   --opt_out`` writes) unless a choice is already recorded;
4. ``torchvision::nms``: the registry's torchvision binary is built against CUDA
   libraries that the CPU torch lacks, so its ``_C`` extension fails to load and
   ``import torchvision`` dies on its meta registrations. When (and only when) the
   extension cannot load, :func:`nms` below is registered as ``torchvision::nms``
   (and ``qnms``) with plain torch before torchvision is imported.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path

import numpy as np

_DONE = False
FONT_NAMES = ("Arial.ttf", "Arial.Unicode.ttf")


def config_dir() -> Path:
    """The Ultralytics settings folder this project uses."""
    default = Path.home() / ".cache" / "tableref" / "ultralytics"
    return Path(os.environ.get("YOLO_CONFIG_DIR", str(default)))


def _font_source() -> Path | None:
    try:
        import matplotlib

        path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
        if path.exists():
            return path
    except ImportError:  # pragma: no cover
        pass
    system = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    return system if system.exists() else None


def _place_fonts(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    source = _font_source()
    for name in FONT_NAMES:
        target = folder / name
        if not target.exists() and source is not None:
            shutil.copyfile(source, target)


def _openvino_opt_out() -> None:
    consent = Path.home() / "intel" / "openvino_telemetry"
    try:
        if consent.is_file() and consent.read_text().strip() in ("0", "1"):
            return
        consent.parent.mkdir(parents=True, exist_ok=True)
        consent.write_text("0")
    except OSError:  # a read-only home: telemetry then cannot record consent either
        pass


def nms(boxes, scores, iou_threshold: float):  # torch tensors in and out
    """Greedy non-maximum suppression with torchvision's semantics, in torch/numpy.

    Boxes are (N, 4) ``x1, y1, x2, y2``; a box is dropped when its IoU with a
    higher-scoring kept box is strictly greater than ``iou_threshold``. Returns the
    kept indices (int64) in decreasing score order.
    """
    import torch

    n = int(boxes.shape[0])
    if n == 0:
        return torch.empty(0, dtype=torch.long, device=boxes.device)
    order = torch.argsort(scores.detach().float(), descending=True, stable=True)
    b = boxes.detach()[order].double().cpu()
    area = (b[:, 2] - b[:, 0]).clamp(min=0) * (b[:, 3] - b[:, 1]).clamp(min=0)
    keep = (
        _greedy_rows(b.numpy(), area.numpy(), iou_threshold)
        if n > 4096
        else _greedy_blocks(b, area, iou_threshold)
    )
    return order[torch.as_tensor(keep, dtype=torch.long)].to(boxes.device)


def nms_numpy(
    boxes: np.ndarray, scores: np.ndarray, iou_threshold: float
) -> np.ndarray:
    """:func:`nms` on NumPy arrays (the runtime's OpenVINO finder has no torch
    tensors): the kept indices (int64), best score first."""
    if not len(boxes):
        return np.empty(0, np.int64)
    order = np.argsort(-np.asarray(scores, np.float32), kind="stable")
    b = np.asarray(boxes, np.float64)[order]
    area = np.clip(b[:, 2] - b[:, 0], 0, None) * np.clip(b[:, 3] - b[:, 1], 0, None)
    return order[np.asarray(_greedy_rows(b, area, iou_threshold), np.int64)]


def _greedy_blocks(b, area, thr: float) -> list[int]:
    """Greedy pass over a precomputed IoU matrix, 2048 rows at a time (n <= 4096)."""
    import torch

    n = len(b)
    alive = np.ones(n, dtype=bool)
    keep = []
    for start in range(0, n, 2048):
        stop = min(n, start + 2048)
        lt = torch.maximum(b[start:stop, None, :2], b[None, :, :2])
        rb = torch.minimum(b[start:stop, None, 2:], b[None, :, 2:])
        inter = (rb - lt).clamp(min=0).prod(dim=2)
        union = area[start:stop, None] + area[None, :] - inter
        iou = torch.where(union > 0, inter / union.clamp(min=1e-300), torch.zeros(()))
        over = (iou > thr).numpy()
        for i in range(start, stop):
            if alive[i]:
                keep.append(i)
                row = over[i - start]
                row[: i + 1] = False
                alive &= ~row
    return keep


def _greedy_rows(b: np.ndarray, area: np.ndarray, thr: float) -> list[int]:
    """Greedy pass computing IoU rows only for kept boxes (memory O(n))."""
    n = len(b)
    alive = np.ones(n, dtype=bool)
    keep = []
    for i in range(n):
        if not alive[i]:
            continue
        keep.append(i)
        rest = slice(i + 1, n)
        iw = np.clip(
            np.minimum(b[i, 2], b[rest, 2]) - np.maximum(b[i, 0], b[rest, 0]), 0, None
        )
        ih = np.clip(
            np.minimum(b[i, 3], b[rest, 3]) - np.maximum(b[i, 1], b[rest, 1]), 0, None
        )
        inter = iw * ih
        union = area[i] + area[rest] - inter
        iou = np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)
        alive[rest] &= ~(iou > thr)
    return keep


def _torchvision_ops_load() -> bool:
    """Try to load torchvision's C++ ops without importing torchvision."""
    import torch

    if hasattr(torch.ops.torchvision, "nms"):
        return True
    spec = importlib.util.find_spec("torchvision")
    if spec is None or not spec.submodule_search_locations:
        return False
    for folder in spec.submodule_search_locations:
        for lib in Path(folder).glob("_C*.so"):
            try:
                torch.ops.load_library(str(lib))
                return hasattr(torch.ops.torchvision, "nms")
            except (OSError, RuntimeError):
                return False
    return False


_LIBRARY = None  # keeps the torch.library.Library alive


def register_nms_compat() -> bool:
    """Register :func:`nms` as ``torchvision::nms`` if torchvision's ops cannot load.

    Returns:
        True if the compat operator was registered by this call or an earlier one.
    """
    global _LIBRARY
    if _LIBRARY is not None:
        return True
    if "torchvision" in sys.modules or _torchvision_ops_load():
        return False
    import torch

    lib = torch.library.Library("torchvision", "DEF")
    for name in ("nms", "qnms"):
        lib.define(f"{name}(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
        lib.impl(name, nms, "CompositeExplicitAutograd")
    _LIBRARY = lib
    import torchvision.ops.boxes as tv_boxes

    # torchvision.ops.nms refuses to run when the C++ extension failed to load;
    # nms is the one op that now exists, so only boxes.py's check is relaxed.
    tv_boxes._assert_has_ops = _nms_available
    return True


def _nms_available() -> None:
    """Stand-in for torchvision's ``_assert_has_ops`` in ``torchvision.ops.boxes``."""
    import torch

    if not hasattr(torch.ops.torchvision, "nms"):  # pragma: no cover
        raise RuntimeError("torchvision::nms is not registered")


def setup(verbose: bool = False, torch_threads: int | None = None) -> None:
    """Prepare the offline environment; call before importing ultralytics.

    Args:
        verbose: let Ultralytics print its usual logs.
        torch_threads: if given, set ``torch.set_num_threads`` (2 for PyTorch
            training/inference here, 1 next to OpenVINO).
    """
    global _DONE
    if torch_threads is not None:
        import torch

        torch.set_num_threads(int(torch_threads))
    if _DONE:
        return
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "False"
    os.environ.setdefault("YOLO_VERBOSE", "True" if verbose else "False")
    os.environ.setdefault("YOLO_CONFIG_DIR", str(config_dir()))
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    _place_fonts(config_dir() / "Ultralytics")
    _place_fonts(config_dir())
    _openvino_opt_out()
    register_nms_compat()
    _DONE = True
