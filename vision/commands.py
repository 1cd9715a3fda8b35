"""Camera subcommands: ``markers``, ``calibrate``, ``watch`` and ``demo``.

``watch`` and ``demo`` feed the pipeline's events to a live referee through
:class:`vision.live.LiveTable`, and take the pipeline's thresholds from
``--config FILE`` and ``--set SECTION.FIELD=VALUE`` (:mod:`vision.config`;
``--help-config`` lists them).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any

from referee.log import LogError

from .config import ConfigError
from .config_load import add_config_arguments, config_from_args
from .geometry import TABLE_MM, CalibrationError
from .header_args import HeaderError, add_game_arguments, header_from_args
from .live import LiveTable, drain, start_listening

_listen = start_listening  # the old name


# -- markers ---------------------------------------------------------------------------
def markers_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--out", default="markers.png", help="PNG to write (default markers.png)"
    )
    p.add_argument("--dpi", type=int, default=150, help="print resolution (150)")
    p.add_argument(
        "--marker-mm", type=float, default=60.0, help="marker side in mm (60)"
    )


def markers(args: argparse.Namespace) -> int:
    """Write the printable sheet of the four corner markers."""
    import cv2

    from .markers import marker_sheet

    if not 50 <= args.dpi <= 600 or not 20 <= args.marker_mm <= 90:
        print(
            "tableref markers: --dpi must be 50-600 and --marker-mm 20-90",
            file=sys.stderr,
        )
        return 2
    sheet = marker_sheet(args.dpi, args.marker_mm)
    if not cv2.imwrite(args.out, sheet):
        print(f"tableref markers: cannot write {args.out}", file=sys.stderr)
        return 2
    print(
        f"wrote {args.out}: print it on A4 at 100 % scale, cut the four markers, "
        "and put "
        "each marker's centre on its corner of the play area."
    )
    return 0


# -- calibrate -------------------------------------------------------------------------
def _size(text: str) -> tuple[float, float]:
    try:
        w, h = (float(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"size must look like 560x420, got {text!r}"
        ) from None
    if w <= 0 or h <= 0:
        raise argparse.ArgumentTypeError(f"size must be positive, got {text!r}")
    return w, h


def _players(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError("--players needs names separated by commas")
    return names


def calibrate_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "source", help="image, video, image folder, camera index or stream URL"
    )
    p.add_argument("--table", default="default", help="name to save the table under")
    p.add_argument(
        "--players",
        type=_players,
        default=["A", "B", "C", "D"],
        help="names in seating order, seat 0 nearest the camera",
    )
    p.add_argument(
        "--size",
        type=_size,
        default=TABLE_MM,
        help="play area between the markers in mm (default 560x420)",
    )
    p.add_argument(
        "--corners",
        help="x,y,x,y,x,y,x,y: the area's corners in pixels "
        "(top-left, top-right, bottom-right, bottom-left) instead of markers",
    )
    p.add_argument(
        "--frames", type=int, default=30, help="frames to search for markers"
    )
    p.add_argument(
        "--preview", help="write the frame with the zones drawn to this JPEG"
    )


def _first_frames(spec: str, count: int):
    import cv2

    if Path(spec).is_file() and Path(spec).suffix.lower() in (
        ".jpg",
        ".jpeg",
        ".png",
        ".bmp",
    ):
        image = cv2.imread(spec)
        if image is not None:
            yield image
        return
    from .sources import FrameSource, SourceError

    src = FrameSource(spec)
    try:
        src.open()
        for _ in range(count):
            frame = src.read()
            if frame is None:
                break
            yield frame.image
    except SourceError as exc:
        print(f"tableref calibrate: {exc}", file=sys.stderr)
    finally:
        src.close()


def calibrate(args: argparse.Namespace) -> int:
    """Calibrate from markers (or given corners) and save the table."""
    import cv2
    import numpy as np

    from .geometry import TableGeometry, table_path
    from .markers import calibrate_from_markers

    geo = None
    problem = "no frame could be read"
    for image in _first_frames(args.source, max(1, args.frames)):
        h, w = image.shape[:2]
        try:
            if args.corners:
                pts = [float(v) for v in args.corners.split(",")]
                if len(pts) != 8:
                    raise CalibrationError(
                        "--corners needs 8 numbers: x,y for four corners"
                    )
                geo = TableGeometry.from_corners(
                    np.array(pts).reshape(4, 2), (w, h), args.players, args.size
                )
            else:
                geo = calibrate_from_markers(image, args.players, args.size)
            break
        except (CalibrationError, ValueError) as exc:
            problem = str(exc)
            if args.corners:
                break
    if geo is None:
        print(f"tableref calibrate: {problem}", file=sys.stderr)
        return 1
    geo.name = args.table
    try:
        path = geo.save(table_path(args.table))
    except (OSError, CalibrationError) as exc:
        print(f"tableref calibrate: cannot save the table: {exc}", file=sys.stderr)
        return 2
    print(
        f"saved table {args.table!r} ({geo.method}, "
        f"{geo.size[0]:.0f} x {geo.size[1]:.0f} mm,"
        f" frames {geo.image_size[0]}x{geo.image_size[1]}) to {path}"
    )
    if args.preview:
        canvas = image.copy()
        for zone in geo.zones.values():
            poly = geo.to_image(zone.polygon).astype(np.int32)
            cv2.polylines(canvas, [poly], True, (255, 200, 0), 1, cv2.LINE_AA)
        cv2.imwrite(args.preview, canvas)
    return 0


# -- watch -----------------------------------------------------------------------------
def watch_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "source", help="camera index, video file, image folder or stream URL"
    )
    add_game_arguments(p)
    p.add_argument("--log", help="write the table log (JSON lines) here")
    p.add_argument(
        "--table", help="a table saved by 'tableref calibrate' (name or .json)"
    )
    p.add_argument("--evidence", help="folder for the evidence JPEGs (default: none)")
    p.add_argument(
        "--fps", type=float, help="process at most this many frames a second"
    )
    p.add_argument(
        "--realtime", action="store_true", help="play a video file at its speed"
    )
    p.add_argument(
        "--attribute-players",
        action="store_true",
        help="the pipeline writes the player itself (the live table always names "
        "the player whose arm reached in; kept for old scripts)",
    )
    p.add_argument(
        "--listen",
        nargs="?",
        const="",
        metavar="DEVICE|FILE",
        help="also listen for UNO calls (microphone, or an audio file: the "
        "recording's sound track)",
    )
    add_config_arguments(p)


def watch(args: argparse.Namespace) -> int:
    """Referee a live table headless: rulings printed as they happen."""
    from .pipeline import TablePipeline

    try:
        header = header_from_args(args)
        if header is None:
            raise HeaderError("give --players (A,B,C) or --header FILE")
        config = config_from_args(args)
        table = LiveTable(header, log_path=args.log)
    except (LogError, ValueError, OSError) as exc:  # ConfigError is a ValueError
        print(f"tableref watch: {exc}", file=sys.stderr)
        return 2
    pipeline = TablePipeline(
        args.source,
        game=header["game"],
        players=header["players"],
        table=args.table,
        evidence_dir=args.evidence,
        on_event=table.append,
        fps=args.fps,
        realtime=args.realtime,
        options=header.get("options"),
        attribute_players=args.attribute_players,
        game_state=table.state,
        config=config,
    )
    table.pipeline = pipeline
    started = time.monotonic()
    handle = (
        start_listening(args.listen, table, lambda: time.monotonic() - started)
        if args.listen is not None
        else None
    )
    stop = threading.Event()
    last: dict[str, Any] = {}
    runner = threading.Thread(target=pipeline.run, args=(stop,), daemon=True)
    runner.start()
    try:
        while runner.is_alive():
            runner.join(0.5)
            status = pipeline.status()
            if (status["state"], status["message"]) != (
                last.get("state"),
                last.get("message"),
            ):
                print(
                    f"camera: {status['state']}: {status['message']}", file=sys.stderr
                )
                last = status
    except KeyboardInterrupt:
        stop.set()
        runner.join(5)
    finally:
        if handle is not None and hasattr(handle, "stop"):
            drain(handle)
        table.close(ended=pipeline.status()["state"] == "ended")
    print(json.dumps(table.state(), ensure_ascii=False))
    return 1 if pipeline.status()["state"] == "error" else 0


# -- demo ------------------------------------------------------------------------------
def demo_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--oracle",
        action="store_true",
        help="use the renderer's oracle detector instead of the shipped model",
    )
    p.add_argument(
        "--replay",
        action="store_true",
        help="only replay the ground-truth log through the referee",
    )
    p.add_argument(
        "--fps",
        type=float,
        default=None,
        help="process at most this many frames a second (default: all)",
    )
    p.add_argument("--evidence", help="folder for the evidence JPEGs (default: none)")
    p.add_argument(
        "--listen",
        metavar="FILE",
        help="the sound track to listen to (default: demo-table.wav, .flac or "
        ".ogg beside the video, when there is one)",
    )
    add_config_arguments(p)


def demo(args: argparse.Namespace) -> int:
    """Referee the bundled demo video; compare what was seen with the ground truth."""
    from .demo.run import run_demo

    try:
        config = config_from_args(args)
    except ConfigError as exc:
        print(f"tableref demo: {exc}", file=sys.stderr)
        return 2
    return run_demo(args, config)
