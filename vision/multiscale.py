"""A multi-scale pass of the card detector, for still photos.

The finder was trained on table scenes where a card covers a few percent of the
frame. A close-up, where one card fills 60-95 % of the photo, is outside what it
learned: it misses the card or boxes a part of it (the big centre number, a corner
index). This pass runs the detector on the frame as it is and again zoomed out
(the frame pasted in the middle of a larger grey canvas, so the card becomes
finder-sized), maps every box back to the frame's pixels, and keeps one box per
card: a box lying inside a larger card box is a part of that card and is dropped,
and duplicates of one card across the scales are merged by overlap.

    from vision.detector import Detector
    from vision.multiscale import detect_multiscale
    dets = detect_multiscale(Detector(), photo)            # zooms (1.0, 0.5)

It costs one detector run per zoom, so it serves ``tableref detect`` on photos and
deck enrollment, not the live path (:mod:`vision.live` runs one scale).
"""

from __future__ import annotations

from typing import Protocol, Sequence

import numpy as np

from vision.card_colour import balance_white
from vision.config import DetectorConfig
from vision.detections import Detections, box_iou

#: Zooms of the default pass: the frame as it is, and shrunk to half its size on a
#: canvas twice as large (a card filling 95 % of the photo then fills about half).
ZOOMS: tuple[float, ...] = (1.0, 0.5)
#: Share of a box's area that must lie inside a larger box for it to be called a
#: part of that card.
INSIDE = 0.8
#: A box counts as "larger" when its area is at least this many times the other's.
LARGER = 1.6
#: Boxes of two scales overlapping at least this much (IoU) are one card.
SAME_CARD_IOU = 0.6
#: Of one card's boxes (a duplicate across zooms, or a finder box holding a named
#: box), one at least this many times the kept box's area that holds
#: :data:`INSIDE` of it is the card's whole extent: the kept box is widened to it
#: (a box of most of the card, short of its corner index, is not the card).
WIDER = 1.1
#: Grey of the canvas around a zoomed-out frame (the finder's letterbox grey).
CANVAS_GREY = 114


def photo_rules(config: DetectorConfig | None = None) -> tuple[float | None, float | None]:
    """The still-photo rules of ``config`` (default: :class:`DetectorConfig`'s
    defaults): ``(retry_conf, refused_floor)``, each ``None`` where the config
    turns it off (1)."""
    config = config or DetectorConfig()
    retry, floor = config.photo_retry_conf, config.photo_refused_floor
    return (retry if retry < 1 else None), (floor if floor < 1 else None)


def photo_shares(config: DetectorConfig | None = None) -> tuple[float | None, float | None]:
    """The share rules of a refused photo of ``config`` (default:
    :class:`DetectorConfig`'s defaults): ``(card_share, window_share)``, each
    ``None`` where the config turns it off (1)."""
    config = config or DetectorConfig()
    card, window = config.photo_card_share, config.photo_window_share
    return (card if card < 1 else None), (window if window < 1 else None)


def photo_reading(config: DetectorConfig | None = None) -> tuple[float, bool, bool]:
    """How a photo of one card is named, from ``config`` (default:
    :class:`DetectorConfig`'s defaults): ``(corner, recolour, balance)``
    (``detector.photo_corner``, ``photo_recolour``, ``photo_balance``)."""
    config = config or DetectorConfig()
    return (float(config.photo_corner), bool(config.photo_recolour),
            bool(config.photo_balance))


#: A photo where no zoom finds a card is looked at once more with the finder's
#: least box score lowered to this (a still photo is expected to hold a card; a
#: blurred card held in a hand scores low); ``None``: no second look
#: (``detector.photo_retry_conf``).
RETRY_BOX_CONF: float | None = photo_rules()[0]
#: A photo of one card whose every box the classifier calls "no card": the
#: largest finder box is named with the likeliest card when its probability is
#: at least this (:func:`name_refused`); ``None``: such a photo holds no card
#: (``detector.photo_refused_floor``).
REFUSED_FLOOR: float | None = photo_rules()[1]
#: A refused photo's finder box is also named when its likeliest card holds at
#: least this share of the card probabilities ("no card" left out: a card in a
#: hand that the classifier half calls "no card" but reads as one card among the
#: cards; an empty background's box, refused, spreads them over many cards);
#: ``None``: off (``detector.photo_card_share``, 0.2).
CARD_SHARE: float | None = photo_shares()[0]
#: A refused photo's finder box is also named when the classifier's "no card"
#: probability of it is at most this: the classifier sees a card there and is
#: unsure only which (a blurred digit's probability spread over the few cards
#: of its colour whose shapes it shares, none reaching the detector's least
#: confidence); an empty background's box is called "no card". ``None``, the
#: default: off (on `valid`'s held-card proxies such boxes were named wrongly
#: more often than rightly, ``models/MODEL_CARD.md``); tried with
#: ``eval_enroll --no-card``, not a config field while it is off.
NO_CARD_AT_MOST: float | None = None
#: A photo whose every finder box is refused, or where the finder draws none:
#: windows in its middle (:data:`FRAME_WINDOWS`) are named by the same rule with
#: this share (a card filling the frame is the frame); ``None``: off
#: (``detector.photo_window_share``).
WINDOW_SHARE: float | None = photo_shares()[1]
#: Those windows, centred: (share of the frame's width, share of its height).
#: The whole frame, its middle, and an upright card's shape in the middle.
FRAME_WINDOWS: tuple[tuple[float, float], ...] = ((1.0, 1.0), (0.8, 0.8), (0.55, 0.9))
#: A refused photo's finder boxes looked at, largest first.
REFUSED_BOXES = 4
#: A photo of one card whose kept box is at least this many times as wide as it
#: is high holds a card lying sideways (a card is about 1.55 times as high as it
#: is wide; a card held up or photographed upright, turned up to 20 degrees,
#: stays well under it): it is named from the photo turned a quarter either way
#: (the mean of the two readings, :func:`read_turned`); ``None``: as it is.
TURN_ASPECT: float | None = 1.2
#: A photo of one card whose kept box stands upright and is named under
#: :data:`SURE_READ`: it is named again from the mean of the box and the box
#: with each side moved in by these shares of its width and height
#: (:func:`read_turned`): a held card's box holds fingers, the tilted card's
#: background corners and the blur of its edges, and a tighter crop of a
#: webcam's few pixels shows the corner index and centre symbol larger
#: (``()``, the default: the box alone; ``(0.05, 0.1)`` lifted the arm's-length
#: proxy but read the real held, phone and other-deck photos lower,
#: ``models/MODEL_CARD.md``).
TIGHT_VIEWS: tuple[float, ...] = ()
#: A kept box named with at least this probability keeps its name.
SURE_READ = 0.9
#: A photo of one card is also named from its card made upright: the card's
#: outline found in and around the kept box and warped to the classifier's
#: square (:mod:`vision.rectify`; a held card is turned and tilted out of the
#: picture's plane, so its box shows it small, slanted and with background in
#: its corners). The weight of that reading in the mean with the box's
#: reading (:func:`read_turned`); 0: off, 1: the upright card alone. A box
#: where no card-shaped outline is found is read as it is.
RECTIFY: float = 0.0
#: A photo of one card's kept box is named from its crop white-balanced
#: (:func:`balance_white`: each colour channel scaled so that its bright end is
#: the card's white): a card held before a webcam under a strong colour cast
#: or dim light shows its digit in few, dull levels (:func:`read_turned`;
#: ``detector.photo_balance``).
BALANCE: bool = photo_reading()[2]
#: A photo of one card's name has its colour read again from its box's pixels
#: (:func:`recoloured`, :mod:`vision.card_colour`: each channel's bright end
#: taken as the card's white, the saturated pixels' hue): the classifier's
#: symbol is kept and its colour changed only where the pixels strongly show
#: another colour of which the classifier makes a candidate
#: (``detector.photo_recolour``).
RECOLOUR: bool = photo_reading()[1]
#: A photo of one card's reading is weighed by the symbol its corner index
#: shows (:mod:`vision.corner_index`: the box's top-left corner, and its bottom-right
#: turned half round, read at their own resolution by a small network of their
#: own): each card's probability times its symbol's probability to this power
#: (:func:`vision.corner_index.fuse`, :func:`read_turned`). 0: off (the reader
#: is not loaded; ``detector.photo_corner``).
CORNER: float = photo_reading()[0]
#: A photo of one card whose box stands upright, read by an enrolled deck's
#: detector that holds the deck's own photos (``detector.faces``,
#: :func:`vision.corner_index.attach`): its likeliest names are weighed by how
#: well each one's enrolled photo, drawn as the box would show it at the box's
#: own pixel size, matches the box (:mod:`vision.face_match`); each name's
#: probability times ``exp(FACES * (its match - the best match))``, the
#: matches normalised cross-correlations. 0, the default: off (its measurement
#: is in ``models/MODEL_CARD.md``); tried with ``eval_enroll --faces``, not a
#: config field while it is off.
FACES: float = 0.0
#: The corner-index reader's weights (``None``: the shipped
#: :data:`vision.corner_index.MODEL`).
CORNER_MODEL = None
_CORNER_READERS: dict = {}
#: The upright card's crop named under this probability is named from the mean
#: of it, it turned half round and it with :data:`RECTIFY_LOOSER` more margin
#: (as the detector reads a box it is unsure of).
RECTIFY_SURE = 0.9
#: That looser crop's margin over :data:`vision.rectify.MARGIN`, a share of
#: its side (the card drawn smaller, more of what is around it shown).
RECTIFY_LOOSER = 0.04


class CardDetector(Protocol):
    """Anything with the :class:`vision.detector.Detector` ``detect`` method."""

    def detect(self, frame_bgr: np.ndarray) -> Detections: ...


def parse_zooms(text: str) -> tuple[float, ...]:
    """``"1,0.5"`` -> ``(1.0, 0.5)``; each zoom in (0, 1].

    Raises:
        ValueError: a zoom that is not a number in (0, 1], or none at all.
    """
    try:
        zooms = tuple(float(t) for t in text.split(",") if t.strip())
    except ValueError:
        raise ValueError(f"zooms must be numbers like 1,0.5, got {text!r}") from None
    if not zooms or any(not 0 < z <= 1 for z in zooms):
        raise ValueError(f"each zoom must lie in (0, 1], got {text!r}")
    return zooms


def zoom_out(frame: np.ndarray, zoom: float) -> tuple[np.ndarray, tuple[int, int]]:
    """The frame in the middle of a grey canvas ``1 / zoom`` times its size.

    Returns:
        The canvas and the (x, y) pixel offset of the frame's corner on it.
    """
    if zoom >= 1:
        return frame, (0, 0)
    h, w = frame.shape[:2]
    big_h, big_w = round(h / zoom), round(w / zoom)
    oy, ox = (big_h - h) // 2, (big_w - w) // 2
    canvas = np.full((big_h, big_w, 3), CANVAS_GREY, np.uint8)
    canvas[oy : oy + h, ox : ox + w] = frame[:, :, :3]
    return canvas, (ox, oy)


def _areas(xyxy: np.ndarray) -> np.ndarray:
    return np.prod(np.clip(xyxy[:, 2:] - xyxy[:, :2], 0, None), axis=1)


def drop_nested(
    dets: Detections, inside: float = INSIDE, larger: float = LARGER,
    same_card_iou: float = SAME_CARD_IOU, wider: float | None = WIDER,
) -> Detections:
    """One box per card: boxes inside a larger box go, duplicates merge.

    A box is dropped when at least ``inside`` of its area lies within a box at
    least ``larger`` times its area (a part of that card). Of boxes overlapping by
    ``same_card_iou`` or more, the most confident stays, its box widened to the
    largest of those duplicates that holds ``inside`` of it and is at least
    ``wider`` times its area (the card's whole extent; ``None``: never widened),
    its name and confidence kept.

    Returns:
        The kept detections, most confident first.
    """
    if len(dets) < 2:
        return dets
    xyxy = dets.xyxy
    area = _areas(xyxy)
    lo = np.maximum(xyxy[:, None, :2], xyxy[None, :, :2])
    hi = np.minimum(xyxy[:, None, 2:], xyxy[None, :, 2:])
    inter = np.prod(np.clip(hi - lo, 0, None), axis=2)
    # nested[i, j]: box i lies inside the larger box j.
    holds = inter >= inside * area[:, None]
    nested = holds & (area[None, :] >= larger * area[:, None])
    keep = ~nested.any(axis=1)
    order = [i for i in np.argsort(-dets.confidence, kind="stable") if keep[i]]
    iou = box_iou(xyxy, xyxy)
    chosen: list[int] = []
    for i in order:
        if all(iou[i, j] < same_card_iou for j in chosen):
            chosen.append(int(i))
    out = dets[np.array(chosen, dtype=np.int64)]
    if wider is None:
        return out
    widened = out.xyxy.copy()
    for n, i in enumerate(chosen):
        whole = np.flatnonzero(keep & (iou[i] >= same_card_iou) & holds[i]
                               & (area >= wider * area[i]))
        if len(whole):
            widened[n] = xyxy[whole[np.argmax(area[whole])]]
    out.xyxy = widened
    return out


def detect_multiscale(
    detector: CardDetector, frame: np.ndarray, zooms: Sequence[float] = ZOOMS,
    retry_conf: float | None = None,
) -> Detections:
    """Cards in one BGR photo, found at several zooms (see the module's docstring).

    Args:
        detector: a :class:`vision.detector.Detector` (or anything with ``detect``).
        frame: (H, W, 3) BGR uint8 photo.
        zooms: each in (0, 1]; 1 is the frame as it is, 0.5 the frame at half
            size on a canvas twice as large.
        retry_conf: where no zoom finds a card, the zooms are run again with
            the finder's least box score (``box_conf`` of the detector, or of
            the detector a :class:`vision.decks.CardFinder` wraps) lowered to
            this (default :data:`RETRY_BOX_CONF`; 1 or more: no second look).

    Returns:
        Detections in the frame's pixels, one per card, most confident first.
    """
    frame = np.asarray(frame)
    if frame.ndim == 2:
        frame = np.repeat(frame[:, :, None], 3, axis=2)
    parts = _zoom_parts(detector, frame, zooms)
    retry = RETRY_BOX_CONF if retry_conf is None else retry_conf
    owner = getattr(detector, "detector", detector)
    if not parts and retry is not None and retry < getattr(owner, "box_conf", 0.0):
        kept = owner.box_conf
        owner.box_conf = float(retry)
        try:
            parts = _zoom_parts(detector, frame, zooms)
        finally:
            owner.box_conf = kept
    if not parts:
        return _empty_like(detector)
    merged = Detections.concat(parts)
    return drop_nested(merged)


def _zoom_parts(detector: CardDetector, frame: np.ndarray,
                zooms: Sequence[float]) -> list[Detections]:
    """The detections of each zoom that finds any, in the frame's pixels."""
    h, w = frame.shape[:2]
    parts = []
    for zoom in zooms:
        canvas, (ox, oy) = zoom_out(frame, float(zoom))
        dets = detector.detect(canvas)
        if not len(dets):
            continue
        xyxy = dets.xyxy - np.array([ox, oy, ox, oy], np.float32)
        xyxy[:, [0, 2]] = xyxy[:, [0, 2]].clip(0, w)
        xyxy[:, [1, 3]] = xyxy[:, [1, 3]].clip(0, h)
        ok = _areas(xyxy) > 0
        dets.xyxy = xyxy
        parts.append(dets[ok])
    return parts


def whole_card(named: Detections, boxes: Detections, larger: float = WIDER,
               inside: float = INSIDE) -> Detections:
    """``named`` with each box that lies in a larger box of ``boxes`` (at least
    ``inside`` of it within a box at least ``larger`` times its area) widened to
    the smallest such box, its name and confidence kept.

    In a photo of one card the classifier may refuse the card's whole box and
    name a part of it (the centre number, a corner index, most of the card short
    of an edge); the finder's boxes (``boxes``, e.g. :func:`detect_multiscale`
    of a :class:`vision.decks.CardFinder`) still hold the whole card. The
    default ``larger`` is :data:`WIDER`, not :data:`LARGER`: a photo of one card
    has no second card for a box of most of it to be.
    """
    if not len(named) or not len(boxes):
        return named
    a, b = named.xyxy, boxes.xyxy
    area_a, area_b = _areas(a), _areas(b)
    lo = np.maximum(a[:, None, :2], b[None, :, :2])
    hi = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod(np.clip(hi - lo, 0, None), axis=2)
    holds = (inter >= inside * area_a[:, None]) & (
        area_b[None, :] >= larger * area_a[:, None])
    if not holds.any():
        return named
    xyxy = a.copy()
    for i in np.flatnonzero(holds.any(axis=1)):
        options = np.flatnonzero(holds[i])
        xyxy[i] = b[options[np.argmin(area_b[options])]]
    return Detections(xyxy, named.confidence, named.class_id, names=named.names,
                      data=dict(named.data))


def read_card(detector: CardDetector, frame: np.ndarray,
              zooms: Sequence[float] = ZOOMS, finder: CardDetector | None = None
              ) -> Detections:
    """The card of a photo of one card: the largest box ``detector`` keeps at
    ``zooms``, widened to the finder's whole-card box when it is a part of one
    (:func:`whole_card`; ``finder``: the detector's finder alone, e.g.
    :class:`vision.decks.CardFinder`; ``None``: no widening)."""
    named = detect_multiscale(detector, frame, zooms)
    if finder is not None:
        boxes = detect_multiscale(finder, frame, zooms)
        named = (whole_card(named, boxes) if len(named)
                 else name_refused(detector, frame, boxes))
    return read_turned(detector, frame, largest(named))


def read_turned(detector: CardDetector, frame: np.ndarray, card: Detections,
                aspect: float | None = None, rectify: float | None = None,
                balance: bool | None = None, recolour: bool | None = None
                ) -> Detections:
    """``card`` (one detection of a photo of one card) named again from the
    photo turned a quarter either way when its box is at least ``aspect``
    (default :data:`TURN_ASPECT`; ``None``: never) times as wide as it is high:
    a card lying sideways, which the classifier learned upright or upside down
    (the enrollment's views too), is read upright. The two readings'
    probabilities are averaged ("no card" left out; a deck's absent labels stay
    unnamed); the box is kept. An upright box named under :data:`SURE_READ`
    is named from the mean of the box and its :data:`TIGHT_VIEWS` (the box
    kept). With ``rectify`` (default :data:`RECTIFY`) above 0, the reading is
    mixed with that of the card's outline warped upright
    (:func:`_rectified_probs`) at that weight, where an outline is found.
    With ``balance`` (default :data:`BALANCE`), every crop read here is
    white-balanced first (:func:`balance_white`; one view a crop) and an
    upright box is always named anew. With :data:`CORNER` above 0 the
    reading is weighed by the symbol of the card's corner index
    (:mod:`vision.corner_index`) before it is named, and an upright box's by
    the deck's own enrolled photos with :data:`FACES` above 0
    (:func:`_face_weighed`). With ``recolour`` (default
    :data:`RECOLOUR`), the name's colour is then read again from the box's
    pixels (:func:`recoloured`)."""
    named = _read_turned(detector, frame, card, aspect, rectify, balance)
    recolour = RECOLOUR if recolour is None else bool(recolour)
    return recoloured(detector, frame, named) if recolour else named


def recoloured(detector: CardDetector, frame: np.ndarray,
               card: Detections) -> Detections:
    """``card`` (one named detection of a photo of one card) with its colour
    changed where its box's pixels strongly show another colour and the
    classifier gives that colour's card of the same symbol some probability
    (:func:`vision.card_colour.recolour`; the symbol is the classifier's). The
    box is kept; the confidence is the classifier's probability of the new
    name."""
    if len(card) != 1 or not hasattr(detector, "_classify"):
        return card
    from vision.card_colour import recolour
    from vision.detector import crop_boxes

    labels = list(_names(detector).get("names") or card.names)
    xyxy = card.xyxy.astype(np.float32)
    crop = crop_boxes(frame, xyxy, int(getattr(detector, "crop", 64)))[0]
    probs = _card_probs(detector, frame, xyxy)[0]
    said = card.labels[0]
    named = recolour(said, {lab: float(p) for lab, p in zip(labels, probs)}, crop)
    if named == said:
        return card
    k = labels.index(named)
    return Detections(card.xyxy.copy(), [float(probs[k])], [k], **_names(detector))


def _read_turned(detector: CardDetector, frame: np.ndarray, card: Detections,
                 aspect: float | None, rectify: float | None,
                 balance: bool | None) -> Detections:
    """:func:`read_turned` without the colour's second read."""
    aspect = TURN_ASPECT if aspect is None else aspect
    rectify = RECTIFY if rectify is None else rectify
    balance = BALANCE if balance is None else bool(balance)
    if balance and not hasattr(detector, "read_crops"):
        balance = False
    if len(card) != 1 or not hasattr(detector, "_classify"):
        return card
    x1, y1, x2, y2 = (float(v) for v in card.xyxy[0])
    upright = aspect is None or x2 - x1 < aspect * (y2 - y1)
    if upright:
        probs = _tight_probs(detector, frame, card, balance)
        if probs is None and balance:
            probs = _read_probs(detector, frame, card.xyxy.astype(np.float32),
                                balance)[0]
        upright_probs = (None if rectify <= 0
                         else _rectified_probs(detector, frame, card))
        if upright_probs is None:
            if probs is None:
                if CORNER <= 0:
                    return card
                probs = _card_probs(detector, frame, card.xyxy.astype(np.float32))[0]
        else:
            if probs is None:
                probs = _card_probs(detector, frame, card.xyxy.astype(np.float32))[0]
            probs = (1 - rectify) * probs + rectify * upright_probs
        probs = _corner_weighed(detector, frame, card, probs)
        probs = _face_weighed(detector, frame, card, probs)
        k = int(probs.argmax())
        return Detections(card.xyxy.copy(), [float(probs[k])], [k], **_names(detector))
    h, w = frame.shape[:2]
    left = np.ascontiguousarray(np.rot90(frame, 1))  # (x, y) -> (y, w - x)
    right = np.ascontiguousarray(np.rot90(frame, 3))  # (x, y) -> (h - y, x)
    probs = (_read_probs(detector, left, np.array([[y1, w - x2, y2, w - x1]],
                                                  np.float32), balance)
             + _read_probs(detector, right, np.array([[h - y2, x1, h - y1, x2]],
                                                     np.float32), balance))[0] / 2
    upright_probs = None if rectify <= 0 else _rectified_probs(detector, frame, card)
    if upright_probs is not None:
        probs = (1 - rectify) * probs + rectify * upright_probs
    probs = _corner_weighed(detector, frame, card, probs)
    k = int(probs.argmax())
    return Detections(card.xyxy.copy(), [float(probs[k])], [k], **_names(detector))


def _face_weighed(detector: CardDetector, frame: np.ndarray, card: Detections,
                  probs: np.ndarray) -> np.ndarray:
    """``probs`` (the card probabilities of ``card``'s upright box) with the
    likeliest names weighed by how well the deck's own enrolled photo of each
    matches the box drawn at its size (:func:`vision.face_match.weigh`, at
    :data:`FACES`); as they are where it is 0 or the detector has no enrolled
    faces (``detector.faces``, :func:`vision.corner_index.attach`)."""
    faces = getattr(detector, "faces", None)
    if FACES <= 0 or not faces:
        return probs
    from vision.face_match import weigh

    labels = list(_names(detector).get("names") or card.names)
    return weigh(probs, labels, frame, card.xyxy[0], faces, FACES)


def corner_reader(path=None):  # noqa: ANN001, ANN201
    """The corner-index reader of ``path`` (default :data:`CORNER_MODEL`, else
    the shipped weights), loaded once."""
    from vision.corner_index import CornerReader

    key = str(path or CORNER_MODEL or "")
    if key not in _CORNER_READERS:
        _CORNER_READERS[key] = CornerReader.load(path or CORNER_MODEL)
    return _CORNER_READERS[key]


def _corner_weighed(detector: CardDetector, frame: np.ndarray, card: Detections,
                    probs: np.ndarray) -> np.ndarray:
    """``probs`` (the card probabilities of ``card``'s box) weighed by its
    corner index's symbol at :data:`CORNER` (:func:`vision.corner_index.fuse`);
    as they are where it is 0. The reader is the detector's own
    (``detector.corner_reader``: an enrolled deck's, fitted to its print,
    :func:`vision.corner_index.attach`) where it has one, else
    :func:`corner_reader`'s."""
    if CORNER <= 0:
        return probs
    from vision.corner_index import fuse

    labels = list(_names(detector).get("names") or card.names)
    reader = getattr(detector, "corner_reader", None) or corner_reader()
    return fuse(probs, labels, reader.symbol_probs(frame, card.xyxy[0]), CORNER,
                reader.symbols)


def _read_probs(detector: CardDetector, frame: np.ndarray, xyxy: np.ndarray,
                balance: bool = False) -> np.ndarray:
    """:func:`_card_probs` of ``xyxy``; with ``balance`` each box's crop
    white-balanced (:func:`balance_white`) and read as one view."""
    if not balance:
        return _card_probs(detector, frame, xyxy)
    from vision.detector import crop_boxes

    crops = balance_white(crop_boxes(frame, xyxy, int(getattr(detector, "crop", 64))))
    probs = np.asarray(detector.read_crops(crops), float)[:, :-1]
    if hasattr(detector, "named"):
        probs = probs * np.asarray(detector.named, float)[:-1]
    return probs


def _tight_probs(detector: CardDetector, frame: np.ndarray,
                 card: Detections, balance: bool = False) -> np.ndarray | None:
    """The mean card probabilities of ``card``'s box and the box moved in by
    each of :data:`TIGHT_VIEWS` when it was named under :data:`SURE_READ`
    (:func:`read_turned`); ``None`` where its own name stands."""
    if not TIGHT_VIEWS or float(card.confidence[0]) >= SURE_READ:
        return None
    x1, y1, x2, y2 = (float(v) for v in card.xyxy[0])
    w, h = x2 - x1, y2 - y1
    xyxy = np.array([[x1 + t * w, y1 + t * h, x2 - t * w, y2 - t * h]
                     for t in (0.0, *TIGHT_VIEWS)], np.float32)
    return _read_probs(detector, frame, xyxy, balance).mean(axis=0)


def _rectified_probs(detector: CardDetector, frame: np.ndarray,
                     card: Detections) -> np.ndarray | None:
    """The card probabilities of ``card``'s card made upright
    (:func:`vision.rectify.card_quad`, :func:`vision.rectify.rectified_crop` at
    the classifier's input size; read as the detector reads a box it is unsure
    of: under :data:`RECTIFY_SURE`, the mean with the crop turned half round
    and the crop with :data:`RECTIFY_LOOSER` more margin); ``None`` where no
    card-shaped outline is found in and around its box or the detector cannot
    read crops."""
    from vision.rectify import MARGIN, card_quad, rectified_crop

    if not hasattr(detector, "read_crops"):
        return None
    quad = card_quad(frame, card.xyxy[0])
    if quad is None:
        return None
    size = int(getattr(detector, "crop", 64))
    crop = rectified_crop(frame, quad, size, MARGIN)
    probs = np.asarray(detector.read_crops(crop[None]), float)
    if probs[0].max() < RECTIFY_SURE:
        more = np.stack([np.ascontiguousarray(crop[::-1, ::-1]),
                         rectified_crop(frame, quad, size, MARGIN + RECTIFY_LOOSER)])
        probs = np.concatenate([probs, np.asarray(detector.read_crops(more), float)])
        probs = probs.mean(axis=0, keepdims=True)
    probs = probs[:, :-1]
    if hasattr(detector, "named"):
        probs = probs * np.asarray(detector.named, float)[:-1]
    return probs[0]


def name_refused(detector: CardDetector, frame: np.ndarray, boxes: Detections,
                 floor: float | None = None, card_share: float | None = None,
                 window_share: float | None = None, no_card: float | None = None
                 ) -> Detections:
    """For a photo of one card where the classifier called every box "no card"
    (a blurred card held in a hand, fingers over it) or the finder drew none:
    one box named with the classifier's likeliest card. Empty when no rule
    names one.

    The candidates are the finder's ``boxes`` (the :data:`REFUSED_BOXES`
    largest) and, with ``window_share``, the :data:`FRAME_WINDOWS` in the
    photo's middle. A box is named when its likeliest card's probability is at
    least ``floor`` (default :data:`REFUSED_FLOOR`) or that card's share of the
    card probabilities ("no card" left out) is at least ``card_share``
    (default :data:`CARD_SHARE`) or its "no card" probability is at most
    ``no_card`` (default :data:`NO_CARD_AT_MOST`; below 0: that rule off);
    a window when that share is at least
    ``window_share`` (default :data:`WINDOW_SHARE`); a share of 1 or more,
    like the config fields', turns its rule off. Of the candidates named,
    the one with the largest share wins (a box before a window where equal); a
    winning box that is a part of a larger finder box is widened to it
    (:func:`whole_card`). ``None`` turns a rule off."""
    floor = REFUSED_FLOOR if floor is None else floor
    card_share = CARD_SHARE if card_share is None else card_share
    window_share = WINDOW_SHARE if window_share is None else window_share
    no_card = NO_CARD_AT_MOST if no_card is None else no_card
    no_card = no_card if no_card is not None and no_card >= 0 else None
    card_share = card_share if card_share is not None and card_share < 1 else None
    window_share = window_share if window_share is not None and window_share < 1 else None
    if not hasattr(detector, "_classify") or (floor is None and card_share is None
                                              and window_share is None
                                              and no_card is None):
        return _empty_like(detector)
    order = np.argsort(-_areas(boxes.xyxy), kind="stable")[:REFUSED_BOXES]
    cand = [boxes.xyxy[order].astype(np.float32)] if len(boxes) else []
    n_boxes = len(order) if len(boxes) else 0
    if window_share is not None:
        h, w = frame.shape[:2]
        cand.append(np.array([[w * (1 - a) / 2, h * (1 - b) / 2, w * (1 + a) / 2,
                               h * (1 + b) / 2] for a, b in FRAME_WINDOWS],
                             np.float32))
    if not cand:
        return _empty_like(detector)
    xyxy = np.concatenate(cand)
    full = np.asarray(detector._classify(frame, xyxy), float)
    probs = _named_cards(detector, full)
    k = probs.argmax(axis=1)
    top = probs[np.arange(len(probs)), k]
    share = top / np.maximum(probs.sum(axis=1), 1e-12)
    is_box = np.arange(len(xyxy)) < n_boxes
    ok = np.zeros(len(xyxy), bool)
    if floor is not None:
        ok |= is_box & (top >= floor)
    if card_share is not None:
        ok |= is_box & (share >= card_share)
    if no_card is not None:
        ok |= is_box & (full[:, -1] <= no_card) & (top > 0)
    if window_share is not None:
        ok |= ~is_box & (share >= window_share)
    if not ok.any():
        return _empty_like(detector)
    best = int(np.flatnonzero(ok)[np.argmax(share[ok] + 1e-6 * is_box[ok])])
    named = Detections(xyxy[best : best + 1], [top[best]], [int(k[best])],
                       **_names(detector))
    return whole_card(named, boxes) if is_box[best] else named


def largest(dets: Detections) -> Detections:
    """The detection with the largest box (a photo of one card: that card)."""
    if not len(dets):
        return dets
    return dets[int(np.argmax(_areas(dets.xyxy)))]


def _card_probs(detector: CardDetector, frame: np.ndarray,
                xyxy: np.ndarray) -> np.ndarray:
    """The classifier's card probabilities of ``xyxy`` in ``frame`` ("no card"
    left out; a deck's absent labels at 0, so they stay unnamed)."""
    return _named_cards(detector, np.asarray(detector._classify(frame, xyxy), float))


def _named_cards(detector: CardDetector, full: np.ndarray) -> np.ndarray:
    """The card columns of the classifier's probabilities ``full`` ("no card",
    the last, left out), a deck's absent labels at 0."""
    probs = full[:, :-1]
    if hasattr(detector, "named"):
        probs = probs * np.asarray(detector.named, float)[:-1]
    return probs


def _names(detector: CardDetector) -> dict:
    """``Detections``' ``names`` argument for the detector's labels (none: {})."""
    names = getattr(detector, "labels", None) or getattr(detector, "names", None)
    return {"names": names} if names else {}


def _empty_like(detector: CardDetector) -> Detections:
    return Detections.empty(**_names(detector))
