"""``tableref detect``: the shipped detector over image files, one JSON line each
(the still-photo finder, ``detector.photo_model``, and the multi-scale pass;
``--one``: the one card each image shows, :func:`vision.multiscale.read_card`).

Training the detector and measuring it live in :mod:`training`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def detect_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``tableref detect``."""
    parser.add_argument("images", nargs="+", help="image files")
    parser.add_argument(
        "--json", action="store_true", help="JSON lines (the default; kept for clarity)"
    )
    parser.add_argument(
        "--model",
        type=Path,
        default=None,
        help="the card finder, an OpenVINO model folder or .pt file (default: the "
        "still-photo finder, detector.photo_model)",
    )
    parser.add_argument("--conf", type=float, default=None, help="confidence threshold")
    parser.add_argument("--imgsz", type=int, default=None, help="inference size")
    parser.add_argument(
        "--zooms", "--scales", default="1,0.5",
        help="zooms of the multi-scale pass (vision.multiscale), e.g. 1,0.5; "
             "1 for one pass",
    )
    parser.add_argument("--deck", default=None,
                        help="read with an enrolled deck (tableref decks)")
    parser.add_argument("--one", action="store_true",
                        help="each image shows one card (held up, or alone on a "
                             "table): print that card alone, read as the still-photo "
                             "read of one card does (vision.multiscale.read_card: "
                             "the largest box widened to the whole card, a sideways "
                             "card read upright, the corner index weighed, the "
                             "colour read again; detector.photo_*)")


def detect(args: argparse.Namespace) -> int:
    """Run ``tableref detect``: one JSON line per image, errors per image."""
    import cv2
    import numpy as np

    from vision.decks import CardFinder, open_detector
    from vision.detector import photo_model
    from vision.multiscale import detect_multiscale, parse_zooms, read_card

    try:
        kwargs = {
            k: v
            for k, v in (("conf", args.conf), ("imgsz", args.imgsz))
            if v is not None
        }
        zooms = parse_zooms(args.zooms)
        detector = open_detector(args.deck, model_path=args.model or photo_model(),
                                 **kwargs)
    except (FileNotFoundError, RuntimeError, ValueError) as exc:
        print(f"tableref detect: {exc}", file=sys.stderr)
        return 2
    failures = 0
    for path in args.images:
        record: dict = {"image": path}
        try:
            data = np.fromfile(path, dtype=np.uint8)
            frame = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
            if frame is None:
                raise ValueError("not a readable image")
            cards = (read_card(detector, frame, zooms, CardFinder(detector))
                     if args.one else detect_multiscale(detector, frame, zooms))
            record["cards"] = cards.to_json()
        except (OSError, ValueError) as exc:
            reason = (
                "file not found" if isinstance(exc, FileNotFoundError) else str(exc)
            )
            record["error"] = reason
            failures += 1
        print(json.dumps(record), flush=True)
    return 1 if failures == len(args.images) else 0
