"""A held card's crop made upright: the card's outline found in its box and
warped to the classifier's square.

A card held up before a webcam is turned and tilted out of the picture's plane:
the finder's box is an axis-aligned rectangle around a skewed card, so the
classifier's crop of it (:func:`vision.detector.crop_boxes`) shows the card
smaller and slanted, with background in its corners. An UNO card has a white
border with rounded corners around its coloured face; :func:`card_quad` finds
that outline in and around the box (the bright, colourless pixels after the
region's white is balanced, the border's inside filled, the largest such blob
near the box's middle, its convex hull fitted with four corners) and
:func:`rectified_crop` warps the quadrilateral to the classifier's square,
the card's long sides upright. A box whose outline is not a card's (too small,
too large, not four-sided, the wrong shape) has none: the caller reads the box
as it is.

Only the still-photo path uses it (:func:`vision.multiscale.read_turned`,
``RECTIFY``); the live video path never does.
"""

from __future__ import annotations

import numpy as np

#: An UNO card's height over its width.
CARD_ASPECT = 1.55
#: The region searched for the outline: the box grown by this share of its
#: width and height on each side.
GROW = 0.08
#: The region is searched at this many pixels along its longer side.
WORK_PX = 96
#: A found outline's area must be this share of the box's area, at least and
#: at most (a blob much smaller than the box is a part of the card, e.g. its
#: white centre oval; one much larger is the background).
AREA_SHARE = (0.25, 1.3)
#: The outline's mean long side over its mean short side, at least and at
#: most (a card is about 1.55; tilted out of the plane or turned, its image
#: stays within these).
SIDE_RATIO = (1.05, 2.6)
#: The four-cornered fit must cover this share of the blob's convex hull.
HULL_SHARE = 0.8
#: A found outline is kept only where the card it outlines shows its white
#: border: along at least this many of its four sides (fingers may cover one),
#: the band inside the outline is white (:func:`_border_sides`); 0: no check.
BORDER_SIDES = 3
#: A side's band counts as white where its median balanced whiteness (the
#: least channel, the outline's own bright end taken as white) is at least this.
BORDER_WHITE = 0.6
#: The card's outline is warped to fill the crop less this share of its side
#: on each side (a finder's box shows a little background around the card).
MARGIN = 0.0


def _balanced_whiteness(region: np.ndarray) -> np.ndarray:
    """Each pixel's least channel after each channel is scaled so that its
    bright end (97th percentile) is white: the card's border is bright in every
    channel whatever the light's cast; its coloured face is dark in one."""
    img = region.astype(np.float32)
    top = np.percentile(img.reshape(-1, 3), 97, axis=0)
    img = img / np.maximum(top, 1.0)
    return np.clip(img.min(axis=2), 0.0, 1.0)


def _order(quad: np.ndarray) -> np.ndarray:
    """``quad``'s corners ordered top-left, top-right, bottom-right,
    bottom-left of the card standing upright: its long sides run top to
    bottom, and of the two ways up the one whose top edge lies higher in the
    picture."""
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    # clockwise in image coordinates (y down): sort by angle about the centre
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    # sides[i] joins quad[i] and quad[i + 1]; the top edge is a short side
    short = 0 if sides[0] + sides[2] <= sides[1] + sides[3] else 1
    best = None
    for start in (short, short + 2):
        # ordered[0] -> ordered[1]: a short side
        ordered = np.roll(quad, -start, axis=0)
        top_y = ordered[0, 1] + ordered[1, 1]
        # clockwise from the top edge: top-left, top-right, bottom-right, bottom-left
        if best is None or top_y < best[0]:
            best = (top_y, ordered)
    return best[1].astype(np.float32)


def _border_sides(image: np.ndarray, quad: np.ndarray, size: int = 40) -> int:
    """How many sides of the outline ``quad`` (in ``image``'s pixels, upright
    order) show a white band just inside them: the outline warped upright to
    ``size`` pixels, its whiteness balanced on its own bright end
    (:func:`_balanced_whiteness`), each side's band (a sixth of the card's
    reach inward, the corners left out) white somewhere across its depth
    along most of the side (the median along it of the band's whitest pixel
    at least :data:`BORDER_WHITE`)."""
    import cv2

    dst = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    persp = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    card = cv2.warpPerspective(image, persp, (size, size), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    white = _balanced_whiteness(card)
    depth, lo, hi = max(2, size // 6), size // 6, size - size // 6
    bands = (white[:depth, lo:hi].max(axis=0),
             white[lo:hi, size - depth:].max(axis=1),
             white[size - depth:, lo:hi].max(axis=0),
             white[lo:hi, :depth].max(axis=1))
    return sum(float(np.median(b)) >= BORDER_WHITE for b in bands)


def _fit_sides(quad: np.ndarray, contour: np.ndarray) -> np.ndarray | None:
    """``quad``'s corners moved to where lines fitted to its four sides meet:
    each side's line is fitted to the outline's points near the middle of
    that side (the rounded corners left out), so the corners are the card's,
    not the rounding's. ``None`` where two sides' lines do not meet."""
    import cv2

    pts = contour.reshape(-1, 2).astype(np.float64)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = float(np.hypot(*d))
        if length < 1e-6:
            return None
        u = d / length
        t = (pts - a) @ u
        off = np.abs((pts - a) @ np.array([-u[1], u[0]]))
        near = ((t > 0.15 * length) & (t < 0.85 * length)
                & (off < max(2.0, 0.08 * length)))
        if near.sum() < 3:
            lines.append((a, u))
            continue
        vx, vy, x0, y0 = cv2.fitLine(pts[near].astype(np.float32), cv2.DIST_HUBER,
                                     0, 0.01, 0.01).reshape(-1)
        lines.append((np.array([x0, y0], np.float64),
                      np.array([vx, vy], np.float64)))
    out = np.empty((4, 2))
    for i in range(4):
        (p, u), (q, v) = lines[i - 1], lines[i]
        m = np.array([u, -v]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        s, _ = np.linalg.solve(m, q - p)
        out[i] = p + s * u
    return out


def card_quad(frame: np.ndarray, xyxy, grow: float = GROW) -> np.ndarray | None:
    """The card's outline in ``frame`` (BGR) in and around the box ``xyxy``:
    four corners (top-left, top-right, bottom-right, bottom-left of the card
    upright, frame pixels), or ``None`` when no card-shaped outline is there."""
    import cv2

    h, w = frame.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in np.asarray(xyxy).reshape(-1)[:4])
    bw, bh = x2 - x1, y2 - y1
    if bw < 8 or bh < 8:
        return None
    rx1 = int(max(0, np.floor(x1 - grow * bw)))
    ry1 = int(max(0, np.floor(y1 - grow * bh)))
    rx2 = int(min(w, np.ceil(x2 + grow * bw)))
    ry2 = int(min(h, np.ceil(y2 + grow * bh)))
    region = frame[ry1:ry2, rx1:rx2]
    if region.size == 0:
        return None
    scale = WORK_PX / max(region.shape[:2])
    size = (max(8, round(region.shape[1] * scale)),
            max(8, round(region.shape[0] * scale)))
    small = cv2.resize(region, size, interpolation=cv2.INTER_AREA)
    white = _balanced_whiteness(small)
    _, mask = cv2.threshold((white * 255).astype(np.uint8), 0, 255,
                                cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    # fill the border's inside: what the outer contours enclose
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    sx, sy = size[0] / region.shape[1], size[1] / region.shape[0]
    box_area = bw * sx * bh * sy
    # the largest blob whose hull is card-sized
    best = None
    for c in contours:
        hull = cv2.convexHull(c)
        area = float(cv2.contourArea(hull))
        if not AREA_SHARE[0] * box_area <= area <= AREA_SHARE[1] * box_area:
            continue
        if best is None or area > best[0]:
            best = (area, hull, c)
    if best is None:
        return None
    hull_area, hull = best[:2]
    peri = float(cv2.arcLength(hull, True))
    quad = None
    for eps in (0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.1):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            break
        if len(approx) < 4:
            break
    if quad is None:
        quad = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64)
    if not cv2.isContourConvex(quad.astype(np.float32).reshape(-1, 1, 2)):
        return None
    quad = _fit_sides(quad, best[2])
    if quad is None or not cv2.isContourConvex(
            quad.astype(np.float32).reshape(-1, 1, 2)):
        return None
    if float(cv2.contourArea(quad.astype(np.float32))) < HULL_SHARE * hull_area:
        return None
    ordered = _order(quad)
    if BORDER_SIDES and _border_sides(small, ordered) < BORDER_SIDES:
        return None
    sides = np.linalg.norm(ordered - np.roll(ordered, -1, axis=0), axis=1)
    ratio = (sides[1] + sides[3]) / max(sides[0] + sides[2], 1e-6)
    if not SIDE_RATIO[0] <= ratio <= SIDE_RATIO[1]:
        return None
    out = ordered / np.array([sx, sy], np.float32) + np.array([rx1, ry1], np.float32)
    return out.astype(np.float32)


def rectified_crop(frame: np.ndarray, quad: np.ndarray, size: int = 64,
                   margin: float = MARGIN) -> np.ndarray:
    """(size, size, 3) uint8: the card of ``quad`` (:func:`card_quad`'s order)
    warped upright to fill the square less ``margin`` a side, stretched as the
    classifier's crops are; drawn at the card's own pixel size and cut down by
    area (no aliasing of a large card)."""
    import cv2

    quad = np.asarray(quad, np.float32).reshape(4, 2)
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    work = int(np.clip(max(sides.max(), size), size, 1024))
    lo, hi = margin * work, (1 - margin) * work
    dst = np.float32([[lo, lo], [hi, lo], [hi, hi], [lo, hi]])
    persp = cv2.getPerspectiveTransform(quad, dst)
    warped = cv2.warpPerspective(frame, persp, (work, work),
                                 flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    if work == size:
        return warped
    return cv2.resize(warped, (size, size), interpolation=cv2.INTER_AREA)
