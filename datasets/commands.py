"""``tableref synth``: write a YOLO-format data set of synthetic table scenes.

Layout under ``--out``::

    data.yaml                      # path, train, val, names (the card labels)
    images/{train,val}/000000.jpg
    labels/{train,val}/000000.txt  # class cx cy w h (class x1 y1 .. x4 y4 with --obb)

Scene ``i`` is drawn from ``numpy.random.default_rng([seed, i])``, so a data set
depends only on ``--seed``, ``--count``, ``--imgsz`` and ``--val-fraction``; the
last ``round(count * val_fraction)`` scenes form the validation split.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from referee.cards import CLASSES

if TYPE_CHECKING:
    from datasets.scenes import Scene


def label_lines(scene: Scene, obb: bool = False) -> list[str]:
    """YOLO label lines of a scene, coordinates normalised to the image size."""
    h, w = scene.image.shape[:2]
    lines = []
    if obb:
        for cid, quad in zip(scene.class_ids, scene.corners):
            pts = np.clip(quad / [w, h], 0, 1).reshape(-1)
            lines.append(f"{cid} " + " ".join(f"{v:.6f}" for v in pts))
        return lines
    for cid, (x1, y1, x2, y2) in zip(scene.class_ids, scene.boxes()):
        if x2 - x1 < 2 or y2 - y1 < 2:
            continue
        lines.append(
            f"{cid} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} "
            f"{(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}"
        )
    return lines


def write_dataset(
    out: Path,
    count: int,
    seed: int,
    imgsz: int = 640,
    obb: bool = False,
    val_fraction: float = 0.05,
    progress: bool = True,
    closeups: float = 0.0,
    laid: float = 0.0,
    markers: float = 0.0,
    near: float = 0.0,
    aspect: float = 0.0,
    workers: int = 1,
) -> Path:
    """Render ``count`` scenes into a YOLO data set and return its ``data.yaml``.

    Args:
        out: output folder (created; existing files of the same names are replaced).
        count: number of images in all.
        seed: the data set's seed.
        imgsz: side of each square image in pixels.
        obb: write oriented-box labels (4 corners) instead of axis-aligned boxes.
        val_fraction: share of images placed in the validation split.
        progress: show a tqdm progress bar.
        closeups: share of card scenes showing one card close up
            (:func:`datasets.scenes.compose_scene`'s ``closeup_fraction``).
        laid: share of card scenes laying cards side by side in rows
            (``laid_fraction``).
        markers: share of scenes with the table's printed markers beside the
            cards (``marker_fraction``).
        near: share of card scenes showing one card near the camera, held up
            or photographed close (``near_fraction``).
        aspect: share of scenes cut to a frame of another shape
            (``aspect_fraction``).
        workers: processes drawing the scenes side by side (each scene depends
            on the seed and its index alone: the same files for any number).
    """
    from tqdm import tqdm

    out = Path(out).resolve()
    n_val = int(round(count * val_fraction)) if count > 1 else 0
    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    stats = {"images": 0, "cards": 0, "empty": 0}
    job = (out, count, n_val, seed, imgsz, obb,
           {"closeup_fraction": closeups, "laid_fraction": laid,
            "marker_fraction": markers, "near_fraction": near,
            "aspect_fraction": aspect})
    workers = max(1, min(int(workers), count))
    bar = tqdm(total=count, desc="synth", unit="img", disable=not progress)
    if workers > 1:
        import multiprocessing as mp

        from datasets.scene_layout import warm_textures

        if count >= 50 * workers:  # forked workers share the faces
            warm_textures(workers)
        chunks = [(job, range(k, count, workers)) for k in range(workers)]
        with mp.get_context("fork").Pool(workers) as pool:
            for part in pool.imap_unordered(_write_scenes, chunks):
                for key in stats:
                    stats[key] += part[key]
                bar.update(part["images"])
    else:
        for i in range(count):
            part = _write_scenes((job, range(i, i + 1)))
            for key in stats:
                stats[key] += part[key]
            bar.update(1)
    bar.close()
    yaml_path = out / "data.yaml"
    names = "\n".join(f"  {i}: {name}" for i, name in enumerate(CLASSES))
    yaml_path.write_text(
        f"# tableref synth --count {count} --seed {seed} --imgsz {imgsz}"
        f"{' --obb' if obb else ''} --val-fraction {val_fraction}"
        f"{f' --closeups {closeups}' if closeups else ''}"
        f"{f' --laid {laid}' if laid else ''}"
        f"{f' --markers {markers}' if markers else ''}"
        f"{f' --near {near}' if near else ''}"
        f"{f' --aspect {aspect}' if aspect else ''}\n"
        f"path: {out}\ntrain: images/train\nval: images/val\nnames:\n{names}\n"
    )
    (out / "recipe.json").write_text(
        json.dumps(
            {
                "count": count,
                "seed": seed,
                "imgsz": imgsz,
                "obb": obb,
                "val_fraction": val_fraction,
                "closeups": closeups,
                "laid": laid,
                "markers": markers,
                **({"near": near} if near else {}),
                **({"aspect": aspect} if aspect else {}),
                **stats,
            },
            indent=1,
        )
        + "\n"
    )
    return yaml_path


def _write_scenes(task: tuple) -> dict:
    """Draw and write the scenes of ``task`` (the data set's settings and the
    scene indices); returns their counts."""
    from datasets.scenes import compose_scene

    (out, count, n_val, seed, imgsz, obb, options), indices = task
    stats = {"images": 0, "cards": 0, "empty": 0}
    for i in indices:
        scene = compose_scene(np.random.default_rng([seed, i]), imgsz, **options)
        split = "val" if i >= count - n_val else "train"
        name = f"{i:06d}"
        cv2.imwrite(
            str(out / "images" / split / f"{name}.jpg"),
            scene.image,
            [cv2.IMWRITE_JPEG_QUALITY, 92],
        )
        lines = label_lines(scene, obb)
        (out / "labels" / split / f"{name}.txt").write_text(
            "".join(line + "\n" for line in lines)
        )
        stats["images"] += 1
        stats["cards"] += len(lines)
        stats["empty"] += not lines
    return stats


def synth_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``tableref synth``."""
    parser.add_argument("--out", required=True, type=Path, help="output folder")
    parser.add_argument("--count", type=int, default=1000, help="number of images")
    parser.add_argument("--seed", type=int, default=0, help="data set seed")
    parser.add_argument("--imgsz", type=int, default=640, help="image side in pixels")
    parser.add_argument("--obb", action="store_true", help="write oriented-box labels")
    parser.add_argument(
        "--val-fraction",
        type=float,
        default=0.05,
        help="share of images in the validation split",
    )
    parser.add_argument(
        "--closeups",
        type=float,
        default=0.0,
        help="share of card scenes showing one card close up (a phone photo)",
    )
    parser.add_argument(
        "--laid",
        type=float,
        default=0.0,
        help="share of card scenes with cards side by side in rows (a shown hand)",
    )
    parser.add_argument(
        "--markers",
        type=float,
        default=0.0,
        help="share of scenes with the table's printed ArUco markers (not cards)",
    )
    parser.add_argument(
        "--near",
        type=float,
        default=0.0,
        help="share of card scenes with one card near the camera (held up, or a "
        "close photo; 3-95 %% of the frame)",
    )
    parser.add_argument(
        "--aspect",
        type=float,
        default=0.0,
        help="share of scenes cut to a 4:3, 3:4, 16:9 or 9:16 frame",
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="processes drawing the scenes"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def synth(args: argparse.Namespace) -> int:
    """Run ``tableref synth``."""
    if args.count < 1:
        print("tableref synth: --count must be at least 1")
        return 2
    if not 32 <= args.imgsz <= 4096:
        print("tableref synth: --imgsz must be between 32 and 4096")
        return 2
    if not 0 <= args.val_fraction < 1:
        print("tableref synth: --val-fraction must be in [0, 1)")
        return 2
    if not 0 <= args.closeups <= 1:
        print("tableref synth: --closeups must be in [0, 1]")
        return 2
    for name in ("laid", "markers", "near", "aspect"):
        if not 0 <= getattr(args, name) <= 1:
            print(f"tableref synth: --{name} must be in [0, 1]")
            return 2
    path = write_dataset(
        args.out,
        args.count,
        args.seed,
        args.imgsz,
        args.obb,
        args.val_fraction,
        progress=not args.quiet,
        closeups=args.closeups,
        laid=args.laid,
        markers=args.markers,
        near=args.near,
        aspect=args.aspect,
        workers=args.workers,
    )
    print(f"wrote {args.count} images and {path}")
    return 0
