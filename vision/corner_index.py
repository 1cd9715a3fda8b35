"""A reader of a card's corner index: the symbol printed small in its corners.

A card held in a hand shows its corner indices (a fan hides the rest); the crop
classifier reads the whole card's box squeezed to 64 pixels, where an index is
a few pixels tall. This reader cuts the box's top-left corner (and its
bottom-right corner turned half round: the card's other index, upright either
way up) from the frame at its own resolution and names the symbol (0-9, skip, reverse, draw
two, wild, wild draw four, shuffle; no colour) with a small network trained on
the renderer's cards (:mod:`datasets.corner_crops`,
``python -m training.corner_index``).

:func:`fuse` weighs the crop classifier's card probabilities by the reader's
symbol probabilities: ``p(card) * p(symbol of card) ** weight``, renormalised.
The still-photo read of one card (:func:`vision.multiscale.read_turned`) uses
it where :data:`vision.multiscale.CORNER` is above 0 (1 by default); the live
path does not. :func:`adapt` fits the reader to an enrolled deck's own print
(:data:`vision.enroll.ADAPT_CORNER`, off by default); :func:`attach` gives a
detector its deck's reader.

    from vision.corner_index import CornerReader
    reader = CornerReader.load()              # models/uno-corner.pt
    sym = reader.symbol_probs(frame, xyxy)    # (len(SYMBOLS),)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

#: The symbols the reader names, in its output order (a wild-custom card's index
#: is the wild's four-colour oval: read as ``wild``).
SYMBOLS: tuple[str, ...] = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
                            "skip", "reverse", "draw2", "wild", "wild-draw4",
                            "wild-shuffle")
#: The corner of a card's box cut for the reader, as shares of the box's width
#: and height (x0, y0, x1, y1): its top-left, where the index lies with the
#: card turned up to about 20 degrees either way.
REGION: tuple[float, float, float, float] = (-0.03, -0.03, 0.55, 0.38)
#: The reader's input (width, height) in pixels.
INPUT: tuple[int, int] = (48, 48)
#: The shipped weights.
MODEL = Path(__file__).resolve().parent.parent / "models" / "uno-corner.pt"


#: The colours of a card label whose index the reader knows.
COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue")


def symbol_of(label: str) -> str | None:
    """The symbol a UNO card label's index shows (``red-7`` -> ``7``,
    ``wild-custom`` -> ``wild``); ``None`` for a label the reader does not know
    (another deck's cards, ``no card``)."""
    if label.startswith("wild"):
        sym = "wild" if label == "wild-custom" else label
    else:
        colour, _, sym = label.partition("-")
        if colour not in COLOURS:
            return None
    return sym if sym in SYMBOLS else None


def symbol_index(label: str) -> int:
    """:data:`SYMBOLS`' index of ``label``'s symbol (ValueError for a label the
    reader does not know)."""
    sym = symbol_of(label)
    if sym is None:
        raise ValueError(f"the corner-index reader knows no symbol of {label!r}")
    return SYMBOLS.index(sym)


def corner(frame: np.ndarray, xyxy, size: tuple[int, int] = INPUT,  # noqa: ANN001
          region: tuple[float, float, float, float] = REGION) -> np.ndarray:
    """The box ``xyxy``'s :data:`REGION` of ``frame`` resized to ``size`` (w, h);
    outside the frame: black."""
    import cv2

    x1, y1, x2, y2 = (float(v) for v in np.asarray(xyxy).reshape(4))
    w, h = max(x2 - x1, 1.0), max(y2 - y1, 1.0)
    rx0, ry0 = x1 + region[0] * w, y1 + region[1] * h
    rx1, ry1 = x1 + region[2] * w, y1 + region[3] * h
    sx, sy = size[0] / (rx1 - rx0), size[1] / (ry1 - ry0)
    k = 1.0 / min(sx, sy)
    sigma = 0.45 * k if k > 1.3 else 0.0  # average the pixels down (as INTER_AREA)
    # only the region's pixels (and the blur's reach) are worked on
    fh, fw = frame.shape[:2]
    pad = 3 * sigma + 2
    px0, py0 = max(0, int(np.floor(rx0 - pad))), max(0, int(np.floor(ry0 - pad)))
    px1, py1 = min(fw, int(np.ceil(rx1 + pad))), min(fh, int(np.ceil(ry1 + pad)))
    if px1 <= px0 or py1 <= py0:
        return np.zeros((size[1], size[0], 3), np.uint8)
    patch = np.ascontiguousarray(frame[py0:py1, px0:px1])
    if sigma > 0:
        patch = cv2.GaussianBlur(patch, (0, 0), sigma)
    m = np.float32([[sx, 0, -(rx0 - px0) * sx], [0, sy, -(ry0 - py0) * sy]])
    return cv2.warpAffine(patch, m, size, flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))


def views(frame: np.ndarray, xyxy, turn_aspect: float | None = 1.2  # noqa: ANN001
          ) -> np.ndarray:
    """The reader's views of a card's box: its top-left corner and that of the
    frame turned half round (the other corner's index, upright). A box at
    least ``turn_aspect`` times as wide as high (a card lying sideways) is read
    from the frame turned a quarter either way (four views). (N, h, w, 3)."""
    x1, y1, x2, y2 = (float(v) for v in np.asarray(xyxy).reshape(4))
    h, w = frame.shape[:2]
    frames = [(frame, (x1, y1, x2, y2))]
    if turn_aspect is not None and x2 - x1 >= turn_aspect * (y2 - y1):
        left = np.ascontiguousarray(np.rot90(frame, 1))
        right = np.ascontiguousarray(np.rot90(frame, 3))
        frames = [(left, (y1, w - x2, y2, w - x1)), (right, (h - y2, x1, h - y1, x2))]
    out = []
    for img, (a1, b1, a2, b2) in frames:
        ih, iw = img.shape[:2]
        out.append(corner(img, (a1, b1, a2, b2)))
        turned = img[::-1, ::-1]
        out.append(corner(turned, (iw - a2, ih - b2, iw - a1, ih - b1)))
    return np.stack(out)


def prepare(crops: np.ndarray):  # noqa: ANN201
    """(N, h, w, 3) uint8 BGR crops -> (N, 1, h, w) float tensor: each pixel's
    least channel (an index's white glyph stays bright on a face of any
    colour, which turns dark in one channel at least; colour is the
    classifier's), each crop scaled to zero mean and unit spread (a cast or
    exposure changes nothing)."""
    import torch

    t = torch.from_numpy(np.ascontiguousarray(crops)).float() / 255
    m = t.min(-1).values[:, None]
    return (m - m.mean((2, 3), keepdim=True)) / (m.std((2, 3), keepdim=True) + 0.05)


def corner_net(n: int = len(SYMBOLS), width: int = 16):  # noqa: ANN201
    """The reader's network: six 3x3 convolutions (three of stride 2) with batch
    norm, global average pooling and a linear head; :func:`prepare`'s one
    channel in, ``n`` logits out."""
    from torch import nn

    chans = [1, width, int(width * 1.5), 2 * width, 3 * width, 4 * width, 6 * width]
    layers: list = []
    for i in range(6):
        layers += [nn.Conv2d(chans[i], chans[i + 1], 3, stride=2 if i % 2 else 1,
                             padding=1, bias=False),
                   nn.BatchNorm2d(chans[i + 1]), nn.ReLU(inplace=True)]
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.1),
               nn.Linear(chans[-1], n)]
    return nn.Sequential(*layers)


class CornerReader:
    """The corner-index reader: :func:`corner_net` with its trained weights."""

    def __init__(self, net, symbols: tuple[str, ...] = SYMBOLS) -> None:  # noqa: ANN001
        self.net = net.eval()
        self.symbols = tuple(symbols)

    @classmethod
    def load(cls, path: Path | str | None = None) -> CornerReader:
        import torch

        ckpt = torch.load(str(path or MODEL), map_location="cpu", weights_only=False)
        return cls.from_checkpoint(ckpt, str(path or MODEL))

    @classmethod
    def from_checkpoint(cls, ckpt: dict, source: str = "the checkpoint"
                        ) -> CornerReader:
        """The reader of a checkpoint dict (:meth:`checkpoint`'s format, that
        of ``models/uno-corner.pt``)."""
        for key, want in (("input", INPUT), ("region", REGION)):
            if key in ckpt and tuple(ckpt[key]) != tuple(want):
                raise ValueError(
                    f"{source} was trained on corner crops with {key} "
                    f"{tuple(ckpt[key])}, this code cuts {tuple(want)}: train it "
                    "again (python -m training.corner_index)")
        net = corner_net(len(ckpt["symbols"]), int(ckpt.get("width", 16)))
        net.load_state_dict(ckpt["state"])
        return cls(net, tuple(ckpt["symbols"]))

    def checkpoint(self) -> dict:
        """The reader's weights as a checkpoint dict (:meth:`from_checkpoint`)."""
        width = int(self.net[0].out_channels)
        return {"state": {k: v.detach().clone() for k, v in self.net.state_dict().items()},
                "symbols": list(self.symbols), "width": width, "input": list(INPUT),
                "region": list(REGION)}

    def read(self, crops: np.ndarray) -> np.ndarray:
        """Symbol probabilities of (N, h, w, 3) uint8 BGR crops: (N, symbols)."""
        import torch

        with torch.inference_mode():
            return torch.softmax(self.net(prepare(crops)), 1).numpy().astype(float)

    def symbol_probs(self, frame: np.ndarray, xyxy) -> np.ndarray:  # noqa: ANN001
        """The mean symbol probabilities of the box's :func:`views`."""
        return self.read(views(frame, xyxy)).mean(axis=0)


def fuse(card_probs: np.ndarray, labels, symbol_probs: np.ndarray,  # noqa: ANN001
         weight: float, symbols: tuple[str, ...] = SYMBOLS) -> np.ndarray:
    """``card_probs`` (over ``labels``) times each label's symbol probability to
    the power ``weight``, summing to what ``card_probs`` summed to (0 where a
    card had 0). A label whose symbol the reader does not know is left as it
    is."""
    card_probs = np.asarray(card_probs, float)
    factor = np.ones(len(card_probs))
    for i, lab in enumerate(labels[: len(card_probs)]):
        sym = symbol_of(str(lab))
        if sym in symbols:
            factor[i] = max(float(symbol_probs[symbols.index(sym)]), 1e-6) ** weight
    out = card_probs * factor
    total = out.sum()
    return out * (card_probs.sum() / total) if total > 0 else card_probs


@dataclass(frozen=True)
class AdaptConfig:
    """How :func:`adapt` fits the reader to an enrolled deck's print.

    Attributes:
        views: corner crops drawn from each enrollment photo's card.
        steps: optimizer steps.
        batch: crops a step.
        lr: AdamW learning rate at the start (cosine decay to 0).
        l2sp: weight of the squared distance of the weights to the starting ones.
        turn: the most a view's card is turned (degrees).
        squeeze: the most one side of a view's card is shortened.
        shift: a batch's crops moved by up to this many pixels each way.
        seed: seed of the views and the batches.
    """

    views: int = 24
    steps: int = 150
    batch: int = 64
    lr: float = 1e-3
    l2sp: float = 0.01
    turn: float = 30.0
    squeeze: float = 0.4
    shift: int = 3
    seed: int = 0


def adapt(reader: CornerReader, cards: Sequence[tuple[np.ndarray, str]],
          config: AdaptConfig = AdaptConfig(),
          progress: Callable[[str], None] | None = None) -> CornerReader:
    """``reader`` fine-tuned on the corner indices of a deck's own cards: each of
    ``cards`` (a photo's card face, :func:`datasets.corner_crops.card_face`, and
    its label) drawn :attr:`AdaptConfig.views` times as a card held before a
    webcam (:func:`datasets.corner_crops.corner_crop`: turned, tilted, at a
    webcam's resolution, fingers, light, blur, noise, JPEG) and learned for a
    few steps, kept close to the starting weights (an L2-SP pull; batch-norm
    statistics as they were). A card whose label has no index the reader knows
    is left out; with none left the reader comes back unchanged. A new reader
    (``reader`` is not changed)."""
    import copy

    import torch

    from datasets.corner_crops import corner_crop

    rng = np.random.default_rng(config.seed)
    xs, ys = [], []
    for face, label in cards:
        sym = symbol_of(str(label))
        if sym is None or sym not in reader.symbols:
            continue
        for _ in range(config.views):
            x, _ = corner_crop(rng, str(label), face, config.turn, config.squeeze)
            xs.append(x)
            ys.append(reader.symbols.index(sym))
    if not xs:
        return reader
    xt = prepare(np.stack(xs))
    yt = torch.tensor(ys, dtype=torch.long)
    net = copy.deepcopy(reader.net).eval()  # batch-norm statistics stay as they are
    params = [p for p in net.parameters() if p.requires_grad]
    anchor = [p.detach().clone() for p in params]
    opt = torch.optim.AdamW(params, lr=config.lr, weight_decay=0.0)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, max(1, config.steps))
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    gen = torch.Generator().manual_seed(config.seed)
    for step in range(config.steps):
        idx = torch.randint(len(xt), (min(config.batch, len(xt)),), generator=gen)
        batch = xt[idx]
        if config.shift:
            dx, dy = (int(v) for v in torch.randint(-config.shift, config.shift + 1, (2,),
                                                    generator=gen))
            batch = torch.roll(batch, (dy, dx), (2, 3))
        loss = loss_fn(net(batch), yt[idx])
        pull = sum(((p - a) ** 2).sum() for p, a in zip(params, anchor))
        (loss + config.l2sp * pull).backward()
        opt.step()
        opt.zero_grad()
        sched.step()
        if progress is not None and ((step + 1) % 50 == 0 or step + 1 == config.steps):
            progress(f"corner reader: step {step + 1}/{config.steps} "
                     f"loss {loss.item():.3f}")
    return CornerReader(net.eval(), reader.symbols)


def attach(detector, checkpoint: dict | str | Path):  # noqa: ANN001, ANN201
    """``detector`` with the corner-index reader of an enrolled deck's
    checkpoint (a dict or its file; its ``corner`` entry,
    :data:`vision.enroll.ADAPT_CORNER`) set as ``detector.corner_reader``, which
    the still-photo read weighs by (:func:`vision.multiscale._corner_weighed`),
    and its enrolled card faces (``faces``, :data:`vision.enroll.KEEP_FACES`)
    as ``detector.faces`` (label -> list of (H, W, 3) uint8 arrays,
    :func:`vision.multiscale._face_weighed`); a checkpoint without them leaves
    the detector as it is. Returns the detector."""
    if not isinstance(checkpoint, dict):
        import torch

        checkpoint = torch.load(str(checkpoint), map_location="cpu", weights_only=False)
    corner = checkpoint.get("corner")
    if corner is not None:
        detector.corner_reader = CornerReader.from_checkpoint(corner, "the deck's reader")
    faces = checkpoint.get("faces")
    if faces:
        detector.faces = {label: [np.asarray(f, np.uint8) for f in items]
                          for label, items in faces.items()}
    return detector
