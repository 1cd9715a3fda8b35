"""Guided enrollment: cards shown to a camera one by one."""

from __future__ import annotations

import json

import cv2
import numpy as np

from vision.detections import Detections
from vision.enroll_camera import GuideConfig, guided_shots, label_set


class _Marked:
    """A stand-in finder: a frame whose first pixel is non-zero holds a card at
    a box moved by that pixel's value (1 px a step)."""

    names = ("card",)

    def detect(self, frame: np.ndarray) -> Detections:
        v = int(frame[0, 0, 0])
        if not v:
            return Detections.empty(self.names)
        return Detections([[100 + v, 50, 200 + v, 200]], [0.9], [0], names=self.names)


def _frames(values: list[int]) -> list[np.ndarray]:
    out = []
    for v in values:
        f = np.zeros((300, 400, 3), np.uint8)
        f[0, 0, 0] = v
        out.append(f)
    return out


def test_a_card_is_taken_once_steady_and_the_next_asked_for_once_clear() -> None:
    said: list[str] = []
    config = GuideConfig(steady=3, shots=2, gap=1, away=2)
    # card A: 1 moving frame (jump), then steady; cleared; card B steady; cleared.
    values = [0, 1, 60, 60, 60, 60, 60, 60, 60, 0, 0, 0, 5, 5, 5, 5, 5, 5, 0]
    shots = guided_shots(_frames(values), ["red-7", "blue-1"], _Marked(), config,
                         said.append)
    assert [s.label for s in shots] == ["red-7", "red-7", "blue-1", "blue-1"]
    assert said == ["show red-7 (1/2)", "got red-7", "show blue-1 (2/2)", "got blue-1"]
    # The first card stays on the table: it is not taken again as the second.
    shots = guided_shots(_frames([60] * 20), ["red-7", "blue-1"], _Marked(), config,
                         said.append)
    assert [s.label for s in shots] == ["red-7", "red-7"]
    assert said[-1] == "not taken: blue-1"


def test_label_sets() -> None:
    assert len(label_set("uno")) == 54 and "wild-draw4" in label_set("uno")
    assert "counter" in label_set("tgus-t")
    assert label_set("R7, counter") == ["red-7", "counter"]


def _scene(label: str, seed: int) -> np.ndarray:
    from datasets.cards import render_card

    rng = np.random.default_rng(seed)
    frame = np.full((360, 480, 3), (90, 110, 140), np.uint8)
    frame = cv2.add(frame, rng.integers(0, 12, frame.shape).astype(np.uint8))
    rgba = np.asarray(render_card(label, "classic", height=180))
    bgr, alpha = rgba[:, :, 2::-1], rgba[:, :, 3:] / 255.0
    h, w = bgr.shape[:2]
    y, x = 90, 180
    frame[y:y + h, x:x + w] = bgr * alpha + frame[y:y + h, x:x + w] * (1 - alpha)
    return frame


def test_enroll_from_a_camera_folder(tmp_path, capsys) -> None:
    from tableref.cli import main

    video = tmp_path / "video"
    video.mkdir()
    empty = np.full((360, 480, 3), (90, 110, 140), np.uint8)
    frames = []
    for i, label in enumerate(("red-7", "blue-draw2")):
        frames += [empty] * 4 + [_scene(label, 10 * i + j) for j in range(14)]
    frames += [empty] * 4
    for n, frame in enumerate(frames):
        cv2.imwrite(str(video / f"{n:03d}.png"), frame)
    code = main(["enroll", "--deck", "cam", "--camera", str(video),
                 "--labels", "red-7,blue-draw2", "--steps", "4",
                 "--decks-dir", str(tmp_path / "decks")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "got red-7" in out and "got blue-draw2" in out
    manifest = json.loads((tmp_path / "decks" / "cam" / "deck.json").read_text())
    assert manifest["photos"] == {"red-7": 3, "blue-draw2": 3}
