"""CPU milliseconds per frame of the runtime card detector, split into the
finder, the classifier and the rest (goal: <= 10 ms a frame at the working
size, 256).

    .venv/bin/python -m benchmarks.bench_detector [--runs 200] [--model FOLDER]
        [--video FILE [--frames N]] [--backend openvino|pytorch|all]

Times ``Detector.detect`` on one 640x480 synthetic table frame with cards on it,
batch 1, after a warm-up, for the shipped OpenVINO export (or ``--model``, e.g.
an INT8 export from ``python -m benchmarks.export_int8``) and the PyTorch weights
(torch at 2 threads), each backend in its own process so that thread settings do
not leak between them. Two lines a backend:

- ``cards new``: every card of the frame read by the classifier (its kept reads
  dropped before each frame): a frame where every card just moved;
- ``cards still``: the same frame again with the reads kept, as a live table
  whose cards lie still (the same pixels: the finder's boxes are kept too, and
  the classifier's reads).

``--video FILE`` adds a third line: the first ``--frames`` frames of a video
(scaled to the working width, 640, as the live pipeline does), in order, with
the reads kept as the live pipeline keeps them, e.g. a rendered tuning game:
``--video /tmp/tableref-real-s2-15fps/demo-table.mp4``: every frame goes to
the detector (which keeps the finder's boxes on a frame that did not change,
``detector.finder_still_level``, and with ``detector.finder_crop_margin`` set,
or ``--crop-margin PX``, searches only a crop around what changed where that is
small, ``detector.finder_crop_*``). A fourth line, ``video gated``, puts the live
pipeline's motion gate in front (``detector.gate_*``: a frame that hardly
differs from the one the detector last read, under ``gate_refresh_s`` later at
the video's frame rate, gets that read again): the CPU a video frame the live
pipeline spends on its cards, the gate's thumbnails included.

Each line gives the CPU time a frame (``time.process_time``: every thread of
the process; on a machine shared with other work the steadier figure; with one
inference thread, the default, the wall time on an idle machine is about the
same) split into: ``finder``, the finder network's inferences; ``classifier``,
the crop classifier's inferences (with its crops' conversion into the
network's input, written straight into it); ``other``, the rest (letterbox, box decoding
and NMS, crops, the kept reads' checks, softmax); then the wall-clock median
and 90th percentile, the cards returned, the crops classified and the finder's
runs a frame (1: every frame searched; the detector calls of the gated line)
and how many frames kept the finder's boxes, searched a crop, searched the whole
frame, with the input shapes compiled and their compile time (in ``other``). The
goal is read from the ``cards new`` line's CPU total. The classifier's batch
sizes are compiled before timing (:func:`warm_classifier`). ``--threads N`` runs
OpenVINO on N inference threads (0: its latency hint, every core for one
frame); OpenCV runs on the live pipeline's threads (``CV_THREADS``, one).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

GOAL_MS = 10.0


def frame_640x480():
    """A 640x480 BGR table frame with a few cards (deterministic)."""
    import cv2
    import numpy as np

    from datasets.scenes import compose_scene

    scene = compose_scene(np.random.default_rng([2024, 3]), 640, empty_fraction=0.0)
    return cv2.resize(scene.image, (640, 480))


def video_fps(path: Path) -> float:
    """A video's frame rate (15 when the file does not say)."""
    import cv2

    cap = cv2.VideoCapture(str(path))
    fps = cap.get(cv2.CAP_PROP_FPS)
    cap.release()
    return float(fps) if fps and fps > 0 else 15.0


def video_frames(path: Path, count: int, width: int = 640) -> list:
    """The first ``count`` frames of a video, scaled down to ``width`` as the
    live pipeline does."""
    import cv2

    cap = cv2.VideoCapture(str(path))
    frames = []
    while len(frames) < count:
        ok, frame = cap.read()
        if not ok:
            break
        if frame.shape[1] > width:
            height = int(round(frame.shape[0] * width / frame.shape[1]))
            frame = cv2.resize(frame, (width, height), interpolation=cv2.INTER_AREA)
        frames.append(frame)
    cap.release()
    if not frames:
        raise SystemExit(f"no frames read from {path}")
    return frames


class StageClock:
    """CPU seconds spent in the finder's and the classifier's inferences, and
    the crops classified, accumulated over the frames timed."""

    def __init__(self, detector) -> None:  # noqa: ANN001
        self.cpu = {"finder": 0.0, "classifier": 0.0}
        self.crops = 0
        self.compile_s = 0.0  # CPU compiling the finder at a new input shape
        self.detector = detector
        self.counts = self._counts()
        if detector.backend == "openvino":
            finder = detector.model
            real_request = finder._request

            def request(shape):  # noqa: ANN001, ANN202
                new = shape not in finder._compiled
                t0 = time.process_time()
                compiled, req = real_request(shape)
                if new:
                    self.compile_s += time.process_time() - t0
                return compiled, _Timed(req, self, "finder")

            finder._request = request
        else:
            detector.model.predict = self.timed(detector.model.predict, "finder")
        if detector._classifier_ov is not None:
            run = detector._classifier_request()
            detector._classifier_run = _TimedRun(
                run, self.timed(run, "classifier", count=True))
        elif detector.classifier is not None:
            detector.classifier = self.timed(detector.classifier, "classifier",
                                             count=True)

    def timed(self, fn, stage: str, count: bool = False):  # noqa: ANN001, ANN202
        def call(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            if count:
                self.crops += len(args[0])
            t0 = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.cpu[stage] += time.process_time() - t0

        return call

    def _counts(self) -> dict:
        d = self.detector
        return {"kept": d.finder_kept, "cropped": d.finder_cropped,
                "whole": d.finder_whole, "fallbacks": d.finder_crop_fallbacks}

    def searches(self) -> dict:
        """The finder's frames since :meth:`reset`: boxes kept, a crop
        searched, the whole frame searched (fallbacks: of those, after a crop
        that cut a card)."""
        now = self._counts()
        return {k: now[k] - self.counts[k] for k in now}

    def reset(self) -> None:
        self.cpu = dict.fromkeys(self.cpu, 0.0)
        self.crops = 0
        self.compile_s = 0.0
        self.counts = self._counts()


class _TimedRun:
    """The detector's kept classifier request (``ClassifierRequest``), each
    call timed: the crops' conversion into its input and the inference."""

    def __init__(self, run, timed) -> None:  # noqa: ANN001
        self._run, self._timed = run, timed
        self.compiled = run.compiled

    def __call__(self, crops):  # noqa: ANN001, ANN204
        return self._timed(crops)


class _Timed:
    """An OpenVINO infer request whose ``infer`` is timed."""

    def __init__(self, request, clock: StageClock, stage: str) -> None:  # noqa: ANN001
        self._request = request
        self.infer = clock.timed(request.infer, stage)

    def __getattr__(self, name: str):  # noqa: ANN204
        return getattr(self._request, name)


def time_frames(detector, clock: StageClock, frames: list, runs: int,  # noqa: ANN001
                forget: bool) -> dict:
    """Time ``runs`` calls of ``detect`` cycling over ``frames``: CPU ms a frame
    in all and by stage, wall-clock median and p90, cards and crops a frame."""
    clock.reset()
    wall, cpu, cards = [], 0.0, 0
    for k in range(runs):
        frame = frames[k % len(frames)]
        if forget:
            detector.forget()  # every card new: no classifier read kept
        t0, c0 = time.perf_counter(), time.process_time()
        cards += len(detector.detect(frame))
        cpu += time.process_time() - c0
        wall.append((time.perf_counter() - t0) * 1000)
    return _summary(clock, cpu, wall, cards, runs)


def time_gated(detector, clock: StageClock, frames: list, fps: float) -> dict:  # noqa: ANN001
    """:func:`time_frames` over a video's frames in order with the live
    pipeline's motion gate in front of the detector (as
    ``vision.pipeline.TablePipeline`` gates it): a frame whose grey thumbnail
    (``detector.gate_cell``) lies within ``gate_level`` of the frame the detector
    last read, under ``gate_refresh_s`` after it, gets that read again. CPU and
    wall a video frame, the gate's thumbnails included; ``searched``: the
    finder's runs a video frame."""
    from vision.config import DetectorConfig
    from vision.detector import grey_thumbnail
    from vision.pipeline import gate_holds

    gate = DetectorConfig()
    clock.reset()
    wall, cpu, cards, calls = [], 0.0, 0, 0
    last = None
    for k, frame in enumerate(frames):
        t = k / fps
        t0, c0 = time.perf_counter(), time.process_time()
        thumb = grey_thumbnail(frame, gate.gate_cell)
        detector.share_thumbnail(frame, gate.gate_cell, thumb)  # as the pipeline does
        if last is not None and gate_holds(thumb, last[0], t - last[1], gate):
            n = last[2]
        else:
            n = len(detector.detect(frame))
            calls += 1
            last = (thumb, t, n)
        cards += n
        cpu += time.process_time() - c0
        wall.append((time.perf_counter() - t0) * 1000)
    runs = len(frames)
    return _summary(clock, cpu, wall, cards, runs, calls=calls / runs)


def _summary(clock: StageClock, cpu: float, wall: list, cards: int, runs: int,
             **more: float) -> dict:
    """A timing's figures a frame: CPU ms in all and by stage (``other``: what
    the finder and classifier leave), wall median and p90, cards and crops;
    ``more`` added as they are."""
    import numpy as np

    ms = {k: v / runs * 1000 for k, v in clock.cpu.items()}
    total = cpu / runs * 1000
    searches = clock.searches()
    return {
        **searches,
        "searched": (searches["cropped"] + searches["whole"]) / runs,
        "compile_ms": clock.compile_s * 1000,
        "shapes": len(getattr(clock.detector.model, "_compiled", ())),
        "cpu_ms": total,
        "finder_ms": ms["finder"],
        "classifier_ms": ms["classifier"],
        "other_ms": total - ms["finder"] - ms["classifier"],
        "median_ms": float(np.median(wall)),
        "p90_ms": float(np.percentile(wall, 90)),
        "cards": cards / runs,
        "crops": clock.crops / runs,
        "frames": runs,
        **more,
    }


def warm_classifier(detector) -> None:  # noqa: ANN001
    """Compile the OpenVINO classifier's batch sizes up to
    :attr:`~vision.openvino_runtime.ClassifierRequest.BUFFERS` before timing
    (the live detector compiles each the first time it comes, about 50 ms
    once a size and process), so that a video's first batch of a size does
    not count that in its frame."""
    if detector._classifier_ov is None:
        return
    import numpy as np

    run = detector._classifier_request()
    for n in range(1, run.BUFFERS + 1):
        run(np.zeros((n, detector.crop, detector.crop, 3), np.uint8))


def time_backend(
    model: str, imgsz: int, runs: int, warmup: int = 10, classifier: bool = True,
    threads: int | None = None, video: Path | None = None, frames: int = 300,
    crop_margin: float | None = None, live_finder: str | None = None,
) -> dict:
    """Time one backend in this process (with or without the crop classifier),
    every frame read as the live pipeline reads a video frame outside the
    round-end scan: by the live finder (``live_finder``, as
    ``detector.live_finder``; ``None``: the runtime's default)."""
    from vision.detector import THREADS, Detector, live_model
    from vision.pipeline_parts import CV_THREADS, use_cv_threads

    use_cv_threads(CV_THREADS)  # OpenCV's threads as the live pipeline sets them
    detector = Detector(model, imgsz=imgsz, classifier=None if classifier else False,
                        threads=THREADS if threads is None else threads,
                        live_model=live_model(live_finder),
                        **({} if crop_margin is None else {"crop_margin": crop_margin}))
    with detector.live_frames():
        return _time_detector(detector, imgsz, runs, warmup, video, frames)


def _time_detector(detector, imgsz: int, runs: int, warmup: int,  # noqa: ANN001
                   video: Path | None, frames: int) -> dict:
    """:func:`time_backend`'s timings of ``detector``."""
    warm_classifier(detector)
    clock = StageClock(detector)
    frame = frame_640x480()
    for _ in range(warmup):
        detector.forget()
        detector.detect(frame)
    import torch

    out = {
        "backend": detector.backend + ("+classifier" if detector.classifier else ""),
        "model": str(detector.path),
        "live": str(detector.live_path) if detector.live_path else "",
        "imgsz": imgsz,
        "threads": detector.ov_threads,
        "torch_threads": torch.get_num_threads(),
        "new": time_frames(detector, clock, [frame], runs, forget=True),
        "still": time_frames(detector, clock, [frame], runs, forget=False),
    }
    if video is not None:
        clips = video_frames(video, frames)
        detector.forget()
        out["video"] = time_frames(detector, clock, clips, len(clips), forget=False)
        out["video"]["name"] = str(video)
        detector.forget()
        out["gated"] = time_gated(detector, clock, clips, video_fps(video))
    return out


def line(name: str, r: dict) -> str:
    """One printed line of a timed set of frames."""
    verdict = "meets" if r["cpu_ms"] <= GOAL_MS else "misses"
    return (
        f"  {name:12s} CPU {r['cpu_ms']:5.2f} ms a frame = finder {r['finder_ms']:.2f}"
        f" + classifier {r['classifier_ms']:.2f} + other {r['other_ms']:.2f}"
        f" ({verdict} the {GOAL_MS:g} ms goal); wall median {r['median_ms']:.2f} ms,"
        f" p90 {r['p90_ms']:.2f} ms; {r['cards']:.2f} cards, {r['crops']:.2f} crops"
        f" classified, {r['searched']:.2f} finder runs a frame, {r['frames']} frames"
        f" (finder: {r['kept']} kept, {r['cropped']} a crop, {r['whole']} whole"
        f" [{r['fallbacks']} after a crop that cut a card]; {r['shapes']} input"
        f" shapes compiled, {r['compile_ms']:.0f} ms CPU compiling in 'other')"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200,
                        help="frames timed for each of 'cards new' and 'cards still'")
    parser.add_argument(
        "--imgsz",
        type=int,
        default=None,
        help="inference size (default: the runtime's working size)",
    )
    parser.add_argument(
        "--backend", choices=["openvino", "pytorch", "all"], default="all"
    )
    parser.add_argument(
        "--model", type=Path, default=None,
        help="an OpenVINO folder to time instead of the shipped one",
    )
    parser.add_argument(
        "--threads", type=int, default=None,
        help="OpenVINO inference threads (default: the runtime's, "
        "detector.threads; 0: every core for one frame)",
    )
    parser.add_argument("--video", type=Path, default=None,
                        help="also time the frames of this video, in order")
    parser.add_argument("--frames", type=int, default=300,
                        help="the video's first frames timed (default 300)")
    parser.add_argument("--crop-margin", type=float, default=None,
                        help="detector.finder_crop_margin for this run (px; "
                        "negative: the whole frame wherever it changed; "
                        "default: the config's)")
    parser.add_argument("--live-finder", default=None,
                        help="detector.live_finder for this run: the finder of the "
                        "live video frames timed ('float', 'int8' or an OpenVINO "
                        "folder; default: the runtime's)")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--no-classifier", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    from vision.detector import IMGSZ, MODEL_DIR, OPENVINO_NAME, PT_NAME

    imgsz = args.imgsz or IMGSZ
    if args.child:
        print(
            json.dumps(
                time_backend(
                    args.child, imgsz, args.runs, classifier=not args.no_classifier,
                    threads=args.threads, video=args.video, frames=args.frames,
                    crop_margin=args.crop_margin, live_finder=args.live_finder,
                )
            )
        )
        return 0
    models = {
        "openvino": args.model or MODEL_DIR / OPENVINO_NAME,
        "pytorch": MODEL_DIR / PT_NAME,
    }
    wanted = list(models) if args.backend == "all" else [args.backend]
    root = Path(__file__).resolve().parent.parent
    # the shipped card finder is one-class: the runtime always runs the classifier
    for name in wanted:
        if not models[name].exists():
            print(f"{name}: no model at {models[name]}; skipped")
            continue
        out = subprocess.run(
            [
                sys.executable, "-m", "benchmarks.bench_detector",
                "--child", str(models[name]),
                "--runs", str(args.runs),
                "--imgsz", str(imgsz),
                *(["--threads", str(args.threads)] if args.threads is not None else []),
                *(["--video", str(args.video), "--frames", str(args.frames)]
                  if args.video is not None else []),
                *(["--crop-margin", str(args.crop_margin)]
                  if args.crop_margin is not None else []),
                *(["--live-finder", args.live_finder]
                  if args.live_finder is not None else []),
            ],
            capture_output=True,
            text=True,
            cwd=root,
        )
        if out.returncode != 0:
            print(f"{name}: failed\n{out.stderr[-1500:]}")
            continue
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{r['backend']} imgsz {r['imgsz']}, OpenVINO threads {r['threads']}, "
              f"torch threads {r['torch_threads']}"
              + (f", live frames' finder {r['live']}" if r.get("live") else "") + ":")
        print(line("cards new", r["new"]) + " (one 640x480 frame)")
        print(line("cards still", r["still"]) + " (the same frame, reads kept)")
        if "video" in r:
            print(line("video", r["video"]) + f" ({r['video']['name']})")
        if "gated" in r:
            print(line("video gated", r["gated"])
                  + f" (the live pipeline's motion gate in front: the detector called"
                  f" on {r['gated']['calls']:.2f} of the frames)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
