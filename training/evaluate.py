"""Measure the card detector: real photos, synthetic held-out mAP, hard pairs.

    tableref evaluate [--real DIR] [--out REPORT.json]
    .venv/bin/python -m benchmarks.eval_detector ...   # the same code

1. real-uno-dev (``../shared/datasets/real-uno-dev``; evaluation only): per split,
   image-level identity = the top detection's label vs the image's card (its
   label file's class, mapped from ``source-data.yaml`` names to ours); colour and
   value accuracy; the share of card images with no detection; on the empty
   images (label file empty or missing) the share with any detection.
2. Synthetic held-out set (a seed never used for training): mAP50 and mAP50-95
   with Ultralytics' validator on the .pt weights.
3. Hard pairs on purpose-made synthetic single-card images: red vs yellow under
   warm light, blue vs green under a teal cast, 6 vs 9 at any rotation, skip vs
   reverse, wild vs wild-draw4.
Prints the numbers against the goals and writes a JSON report.
"""


from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np

from referee.cards import CLASSES, COLORS

ROOT = Path(__file__).resolve().parent.parent
REAL_DEFAULT = ROOT.parent / "shared" / "datasets" / "real-uno-dev"
GOALS = {
    "test_top1": 0.95,
    "valid_top1": 0.97,
    "empty_false_rate": 0.02,
    "synthetic_map50_95": 0.90,
}
HARD_PAIRS = {
    "red-vs-yellow-warm": ({"red", "yellow"}, None, "warm", "colour"),
    "blue-vs-green-teal": ({"blue", "green"}, None, "teal", "colour"),
    "6-vs-9-rotated": (None, ("6", "9"), None, "value"),
    "skip-vs-reverse": (None, ("skip", "reverse"), None, "value"),
    "wild-vs-wild-draw4": (None, ("wild", "wild-draw4"), None, "label"),
}


def source_label(name: str) -> str:
    """real-uno-dev class name (``blue draw two``, ``draw four``) -> our label."""
    words = name.strip().lower().split()
    if words == ["wild"]:
        return "wild"
    if words == ["draw", "four"]:
        return "wild-draw4"
    colour, rest = words[0], " ".join(words[1:])
    value = {"draw two": "draw2", "reverse": "reverse", "skip": "skip"}.get(rest, rest)
    label = f"{colour}-{value}"
    if label not in CLASSES:
        raise ValueError(f"cannot map real-uno-dev class {name!r}")
    return label


def read_source_names(real: Path) -> list[str]:
    """Class names of ``source-data.yaml`` in id order, as our labels."""
    import yaml

    data = yaml.safe_load((real / "source-data.yaml").read_text())
    names = data["names"]
    names = [names[i] for i in sorted(names)] if isinstance(names, dict) else names
    return [source_label(n) for n in names]


def _colour_value(label: str) -> tuple[str | None, str]:
    colour, _, value = label.partition("-")
    return (colour, value) if colour in COLORS else (None, label)


def eval_real(detector, real: Path, splits: list[str], thresholds: list[float]) -> dict:
    """Image-level identity and false detections on real-uno-dev.

    The detector runs once (at its own, lowest, threshold); each metric is then
    computed for every threshold in ``thresholds`` from the top detection.
    """
    import cv2

    names = read_source_names(real)
    report: dict = {}
    confusions: Counter = Counter()
    main_conf = max(thresholds)
    for split in splits:
        rows_out = []  # (truth or None, top label, top confidence)
        images = sorted(
            p
            for p in (real / "images" / split).iterdir()
            if p.suffix.lower() in (".jpg", ".jpeg", ".png")
        )
        for path in images:
            label_file = real / "labels" / split / f"{path.stem}.txt"
            rows = label_file.read_text().split() if label_file.exists() else []
            dets = detector.detect(cv2.imread(str(path)))
            top = (
                (dets.labels[0], float(dets.confidence[0]))
                if len(dets)
                else ("none", 0.0)
            )
            rows_out.append((names[int(rows[0])] if rows else None, *top))
        split_report: dict = {}
        for thr in sorted(thresholds, reverse=True):
            cards = [(t, g if c >= thr else "none") for t, g, c in rows_out if t]
            empties = [c >= thr and g != "none" for t, g, c in rows_out if t is None]
            n = max(len(cards), 1)
            split_report[f"conf>={thr:g}"] = {
                "card_images": len(cards),
                "top1": sum(t == g for t, g in cards) / n,
                "colour_acc": sum(
                    g != "none" and _colour_value(t)[0] == _colour_value(g)[0]
                    for t, g in cards
                )
                / n,
                "value_acc": sum(
                    g != "none" and _colour_value(t)[1] == _colour_value(g)[1]
                    for t, g in cards
                )
                / n,
                "no_detection": sum(g == "none" for _, g in cards) / n,
                "empty_images": len(empties),
                "empty_false_rate": sum(empties) / max(len(empties), 1),
            }
            if thr == main_conf:
                confusions.update(f"{t} -> {g}" for t, g in cards if t != g)
        report[split] = split_report
    report["confusions"] = confusions.most_common(15)
    report["thresholds"] = sorted(thresholds, reverse=True)
    return report


def eval_synthetic_map(
    weights: Path,
    data_root: Path,
    count: int,
    seed: int,
    imgsz: int,
    render_size: int = 320,
    laid: float = 0.0,
    near: float = 0.0,
    aspect: float = 0.0,
) -> dict:
    """mAP50 / mAP50-95 on a synthetic held-out set (rendered once, then reused).

    The set is rendered at ``render_size`` like the training sets and measured at
    the model's working size ``imgsz``; ``laid`` is the share of its card scenes
    that lay cards side by side in rows (``tableref synth --laid``).
    """
    from vision.ultralytics_setup import setup

    setup(torch_threads=2)
    out = heldout_set(data_root, count, seed, render_size, laid, near, aspect)
    yaml_path = out / "heldout.yaml"
    yaml_path.write_text(
        (out / "data.yaml").read_text().replace("val: images/val", "val: images/train")
    )
    from ultralytics import YOLO

    model = YOLO(str(weights))
    metrics = model.val(
        data=str(yaml_path),
        single_cls=len(model.names) == 1,  # the card finder: boxes only
        imgsz=imgsz,
        batch=16,
        device="cpu",
        plots=False,
        verbose=False,
        workers=0,
        project=str(ROOT / "runs"),
        name="eval-heldout",
        exist_ok=True,
    )
    return {
        "images": count,
        "seed": seed,
        "laid": laid,
        "near": near,
        "aspect": aspect,
        "map50": float(metrics.box.map50),
        "map50_95": float(metrics.box.map),
        "what": "card finder alone (boxes, any card)" if len(model.names) == 1
        else "YOLO alone (boxes + its own labels)",
    }


def heldout_set(data_root: Path, count: int, seed: int, render_size: int,
                laid: float = 0.0, near: float = 0.0, aspect: float = 0.0) -> Path:
    """The folder of a synthetic held-out set, rendered on first use (``near``,
    ``aspect``: ``tableref synth --near``, ``--aspect``)."""
    tag = ((f"-l{laid:g}" if laid else "") + (f"-n{near:g}" if near else "")
           + (f"-a{aspect:g}" if aspect else ""))
    out = data_root / f"heldout-s{seed}-n{count}-{render_size}{tag}"
    if not (out / "recipe.json").exists():
        from datasets.commands import write_dataset

        write_dataset(out, count, seed, render_size, val_fraction=0.0, laid=laid,
                      near=near, aspect=aspect)
    return out


def _true_positives(iou, same, iouv):  # noqa: ANN001, ANN202 - numpy arrays
    """(N, len(iouv)) true positives of N predictions (in confidence order)
    against the ground truth: greedy, each card matched once, same label."""
    import numpy as np

    tp = np.zeros((iou.shape[0], len(iouv)), dtype=bool)
    for k, t in enumerate(iouv):
        used = np.zeros(iou.shape[1], dtype=bool)
        for i in range(iou.shape[0]):
            cand = np.where(same[i] & ~used & (iou[i] >= t))[0]
            if len(cand):
                j = cand[np.argmax(iou[i, cand])]
                used[j] = True
                tp[i, k] = True
    return tp


#: A held-out card is "overlapped" when its box and another card's have IoU >= this.
OVERLAPPED = 0.3


def eval_detector_map(detector, data_root: Path, count: int, seed: int,
                      render_size: int = 320, laid: float = 0.0, near: float = 0.0,
                      aspect: float = 0.0) -> dict:
    """mAP50 / mAP50-95 of the whole runtime detector (boxes and card names).

    The runtime is two-stage (a one-class card finder, then the crop classifier
    names each box), so its mAP is computed from :meth:`Detector.detect` on the
    held-out images against their labels, COCO-style (IoU 0.50:0.95, greedy
    matching by confidence, Ultralytics' ``ap_per_class``).

    Also, as a breakdown (not the goal's number): the same on the cards no other
    card overlaps much (box IoU < :data:`OVERLAPPED` with every other card),
    with the overlapped cards set aside COCO's way (not counted, and a box that
    matches only one of them, IoU >= 0.5, is neither right nor wrong), and the
    share of cards that are overlapped.
    """
    import cv2
    import numpy as np
    from ultralytics.utils.metrics import ap_per_class

    from vision.detections import box_iou

    out = heldout_set(data_root, count, seed, render_size, laid, near, aspect)
    iouv = np.linspace(0.5, 0.95, 10)
    parts = {"all": ([], [], [], []), "apart": ([], [], [], [])}
    overlapped = cards = 0
    for img_path in sorted((out / "images" / "train").glob("*.jpg")):
        img = cv2.imread(str(img_path))
        h, w = img.shape[:2]
        lab = out / "labels" / "train" / (img_path.stem + ".txt")
        rows = [r.split() for r in lab.read_text().splitlines() if r.strip()] \
            if lab.exists() else []
        gcls = np.array([int(r[0]) for r in rows], dtype=int)
        g = np.array([[float(v) for v in r[1:5]] for r in rows]).reshape(-1, 4)
        gxyxy = np.stack([(g[:, 0] - g[:, 2] / 2) * w, (g[:, 1] - g[:, 3] / 2) * h,
                          (g[:, 0] + g[:, 2] / 2) * w, (g[:, 1] + g[:, 3] / 2) * h], 1)
        between = box_iou(gxyxy, gxyxy)
        np.fill_diagonal(between, 0.0)
        apart = between.max(axis=1, initial=0.0) < OVERLAPPED
        cards += len(gcls)
        overlapped += int((~apart).sum())
        dets = detector.detect(img)
        order = np.argsort(-dets.confidence)
        p, conf = dets.xyxy[order].reshape(-1, 4), dets.confidence[order]
        pcls = dets.class_id[order]
        iou = box_iou(p, gxyxy)
        same = pcls[:, None] == gcls[None, :]
        for name, keep_gt in (("all", np.ones(len(gcls), bool)), ("apart", apart)):
            tps, confs, pred_cls, target_cls = parts[name]
            sub_iou, sub_same = iou[:, keep_gt], same[:, keep_gt]
            keep_p = np.ones(len(p), bool)
            if name == "apart" and (~keep_gt).any():
                # a box on a card set aside only: not counted either way
                near_kept = sub_iou.max(axis=1, initial=0.0) >= 0.5
                keep_p = near_kept | (iou[:, ~keep_gt].max(axis=1) < 0.5)
            tps.append(_true_positives(sub_iou[keep_p], sub_same[keep_p], iouv))
            confs += list(conf[keep_p])
            pred_cls += list(pcls[keep_p])
            target_cls += list(gcls[keep_gt])
    result = {"images": count, "seed": seed, "laid": laid, "near": near, "aspect": aspect,
              "what": "runtime detector (boxes + names)",
              "overlapped_share": overlapped / max(cards, 1)}
    for name, (tps, confs, pred_cls, target_cls) in parts.items():
        tp_all = np.concatenate(tps) if tps else np.zeros((0, 10), dtype=bool)
        res = ap_per_class(
            tp_all, np.array(confs), np.array(pred_cls), np.array(target_cls)
        )
        ap = res[5]
        key = "" if name == "all" else "apart_"
        result[key + "map50"] = float(ap[:, 0].mean())
        result[key + "map50_95"] = float(ap.mean())
    return result


def eval_hard_pairs(detector, per_class: int, seed: int, imgsz: int) -> dict:
    """Accuracy on purpose-made images of each known hard pair."""
    from datasets.scenes import compose_single

    report = {}
    for k, (name, (colours, values, cast, _)) in enumerate(HARD_PAIRS.items()):
        if colours is not None:
            labels = [lab for lab in CLASSES if _colour_value(lab)[0] in colours]
        else:
            labels = [lab for lab in CLASSES if _colour_value(lab)[1] in values]
        rng = np.random.default_rng([seed, k])
        total = correct = pair_swaps = 0
        swaps: Counter = Counter()
        for i in range(per_class * 2):
            label = labels[int(rng.integers(len(labels)))]
            angle = float(rng.uniform(-np.pi, np.pi)) if values else None
            scene = compose_single(rng, label, imgsz, cast=cast, angle=angle)
            dets = detector.detect(scene.image)
            guess = dets.labels[0] if len(dets) else "none"
            total += 1
            correct += guess == label
            tc, tv = _colour_value(label)
            gc, gv = _colour_value(guess)
            swapped = (colours is not None and gc in colours and gc != tc) or (
                values is not None and gv in values and gv != tv
            )
            pair_swaps += swapped
            if guess != label:
                swaps[f"{label} -> {guess}"] += 1
        report[name] = {
            "images": total,
            "top1": correct / total,
            "pair_swap_rate": pair_swaps / total,
            "worst": swaps.most_common(3),
        }
    return report
