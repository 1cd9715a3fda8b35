"""What the real-browser tests share: Debian's chromium, the artefacts folder,
the time a loaded machine may take, and the mark that skips them without
chromium. The module-scoped ``browser`` fixture is in ``conftest.py``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"  # screenshots (git-ignored)
TIMEOUT = 60_000  # ms: a loaded 2-core machine is slow to render
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

needs_chromium = pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason=f"Debian's chromium is not installed at {CHROMIUM}",
)
