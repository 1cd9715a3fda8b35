"""The card renderer's style: designs, card size, colour palettes and fonts.

Part of the synthetic card renderer (:mod:`datasets.cards` re-exports the public
names). Nothing here draws; :mod:`datasets.card_symbols` and
:mod:`datasets.card_faces` import it.
"""

from __future__ import annotations

import functools
from pathlib import Path

from PIL import ImageFont

DESIGNS: tuple[str, ...] = ("modern", "classic")
CARD_ASPECT = 56.0 / 87.0  # width / height of a real card
_BASE_H = 560
_BASE_W = round(_BASE_H * CARD_ASPECT)

RGB = tuple[int, int, int]
PALETTES: dict[str, dict[str, RGB]] = {
    "modern": {
        "red": (222, 38, 45),
        "yellow": (250, 200, 20),
        "green": (52, 160, 72),
        "blue": (18, 110, 200),
        "black": (24, 24, 24),
    },
    "classic": {
        "red": (215, 30, 30),
        "yellow": (240, 200, 10),
        "green": (110, 160, 40),
        "blue": (20, 90, 210),
        "black": (16, 16, 16),
    },
}
WILD_ORDER = ("red", "blue", "yellow", "green")  # quadrants TL, TR, BL, BR


def _font_path(bold_oblique: bool = False) -> str:
    """A DejaVu TTF shipped inside matplotlib (or the system copy)."""
    name = "DejaVuSans-BoldOblique.ttf" if bold_oblique else "DejaVuSans-Bold.ttf"
    try:
        import matplotlib

        path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / name
        if path.exists():
            return str(path)
    except ImportError:  # pragma: no cover - matplotlib ships with ultralytics
        pass
    return str(Path("/usr/share/fonts/truetype/dejavu") / name)


@functools.lru_cache(maxsize=64)
def _font(size: int, oblique: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(_font_path(oblique), size)

