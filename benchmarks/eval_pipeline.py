"""Measure the live table pipeline on the bundled demo table (prints numbers).

    .venv/bin/python benchmarks/eval_pipeline.py [--detector oracle|model|both]
                                                 [--fps 15 30] [--noise 0.05]
                                                 [--seed 33]

For each detector and input frame rate it runs the whole pipeline (decode,
resize, detector, hands, tracking, play detection, evidence off) over the demo
video as fast as it can, feeding a live referee as ``tableref demo`` does (the
referee switches the round-end scan on; nothing is fed from the ground truth:
passes and colours are the live table's inferences), and reports:

- play-event precision and recall against the ground-truth log (``start`` and
  ``play``; draws and reveals on their own lines);
- latency from the moment a card lands (the ground truth's ``t``) to the event:
  in frames and in milliseconds of video time, plus the mean processing time
  of one frame (what a live camera adds on top);
- CPU use at real-time input: CPU seconds spent per second of video, i.e. the
  cores the pipeline keeps busy when frames arrive at the video's frame rate;
- who reached: how often an event's ``reach_from`` is the player of the
  ground truth;
- every missed and every extra event, to classify.

The 30 fps video is rendered once into ``$TMPDIR/tableref-demo-30fps`` (the
renderer is deterministic; the bundled video is 15 fps). ``--seed`` renders and
measures another scripted game, a check that the pipeline was not fitted to
the one demo (``CHANGELOG.md`` says which seeds were looked at while tuning;
some seeds give a game the script cannot lay out, and say so). ``oracle`` is the
renderer's perfect detector, ``oracle+noise`` the same with one-frame misreads
and phantom cards at the ``--noise`` rate per frame; ``model`` is the shipped
detector (``vision.detector.Detector``). ``--config``/``--set`` change the
pipeline's thresholds (``vision.config``); ``--events DIR`` writes each run's
camera events, so two versions of the pipeline can be compared event by event.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import tempfile
import threading
import time
from pathlib import Path

from referee.game import replay
from vision.config import PipelineConfig
from vision.config_load import add_config_arguments, config_from_args
from vision.demo.evaluate import brief, compare, percentile
from vision.demo.oracle import OracleDetector
from vision.live import LiveTable
from vision.pipeline import DEMO_DIR, TablePipeline, load_default_detector

PLAYERS = ["Aiko", "Ben", "Chie"]
DEMO_SEED = 23  # the bundled demo's; see vision/demo/render.py


def demo_files(fps: int, seed: int = DEMO_SEED) -> Path:
    """Folder holding demo-table.{mp4,jsonl,oracle.json.gz} at ``fps``.

    A ``seed`` other than the bundled demo's renders another game (a held-out
    video: nothing was tuned on it) into ``$TMPDIR/tableref-demo-sSEED-FPSfps``.
    """
    if fps == 15 and seed == DEMO_SEED:
        return DEMO_DIR
    name = f"tableref-demo-{fps}fps" if seed == DEMO_SEED else (
        f"tableref-demo-s{seed}-{fps}fps"
    )
    folder = Path(tempfile.gettempdir()) / name
    if not (folder / "demo-table.oracle.json.gz").is_file():
        from vision.demo.render import render

        print(f"rendering the demo (seed {seed}) at {fps} fps into {folder} ...",
              flush=True)
        render(folder, fps=float(fps), seed=seed)
    return folder


class Timed:
    """Wraps a detector and times its calls."""

    def __init__(self, inner):
        self.inner = inner
        self.seconds = 0.0
        self.calls = 0

    @property
    def box_conf(self):
        """The inner detector's proposal threshold (the scan lowers it)."""
        return getattr(self.inner, "box_conf", None)

    @box_conf.setter
    def box_conf(self, value) -> None:
        self.inner.box_conf = value

    @property
    def close_ups(self) -> bool:
        """Whether the inner detector reads pixels (the scan's close-ups)."""
        return not hasattr(self.inner, "detect_frame")

    def detect(self, image):
        start = time.perf_counter()
        out = self.inner.detect(image)
        self.seconds += time.perf_counter() - start
        self.calls += 1
        return out

    def detect_frame(self, frame):
        start = time.perf_counter()
        if hasattr(self.inner, "detect_frame"):
            out = self.inner.detect_frame(frame)
        else:
            out = self.inner.detect(frame.image)
        self.seconds += time.perf_counter() - start
        self.calls += 1
        return out


def run(folder: Path, detector, config: PipelineConfig | None = None) -> dict:
    """Pipeline and live referee, as ``tableref demo`` runs them.

    ``events`` in the result are the camera's table events, in order.
    """
    events: list[dict] = []
    timed = Timed(detector)
    truth = [
        json.loads(x) for x in (folder / "demo-table.jsonl").read_text().splitlines()
    ]
    table = LiveTable(truth[0], out=open(os.devnull, "w"))

    def on_event(event: dict) -> None:
        events.append(event)
        table.append(event)

    pipe = TablePipeline(
        str(folder / "demo-table.mp4"),
        players=PLAYERS,
        detector=timed,
        on_event=on_event,
        realtime=False,
        options=truth[0].get("options"),
        game_state=table.state,
        config=config,
    )
    table.pipeline = pipe
    cpu0, wall0 = time.process_time(), time.perf_counter()
    pipe.run(threading.Event())
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    table.finish()
    expected = replay(json.dumps(e) for e in truth).state().get("scores")
    scores = compare(truth[1:], events)
    fps = pipe.source.fps
    frames = pipe.status()["frames"]
    video_s = frames / fps
    who = [(e.get("reach_from"), g.get("player")) for e, g in _pairs(truth[1:], events)]
    return {
        "scores": scores,
        "fps": fps,
        "frames": frames,
        "cpu": cpu,
        "wall": wall,
        "video_s": video_s,
        "detector_ms": 1000 * timed.seconds / max(timed.calls, 1),
        "who": who,
        "final": table.state().get("scores"),
        "expected": expected,
        "events": events,
    }


def _pairs(truth, events):
    """(detected, ground truth) pairs of plays and draws matched in order."""
    out, used = [], set()
    for e in events:
        if e["type"] not in ("play", "draw"):
            continue
        for i, g in enumerate(truth):
            if i in used or g["type"] != e["type"]:
                continue
            if e["type"] == "play" and g.get("cards") != e.get("cards"):
                continue
            if -1.0 <= e["t"] - g["t"] <= 4.0:
                used.add(i)
                out.append((e, g))
                break
    return out


def report(name: str, fps: int, r: dict) -> None:
    s = r["scores"]
    play = s["play"]
    lat = play.latencies
    frame_ms = 1000 * r["wall"] / max(r["frames"], 1)
    print(
        f"\n== {name}, {fps} fps input: {r['frames']} frames, "
        f"{r['video_s']:.1f} s of video"
    )
    for kind in ("play", "draw", "reveal"):
        if kind in s:
            k = s[kind]
            print(
                f"  {kind:<6} precision {k.precision:.3f}  recall {k.recall:.3f}  "
                f"(truth {k.truth}, seen {k.detected}, matched {k.matched})"
            )
            for e in k.missed:
                print(f"         missed: {brief(e)}")
            for e in k.extra:
                print(f"         extra:  {brief(e)}")
    if lat:
        to_frames = [math.ceil(x * r["fps"] - 1e-6) for x in lat]
        print(
            f"  play latency (video time): median "
            f"{percentile(lat, 50) * 1000:.0f} ms / "
            f"{percentile(to_frames, 50):.0f} frames, p95 "
            f"{percentile(lat, 95) * 1000:.0f} "
            f"ms / {percentile(to_frames, 95):.0f} frames, max {max(lat) * 1000:.0f} ms"
        )
        print(
            f"  plus processing of the last frame: {frame_ms:.1f} ms per frame "
            f"(detector {r['detector_ms']:.1f} ms) -> p95 "
            f"{percentile(lat, 95) * 1000 + frame_ms:.0f} ms"
        )
    print(
        f"  throughput {r['frames'] / r['wall']:.0f} frames/s; "
        f"CPU {r['cpu']:.1f} s for "
        f"{r['video_s']:.1f} s of video = {r['cpu'] / r['video_s']:.2f} cores at "
        f"{fps} fps real-time input"
    )
    same = "equal" if r["final"] == r["expected"] else "DIFFER from"
    print(f"  final scores {r['final']} {same} the ground truth's")
    named = [w for w in r["who"] if w[0] is not None]
    right = sum(1 for a, b in named if a == b)
    print(
        f"  reach_from = the player who acted: {right}/{len(r['who'])} "
        f"({len(r['who']) - len(named)} unattributed)"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--detector", choices=("oracle", "model", "both"), default="both")
    p.add_argument("--fps", type=int, nargs="+", default=[15, 30])
    p.add_argument(
        "--model",
        help="a model file or OpenVINO folder instead of the shipped one (for 'model')",
    )
    p.add_argument(
        "--noise",
        type=float,
        default=0.05,
        help="oracle+noise: misread rate per frame (phantoms at half of it)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=DEMO_SEED,
        help="render and measure another scripted game (e.g. 33, 47)",
    )
    p.add_argument(
        "--events",
        metavar="DIR",
        help="also write each run's camera events as JSON lines into DIR "
        "(DETECTOR-sSEED-FPSfps.jsonl)",
    )
    add_config_arguments(p)
    args = p.parse_args(argv)
    config = config_from_args(args)
    print(f"tableref pipeline benchmark on {os.cpu_count()} CPU(s)")
    model = None
    if args.detector in ("model", "both"):
        try:
            if args.model:
                from vision.detector import Detector

                model = Detector(args.model)
            else:
                model = load_default_detector(config.detector)
        except (RuntimeError, OSError, ValueError) as exc:
            print(f"(no model run: {exc})")
    for fps in args.fps:
        try:
            folder = demo_files(fps, args.seed)
        except (ValueError, IndexError) as exc:  # a game the script cannot lay out
            print(f"(no video for seed {args.seed}: {exc!r})")
            return 2
        oracle_path = folder / "demo-table.oracle.json.gz"
        runs = []
        if args.detector in ("oracle", "both"):
            noisy = OracleDetector(
                oracle_path, misread=args.noise, phantom=args.noise / 2, seed=1
            )
            runs += [
                ("oracle", "oracle", OracleDetector(oracle_path)),
                (
                    "oracle-noise",
                    f"oracle+noise ({args.noise:g} misreads/frame)",
                    noisy,
                ),
            ]
        if model is not None:
            runs.append(("model", "model", model))
        for key, name, detector in runs:
            result = run(folder, detector, config)
            report(name, fps, result)
            if args.events:
                _write_events(Path(args.events) / f"{key}-s{args.seed}-{fps}fps.jsonl",
                              result["events"])
    return 0


def _write_events(path: Path, events: list[dict]) -> None:
    """The camera's events as JSON lines (keys sorted), to compare two runs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for e in events:
            fh.write(json.dumps(e, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"  wrote {len(events)} events to {path}")


if __name__ == "__main__":
    raise SystemExit(main())
