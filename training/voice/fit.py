"""Train a spotter network, join networks into an ensemble, save and tune them."""

from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path

import numpy as np

from voice.kws import CLASSES, COLOUR_CLASSES, WINDOW_FRAMES, build_model

from .colours import BANK_FILE as COLOUR_BANK_FILE
from .colours import COLOURS, make_colour_bank
from .mixing import Mixer, long_talk_beds, make_noise
from .speech import BANK_FILE, make_bank
from .tuning import tune, tune_colours, validation_streams


def _colours(args: argparse.Namespace) -> bool:
    return getattr(args, "words", "uno") == "colours"


def _classes(args: argparse.Namespace) -> tuple[str, ...]:
    return COLOUR_CLASSES if _colours(args) else CLASSES


def load_bank(args: argparse.Namespace) -> dict:
    """The speech bank of the words trained (``--words``), made or loaded."""
    if _colours(args):
        return make_colour_bank(Path(args.data) / COLOUR_BANK_FILE, args.seed)
    return make_bank(Path(args.data) / BANK_FILE, args.seed)

def train(args: argparse.Namespace) -> int:
    """Build the banks, train, tune the threshold, save the model."""
    import torch

    torch.set_num_threads(1)
    member = args.seed if args.member_seed is None else args.member_seed
    torch.manual_seed(member)
    data = Path(args.data)
    bank_file = COLOUR_BANK_FILE if _colours(args) else BANK_FILE
    if shutil.which("espeak-ng") is None and not (data / bank_file).is_file():
        print("training.voice: espeak-ng is not installed (apt-get install espeak-ng)")
        return 2
    bank = load_bank(args)
    classes = _classes(args)
    keywords = COLOURS if _colours(args) else ("calls",)
    noise = make_noise(np.random.default_rng(args.seed), bank["train_talk"])
    if args.talk_beds:
        # longer babble and crowd, drawn for this member from the training talk
        noise.update(long_talk_beds(np.random.default_rng(member + 1000),
                                    bank["train_talk"], args.talk_beds))
    val_noise = make_noise(np.random.default_rng(args.seed + 1), bank["val_talk"])
    mixer = Mixer(bank, noise, "train", member, args.after_talk, args.chatter,
                  args.babble_negatives, keywords,
                  low_snr=getattr(args, "low_snr", 0.0),
                  stretch=getattr(args, "stretch", 0.0),
                  overlap=getattr(args, "overlap", 0.0),
                  overlap_after=getattr(args, "overlap_after", 0.0),
                  low_band=getattr(args, "low_snr_band", None) or (0.0, 12.0))
    val_x, val_y = Mixer(bank, val_noise, "val", args.seed + 2,
                         keywords=keywords).batch(1500, False)
    model = build_model(width=args.width, classes=len(classes))
    if getattr(args, "init", None):  # go on from a trained network's weights
        model.load_state_dict(torch.load(args.init, map_location="cpu",
                                         weights_only=True)["state"])
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=args.steps,
                                                pct_start=0.05)
    # a missed call costs less than a call heard in talk: weight speech up
    weight = [1.0] * (len(classes) - 2) + [1.5, 1.0]
    loss_fn = torch.nn.CrossEntropyLoss(weight=torch.tensor(weight),
                                        label_smoothing=0.02)
    t0 = time.time()
    cpu0 = time.process_time()
    for step in range(1, args.steps + 1):
        model.train()
        x, y = mixer.batch(args.batch)
        loss = loss_fn(model(torch.from_numpy(x)), torch.from_numpy(y))
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 250 == 0 or step == args.steps:
            model.eval()
            with torch.inference_mode():
                pred = model(torch.from_numpy(val_x)).argmax(1).numpy()
            acc = [(pred[val_y == c] == c).mean() for c in range(len(classes))]
            print(f"step {step}: loss {loss.item():.3f}, validation recall " +
                  ", ".join(f"{n} {100 * a:.1f}%" for n, a in zip(classes, acc)) +
                  f" ({time.time() - t0:.0f} s, CPU {time.process_time() - cpu0:.0f}"
                  " s)", flush=True)
            _save(model, args, step, Path(args.out))
    _tune_and_save(args, bank, val_noise)
    return 0


def _tune_and_save(args: argparse.Namespace, bank: dict, val_noise: dict) -> None:
    """Tune the model (or ensemble) in ``args.out`` on the validation streams and
    write the setting into its file (the weights stay as they are)."""
    import torch

    from voice.kws import KwsModel

    if _colours(args):
        streams = validation_streams(bank, val_noise, args.seed + 3,
                                     keywords=COLOURS)
        tuned = tune_colours(KwsModel(args.out, COLOUR_CLASSES), streams)
    else:
        streams = validation_streams(bank, val_noise, args.seed + 3)
        tuned = tune(KwsModel(args.out), streams)
    best = tuned["best"]
    blob = torch.load(args.out, map_location="cpu", weights_only=True)
    blob["meta"].update(threshold=best["threshold"], min_hits=best["min_hits"],
                        validation=best)
    torch.save(blob, args.out)
    print(f"saved {args.out}: threshold {best['threshold']}, min_hits "
          f"{best['min_hits']} (validation: {json.dumps(best)})")


def retune(args: argparse.Namespace) -> int:
    """Tune the threshold of an already trained model again (``--tune-only``)."""
    import torch

    torch.set_num_threads(1)
    bank = load_bank(args)
    val_noise = make_noise(np.random.default_rng(args.seed + 1), bank["val_talk"])
    _tune_and_save(args, bank, val_noise)
    return 0


def ensemble(args: argparse.Namespace) -> int:
    """Join trained models of one shape into an ensemble in ``args.out`` (the
    members' window probabilities are averaged) and tune its threshold on the
    validation streams of ``--seed``. The members must share that speech bank
    and split (trained with the same ``--seed``; ``--member-seed`` differs)."""
    import torch

    from voice.kws import KwsModel

    torch.set_num_threads(1)
    members = [KwsModel(path, _classes(args)) for path in args.ensemble]
    arch = members[0].meta.get("arch", {})
    for m in members:
        if m.meta.get("arch", {}) != arch or m.meta.get("seed") != args.seed:
            print(f"training.voice: {m.path} is not a member of this ensemble (arch "
                  f"{m.meta.get('arch')}, seed {m.meta.get('seed')}; want {arch}, "
                  f"seed {args.seed})")
            return 2
    meta = {k: v for k, v in members[0].meta.items()
            if k not in ("threshold", "min_hits", "validation", "member_seed")}
    meta["members"] = [{"file": Path(m.path).name,
                        "member_seed": m.meta.get("member_seed", m.meta.get("seed")),
                        "after_talk": m.meta.get("after_talk", 0.0),
                        "chatter": m.meta.get("chatter", 0.0),
                        "babble_negatives": m.meta.get("babble_negatives", 0.0),
                        "talk_beds": m.meta.get("talk_beds", 0.0),
                        "steps": m.meta.get("steps")} for m in members]
    states = [net.state_dict() for m in members for net in m.models]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    torch.save({"meta": meta, "states": states}, args.out)
    bank = load_bank(args)
    val_noise = make_noise(np.random.default_rng(args.seed + 1), bank["val_talk"])
    _tune_and_save(args, bank, val_noise)
    return 0


def _save(model, args: argparse.Namespace, step: int, out: Path) -> None:
    """The network and its recipe (the threshold is added by tuning)."""
    import torch

    width = getattr(args, "width", 64)
    arch = {} if width == 64 else {"width": width}
    meta = {"classes": list(_classes(args)), "arch": arch, "seed": args.seed, "steps": step,
            "batch": args.batch, "lr": args.lr, "window_frames": WINDOW_FRAMES}
    if getattr(args, "member_seed", None) is not None:
        meta["member_seed"] = args.member_seed
    if getattr(args, "after_talk", 0.0):
        meta["after_talk"] = args.after_talk
    if getattr(args, "chatter", 0.0):
        meta["chatter"] = args.chatter
    if getattr(args, "babble_negatives", 0.0):
        meta["babble_negatives"] = args.babble_negatives
    if getattr(args, "talk_beds", 0.0):
        meta["talk_beds"] = args.talk_beds
    if getattr(args, "init", None):
        meta["init"] = Path(args.init).name
    for key in ("low_snr", "stretch", "overlap", "overlap_after"):
        if getattr(args, key, 0.0):
            meta[key] = getattr(args, key)
    if getattr(args, "low_snr", 0.0) and getattr(args, "low_snr_band", None):
        meta["low_snr_band"] = list(args.low_snr_band)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"meta": meta, "state": model.state_dict()}, out)
