"""The round-end scoring scan: a hand laid out face up becomes a ``reveal``.

While the scan is active (the page or ``watch`` switches it on when the
referee rules ``round-end``, or it starts by itself when hands lie out while
the referee plays on, seen in the frame's tracks or in the sharper looks it
asks for while a player is down to few cards (:meth:`HandScan.probe_due`,
:meth:`HandScan.probe`); the next round's start card switches it off),
cards lying face up in a player's seat area, outside the piles, are collected
per seat (every live track, so a card the detector misses for a frame still
counts). When a seat's set of cards has lain still and stayed the same for
``settle_s`` seconds, and holds as many cards as the referee counts for that
player (another number: for the longer ``recount_s``), it is sent once as
``{"type": "reveal", "player": SEAT, "cards": [...]}``; no card shows more often
than the game's deck holds it (:func:`within_deck`). What lay there before the
scan began and labels outside the game's deck are nobody's hand.
:func:`cards_in_zone` is the one-shot form for a page button ("scan B's hand
now"). :func:`seat_close_ups` gives the scan sharper eyes: the seats are also
detected tile by tile, at about twice the resolution, and each seat's cards
once more in a window around them (a long one in overlapping pieces,
:func:`window_pieces`), a box over two cards that their own boxes hold dropped
(:func:`spanning`) and a card boxed twice, whole and by its showing part, kept
once (:func:`read_twice`); a card a fanned row's neighbour covers is read again
with its covered corner filled in by its showing one turned (:func:`fan_reads`);
a card the finder scores faintly in a seat's close-up (a wild's black face,
mostly covered) is kept where the classifier names it surely and no box holds it
yet (:func:`faint_cards`);
a 6 or 9 whose underline is hidden (the next card of a fanned hand covers it)
is read by its digit's shape, the card upright toward its seat
(:func:`turn_twins`); a tight fanned row whose cards the finder boxes only in
part has the cards in its gaps (a whole number of the row's strides wide)
read by the classifier, and each of its covered cards read once more, from
boxes as long as the row's whole card (:func:`fill_rows`).
"""

from __future__ import annotations

from typing import Any, Callable, Collection, Mapping, Sequence

import numpy as np

from referee import camera_text as ct
from referee.cards import Card, CardError

from .config import ScanConfig
from .detections import Detections, box_iou
from .geometry import TableGeometry
from .hands import Reach
from .tracking import Track, label_scores
from .zones import seat_angles

PILES = ("discard", "draw")

def deck_labels(
    game: str, options: Mapping[str, Any] | None
) -> Callable[[str], bool] | None:
    """Whether a label is a card of the game's deck (UNO: the ``deck`` option).

    A read outside the deck (the white wild in a 108-card game; a corner
    marker read as a card) cannot be in anyone's hand. ``None`` for games
    whose deck is not known here.
    """
    if game != "uno":
        return None
    from referee.uno.plays import off_deck

    deck = int((options or {}).get("deck", 108))

    def allowed(label: str) -> bool:
        try:
            return off_deck([Card.from_label(label)], deck) is None
        except CardError:
            return False

    return allowed


def deck_copies(
    game: str, options: Mapping[str, Any] | None
) -> dict[str, int] | None:
    """How many of each card the game's deck holds (UNO: the ``deck`` option;
    ``None`` where the deck is not known here).

    No two hands shown at one round's end can hold more of a card than the
    deck has: a third ``red-9`` among them is a misread of one of them.
    """
    if game != "uno":
        return None
    from collections import Counter

    from referee.cards import standard_deck

    deck = int((options or {}).get("deck", 108))
    return dict(Counter(c.label for c in standard_deck(extra_wilds=deck != 108)))


def within_deck(
    scores: list[np.ndarray],
    names: tuple[str, ...] | list[str],
    copies: Mapping[str, int],
    used: Mapping[str, int] | None = None,
) -> list[str]:
    """The most likely label of each card such that no label is taken more
    often than the deck holds it (``used``: copies already shown elsewhere).

    ``scores`` are each card's evidence per label of ``names`` (higher is
    likelier, :func:`vision.tracking.label_scores`). Each card starts at its
    best label; while a label is taken too often, the card that loses least
    by moving moves to its best label with a copy left. A card whose every
    label is used up keeps its best one (the read wins over a count that
    may be wrong).
    """
    used = dict(used or {})
    labels = [int(np.argmax(sc)) for sc in scores]
    for _ in range(len(scores) * 4):
        taken: dict[int, list[int]] = {}
        for i, k in enumerate(labels):
            taken.setdefault(k, []).append(i)
        over = [
            (k, cards) for k, cards in taken.items()
            if len(cards) + used.get(names[k], 0) > copies.get(names[k], 0)
        ]
        if not over:
            break
        moved = False
        for k, cards in over:
            best = None  # (loss, card, new label)
            for i in cards:
                sc = scores[i]
                for j in np.argsort(-sc):
                    j = int(j)
                    if j == k:
                        continue
                    have = sum(1 for x in labels if x == j) + used.get(names[j], 0)
                    if have < copies.get(names[j], 0):
                        loss = float(sc[k] - sc[j])
                        if best is None or loss < best[0]:
                            best = (loss, i, j)
                        break
            if best is not None:
                labels[best[1]] = best[2]
                moved = True
                break
        if not moved:
            break
    return [names[k] for k in labels]


def cards_in_zone(
    dets: Detections,
    geometry: TableGeometry,
    zone: str,
    exclude: tuple[str, ...] = PILES,
) -> list[str]:
    """Sorted labels of the detections centred in ``zone`` (not on a pile)."""
    if not len(dets):
        return []
    xy = geometry.to_table(dets.centers)
    inside = geometry.inside(zone, xy)
    for other in exclude:
        inside &= ~geometry.inside(other, xy)
    return sorted(label for label, keep in zip(dets.labels, inside) if keep)


def _concat(parts: list[Detections]) -> Detections:
    """One set of the non-empty ``parts`` (extra data kept where all have it)."""
    return Detections.concat([d for d in parts if len(d)])


def _windows(
    detect: Callable[[np.ndarray], Detections],
    image: np.ndarray,
    windows: list[tuple[int, int, int, int]],
    geometry: TableGeometry,
    exclude: tuple[str, ...],
    cfg: ScanConfig,
    seat: str | None = None,
) -> Detections:
    """Each window of the frame detected on its own (a seat's: its fanned rows
    read again, :func:`_detect_twins`); the boxes in the frame's
    pixels, kept where they lie in a player's seat (``seat``: that one),
    outside the piles and inside their window (not cut by its inner edges);
    windows that overlap keep the surer of two boxes on one card, and a box
    over two cards that other boxes hold is dropped (:func:`spanning`), as is
    the less sure of two boxes of one card, its whole and its showing part
    (:func:`read_twice`)."""
    h, w = image.shape[:2]
    found: list[Detections] = []
    for x1, y1, x2, y2 in windows:
        part = _detect_twins(detect, np.ascontiguousarray(image[y1:y2, x1:x2]), cfg,
                             fan=seat is not None)
        if not len(part):
            continue
        part.xyxy = part.xyxy + np.array([x1, y1, x1, y1], np.float32)
        edge = cfg.tile_edge_px  # a box touching an inner edge: a card cut
        inside = np.ones(len(part), bool)
        if x1 > 0:
            inside &= part.xyxy[:, 0] > x1 + edge
        if y1 > 0:
            inside &= part.xyxy[:, 1] > y1 + edge
        if x2 < w:
            inside &= part.xyxy[:, 2] < x2 - edge
        if y2 < h:
            inside &= part.xyxy[:, 3] < y2 - edge
        found.append(part[np.nonzero(inside)[0]])
    close = _concat(found)
    if len(close):
        xy = geometry.to_table(close.centers)
        seats = [geometry.seat_of(p) for p in xy]
        mine = np.array([s is not None and (seat is None or s == seat) for s in seats])
        for zone in exclude:
            mine &= ~geometry.inside(zone, xy)
        close = close[np.nonzero(mine)[0]]
    if len(close) > 1:  # one card seen by two overlapping windows: the surer box
        import torch

        from .ultralytics_setup import nms

        keep = nms(
            torch.from_numpy(close.xyxy),
            torch.from_numpy(close.confidence),
            cfg.merge_iou,
        )
        close = close[keep.numpy()]
    return _drop_spanning(close, cfg)


#: defaults of ``scan.span_inside`` and ``scan.span_grow``
#: (:class:`~vision.config.ScanConfig`)
SPAN_INSIDE = ScanConfig.span_inside
SPAN_GROW = ScanConfig.span_grow


def _overlaps(dets: Detections) -> tuple[np.ndarray, np.ndarray]:
    """Each box's area and each pair's intersection (``inter[i, j]``)."""
    xyxy = dets.xyxy.astype(np.float64)
    area = np.prod(np.maximum(xyxy[:, 2:] - xyxy[:, :2], 0), axis=1)
    lo = np.maximum(xyxy[:, None, :2], xyxy[None, :, :2])
    hi = np.minimum(xyxy[:, None, 2:], xyxy[None, :, 2:])
    return area, np.prod(np.clip(hi - lo, 0, None), axis=2)


def spanning(dets: Detections, inside: float = SPAN_INSIDE,
             grow: float = SPAN_GROW) -> np.ndarray:
    """Which boxes of ``dets`` lie over two cards that other boxes hold.

    The detector sometimes boxes two cards lying side by side as one (a hand
    laid out in rows, a card next to its neighbour's whole edge), read as a
    mix of the two at a low confidence, as well as each card on its own. The
    two card boxes overlap it by less than the close-ups' ``merge_iou`` (each
    is about half of it), so it stays, and the scan counts one of the cards
    twice. A box is over two cards when two other boxes, each at least as
    sure as it, lie ``inside`` of their area within it, neither lying that
    much within the other (two cards, not a card and a part of it), and it
    is at least ``grow`` times the larger of them in area (a fanned row's
    boxes, each overlapping the next, are about one size: none is over two of
    the others)."""
    n = len(dets)
    out = np.zeros(n, bool)
    if n < 3:
        return out
    area, inter = _overlaps(dets)
    share = inter / np.maximum(area[None, :], 1e-9)  # [b, a]: a's share inside b
    conf = dets.confidence
    for b in range(n):
        held = [a for a in range(n) if a != b and share[b, a] >= inside
                and conf[a] >= conf[b] and area[b] >= grow * area[a]]
        if any(share[i, j] < inside and share[j, i] < inside
               for k, i in enumerate(held) for j in held[k + 1:]):
            out[b] = True
    return out


#: default of ``scan.twice_inside``: a card read twice, the smaller box lies at
#: least this share inside the larger (a card's showing part lies within its
#: whole outline; a box over two cards holds the one on top less whole)
TWICE_INSIDE = ScanConfig.twice_inside


def read_twice(dets: Detections, inside: float = TWICE_INSIDE,
               grow: float = SPAN_GROW) -> np.ndarray:
    """Which boxes of ``dets`` are a card another box of the same label holds.

    A card of a fanned row may be boxed twice at once: by its whole outline
    (the part its neighbour covers included) and by the part that shows. The
    part lies within the whole, which is about twice its size, so their IoU
    stays near one half, under the close-ups' ``merge_iou``, and the scan
    counts the card twice. A box read as the same label as another that holds
    ``inside`` of the smaller one's area (all but the boxes' jitter: a box
    over two cards read as the one on top holds that card less whole), the
    larger at least ``grow`` times the smaller (about one size: two cards of
    a row, the same card twice in a hand), is one card: the less sure of the
    two goes."""
    n = len(dets)
    out = np.zeros(n, bool)
    if n < 2:
        return out
    area, inter = _overlaps(dets)
    conf, label = dets.confidence, dets.class_id
    for i in np.argsort(-conf, kind="stable"):  # the surer first: it stays
        if out[i]:
            continue
        for j in range(n):
            if j == i or out[j] or label[j] != label[i]:
                continue
            small, big = (i, j) if area[i] <= area[j] else (j, i)
            if (inter[i, j] >= inside * area[small]
                    and area[big] >= grow * area[small]):
                out[j] = True
    return out


def _drop_spanning(dets: Detections, cfg: ScanConfig) -> Detections:
    """``dets`` without the boxes over two cards (:func:`spanning`) and the
    second boxes of a card read twice (:func:`read_twice`)."""
    over = spanning(dets, cfg.span_inside, cfg.span_grow)
    if over.any():
        dets = dets[np.nonzero(~over)[0]]
    twice = read_twice(dets, cfg.twice_inside, cfg.span_grow)
    return dets[np.nonzero(~twice)[0]] if twice.any() else dets


def _replace(dets: Detections, close: Detections, cfg: ScanConfig) -> Detections:
    """``dets`` with what a close-up found put in place of what they saw there
    (a box over two cards included: it holds a close-up's centre)."""
    if not len(close):
        return dets
    if len(dets):
        c = close.centers
        holds = (
            (c[None, :, 0] >= dets.xyxy[:, None, 0])
            & (c[None, :, 0] <= dets.xyxy[:, None, 2])
            & (c[None, :, 1] >= dets.xyxy[:, None, 1])
            & (c[None, :, 1] <= dets.xyxy[:, None, 3])
        )
        overlaps = box_iou(dets.xyxy, close.xyxy) > cfg.replace_iou
        replaced = overlaps.any(axis=1) | holds.any(axis=1)
        dets = dets[np.nonzero(~replaced)[0]]
    return _concat([dets, close])


def seat_windows(
    dets: Detections,
    geometry: TableGeometry,
    image_size: tuple[int, int],
    exclude: tuple[str, ...] = PILES,
    config: ScanConfig | None = None,
) -> dict[str, tuple[int, int, int, int]]:
    """Per seat holding cards, the part of the frame around them (pixels).

    The box around the seat's cards (outside the piles), grown on each side
    by ``seat_pad`` times a card's size there (a card beside them that the
    frame missed), and at least ``seat_min_px`` on each side. A seat whose
    window would cover more than ``seat_max_area`` of the frame gets none (a
    close-up of it would see no sharper).
    """
    return _seat_windows(dets, geometry, image_size, exclude, config or ScanConfig())


def _seat_windows(
    dets: Detections,
    geometry: TableGeometry,
    image_size: tuple[int, int],
    exclude: tuple[str, ...],
    cfg: ScanConfig,
    sizes: dict[str, float] | None = None,
) -> dict[str, tuple[int, int, int, int]]:
    """:func:`seat_windows`; ``sizes`` gets each windowed seat's card length in
    pixels: its boxes' median shorter side (boxes merged along a row of cards
    are still one card across it) times the card's long side over its short."""
    w, h = image_size
    if not len(dets):
        return {}
    xy = geometry.to_table(dets.centers)
    out: dict[str, tuple[int, int, int, int]] = {}
    keep = np.ones(len(dets), bool)
    for zone in exclude:
        keep &= ~geometry.inside(zone, xy)
    seats = [geometry.seat_of(p) if k else None for p, k in zip(xy, keep)]
    for seat in geometry.players:
        idx = [i for i, s in enumerate(seats) if s == seat]
        if not idx:
            continue
        boxes = dets.xyxy[idx]
        size = np.median(np.maximum(boxes[:, 2:] - boxes[:, :2], 1.0), axis=0)
        pad = np.maximum(size * cfg.seat_pad, cfg.seat_min_px)
        x1, y1 = np.maximum(boxes[:, :2].min(axis=0) - pad, 0)
        x2, y2 = np.minimum(boxes[:, 2:].max(axis=0) + pad, (w, h))
        if (x2 - x1) * (y2 - y1) > cfg.seat_max_area * w * h:
            continue
        out[seat] = (int(x1), int(y1), int(np.ceil(x2)), int(np.ceil(y2)))
        if sizes is not None:  # a card's long side: merged boxes are one card across
            sizes[seat] = float(size.min() * max(geometry.card) / min(geometry.card))
    return out


def window_pieces(
    window: tuple[int, int, int, int],
    card: float,
    config: ScanConfig | None = None,
) -> list[tuple[int, int, int, int]]:
    """A seat's window cut along its longer side into overlapping pieces.

    The detector letterboxes what it is given into its square working size: a
    long row of cards (a big hand laid out, each card mostly covered by the
    next, its corner index showing) comes out little bigger than in the whole
    frame, and most of its cards get no box. A window longer than
    ``seat_piece_aspect`` times its other side is looked at in pieces about
    that long instead, each overlapping the next by ``seat_piece_overlap``
    times the seat's card length (``card``, pixels: a card's long side, however
    it lies), so that every card lies whole in one piece (a piece's
    box cut by its inner edge is dropped, :func:`_windows`). One window where
    pieces that overlap that much would not be shorter (``seat_piece_aspect``
    0: never cut).
    """
    cfg = config or ScanConfig()
    x1, y1, x2, y2 = (int(v) for v in window)
    size = (x2 - x1, y2 - y1)
    axis = 0 if size[0] >= size[1] else 1
    long, short = size[axis], size[1 - axis]
    piece = int(np.ceil(cfg.seat_piece_aspect * short))
    lap = float(cfg.seat_piece_overlap * card)
    if cfg.seat_piece_aspect <= 0 or long <= piece or lap >= piece - 1:
        return [(x1, y1, x2, y2)]
    n = int(np.ceil((long - lap) / (piece - lap)))
    step = (long - piece) / max(n - 1, 1)
    start = (x1, y1)[axis]
    out = []
    for k in range(n):
        a = start + int(round(k * step))
        b = min(a + piece, start + long)
        out.append((a, y1, b, y2) if axis == 0 else (x1, a, x2, b))
    return out


def seat_close_ups(
    detect: Callable[[np.ndarray], Detections],
    image: np.ndarray,
    dets: Detections,
    geometry: TableGeometry,
    grid: int = ScanConfig.grid,
    overlap: float = ScanConfig.overlap,
    exclude: tuple[str, ...] = PILES,
    config: ScanConfig | None = None,
    seats: Collection[str] | None = None,
) -> Detections:
    """The frame's detections with the seats' cards looked at close up.

    The detector sees the whole frame at its small working size, where cards
    laid side by side (a hand shown at the round's end), or one laid right next
    to a corner marker, can merge into one box or get a weak one; a card whose
    neighbours cover most of it (a long hand laid in overlapping rows) may get
    none. Two looks closer:

    1. The frame is cut into ``grid`` x ``grid`` overlapping tiles, each
       detected on its own (at about ``grid`` times the resolution).
    2. Each seat holding cards is detected once more in a window around its
       cards (:func:`seat_windows`; ``seats``: only these, ``None``: every
       seat; ``config.seat_close_up`` off: none), which the detector's
       working size then blows up further; a long window in overlapping
       pieces (:func:`window_pieces`: a long row of cards), and a card its
       neighbour in a fanned row covers read again with its covered corner
       filled in (:func:`fan_reads`); the finder is also asked at a lower
       threshold there, and a card it scores faintly that the classifier
       names surely, lying where no box holds it, is kept
       (:func:`faint_cards`); the cards in a fanned row's gaps are read
       by the classifier (:func:`fill_rows`).

    A close-up's detection replaces what the coarser look saw there when it
    lies in a player's seat (outside the piles) and inside its window (not cut
    by the window's inner edges); windows that overlap keep the surer of two
    boxes on one card, a box over two cards that surer boxes hold each is
    no third card (:func:`spanning`), and of a card boxed twice, whole and by
    its showing part, the surer box stays (:func:`read_twice`). Everything else (the piles, cards outside the seats)
    stays as the whole frame saw it. ``config`` gives the edge, overlap and
    window thresholds (:class:`~vision.config.ScanConfig`).

    Each call reads the frame's own pixels: a detector that keeps boxes and
    reads for reuse (``forget``, :meth:`vision.detector.Detector.forget`)
    drops them first (``scan.fresh_close_ups``). Its kept boxes are those of an
    earlier frame where they still fit the pixels, and a close-up's windows,
    its fanned rows' strides and gaps, and so every covered card's read
    follow those boxes: a hand laid out while an arm still showed near it
    would otherwise be read, frame after frame, through the boxes of the
    frame with the arm.
    """
    cfg = config or ScanConfig()
    if cfg.fresh_close_ups:
        _forget(detect)
    h, w = image.shape[:2]
    if grid > 1:
        tw = w / (grid - (grid - 1) * overlap)
        th = h / (grid - (grid - 1) * overlap)
        tiles = []
        for row in range(grid):
            for col in range(grid):
                x1 = int(round(col * tw * (1 - overlap)))
                y1 = int(round(row * th * (1 - overlap)))
                tiles.append((x1, y1, min(w, int(round(x1 + tw))),
                              min(h, int(round(y1 + th)))))
        dets = _replace(dets, _windows(detect, image, tiles, geometry, exclude, cfg),
                        cfg)
    if cfg.seat_close_up:
        sizes: dict[str, float] = {}
        windows = _seat_windows(dets, geometry, (w, h), exclude, cfg, sizes)
        for seat, window in windows.items():
            if seats is not None and seat not in seats:
                continue
            pieces = window_pieces(window, sizes[seat], cfg)
            close = _windows(detect, image, pieces, geometry, exclude, cfg, seat)
            close = _fill_seat(detect, image, close, cfg)
            dets = _replace(dets, close, cfg)
    return turn_twins(image, dets, geometry, exclude, cfg, seats)


def _forget(detect: Callable[[np.ndarray], Detections]) -> None:
    """Make ``detect``'s detector (its bound owner) drop the boxes and reads
    it keeps for reuse, where it keeps any (``forget``)."""
    forget = getattr(getattr(detect, "__self__", None), "forget", None)
    if callable(forget):
        forget()


def _fill_seat(detect: Callable[[np.ndarray], Detections], image: np.ndarray,
               close: Detections, cfg: ScanConfig) -> Detections:
    """A seat's close-up with its fanned row's gaps filled (:func:`fill_rows`),
    where the detector reads crops (``read_crops``, a classifier)."""
    owner = getattr(detect, "__self__", None)
    read = getattr(owner, "read_crops", None)
    if read is None or getattr(owner, "classifier", None) is None:
        return close
    return fill_rows(read, int(owner.crop), image, close, cfg)


def _strip_diff(image: np.ndarray, box: np.ndarray, axis: int, width: float,
                near_end: bool) -> float:
    """How far a card's box differs from a card turned 180 degrees at its ends
    along ``axis``: its ``width``-wide strip at one end (the far end, or the near
    one with ``near_end``) against the other end's strip turned 180 degrees
    (mean grey-level difference; a card lying whole shows its own face at both
    ends, one turned, since a card reads the same both ways up). ``inf`` where
    no strip can be cut."""
    hgt, wid = image.shape[:2]
    x1, y1 = int(max(0, np.floor(box[0]))), int(max(0, np.floor(box[1])))
    x2, y2 = int(min(wid, np.ceil(box[2]))), int(min(hgt, np.ceil(box[3])))
    crop = image[y1:y2, x1:x2].astype(np.float32)
    if axis == 1:
        crop = crop.transpose(1, 0, 2) if crop.ndim == 3 else crop.T
    n = int(round(width))
    if n < 2 or crop.shape[1] < n or crop.shape[0] < 2:
        return float("inf")
    near, far = crop[:, :n], crop[:, -n:]
    turned = (far if near_end else near)[::-1, ::-1]
    return float(np.abs((near if near_end else far) - turned).mean())


def _fan_rows(boxes: np.ndarray, axis: int, cfg: ScanConfig) -> list[list[int]]:
    """Chains of a seat's boxes laid along ``axis``, each overlapping the next
    (a fanned row): indexes in order along the axis."""
    a, b = axis, 1 - axis
    order = np.argsort(boxes[:, a], kind="stable")
    nxt: dict[int, int] = {}
    prev: set[int] = set()
    for k, i in enumerate(order):
        size = boxes[i, a + 2] - boxes[i, a]
        for j in order[k + 1 :]:
            if boxes[j, a] >= boxes[i, a + 2]:
                break
            across = (min(boxes[i, b + 2], boxes[j, b + 2])
                      - max(boxes[i, b], boxes[j, b]))
            span = min(boxes[i, b + 2] - boxes[i, b], boxes[j, b + 2] - boxes[j, b])
            shows = (boxes[j, a] - boxes[i, a]) / max(size, 1e-6)
            if (boxes[j, a + 2] > boxes[i, a + 2] and across >= cfg.fan_row * span
                    and cfg.fan_visible_min <= shows <= cfg.fan_visible_max
                    and int(j) not in prev):
                nxt[int(i)] = int(j)
                prev.add(int(j))
                break
    rows = []
    for i in order:
        if int(i) in prev or int(i) not in nxt:
            continue
        row = [int(i)]
        while row[-1] in nxt:
            row.append(nxt[row[-1]])
        rows.append(row)
    return rows


def fan_reads(
    read: Callable[[np.ndarray], np.ndarray],
    size: int,
    image: np.ndarray,
    dets: Detections,
    config: ScanConfig | None = None,
) -> Detections:
    """``dets`` (of one seat's window) with each card that a neighbour covers
    from one side (a hand laid out as a fanned row, each card showing a strip
    with its corner index) read again from its own crop and from that crop
    with its covered corner filled in: the mean of the two reads.

    The classifier reads a box's crop, and most of a covered card's box shows
    the card on top of it; the detector's second looks at a crop it is unsure
    of (the crop turned, a larger box) show even more of it. A card reads the
    same turned 180 degrees, so its showing corner, turned, stands for the
    covered one at the other end: the outer ``fan_corner`` of the crop at the
    covered end is the crop turned 180 degrees there. ``read`` is the
    classifier on ``size`` crops (:meth:`vision.detector.Detector.read_crops`).

    A row: boxes along the direction their centres spread most, each
    overlapping the next, leaving between ``fan_visible_min`` and
    ``fan_visible_max`` of it showing, across the row at least ``fan_row`` of
    the smaller box (:func:`_fan_rows`). Which end of a row lies on top is the
    end whose card is whole: its two ends match, one turned
    (:func:`_strip_diff`); each other card is covered by its neighbour toward
    that end. ``fan_visible_max`` 0: off.
    """
    return _fan_reads(read, size, image, dets, config or ScanConfig())[0]


def _fan_reads(
    read: Callable[[np.ndarray], np.ndarray],
    size: int,
    image: np.ndarray,
    dets: Detections,
    cfg: ScanConfig,
) -> tuple[Detections, np.ndarray]:
    """:func:`fan_reads`, and which cards it read again (covered ones)."""
    none = np.zeros(len(dets), bool)
    probs = dets.data.get("probs")
    if (cfg.fan_visible_max <= 0 or len(dets) < 2 or probs is None
            or probs.shape[1] != len(dets.names)):
        return dets, none
    from .detector import crop_boxes

    boxes = dets.xyxy
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    axis = int(np.argmax(centres.std(axis=0)))
    covered: list[tuple[int, float]] = []  # (card, where its showing part ends)
    for row in _fan_rows(boxes, axis, cfg):
        first, second = boxes[row[0]], boxes[row[1]]
        last, before = boxes[row[-1]], boxes[row[-2]]
        # later cards on top: the last lies whole; earlier on top: the first
        later = _strip_diff(image, last, axis, before[axis + 2] - last[axis], True)
        earlier = _strip_diff(image, first, axis, first[axis + 2] - second[axis],
                              False)
        if not np.isfinite(min(later, earlier)):
            continue
        pairs = zip(row[:-1], row[1:]) if later <= earlier else zip(row[1:], row[:-1])
        for under, top in pairs:
            box = boxes[under]
            length = box[axis + 2] - box[axis]
            if later <= earlier:  # shows up to the top card's near edge
                covered.append((under, (boxes[top][axis] - box[axis]) / length))
            else:  # shows from the top card's far edge on
                covered.append((under, -(box[axis + 2] - boxes[top][axis + 2]) / length))
    if not covered:
        return dets, none
    rows = np.array([i for i, _ in covered])
    crops = crop_boxes(image, boxes[rows], size)
    filled = crops.copy()
    corner = int(round(cfg.fan_corner * size))
    for k, (_, shows) in enumerate(covered):
        crop = crops[k] if axis == 0 else crops[k].transpose(1, 0, 2)
        out = filled[k] if axis == 0 else filled[k].transpose(1, 0, 2)
        width = min(corner, int(round(abs(shows) * size)))
        if width <= 0:
            continue
        turned = crop[::-1, ::-1]
        if shows > 0:  # covered at the far end
            out[:, size - width :] = turned[:, size - width :]
        else:  # covered at the near end
            out[:, :width] = turned[:, :width]
    both = np.asarray(read(np.concatenate([crops, filled])), np.float32)
    n = len(rows)
    mean = (both[:n] + both[n:]) / 2
    result = dets[np.arange(len(dets))]  # a copy
    result.data["probs"] = p = probs.copy()
    p[rows] = mean[:, : len(dets.names)]
    result.class_id[rows] = np.argmax(p[rows], axis=1)
    result.confidence[rows] = p[rows, result.class_id[rows]]
    mask = none.copy()
    mask[rows] = True
    return result, mask


def _row_order(boxes: np.ndarray, axis: int, cfg: ScanConfig,
               fit: float | None = None) -> tuple[np.ndarray, float]:
    """The boxes of a seat's fanned row in order along ``axis`` and its stride
    (px; 0: no fanned row). A row: each box across the row spanning at least
    ``fan_row`` of its neighbour's side; its stride, a step between
    neighbouring boxes' near edges between ``fan_visible_min`` and
    ``fan_visible_max`` of a box's length: the one that the most steps are a
    whole number of, within ``fit`` of it per card (then the most steps of
    one stride; at least two of them), their mean step per card. ``fit``
    defaults to ``scan.gap_fit``."""
    fit = cfg.gap_fit if fit is None else fit
    n = len(boxes)
    order = np.argsort(boxes[:, axis], kind="stable")
    if n < 3:
        return order, 0.0
    b = 1 - axis
    s = boxes[order].astype(np.float64)
    across = (np.minimum(s[1:, b + 2], s[:-1, b + 2]) - np.maximum(s[1:, b], s[:-1, b]))
    span = np.minimum(s[1:, b + 2] - s[1:, b], s[:-1, b + 2] - s[:-1, b])
    if (across < cfg.fan_row * span).any():
        return order, 0.0  # not one row
    length = float(np.median(s[:, axis + 2] - s[:, axis]))
    steps = np.diff(s[:, axis])
    fanned = steps[(steps >= cfg.fan_visible_min * length)
                   & (steps <= cfg.fan_visible_max * length)]
    best, stride = None, 0.0
    for c in np.unique(fanned):
        m = np.round(steps / c)
        per = steps / np.maximum(m, 1)
        ok = (m >= 1) & (np.abs(per - c) <= fit * c)
        key = (int(ok.sum()), int((ok & (m == 1)).sum()))
        if key[1] >= 2 and (best is None or key > best):
            best, stride = key, float(per[ok].mean())
    return order, stride


def row_gaps(boxes: np.ndarray, axis: int, config: ScanConfig | None = None,
             fit: float | None = None) -> np.ndarray:
    """Boxes for the cards a seat's fanned row shows but the finder missed.

    A hand laid out as a fanned row (each card over the one before, its
    index showing) lies at one stride: where two boxes of the row lie a whole
    number ``m`` (2 or more) of strides apart, within ``fit`` of a stride per
    card, ``m - 1`` cards lie between them (a tight fan's cards show so
    little that the finder boxes some of them not at all). Their boxes lie
    evenly between the two (each edge in proportion). ``fit`` defaults to
    ``scan.gap_fit``."""
    cfg = config or ScanConfig()
    fit = cfg.gap_fit if fit is None else fit
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    if fit <= 0:
        return np.zeros((0, 4), np.float32)
    order, stride = _row_order(boxes, axis, cfg, fit)
    out: list[np.ndarray] = []
    if stride <= 0:
        return np.zeros((0, 4), np.float32)
    s = boxes[order]
    for k in range(len(s) - 1):
        gap = float(s[k + 1, axis] - s[k, axis])
        m = int(round(gap / stride))
        if m < 2 or abs(gap / m - stride) > fit * stride:
            continue
        for j in range(1, m):
            out.append(s[k] + (s[k + 1] - s[k]) * (j / m))
    return np.array(out, np.float32).reshape(-1, 4)


def _edge_reads(read: Callable[[np.ndarray], np.ndarray], size: int,
                image: np.ndarray, boxes: np.ndarray, axis: int, length: float,
                stride: float, on_top_later: bool, cfg: ScanConfig) -> np.ndarray:
    """The classifier's reads of a fanned row's covered cards (``boxes``) from
    boxes ``length`` long from their showing edge (the near one when later
    cards lie on top), plain and with the covered corner filled by the
    showing one turned (:func:`fan_reads`), the two averaged."""
    from .detector import crop_boxes

    at = np.array(boxes, np.float32, copy=True)
    if on_top_later:
        at[:, axis + 2] = at[:, axis] + length
    else:
        at[:, axis] = at[:, axis + 2] - length
    h, w = image.shape[:2]
    at[:, [0, 2]] = np.clip(at[:, [0, 2]], 0, w)
    at[:, [1, 3]] = np.clip(at[:, [1, 3]], 0, h)
    crops = crop_boxes(image, at, size)
    filled = crops.copy()
    width = min(int(round(cfg.fan_corner * size)),
                int(round(stride / max(length, 1e-6) * size)))
    for k in range(len(at) if width > 0 else 0):
        out = filled[k] if axis == 0 else filled[k].transpose(1, 0, 2)
        crop = crops[k] if axis == 0 else crops[k].transpose(1, 0, 2)
        turned = crop[::-1, ::-1]
        if on_top_later:  # covered at the far end
            out[:, size - width:] = turned[:, size - width:]
        else:
            out[:, :width] = turned[:, :width]
    both = np.asarray(read(np.concatenate([crops, filled])), np.float32)
    return (both[: len(at)] + both[len(at):]) / 2


def fill_rows(
    read: Callable[[np.ndarray], np.ndarray],
    size: int,
    image: np.ndarray,
    dets: Detections,
    config: ScanConfig | None = None,
    fit: float | None = None,
    reread: bool | None = None,
) -> Detections:
    """``dets`` (one seat's close-up) with the cards its fanned row shows in
    the finder's gaps (:func:`row_gaps`) added, each read by the classifier
    (``read``, on ``size`` crops) and kept where it names a card at least
    ``fan_keep`` sure; with ``reread``, each card of the row read once more.

    A covered card's read is best from a box as long as a whole card that
    starts where it shows: the finder's box of a covered card grows over
    its neighbour, whose face then fills much of the crop. The row's whole
    card is the one at the end lying on top (:func:`_strip_diff`); each
    card is read from its showing edge at that length, plain and with its
    covered corner filled by its showing one turned (:func:`fan_reads`),
    the two averaged; a card the finder boxed keeps the mean of that and
    its own read (``reread``). ``fit`` and ``reread`` default to
    ``scan.gap_fit`` and ``scan.gap_reread``."""
    cfg = config or ScanConfig()
    fit = cfg.gap_fit if fit is None else fit
    reread = cfg.gap_reread if reread is None else reread
    probs = dets.data.get("probs")
    if (fit <= 0 or len(dets) < 3 or probs is None
            or probs.shape[1] != len(dets.names)):
        return dets
    boxes = dets.xyxy.astype(np.float32)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    axis = int(np.argmax(centres.std(axis=0)))
    order, stride = _row_order(boxes, axis, cfg, fit)
    if stride <= 0:
        return dets
    new = row_gaps(boxes, axis, cfg, fit)
    if not len(new) and not reread:
        return dets
    first, last = boxes[order[0]], boxes[order[-1]]
    second, before = boxes[order[1]], boxes[order[-2]]
    later = _strip_diff(image, last, axis, before[axis + 2] - last[axis], True)
    earlier = _strip_diff(image, first, axis, first[axis + 2] - second[axis], False)
    if not np.isfinite(min(later, earlier)):
        return dets
    on_top_later = later <= earlier
    whole = last if on_top_later else first
    length = float(whole[axis + 2] - whole[axis])
    rows = order[:-1] if on_top_later else order[1:]  # the covered ones
    targets = np.concatenate([boxes[rows] if reread else np.zeros((0, 4), np.float32),
                              new])
    if not len(targets):
        return dets
    mean = _edge_reads(read, size, image, targets, axis, length, stride, on_top_later,
                       cfg)
    names = len(dets.names)
    result = dets[np.arange(len(dets))]  # a copy
    result.data["probs"] = p = probs.copy()
    n_old = len(targets) - len(new)
    if n_old:
        idx = np.asarray(rows)
        p[idx] = (p[idx] + mean[:n_old, :names]) / 2
        result.class_id[idx] = np.argmax(p[idx], axis=1)
        result.confidence[idx] = p[idx, result.class_id[idx]]
    add = mean[n_old:]
    if not len(add):
        return result
    label = np.argmax(add, axis=1)  # "no card" included: a gap that is none
    keep = (label < names) & (add[np.arange(len(add)), np.minimum(label, names - 1)]
                              >= cfg.fan_keep)
    if not keep.any():
        return result
    kept = np.nonzero(keep)[0]
    extra = Detections(new[kept], add[kept, label[kept]], label[kept],
                       names=dets.names,
                       data={"probs": add[kept, :names]})
    return _concat([result, extra])


#: card values that read as each other turned 180 degrees (the underline tells
#: them apart; a card laid over it may hide it)
TURNED = {"6": "9", "9": "6"}


def twin_of(label: str) -> str | None:
    """The label ``label`` reads as when turned 180 degrees without its
    underline (``red-6`` -> ``red-9``), or ``None``."""
    colour, _, value = label.rpartition("-")
    twin = TURNED.get(value)
    return f"{colour}-{twin}" if colour and twin else None


def _twin_index(names: Sequence[str]) -> np.ndarray:
    """Per label of ``names``, the index of its turned twin (-1: none)."""
    where = {n: i for i, n in enumerate(names)}
    return np.array([where.get(twin_of(n) or "", -1) for n in names], np.int64)


#: the one-loop digits: where a digit's loop lies tells them apart (a 0's in
#: its middle, a 6's at its foot, a 9's at its head)
LOOPED = ("0", "6", "9")


def _loop_family(names: Sequence[str]) -> list[np.ndarray]:
    """Per label of ``names``, the indices of its colour's one-loop digits
    (:data:`LOOPED`) where it is one of them, else none."""
    where = {n: i for i, n in enumerate(names)}
    out = []
    for name in names:
        colour, _, value = name.rpartition("-")
        kin = [where[f"{colour}-{v}"] for v in LOOPED if f"{colour}-{v}" in where]
        out.append(np.array(kin if colour and value in LOOPED else [], np.int64))
    return out


def _detect_twins(
    detect: Callable[[np.ndarray], Detections], image: np.ndarray, cfg: ScanConfig,
    fan: bool = False, remembered: bool = False,
) -> Detections:
    """``detect(image)``, also keeping the boxes the detector's label threshold
    (its ``conf``) would drop because their probability is split between a 6 and
    its turned 9: read at least ``turn_keep`` sure as one, the two together at
    least ``conf`` (a card, surely that colour's 6 or 9, whose underline is
    hidden). A detector without a ``conf`` attribute is asked as it is; one
    with it takes a threshold per call (``detect(image, conf=...)``, as
    :meth:`vision.detector.Detector.detect` and
    :meth:`vision.decks.DeckDetector.detect` do) and is given ``turn_keep``.

    With ``fan`` (a seat's window) and a detector that reads crops
    (``read_crops``), the cards of a fanned row are read again
    (:func:`fan_reads`), and a covered card is kept at least ``fan_keep`` sure
    (its neighbours hide most of it: its read stays below the detector's
    ``conf``). With ``fan``, a card the finder scores under its threshold but
    the classifier names surely is added too (:func:`_with_faint`); an
    OpenVINO finder then runs the network once for the image's two looks
    (:meth:`vision.openvino_runtime.OpenVinoFinder.remembering`, unless
    ``remembered``: already so)."""
    owner = getattr(detect, "__self__", None)
    remembering = getattr(getattr(owner, "model", None), "remembering", None)
    if fan and not remembered and remembering is not None:
        # the faint look asks the finder the same image again at a lower
        # threshold: the network's output for it is the same, run once
        with remembering():
            return _detect_twins(detect, image, cfg, fan, remembered=True)
    normal = getattr(owner, "conf", None)
    read = getattr(owner, "read_crops", None) \
        if fan and getattr(owner, "classifier", None) is not None else None
    least = min(cfg.turn_keep, cfg.fan_keep) if read is not None else cfg.turn_keep
    if not isinstance(normal, float) or least >= normal:
        dets = detect(image)
        if read:
            dets = fan_reads(read, int(owner.crop), image, dets, cfg)
        return _with_faint(detect, image, dets, cfg) if fan else dets
    dets = detect(image, conf=least)
    if not len(dets):
        return _with_faint(detect, image, dets, cfg) if fan else dets
    fanned = np.zeros(len(dets), bool)
    if read is not None:
        dets, fanned = _fan_reads(read, int(owner.crop), image, dets, cfg)
    keep = (dets.confidence >= normal) | (fanned & (dets.confidence >= cfg.fan_keep))
    probs = dets.data.get("probs")
    if probs is not None and probs.shape[1] == len(dets.names):
        twins = _twin_index(dets.names)[dets.class_id]
        rows = np.arange(len(dets))
        twin_p = np.where(twins >= 0, probs[rows, np.maximum(twins, 0)], 0)
        pair = dets.confidence + twin_p
        keep |= (twins >= 0) & (pair >= normal) & (dets.confidence >= cfg.turn_keep)
    found = dets[np.nonzero(keep)[0]]
    return _with_faint(detect, image, found, cfg, dets) if fan else found


def faint_cards(found: Detections, faint: Detections, merge_iou: float,
                sure: float = ScanConfig.faint_sure) -> np.ndarray:
    """Which boxes of ``faint`` (a seat window detected with the finder's
    threshold lowered) are cards that ``found`` (the same window at the scan's
    threshold, every box the classifier named) lacks.

    The finder scores a card by what cards look like to it, a white-rimmed
    coloured face: a wild's black face, most of it covered in a fanned hand
    with only its black top and four-coloured oval showing, can score under
    the scan's ``box_conf`` while the classifier names its crop surely. A box
    found only below that threshold is such a card where the classifier reads
    it at least ``sure`` (the finder's faint boxes over parts of two cards
    read as a mix), it overlaps no box of ``found`` more than ``merge_iou``
    (that box's card, boxed again) and no box of its own label at all (a
    card's part read as the card)."""
    n = len(faint)
    out = np.zeros(n, bool)
    if not n or sure <= 0:
        return out
    out = faint.confidence >= sure
    if len(found) and out.any():
        iou = box_iou(faint.xyxy, found.xyxy)
        lo = np.maximum(faint.xyxy[:, None, :2], found.xyxy[None, :, :2])
        hi = np.minimum(faint.xyxy[:, None, 2:], found.xyxy[None, :, 2:])
        touch = np.all(hi > lo, axis=2)
        same = faint.class_id[:, None] == found.class_id[None, :]
        out &= ~(iou > merge_iou).any(axis=1) & ~(touch & same).any(axis=1)
    return out


def _with_faint(
    detect: Callable[[np.ndarray], Detections], image: np.ndarray,
    found: Detections, cfg: ScanConfig, named: Detections | None = None,
) -> Detections:
    """``found`` (a seat window's cards) and the cards the finder scores under
    the scan's ``box_conf`` but the classifier names surely
    (:func:`faint_cards`; ``named``: every box the classifier named there,
    ``found`` by default). Only a detector with a finder threshold
    (``box_conf``) and a per-call ``conf`` is asked again, its finder
    threshold lowered to ``faint_box_conf`` for that call and given back."""
    owner = getattr(detect, "__self__", None)
    kept = getattr(owner, "box_conf", None)
    least, sure = cfg.faint_box_conf, cfg.faint_sure
    if (sure <= 0 or not isinstance(kept, float) or least >= kept
            or not isinstance(getattr(owner, "conf", None), float)):
        return found
    owner.box_conf = least
    try:
        faint = detect(image, conf=sure)
    finally:
        owner.box_conf = kept
    new = faint_cards(found if named is None else named, faint, cfg.merge_iou, sure)
    if not new.any():
        return found
    return _concat([found, faint[np.nonzero(new)[0]]])


def _upright(
    geometry: TableGeometry, seat: str, box: np.ndarray, cfg: ScanConfig
) -> np.ndarray | None:
    """The image direction of a seat's card's top (unit vector), or ``None``.

    A shown card faces its player: its top points away from the seat, when the
    seat's direction lies within ``facing_cos`` of the card's long axis (from
    the box's shape on the table). A card lying across its seat's direction
    (a side seat's card laid for the camera to read) reads upright to the
    camera (its top toward the table's far edge); a card lying across the
    camera's direction too is not decided here."""
    players = list(geometry.players)
    if seat not in players:
        return None
    w, h = geometry.box_size(box[None])[0]
    axis = np.array([0.0, 1.0]) if h >= w else np.array([1.0, 0.0])
    angle = seat_angles(len(players))[players.index(seat)]
    away = -np.array([np.cos(angle), np.sin(angle)])  # from the seat inwards
    cos = float(np.dot(away, axis))
    if abs(cos) >= cfg.facing_cos:
        up = axis * np.sign(cos)
    elif axis[1]:
        up = np.array([0.0, -1.0])  # the camera's upright: the far edge up
    else:
        return None
    centre = np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2])
    table = geometry.to_table(centre[None])[0]
    step = geometry.to_image((table + 20.0 * up)[None])[0] - centre
    norm = float(np.linalg.norm(step))
    return step / norm if norm > 1e-6 else None


def loop_end(image: np.ndarray, box: np.ndarray, up: np.ndarray) -> float | None:
    """Where the loop of the digit in a card's box lies along ``up`` (image
    direction of the card's top), in digit heights from the digit's centre:
    above 0 toward the top (a 9), below toward the bottom (a 6); ``None``
    where no one-loop digit is found.

    The digit is the largest non-white shape inside the card's white oval (the
    largest white area once thin white lines, the card's edges, are opened
    away): within the oval's largest hole, the digit it rings, or, where the
    oval is not closed round it (cut by the box or a card over it), within
    its convex hull; its loop is its one hole."""
    import cv2

    hgt, wid = image.shape[:2]
    x1, y1 = int(max(0, np.floor(box[0]))), int(max(0, np.floor(box[1])))
    x2, y2 = int(min(wid, np.ceil(box[2]))), int(min(hgt, np.ceil(box[3])))
    if x2 - x1 < 4 or y2 - y1 < 4:
        return None
    crop = image[y1:y2, x1:x2]
    if crop.ndim == 2:
        crop = np.repeat(crop[:, :, None], 3, axis=2)
    zoom = 4
    crop = cv2.resize(crop[:, :, :3], ((x2 - x1) * zoom, (y2 - y1) * zoom),
                      interpolation=cv2.INTER_CUBIC)
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
    white = ((hsv[..., 1] < 70) & (hsv[..., 2] > 150)).astype(np.uint8)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3 * zoom + 1,) * 2)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(
        cv2.morphologyEx(white, cv2.MORPH_OPEN, kernel), 8)
    if n < 2:
        return None
    oval = (lab == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))).astype(np.uint8)
    inside = np.zeros_like(white)
    # the oval's hull takes in whatever white joins it (the edge of the card
    # below a fanned card): the hole it closes round the digit does not
    contours, tree = cv2.findContours(oval, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    rings = [c for c, t in zip(contours, tree[0]) if t[3] >= 0]
    if rings:
        cv2.drawContours(inside, [max(rings, key=cv2.contourArea)], -1, 1, -1)
    else:
        pts = np.argwhere(oval)[:, ::-1].astype(np.int32)
        cv2.fillConvexPoly(inside, cv2.convexHull(pts), 1)
        inside = cv2.erode(inside, np.ones((zoom + 1, zoom + 1), np.uint8))
    ink = (inside & (1 - white)).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(ink, 8)
    if n < 2:
        return None
    digit = (lab == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))).astype(np.uint8)
    contours, tree = cv2.findContours(digit, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    area = float(digit.sum())
    holes = [c for c, t in zip(contours, tree[0])
             if t[3] >= 0 and cv2.contourArea(c) > 0.02 * area]
    if len(holes) != 1:
        return None
    m = cv2.moments(holes[0])
    if m["m00"] <= 0:
        return None
    loop = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
    m = cv2.moments(digit, True)
    centre = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
    ys, xs = np.nonzero(digit)
    extent = np.stack([xs, ys], 1) @ up
    height = float(extent.max() - extent.min()) + 1.0
    return float(np.dot(loop - centre, up)) / height


def turn_twins(
    image: np.ndarray,
    dets: Detections,
    geometry: TableGeometry,
    exclude: tuple[str, ...] = PILES,
    config: ScanConfig | None = None,
    seats: Collection[str] | None = None,
) -> Detections:
    """``dets`` with each seat's 6 or 9 read by its digit's shape where the
    detector hesitates between the one-loop digits (0, 6 and 9).

    The detector reads a card however it lies and tells a 6 from a 9 by the
    underline; a card laid over the lower part of a fanned hand's card hides
    it, and the probability splits between the two; a far card's few pixels
    split it between them and the 0 too. Where a seat's card (in ``seats``,
    ``None``: any; outside ``exclude``) is read less than ``turn_sure`` sure
    as one of them with another of its colour's the runner-up, the card is
    taken upright toward its seat (:func:`_upright`) and its digit's loop
    (:func:`loop_end`) names it: at its bottom a 6, at its top a 9, at least
    ``loop_offset`` digit heights from the digit's centre (a 0's lies at its
    centre: such a read stays as it is). The colour's one-loop probability
    then goes to that label (``data["probs"]``, ``confidence``,
    ``class_id``); anything undecided stays as read.
    """
    cfg = config or ScanConfig()
    probs = dets.data.get("probs")
    if (cfg.turn_sure <= 0 or not len(dets) or probs is None
            or probs.shape[1] != len(dets.names)):
        return dets
    family = _loop_family(dets.names)
    rows = np.arange(len(dets))
    top = dets.class_id
    second = np.argsort(-probs, axis=1)[:, 1]
    doubt = np.array([
        bool(np.isin(second[i], family[int(top[i])])) for i in rows
    ]) & (probs[rows, top] < cfg.turn_sure)
    if not doubt.any():
        return dets
    xy = geometry.to_table(dets.centers)
    out = dets[rows]  # a copy
    out.data["probs"] = probs = probs.copy()
    for i in np.nonzero(doubt)[0]:
        if any(geometry.inside(z, xy[i : i + 1])[0] for z in exclude):
            continue
        seat = geometry.seat_of(xy[i])
        if seat is None or (seats is not None and seat not in seats):
            continue
        up = _upright(geometry, seat, dets.xyxy[i], cfg)
        end = loop_end(image, dets.xyxy[i], up) if up is not None else None
        if end is None or abs(end) < cfg.loop_offset:
            continue
        kin = family[int(top[i])]
        value = "9" if end > 0 else "6"
        named = [int(j) for j in kin if dets.names[int(j)].endswith("-" + value)]
        if not named:
            continue
        k = named[0]
        mass = float(probs[i, kin].sum())
        probs[i, kin] = 0.0
        probs[i, k] = mass
        out.class_id[i] = k
        out.confidence[i] = mass
    return out


def _still(track: Track, now: float, seconds: float, move_mm: float) -> bool:
    """The track's reads of the last ``seconds`` stay within ``move_mm``."""
    recent = [r for r in track.history if now - r.t <= seconds + 1e-9]
    if len(recent) < 2 or now - track.born < seconds:
        return False
    pts = np.array([(r.x, r.y) for r in recent])
    return bool(np.max(np.linalg.norm(pts - pts[-1], axis=1)) <= move_mm)


class HandScan:
    """Collects laid-out hands per seat while active.

    A seat's cards must stay unchanged for ``settle_s`` and lie still when
    sent (a card of the seat moving up to twice ``still_s`` keeps the time,
    a longer move starts it over); a card
    counts once tracked ``min_age_s``; a card seen first more than
    ``before_s`` before the scan began lay on the table all along (a corner
    marker, a card left out) and is nobody's hand; a card lies still when its
    reads of the last ``still_s`` stay within ``move_mm`` (a card still being
    laid or held keeps its seat waiting).

    Each card's label is its track's evidence over the frames it was read
    (:func:`vision.tracking.label_scores`), taken jointly over the hands
    still to be sent and those the referee already holds (``revealed``), so
    that no card shows more often than the game's deck holds it
    (:func:`within_deck`).

    Args:
        geometry: the table's seat zones.
        config: those thresholds (:class:`~vision.config.ScanConfig`).
        exclude: zones whose cards are not anyone's hand (the piles).
        allowed: whether a label can be a card of the game (``None``: any).
        game_state: the referee's state (``hand_counts`` per player; the
            ``game``, its ``options`` and the hands already ``revealed``): a
            seat is revealed once it shows as many cards as the referee says
            that player holds (a card the detector misses, or one it sees
            twice, would score the hand wrong). A seat that shows another
            number, unchanged and still for ``recount_s``, is revealed as it
            shows (the referee's count is then the one in doubt: a draw or a
            play the camera missed; the referee notes the corrected count);
            for ``woken_recount_s`` when the scan started by itself (the
            referee missed the round's end, its counts are in doubt anyway,
            and hands found late may be gathered up soon).
            ``None``: any number.
    """

    def __init__(
        self,
        geometry: TableGeometry,
        config: ScanConfig | None = None,
        *,
        exclude: tuple[str, ...] = PILES,
        allowed: Callable[[str], bool] | None = None,
        game_state: Callable[[], Mapping[str, Any]] | None = None,
    ):
        cfg = self.config = config or ScanConfig()
        self.geometry = geometry
        self.exclude = exclude
        self.min_age_s = cfg.min_age_s
        self.settle_s = cfg.settle_s
        self.allowed = allowed
        self.before_s = cfg.before_s
        self.still_s = cfg.still_s
        self.move_mm = cfg.move_mm
        self.game_state = game_state
        self._since: float | None = None
        self._active = False
        self._seen: dict[str, tuple[tuple[str, ...], float]] = {}
        self._moving: dict[str, float] = {}  # since when a seat's card moves
        self._sent: set[str] = set()
        self._woken: float | None = None  # when it started by itself
        self._last_seen = 0.0  # the last frame a seat showed a card
        self._asked: float | None = None  # when probe_due last asked the referee
        self._looks: list[tuple[float, np.ndarray]] = []  # its seat cards (table mm)

    def _state(self) -> Mapping[str, Any]:
        if self.game_state is None:
            return {}
        try:
            return self.game_state() or {}
        except Exception:  # a referee that cannot say: nothing known
            return {}

    def _hand_counts(self, state: Mapping[str, Any] | None = None) -> dict[str, int]:
        """Cards per player by the referee's count (empty when not known)."""
        state = self._state() if state is None else state
        try:
            counts = state.get("hand_counts") or {}
            return {str(k): int(v) for k, v in counts.items()}
        except Exception:  # a referee that cannot say: any number
            return {}

    @property
    def active(self) -> bool:
        return self._active

    @property
    def waiting(self) -> bool:
        """The scan is on and a hand is still to be read: a seat not yet
        revealed whose player holds cards (by the referee's count; any seat
        when the count is not known)."""
        if not self._active:
            return False
        counts = self._hand_counts()
        return any(
            seat not in self._sent and (not counts or counts.get(seat, 0) > 0)
            for seat in self.geometry.players
        )

    @active.setter
    def active(self, on: bool) -> None:
        if on != self._active:
            self._seen.clear()
            self._moving.clear()
            self._sent.clear()
            self._since = None
            self._looks.clear()
        self._woken = None
        self._active = on

    def _wake(self, t: float, tracks: dict[int, Track]) -> None:
        """Switch the scan on by itself when hands lie face up in the seats.

        The referee asks for the hands when it rules the round won; a play the
        camera missed (the winner's last card, a twin put on its copy) leaves it
        waiting for a turn that never comes, and no hand would be read. At least
        ``wake_cards`` cards of the deck, new (seen first between ``wake_s`` and
        ``wake_within_s`` ago: one-card hands come seconds apart) and lying
        still in the seats while the referee is in play (no challenge open; its
        counts are no guide: the plays it missed or holds as questions are still
        in them), are hands laid out: the scan starts, counting from the first
        of them. Its reveals then stand in the log beside the referee's
        question, and are scored once the question's answer ends the round. A
        scan that started by itself stops again when no seat has shown a card
        for ``wake_s`` and it has sent nothing (a card held still over a seat
        for a while). ``wake_s`` 0: never.
        """
        cfg = self.config
        if cfg.wake_s <= 0 or self.game_state is None:
            return
        born: list[float] = []
        for track in tracks.values():
            age = t - track.born
            if not cfg.wake_s <= age <= cfg.wake_within_s:
                continue
            point = track.xy
            if self.geometry.seat_of(point) is None or any(
                self.geometry.inside(z, point)[0] for z in self.exclude
            ):
                continue
            if self.allowed is not None and not self.allowed(track.label):
                continue
            if _still(track, t, self.still_s, self.move_mm):
                born.append(track.born)
        if len(born) < cfg.wake_cards:
            return
        state = self._state()
        if state.get("phase") not in ("turn", "drawn") or state.get("challenge"):
            return  # the referee asks for the hands itself (or no round is on)
        self.active = True
        self._since = min(born)
        self._woken = self._last_seen = t

    def probe_due(self, t: float) -> bool:
        """Whether the sleeping scan wants a sharper look at the seats now
        (:meth:`probe`): every ``probe_s`` while the referee plays on (no
        challenge open) and some player holds at most ``probe_cards`` cards by
        its count, the round about to end. Hands laid out far from the camera
        get weak box scores; the frame's normal threshold may see none of
        them, and the scan could not start by itself (:meth:`_wake`).
        ``probe_s`` or ``wake_s`` 0: never."""
        cfg = self.config
        if (self._active or cfg.probe_s <= 0 or cfg.wake_s <= 0
                or self.game_state is None):
            return False
        if self._asked is not None and t - self._asked < cfg.probe_s - 1e-6:
            return False
        self._asked = t  # the referee's state is asked at most every probe_s
        state = self._state()
        if state.get("phase") not in ("turn", "drawn") or state.get("challenge"):
            return False
        counts = self._hand_counts(state)
        return bool(counts) and min(counts.values()) <= cfg.probe_cards

    def probe(self, dets: Detections, t: float) -> None:
        """One sharper look at the frame (detected at the scan's ``box_conf``)
        while the scan sleeps: it starts when hands lie out that the frame's
        normal threshold misses.

        The looks' cards in the seats (outside the piles, of the deck) are
        remembered for ``wake_within_s``. A card lies there new and still when
        every look since it was first seen has a card within ``move_mm`` of it,
        for at least ``wake_s``, and an earlier look had none there (what lay
        there all along, or since before the looks began, is no hand). At
        least ``wake_cards`` such cards while the referee plays on are hands
        laid out: the scan starts as :meth:`_wake` starts it, counting from the
        first look that saw them. A gap in the looks (over twice ``probe_s``:
        the round was not about to end) forgets them."""
        cfg = self.config
        if self._active or self.game_state is None:
            return
        if self._looks and t - self._looks[-1][0] > 2 * cfg.probe_s + 1e-6:
            self._looks.clear()  # what was there between the looks is not known
        xy = (self.geometry.to_table(dets.centers) if len(dets)
              else np.zeros((0, 2)))
        keep = [
            i for i in range(len(dets))
            if self.geometry.seat_of(xy[i]) is not None
            and not any(self.geometry.inside(z, xy[i : i + 1])[0] for z in self.exclude)
            and (self.allowed is None or self.allowed(dets.labels[i]))
        ]
        here = np.asarray(xy[keep], float).reshape(-1, 2)
        self._looks = [(lt, p) for lt, p in self._looks if t - lt <= cfg.wake_within_s]
        firsts: list[float] = []
        for point in here:
            first, new = t, False
            for lt, seen in reversed(self._looks):
                if len(seen) and np.min(np.linalg.norm(seen - point, axis=1)) <= cfg.move_mm:
                    first = lt
                else:
                    new = True  # an earlier look had no card there
                    break
            if new and t - first >= cfg.wake_s:
                firsts.append(first)
        self._looks.append((t, here))
        if len(firsts) < cfg.wake_cards:
            return
        state = self._state()
        if state.get("phase") not in ("turn", "drawn") or state.get("challenge"):
            return
        self.active = True
        self._since = min(firsts)
        self._woken = self._last_seen = t

    def _labels(
        self, tracks: list[Track], state: Mapping[str, Any]
    ) -> list[str]:
        """Each track's label: its own evidence, then within the deck's copies
        (counting the hands the referee already holds as shown)."""
        if not tracks:
            return []
        copies = deck_copies(str(state.get("game") or ""), _options(state))
        names = tracks[0].names
        if copies is None or any(t.names != names for t in tracks):
            return [t.label for t in tracks]
        used: dict[str, int] = {}
        revealed = state.get("revealed") or {}
        if isinstance(revealed, Mapping):
            for cards in revealed.values():
                for label in cards or ():
                    used[str(label)] = used.get(str(label), 0) + 1
        scores = [label_scores(list(t.history), names) for t in tracks]
        return within_deck(scores, names, copies, used)

    def update(
        self,
        dets: Detections,
        t: float,
        tracks: dict[int, Track],
        reaches: list[Reach] = (),
    ) -> list[dict[str, Any]]:
        """One frame: return the reveals that have settled."""
        if not self._active:
            self._wake(t, tracks)
        if not self._active:
            return []
        if self._since is None:
            self._since = t
        cards_of: dict[str, list[Track]] = {}
        moving: set[str] = set()
        # Every live track, not only this frame's detections: a card the
        # detector misses for a frame or two is still lying there.
        for track in tracks.values():
            point = track.xy
            if any(self.geometry.inside(z, point)[0] for z in self.exclude):
                continue
            seat = self.geometry.seat_of(point)
            if seat is None or seat in self._sent:
                continue
            if t - track.born < self.min_age_s:
                continue  # a card just put down, or a one-frame phantom: not yet
            if track.born < self._since - self.before_s:
                continue  # it lay there before the round ended: no hand shown
            if self.allowed is not None and not self.allowed(track.label):
                continue  # not a card of this game's deck
            # the track's label (its evidence) rides out one-frame misreads; a
            # card that still moves (in a hand, being laid) keeps the seat
            # waiting. Lying still is the test, not "no hand near": cards just
            # laid out near the table's edge look like an arm to the hand
            # tracker for seconds, until its background takes them in.
            if _still(track, t, self.still_s, self.move_mm):
                cards_of.setdefault(seat, []).append(track)
            else:
                moving.add(seat)
        if cards_of or moving:
            self._last_seen = t
        elif (self._woken is not None and not self._sent
              and t - self._last_seen > self.config.wake_s):
            self.active = False  # woke for a card that went again: back to sleep
            return []
        state = self._state()
        counts = self._hand_counts(state)
        ready = [s for s in self.geometry.players if s in cards_of and s not in moving]
        flat = [tr for s in ready for tr in cards_of[s]]
        named = iter(self._labels(flat, state))
        read = {s: [(tr, next(named)) for tr in cards_of[s]] for s in ready}
        labels = {s: tuple(sorted(lab for _, lab in read[s])) for s in ready}
        events = []
        for seat in self.geometry.players:
            cards = labels.get(seat)
            expected = counts.get(seat)
            if seat in moving and seat not in self._sent and expected != 0:
                # a card of the seat moves: nothing is sent; for a wobble's
                # length (a card at a long row's end whose reads jump for a
                # frame now and then keeps its seat "moving" still_s) the hand
                # keeps its time; a card moving longer is handled, and the hand
                # starts over (it may be taken away or hidden while put down).
                # A card laid, taken or moved elsewhere changes the labels once
                # the seat is still again, which starts the time over too
                since = self._moving.setdefault(seat, t)
                if t - since > 2 * self.still_s:
                    self._seen.pop(seat, None)
                continue
            self._moving.pop(seat, None)
            if not cards or seat in self._sent or expected == 0:
                self._seen.pop(seat, None)
                continue
            before = self._seen.get(seat)
            if before is None or before[0] != cards:
                self._seen[seat] = (cards, t)
                continue
            if expected is None or len(cards) == expected:
                wait = self.settle_s
            elif self._woken is not None:  # it missed the round's end: counts in doubt
                wait = self.config.woken_recount_s
            else:
                wait = self.config.recount_s
            if t - before[1] >= wait:
                self._sent.add(seat)
                event = {
                    "type": "reveal",
                    "player": seat,
                    "cards": list(cards),
                    "t": round(t, 3),
                }
                event.update(self._question(seat, read[seat], state))
                events.append(event)
        return events

    def _question(
        self, seat: str, read: list[tuple[Track, str]], state: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The ``question`` a reveal carries when a card of it is read with
        doubt (less than ``ask_below`` sure) and its runner-up label would
        change the hand's points: each answer a whole hand, the hand as read
        first, then one runner-up each, surest first (``ask_answers`` in all).
        Nothing where every card is sure or no doubt changes the score, nor
        in a game whose hands it cannot score (UNO's points only)."""
        cfg = self.config
        game = str(state.get("game") or "")
        cards = sorted(lab for _, lab in read)
        points = _points(game, cards)
        if points is None:
            return {}  # a game whose hands this scan cannot score: no doubt matters
        copies = deck_copies(game, _options(state))
        used: dict[str, int] = {}
        revealed = state.get("revealed") or {}
        shown = [c for k, v in revealed.items() if k != seat for c in v or ()] \
            if isinstance(revealed, Mapping) else []
        for c in [*shown, *cards]:
            used[str(c)] = used.get(str(c), 0) + 1
        doubts: list[tuple[float, str, str, list[str]]] = []
        for track, label in read:
            if not track.history:
                continue
            names = list(track.names)
            if label not in names:
                continue
            scores = label_scores(list(track.history), names)
            prob = np.exp(scores - scores.max())
            prob /= prob.sum()
            if prob[names.index(label)] >= cfg.ask_below:
                continue
            for i in np.argsort(-prob):
                alt = names[int(i)]
                if alt == label or (self.allowed is not None and not self.allowed(alt)):
                    continue
                if copies is not None and used.get(alt, 0) >= copies.get(alt, 0):
                    continue  # the deck has no copy of it left
                hand = list(cards)
                hand[hand.index(label)] = alt
                hand.sort()
                if _points(game, hand) != points:
                    doubts.append((float(prob[int(i)]), label, alt, hand))
                break  # the runner-up only: the hand as read is the other answer
        if not doubts:
            return {}
        doubts.sort(key=lambda d: -d[0])
        doubts = doubts[: max(1, cfg.ask_answers - 1)]
        return ct.reveal_asking(seat, cards, [
            (label, alt, hand, _points(game, hand)) for _, label, alt, hand in doubts])


def _points(game: str, labels: list[str]) -> int | None:
    """A shown hand's points in ``game`` (UNO's scoring), None where unknown."""
    if game != "uno":
        return None
    from referee.uno.scoring import hand_points
    from referee.cards import parse_cards
    try:
        return int(hand_points(parse_cards(labels)))
    except (CardError, ValueError, KeyError):
        return None


def _options(state: Mapping[str, Any]) -> Mapping[str, Any]:
    options = state.get("options")
    return options if isinstance(options, Mapping) else {}
