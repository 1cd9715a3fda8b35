"""``tableref demo``: the pipeline on the bundled video, refereed live.

The camera sees plays, draws, first cards and laid-out hands. What the players
*say* (UNO calls, "pass", the colour named for a wild) comes, in a real game,
from the microphone or the page; here it is taken from the ground-truth log at
the moment it was said and marked ``"source": "voice"``. At the end the events
the camera produced are compared with the ground truth.
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
from ..live import LiveTable
from ..pipeline import DEMO_LOG, DEMO_VIDEO, TablePipeline
from .evaluate import compare, summary_lines

ORACLE = DEMO_LOG.with_name(DEMO_LOG.name.replace(".jsonl", ".oracle.json.gz"))


class SpokenFeed:
    """Puts the ground truth's spoken events between the camera's, by time."""

    def __init__(self, truth: list[dict[str, Any]], append):
        self.append = append
        self.spoken = [e for e in truth if e.get("source") == "voice"]
        self.colours = [
            (float(e["t"]), e["cards"][-1], e["color"])
            for e in truth
            if e["type"] == "play" and "color" in e
        ]

    def _say_until(self, t: float) -> None:
        while self.spoken and float(self.spoken[0]["t"]) <= t:
            self.append(self.spoken.pop(0))

    def seen(self, event: dict[str, Any]) -> None:
        """A camera event: first what was said before it, then it, then its colour."""
        t = float(event.get("t", 0))
        self._say_until(t)
        self.append(event)
        cards = event.get("cards") or []
        if event["type"] == "play" and cards and cards[-1].startswith("wild"):
            near = [
                c for c in self.colours if c[1] == cards[-1] and -0.5 <= t - c[0] <= 3.0
            ]
            if near:
                self.colours.remove(near[0])
                self.append(
                    {
                        "type": "color",
                        "color": near[0][2],
                        "t": round(t + 0.2, 3),
                        "source": "voice",
                    }
                )

    def finish(self) -> None:
        self._say_until(float("inf"))


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
    print(
        f"Refereeing {DEMO_VIDEO.name} ({', '.join(header['players'])}; "
        f"official rules) with {name}.\nColumns: log line, time, source, ruling, "
        "rule, text. The camera "
        "gives plays, draws and laid-out hands; UNO calls, passes and wild colours are "
        "what the players say (from the script).\n"
    )
    table = LiveTable(header)
    feed = SpokenFeed(truth, table.append)
    seen: list[dict[str, Any]] = []

    def on_event(event: dict[str, Any]) -> None:
        seen.append(event)
        feed.seen(event)

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
    pipeline.run(threading.Event())
    feed.finish()
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
    state = table.state()
    print("Final scores: " + json.dumps(state.get("scores", {}), ensure_ascii=False))
    return 0 if status["state"] != "error" else 1
