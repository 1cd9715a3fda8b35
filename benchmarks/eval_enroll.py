"""Deck enrollment measured on real photos: zero-shot vs K = 1 and K = 3 shots.

    python -m benchmarks.eval_enroll --tune       # the split choices are made on
    python -m benchmarks.eval_enroll              # the untouched report

Data: ``/work/shared/datasets/real-uno-dev`` (``--data``; its README). Deck A is
the deck of ``train`` and ``valid``; deck B, of ``test``, is another print, one
photo per card. Nothing learned here is kept: each enrollment is written to a
temporary folder and deleted.

- ``--same-camera`` enrolls from K of ``train``'s webcam frames of each card
  (a person enrolling through the camera they play with) and reads the other
  webcam frames, zero-shot beside it.
- ``--empties`` counts the empty backgrounds of ``train`` and ``test`` on which
  a card is found, zero-shot and after enrolling K = 3.
- ``--tune`` uses ``valid`` alone (3 phone photos per card): K = 1 photo per
  card enrolled (seeded draws, ``--repeats``), the other two read. The fine-tuning
  settings (:class:`vision.enroll.EnrollConfig`) and the zooms of the
  multi-scale pass were chosen on it.
- The report enrolls from ``valid`` (K = 1: one of the three photos per card,
  seeded draws repeated; K = 3: all three, repeated with training seeds) and reads
  the untouched ``train`` split: its phone photos on wood, its scans, and its
  webcam frames of a card held in a hand as their own row; and deck B (``test``)
  zero-shot with and without the multi-scale pass, and read by the classifier
  enrolled on deck A (an enrollment must not spoil another deck).

Each photo shows one card; the read is the largest box the detector keeps. A
photo with no box is a *miss*; a box that does not hold the card's labelled
corner index (its centre inside the box, 2 % slack) or is under 4 times that
index's area is *partial* (the dataset labels only the corner index, so the
card's whole extent is not known); otherwise the box's label is right or *wrong*.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

DATA = Path("/work/shared/datasets/real-uno-dev")


@dataclass
class Photo:
    path: Path
    label: str
    index_box: tuple[float, float, float, float]  # corner index, xyxy, pixels
    kind: str  # phone, scan, webcam, deck-b


def _label(name: str) -> str:
    if name == "draw four":
        return "wild-draw4"
    return name.replace("draw two", "draw2").replace(" ", "-")


def photos(data: Path, split: str) -> list[Photo]:
    """The photos of one card in ``split`` (empty backgrounds left out)."""
    import cv2
    import yaml

    names = yaml.safe_load((data / "source-data.yaml").read_text())["names"]
    out = []
    for image in sorted((data / "images" / split).iterdir()):
        lab = data / "labels" / split / (image.stem + ".txt")
        rows = [r.split() for r in lab.read_text().splitlines() if r.strip()] \
            if lab.is_file() else []
        if not rows:
            continue
        h, w = cv2.imread(str(image)).shape[:2]
        cx, cy, bw, bh = (float(v) for v in rows[0][1:5])
        box = ((cx - bw / 2) * w, (cy - bh / 2) * h,
               (cx + bw / 2) * w, (cy + bh / 2) * h)
        tail = image.name.split("-", 1)[-1]
        kind = ("deck-b" if split == "test" else "webcam" if tail.startswith("WIN")
                else "phone" if tail.startswith("IMG") else "scan")
        out.append(Photo(image, _label(names[int(rows[0][0])]), box, kind))
    return out


def empties(data: Path, splits: tuple[str, ...] = ("train", "test")) -> list[Path]:
    """The empty backgrounds (no card) of ``splits``."""
    out = []
    for split in splits:
        for image in sorted((data / "images" / split).iterdir()):
            lab = data / "labels" / split / (image.stem + ".txt")
            if not lab.is_file() or not lab.read_text().strip():
                out.append(image)
    return out


def false_cards(detector, paths: list[Path], zooms) -> int:  # noqa: ANN001
    """How many of the empty photos get a card."""
    import cv2

    from vision.multiscale import detect_multiscale

    return sum(len(detect_multiscale(detector, cv2.imread(str(p)), zooms)) > 0
               for p in paths)


def outcome(detector, photo: Photo, zooms) -> str:  # noqa: ANN001
    """``ok``, ``wrong``, ``partial`` or ``miss`` for one photo (module docstring)."""
    import cv2

    from vision.multiscale import detect_multiscale, largest

    frame = cv2.imread(str(photo.path))
    best = largest(detect_multiscale(detector, frame, zooms))
    if not len(best):
        return "miss"
    x1, y1, x2, y2 = best.xyxy[0]
    a1, b1, a2, b2 = photo.index_box
    h, w = frame.shape[:2]
    cx, cy = (a1 + a2) / 2, (b1 + b2) / 2
    slack_x, slack_y = 0.02 * w, 0.02 * h
    holds = (x1 - slack_x <= cx <= x2 + slack_x
             and y1 - slack_y <= cy <= y2 + slack_y)
    if not holds or (x2 - x1) * (y2 - y1) < 4 * (a2 - a1) * (b2 - b1):
        return "partial"
    return "ok" if best.labels[0] == photo.label else "wrong"


def score(detector, items: list[Photo], zooms) -> dict[str, int]:  # noqa: ANN001
    counts = {"ok": 0, "wrong": 0, "partial": 0, "miss": 0}
    for p in items:
        counts[outcome(detector, p, zooms)] += 1
    return counts


def enrolled_detector(shots, config, folder: Path):  # noqa: ANN001, ANN201
    """A detector whose classifier is fine-tuned on ``shots`` (kept in ``folder``)."""
    import torch

    from vision.detector import Detector
    from vision.enroll import fine_tune

    t0 = time.time()
    result = fine_tune(shots, config=config, progress=lambda _: None)
    path = folder / f"enrolled-{config.seed}-{len(shots)}.pt"
    torch.save(result.checkpoint, path)
    return Detector(classifier=path), time.time() - t0


def cell(counts: dict[str, int]) -> str:
    n = sum(counts.values())
    return (f"{100 * counts['ok'] / max(n, 1):5.1f} % "
            f"(m{counts['miss']} p{counts['partial']} w{counts['wrong']})")


def mean_cell(runs: list[dict[str, int]]) -> str:
    n = sum(runs[0].values())
    accs = [100 * r["ok"] / max(n, 1) for r in runs]
    tot = {k: sum(r[k] for r in runs) / len(runs) for k in runs[0]}
    return (f"{np.mean(accs):5.1f} % ±{np.std(accs):.1f} "
            f"(m{tot['miss']:.1f} p{tot['partial']:.1f} w{tot['wrong']:.1f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--tune", action="store_true", help="valid split only")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--steps", type=int, default=None)
    parser.add_argument("--lr", type=float, default=None)
    parser.add_argument("--l2sp", type=float, default=None)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--same-camera", action="store_true",
                        help="enroll from K of train's webcam frames a card, read "
                             "the other webcam frames")
    parser.add_argument("--empties", action="store_true",
                        help="only count cards found on the empty backgrounds of "
                             "train and test, zero-shot and after K = 3")
    args = parser.parse_args(argv)

    from vision.detector import Detector
    from vision.enroll import EnrollConfig, find_shots
    from vision.multiscale import ZOOMS

    config = EnrollConfig(threads=args.threads)
    for key in ("steps", "lr", "l2sp"):
        if getattr(args, key) is not None:
            config = replace(config, **{key: getattr(args, key)})
    print(f"enrollment: {config}")
    print(f"zooms of the multi-scale pass: {ZOOMS}")
    base = Detector()
    if args.same_camera:
        valid = [p for p in photos(args.data, "train") if p.kind == "webcam"]
    else:
        valid = photos(args.data, "valid")
    by_label: dict[str, list[Photo]] = {}
    for p in valid:
        by_label.setdefault(p.label, []).append(p)
    shots_all = {}
    for label, items in by_label.items():
        found = find_shots({label: [p.path for p in items]}, base,
                           progress=lambda _: None)
        shots_all[label] = list(zip(items, found))
    missed = sum(s.box is None for v in shots_all.values() for _, s in v)
    pool = "train webcam" if args.same_camera else "valid"
    print(f"enrollment photos ({pool}): {len(valid)}, no card found in {missed}")

    def draw(k: int, seed: int):
        rng = np.random.default_rng(seed)
        enrolled, rest = [], []
        for label in sorted(shots_all):
            pairs = shots_all[label]
            pick = set(rng.permutation(len(pairs))[:k].tolist())
            for i, (photo, shot) in enumerate(pairs):
                (enrolled if i in pick else rest).append((photo, shot))
        return [s for _, s in enrolled], [p for p, _ in rest]

    tmp = Path(tempfile.mkdtemp(prefix="eval-enroll-"))
    try:
        if args.empties:
            paths = empties(args.data)
            shots, _ = draw(3, 0)
            det, _ = enrolled_detector(shots, config, tmp)
            for name, d in (("zero-shot", base), ("K=3", det)):
                for zooms in ((1.0,), ZOOMS):
                    print(f"empty backgrounds with a card, {name}, zooms {zooms}: "
                          f"{false_cards(d, paths, zooms)} of {len(paths)}", flush=True)
            return 0
        if args.same_camera:
            for k in (1, 3):
                zero, tuned = [], []
                for seed in range(args.repeats):
                    shots, rest = draw(k, seed)
                    zero.append(score(base, rest, ZOOMS))
                    det, _ = enrolled_detector(shots, replace(config, seed=seed), tmp)
                    tuned.append(score(det, rest, ZOOMS))
                    print(f"  K={k} draw {seed}: zero-shot {cell(zero[-1])}  "
                          f"enrolled {cell(tuned[-1])}", flush=True)
                print(f"webcam, enrolled from K={k} webcam frames a card, read on "
                      f"the other {sum(zero[0].values())}: zero-shot "
                      f"{mean_cell(zero)}  K={k} {mean_cell(tuned)}", flush=True)
            return 0
        if args.tune:
            zero, k1 = [], []
            for seed in range(args.repeats):
                shots, rest = draw(1, seed)
                zero.append(score(base, rest, ZOOMS))
                det, secs = enrolled_detector(shots, replace(config, seed=seed), tmp)
                k1.append(score(det, rest, ZOOMS))
                print(f"  draw {seed}: zero-shot {cell(zero[-1])}  K=1 {cell(k1[-1])}"
                      f"  ({secs:.0f} s)", flush=True)
            print(f"valid (tuning), {sum(zero[0].values())} photos a draw: "
                  f"zero-shot {mean_cell(zero)}  K=1 {mean_cell(k1)}")
            return 0
        rows = {kind: [p for p in photos(args.data, "train") if p.kind == kind]
                for kind in ("phone", "scan", "webcam")}
        rows["deck-b"] = photos(args.data, "test")
        table: dict[str, dict[str, str]] = {k: {} for k in rows}
        for kind, items in rows.items():
            table[kind]["zero, 1 zoom"] = cell(score(base, items, (1.0,)))
            table[kind]["zero, zooms"] = cell(score(base, items, ZOOMS))
            print(f"{kind}: zero-shot done", flush=True)
        times = []
        for k, seeds in ((1, range(args.repeats)), (3, range(args.repeats))):
            runs: dict[str, list] = {kind: [] for kind in rows}
            for seed in seeds:
                shots, _ = draw(k, seed)
                det, secs = enrolled_detector(shots, replace(config, seed=seed), tmp)
                times.append(secs)
                for kind, items in rows.items():
                    runs[kind].append(score(det, items, ZOOMS))
                print(f"K={k} draw {seed} done ({secs:.0f} s to enroll)", flush=True)
            for kind in rows:
                table[kind][f"K={k}"] = mean_cell(runs[kind])
        cols = list(next(iter(table.values())))
        print("\nread top-1 on untouched photos (m miss, p partial box, w wrong name);"
              " enrolled from valid (deck A)")
        print("row".ljust(14) + "n".rjust(5) + "".join(c.rjust(34) for c in cols))
        for kind, items in rows.items():
            print(kind.ljust(14) + str(len(items)).rjust(5)
                  + "".join(table[kind][c].rjust(34) for c in cols))
        print(f"enrollment time: mean {np.mean(times):.0f} s over {len(times)} runs "
              f"({args.threads} torch thread(s), shared machine)")
    finally:
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":  # pragma: no cover
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    raise SystemExit(main())
