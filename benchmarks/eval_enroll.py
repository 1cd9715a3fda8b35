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
  card enrolled (``--k``; seeded draws, ``--repeats`` from ``--first-seed``), the
  other two read. The fine-tuning settings (:class:`vision.enroll.EnrollConfig`)
  and the zooms of the multi-scale pass were chosen on it. ``valid`` read as it
  is is saturated (zero-shot and K = 1 read every photo), so ``--webcam-like``
  also reads each of those photos once more through :func:`webcam_like`
  (closer, a thumb over it, a colour cast, motion blur, a soft noisy JPEG): a
  proxy for a card held before a webcam made from the tuning split alone; the
  held-card views of the enrollment (``EnrollConfig.held``) were chosen on it.
  ``--harsh`` reads them through :func:`webcam_harsh` as well (farther or
  closer, a hand over the card, a strong cast, longer blur, a lower
  resolution): a harder proxy, on which valid's webcam-like read is no longer
  near saturation. ``--held-like`` reads them through :func:`webcam_held`: the
  card alone (its finder box in the photo) filling 60-95 % of a webcam frame
  before a person, turned and tilted, held by a hand, with a strong cast,
  blur, noise and JPEG (the closest proxy of the webcam row made from ``valid``;
  the enrollment's scene views, hand share and learning rate,
  ``EnrollConfig.scene``, ``hand``, ``lr``, were chosen on it: ``--scene``,
  ``--tilt``, ``--hand``, ``--lr``). ``--held-far`` reads them through
  :func:`webcam_far`: the same scene with the card held at arm's length
  (22-55 % of the frame's height, turned up to 30 degrees, one side up to
  40 % shorter, fingers over a third of it, the frame taken at 18-40 % of its
  size, longer blur, a coarse JPEG): the proxy of the webcam row whose reads
  refuse cards and misname digits (6/0, 3/8, Draw Two/Reverse) as that row
  does; the enrollment's far views (``EnrollConfig.far``, ``--far``) and the
  tighter re-read of an unsure upright box
  (:data:`vision.multiscale.TIGHT_VIEWS`, ``--tight``) were tried on it (both
  off by default: they lifted it, but not the real photos); the enrollment's
  webcam views (``EnrollConfig.webcam``, ``--webcam``: scene views drawn and
  spoilt at the finder box's size in a webcam frame) were weighed on it and on
  ``--held-like``.
  ``--scan-like`` reads them through
  :func:`scan_like`: the card alone on black, any way round, filling 70-100 %
  of the frame (the proxy of the scans row: a box of most of the card that
  misses its corner index is partial; :data:`vision.multiscale.WIDER` was
  chosen on it).
  ``--confusions`` splits each enrolled read's wrong names
  (:func:`confusion_kind`: the right symbol in the wrong colour, the right
  colour of a wrong symbol, both, or a wild) beside its refusals and misses,
  and lists the pairs (``truth>said``); in the report it splits the enrolled
  rows the same way. ``--dump DIR`` writes every enrolled tuning read that
  names a box (frame, kept box, label, name, card probabilities) under
  ``DIR/draw<seed>/`` for offline study of the read.
  Three options of the read are on by default, chosen together on the held
  proxies (each alone gained less): ``--corner W`` weighs the kept box's
  reading by its corner index's symbol (:data:`vision.multiscale.CORNER`, 1;
  :mod:`vision.corner_index`; ``--corner-model`` other weights; 0: off),
  ``--recolour 1`` reads the kept box's colour again from its pixels
  (:data:`vision.multiscale.RECOLOUR`, :mod:`vision.card_colour`; 0: off) and
  ``--balance 1`` names it from its crop white-balanced
  (:data:`vision.multiscale.BALANCE`; 0: off). ``--corner-adapt 1`` fits the
  corner reader to each enrollment's photos as well
  (:data:`vision.enroll.ADAPT_CORNER`, the deck's own print; off).
  ``--faces S`` weighs an upright kept box's likeliest names of one colour by
  how well each one's enrolled photo, drawn at the box's own size, matches the
  box (:mod:`vision.face_match`, :data:`vision.multiscale.FACES`; off).
  ``--rectify W`` names the kept box from the mean of its reading and that of
  the card's outline warped upright (:mod:`vision.rectify`) at weight ``W``.
  ``--variants N`` reads each photo N times that way (other seeds). ``--forget N``
  also reads N rendered crops of every label zero-shot and enrolled
  (:func:`rendered_accuracy`): the tuning proxy of damage to other cameras and
  decks (``EnrollConfig.replay`` was weighed on it). ``--tune --empties``
  counts cards on ``valid``'s empty backgrounds, with the still-photo rules of
  :mod:`vision.multiscale` (``--retry-conf``, ``--refused-floor``,
  ``--card-share``, ``--window-share``) off and on.
- The report enrolls from ``valid`` (K = 1: one of the three photos per card,
  seeded draws repeated; K = 3: all three, repeated with training seeds) and reads
  the untouched ``train`` split: its phone photos on wood, its scans, and its
  webcam frames of a card held in a hand as their own row; and deck B (``test``)
  zero-shot with and without the multi-scale pass, and read by the classifier
  enrolled on deck A (an enrollment must not spoil another deck). ``--rows``
  reads only some of those rows (``--rows webcam --ks 3``: the held cards
  after K = 3 alone).

Every detector of a run uses the still-photo finder (``detector.photo_model``,
as ``tableref detect`` and enrollment do); ``--model FINDER`` another card
finder (the live one: ``models/uno-yolo11n_openvino_model``).
``--classifier CKPT`` starts the zero-shot reads and every enrollment from a
candidate crop classifier instead of the shipped one (a retrained recipe is
weighed on the same tuning reads).

Each photo shows one card; the read is the largest box the detector keeps,
widened to the finder's whole-card box when it is a part of one
(:func:`vision.multiscale.whole_card`; ``--no-whole``: as it is), named again
from the photo turned a quarter either way when the box lies sideways
(:func:`vision.multiscale.read_turned`; ``--turn-aspect 0``: as it is). A
photo with no box is a *miss* when the finder boxes nothing at any zoom and
*refused* when every box it draws is called "no card" (or under the
confidence); a box that
does not hold the card's labelled corner index (its centre inside the box, 2 %
slack) or is under 4 times that index's area is *partial* (the dataset labels
only the corner index, so the card's whole extent is not known); otherwise the
box's label is right or *wrong*.
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
    """How many of the empty photos get a card read as a photo of one card
    (:func:`vision.multiscale.read_card`: any named box, or a refused finder box
    named by :func:`vision.multiscale.name_refused`)."""
    import cv2

    from vision.decks import CardFinder
    from vision.multiscale import read_card

    finder = CardFinder(detector)
    return sum(len(read_card(detector, cv2.imread(str(p)), zooms, finder)) > 0
               for p in paths)


#: Read a photo's card as :func:`vision.multiscale.read_card` does: a named part
#: of a card widened to the finder's whole-card box (``--no-whole``: the largest
#: named box as it is).
WHOLE = True
_FINDER_BOXES: dict = {}


def webcam_like(
    frame: np.ndarray, seed: int, index_box: tuple[float, float, float, float],
) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A phone photo made to look more like a webcam frame of a held card (the
    tuning proxy of ``--tune --webcam-like``; its own recipe, not the
    enrollment's augmentation, sharing only the motion-blur kernel): closer (a
    window of 55-85 % of the photo that keeps the corner index, so the card may
    be cut by the frame), a thumb over it from an edge, a colour cast, exposure,
    motion blur, a softer and noisier image, JPEG. Returns the frame and the corner index's box in it."""
    import cv2

    rng = np.random.default_rng(seed)
    h, w = frame.shape[:2]
    side = float(rng.uniform(0.55, 0.85))
    cw, ch = int(w * side), int(h * side)
    a1, b1, a2, b2 = index_box
    x0 = int(rng.uniform(max(0, a2 - cw), min(w - cw, a1) + 1)) if a2 - a1 < cw else 0
    y0 = int(rng.uniform(max(0, b2 - ch), min(h - ch, b1) + 1)) if b2 - b1 < ch else 0
    x0, y0 = min(max(x0, 0), w - cw), min(max(y0, 0), h - ch)
    img = cv2.resize(frame[y0 : y0 + ch, x0 : x0 + cw], (w, h)).astype(np.float32)
    sx, sy = w / cw, h / ch
    box = ((a1 - x0) * sx, (b1 - y0) * sy, (a2 - x0) * sx, (b2 - y0) * sy)
    edge = int(rng.integers(4))
    t = rng.uniform(0.2, 0.8)
    centre = [(t * w, 0), (w, t * h), (t * w, h), (0, t * h)][edge]
    axes = (int(w * rng.uniform(0.06, 0.1)), int(h * rng.uniform(0.25, 0.45)))
    angle = [90.0, 0.0, 90.0, 0.0][edge] + float(rng.uniform(-30, 30))
    skin = tuple(float(v) for v in rng.uniform([60, 90, 140], [120, 160, 230]))
    cv2.ellipse(img, (int(centre[0]), int(centre[1])), axes, angle, 0, 360, skin, -1)
    return _webcam_finish(img, rng, ((0.6, 1.1), (0.9, 1.2), (0.7, 1.3)),
                          (0.6, 1.2), (3, 9), (0.35, 0.6), (3, 10), (30, 70)), box


def webcam_harsh(
    frame: np.ndarray, seed: int, index_box: tuple[float, float, float, float],
) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A harsher proxy than :func:`webcam_like` (``--harsh``), its own recipe:
    the photo shrunk to 45-85 % of the frame over a dark, blotchy backdrop (a
    person behind the card) or cropped closer, a hand over the card (a palm
    from an edge and two to four fingers across it, up to about a third of the
    photo), a strong colour cast and a darker or brighter exposure, longer
    motion blur, a low resolution (20-40 %), noise and a coarse JPEG. Returns the
    frame and the corner index's box in it."""
    import cv2

    rng = np.random.default_rng(seed)
    h, w = frame.shape[:2]
    a1, b1, a2, b2 = index_box
    if rng.random() < 0.5:  # farther: the photo over a backdrop
        s = float(rng.uniform(0.45, 0.85))
        sw, sh = int(w * s), int(h * s)
        base = rng.uniform(20, 90, 3)
        back = np.empty((h, w, 3), np.float32)
        back[:] = base
        blot = cv2.resize(rng.uniform(-40, 40, (4, 4, 3)).astype(np.float32), (w, h))
        img = back + blot
        x0, y0 = int(rng.integers(0, w - sw + 1)), int(rng.integers(0, h - sh + 1))
        img[y0 : y0 + sh, x0 : x0 + sw] = cv2.resize(frame, (sw, sh),
                                                       interpolation=cv2.INTER_AREA)
        box = (x0 + a1 * s, y0 + b1 * s, x0 + a2 * s, y0 + b2 * s)
    else:  # closer, as webcam_like
        side = float(rng.uniform(0.6, 0.9))
        cw, ch = int(w * side), int(h * side)
        x0 = (int(rng.uniform(max(0, a2 - cw), min(w - cw, a1) + 1))
              if a2 - a1 < cw else 0)
        y0 = (int(rng.uniform(max(0, b2 - ch), min(h - ch, b1) + 1))
              if b2 - b1 < ch else 0)
        x0, y0 = min(max(x0, 0), w - cw), min(max(y0, 0), h - ch)
        img = cv2.resize(frame[y0 : y0 + ch, x0 : x0 + cw], (w, h)).astype(np.float32)
        sx, sy = w / cw, h / ch
        box = ((a1 - x0) * sx, (b1 - y0) * sy, (a2 - x0) * sx, (b2 - y0) * sy)
    skin = tuple(float(v) for v in rng.uniform([50, 80, 120], [130, 170, 235]))
    edge = int(rng.integers(4))
    t = float(rng.uniform(0.25, 0.75))
    px, py = [(t * w, h), (0, t * h), (t * w, 0), (w, t * h)][edge]
    cv2.ellipse(img, (int(px), int(py)),
                (int(w * rng.uniform(0.12, 0.22)), int(h * rng.uniform(0.1, 0.2))),
                float(rng.uniform(0, 180)), 0, 360, skin, -1)
    toward = np.array([w / 2 - px, h / 2 - py])
    toward /= max(float(np.linalg.norm(toward)), 1e-6)
    normal = np.array([-toward[1], toward[0]])
    for f in range(int(rng.integers(2, 5))):
        start = np.array([px, py]) + normal * (f - 1.5) * w * 0.06
        reach = float(rng.uniform(0.15, 0.4)) * w
        end = start + toward * reach + normal * float(rng.uniform(-0.05, 0.05)) * w
        shade = tuple(v * float(rng.uniform(0.85, 1.05)) for v in skin)
        cv2.line(img, (int(start[0]), int(start[1])), (int(end[0]), int(end[1])),
                 shade, max(2, int(w * rng.uniform(0.035, 0.06))))
    return _webcam_finish(img, rng, ((0.6, 1.2), (0.8, 1.15), (0.65, 1.3)),
                          (0.45, 1.3), (4, 14), (0.2, 0.4), (5, 14), (20, 50)), box


def webcam_held(
    frame: np.ndarray, seed: int, index_box: tuple[float, float, float, float],
    card_box=None,  # noqa: ANN001
    fill: tuple[float, float] = (0.6, 0.95), turn: float = 20.0,
    squeeze: float = 0.25, fingers: tuple[float, float] = (0.05, 0.3),
    finish: tuple | None = None,
) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A phone photo's card made into a webcam frame of a card held up before a
    person (``--held-like``; its own recipe): the card (its finder box in the
    photo, ``card_box``, with a thin margin) turned up to 20 degrees and scaled so
    that it fills 60-95 % of the frame's height, maybe cut by an edge, over a
    person (a blurred room, a torso and a face of skin behind the card), tilted
    out of the picture's plane (one side up to a quarter shorter), held by a
    hand (a palm under an edge, a thumb and fingers over the card), sometimes a
    glare on it, then a strong colour cast and exposure, motion blur, a low
    resolution, noise and JPEG. Returns the frame and the corner index's box in it.
    ``fill`` (the card's height as a share of the frame's), ``turn`` (degrees),
    ``squeeze`` (the nearer side's most shortening), ``fingers`` (their reach, a
    share of the frame's width) and ``finish`` (:func:`_webcam_finish`'s ranges)
    set the recipe (:func:`webcam_far` draws a smaller card)."""
    import cv2

    from datasets.scene_surface import _SKINS

    rng = np.random.default_rng(seed)
    h, w = frame.shape[:2]
    if card_box is None:
        card_box = (0, 0, w, h)
    x1, y1, x2, y2 = (float(v) for v in card_box)
    m = float(rng.uniform(0.0, 0.06))
    x1, y1 = max(0.0, x1 - m * (x2 - x1)), max(0.0, y1 - m * (y2 - y1))
    x2, y2 = min(float(w), x2 + m * (x2 - x1)), min(float(h), y2 + m * (y2 - y1))
    out_w = out_h = 640
    # the backdrop: a room, a torso and a face
    base = rng.uniform(30, 160, 3)
    img = np.empty((out_h, out_w, 3), np.float32)
    img[:] = base
    img += cv2.resize(rng.uniform(-50, 50, (3, 3, 3)).astype(np.float32), (out_w, out_h))
    skin = _SKINS[rng.integers(len(_SKINS))] * rng.uniform(0.7, 1.1)
    cloth = tuple(float(v) for v in rng.uniform(10, 200, 3))
    fx = float(rng.uniform(0.3, 0.7)) * out_w
    cv2.ellipse(img, (int(fx), out_h), (int(out_w * rng.uniform(0.3, 0.5)),
                int(out_h * rng.uniform(0.3, 0.5))), 0, 180, 360, cloth, -1)
    cv2.ellipse(img, (int(fx), int(out_h * rng.uniform(0.25, 0.45))),
                (int(out_w * rng.uniform(0.12, 0.2)), int(out_h * rng.uniform(0.16, 0.26))),
                0, 0, 360, tuple(float(v) for v in skin), -1)
    img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(2, 6)))
    # the card: turned, scaled to fill 60-95 % of the frame's height
    fill = float(rng.uniform(*fill))
    angle = float(rng.uniform(-turn, turn))
    s = fill * out_h / max(y2 - y1, 1.0)
    cx = float(rng.uniform(0.35, 0.65)) * out_w
    cy = float(rng.uniform(0.4, 0.62)) * out_h
    rot = cv2.getRotationMatrix2D(((x1 + x2) / 2, (y1 + y2) / 2), angle, s)
    rot[:, 2] += np.array([cx - (x1 + x2) / 2, cy - (y1 + y2) / 2])
    src = np.float32([[x1, y1], [x2, y1], [x2, y2], [x1, y2]])
    dst = np.hstack([src, np.ones((4, 1), np.float32)]) @ rot.T
    # tilted out of the picture's plane: one side of the card nearer the camera
    side = int(rng.integers(4))
    squeeze = float(rng.uniform(0.0, squeeze))
    a, b = dst[side].copy(), dst[(side + 1) % 4].copy()
    mid = (a + b) / 2
    dst[side], dst[(side + 1) % 4] = a + (mid - a) * squeeze, b + (mid - b) * squeeze
    persp = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    warped = cv2.warpPerspective(frame.astype(np.float32), persp, (out_w, out_h),
                                 flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    mask = np.zeros((h, w), np.float32)
    mask[int(y1) : int(y2), int(x1) : int(x2)] = 1
    mask = cv2.warpPerspective(mask, persp, (out_w, out_h))[:, :, None]
    img = img * (1 - mask) + warped * mask
    a1, b1, a2, b2 = index_box
    corners = cv2.perspectiveTransform(
        np.float32([[[a1, b1], [a2, b1], [a1, b2], [a2, b2]]]), persp)[0]
    box = (float(corners[:, 0].min()), float(corners[:, 1].min()),
           float(corners[:, 0].max()), float(corners[:, 1].max()))
    # the hand: a palm under an edge of the card, a thumb and fingers over it
    card = dst
    edge = int(rng.choice(4, p=[0.1, 0.3, 0.3, 0.3]))
    p, q = card[edge], card[(edge + 1) % 4]
    t = float(rng.uniform(0.2, 0.8))
    at = p + (q - p) * t
    centre = card.mean(axis=0)
    toward = centre - at
    toward /= max(float(np.linalg.norm(toward)), 1e-6)
    normal = np.array([-toward[1], toward[0]])
    colour = tuple(float(v) for v in skin * rng.uniform(0.85, 1.1))
    palm = at - toward * out_w * float(rng.uniform(0.05, 0.12))
    cv2.ellipse(img, (int(palm[0]), int(palm[1])),
                (int(out_w * rng.uniform(0.1, 0.16)), int(out_h * rng.uniform(0.08, 0.13))),
                float(np.degrees(np.arctan2(normal[1], normal[0]))), 0, 360, colour, -1)
    for f in range(int(rng.integers(1, 5))):
        start = at + normal * (f - 1.5) * out_w * 0.05
        end = start + toward * float(rng.uniform(*fingers)) * out_w
        shade = tuple(v * float(rng.uniform(0.85, 1.05)) for v in colour)
        cv2.line(img, (int(start[0]), int(start[1])), (int(end[0]), int(end[1])),
                 shade, max(2, int(out_w * rng.uniform(0.035, 0.055))))
    if rng.random() < 0.3:  # glare on the card's gloss
        gx, gy = card.mean(axis=0) + rng.normal(0, 0.1 * out_w, 2)
        yy, xx = np.mgrid[0:out_h, 0:out_w]
        r = float(rng.uniform(0.05, 0.15)) * out_w
        img += (float(rng.uniform(60, 160)) * np.exp(
            -((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r)))[:, :, None] * mask
    finish = finish or (((0.35, 1.2), (0.7, 1.2), (0.5, 1.6)),
                        (0.35, 1.3), (3, 16), (0.25, 0.5), (4, 14), (20, 55))
    return _webcam_finish(img, rng, *finish), box


def webcam_far(
    frame: np.ndarray, seed: int, index_box: tuple[float, float, float, float],
    card_box=None,  # noqa: ANN001
) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A phone photo's card made into a webcam frame of a card held at arm's
    length before a person (``--held-far``; :func:`webcam_held`'s scene with
    its own ranges): the card 22-55 % of the frame's height (the person's face
    and torso fill the rest), turned up to 30 degrees, one side up to 40 %
    shorter, fingers reaching up to 12 % of the frame's width over it (a
    third or more of the small card), a strong cast, motion blur as long as a
    quarter of the card's width, the frame taken at 18-40 % of its size (a
    webcam's few pixels on the card), noise and a coarse JPEG. Returns the
    frame and the corner index's box in it."""
    return webcam_held(frame, seed, index_box, card_box, fill=(0.22, 0.55),
                       turn=30.0, squeeze=0.4, fingers=(0.03, 0.12),
                       finish=(((0.35, 1.2), (0.7, 1.2), (0.5, 1.6)), (0.35, 1.3),
                               (3, 20), (0.18, 0.4), (4, 16), (15, 45)))


#: the finder's card box of each tuning photo (path -> xyxy), for webcam_held
_CARD_BOXES: dict = {}


def scan_like(
    frame: np.ndarray, seed: int, index_box: tuple[float, float, float, float],
    card_box=None,  # noqa: ANN001
) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A phone photo's card made into a scan (``--scan-like``; its own recipe):
    the card alone (its finder box in the photo, ``card_box``) on a black bed,
    upright, a quarter turn either way or upside down (a scanner takes a card
    any way round) and a few degrees off, its longer side 70-100 % of the
    640-pixel frame, a little sensor noise and a fine JPEG. Returns the frame and
    the corner index's box in it."""
    import cv2

    rng = np.random.default_rng(seed)
    h, w = frame.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in (card_box if card_box is not None
                                          else (0, 0, w, h)))
    out = 640
    s = float(rng.uniform(0.7, 1.0)) * out / max(y2 - y1, x2 - x1, 1.0)
    angle = 90.0 * int(rng.integers(4)) + float(rng.uniform(-4, 4))
    centre = out / 2 + rng.uniform(-0.04, 0.04, 2) * out
    rot = cv2.getRotationMatrix2D(((x1 + x2) / 2, (y1 + y2) / 2), angle, s)
    rot[:, 2] += centre - np.array([(x1 + x2) / 2, (y1 + y2) / 2])
    card = cv2.warpAffine(frame.astype(np.float32), rot, (out, out))
    mask = np.zeros((h, w), np.float32)
    mask[int(y1) : int(y2), int(x1) : int(x2)] = 1
    mask = cv2.warpAffine(mask, rot, (out, out))[:, :, None]
    img = float(rng.uniform(0, 25)) * (1 - mask) + card * mask
    a1, b1, a2, b2 = index_box
    pts = np.array([[a1, b1, 1], [a2, b1, 1], [a1, b2, 1], [a2, b2, 1]]) @ rot.T
    box = (float(pts[:, 0].min()), float(pts[:, 1].min()),
           float(pts[:, 0].max()), float(pts[:, 1].max()))
    img = np.clip(img + rng.normal(0, 2, img.shape), 0, 255).astype(np.uint8)
    _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR), box


def _webcam_finish(img: np.ndarray, rng: np.random.Generator, gains, exposure,
                   blur, small, noise, quality) -> np.ndarray:
    """A webcam's rendering of ``img`` (float BGR), each effect drawn from its
    range in this order: a colour cast (a gain range per channel) and exposure,
    motion blur (kernel sizes), a lower resolution scaled back (scale), sensor
    noise (standard deviation) and JPEG (quality)."""
    import cv2

    from vision.enroll import motion_blur

    h, w = img.shape[:2]
    cast = np.array([rng.uniform(*g) for g in gains], np.float32)
    img = img * cast * float(rng.uniform(*exposure))
    img = motion_blur(img, rng, *blur)
    scale = float(rng.uniform(*small))
    img = cv2.resize(cv2.resize(img, None, fx=scale, fy=scale,
                                interpolation=cv2.INTER_AREA), (w, h))
    img = img + rng.normal(0, float(rng.uniform(*noise)), img.shape)
    out = np.clip(img, 0, 255).astype(np.uint8)
    _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY,
                                        int(rng.integers(*quality))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def outcome(detector, photo: Photo, zooms,  # noqa: ANN001
            degrade: int | None = None, harsh: bool | str = False,
            said: list[str] | None = None) -> str:
    """``ok``, ``wrong``, ``partial`` or ``miss`` for one photo (module docstring;
    ``said``: a list the name of a named box is appended to);
    with ``degrade`` (a seed) the photo is read through :func:`webcam_like`
    (``harsh``: :func:`webcam_harsh`; ``"held"``: :func:`webcam_held`;
    ``"far"``: :func:`webcam_far`; ``"scan"``: :func:`scan_like`)."""
    import cv2

    from vision.multiscale import (
        detect_multiscale, largest, name_refused, read_turned, whole_card)

    frame = cv2.imread(str(photo.path))
    index_box = photo.index_box
    if degrade is not None and harsh in ("held", "far", "scan"):
        recipe = {"held": webcam_held, "far": webcam_far, "scan": scan_like}[harsh]
        frame, index_box = recipe(frame, degrade, index_box,
                                  _CARD_BOXES.get(str(photo.path)))
    elif degrade is not None:
        frame, index_box = (webcam_harsh if harsh else webcam_like)(
            frame, degrade, index_box)
    named = detect_multiscale(detector, frame, zooms)
    if WHOLE or not len(named):
        key = (str(photo.path), degrade, harsh, tuple(zooms))
        if key not in _FINDER_BOXES:  # the same finder whatever the classifier
            from vision.decks import CardFinder

            _FINDER_BOXES[key] = detect_multiscale(CardFinder(detector), frame, zooms)
        if not len(named):
            named = name_refused(detector, frame, _FINDER_BOXES[key])
            if not len(named):
                return "refused" if len(_FINDER_BOXES[key]) else "miss"
        else:
            named = whole_card(named, _FINDER_BOXES[key])
    best = read_turned(detector, frame, largest(named))
    x1, y1, x2, y2 = best.xyxy[0]
    a1, b1, a2, b2 = index_box
    h, w = frame.shape[:2]
    cx, cy = (a1 + a2) / 2, (b1 + b2) / 2
    slack_x, slack_y = 0.02 * w, 0.02 * h
    holds = (x1 - slack_x <= cx <= x2 + slack_x
             and y1 - slack_y <= cy <= y2 + slack_y)
    if not holds or (x2 - x1) * (y2 - y1) < 4 * (a2 - a1) * (b2 - b1):
        return "partial"
    name = best.labels[0]
    if said is not None:
        said.append(name)
    result = "ok" if name == photo.label else "wrong"
    if DUMP is not None:
        _dump(detector, frame, best, photo, degrade, harsh, result)
    return result


def _dump(detector, frame: np.ndarray, best, photo: Photo, degrade,  # noqa: ANN001
          harsh, result: str) -> None:
    """Write one read for offline study (``--dump``): the frame (PNG), its kept
    box, the label, the name said and the card probabilities of the box."""
    import json

    import cv2

    from vision.multiscale import _card_probs

    probs = best.data.get("probs") if best.data else None
    if probs is None:
        probs = _card_probs(detector, frame, best.xyxy.astype(np.float32))
    stem = f"{harsh or 'clean'}-{photo.path.stem}-{degrade}"
    DUMP.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(DUMP / f"{stem}.png"), frame)
    (DUMP / f"{stem}.json").write_text(json.dumps({
        "truth": photo.label, "said": best.labels[0], "result": result,
        "box": [float(v) for v in best.xyxy[0]],
        "probs": [float(v) for v in np.asarray(probs, float).reshape(-1)]}))


def confusion_kind(truth: str, said: str) -> str:
    """How a wrong name differs from the truth: ``colour`` (the right symbol or
    digit in another colour), ``symbol`` (the right colour, another symbol),
    ``both``, or ``wild`` (a wild or wild draw four on either side, other than
    the one for the other)."""
    def split(label: str) -> tuple[str, str]:
        if label.startswith("wild"):
            return "wild", label
        colour, _, symbol = label.partition("-")
        return colour, symbol

    (c1, s1), (c2, s2) = split(truth), split(said)
    if "wild" in (c1, c2):
        return "wild"
    if s1 == s2:
        return "colour"
    return "symbol" if c1 == c2 else "both"


def score(detector, items: list[Photo], zooms,  # noqa: ANN001
          degrade: bool | str = False) -> dict[str, int]:
    """Outcome counts of ``items``; ``degrade``: each read :data:`VARIANTS`
    times through :func:`webcam_like` (``"harsh"``: :func:`webcam_harsh`)."""
    counts = {"ok": 0, "wrong": 0, "partial": 0, "miss": 0, "refused": 0}
    for p in items:
        for v in range(VARIANTS if degrade else 1):
            seed = (int.from_bytes(p.path.stem.encode()[:8], "little") + v
                    if degrade else None)
            mode = degrade if isinstance(degrade, str) else False
            counts[outcome(detector, p, zooms, seed, mode)] += 1
    return counts


def confusions(detector, items: list[Photo], zooms,  # noqa: ANN001
               degrade: bool | str = False) -> dict[str, int]:
    """:func:`score`'s outcomes with every wrong name split by
    :func:`confusion_kind` (``wrong-colour``, ``wrong-symbol``, ``wrong-both``,
    ``wrong-wild``), and the pairs (``truth>said``) counted under ``pairs``."""
    counts: dict = {"ok": 0, "miss": 0, "refused": 0, "partial": 0,
                    "wrong-colour": 0, "wrong-symbol": 0, "wrong-both": 0,
                    "wrong-wild": 0, "pairs": {}}
    for p in items:
        for v in range(VARIANTS if degrade else 1):
            seed = (int.from_bytes(p.path.stem.encode()[:8], "little") + v
                    if degrade else None)
            mode = degrade if isinstance(degrade, str) else False
            names: list[str] = []
            result = outcome(detector, p, zooms, seed, mode, names)
            if result != "wrong":
                counts[result] += 1
                continue
            said = names[-1]
            counts["wrong-" + confusion_kind(p.label, said)] += 1
            pair = f"{p.label}>{said}"
            counts["pairs"][pair] = counts["pairs"].get(pair, 0) + 1
    return counts


def collapse(split: dict) -> dict[str, int]:
    """:func:`confusions`' counts as :func:`score`'s."""
    return {"ok": split["ok"], "partial": split["partial"], "miss": split["miss"],
            "refused": split["refused"],
            "wrong": sum(v for k, v in split.items() if k.startswith("wrong-"))}


def split_line(split: dict) -> str:
    """One line of :func:`confusions`' counts: the wrong names by kind, the
    refusals, misses and partial boxes, and the pairs, most frequent first."""
    pairs = sorted(split["pairs"].items(), key=lambda t: (-t[1], t[0]))
    return (f"colour {split['wrong-colour']}, symbol {split['wrong-symbol']}, "
            f"both {split['wrong-both']}, wild {split['wrong-wild']}; refused "
            f"{split['refused']}, miss {split['miss']}, partial {split['partial']}; "
            "pairs " + (", ".join(f"{k} {v}" for k, v in pairs) or "none"))


#: a folder each read is written to for offline study (``--dump``); ``None``: none
DUMP: Path | None = None
#: ``--dump``'s folder (each draw writes under ``draw<seed>``)
DUMP_ROOT: Path | None = None


#: webcam-like reads of each tuning photo (``--variants``)
VARIANTS = 1
#: The card finder every detector of a run loads (``--model``; default the
#: still-photo finder, ``detector.photo_model``, as ``tableref detect`` and
#: enrollment run it).
FINDER: Path | None = None


def enrolled_detector(shots, config, folder: Path, base: Path | None = None):  # noqa: ANN001, ANN201
    """A detector whose classifier is fine-tuned on ``shots`` (kept in ``folder``)
    from the classifier ``base`` (``None``: the shipped one)."""
    import torch

    from vision.detector import Detector
    from vision.enroll import fine_tune

    t0 = time.time()
    result = fine_tune(shots, base, config=config, progress=lambda _: None)
    path = folder / f"enrolled-{config.seed}-{len(shots)}.pt"
    torch.save(result.checkpoint, path)
    from vision.corner_index import attach

    det = attach(Detector(model_path=FINDER, classifier=path), result.checkpoint)
    return det, time.time() - t0


def rendered_accuracy(detector, count: int, seed: int = 12345) -> float:  # noqa: ANN001
    """Top-1 (%) of ``detector``'s classifier on ``count`` rendered crops of every
    label and "no card" (:func:`datasets.crops.crop_set`, another seed than any
    enrollment's replay): what the shipped model read before enrolling; an
    enrollment that forgets it drops here (the tuning proxy of damage to other
    cameras and decks). The crops are rendered at the classifier's own input
    size (``detector.crop``), as the runtime cuts them."""
    from datasets.crops import crop_set

    size = int(getattr(detector, "crop", 64))
    key = (count, seed, size)
    if key not in _RENDERED:
        _RENDERED[key] = crop_set(count, seed, size, background_share=0.1,
                                  ornaments=True)
    x, y = _RENDERED[key]
    probs = np.concatenate([detector._probabilities(x[i : i + 256])
                            for i in range(0, len(x), 256)])
    return 100.0 * float((probs.argmax(1) == y).mean())


_RENDERED: dict = {}


def cell(counts: dict[str, int]) -> str:
    n = sum(counts.values())
    return (f"{100 * counts['ok'] / max(n, 1):5.1f} % "
            f"(m{counts['miss']} r{counts['refused']} p{counts['partial']} "
            f"w{counts['wrong']})")


def mean_cell(runs: list[dict[str, int]]) -> str:
    n = sum(runs[0].values())
    accs = [100 * r["ok"] / max(n, 1) for r in runs]
    tot = {k: sum(r[k] for r in runs) / len(runs) for k in runs[0]}
    return (f"{np.mean(accs):5.1f} % ±{np.std(accs):.1f} "
            f"(m{tot['miss']:.1f} r{tot['refused']:.1f} p{tot['partial']:.1f} "
            f"w{tot['wrong']:.1f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--tune", action="store_true", help="valid split only")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--steps", type=int, default=None)
    parser.add_argument("--lr", type=float, default=None)
    parser.add_argument("--l2sp", type=float, default=None)
    parser.add_argument("--held", type=float, default=None)
    parser.add_argument("--background", type=float, default=None)
    parser.add_argument("--views", type=int, default=None)
    parser.add_argument("--replay", type=float, default=None)
    parser.add_argument("--hand", type=float, default=None)
    parser.add_argument("--mix", type=float, default=None)
    parser.add_argument("--scene", type=float, default=None)
    parser.add_argument("--tilt", type=float, default=None)
    parser.add_argument("--far", type=float, default=None)
    parser.add_argument("--webcam", type=float, default=None,
                        help="EnrollConfig.webcam: share of the scene views drawn "
                             "and spoilt at a webcam frame's size")
    parser.add_argument("--proto", type=float, default=None,
                        help="EnrollConfig.proto: weight of the class-mean head "
                             "folded into the enrolled classifier (0: off)")
    parser.add_argument("--soup", type=int, default=None,
                        help="EnrollConfig.soup: fine-tunings (other seeds) whose "
                             "weights are averaged (1: one)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--k", type=int, default=1,
                        help="with --tune: photos a card enrolled (1 or 2)")
    parser.add_argument("--webcam-like", action="store_true",
                        help="with --tune: also read the photos made to look like "
                             "webcam frames of a held card (webcam_like)")
    parser.add_argument("--no-zero", action="store_true",
                        help="skip the zero-shot reads (they do not depend on "
                             "the enrollment)")
    parser.add_argument("--retry-conf", type=float, default=None,
                        help="the multi-scale pass's second look at a photo with "
                             "no card (default: the config field "
                             "detector.photo_retry_conf; 1: none)")
    parser.add_argument("--harsh", action="store_true",
                        help="with --tune: also read the photos through the "
                             "harsher webcam_harsh (--variants of them)")
    parser.add_argument("--held-like", action="store_true",
                        help="with --tune: also read each photo's card made into "
                             "a webcam frame of a card held before a person "
                             "(webcam_held; --variants of them)")
    parser.add_argument("--held-far", action="store_true",
                        help="with --tune: also read each photo's card made into "
                             "a webcam frame of a small card held at arm's length "
                             "before a person (webcam_far; --variants of them)")
    parser.add_argument("--scan-like", action="store_true",
                        help="with --tune: also read each photo's card made into a "
                             "scan (scan_like: alone on black, any way round, "
                             "filling most of the frame; --variants of them)")
    parser.add_argument("--variants", type=int, default=1,
                        help="with --webcam-like: webcam-like reads of each photo")
    parser.add_argument("--refused-floor", type=float, default=None,
                        help="a photo whose every box is called no card is named "
                             "(default: the config field "
                             "detector.photo_refused_floor; 0: never)")
    parser.add_argument("--card-share", type=float, default=None,
                        help="a refused photo's box is named when its likeliest "
                             "card holds this share of the card probabilities "
                             "(default: detector.photo_card_share; 1: never)")
    parser.add_argument("--no-card", type=float, default=None,
                        help="a refused photo's box is named when the classifier's "
                             "no-card probability of it is at most this (default: "
                             "vision.multiscale.NO_CARD_AT_MOST; below 0: never)")
    parser.add_argument("--window-share", type=float, default=None,
                        help="a refused photo or one with no box: windows in its "
                             "middle named at this share (default: "
                             "detector.photo_window_share; 1: never)")
    parser.add_argument("--turn-aspect", type=float, default=None,
                        help="a kept box this many times as wide as high is read "
                             "turned a quarter either way (default: "
                             "vision.multiscale.TURN_ASPECT; 0: never)")
    parser.add_argument("--tight", default=None,
                        help="an upright kept box named under SURE_READ is named "
                             "again with the box moved in by these shares, e.g. "
                             "0.05,0.1 (default: vision.multiscale.TIGHT_VIEWS; "
                             "0: the box alone)")
    parser.add_argument("--rectify", type=float, default=None,
                        help="the kept box is also named from the card's outline "
                             "warped upright, at this weight in the mean with "
                             "the box's reading (default: "
                             "vision.multiscale.RECTIFY; 0: off, 1: alone)")
    parser.add_argument("--balance", type=int, default=None,
                        help="1: the kept box is named from its crop "
                             "white-balanced (vision.card_colour.balance_white); "
                             "0: as it is (default: vision.multiscale.BALANCE)")
    parser.add_argument("--recolour", type=int, default=None,
                        help="1: the kept box's name has its colour read again "
                             "from its pixels (vision.card_colour); 0: as named "
                             "(default: vision.multiscale.RECOLOUR)")
    parser.add_argument("--corner", type=float, default=None,
                        help="the kept box's card probabilities weighed by its "
                             "corner index's symbol read by vision.corner_index, "
                             "to this power (default: vision.multiscale.CORNER; "
                             "0: off)")
    parser.add_argument("--faces", type=float, default=None,
                        help="the kept upright box's likeliest names of one "
                             "colour weighed by how well the enrolled photo of "
                             "each, drawn at the box's size, matches it "
                             "(vision.face_match), at this strength; above 0 the "
                             "enrollments keep their faces "
                             "(vision.enroll.KEEP_FACES) (default: "
                             "vision.multiscale.FACES; 0: off)")
    parser.add_argument("--corner-model", type=Path, default=None,
                        help="the corner-index reader's weights (default: "
                             "models/uno-corner.pt)")
    parser.add_argument("--corner-adapt", type=int, default=None,
                        help="1: each enrollment also fits the corner-index reader "
                             "to the deck's photos (vision.enroll.ADAPT_CORNER), "
                             "which the read weighs by with --corner above 0; 0: "
                             "the shipped reader")
    parser.add_argument("--balance-views", type=int, default=None,
                        help="1: the enrollment's card crops and views are "
                             "white-balanced as the kept box's read is "
                             "(vision.enroll.BALANCE_VIEWS); 0: as they are")
    parser.add_argument("--forget", type=int, default=0,
                        help="with --tune: also read this many rendered crops "
                             "(rendered_accuracy), zero-shot and enrolled")
    parser.add_argument("--confusions", action="store_true",
                        help="split each read's wrong names (every --tune read; "
                             "the report's enrolled rows) into the "
                             "wrong colour of the right symbol, the right colour "
                             "of a wrong symbol, both, and wilds, and list the "
                             "pairs (truth>said)")
    parser.add_argument("--dump", type=Path, default=None,
                        help="with --tune: write every enrolled read that names "
                             "a box (frame, kept box, label, name, card "
                             "probabilities) under this "
                             "folder (draw<seed>/), for offline study")
    parser.add_argument("--first-seed", type=int, default=0,
                        help="the first draw / training seed")
    parser.add_argument("--no-whole", action="store_true",
                        help="read the largest named box as it is (no widening of "
                             "a named part to the finder's whole-card box)")
    parser.add_argument("--ks", default="1,3",
                        help="the report's K values (photos a card enrolled)")
    parser.add_argument("--rows", default="phone,scan,webcam,deck-b",
                        help="the report's rows, of phone, scan, webcam (the cards "
                             "held before a webcam) and deck-b")
    parser.add_argument("--same-camera", action="store_true",
                        help="enroll from K of train's webcam frames a card, read "
                             "the other webcam frames")
    parser.add_argument("--zooms", default=None,
                        help="zooms of the multi-scale pass, e.g. 1 for one pass "
                        "(default: vision.multiscale.ZOOMS)")
    parser.add_argument("--model", type=Path, default=None,
                        help="card finder (OpenVINO folder or .pt) of every "
                        "detector of the run (default: the still-photo finder, "
                        "detector.photo_model; the live finder: "
                        "models/uno-yolo11n_openvino_model)")
    parser.add_argument("--classifier", type=Path, default=None,
                        help="start from this crop classifier checkpoint (zero-shot "
                             "reads and enrollments) instead of the shipped one")
    parser.add_argument("--empties", action="store_true",
                        help="only count cards found on the empty backgrounds of "
                             "train and test (with --tune: of valid), zero-shot "
                             "and after K = 3")
    args = parser.parse_args(argv)
    wanted = [r.strip() for r in args.rows.split(",") if r.strip()]
    unknown = sorted(set(wanted) - {"phone", "scan", "webcam", "deck-b"})
    if unknown or not wanted:
        parser.error(f"--rows: unknown rows {unknown or args.rows!r}; of phone, "
                     "scan, webcam, deck-b")

    from vision.detector import Detector
    from vision.enroll import EnrollConfig, find_shots
    from vision.multiscale import ZOOMS, parse_zooms

    if args.zooms is not None:
        ZOOMS = parse_zooms(args.zooms)  # noqa: N806

    global WHOLE, VARIANTS, DUMP, DUMP_ROOT
    WHOLE = not args.no_whole
    DUMP_ROOT = DUMP = args.dump
    VARIANTS = args.variants
    import vision.multiscale as ms

    if args.retry_conf is not None:
        ms.RETRY_BOX_CONF = args.retry_conf
    for key, name in (("refused_floor", "REFUSED_FLOOR"), ("turn_aspect", "TURN_ASPECT")):
        if (value := getattr(args, key)) is not None:  # 0: off
            setattr(ms, name, value or None)
    if args.no_card is not None:
        ms.NO_CARD_AT_MOST = args.no_card if args.no_card >= 0 else None
    if args.rectify is not None:
        ms.RECTIFY = args.rectify
    if args.balance is not None:
        ms.BALANCE = bool(args.balance)
    if args.recolour is not None:
        ms.RECOLOUR = bool(args.recolour)
    if args.corner is not None:
        ms.CORNER = args.corner
    if args.corner_model is not None:
        ms.CORNER_MODEL = args.corner_model
    if args.faces is not None:
        import vision.enroll

        ms.FACES = args.faces
        vision.enroll.KEEP_FACES = args.faces > 0
    if args.corner_adapt is not None:
        import vision.enroll

        vision.enroll.ADAPT_CORNER = bool(args.corner_adapt)
    if args.balance_views is not None:
        import vision.enroll

        vision.enroll.BALANCE_VIEWS = bool(args.balance_views)
    if args.tight is not None:
        ms.TIGHT_VIEWS = tuple(v for v in (float(t) for t in args.tight.split(",")
                                           if t.strip()) if v > 0)
    for key, name in (("card_share", "CARD_SHARE"), ("window_share", "WINDOW_SHARE")):
        if (value := getattr(args, key)) is not None:  # 1: off
            setattr(ms, name, value if value < 1 else None)
    config = EnrollConfig(threads=args.threads)
    for key in ("steps", "lr", "l2sp", "held", "views", "background", "replay",
                "hand", "mix", "scene", "tilt", "far", "webcam", "proto", "soup"):
        if getattr(args, key) is not None:
            config = replace(config, **{key: getattr(args, key)})
    print(f"enrollment: {config}")
    import vision.enroll
    import vision.multiscale

    print(f"zooms of the multi-scale pass: {ZOOMS}; a named part widened to the "
          f"whole card: {WHOLE}; second look at box score "
          f"{vision.multiscale.RETRY_BOX_CONF}; a refused photo named from "
          f"{vision.multiscale.REFUSED_FLOOR}, or at a card share of "
          f"{vision.multiscale.CARD_SHARE}, or at a no-card probability of at most "
          f"{vision.multiscale.NO_CARD_AT_MOST}; windows named at a card share of "
          f"{vision.multiscale.WINDOW_SHARE}; a box {vision.multiscale.TURN_ASPECT} "
          f"times as wide as high read turned; an upright box named under "
          f"{vision.multiscale.SURE_READ} read again moved in by "
          f"{vision.multiscale.TIGHT_VIEWS}; the card made upright read at weight "
          f"{vision.multiscale.RECTIFY}; its crop white-balanced: "
          f"{vision.multiscale.BALANCE}; its colour read from its pixels: "
          f"{vision.multiscale.RECOLOUR}; weighed by the corner index's symbol "
          f"at {vision.multiscale.CORNER} ({vision.multiscale.CORNER_MODEL or 'shipped'}); "
          f"weighed by the enrolled faces at {vision.multiscale.FACES}; "
          f"the enrolled views white-balanced: "
          f"{vision.enroll.BALANCE_VIEWS}; the corner reader fitted to the deck: "
          f"{vision.enroll.ADAPT_CORNER}")
    from vision.detector import photo_model

    global FINDER
    FINDER = args.model or photo_model()
    base = Detector(model_path=FINDER, classifier=args.classifier)
    print(f"classifier: {args.classifier or 'shipped'}; finder: {FINDER}")
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
    _CARD_BOXES.update({str(p.path): s.box for v in shots_all.values()
                        for p, s in v if s.box is not None})
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
            paths = empties(args.data, ("valid",) if args.tune else ("train", "test"))
            shots, _ = draw(3, 0)
            det, _ = enrolled_detector(shots, config, tmp, args.classifier)
            import vision.multiscale as ms

            rules = (ms.RETRY_BOX_CONF, ms.REFUSED_FLOOR, ms.CARD_SHARE,
                     ms.WINDOW_SHARE, ms.NO_CARD_AT_MOST)
            off = (None,) * 5
            passes = [((1.0,), off), (ZOOMS, off)]
            if rules != off:  # the still-photo rules off, then on
                passes = [(ZOOMS, off), (ZOOMS, rules)]
            for name, d in (("zero-shot", base), ("K=3", det)):
                for zooms, on in passes:
                    (ms.RETRY_BOX_CONF, ms.REFUSED_FLOOR, ms.CARD_SHARE,
                     ms.WINDOW_SHARE, ms.NO_CARD_AT_MOST) = on
                    print(f"empty backgrounds with a card, {name}, zooms {zooms}, "
                          f"second look {on[0]}, refused named from {on[1]}, card "
                          f"share {on[2]}, window share {on[3]}, no card at most "
                          f"{on[4]}: "
                          f"{false_cards(d, paths, zooms)} of {len(paths)}", flush=True)
            (ms.RETRY_BOX_CONF, ms.REFUSED_FLOOR, ms.CARD_SHARE, ms.WINDOW_SHARE,
             ms.NO_CARD_AT_MOST) = rules
            return 0
        if args.same_camera:
            for k in (1, 3):
                zero, tuned = [], []
                for seed in range(args.repeats):
                    shots, rest = draw(k, seed)
                    zero.append(score(base, rest, ZOOMS))
                    det, _ = enrolled_detector(shots, replace(config, seed=seed), tmp,
                                          args.classifier)
                    tuned.append(score(det, rest, ZOOMS))
                    print(f"  K={k} draw {seed}: zero-shot {cell(zero[-1])}  "
                          f"enrolled {cell(tuned[-1])}", flush=True)
                print(f"webcam, enrolled from K={k} webcam frames a card, read on "
                      f"the other {sum(zero[0].values())}: zero-shot "
                      f"{mean_cell(zero)}  K={k} {mean_cell(tuned)}", flush=True)
            return 0
        if args.tune:
            reads = ([("clean", False)]
                     + ([("webcam-like", True)] if args.webcam_like else [])
                     + ([("harsh", "harsh")] if args.harsh else [])
                     + ([("held", "held")] if args.held_like else [])
                     + ([("held-far", "far")] if args.held_far else [])
                     + ([("scan", "scan")] if args.scan_like else []))
            zero: dict = {name: [] for name, _ in reads}
            tuned: dict = {name: [] for name, _ in reads}
            k = args.k
            for seed in range(args.first_seed, args.first_seed + args.repeats):
                shots, rest = draw(k, seed)
                det, secs = enrolled_detector(shots, replace(config, seed=seed), tmp,
                                          args.classifier)
                if args.forget:
                    print(f"  draw {seed} rendered crops ({args.forget}): zero-shot "
                          f"{rendered_accuracy(base, args.forget):.1f} %  K={k} "
                          f"{rendered_accuracy(det, args.forget):.1f} %", flush=True)
                for name, degrade in reads:
                    DUMP = None  # the enrolled reads alone are written
                    if not args.no_zero:
                        zero[name].append(score(base, rest, ZOOMS, degrade))
                    if DUMP_ROOT is not None:
                        DUMP = DUMP_ROOT / f"draw{seed}"
                    if args.confusions:
                        split = confusions(det, rest, ZOOMS, degrade)
                        tuned[name].append(collapse(split))
                        print(f"  draw {seed} {name} wrong names: " + split_line(split),
                              flush=True)
                    else:
                        tuned[name].append(score(det, rest, ZOOMS, degrade))
                    z = f"zero-shot {cell(zero[name][-1])}  " if zero[name] else ""
                    print(f"  draw {seed} {name}: {z}K={k} {cell(tuned[name][-1])}"
                          f"  ({secs:.0f} s)", flush=True)
            for name, _ in reads:
                z = f"zero-shot {mean_cell(zero[name])}  " if zero[name] else ""
                print(f"valid (tuning) {name}, {sum(tuned[name][0].values())} photos "
                      f"a draw: {z}K={k} {mean_cell(tuned[name])}")
            return 0
        rows = {kind: [p for p in photos(args.data, "train") if p.kind == kind]
                for kind in ("phone", "scan", "webcam") if kind in wanted}
        if "deck-b" in wanted:
            rows["deck-b"] = photos(args.data, "test")
        table: dict[str, dict[str, str]] = {k: {} for k in rows}
        for kind, items in rows.items():
            if args.no_zero:
                break
            table[kind]["zero, 1 zoom"] = cell(score(base, items, (1.0,)))
            table[kind]["zero, zooms"] = cell(score(base, items, ZOOMS))
            print(f"{kind}: zero-shot done", flush=True)
        times = []
        for k in (int(v) for v in args.ks.split(",") if v.strip()):
            seeds = range(args.first_seed, args.first_seed + args.repeats)
            runs: dict[str, list] = {kind: [] for kind in rows}
            for seed in seeds:
                shots, _ = draw(k, seed)
                det, secs = enrolled_detector(shots, replace(config, seed=seed), tmp,
                                          args.classifier)
                times.append(secs)
                for kind, items in rows.items():
                    if not args.confusions:
                        runs[kind].append(score(det, items, ZOOMS))
                        continue
                    split = confusions(det, items, ZOOMS)
                    runs[kind].append(collapse(split))
                    print(f"  K={k} draw {seed} {kind} wrong names: "
                          + split_line(split), flush=True)
                print(f"K={k} draw {seed} done ({secs:.0f} s to enroll): "
                      + "  ".join(f"{kind} {cell(runs[kind][-1])}" for kind in rows),
                      flush=True)
            for kind in rows:
                table[kind][f"K={k}"] = mean_cell(runs[kind])
        cols = list(next(iter(table.values())))
        print("\nread top-1 on untouched photos (m no finder box, r every box refused "
              "as no card, p partial box, w wrong name);"
              " enrolled from valid (deck A)")
        print("row".ljust(14) + "n".rjust(5) + "".join(c.rjust(34) for c in cols))
        for kind, items in rows.items():
            print(kind.ljust(14) + str(len(items)).rjust(5)
                  + "".join(table[kind][c].rjust(34) for c in cols))
        if times:
            print(f"enrollment time: mean {np.mean(times):.0f} s over {len(times)} "
                  f"runs ({args.threads} torch thread(s), shared machine)")
    finally:
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":  # pragma: no cover
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    raise SystemExit(main())
