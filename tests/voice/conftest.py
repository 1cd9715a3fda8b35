"""Audio fixtures for the voice tests.

Two tiny recordings are committed under ``data/`` (espeak-ng saying "Uno!" with the
en-us voice and "ウノ" with the ja voice, 0.6 s of quiet room noise (-50 dBFS, from
``voicetest_audio.noise``) before and after, 16 kHz mono, made by this project). Tests
that need other sentences synthesise them with espeak-ng and are skipped, with the
reason, where it is not installed (Debian package ``espeak-ng``).
"""

from __future__ import annotations

import io
import shutil
import subprocess
import wave
from pathlib import Path

import numpy as np
import pytest

from voicetest_audio import DATA, RATE



@pytest.fixture
def uno_en() -> Path:
    return DATA / "uno_en.wav"


@pytest.fixture
def uno_ja() -> Path:
    return DATA / "uno_ja.wav"


@pytest.fixture
def say():
    """``say(text, voice) -> float32 samples at 16 kHz`` with espeak-ng, or skip."""
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (Debian package espeak-ng)")

    def _say(text: str, voice: str = "en-us", speed: int = 150) -> np.ndarray:
        out = subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "--stdout",
                              text], capture_output=True, check=True).stdout
        with wave.open(io.BytesIO(out)) as w:
            rate = w.getframerate()
            x = np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(np.float32)
        x /= 32768
        n = int(len(x) * RATE / rate)
        return np.interp(np.arange(n) * rate / RATE, np.arange(len(x)), x).astype(
            np.float32)

    return _say
