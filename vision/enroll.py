"""Deck enrollment: teach the crop classifier the physical deck on the table.

No renderer draws every print of every deck. Enrollment takes a few photos of
each card of the user's own deck, finds the card in each photo (the shipped
finder at several zooms, :mod:`vision.multiscale`; the largest box), and
fine-tunes the shipped crop classifier (``models/uno-cardnet.pt``, every member
of it) on augmented crops of those cards, kept close to the shipped weights:

- an L2-SP pull (``l2sp`` times the squared distance of every weight to its
  shipped value) keeps what the network already reads on other decks and
  cameras;
- batch-norm statistics stay the shipped ones (the network runs in eval mode
  while it learns: a batch of one deck's crops would move them);
- a share of each batch is rendered "no card" crops, so the classifier keeps
  rejecting boxes around table, hands and card backs;
- the first layers (the stem, :attr:`EnrollConfig.frozen`) stay as shipped: each
  training crop goes through them once, and only the layers after them learn
  (about 4x less work a step, the enrollment's time goal);
- the result is a weight-space mix of the fine-tuned and the starting weights
  (:attr:`EnrollConfig.mix`, WiSE-FT), which keeps more of what the shipped
  network reads on other decks and cameras;
- few steps at a low learning rate (:class:`EnrollConfig`; see
  ``benchmarks/eval_enroll.py`` for how they were checked).

    from vision.enroll import enroll, read_photo_folder
    result = enroll("my-deck", read_photo_folder(Path("photos")))
    result.missing, result.confused          # what to photograph again

Reading the photo folder and finding each photo's card is :mod:`vision.enroll_photos`
(re-exported here). The result is stored by :mod:`vision.decks` beside the saved
tables.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from referee.cards import CLASSES
from datasets.held_views import (  # noqa: F401 - re-exported
    _hand_over,
    _held_box,
    _held_view,
    _scene_view,
    motion_blur,
)
from vision.enroll_photos import (
    IMAGE_SUFFIXES,
    EnrollError,
    Shot,
    canonical_label,
    deck_labels,
    find_card,
    find_shots,
    read_photo_folder,
)

__all__ = [
    "IMAGE_SUFFIXES",
    "SURE",
    "EnrollConfig",
    "EnrollError",
    "EnrollResult",
    "Shot",
    "augmented_crops",
    "canonical_label",
    "confusions",
    "deck_labels",
    "find_card",
    "find_shots",
    "fine_tune",
    "read_photo_folder",
    "training_pool",
]

#: An enrollment read below this probability is reported as unsure.
SURE = 0.9


@dataclass(frozen=True)
class EnrollConfig:
    """How the classifier is fine-tuned on a deck's photos.

    Attributes:
        steps: optimizer steps per member network.
        batch: crops per step.
        lr: AdamW learning rate at the start (cosine decay to 0).
        l2sp: weight of the squared distance of the weights to the shipped ones.
        views: augmented crops made of each photo's card.
        background: share of "no card" crops in the training pool.
        seed: seed of the augmentation and the batches.
        frozen: leading modules of :func:`vision.detector.card_net` kept as
            shipped (6: the two convolution blocks at 32x32).
        threads: torch threads (``None``: torch's default).
        probe_steps: for a deck with labels the shipped classifier has no class
            for: steps that train the last layer alone on the crops' features
            before the fine-tuning (its new rows start from the crops,
            :func:`_imprint`).
        probe_lr: their AdamW learning rate (constant).
        replay: rendered crops of every shipped label (the shipped model's own
            training kind, :func:`datasets.crops.card_crop`) added to the
            training pool, as a share of the card crops (0: none): a replay
            that keeps what the network reads on other decks and cameras.
        held: share of the augmented views (after the first) made to look like
            a card held up before a webcam (:func:`_held_view`): a looser or
            cut box, fingers over an edge, the renderer's light casts, motion
            blur, noise and JPEG.
        hand: share of those held views with a hand over the card as well
            (:func:`_hand_over`: a palm over an edge and the fingers across
            the card, or a flat patch hiding a part of it), after the
            fingers of :func:`_held_view`.
        mix: weight-space mix of the fine-tuned weights and the weights the
            fine-tuning started from (WiSE-FT): 1 keeps the fine-tuned ones, 0
            the shipped ones; between them, less of what the deck's photos
            taught and less damage to other cameras and decks (0.6 with the
            scene views: on valid's proxies, rendered crops of every label
            lose about 0.3 point instead of 0.5 at 0.7 and 0.9 at 0.85, for
            about half a point of the held-card read at K = 1;
            ``benchmarks/eval_enroll.py``).
        scene: share of the held views drawn as the card held up before a
            person (:func:`_scene_view`): the card tilted out of the
            picture's plane (one side up to :attr:`tilt` shorter), turned up
            to 20 degrees, its box's margin showing a person and a room
            instead of the photo's table, a lower resolution; then the
            fingers, light and blur of :func:`_held_view` (0: none).
        tilt: the most one side of a scene view's card is shortened (the card
            turned out of the picture's plane, a perspective warp).
        far: share of the scene views seen as a card held at arm's length
            before a webcam (:func:`_far_view`: the card's crop at
            :data:`FAR_PIXELS` across, scaled back; 0: none).
        webcam: share of the other scene views drawn at the size the finder's
            box has in a webcam frame (:data:`WEBCAM_PIXELS`) and spoilt there
            as a webcam spoils it (:func:`_webcam_view`: motion along one
            direction, defocus, low-light noise, JPEG with halved colour), then
            cut down to the classifier's size as a read cuts a box (0: none).
        proto: weight of a class-mean head over the tuned network's features
            (:func:`_fold_class_means`), folded into its last layer after the
            mix: each label's mean feature over its enrolled crops (the photos
            and their views; "no card" over the rendered "no card" crops), read
            as a Gaussian of one variance shared by every class and dimension,
            its log-likelihood added ``proto`` times to the classifier's logits
            (a product of the two; 0: the classifier alone). The network and
            the checkpoint's format stay as they are.
        soup: fine-tunings whose weights are averaged (a weight soup; 1: one).
            The ``r``-th draws its views and batches with the seed
            ``seed + r * SOUP_SEED_STEP``; every one starts from the same
            network and is mixed (:attr:`mix`) before the mean, so the result
            is one network of the shipped shape and cost to read, and the
            enrollment takes about ``soup`` times as long.

    The held views (``held`` 0.75, every one a scene view, half with a hand
    over the card) and the learning rate (3e-3) were chosen together on
    ``valid``'s held-card proxy (``benchmarks/eval_enroll.py --held-like``):
    with the earlier views (fewer held, no scene, no hand, rate 1e-3) the
    fine-tuning taught the network little about a held card, and without the
    mix (``mix`` 1) it lost reads there. The far views are off (``far`` 0):
    at 0.5 they lifted the arm's-length proxy (``--held-far``) by about two
    points but read the real held, phone and other-deck photos lower
    (``models/MODEL_CARD.md``). The class-mean head is off (``proto`` 0): it
    sharpens the card probabilities of whatever a box holds, so boxes of empty
    backgrounds pass the still-photo card share (``detector.photo_card_share``)
    too: ``valid``'s empties at K = 3, 6 of 177 given a card with it off, 18
    at 0.01 and 0.03 (1 and 2 with the card share off). One fine-tuning is
    the default (``soup`` 1): a soup of two read no held-card proxy lower on
    five draws and lifted each by under a point on average, with the scans,
    the rendered crops and the empties as they were, at twice the
    enrollment's time.
    """

    steps: int = 60
    batch: int = 48
    lr: float = 3e-3
    l2sp: float = 0.01
    views: int = 16
    background: float = 0.2
    seed: int = 0
    frozen: int = 6
    threads: int | None = None
    probe_steps: int = 300
    probe_lr: float = 1e-2
    held: float = 0.75
    replay: float = 0.0
    hand: float = 0.5
    mix: float = 0.6
    scene: float = 1.0
    tilt: float = 0.25
    far: float = 0.0
    webcam: float = 0.0
    proto: float = 0.0
    soup: int = 1


@dataclass
class EnrollResult:
    """What :func:`fine_tune` made: the checkpoint and how it reads the shots.

    Attributes:
        checkpoint: the fine-tuned classifier (the format of
            :func:`vision.detector.load_classifier`, plus ``labels``).
        photos: label -> photos used.
        missing: labels of ``CLASSES`` without a photo.
        unfound: sources of photos where no card was found.
        confused: ``[label, read as, probability]`` for each enrollment photo
            read wrong or below :data:`SURE` after fine-tuning.
        seconds: wall time of the fine-tuning.
    """

    checkpoint: dict
    photos: dict[str, int]
    missing: list[str]
    unfound: list[str] = field(default_factory=list)
    confused: list[list] = field(default_factory=list)
    seconds: float = 0.0


def augmented_crops(
    frame: np.ndarray, box: np.ndarray, count: int, rng: np.random.Generator,
    size: int = 64, held: float = 0.0, hand: float = 0.0, scene: float = 0.0,
    tilt: float = 0.25, far: float = 0.0, webcam: float = 0.0,
) -> np.ndarray:
    """``count`` crops of the card in ``box`` as the detector might see it: the
    box's sides moved by a few percent, turned up to 10 degrees, either way up,
    with other light, colour and focus. The first crop is the box as it is; a
    share ``held`` of the others look like the card held up before a webcam
    (:func:`_held_view`), a share ``hand`` of those with a hand over the card
    (:func:`_hand_over`), a share ``scene`` of them drawn tilted over a person
    (:func:`_scene_view`, one side up to ``tilt`` shorter), a share ``far`` of
    those seen from afar (:func:`_far_view`), a share ``webcam`` of the others
    drawn and spoilt at a webcam frame's size (:func:`_webcam_view`)."""
    import cv2

    x1, y1, x2, y2 = (float(v) for v in box)
    bw, bh = max(x2 - x1, 2.0), max(y2 - y1, 2.0)
    # Work on a copy about 2 * size pixels across the card (warping a large photo
    # straight down to 64 px would alias).
    shrink = min(1.0, 2 * size / max(bw, bh))
    small = cv2.resize(frame, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    out = np.empty((count, size, size, 3), np.uint8)
    for i in range(count):
        hold = i > 0 and held > 0 and rng.random() < held
        jitter = np.zeros(4) if i == 0 else rng.normal(0, 0.035, 4)
        if hold:
            jitter = _held_box(rng)
        if hold and scene > 0 and rng.random() < scene:
            card = np.array([x1, y1, x2, y2]) * shrink
            if webcam > 0 and rng.random() < webcam:
                out[i] = _webcam_view(small, card, jitter, size, rng, tilt, hand)
                continue
            crop = _scene_view(small, card, jitter, size, rng, tilt)
            if far > 0 and rng.random() < far:
                crop = _far_view(crop, rng)
            out[i] = _held_view(crop, rng, hand)
            continue
        a = (x1 + jitter[0] * bw) * shrink
        b = (y1 + jitter[1] * bh) * shrink
        c = (x2 + jitter[2] * bw) * shrink
        d = (y2 + jitter[3] * bh) * shrink
        angle = 0.0 if i == 0 else float(rng.uniform(-10, 10))
        centre = ((a + c) / 2, (b + d) / 2)
        rot = cv2.getRotationMatrix2D(centre, angle, 1.0)
        scale = np.diag([size / max(c - a, 1), size / max(d - b, 1)])
        m = scale @ rot
        m[:, 2] = scale @ rot[:, 2] - scale @ np.array(centre) + size / 2
        crop = cv2.warpAffine(small, m, (size, size), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REFLECT)
        if hold:
            crop = _held_view(crop, rng, hand)
        elif i:
            crop = _photometric(crop, rng)
        out[i] = crop
    return out


#: The card's size across, in pixels, of a far view (:func:`_far_view`): a card
#: held at arm's length fills a fifth to a half of a webcam frame's height, of
#: which a webcam's soft image resolves a fraction.
FAR_PIXELS: tuple[float, float] = (12.0, 28.0)


def _far_view(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``crop`` as a webcam sees a card held at arm's length: taken down to
    :data:`FAR_PIXELS` across (area-averaged) and scaled back to its size, so
    the corner index and centre symbol keep only their coarse shape."""
    import cv2

    size = crop.shape[0]
    px = int(round(rng.uniform(*FAR_PIXELS)))
    small = cv2.resize(crop, (px, px), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (size, size), interpolation=cv2.INTER_LINEAR)


#: The finder's box of a held card, in pixels of a webcam frame (its longer
#: side), for :func:`_webcam_view`: a card held at arm's length to one filling
#: most of a 640-pixel frame.
WEBCAM_PIXELS: tuple[float, float] = (96.0, 320.0)


def _webcam_view(small: np.ndarray, card: np.ndarray, jitter: np.ndarray,
                 size: int, rng: np.random.Generator, tilt: float,
                 hand: float) -> np.ndarray:
    """A ``size`` crop of the card ``card`` (xyxy in ``small``'s pixels) as a
    read cuts it from a webcam frame of the card held up before a person: the
    scene view (:func:`_scene_view`, the box moved by ``jitter``) drawn at the
    box's size in the frame (:data:`WEBCAM_PIXELS`), with the fingers, hand and
    light of :func:`_held_view` and a webcam's faults at that size (the card
    moving along one direction, out of focus, a dim room's noise lifted by the
    exposure, grain in the colour, JPEG with colour at half resolution), then
    cut down to ``size`` by area as :func:`vision.detector.crop_boxes` does: the
    faults are as large, for the card, as they are in a frame."""
    import cv2

    side = int(round(rng.uniform(*WEBCAM_PIXELS)))
    crop = _scene_view(small, card, jitter, side, rng, tilt)
    img = _held_view(crop, rng, hand).astype(np.float32)
    # the optics' blurs, drawn on a copy of at most 2 * size pixels (they leave
    # no detail finer than that copy's; the cost of a wide kernel stays low)
    blur_side = min(side, 2 * size)
    scale = blur_side / side
    sharp = cv2.resize(img, (blur_side, blur_side), interpolation=cv2.INTER_AREA)
    blurred = sharp
    if rng.random() < 0.7:  # the card moving: a line of a few % of the box
        length = max(1, int(round(blur_side * rng.uniform(0.01, 0.06))))
        kernel = np.zeros((2 * length + 1, 2 * length + 1), np.float32)
        kernel[length, :] = 1
        rot = cv2.getRotationMatrix2D((length, length), float(rng.uniform(0, 180)), 1)
        kernel = cv2.warpAffine(kernel, rot, kernel.shape)
        blurred = cv2.filter2D(blurred, -1, kernel / max(float(kernel.sum()), 1e-6))
    if rng.random() < 0.5:  # out of focus: a disc
        r = max(1, int(round(blur_side * rng.uniform(0.004, 0.015))))
        disc = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
        cv2.circle(disc, (r, r), r, 1.0, -1)
        blurred = cv2.filter2D(blurred, -1, disc / float(disc.sum()))
    if blurred is not sharp:
        img = cv2.resize(blurred, (side, side), interpolation=cv2.INTER_LINEAR) \
            if scale < 1 else blurred
    if rng.random() < 0.5:  # a dim room: the exposure lifts the sensor's noise
        gain = float(rng.uniform(1.5, 4.0))
        dim = img / gain
        noisy = dim + rng.normal(0, 1, img.shape).astype(np.float32) * np.sqrt(
            np.maximum(dim, 1.0) * float(rng.uniform(0.3, 1.0)))
        grain = cv2.resize(rng.normal(0, float(rng.uniform(1, 3)), (
            max(1, side // 2), max(1, side // 2), 3)).astype(np.float32), (side, side))
        img = (noisy + grain) * gain
    out = np.clip(img, 0, 255).astype(np.uint8)
    _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY,
                                        int(rng.integers(25, 80))])
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return cv2.resize(out, (size, size), interpolation=cv2.INTER_AREA)


def _photometric(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    import cv2

    x = crop.astype(np.float32) / 255
    x = x ** float(rng.uniform(0.7, 1.4))
    x = x * rng.uniform(0.75, 1.2, 3) + float(rng.uniform(-0.08, 0.08))
    if rng.random() < 0.3:
        x = cv2.GaussianBlur(x, (0, 0), float(rng.uniform(0.5, 1.5)))
    x = x + rng.normal(0, float(rng.uniform(0, 0.03)), x.shape)
    if rng.random() < 0.5:
        x = x[::-1, ::-1]
    return (np.clip(x, 0, 1) * 255).astype(np.uint8)


#: The enrolled card's crops and views are white-balanced as a still photo's
#: kept box is read with :data:`vision.multiscale.BALANCE`
#: (:func:`vision.card_colour.balance_white`), so the fine-tuning learns the
#: crops as that read sees them.
BALANCE_VIEWS: bool = False


def training_pool(
    shots: Sequence[Shot], config: EnrollConfig, labels: Sequence[str] = CLASSES,
    size: int = 64,
) -> tuple[np.ndarray, np.ndarray]:
    """Augmented card crops of every found shot, and rendered "no card" crops:
    (N, size, size, 3) uint8 BGR and (N,) class ids (indices into ``labels``;
    ``len(labels)``: no card). With :data:`BALANCE_VIEWS` the card crops are
    white-balanced (:func:`vision.card_colour.balance_white`)."""
    labels = list(labels)
    from datasets.crops import background_crop

    rng = np.random.default_rng(config.seed)
    xs, ys = [], []
    for shot in shots:
        if shot.box is None:
            continue
        views = augmented_crops(shot.frame, shot.box, config.views, rng, size,
                                config.held, config.hand, config.scene,
                                config.tilt, config.far, config.webcam)
        if BALANCE_VIEWS:
            from vision.card_colour import balance_white

            views = balance_white(views)
        xs.append(views)
        ys.append(np.full(config.views, labels.index(shot.label)))
    n_cards = sum(len(y) for y in ys)
    n_replay = int(round(n_cards * config.replay))
    if n_replay:
        from datasets.crops import card_crop

        shipped = [k for k, label in enumerate(labels) if label in CLASSES]
        ids = np.array(shipped)[np.arange(n_replay) % len(shipped)]
        xs.append(np.stack([card_crop(rng, labels[k], size) for k in ids]))
        ys.append(ids)
    n_bg = int(round(n_cards * config.background / max(1e-9, 1 - config.background)))
    if n_bg:
        xs.append(np.stack([background_crop(rng, size, ornaments=True)
                            for _ in range(n_bg)]))
        ys.append(np.full(n_bg, len(labels)))
    if not xs:
        raise EnrollError("no card was found in any photo")
    return np.concatenate(xs), np.concatenate(ys).astype(np.int64)


def fine_tune(
    shots: Sequence[Shot], base: Path | None = None,
    config: EnrollConfig = EnrollConfig(),
    progress: Callable[[str], None] = print,
) -> EnrollResult:
    """Fine-tune the crop classifier ``base`` (default: the shipped one) on the
    cards boxed in ``shots`` (see the module's docstring)."""
    import torch

    from vision.detector import CLASSIFIER_NAME, MODEL_DIR

    t0 = time.time()
    base = Path(base) if base is not None else MODEL_DIR / CLASSIFIER_NAME
    ckpt = torch.load(str(base), map_location="cpu", weights_only=True)
    width, size = int(ckpt.get("width", 16)), int(ckpt.get("size", 64))
    if config.threads:
        torch.set_num_threads(config.threads)
    labels, expected = deck_labels([s.label for s in shots if s.box is not None])
    states = ckpt.get("members") or [ckpt["state_dict"]]
    runs = [_tuned_members(shots, states, labels, width, size,
                           replace(config, seed=config.seed + SOUP_SEED_STEP * r),
                           progress)
            for r in range(max(1, config.soup))]
    tuned = [_mean_state([run[m] for run in runs]) for m in range(len(states))]
    checkpoint = {
        "members": tuned, "size": size, "width": width, "labels": labels,
        "base": base.name, "enroll": asdict(config),
    }
    if ADAPT_CORNER:
        corner = adapted_corner(shots, config.seed, progress)
        if corner is not None:
            checkpoint["corner"] = corner
    if KEEP_FACES:
        checkpoint["faces"] = enrolled_faces(shots)
    photos: dict[str, int] = {}
    for shot in shots:
        if shot.box is not None:
            photos[shot.label] = photos.get(shot.label, 0) + 1
    result = EnrollResult(
        checkpoint, photos, [c for c in expected if c not in photos],
        [s.source for s in shots if s.box is None],
    )
    result.confused = confusions(checkpoint, shots)
    result.seconds = time.time() - t0
    return result


#: The corner-index reader (:mod:`vision.corner_index`) fitted to the deck's own
#: print at enrollment (:func:`vision.corner_index.adapt` on each found
#: photo's card; :data:`CORNER_ADAPT` its settings), kept in the checkpoint
#: under ``corner``; a still photo's read weighs by it where
#: :data:`vision.multiscale.CORNER` is above 0. Off: the checkpoint has no
#: reader of its own (the shipped reader is used).
ADAPT_CORNER: bool = False
#: The settings of that fitting (``None``: :class:`vision.corner_index.AdaptConfig`'s).
CORNER_ADAPT = None


def adapted_corner(shots: Sequence[Shot], seed: int = 0,
                   progress: Callable[[str], None] = print) -> dict | None:
    """The shipped corner-index reader fitted to the cards boxed in ``shots``
    (:func:`vision.corner_index.adapt`), as a checkpoint dict; ``None`` when no
    shot's label has an index the reader knows."""
    from datasets.corner_crops import card_face
    from vision.corner_index import AdaptConfig, CornerReader, adapt, symbol_of

    cards = [(card_face(s.frame, s.box), s.label) for s in shots
             if s.box is not None and symbol_of(s.label) is not None]
    if not cards:
        return None
    config = replace(CORNER_ADAPT or AdaptConfig(), seed=seed)
    return adapt(CornerReader.load(), cards, config, progress).checkpoint()


#: Each found photo's card face (:func:`vision.face_match.face_of`: cut out,
#: stood upright, white-balanced, :data:`vision.face_match.FACE_HEIGHT` pixels
#: high) is kept in the checkpoint under ``faces`` (label -> a list of uint8
#: tensors), for a still photo's read to compare a held card with the deck's
#: own print (:data:`vision.multiscale.FACES`). About 18 kB a photo. Off
#: while that read is off (``benchmarks/eval_enroll.py --faces`` turns both on).
KEEP_FACES: bool = False


def enrolled_faces(shots: Sequence[Shot]) -> dict:
    """label -> the card faces of ``shots``' found photos
    (:func:`vision.face_match.face_of`), each a (H, W, 3) uint8 tensor (a
    checkpoint loads them with ``weights_only``)."""
    import torch

    from vision.face_match import face_of

    faces: dict = {}
    for shot in shots:
        if shot.box is not None:
            face = face_of(shot.frame, shot.box)
            faces.setdefault(shot.label, []).append(torch.from_numpy(face.copy()))
    return faces


#: The seed of the ``r``-th fine-tuning of a soup (:attr:`EnrollConfig.soup`)
#: is the config's seed plus ``r`` times this.
SOUP_SEED_STEP = 1000


def _tuned_members(shots: Sequence[Shot], states: list, labels: list, width: int,
                   size: int, config: EnrollConfig,
                   progress: Callable[[str], None]) -> list[dict]:
    """One fine-tuning of every member network ``states`` on a training pool of
    ``shots`` drawn with ``config.seed``: each member's weights after the mix
    (and the class-mean head, :attr:`EnrollConfig.proto`)."""
    import torch

    from vision.detector import crops_to_tensor

    x, y = training_pool(shots, config, labels, size)
    progress(f"training crops: {len(x)} ({int((y < len(labels)).sum())} of cards)")
    y_t = torch.from_numpy(y)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    tuned = []
    for m, state in enumerate(states):
        torch.manual_seed(config.seed + m)
        gen = torch.Generator().manual_seed(config.seed + m)
        net = _grown_net(state, width, len(labels))
        net.eval()  # batch-norm statistics stay the shipped ones
        stem, head = net[: config.frozen], net[config.frozen :]
        with torch.no_grad():
            feats = torch.cat([stem(crops_to_tensor(x[i : i + 256]))
                               for i in range(0, len(x), 256)])
        grown = [k for k, label in enumerate(labels) if label not in CLASSES]
        if grown:
            _imprint(head, feats, y_t, grown)
            _probe(head, feats, y_t, config, loss_fn, gen)
        start = {k: v.detach().clone() for k, v in net.state_dict().items()}
        params = list(head.parameters())
        anchor = [p.detach().clone() for p in params]
        opt = torch.optim.AdamW(params, lr=config.lr, weight_decay=0.0)
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, max(1, config.steps))
        for step in range(config.steps):
            idx = torch.randint(len(feats), (config.batch,), generator=gen)
            loss = loss_fn(head(feats[idx]), y_t[idx])
            pull = sum(((p - a) ** 2).sum() for p, a in zip(params, anchor))
            (loss + config.l2sp * pull).backward()
            opt.step()
            opt.zero_grad()
            sched.step()
            if (step + 1) % 20 == 0 or step + 1 == config.steps:
                progress(f"fine-tuning network {m + 1}/{len(states)}: step "
                         f"{step + 1}/{config.steps} loss {loss.item():.3f}")
        mixed = _mixed(start, net.state_dict(), config.mix)
        if config.proto > 0:
            net.load_state_dict(mixed)
            _fold_class_means(net[config.frozen:], feats, y_t, config.proto)
            mixed = {k: v.detach().clone() for k, v in net.state_dict().items()}
        tuned.append(mixed)
    return tuned


def _mean_state(states: list[dict]) -> dict:
    """The mean of several states of one network (float tensors; the others
    as in the first): a soup of fine-tunings that started from one network."""
    if len(states) == 1:
        return states[0]
    return {k: (sum(s[k] for s in states) / len(states)
                if states[0][k].is_floating_point() else states[0][k].clone())
            for k in states[0]}


def _mixed(start: dict, tuned: dict, mix: float) -> dict:
    """``start + mix * (tuned - start)`` for every float tensor of a state (the
    weight-space mix of :attr:`EnrollConfig.mix`); other tensors as tuned."""
    out = {}
    for k, v in tuned.items():
        v = v.detach().clone()
        if mix != 1 and v.is_floating_point():
            v = start[k] + mix * (v - start[k])
        out[k] = v
    return out


def confusions(checkpoint: dict, shots: Sequence[Shot]) -> list[list]:
    """``[label, read as, probability]`` for each found shot whose card the
    classifier reads wrong, or right below :data:`SURE` (then "read as" is the
    runner-up), worst first."""
    import torch

    from vision.detector import card_net, crop_boxes, crops_to_tensor

    found = [s for s in shots if s.box is not None]
    if not found:
        return []
    size = int(checkpoint["size"])
    crops = np.concatenate([crop_boxes(s.frame, s.box[None], size) for s in found])
    probs = 0
    with torch.no_grad():
        for state in checkpoint["members"]:
            net = card_net(len(checkpoint["labels"]) + 1, int(checkpoint["width"]))
            net.load_state_dict(state)
            probs = probs + torch.softmax(net.eval()(crops_to_tensor(crops)), 1).numpy()
    probs = probs / len(checkpoint["members"])
    labels = list(checkpoint["labels"]) + ["no card"]
    wrong, unsure = [], []
    for shot, p in zip(found, probs):
        truth = labels.index(shot.label)
        top = int(np.argmax(p))
        if top != truth:
            wrong.append([shot.label, labels[top], round(float(p[top]), 3)])
        elif p[truth] < SURE:
            runner = int(np.argsort(p)[-2])
            unsure.append([shot.label, labels[runner], round(float(p[runner]), 3)])
    return (sorted(wrong, key=lambda row: -row[2])
            + sorted(unsure, key=lambda row: -row[2]))


def _fold_class_means(head, feats, y, weight: float) -> None:  # noqa: ANN001
    """Add ``weight`` times a class-mean head to the last layer of ``head``.

    ``feats`` are the crops' inputs to ``head``, ``y`` their class ids (the last
    row: "no card"). The embedding ``f`` (the input of the last layer) of class
    ``k`` is read as a Gaussian around its crops' mean ``m_k`` with one variance
    ``s`` shared by every class and dimension (the crops' mean squared distance
    to their own class mean, over all dimensions); its log-likelihood, up to a term the
    same for every class, is ``(f . m_k - |m_k|^2 / 2) / s``: a linear layer,
    added to the last one. A class without crops takes the mean of every crop.
    """
    import torch

    fc = head[-1]
    with torch.no_grad():
        emb = torch.cat([head[:-1](feats[i : i + 512])
                         for i in range(0, len(feats), 512)])
        n = fc.weight.shape[0]
        means = emb.mean(0, keepdim=True).repeat(n, 1)
        for k in range(n):
            chosen = y == k
            if bool(chosen.any()):
                means[k] = emb[chosen].mean(0)
        var = ((emb - means[y]) ** 2).mean().clamp_min(1e-6)
        fc.weight += weight * means / var
        fc.bias -= weight * (means ** 2).sum(1) / (2 * var)


def _imprint(head, feats, y, rows: Sequence[int]) -> None:  # noqa: ANN001
    """Start each new label's row of the last layer from its crops (weight
    imprinting): the direction of its crops' mean feature away from the mean
    feature of every crop, at the shipped rows' mean length, with the mean card
    bias. A zero row learns too slowly in a few steps held near its start by
    the L2-SP pull."""
    import torch

    if not rows:
        return
    fc = head[-1]
    with torch.no_grad():
        emb = torch.cat([head[:-1](feats[i : i + 512])
                         for i in range(0, len(feats), 512)])
        centre = emb.mean(0)
        new = set(rows)
        kept = [k for k in range(fc.weight.shape[0] - 1) if k not in new]
        length = fc.weight[kept].norm(dim=1).mean()
        bias = fc.bias[kept].mean()
        for k in rows:
            chosen = y == k
            if not bool(chosen.any()):
                continue
            direction = emb[chosen].mean(0) - centre
            fc.weight[k] = direction / direction.norm().clamp_min(1e-9) * length
            fc.bias[k] = bias


def _probe(head, feats, y, config: EnrollConfig, loss_fn, gen) -> None:  # noqa: ANN001
    """Train the last layer alone on the features of the crops (cheap: the
    layers before it run once), pulled toward where it started, so that the new
    rows learn their cards before the whole head is fine-tuned."""
    import torch

    fc = head[-1]
    with torch.no_grad():
        emb = torch.cat([head[:-1](feats[i : i + 512])
                         for i in range(0, len(feats), 512)])
    params = [fc.weight, fc.bias]
    anchor = [p.detach().clone() for p in params]
    opt = torch.optim.AdamW(params, lr=config.probe_lr, weight_decay=0.0)
    for _ in range(config.probe_steps):
        idx = torch.randint(len(emb), (config.batch,), generator=gen)
        loss = loss_fn(fc(emb[idx]), y[idx])
        pull = sum(((p - a) ** 2).sum() for p, a in zip(params, anchor))
        (loss + config.l2sp * pull).backward()
        opt.step()
        opt.zero_grad()


def _grown_net(state: dict, width: int, n_labels: int):  # noqa: ANN202
    """The shipped network ``state`` with a last layer for ``n_labels`` labels and
    "no card": the shipped labels keep their rows, "no card" moves to the end,
    a new label starts at zero weights and the mean card bias."""
    import torch

    from vision.detector import card_net

    net = card_net(n_labels + 1, width)
    old = {k: v.clone() for k, v in state.items()}
    w_key, b_key = [k for k in state if k.endswith((".weight", ".bias"))][-2:]
    shipped = old[w_key].shape[0] - 1
    if n_labels != shipped:
        w, b = old[w_key], old[b_key]
        new_w = torch.zeros(n_labels + 1, w.shape[1])
        new_b = torch.full((n_labels + 1,), float(b[:shipped].mean()))
        new_w[:shipped], new_b[:shipped] = w[:shipped], b[:shipped]
        new_w[-1], new_b[-1] = w[shipped], b[shipped]
        old[w_key], old[b_key] = new_w, new_b
    net.load_state_dict(old)
    return net
