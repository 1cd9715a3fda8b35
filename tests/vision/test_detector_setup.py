"""Offline Ultralytics setup: the nms compat operator and no network attempts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.ultralytics_setup import nms, nms_numpy, setup  # noqa: E402



def reference_nms(
    boxes: list[list[float]], scores: list[float], thr: float
) -> list[int]:
    """Textbook greedy NMS in plain Python (drop when IoU > thr)."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    keep: list[int] = []

    def iou(a: list[float], b: list[float]) -> float:
        iw = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
        ih = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
        inter = iw * ih
        union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
        return inter / union if union > 0 else 0.0

    for i in order:
        if all(iou(boxes[i], boxes[k]) <= thr for k in keep):
            keep.append(i)
    return keep


@pytest.mark.parametrize(
    "n,thr", [(0, 0.5), (1, 0.5), (50, 0.3), (400, 0.5), (400, 0.7)]
)
def test_nms_matches_reference(n: int, thr: float) -> None:
    gen = torch.Generator().manual_seed(n)
    xy = torch.rand(n, 2, generator=gen) * 200
    wh = torch.rand(n, 2, generator=gen) * 50 + 1
    boxes = torch.cat([xy, xy + wh], 1)
    scores = torch.rand(n, generator=gen)
    got = nms(boxes, scores, thr).tolist()
    assert got == reference_nms(boxes.tolist(), scores.tolist(), thr)


@pytest.mark.parametrize("n,thr", [(0, 0.5), (1, 0.5), (50, 0.3), (400, 0.7)])
def test_numpy_nms_matches_reference_and_torch(n: int, thr: float) -> None:
    gen = torch.Generator().manual_seed(n + 1)
    xy = torch.rand(n, 2, generator=gen) * 200
    wh = torch.rand(n, 2, generator=gen) * 50 + 1
    boxes = torch.cat([xy, xy + wh], 1)
    scores = torch.rand(n, generator=gen)
    got = nms_numpy(boxes.numpy(), scores.numpy(), thr)
    assert got.dtype == np.int64
    assert got.tolist() == reference_nms(boxes.tolist(), scores.tolist(), thr)
    assert got.tolist() == nms(boxes, scores, thr).tolist()


def test_nms_edge_cases() -> None:
    boxes = torch.tensor(
        [[0, 0, 10, 10], [0, 0, 10, 10], [20, 20, 30, 30], [5, 5, 5, 5.0]]
    )
    scores = torch.tensor([0.5, 0.9, 0.1, 0.3])
    # The duplicate with the lower score goes; the zero-area box stays.
    assert nms(boxes, scores, 0.5).tolist() == [1, 3, 2]
    # IoU exactly at the threshold is kept (torchvision drops only IoU > threshold).
    half = torch.tensor([[0, 0, 10, 10], [0, 0, 10, 5.0]])
    assert nms(half, torch.tensor([0.9, 0.8]), 0.5).tolist() == [0, 1]
    assert nms_numpy(boxes.numpy(), scores.numpy(), 0.5).tolist() == [1, 3, 2]
    assert nms_numpy(half.numpy(), np.array([0.9, 0.8]), 0.5).tolist() == [0, 1]


def test_torchvision_nms_works_after_setup_and_matches_ultralytics() -> None:
    setup()
    import torchvision
    from ultralytics.utils.nms import TorchNMS

    gen = torch.Generator().manual_seed(1)
    xy = torch.rand(800, 2, generator=gen) * 300
    boxes = torch.cat([xy, xy + torch.rand(800, 2, generator=gen) * 60 + 2], 1)
    scores = torch.rand(800, generator=gen)
    ours = torchvision.ops.nms(boxes, scores, 0.45)
    assert torch.equal(ours, TorchNMS.nms(boxes, scores, 0.45))
    # Over 4096 boxes the compat op takes its row-by-row path: same answer.
    xy = torch.rand(6000, 2, generator=gen) * 3000
    big = torch.cat([xy, xy + torch.rand(6000, 2, generator=gen) * 80 + 2], 1)
    big_scores = torch.rand(6000, generator=gen)
    assert torch.equal(
        torchvision.ops.nms(big, big_scores, 0.5), TorchNMS.nms(big, big_scores, 0.5)
    )
    batched = torchvision.ops.batched_nms(boxes, scores, torch.arange(800) % 3, 0.45)
    assert len(batched) >= len(ours)


PROBE = r"""
import json, os, socket, sys
attempts = []
def refuse(*args, **kwargs):
    attempts.append(repr(args[:2]))
    raise OSError("network disabled by test")
socket.socket.connect = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
from vision.ultralytics_setup import setup
setup()
import torchvision
from ultralytics import YOLO
from ultralytics.utils.checks import check_font
font = check_font("Arial.ttf")
model = YOLO("yolo11n.yaml")
print(json.dumps({"attempts": attempts, "font": str(font),
                  "env": {k: os.environ.get(k) for k in
                          ("YOLO_OFFLINE", "YOLO_AUTOINSTALL", "YOLO_CONFIG_DIR")}}))
"""


def test_setup_makes_no_network_attempt(tmp_path) -> None:
    env = dict(os.environ, HOME=str(tmp_path), YOLO_CONFIG_DIR=str(tmp_path / "yolo"))
    env.pop("YOLO_OFFLINE", None)
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["attempts"] == []
    assert report["env"]["YOLO_OFFLINE"] == "1"
    assert report["env"]["YOLO_AUTOINSTALL"] == "False"
    assert Path(report["font"]).exists()
    assert (tmp_path / "yolo" / "Ultralytics" / "Arial.ttf").stat().st_size > 100_000
    assert (tmp_path / "intel" / "openvino_telemetry").read_text() == "0"


def test_the_live_pipelines_detector_sets_opencvs_threads(monkeypatch) -> None:
    """Loading the live pipeline's detector puts OpenCV on one thread
    (``CV_THREADS``); ``use_cv_threads(0)`` gives OpenCV its default back."""
    import cv2

    import vision.detector
    from vision.config import DetectorConfig
    from vision.pipeline_parts import CV_THREADS, load_default_detector, use_cv_threads

    monkeypatch.setattr(vision.detector, "Detector", lambda **kw: "finder")
    before = cv2.getNumThreads()
    try:
        cv2.setNumThreads(-1)
        default = cv2.getNumThreads()
        cv2.setNumThreads(3)
        assert CV_THREADS == 1
        assert load_default_detector() == "finder"
        assert cv2.getNumThreads() == 1
        cv2.setNumThreads(3)
        assert load_default_detector(DetectorConfig(views=1)) == "finder"
        assert cv2.getNumThreads() == 1
        use_cv_threads(0)
        assert cv2.getNumThreads() == default
    finally:
        cv2.setNumThreads(before)
