"""Render the bundled demo table: a video, its ground-truth log, and oracle boxes.

``python -m vision.demo.render [--out DIR] [--fps 15] [--seed 23]`` scripts a
legal game (:mod:`vision.demo.game`), lays it out on a time line
(:mod:`vision.demo.timeline`) and draws every frame as a camera above one side
of the table sees it: four ArUco corner markers, the draw pile, the discard
pile, arms reaching in from the seats, a card held over the pile and taken
back, a hand passing over the pile, hands laid out for scoring, and lighting
changes. It writes

- ``demo-table.mp4``: the video (640x480, MPEG-4 part 2, as OpenCV writes it);
- ``demo-table.jsonl``: the ground-truth table log (``t`` = the moment each
  card lands; ``uno``/``pass`` events and wild colours are what the players
  say, marked ``"source": "voice"``);
- ``demo-table.oracle.json.gz``: per frame, the cards a perfect detector
  would report (label and box), for tests and the benchmark.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
from pathlib import Path

import cv2
import numpy as np

from referee.log import dump_event

from .sprites import card_back_sprite, card_sprite, table_background
from .timeline import AREA, Timeline, build_timeline

CAM_CORNERS = np.array([(118, 64), (522, 64), (596, 426), (44, 426)], np.float32)
FRAME = (640, 480)
SKIN = [(150, 180, 225), (110, 150, 200), (90, 125, 175)]
SLEEVE = [(140, 60, 40), (60, 60, 150), (90, 90, 90)]


def camera_matrix() -> np.ndarray:
    """Table millimetres -> demo image pixels."""
    w, h = AREA
    src = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
    return cv2.getPerspectiveTransform(src, CAM_CORNERS).astype(np.float64)


def _project(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(
        np.asarray(pts, np.float64).reshape(-1, 1, 2), H
    ).reshape(-1, 2)


def card_quad(xy, angle: float, scale: float = 1.0, card=(56.0, 87.0)) -> np.ndarray:
    """The corners (mm) of a card centred at ``xy``, turned by ``angle`` degrees."""
    w, h = card[0] * scale / 2, card[1] * scale / 2
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    corners = np.array([(-w, -h), (w, -h), (w, h), (-w, h)]) @ rot.T
    return corners + np.asarray(xy, np.float64)


class Renderer:
    """Draws frames of a :class:`Timeline` and the oracle's boxes."""

    def __init__(self, seed: int = 0):
        self.H = camera_matrix()
        self.background = table_background(self.H, FRAME)
        self.sprites: dict[str, np.ndarray] = {}
        self.back = card_back_sprite()
        self.rng = np.random.default_rng(seed)
        self.grain = self.rng.normal(0, 1.0, (FRAME[1], FRAME[0], 1)).astype(np.float32)

    def _sprite(self, label: str) -> np.ndarray:
        if label not in self.sprites:
            self.sprites[label] = card_sprite(label)
        return self.sprites[label]

    def _paste(self, img: np.ndarray, sprite: np.ndarray, quad_px: np.ndarray) -> None:
        x0, y0 = np.floor(quad_px.min(axis=0)).astype(int)
        x1, y1 = np.ceil(quad_px.max(axis=0)).astype(int)
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, img.shape[1]), min(y1, img.shape[0])
        if x1 <= x0 or y1 <= y0:
            return
        sh, sw = sprite.shape[:2]
        src = np.array([(0, 0), (sw, 0), (sw, sh), (0, sh)], np.float32)
        M = cv2.getPerspectiveTransform(src, (quad_px - (x0, y0)).astype(np.float32))
        warped = cv2.warpPerspective(
            sprite,
            M,
            (x1 - x0, y1 - y0),
            flags=cv2.INTER_AREA,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(0, 0, 0, 0),
        )
        alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
        roi = img[y0:y1, x0:x1]
        roi[:] = (roi * (1 - alpha) + warped[:, :, :3] * alpha).astype(np.uint8)

    def _arm(self, img: np.ndarray, ids: np.ndarray, seat: int, entry, tip) -> None:
        entry, tip = np.asarray(entry, float), np.asarray(tip, float)
        out = entry - np.array(AREA) / 2
        shoulder = entry + out / np.hypot(*out) * 320  # well outside the table
        d = tip - shoulder
        u = d / (float(np.hypot(*d)) or 1.0)
        n = np.array([-u[1], u[0]])
        start = shoulder
        wrist = tip - u * 70
        sleeve = [start + n * 45, wrist + n * 38, wrist - n * 38, start - n * 45]
        hand = [
            wrist + n * 40,
            tip + n * 30 - u * 5,
            tip + u * 12,
            tip - n * 30 - u * 5,
            wrist - n * 40,
        ]
        for poly, colour in ((sleeve, SLEEVE[seat % 3]), (hand, SKIN[seat % 3])):
            px = _project(self.H, np.array(poly)).astype(np.int32)
            cv2.fillPoly(img, [px], colour, cv2.LINE_AA)
            cv2.fillPoly(ids, [px], -1)

    def _fingers(self, img: np.ndarray, ids: np.ndarray, seat: int, held) -> None:
        """Fingers spread over a held card: most of its face hidden."""
        centre = _project(self.H, np.array([held.xy]))[0]
        edge = _project(self.H, np.array([(held.xy[0] + 30, held.xy[1] + 36)]))[0]
        axes = tuple(int(v) for v in np.abs(edge - centre) + 1)
        c = tuple(int(v) for v in centre)
        cv2.ellipse(img, c, axes, held.angle, 0, 360, SKIN[seat % 3], -1, cv2.LINE_AA)
        cv2.ellipse(ids, c, axes, held.angle, 0, 360, -1, -1)

    def frame(self, tl: Timeline, t: float) -> tuple[np.ndarray, list[list]]:
        """The image at ``t`` and the oracle's rows ``[label, x0, y0, x1, y1]``."""
        img = self.background.copy()
        ids = np.full((FRAME[1], FRAME[0]), -2, np.int32)
        scene = tl.scene(t)
        faces: list[tuple[str, np.ndarray]] = []
        for k in range(min(scene.draw_count, 6)):
            quad = card_quad(
                (AREA[0] / 2 - 78 + k * 0.6, AREA[1] / 2 - k * 0.8), 90 + k
            )
            px = _project(self.H, quad)
            self._paste(img, self.back, px)
            cv2.fillPoly(ids, [px.astype(np.int32)], -1)
        for card in scene.cards:
            px = _project(self.H, card_quad(card.xy, card.angle, card.scale))
            self._paste(img, self._sprite(card.label), px)
            cv2.fillPoly(ids, [px.astype(np.int32)], len(faces))
            faces.append((card.label, px))
        for arm in scene.arms:
            if arm.held is not None:
                px = _project(
                    self.H, card_quad(arm.held.xy, arm.held.angle, arm.held.scale)
                )
                sprite = (
                    self.back
                    if arm.held.label == "back"
                    else self._sprite(arm.held.label)
                )
                self._paste(img, sprite, px)
                if arm.held.label != "back":
                    cv2.fillPoly(ids, [px.astype(np.int32)], len(faces))
                    faces.append((arm.held.label, px))
            self._arm(img, ids, arm.seat, arm.entry, arm.tip)
            if arm.grip and arm.held is not None and arm.held.label != "back":
                self._fingers(img, ids, arm.seat, arm.held)
        oracle = []
        for k, (label, px) in enumerate(faces):
            area = cv2.contourArea(px.astype(np.float32))
            x0, y0 = np.clip(np.floor(px.min(axis=0)).astype(int), 0, None)
            x1, y1 = np.ceil(px.max(axis=0)).astype(int) + 1
            ys, xs = np.nonzero(ids[y0:y1, x0:x1] == k)
            if area > 0 and len(xs) / area >= 0.55:  # box of the visible part
                oracle.append(
                    [
                        label,
                        float(x0 + xs.min()),
                        float(y0 + ys.min()),
                        float(x0 + xs.max() + 1),
                        float(y0 + ys.max() + 1),
                    ]
                )
        gain, tint = tl.light(t)
        out = img.astype(np.float32) * gain * np.array(tint, np.float32)
        out += self.grain
        return np.clip(out, 0, 255).astype(np.uint8), oracle


def render(
    out_dir: Path,
    fps: float = 15.0,
    seed: int = 23,
    video_name: str = "demo-table.mp4",
    real: bool = False,
) -> dict:
    """Render the demo into ``out_dir``; returns a summary. ``real``: twins
    landing neatly, fingers over carried cards, lingering hands
    (:func:`build_timeline`)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    tl = build_timeline(seed, real)
    renderer = Renderer(seed)
    video = out_dir / video_name
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
    stem = video_name.rsplit(".", 1)[0]
    log = out_dir / f"{stem}.jsonl"
    log.write_text("".join(dump_event(e) + "\n" for e in tl.log()), encoding="utf-8")
    with gzip.open(out_dir / f"{stem}.oracle.json.gz", "wt", encoding="utf-8") as fh:
        json.dump(
            {
                "fps": fps,
                "size": FRAME,
                "camera": camera_matrix().tolist(),
                "frames": frames,
            },
            fh,
            separators=(",", ":"),
        )
    return {
        "frames": n,
        "seconds": round(tl.duration, 1),
        "video": str(video),
        "bytes": video.stat().st_size,
        "events": len(tl.log()) - 1,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(Path(__file__).resolve().parent / "data"))
    p.add_argument("--fps", type=float, default=15.0)
    p.add_argument("--seed", type=int, default=23)
    args = p.parse_args(argv)
    print(json.dumps(render(Path(args.out), args.fps, args.seed)))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
