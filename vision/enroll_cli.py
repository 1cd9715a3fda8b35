"""``tableref enroll`` and ``tableref decks``: teach the reader a deck, list decks.

    tableref enroll --deck kitchen photos/     # photos/<label>/*.jpg
    tableref enroll --deck kitchen --camera 0  # show the cards one by one
    tableref decks                             # the enrolled decks
    tableref detect --deck kitchen photo.jpg   # read with the enrolled deck

See :mod:`vision.enroll` for what enrollment does and :mod:`vision.decks` for
where decks are kept.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import datetime, timezone
from pathlib import Path


def enroll_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``tableref enroll``."""
    from vision.enroll import EnrollConfig

    d = EnrollConfig()
    parser.add_argument("folder", type=Path, nargs="?", default=None,
                        help="folder of sub-folders named by label (red-7/, "
                             "wild-draw4/ ...), each with photos of that card")
    parser.add_argument("--camera", default=None,
                        help="enroll from a camera (0), video or image folder instead:"
                             " show the cards one by one as asked")
    parser.add_argument("--labels", default="uno",
                        help="with --camera, the cards asked for: uno (54), tgus-t, "
                             "or labels separated by commas")
    parser.add_argument("--deck", required=True, help="the deck's name")
    parser.add_argument("--steps", type=int, default=d.steps,
                        help=f"fine-tuning steps per network (default {d.steps})")
    parser.add_argument("--lr", type=float, default=d.lr,
                        help=f"learning rate (default {d.lr})")
    parser.add_argument("--l2sp", type=float, default=d.l2sp,
                        help=f"pull toward the shipped weights (default {d.l2sp})")
    parser.add_argument("--held", type=float, default=d.held,
                        help="share of the augmented views that look like a card "
                             f"held before a webcam (default {d.held})")
    parser.add_argument("--hand", type=float, default=d.hand,
                        help="share of those with a hand over the card as well "
                             f"(default {d.hand})")
    parser.add_argument("--scene", type=float, default=d.scene,
                        help="share of the held views drawn as the card held up "
                             f"before a person, tilted (default {d.scene})")
    parser.add_argument("--tilt", type=float, default=d.tilt,
                        help="most one side of a scene view's card is shortened "
                             f"(default {d.tilt})")
    parser.add_argument("--far", type=float, default=d.far,
                        help="share of the scene views seen as a card held at "
                             f"arm's length, a webcam's few pixels (default {d.far})")
    parser.add_argument("--webcam", type=float, default=d.webcam,
                        help="share of the scene views drawn and spoilt at a webcam "
                             f"frame's size (default {d.webcam})")
    parser.add_argument("--proto", type=float, default=d.proto,
                        help="weight of a class-mean head folded into the enrolled "
                             f"classifier's last layer, 0: off (default {d.proto})")
    parser.add_argument("--soup", type=int, default=d.soup,
                        help="fine-tunings with other seeds whose weights are "
                             f"averaged, 1: one (default {d.soup})")
    parser.add_argument("--mix", type=float, default=d.mix,
                        help="weight-space mix of the fine-tuned and the shipped "
                             f"classifier, 1: fine-tuned alone (default {d.mix})")
    parser.add_argument("--seed", type=int, default=d.seed, help="augmentation seed")
    parser.add_argument("--threads", type=int, default=None, help="torch threads")
    parser.add_argument("--decks-dir", type=Path, default=None,
                        help="where decks are kept (default: beside the game store)")


def enroll(args: argparse.Namespace) -> int:
    """Run ``tableref enroll``: 0 enrolled, 2 bad input."""
    from vision.decks import DeckError, DeckManifest, check_name, save_deck
    from vision.enroll import EnrollConfig, EnrollError, find_shots, fine_tune
    from vision.enroll import read_photo_folder
    from vision.sources import SourceError

    t0 = time.time()

    def progress(text: str) -> None:
        print(text, flush=True)

    try:
        check_name(args.deck)
        config = EnrollConfig(steps=args.steps, lr=args.lr, l2sp=args.l2sp,
                              seed=args.seed, threads=args.threads,
                              held=args.held, hand=args.hand, scene=args.scene,
                              tilt=args.tilt, far=args.far, webcam=args.webcam,
                              mix=args.mix, proto=args.proto,
                              soup=args.soup)
        if (args.folder is None) == (args.camera is None):
            raise EnrollError("give a folder of photos or --camera, not both")
        if args.camera is not None:
            shots = _camera_shots(args.camera, args.labels, progress)
        else:
            photos = read_photo_folder(args.folder)
            print(f"{sum(len(v) for v in photos.values())} photos of "
                  f"{len(photos)} cards", flush=True)
            shots = find_shots(photos, progress=progress)
        result = fine_tune(shots, config=config, progress=progress)
    except (DeckError, EnrollError, FileNotFoundError, SourceError) as exc:
        print(f"tableref enroll: {exc}", file=sys.stderr)
        return 2
    manifest = DeckManifest(
        name=args.deck, labels=result.checkpoint["labels"], photos=result.photos,
        missing=result.missing, confused=result.confused,
        base=result.checkpoint["base"], recipe=result.checkpoint["enroll"],
        seconds=round(time.time() - t0, 1),
        created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
    )
    folder = save_deck(args.deck, result.checkpoint, manifest, args.decks_dir)
    for source in result.unfound:
        print(f"no card found in {source}: photograph it again closer or flatter")
    print("missing labels: " + (", ".join(result.missing) or "none"))
    if result.confused:
        print("still confused on the enrollment photos (card, read as, probability):")
        for label, other, prob in result.confused:
            print(f"  {label} ~ {other} {prob:.2f}")
    else:
        print("every enrollment photo reads right and sure")
    print(f"enrolled deck {args.deck!r} in {manifest.seconds:.0f} s: {folder}")
    return 0


def _camera_shots(spec: str, labels: str, say) -> list:  # noqa: ANN001
    """Frames of each card shown to the camera ``spec`` (vision.enroll_camera)."""
    from vision.decks import CardFinder
    from vision.detector import Detector, photo_model
    from vision.enroll_camera import guided_shots, label_set
    from vision.sources import FrameSource

    wanted = label_set(labels)
    source = FrameSource(int(spec) if spec.isdigit() else spec)
    source.open()

    def frames():  # noqa: ANN202
        while (frame := source.read()) is not None:
            yield frame.image

    try:
        return guided_shots(frames(), wanted, CardFinder(Detector(photo_model())),
                            say=say)
    finally:
        source.close()


def decks_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``tableref decks``."""
    parser.add_argument("--decks-dir", type=Path, default=None,
                        help="where decks are kept (default: beside the game store)")


def decks(args: argparse.Namespace) -> int:
    """Run ``tableref decks``: one line per enrolled deck."""
    from vision.decks import decks_root, list_decks

    found = list_decks(args.decks_dir)
    if not found:
        print(f"no enrolled decks in {args.decks_dir or decks_root()}; "
              "run 'tableref enroll --deck NAME FOLDER'")
        return 0
    for m in found:
        print(f"{m.name}\t{sum(m.photos.values())} photos of {len(m.photos)} cards"
              f"\tmissing {len(m.missing)}\tunsure {len(m.confused)}\t{m.created}")
    return 0
