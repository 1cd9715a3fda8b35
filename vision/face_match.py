"""A still photo's card compared with the user's own enrolled photos of it.

An enrolled deck holds, for each label, photos of the very card print a person
later holds up before a webcam. The crop classifier names a held card from a
64-pixel crop in which, at arm's length, the digit is a few blurred pixels,
and it mixes up digits of one colour (9, 8 and 6 read 0; 3 read 5). This module
reads such a box by synthesis: each of the classifier's likeliest names of the
likeliest one's colour has its enrolled card face drawn as the box would show
it (turned by a few angles within the box, either way up, at the box's own
size in the photo's pixels, then cut to the working size as the box's crop is,
and blurred by a few amounts) and compared with the box's crop: the
normalised cross-correlation of each pixel's least channel (the card's white
border and oval against its coloured face and digit) over the middle of the
card, the best over small shifts. The names' probabilities are then weighed by
how well each one's face matches (:func:`weigh`).

    from vision.face_match import face_of, weigh
    faces = {label: [face_of(photo, box)] for ...}     # at enrollment
    probs = weigh(probs, labels, frame, xyxy, faces)   # at a still read

:func:`face_of` cuts an enrolled photo's card (its finder box, stood upright,
white-balanced) at :data:`FACE_HEIGHT` pixels; the faces travel in the
enrolled checkpoint (``faces``, :func:`vision.enroll.fine_tune` with
:data:`vision.enroll.KEEP_FACES`) and are set on a detector as
``detector.faces`` (:func:`vision.corner_index.attach`). The still-photo read
weighs by them at :data:`vision.multiscale.FACES` (0: off).
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

#: The height, in pixels, an enrolled card face is kept at (its width follows
#: the box; a card is about 1.55 times as high as wide).
FACE_HEIGHT = 96
#: The side, in pixels, of the square the box and the drawn faces are compared at.
WORK = 40
#: Turns (degrees) of the card within its box tried for each face.
ANGLES: tuple[float, ...] = (-24.0, -16.0, -8.0, 0.0, 8.0, 16.0, 24.0)
#: Gaussian blurs (sigma, working-size pixels) added to a drawn face.
BLURS: tuple[float, ...] = (0.0, 1.0, 2.0)
#: Shifts (working-size pixels) of the drawn face over the box's crop.
SHIFT = 2
#: How much of the box the card fills, tried (a held box holds fingers and
#: background as well).
FILLS: tuple[float, ...] = (0.92, 1.0)
#: The share of the card's width and height, about its centre, compared (1:
#: the whole card; the digits differ in the middle, the border and corners
#: of one colour's cards alike).
CENTRE = 0.7
#: Names compared: at most this many, the likeliest first ...
CANDIDATES = 3
#: ... each with at least this share of the likeliest name's probability.
LEAST_SHARE = 0.02


def face_of(frame: np.ndarray, box, height: int = FACE_HEIGHT) -> np.ndarray:  # noqa: ANN001
    """The card in ``frame``'s box ``box`` (xyxy; a photo's finder box) stood
    upright (a box at least 1.2 times as wide as high turned a quarter),
    white-balanced and taken to ``height`` pixels high: (height, W, 3) uint8 BGR."""
    import cv2

    from datasets.corner_crops import card_face
    from vision.card_colour import balance_white

    face = card_face(frame, box, height=max(height * 4, 64))
    width = max(8, int(round(face.shape[1] * height / max(face.shape[0], 1))))
    face = cv2.resize(face, (width, height), interpolation=cv2.INTER_AREA)
    return balance_white(face[None])[0]


#: What is compared of each pixel: ``"grey"`` (its grey level) or ``"white"``
#: (its least channel: a card's white border and oval are white in every
#: channel, its coloured face and digit dark in one; the same for every
#: colour and cast once the crop is white-balanced).
FEATURE = "white"


def _grey(img: np.ndarray) -> np.ndarray:
    """The compared level of each pixel of a BGR image (:data:`FEATURE`)."""
    if FEATURE == "white":
        return img.min(axis=-1).astype(np.float32)
    return img.astype(np.float32) @ np.float32([0.114, 0.587, 0.299])


def _drawn(face: np.ndarray, box_w: float, box_h: float, angle: float,
           fill: float, turned: bool) -> tuple[np.ndarray, np.ndarray] | None:
    """``face`` drawn in a box of ``box_w`` x ``box_h`` pixels (the photo's),
    turned by ``angle`` degrees (and half round with ``turned``), the turned
    card's extent ``fill`` of the box, then cut to :data:`WORK` as a read's
    crop is (area resize): (grey image, card mask), or ``None`` where no card
    of that turn fits the box."""
    import cv2

    t = np.radians(angle)
    c, s = abs(np.cos(t)), abs(np.sin(t))
    det = c * c - s * s
    if det <= 0.2:
        return None
    bw, bh = box_w * fill, box_h * fill
    cw, ch = (c * bw - s * bh) / det, (c * bh - s * bw) / det
    if cw < 2 or ch < 2:
        return None
    fw_px, fh_px = max(2, int(round(box_w))), max(2, int(round(box_h)))
    if turned:
        face = np.ascontiguousarray(face[::-1, ::-1])
    # the face at the card's size in the photo's pixels first (an area resize
    # keeps no detail finer than those pixels), then turned into the box
    small = cv2.resize(face, (max(2, int(round(cw))), max(2, int(round(ch)))),
                       interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    rot = cv2.getRotationMatrix2D((sw / 2, sh / 2), angle, 1.0)
    rot[:, 2] += np.array([fw_px / 2 - sw / 2, fh_px / 2 - sh / 2])
    img = cv2.warpAffine(small, rot, (fw_px, fh_px), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    inner = np.zeros((sh, sw), np.float32)
    my, mx = int(round(sh * (1 - CENTRE) / 2)), int(round(sw * (1 - CENTRE) / 2))
    inner[my : sh - my, mx : sw - mx] = 1
    mask = cv2.warpAffine(inner, rot, (fw_px, fh_px), flags=cv2.INTER_LINEAR)
    img = cv2.resize(img, (WORK, WORK), interpolation=cv2.INTER_AREA)
    mask = cv2.resize(mask, (WORK, WORK), interpolation=cv2.INTER_AREA)
    return _grey(img), mask


def _ncc(query: np.ndarray, drawn: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The best normalised cross-correlation of each drawn face ``drawn[v]``
    (grey, (V, WORK, WORK); counted where ``masks[v]`` is near 1) with the
    grey crop ``query`` (WORK, WORK), over shifts of up to :data:`SHIFT`
    pixels: (V,) in -1..1."""
    import cv2

    pad = cv2.copyMakeBorder(query, SHIFT, SHIFT, SHIFT, SHIFT, cv2.BORDER_REFLECT)
    side = 2 * SHIFT + 1
    wins = np.lib.stride_tricks.sliding_window_view(pad, query.shape)
    wins = np.ascontiguousarray(wins.reshape(side * side, *query.shape))
    m = (masks > 0.9).astype(np.float32)
    n = m.sum(axis=(1, 2))[:, None]
    mt = m * drawn
    st = mt.sum(axis=(1, 2))[:, None]
    stt = (mt * drawn).sum(axis=(1, 2))[:, None]
    sa = np.einsum("vij,sij->vs", m, wins)
    saa = np.einsum("vij,sij->vs", m, wins * wins)
    sab = np.einsum("vij,sij->vs", mt, wins)
    nn = np.maximum(n, 1.0)
    cov = sab - sa * st / nn
    var = np.maximum(saa - sa * sa / nn, 0) * np.maximum(stt - st * st / nn, 0)
    ok = (var > 1e-6) & (n >= 16)
    ncc = np.where(ok, cov / np.sqrt(np.maximum(var, 1e-12)), -1.0)
    return ncc.max(axis=1)


def box_query(frame: np.ndarray, xyxy) -> np.ndarray:  # noqa: ANN001
    """The grey, white-balanced :data:`WORK` crop of the box ``xyxy``."""
    from vision.card_colour import balance_white
    from vision.detector import crop_boxes

    box = np.asarray(xyxy, np.float64).reshape(1, 4)
    return _grey(balance_white(crop_boxes(frame, box, WORK))[0])


def match(frame: np.ndarray, xyxy, faces: Sequence[np.ndarray]) -> np.ndarray:  # noqa: ANN001
    """How well each of ``faces`` (enrolled card faces, :func:`face_of`),
    drawn as the box ``xyxy`` of ``frame`` would show it, matches the box:
    the best normalised cross-correlation of grey levels over the turns,
    either way up, fills, blurs and shifts tried, (len(faces),) in -1..1."""
    import cv2

    x1, y1, x2, y2 = (float(v) for v in np.asarray(xyxy).reshape(4))
    query = box_query(frame, (x1, y1, x2, y2))
    out = np.full(len(faces), -1.0)
    for i, face in enumerate(faces):
        imgs, masks = [], []
        for turned in (False, True):
            for angle in ANGLES:
                for fill in FILLS:
                    drawn = _drawn(face, x2 - x1, y2 - y1, angle, fill, turned)
                    if drawn is None:
                        continue
                    img, mask = drawn
                    for sigma in BLURS:
                        imgs.append(img if sigma <= 0
                                    else cv2.GaussianBlur(img, (0, 0), sigma))
                        masks.append(mask)
        if imgs:
            out[i] = float(_ncc(query, np.stack(imgs), np.stack(masks)).max())
    return out


#: How strongly a face's match weighs a name (:func:`weigh`): each candidate's
#: probability times ``exp(STRENGTH * (its match - the best match))``.
STRENGTH = 30.0


def scores(frame: np.ndarray, xyxy, faces: Sequence[Sequence[np.ndarray]]  # noqa: ANN001
           ) -> np.ndarray:
    """The match of each name's faces (``faces[i]``: that name's enrolled
    faces; its best match counts) with the box ``xyxy`` of ``frame``
    (:func:`match`): (len(faces),)."""
    flat = [f for items in faces for f in items]
    out = np.full(len(faces), -1.0)
    if not flat:
        return out
    owner = np.repeat(np.arange(len(faces)), [len(items) for items in faces])
    np.maximum.at(out, owner, match(frame, xyxy, flat))
    return out


def _colour(label: str) -> str | None:
    """A card label's colour (``red-7`` -> ``red``); ``None`` for a wild."""
    head = label.partition("-")[0]
    return None if head == "wild" or "-" not in label else head


def weigh(probs: np.ndarray, labels: Sequence[str], frame: np.ndarray, xyxy,  # noqa: ANN001
          faces: Mapping[str, Sequence[np.ndarray]], strength: float | None = None,
          candidates: int | None = None) -> np.ndarray:
    """``probs`` (card probabilities over ``labels``) with the likeliest names
    of the likeliest name's colour (the digit shapes of one colour are what a
    held card's read mixes up; a grey level tells no colours apart) (at most
    ``candidates``, default :data:`CANDIDATES`, each at least
    :data:`LEAST_SHARE` of the likeliest's probability, each with a face in
    ``faces``: label -> that card's enrolled faces) weighed by how well their
    faces match the box ``xyxy`` of ``frame`` (:func:`scores`): times
    ``exp(strength * (match - best match))`` (default :data:`STRENGTH`); the
    other names times the least of those factors. As they are where fewer
    than two names have a face, or the likeliest is a wild."""
    strength = STRENGTH if strength is None else strength
    candidates = CANDIDATES if candidates is None else candidates
    probs = np.asarray(probs, float)
    order = [int(k) for k in np.argsort(-probs)[:1]]
    top = float(probs[order[0]]) if order else 0.0
    colour = _colour(labels[order[0]]) if order else None
    if colour is None:
        return probs
    order = [int(k) for k in np.argsort(-probs) if _colour(labels[k]) == colour]
    chosen = [k for k in order[:candidates] if probs[k] >= LEAST_SHARE * top
              and probs[k] > 0 and len(faces.get(labels[k], ()))]
    if len(chosen) < 2 or strength <= 0:
        return probs
    got = scores(frame, xyxy, [faces[labels[k]] for k in chosen])
    factors = np.exp(strength * (got - got.max()))
    out = probs * factors.min()
    out[chosen] = probs[chosen] * factors
    return out
