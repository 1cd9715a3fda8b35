"""``benchmarks/export_int8.py``: what the INT8 finder is calibrated on and
which of its operations stay float (NNCF itself is not needed here)."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
ov = pytest.importorskip("openvino")

from benchmarks.export_int8 import box_ops, head_ops, head_scope, video_inputs  # noqa: E402
from vision import detector as detector_module  # noqa: E402

FLOAT = detector_module.MODEL_DIR / detector_module.OPENVINO_NAME
needs_float = pytest.mark.skipif(
    not (FLOAT / "metadata.yaml").exists(), reason=f"{FLOAT} is absent")


@needs_float
def test_the_head_s_box_decoding_is_left_float() -> None:
    """The ops NNCF leaves alone: the detection head's decoding (its
    distribution-focal convolution and softmax, the sigmoid), not the head's
    convolution branches nor the backbone."""
    model = ov.Core().read_model(str(next(FLOAT.glob("*.xml"))))
    names = head_scope(model)
    kinds = {op.get_friendly_name(): op.get_type_name() for op in model.get_ordered_ops()}
    chosen = [kinds[n] for n in names]
    assert chosen.count("Sigmoid") == 1 and "Softmax" in chosen
    convs = [n for n in names if kinds[n] == "Convolution"]
    assert len(convs) == 1 and ".dfl." in convs[0]
    assert not any(".cv2." in n or ".cv3." in n or ".model.0." in n for n in names)


@needs_float
def test_float_head_leaves_the_whole_detection_head_float() -> None:
    """``--float-head``: every convolution of the head's box and class
    branches and its decoding, none of the backbone's or the neck's."""
    model = ov.Core().read_model(str(next(FLOAT.glob("*.xml"))))
    names = set(head_ops(model))
    assert set(head_scope(model)) <= names
    convs = [op.get_friendly_name() for op in model.get_ordered_ops()
             if op.get_type_name() == "Convolution"]
    head = [n for n in convs if n.startswith("__module.model.23.")]
    assert head and all(n in names for n in head)
    assert any(".cv2." in n for n in head) and any(".cv3." in n for n in head)
    assert not any(n in names for n in convs if n not in head)


@needs_float
def test_float_box_leaves_the_last_convolutions_of_each_box_branch_float() -> None:
    """``--float-box N``: the last N convolutions of each of the head's box
    branches (one per scale), none of its class branches', the backbone's or
    the neck's; 0: none."""
    model = ov.Core().read_model(str(next(FLOAT.glob("*.xml"))))
    convs = [op.get_friendly_name() for op in model.get_ordered_ops()
             if op.get_type_name() == "Convolution"]
    assert box_ops(model, 0) == []
    one = box_ops(model, 1)
    assert sorted(one) == sorted(n for n in convs if n.startswith("__module.model.23.cv2.")
                                 and n.split("/")[0].endswith(".2"))
    assert len(one) == 3  # one a scale: the 1x1 giving the box edges' distributions
    three = box_ops(model, 3)
    assert set(one) < set(three) and len(three) == 9
    assert all(".cv2." in n for n in three)
    assert not set(three) & set(head_scope(model))


@needs_float
def test_video_frames_are_calibrated_on_as_the_live_pipeline_sees_them(tmp_path) -> None:
    """Every ``step``-th frame of a rendered video, scaled to the working width
    and letterboxed exactly as the runtime letterboxes it."""
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 15, (800, 600))
    rng = np.random.default_rng(3)
    frames = [rng.integers(0, 255, (600, 800, 3), dtype=np.uint8) for _ in range(12)]
    for frame in frames:
        writer.write(frame)
    writer.release()
    cap = cv2.VideoCapture(str(path))
    decoded = []
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        decoded.append(frame)
    assert len(decoded) == 12
    finder = detector_module.OpenVinoFinder(FLOAT, detector_module.IMGSZ, threads=1)
    got = video_inputs(path, 8, finder)
    assert len(got) == 2  # frames 1 and 9: every 8th, from the first
    want = finder.letterbox(cv2.resize(decoded[9], (640, 480), interpolation=cv2.INTER_AREA))
    assert got[1].shape == (1, 3, detector_module.IMGSZ, detector_module.IMGSZ)
    np.testing.assert_array_equal(got[1], want[0])
    with pytest.raises(SystemExit, match="no frames"):
        video_inputs(tmp_path / "missing.avi", 8, finder)
