"""``tableref demo``: the pipeline on the bundled video, refereed live.

The camera sees plays, draws, first cards and laid-out hands; the live table
(:mod:`vision.handsfree`) names who played from the arm that reached, infers
the passes of players who drew and the colours of wilds the next play shows.
What the players *say* (UNO calls, colours) comes from an audio track beside
the video (``demo-table.wav``, ``.flac`` or ``.ogg``, or ``--listen FILE``)
when there is one and the listener is installed. No event comes from the
ground-truth log: it is used only afterwards, to score what was refereed
(:func:`vision.demo.evaluate.handsfree_lines`).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from typing import Any

from referee.game import replay

from .. import pipeline as pipeline_module
from ..config import DetectorConfig, PipelineConfig
from ..live import LiveTable, drain, start_listening
from ..pipeline import DEMO_LOG, DEMO_VIDEO, TablePipeline
from .evaluate import compare, handsfree_lines, summary_lines

ORACLE = DEMO_LOG.with_name(DEMO_LOG.name.replace(".jsonl", ".oracle.json.gz"))


def audio_beside(video) -> Any:
    """The audio track beside a video (same stem, .wav/.flac/.ogg), or None."""
    for ext in (".wav", ".flac", ".ogg"):
        path = video.with_suffix(ext)
        if path.is_file():
            return path
    return None


def _replay_truth(reason: str) -> int:
    print(f"{reason}\nReplaying the demo's ground-truth table log instead:\n")
    with DEMO_LOG.open(encoding="utf-8") as fh:
        result = replay(fh)
    for r in result.rulings:
        print(f"[{r.event:>3}] {r.ruling:<9} {r.rule:<24} {r.text}")
    print(json.dumps(result.state().get("scores", {}), ensure_ascii=False))
    return 0


def run_demo(args: argparse.Namespace, config: PipelineConfig | None = None) -> int:
    """Run the demo as ``tableref demo`` asks; returns the exit status."""
    config = config or PipelineConfig()
    if not DEMO_VIDEO.is_file() or not DEMO_LOG.is_file():
        print(
            f"tableref demo: the bundled demo is missing ({DEMO_VIDEO})",
            file=sys.stderr,
        )
        return 2
    if args.replay:
        return _replay_truth("Asked for the ground-truth replay (--replay).")
    if args.oracle:
        from .oracle import OracleDetector

        detector: Any = OracleDetector(ORACLE)
        name = "the renderer's oracle detector"
    else:
        try:
            detector = (
                pipeline_module.load_default_detector()
                if config.detector == DetectorConfig()
                else pipeline_module.load_default_detector(config.detector)
            )
        except RuntimeError as exc:
            return _replay_truth(f"The shipped card detector cannot be used: {exc}.")
        name = "the shipped card detector"
        if args.fps is None and getattr(detector, "backend", "") == "pytorch":
            args.fps = (
                10.0  # PyTorch on a small CPU: 2 frames in 3 keep it near a minute
            )
            name += " (PyTorch weights, every frame at up to 10 a second)"
    with DEMO_LOG.open(encoding="utf-8") as fh:
        lines = [json.loads(line) for line in fh if line.strip()]
    header, truth = lines[0], lines[1:]
    audio = getattr(args, "listen", None) or audio_beside(DEMO_VIDEO)
    print(
        f"Refereeing {DEMO_VIDEO.name} ({', '.join(header['players'])}; "
        f"official rules) with {name}.\nColumns: log line, time, source, ruling, "
        "rule, text. The camera gives plays (the player from the arm), draws and "
        "laid-out hands; passes and wild colours are inferred from them "
        "([inferred: ...]); UNO calls and spoken colours come from "
        + (f"the audio track {audio}." if audio else "no audio track (none found).")
        + " Nothing is taken from the ground truth.\n"
    )
    table = LiveTable(header)
    seen: list[dict[str, Any]] = []

    def on_event(event: dict[str, Any]) -> None:
        seen.append(event)
        table.append(event)

    pipeline = TablePipeline(
        str(DEMO_VIDEO),
        players=header["players"],
        detector=detector,
        evidence_dir=args.evidence,
        on_event=on_event,
        fps=args.fps,
        realtime=False,
        options=header.get("options"),
        game_state=table.state,
        config=config,
    )
    table.pipeline = pipeline
    started = time.monotonic()
    heard = None
    if audio:
        heard = start_listening(str(audio), table, _video_clock(pipeline))
    pipeline.run(threading.Event())
    if heard is not None and hasattr(heard, "stop"):
        drain(heard)
    table.finish()
    took = time.monotonic() - started
    status = pipeline.status()
    print(
        f"\nProcessed {status['frames']} frames in {took:.1f} s "
        f"({status['frames'] / max(took, 1e-9):.0f} frames/s); "
        f"camera: {status['state']}."
    )
    if status["state"] == "error":
        print(f"camera error: {status['message']}")
    print("Camera events against the ground truth:")
    for line in summary_lines(compare(truth, seen)):
        print("  " + line)
    print("The refereed table log against the ground truth (every event type):")
    expected = replay(json.dumps(e) for e in lines).state().get("scores", {})
    state = table.state()
    for line in handsfree_lines(truth, header, table.referee.events, expected):
        print("  " + line)
    print("Final scores: " + json.dumps(state.get("scores", {}), ensure_ascii=False))
    return 0 if status["state"] != "error" else 1


def _video_clock(pipeline: TablePipeline):
    """The game clock for heard events: the video time of the newest frame."""

    def clock() -> float:
        return float(getattr(pipeline, "_last_t", 0.0) or 0.0)

    return clock
