"""Audio helpers shared by the voice tests (a unique module name: pytest imports
test helpers by their base name)."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

DATA = Path(__file__).parent / "data"
RATE = 16000


def read(path: Path) -> np.ndarray:
    with wave.open(str(path)) as w:
        raw = w.readframes(w.getnframes())
    return np.frombuffer(raw, "<i2").astype(np.float32) / 32768


def write(path: Path, x: np.ndarray, rate: int = RATE) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes((np.clip(x, -1, 1) * 32767).astype("<i2").tobytes())
    return path


def noise(seconds: float, level: float, seed: int = 0) -> np.ndarray:
    """Noise with more low than high frequencies (table hum and hiss), seeded."""
    rng = np.random.default_rng(seed)
    white = rng.standard_normal(int(seconds * RATE)).astype(np.float32)
    low = np.convolve(white, 0.97 ** np.arange(64, dtype=np.float32), mode="same")
    mix = low / np.sqrt(np.mean(low**2)) + white
    return (level * mix / np.sqrt(np.mean(mix**2))).astype(np.float32)
