"""Stand-in faces for the 東幻符闘祭 deck's own cards (tgus-t1, tgus-t2).

Nobody can draw the real prints (000 names the cards but shows none), so the
renderer draws its own stand-ins, made to look unlike every standard card: a
white **diamond** in the middle (the standard designs have a circle or an oval)
holding a symbol of the card's own:

========================  =====================================================
label                     face
========================  =====================================================
``<colour>-hit2``         the colour's field, a star burst in the colour, ``+2``
``<colour>-reverse-hit2`` the colour's field, a black diamond, arrows chasing round
                          a ring, ``+2``
``wild-hit4``             black field, a four-colour star burst, ``+4``
``wild-hit-x``            black field, a four-colour disc, ``+?``
``counter``               purple field, a shield with a bounced arrow
``change``                teal field, an up and a down arrow side by side
``replace``               brown field, two cards with an arrow each way between
``gamble``                gold field, a die showing five
========================  =====================================================

Corner indices print a short code (``H2``, ``R2``, ``+4``, ``+?``, ``CO``,
``CH``, ``RP``, ``GB``). The deck's standard cards (numbers, skip, reverse,
wild) keep the standard look: :func:`datasets.cards.render_card` draws them as
it always has, and draws these for the labels below
(:data:`STAND_IN_VALUES`). ``design`` picks the palette (and tilts the
diamond in the classic design); ``variant`` 4-7 outlines the symbol in black,
as another print might.
"""

from __future__ import annotations

import functools
import math

from PIL import Image, ImageDraw

import referee.tgus_t.cards  # noqa: F401  (registers the deck's labels)
from datasets.card_style import PALETTES, RGB
from datasets.card_symbols import (
    _four_colour_oval,
    _paste_mask,
    _shuffle_mask,
    _text_mask,
)
from referee.cards import Card

#: Card values the standard deck has no print for; their faces are drawn here.
STAND_IN_VALUES: tuple[str, ...] = (
    "hit2",
    "reverse-hit2",
    "wild-hit4",
    "wild-hit-x",
    "counter",
    "change",
    "replace",
    "gamble",
)
#: Field colours of the colourless stand-ins (the wild-like ones are black).
FIELDS: dict[str, RGB] = {
    "counter": (92, 44, 140),
    "change": (0, 128, 128),
    "replace": (140, 78, 30),
    "gamble": (196, 150, 24),
}
CORNER: dict[str, str] = {
    "hit2": "H2",
    "reverse-hit2": "R2",
    "wild-hit4": "+4",
    "wild-hit-x": "+?",
    "counter": "CO",
    "change": "CH",
    "replace": "RP",
    "gamble": "GB",
}
WHITE, DARK = (255, 255, 255), (20, 20, 20)


def is_stand_in(label: str) -> bool:
    """Whether ``label`` is one of the tgus-t deck's own cards (drawn here)."""
    try:
        return Card.from_label(label).value in STAND_IN_VALUES
    except ValueError:
        return False


def _star_mask(size: int, points: int = 12, inner: float = 0.62) -> Image.Image:
    """A star burst: ``points`` spikes, the valleys at ``inner`` of the radius."""
    mask = Image.new("L", (size, size), 0)
    c, r = size / 2, size / 2 - 1
    poly = []
    for k in range(2 * points):
        a = math.pi * k / points - math.pi / 2
        rr = r if k % 2 == 0 else r * inner
        poly.append((c + rr * math.cos(a), c + rr * math.sin(a)))
    ImageDraw.Draw(mask).polygon(poly, fill=255)
    return mask


def _shield_mask(size: int) -> Image.Image:
    """A shield with an arrow bounced off it (cut out): the Counter."""
    mask = Image.new("L", (size, size), 0)
    d = ImageDraw.Draw(mask)
    s = size
    d.polygon(
        [(s * .12, s * .08), (s * .88, s * .08), (s * .88, s * .5), (s * .5, s * .95),
         (s * .12, s * .5)],
        fill=255,
    )
    w = max(2, s // 11)  # the bounced arrow: down, then back up and out
    d.line([(s * .36, s * .18), (s * .36, s * .6), (s * .62, s * .38)], fill=0, width=w)
    d.polygon([(s * .7, s * .28), (s * .5, s * .33), (s * .66, s * .48)], fill=0)
    return mask


def _updown_mask(size: int) -> Image.Image:
    """An up arrow and a down arrow side by side (the Change)."""
    mask = Image.new("L", (size, size), 0)
    d = ImageDraw.Draw(mask)
    s, t = size, size * 0.13
    for x, up in ((s * .3, True), (s * .7, False)):
        tip, neck = (s * .05, s * .38) if up else (s * .95, s * .62)
        tail = s * .95 if up else s * .05
        d.rectangle([x - t / 2, min(neck, tail), x + t / 2, max(neck, tail)], fill=255)
        d.polygon([(x - t * 1.6, neck), (x + t * 1.6, neck), (x, tip)], fill=255)
    return mask


def _swap_mask(size: int) -> Image.Image:
    """Two cards with an arrow each way between them (the Replace)."""
    mask = Image.new("L", (size, size), 0)
    d = ImageDraw.Draw(mask)
    s, w = size, max(2, size // 14)
    for x0 in (s * .02, s * .64):
        d.rounded_rectangle([x0, s * .2, x0 + s * .34, s * .8], radius=s * .05,
                            outline=255, width=w)
    for y, right in ((s * .4, True), (s * .6, False)):
        x0, x1 = s * .38, s * .62
        d.line([(x0, y), (x1, y)], fill=255, width=w)
        tip = x1 + s * .02 if right else x0 - s * .02
        back = tip - s * .1 if right else tip + s * .1
        d.polygon([(tip, y), (back, y - s * .07), (back, y + s * .07)], fill=255)
    return mask


def _die(img: Image.Image, center: tuple[float, float], size: float) -> None:
    """A white die showing five, turned a little (the Gamble)."""
    layer = Image.new("RGBA", (int(size), int(size)), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    s = size
    d.rounded_rectangle([s * .08, s * .08, s * .92, s * .92], radius=s * .16,
                        fill=(250, 250, 248, 255), outline=DARK + (255,),
                        width=max(2, int(s) // 30))
    r = s * .085
    for fx, fy in ((.3, .3), (.7, .3), (.5, .5), (.3, .7), (.7, .7)):
        d.ellipse([s * fx - r, s * fy - r, s * fx + r, s * fy + r], fill=DARK + (255,))
    layer = layer.rotate(15, resample=Image.BICUBIC, expand=True)
    img.paste(layer, (round(center[0] - layer.width / 2),
                      round(center[1] - layer.height / 2)), layer)


def _four_colour_in(img: Image.Image, mask: Image.Image, center, palette) -> None:
    """The four wild colours through ``mask`` (quadrants), edged in black."""
    w, h = mask.size
    x, y = round(center[0] - w / 2), round(center[1] - h / 2)
    _paste_mask(img, mask, center, DARK, DARK, 6)
    layer = Image.new("RGB", (w, h), DARK)
    _four_colour_oval(layer, (0, 0, w, h), palette, 0)
    img.paste(layer, (x, y), mask)


@functools.lru_cache(maxsize=128)
def render_stand_in(label: str, design: str, variant: int) -> Image.Image:
    """The stand-in face of a tgus-t card at the renderer's base size (RGBA)."""
    from datasets.card_faces import _base

    card = Card.from_label(label)
    value = card.value
    palette = PALETTES[design]
    if card.color is not None:
        field = palette[card.color]
    else:
        field = FIELDS.get(value, palette["black"])
    img, alpha = _base(field)
    w, h = img.size
    cx, cy = w / 2, h / 2
    # the diamond
    tilt = 12.0 if design == "classic" else 0.0
    dia = Image.new("L", (int(w * 0.9), int(h * 0.72)), 0)
    ImageDraw.Draw(dia).polygon(
        [(dia.width / 2, 0), (dia.width - 1, dia.height / 2),
         (dia.width / 2, dia.height - 1), (0, dia.height / 2)], fill=255)
    if tilt:
        dia = dia.rotate(tilt, resample=Image.BICUBIC, expand=True)
    inside = (34, 34, 34) if value == "reverse-hit2" else (246, 246, 242)
    img.paste(Image.new("RGB", dia.size, inside),
              (round(cx - dia.width / 2), round(cy - dia.height / 2)), dia)
    edge = DARK if variant >= 4 else None
    edge_px = 5 if edge else 0
    big = int(w * 0.56)
    number = int(w * 0.2)
    if value == "hit2":
        _paste_mask(img, _star_mask(big), (cx, cy), field, edge, edge_px, DARK, 6)
        _paste_mask(img, _text_mask("+2", number, False, False), (cx, cy), WHITE,
                    DARK, 3)
    elif value == "reverse-hit2":
        _paste_mask(img, _shuffle_mask(big), (cx, cy), field, edge, edge_px, DARK, 6)
        _paste_mask(img, _text_mask("+2", int(number * 0.9), False, False), (cx, cy),
                    WHITE, field, 3)
    elif value == "wild-hit4":
        _four_colour_in(img, _star_mask(big), (cx, cy), palette)
        _paste_mask(img, _text_mask("+4", number, False, False), (cx, cy), WHITE,
                    DARK, 4)
    elif value == "wild-hit-x":
        disc = Image.new("L", (big, big), 0)
        ImageDraw.Draw(disc).ellipse([0, 0, big - 1, big - 1], fill=255)
        _four_colour_in(img, disc, (cx, cy), palette)
        _paste_mask(img, _text_mask("+?", int(number * 1.2), False, False), (cx, cy),
                    WHITE, DARK, 4)
    elif value == "counter":
        _paste_mask(img, _shield_mask(big), (cx, cy), field, edge, edge_px, DARK, 6)
    elif value == "change":
        _paste_mask(img, _updown_mask(big), (cx, cy), field, edge, edge_px, DARK, 6)
    elif value == "replace":
        _paste_mask(img, _swap_mask(big), (cx, cy), field, edge, edge_px, DARK, 6)
    elif value == "gamble":
        _die(img, (cx, cy), big * 0.8)
    else:  # pragma: no cover - STAND_IN_VALUES is the list above
        raise ValueError(f"{label!r} is not a tgus-t stand-in")
    small = int(w * 0.15)
    for spot, flip in (((w * 0.2, h * 0.11), False), ((w * 0.8, h * 0.89), True)):
        _paste_mask(img, _text_mask(CORNER[value], small, False, False), spot, WHITE,
                    None, 0, DARK, 2, flip=flip)
    out = img.convert("RGBA")
    out.putalpha(alpha)
    return out
