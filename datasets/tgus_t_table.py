"""A rendered tgus-t1 table: a seeded playout drawn as the demo table's camera sees it,
and enrollment photos of the deck's stand-in cards.

:func:`render_game` plays a seeded random tgus-t game with the referee's simulator
(:mod:`referee.tgus_t.sim`), lays it out on the demo table's time line
(:mod:`vision.demo.timeline`: arms bring each played card to the discard pile, take
drawn cards from the draw pile, turn the first card and the cards a Hit+? turns)
and draws the frames with the demo's renderer (:mod:`vision.demo.render`), whose
card faces come from :func:`datasets.cards.render_card` (the tgus-t deck's own
cards: the stand-ins of :mod:`datasets.card_tgus_t`). It writes, like the demo:

- ``tgus-table.mp4``: the video (640x480);
- ``tgus-table.jsonl``: the ground-truth table log (``t`` = the moment a card
  lands); for scoring only;
- ``tgus-table.said.jsonl``: what the players say, the table's other sensor input
  (the renderer has no voice for targets and Gamble effects): one line per
  utterance, ``{"t", "player", "say": {...}}`` with the spoken fields of a play
  (``color``, ``target``, ``effect``) said 0.3 s after its card lands, or a
  whole spoken event (``color``, ``call``, ``catch``, ``pass``,
  ``picture-leftover``) in ``"event"``;
- ``tgus-table.oracle.json.gz``: per frame, the cards a perfect detector sees.

Several cards played at once land together, side by side (``FAN_MM`` apart,
a little over half of each card in sight). The draw pile is
refilled (the discards shuffled back) when it runs low.

:func:`enrollment_photos` renders the photos a user would take of each card to
enroll the deck (``DIR/<label>/<k>.jpg``): close-ups, one card filling 45-85 % of
the frame height, and photos from a seat, the card lying on the table at 14-30 %
of the frame height, foreshortened; on a plain or grained surface, turned, seen
a little off-axis, under varied light, blur, noise and JPEG quality.
"""

from __future__ import annotations

import gzip
import json
import math
import random
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from referee.log import dump_event

PREFIX = "tgus-table"
FAN_MM = 31.0  # cards played together lie this far apart, side by side (of 56 mm)
SAY_DELAY = 0.3  # s after a card lands that its player says its colour/target/effect
_SPOKEN_FIELDS = ("color", "target", "effect")
_SPOKEN_EVENTS = ("color", "call", "catch", "pass", "picture-leftover")


def playout(seed: int, players: int = 3, hand_size: int = 5,
            rules: str = "tgus-t1", max_events: int = 600) -> list[dict[str, Any]]:
    """The header and events of one seeded tgus-t playout (names P1, P2, ...).

    Raises:
        ValueError: the game did not end within ``max_events`` or the simulator
            found the referee's counts off (a playout that cannot be a truth).
    """
    from referee.tgus_t.sim import Simulator

    sim = Simulator(rules, players, seed, hand_size=hand_size)
    out = sim.run(max_events)
    if not out.game.over or out.mismatches:
        raise ValueError(f"playout seed {seed}: over={out.game.over}, "
                         f"{len(out.mismatches)} count mismatches")
    header = sim.game.header.to_dict()
    return [header] + [dict(e) for e in out.events]


def build_timeline(events: list[dict[str, Any]], seed: int):
    """(time line, truth log, said lines) for a playout's ``events``."""
    from vision.demo.timeline import CardPose, _Builder, _order

    header, rest = events[0], events[1:]
    seat = {name: i for i, name in enumerate(header["players"])}
    if len(seat) > 3:
        raise ValueError("the demo table seats three players")
    b = _Builder(seed, real=False)
    rng = random.Random(seed)
    truth: list[dict[str, Any]] = [header]
    said: list[dict[str, Any]] = []
    stock = 40
    last_player = header["players"][-1]

    def refill() -> None:
        nonlocal stock
        if stock < 12:
            b.tl.changes.append((b.t, "refill", 40))
            stock = 40

    for e in rest:
        kind = e["type"]
        if kind == "start":
            t = b.start(seat[last_player], e["card"])
            stock -= 1
        elif kind == "play":
            labels = list(e["cards"])
            t = b.play(seat[e["player"]], labels[0])
            first = b.top
            side = rng.choice((-1, 1))
            for k, label in enumerate(labels[1:], 1):  # fanned beside the first
                a = math.radians(first.angle)
                shift = side * FAN_MM * k
                xy = (first.xy[0] + shift * math.cos(a),
                      first.xy[1] + shift * math.sin(a))
                pose = CardPose(label, xy, first.angle + rng.uniform(-8, 8))
                b.tl.changes.append((t + 1e-3 * k, "pile", pose))
                b.top = pose
            spoken = {k: e[k] for k in _SPOKEN_FIELDS if k in e}
            if spoken:
                said.append({"t": round(t + SAY_DELAY, 3), "player": e["player"],
                             "say": spoken})
            last_player = e["player"]
        elif kind == "turned":
            refill()
            t = b.start(seat[last_player], e["cards"][0])
            stock -= 1
            spoken = {k: e[k] for k in _SPOKEN_FIELDS if k in e}
            if spoken:
                said.append({"t": round(t + SAY_DELAY, 3), "player": last_player,
                             "say": spoken})
        elif kind == "draw":
            refill()
            t = b.draw(seat[e["player"]], int(e["count"]))
            stock -= int(e["count"])
        elif kind in _SPOKEN_EVENTS:
            t = b.t
            said.append({"t": round(t, 3), "event": dict(e)})
            b.t += 0.4
        else:
            raise ValueError(f"no way to show a {kind!r} event")
        truth.append({**e, "t": round(t, 3)})
    b.tl.changes.sort(key=lambda c: c[0])
    b.tl.events = _order(truth)
    b.tl.duration = b.t + 1.5
    return b.tl, truth, said


def render_game(out_dir: Path, seed: int, fps: float = 15.0, players: int = 3,
                hand_size: int = 5) -> dict[str, Any]:
    """Render a seeded tgus-t1 playout into ``out_dir`` (files in the module
    docstring); returns a summary."""
    from vision.demo.render import FRAME, Renderer, camera_matrix

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    events = playout(seed, players, hand_size)
    tl, truth, said = build_timeline(events, seed)
    renderer = Renderer(seed)
    video = out_dir / f"{PREFIX}.mp4"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"mp4v"), fps, FRAME)
    if not writer.isOpened():
        raise RuntimeError(f"OpenCV cannot write {video}")
    frames = []
    n = int(math.ceil(tl.duration * fps))
    for i in range(n):
        image, oracle = renderer.frame(tl, i / fps)
        writer.write(image)
        frames.append(oracle)
    writer.release()
    (out_dir / f"{PREFIX}.jsonl").write_text(
        "".join(dump_event(e) + "\n" for e in truth), encoding="utf-8")
    (out_dir / f"{PREFIX}.said.jsonl").write_text(
        "".join(json.dumps(s, ensure_ascii=False) + "\n" for s in said),
        encoding="utf-8")
    with gzip.open(out_dir / f"{PREFIX}.oracle.json.gz", "wt", encoding="utf-8") as fh:
        json.dump({"fps": fps, "size": FRAME, "camera": camera_matrix().tolist(),
                   "frames": frames}, fh, separators=(",", ":"))
    return {"frames": n, "seconds": round(tl.duration, 1), "video": str(video),
            "events": len(truth) - 1, "said": len(said)}


# -- enrollment photos ------------------------------------------------------------
def enrollment_photo(label: str, rng: np.random.Generator,
                     size: tuple[int, int] = (640, 480),
                     far: bool = False) -> np.ndarray:
    """One BGR photo of the card ``label`` (the table's print: modern, variant 0):
    a close-up, or (``far``) the card lying on the table seen from where a
    player sits (14-30 % of the frame height, foreshortened by the slant)."""
    from datasets.cards import render_card

    w, h = size
    base = rng.integers(40, 210, 3).astype(np.float32)
    photo = np.empty((h, w, 3), np.float32)
    photo[:] = base
    if rng.random() < 0.5:  # a grained surface (wood, cloth)
        grain = cv2.GaussianBlur(rng.normal(0, 18, (h, w)).astype(np.float32),
                                 (0, 0), sigmaX=float(rng.uniform(1, 6)),
                                 sigmaY=float(rng.uniform(0.5, 2)))
        photo += grain[:, :, None]
    ch = int(h * (rng.uniform(0.14, 0.3) if far else rng.uniform(0.45, 0.85)))
    face = np.asarray(render_card(label, "modern", ch, 0))
    bgra = face[:, :, [2, 1, 0, 3]].astype(np.float32)
    fh, fw = bgra.shape[:2]
    src = np.float32([(0, 0), (fw, 0), (fw, fh), (0, fh)])
    angle = math.radians(rng.uniform(-15, 15))
    c, s = math.cos(angle), math.sin(angle)
    centre = np.array([w / 2 + rng.uniform(-0.12, 0.12) * w,
                       h / 2 + rng.uniform(-0.06, 0.06) * h])
    corners = (src - (fw / 2, fh / 2)) @ np.float32([[c, s], [-s, c]])
    corners += rng.uniform(-0.04, 0.04, (4, 2)) * fh  # seen a little off-axis
    if far:  # the table's plane seen at a slant: shorter, narrower further away
        squash = rng.uniform(0.6, 0.9)
        corners[:, 1] *= squash
        corners[:, 0] *= 1 + 0.15 * corners[:, 1] / fh
    dst = (corners + centre).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(bgra, m, (w, h), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    alpha = warped[:, :, 3:4] / 255.0
    photo = photo * (1 - alpha) + warped[:, :, :3] * alpha
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)  # light falling off to one side
    a = rng.uniform(0, 2 * math.pi)
    ramp = ((xs - w / 2) * math.cos(a) + (ys - h / 2) * math.sin(a)) / w
    photo *= (rng.uniform(0.75, 1.2) + rng.uniform(0, 0.35) * ramp)[:, :, None]
    photo *= rng.uniform(0.9, 1.1, 3)  # white balance
    sigma = float(rng.uniform(0, 1.3))
    if sigma > 0.3:
        photo = cv2.GaussianBlur(photo, (0, 0), sigma)
    photo += rng.normal(0, rng.uniform(1, 5), photo.shape)
    out = np.clip(photo, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY,
                                         int(rng.integers(70, 96))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def table_photo(label: str, rng: np.random.Generator, renderer=None,
                fan_share: float | None = None, old_fan_share: float | None = None
                ) -> np.ndarray:
    """One BGR photo of the card ``label`` lying on the table as the table's own
    camera sees it (the demo renderer's camera, its card sprites and table), cut
    out of the frame around the card (about three cards wide, so the finder's
    largest box is this card): the camera a user enrolls with at the table. The
    card lies near the discard pile, turned, under changed light, on a pile of
    up to four cards lying as played (in ``old_fan_share`` of the photos,
    default :data:`OLD_FAN_SHARE`, over an earlier multi-play of two or three
    cards fanned out beyond them, as the pile of a game with multi-plays
    spreads); in ``fan_share`` of them (default :data:`FAN_SHARE`) it is the
    last of two or three cards played together, the others (the same value in
    other colours where there is one) fanned under it ``FAN_MM`` apart, as a
    multi-play lies on the pile."""
    from vision.demo.render import FRAME, Renderer, _project, card_quad
    from vision.demo.timeline import DISCARD, CardPose, Timeline

    fan_share = FAN_SHARE if fan_share is None else fan_share
    old_fan_share = OLD_FAN_SHARE if old_fan_share is None else old_fan_share
    renderer = renderer or Renderer(int(rng.integers(1 << 30)))
    tl = Timeline()
    xy = (DISCARD[0] + rng.uniform(-40, 40), DISCARD[1] + rng.uniform(-60, 60))
    angle = float(rng.uniform(-35, 35) + (180 if rng.random() < 0.3 else 0))
    others = [k for k in _STANDARD_SHOWN if k != label]
    if rng.random() < old_fan_share:  # an earlier multi-play sticking out under
        oxy = (xy[0] + rng.uniform(-12, 12), xy[1] + rng.uniform(-12, 12))
        oa = angle + rng.uniform(-25, 25)
        side = rng.choice((-1, 1))
        for k in range(int(rng.integers(2, 4))):
            shift = side * FAN_MM * k
            fxy = (oxy[0] + shift * math.cos(math.radians(oa)),
                   oxy[1] + shift * math.sin(math.radians(oa)))
            tl.changes.append((0.0, "pile", CardPose(
                others[int(rng.integers(len(others)))], fxy, oa + rng.uniform(-8, 8))))
    for _ in range(int(rng.integers(0, 5))):  # a pile under it: cards as played
        under = others[int(rng.integers(len(others)))]
        uxy = (xy[0] + rng.uniform(-15, 15), xy[1] + rng.uniform(-15, 15))
        tl.changes.append((0.0, "pile", CardPose(under, uxy,
                                                 angle + rng.uniform(-40, 40))))
    if rng.random() < fan_share:  # the last of cards played together
        fanned = _fanned_under(label, int(rng.integers(1, 3)), rng)
        side = rng.choice((-1, 1))
        a = math.radians(angle)
        for k, under in enumerate(fanned):  # the first one furthest
            shift = side * FAN_MM * (len(fanned) - k) + rng.uniform(-3, 3)
            uxy = (xy[0] - shift * math.cos(a), xy[1] - shift * math.sin(a))
            tl.changes.append((0.0, "pile", CardPose(under, uxy,
                                                     angle + rng.uniform(-8, 8))))
    tl.changes.append((0.0, "pile", CardPose(label, xy, angle)))
    tl.changes.append((0.0, "draw", 40))
    tint = tuple(float(v) for v in rng.uniform(0.9, 1.1, 3))
    tl.lights.append((-10.0, 100.0, float(rng.uniform(0.75, 1.2)), tint))
    image, _ = renderer.frame(tl, 1.0)
    px = _project(renderer.H, card_quad(xy, angle))
    (x0, y0), (x1, y1) = px.min(axis=0), px.max(axis=0)
    cx, cy, half = (x0 + x1) / 2, (y0 + y1) / 2, 1.5 * max(x1 - x0, y1 - y0)
    half *= rng.uniform(0.9, 1.2)
    w, h = FRAME
    left, top = int(max(0, cx - half)), int(max(0, cy - half))
    right, bottom = int(min(w, cx + half)), int(min(h, cy + half))
    photo = image[top:bottom, left:right]
    ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY,
                                           int(rng.integers(75, 96))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def _fanned_under(label: str, n: int, rng: np.random.Generator) -> list[str]:
    """``n`` cards played together with ``label`` before it, as a multi-play
    lies: the same value in other colours (a coloured card of a value the
    other colours print), else cards a table photo may show under it."""
    from referee.cards import Card
    from referee.tgus_t.cards import deck_counts

    card = Card.from_label(label)
    if card.color is not None:
        same = [f"{c}-{card.value}" for c in ("red", "yellow", "green", "blue")]
        same = [x for x in same if x in deck_counts()]  # the label among them
        if len(same) > 1:
            return [same[int(rng.integers(len(same)))] for _ in range(n)]
    others = [k for k in _STANDARD_SHOWN if k != label]
    return [others[int(rng.integers(len(others)))] for _ in range(n)]


#: share of table photos where the card is the last of two or three played
#: together, the others fanned under it (``FAN_MM`` apart)
FAN_SHARE = 0.5
#: share of table photos whose pile holds an earlier multi-play of two or three
#: cards, fanned out beyond the cards played since
OLD_FAN_SHARE = 0.5
#: cards a table photo may show under or beside the enrolled one
_STANDARD_SHOWN = ("red-3", "blue-7", "green-skip", "yellow-reverse", "red-9",
                   "green-1", "blue-4", "yellow-6")


def enrollment_photos(out_dir: Path, labels: list[str], per_label: int = 2,
                      seed: int = 0, far: int = 1, table: int = 0,
                      fan_share: float | None = None,
                      old_fan_share: float | None = None) -> int:
    """Write ``per_label`` close-ups, ``far`` photos from a seat and ``table``
    photos from the table's camera (:func:`table_photo`, with ``fan_share`` and
    ``old_fan_share``) of each label as ``out_dir/<label>/<k>.jpg``; returns
    the number written. Seeded: the same seed writes the same photos."""
    from vision.demo.render import Renderer

    out_dir = Path(out_dir)
    count = 0
    renderer = Renderer(seed) if table else None
    for i, label in enumerate(labels):
        folder = out_dir / label
        folder.mkdir(parents=True, exist_ok=True)
        for k in range(per_label + far + table):
            rng = np.random.default_rng([seed, i, k])
            if k >= per_label + far:
                photo = table_photo(label, rng, renderer, fan_share, old_fan_share)
            else:
                photo = enrollment_photo(label, rng, far=k >= per_label)
            cv2.imwrite(str(folder / f"{k}.jpg"), photo)
            count += 1
    return count
