"""Card faces of the UNO deck, drawn procedurally (no image assets, nothing downloaded).

API (other modules import this)::

    from datasets.cards import render_card, card_back, DESIGNS
    img = render_card("red-7", design="modern", height=300)   # PIL RGBA
    back = card_back(height=300)

- ``render_card(label, design="modern"|"classic", height=..., variant=0)`` returns an
  RGBA :class:`PIL.Image.Image` of one card face, ``CARD_ASPECT`` wide per unit of
  height, with transparent rounded corners. ``label`` is any of
  :data:`referee.cards.CLASSES` (54 classic cards plus ``wild-shuffle`` and
  ``wild-custom``) or a short form such as ``R7``.
- ``design="modern"``: white border, a big white centre circle with faint radial lines
  and the symbol in the card colour with a dark drop shadow.
  ``design="classic"``: the older deck with a tilted white oval (a ring by default,
  ``variant=1`` fills it white) and a white symbol outlined in black.
- Corner indices sit top-left and (turned 180 degrees) bottom-right; 6 and 9 are
  underlined; skip is a circle with a slash, reverse two arrows (in the modern
  design's own print a hooked S, as the current deck has it), draw two ``+2`` with
  two small cards, wild a four-colour oval, wild draw four ``+4`` with four cards,
  shuffle-hands circling arrows, the customizable wild a blank white field.
- Results are deterministic and cached per ``(label, design, variant, height)``;
  treat returned images as read-only (``.copy()`` before drawing on them).

The renderer is split by job: :mod:`datasets.card_style` (designs, palettes,
fonts), :mod:`datasets.card_symbols` (symbol masks), :mod:`datasets.card_faces`
(faces and the back); this module re-exports their public names and draws the
contact sheet of the whole deck.
"""

from __future__ import annotations

import math

from PIL import Image

from datasets.card_faces import _base, _render_base, _resize, card_back, render_card
from datasets.card_style import (
    CARD_ASPECT,
    DESIGNS,
    PALETTES,
    RGB,
    WILD_ORDER,
    _font,
    _font_path,
)
from datasets.card_symbols import (
    _footless_one,
    _hooked_reverse_mask,
    _paste_mask,
    _reverse_mask,
    _symbol_mask,
    _text_mask,
)
from referee.cards import CLASSES

__all__ = [
    "CARD_ASPECT",
    "DESIGNS",
    "PALETTES",
    "RGB",
    "WILD_ORDER",
    "_base",
    "_font",
    "_font_path",
    "_footless_one",
    "_hooked_reverse_mask",
    "_paste_mask",
    "_render_base",
    "_resize",
    "_reverse_mask",
    "_symbol_mask",
    "_text_mask",
    "card_back",
    "render_card",
    "sheet",
]


def sheet(
    design: str = "modern", height: int = 160, columns: int = 14, variant: int = 0
) -> Image.Image:
    """All 56 faces on one RGB contact sheet (for eyeballing the renderer)."""
    faces = [render_card(label, design, height, variant) for label in CLASSES]
    fw, fh = faces[0].size
    rows = math.ceil(len(faces) / columns)
    out = Image.new("RGB", (columns * (fw + 4), rows * (fh + 4)), (90, 90, 90))
    for i, face in enumerate(faces):
        out.paste(face, ((i % columns) * (fw + 4), (i // columns) * (fh + 4)), face)
    return out
