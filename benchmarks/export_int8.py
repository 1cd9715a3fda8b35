"""Make the INT8 OpenVINO export of the card finder for the live video frames.

``models/uno-yolo11n-int8_openvino_model`` (``detector.live_finder`` 'int8')
reads the live pipeline's video frames outside the round-end scan; the scan,
its close-ups and still photos keep the float finder.

NNCF's post-training quantisation (mixed preset: symmetric weights per channel,
asymmetric activations) of the finder's float OpenVINO export (``--float``; by
default made first from ``--weights``, the shipped ``.pt``, as Ultralytics exports
it: dynamic input, float32, the shipped export's bytes), the same weights,
calibrated at the working size (1x3xIMGSZxIMGSZ) and saved with the float
export's input shape (a dynamic export stays dynamic). The detection head's box
decoding (its distribution-focal softmax, the anchors' arithmetic and the
sigmoid) stays float, as Ultralytics' own INT8 export leaves it; with
``--float-box N`` the last N convolutions of each of the head's three box
branches stay float too. The last one (``--float-box 1``, the 1x1 convolution
that gives the distributions of the box's edges; about 0.1 ms of the finder's
CPU a frame) quantised boxes a card lying on the pile a few mm larger than the
float finder does, an edge of the card below or of the fingers on it taken in:
such a box measures as a card held up (over ``play.let_go_scale``, sticking
out of the pile's extent) or as a loose one (over ``play.max_scale``), and its
play waits for the hand to leave or for ``play.loose_s``.

Calibration: ``--count`` rendered table scenes (``datasets.scenes.compose_scene``,
the finder's own training scenes, some with the table's markers, cards near the
camera or laid in rows), squeezed into a 640x480 frame as a webcam's, and every
``--video-step``-th frame of each ``--video`` (rendered games of the camera
pipeline, scaled to 640 wide as the pipeline scales them), each letterboxed
exactly as :class:`vision.openvino_runtime.OpenVinoFinder` feeds the network; no
real photo. Everything is drawn from ``--seed`` (the scenes, and the global
generators NNCF draws from): the same seed gives the same bytes. The shipped
export was made from the shipped float export, calibrated on four rendered
tuning games of another list than the ones it was judged on (NNCF 3.4.0,
OpenVINO 2026.4; about 1 minute of CPU; two runs byte-identical; 3.3 MB
against the float export's 11 MB):

    # NNCF is for this export only, not a dependency of the runtime
    PYTHONPATH=<a folder with nncf==3.4.0> .venv/bin/python -m benchmarks.export_int8 \\
        --out /tmp/int8 --float models/uno-yolo11n_openvino_model --float-box 1 \\
        --video /tmp/tableref-real-s259-15fps/demo-table.mp4 \\
        --video /tmp/tableref-real-s260-15fps/demo-table.mp4 \\
        --video /tmp/tableref-real-s262-15fps/demo-table.mp4 \\
        --video /tmp/tableref-real-s263-15fps/demo-table.mp4
    .venv/bin/python -m benchmarks.bench_detector --runs 100 --backend openvino \\
        --video /tmp/tableref-real-s2-15fps/demo-table.mp4 --frames 900 \\
        --crop-margin 96 --live-finder /tmp/int8/uno-yolo11n-int8_openvino_model

(``benchmarks.eval_handsfree.game_folder(seed, 15)`` renders a missing game.)
``--preset performance``, ``--full-bias-correction``, ``--float-head`` (the
whole head float) and ``--float-box 3`` (each box branch float: about 0.6 ms
more) were tried too; ``models/MODEL_CARD.md`` gives the measurements.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from pathlib import Path

OUT_NAME = "uno-yolo11n-int8_openvino_model"


def calibration_inputs(count: int, seed: int, finder) -> list:  # noqa: ANN001
    """``count`` (1, 3, S, S) float32 network inputs of rendered 640x480 table
    frames, letterboxed by ``finder`` (an ``OpenVinoFinder``)."""
    import cv2
    import numpy as np

    from datasets.scenes import compose_scene

    rng = np.random.default_rng([seed, 8])
    out = []
    for _ in range(count):
        scene = compose_scene(rng, 640, empty_fraction=0.05, marker_fraction=0.3,
                              near_fraction=0.1, laid_fraction=0.1)
        frame = cv2.resize(scene.image, (640, 480), interpolation=cv2.INTER_AREA)
        x, _ = finder.letterbox(frame)
        out.append(x.copy())
    return out


def video_inputs(path: Path, step: int, finder, width: int = 640) -> list:  # noqa: ANN001
    """Network inputs of every ``step``-th frame of a video (from its
    ``step // 8``-th), scaled to ``width`` as the live pipeline scales them and
    letterboxed by ``finder``."""
    import cv2

    cap = cv2.VideoCapture(str(path))
    out, k = [], 0
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        if k % step == step // 8:
            if frame.shape[1] > width:
                height = int(round(frame.shape[0] * width / frame.shape[1]))
                frame = cv2.resize(frame, (width, height), interpolation=cv2.INTER_AREA)
            out.append(finder.letterbox(frame)[0].copy())
        k += 1
    cap.release()
    if not out:
        raise SystemExit(f"export_int8: no frames read from {path}")
    return out


def head_scope(model) -> list[str]:  # noqa: ANN001
    """Names of the operations NNCF leaves float: the detection head's box
    decoding (every operation of the last module not inside one of its
    convolution branches) and the sigmoid."""
    ops = model.get_ordered_ops()
    sigmoids = [op.get_friendly_name() for op in ops if op.get_type_name() == "Sigmoid"]
    if not sigmoids:
        raise ValueError("no sigmoid: not a YOLO detection export")
    head = sigmoids[-1].split("/", 1)[0]
    return [
        op.get_friendly_name()
        for op in ops
        if op.get_type_name() == "Sigmoid"
        or op.get_friendly_name().startswith((f"{head}/", f"{head}.dfl"))
    ]


def head_ops(model) -> list[str]:  # noqa: ANN001
    """Names of every operation of the detection head (the last module: its
    box and class convolution branches too), for ``--float-head``."""
    ops = model.get_ordered_ops()
    sigmoids = [op.get_friendly_name() for op in ops if op.get_type_name() == "Sigmoid"]
    if not sigmoids:
        raise ValueError("no sigmoid: not a YOLO detection export")
    head = sigmoids[-1].split("/", 1)[0]
    return [op.get_friendly_name() for op in ops
            if op.get_friendly_name().startswith((f"{head}/", f"{head}.", head + "_"))
            or op.get_type_name() == "Sigmoid"]


def box_ops(model, last: int) -> list[str]:  # noqa: ANN001
    """Names of the last ``last`` convolutions of each of the detection head's
    box branches (``cv2.<scale>.<k>``, the one that gives the box's edge
    distributions last), for ``--float-box``: the box edges come out of them,
    and a quantised one moves an edge of a still card by a pixel from frame
    to frame."""
    ops = model.get_ordered_ops()
    sigmoids = [op.get_friendly_name() for op in ops if op.get_type_name() == "Sigmoid"]
    if not sigmoids:
        raise ValueError("no sigmoid: not a YOLO detection export")
    head = sigmoids[-1].split("/", 1)[0]
    branches: dict[str, list[str]] = {}
    for op in ops:
        name = op.get_friendly_name()
        if op.get_type_name() != "Convolution" or not name.startswith(f"{head}.cv2."):
            continue
        scale = name[len(f"{head}.cv2."):].split(".", 1)[0]
        branches.setdefault(scale, []).append(name)
    if not branches:
        raise ValueError("no box branch (cv2) in the detection head")
    return [name for convs in branches.values() for name in convs[-last:]] if last > 0 else []


def float_export(weights: Path | None, out: Path) -> Path:
    """The finder's float OpenVINO export, as the runtime's was made: Ultralytics'
    export of ``weights`` (default the shipped ``.pt``) at the working size with
    a dynamic input, float32, into ``out``."""
    from vision.detector import IMGSZ, MODEL_DIR, PT_NAME
    from vision.ultralytics_setup import setup

    out.mkdir(parents=True, exist_ok=True)
    copy = out / PT_NAME
    shutil.copyfile(weights or MODEL_DIR / PT_NAME, copy)
    setup()
    from ultralytics import YOLO

    return Path(YOLO(str(copy)).export(format="openvino", imgsz=IMGSZ, half=False,
                                       dynamic=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True,
                        help=f"folder that gets {OUT_NAME}/")
    parser.add_argument("--float", dest="float_dir", type=Path, default=None,
                        help="a float OpenVINO export to quantise (default: export "
                        "--weights first, into OUT)")
    parser.add_argument("--weights", type=Path, default=None,
                        help="the finder's weights (default: the shipped .pt)")
    parser.add_argument("--count", type=int, default=200,
                        help="rendered scenes calibrated on")
    parser.add_argument("--video", type=Path, action="append", default=[],
                        help="also calibrate on frames of this rendered video "
                        "(repeatable; never a real photo)")
    parser.add_argument("--video-step", type=int, default=40,
                        help="every this many frames of each --video")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--full-bias-correction", action="store_true",
                        help="NNCF's full bias correction (slower, more exact) "
                        "instead of its fast one")
    parser.add_argument("--float-head", action="store_true",
                        help="leave the whole detection head float (its box and "
                        "class convolutions too), not only its box decoding")
    parser.add_argument("--float-box", type=int, default=0, metavar="N",
                        help="also leave the last N convolutions of each of the "
                        "head's box branches float (0: none)")
    parser.add_argument("--preset", choices=("mixed", "performance"), default="mixed",
                        help="NNCF's preset: mixed (asymmetric activations) or "
                        "performance (symmetric activations)")
    args = parser.parse_args(argv)
    try:
        import nncf
    except ImportError:
        print("export_int8: needs NNCF: .venv/bin/pip install nncf==3.4.0",
              file=sys.stderr)
        return 2
    import numpy as np
    import openvino as ov

    from vision.detector import IMGSZ
    from vision.openvino_runtime import OpenVinoFinder

    source = args.float_dir or float_export(args.weights, args.out)
    finder = OpenVinoFinder(source, IMGSZ, threads=1)
    inputs = calibration_inputs(args.count, args.seed, finder)
    for video in args.video:
        inputs += video_inputs(video, args.video_step, finder)
    (xml,) = sorted(Path(source).glob("*.xml"))
    model = ov.Core().read_model(str(xml))
    model.reshape({model.input(0): [1, 3, IMGSZ, IMGSZ]})
    random.seed(args.seed)
    np.random.seed(args.seed)
    quantised = nncf.quantize(
        model,
        nncf.Dataset(inputs),
        preset=(nncf.QuantizationPreset.MIXED if args.preset == "mixed"
                else nncf.QuantizationPreset.PERFORMANCE),
        subset_size=len(inputs),
        fast_bias_correction=not args.full_bias_correction,
        ignored_scope=nncf.IgnoredScope(
            names=head_ops(model) if args.float_head
            else head_scope(model) + box_ops(model, args.float_box)),
    )
    # saved with the float export's input shape: a dynamic export stays one
    # (the runtime compiles it for 1x3xIMGSZxIMGSZ, or each frame's shape with rect)
    quantised.reshape({quantised.input(0): ov.Core().read_model(str(xml))
                       .input(0).get_partial_shape()})
    out = args.out / OUT_NAME
    out.mkdir(parents=True, exist_ok=True)
    ov.save_model(quantised, str(out / xml.name), compress_to_fp16=False)
    shutil.copyfile(Path(source) / "metadata.yaml", out / "metadata.yaml")
    print(f"INT8 export: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
