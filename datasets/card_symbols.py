"""Symbol drawing for the card renderer: glyphs, skip, reverse, draw cards, wild.

Each ``_*_mask`` returns an ``L`` image (white shape on black) that
:func:`_paste_mask` lays on a card in a colour with an outline and a shadow.
Imports :mod:`datasets.card_style`; :mod:`datasets.card_faces` uses it.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw, ImageFilter

from datasets.card_style import RGB, WILD_ORDER, _font
from referee.cards import Card


def _text_mask(
    text: str, size: int, oblique: bool, underline: bool, heavy: bool = False
) -> Image.Image:
    """White glyphs on black, tightly cropped, optional underline (6 and 9).

    ``heavy`` prints another type: strokes about a tenth thicker (narrower
    counters: a 3 nearer an 8), the glyphs 12 % wider, and a 1 with no foot (a
    flag and a stem, as both printed decks have it).
    """
    if heavy and text == "1":
        return _footless_one(size, oblique)
    font = _font(size, oblique)
    left, top, right, bottom = font.getbbox(text)
    w, h = right - left, bottom - top
    pad = size // 6
    extra = size // 4 if underline else 0
    mask = Image.new("L", (w + 2 * pad, h + 2 * pad + extra), 0)
    draw = ImageDraw.Draw(mask)
    draw.text((pad - left, pad - top), text, fill=255, font=font)
    if underline:
        y = pad + h + extra // 3
        draw.rectangle(
            [pad + w * 0.08, y, pad + w * 0.92, y + max(2, size // 11)], fill=255
        )
    if heavy:
        mask = mask.filter(ImageFilter.MaxFilter(2 * max(1, size // 30) + 1))
        mask = mask.resize((round(mask.width * 1.12), mask.height), Image.BICUBIC)
    return mask.crop(mask.getbbox())


def _footless_one(size: int, oblique: bool) -> Image.Image:
    """A heavy 1 without the foot serif: a stem and a flag, slanted if asked."""
    stem, height = size * 0.24, size * 0.74
    pad = size // 6
    w = round(stem + size * 0.26 + 2 * pad + (height * 0.21 if oblique else 0))
    mask = Image.new("L", (w, round(height + 2 * pad)), 0)
    draw = ImageDraw.Draw(mask)
    left = pad + size * 0.26
    draw.rectangle([left, pad, left + stem, pad + height], fill=255)
    draw.polygon(
        [
            (left + stem * 0.5, pad),
            (left - size * 0.24, pad + size * 0.16),
            (left - size * 0.24, pad + size * 0.32),
            (left, pad + size * 0.2),
        ],
        fill=255,
    )
    if oblique:  # lean the top right, as the slanted type does
        shear = 0.21
        mask = mask.transform(
            mask.size,
            Image.AFFINE,
            (1, shear, -shear * mask.height, 0, 1, 0),
            resample=Image.BICUBIC,
        )
    return mask.crop(mask.getbbox())


def _skip_mask(size: int) -> Image.Image:
    mask = Image.new("L", (size, size), 0)
    draw = ImageDraw.Draw(mask)
    width = max(2, size // 7)
    draw.ellipse(
        [width // 2, width // 2, size - width // 2, size - width // 2],
        outline=255,
        width=width,
    )
    c, r = size / 2, size / 2 - width
    ang = math.radians(45)
    p1 = (c - r * math.cos(ang), c + r * math.sin(ang))
    p2 = (c + r * math.cos(ang), c - r * math.sin(ang))
    draw.line([p1, p2], fill=255, width=width)
    return mask


def _arrow(
    draw: ImageDraw.ImageDraw,
    x0: float,
    y0: float,
    length: float,
    thick: float,
    direction: int,
) -> None:
    """A vertical arrow with its tail at (x0, y0), pointing up (-1) or down (+1)."""
    head = thick * 2.2
    tip = y0 + direction * length
    neck = tip - direction * head
    draw.rectangle(
        [x0 - thick / 2, min(y0, neck), x0 + thick / 2, max(y0, neck)], fill=255
    )
    draw.polygon(
        [(x0 - head * 0.9, neck), (x0 + head * 0.9, neck), (x0, tip)], fill=255
    )


def _hooked_reverse_mask(size: int, heavy: bool = False) -> Image.Image:
    """The current design's reverse: two arrows along the diagonal (up-right and
    down-left) whose shafts lie side by side across it, each shaft's outer edge
    hooking in to a point at its tail, so that the pair reads as one fat S cut
    along the diagonal. ``heavy``: wider shafts and heads (another print)."""
    scale = 4  # drawn large, then reduced, for smooth curves
    big = size * scale
    shaft, head = (0.19, 0.21) if heavy else (0.16, 0.19)
    tip, base, bend, tail, gap = 0.45, 0.24, 0.02, -0.13, 0.02
    ang = math.radians(45)
    du, dv = (math.cos(ang), -math.sin(ang)), (-math.sin(ang), -math.cos(ang))
    mask = Image.new("L", (big, big), 0)
    draw = ImageDraw.Draw(mask)
    mid = shaft / 2
    for sign in (1, -1):  # the second arrow is the first turned half a turn
        outline = [(tip, mid), (base, mid + head), (base, shaft), (bend, shaft)]
        for i in range(1, 13):  # the outer edge hooks in to the tail's point
            t = math.pi / 2 * i / 12
            outline.append((bend - (bend - tail) * math.sin(t), shaft * math.cos(t)))
        outline += [(base, 0.0), (base, mid - head)]
        draw.polygon(
            [
                (
                    big / 2 + sign * big * (u * du[0] + (v + gap / 2) * dv[0]),
                    big / 2 + sign * big * (u * du[1] + (v + gap / 2) * dv[1]),
                )
                for u, v in outline
            ],
            fill=255,
        )
    return mask.resize((size, size), Image.LANCZOS)


def _reverse_mask(size: int, alt: bool = False, s_form: bool = False) -> Image.Image:
    """Two arrows pointing opposite ways along the diagonal.

    ``alt`` draws them as most printed decks do: nearly in line, tails overlapping
    in the middle (a long "S" along the diagonal); otherwise side by side.
    ``s_form`` draws the current deck's print: the two staggered, shafts side
    by side, an S along the diagonal.
    """
    mask = Image.new("L", (size, size), 0)
    draw = ImageDraw.Draw(mask)
    if s_form:
        thick = size * 0.14
        _arrow(draw, size * 0.42, size * 0.62, size * 0.56, thick, -1)
        _arrow(draw, size * 0.58, size * 0.38, size * 0.56, thick, +1)
    elif alt:
        thick = size * 0.12
        _arrow(draw, size * 0.33, size * 0.67, size * 0.64, thick, -1)
        _arrow(draw, size * 0.67, size * 0.33, size * 0.64, thick, +1)
    else:
        thick = size * 0.13
        _arrow(draw, size * 0.3, size * 0.88, size * 0.72, thick, -1)
        _arrow(draw, size * 0.7, size * 0.12, size * 0.72, thick, +1)
    return mask.rotate(-45, resample=Image.BICUBIC)


def _cards_mask(size: int, count: int) -> Image.Image:
    """Small overlapping cards (draw two's centre): fills with a gap between them."""
    mask = Image.new("L", (size, size), 0)
    draw = ImageDraw.Draw(mask)
    cw, ch = size * 0.42, size * 0.62
    gap = max(2, size // 28)
    for i in range(count):
        x = size * 0.12 + i * size * 0.3
        y = size * 0.08 + (count - 1 - i) * size * 0.22
        box = [x, y, x + cw, y + ch]
        draw.rounded_rectangle(
            [box[0] - gap, box[1] - gap, box[2] + gap, box[3] + gap],
            radius=size * 0.06,
            fill=0,
        )
        draw.rounded_rectangle(box, radius=size * 0.05, fill=255)
    return mask


def _shuffle_mask(size: int) -> Image.Image:
    """Two arrows chasing each other round a circle (shuffle hands)."""
    mask = Image.new("L", (size, size), 0)
    draw = ImageDraw.Draw(mask)
    width = max(2, size // 8)
    m = width
    for start in (20, 200):
        draw.arc([m, m, size - m, size - m], start, start + 130, fill=255, width=width)
        ang = math.radians(start + 130)
        c, r = size / 2, size / 2 - m - width / 2
        tip = (c + r * math.cos(ang + 0.45), c + r * math.sin(ang + 0.45))
        base = (c + r * math.cos(ang), c + r * math.sin(ang))
        nx, ny = math.cos(ang), math.sin(ang)
        draw.polygon(
            [
                (base[0] + nx * width * 1.3, base[1] + ny * width * 1.3),
                (base[0] - nx * width * 1.3, base[1] - ny * width * 1.3),
                tip,
            ],
            fill=255,
        )
    return mask


# Glyphs some printed decks use instead of the font's digit: a flat-topped 3
# (drawn with the Latin letter ezh, which has exactly that shape).
_ALT_GLYPHS = {"3": "\u01b7"}


def _symbol_mask(
    card: Card,
    size: int,
    corner: bool,
    alt: bool = False,
    heavy: bool = False,
    oblique: bool | None = None,
    hooked: bool = False,
    flat: bool = False,
) -> Image.Image | None:
    """The symbol of a coloured card (or a wild's corner text) as a mask.

    ``alt`` picks the other common print of a symbol (flat-topped 3, in-line
    reverse arrows); ``heavy`` another type (thicker, wider digits; staggered
    reverse arrows); ``oblique`` slants the digits (default: the centre only);
    ``hooked`` draws the reverse as the current design's hooked S; ``flat``
    the flat-topped 3 as ``alt`` does.
    """
    value = card.value
    if value.isdigit():
        text = _ALT_GLYPHS.get(value, value) if alt or flat else value
        slant = (not corner) if oblique is None else oblique
        return _text_mask(text, size, slant, value in "69", heavy)
    if value == "skip":
        return _skip_mask(int(size * (0.75 if corner else 0.95)))
    if value == "reverse" and hooked:
        return _hooked_reverse_mask(int(size * 1.3), heavy)
    if value == "reverse":
        return _reverse_mask(
            int(size * (0.85 if corner else 1.05)), alt, heavy and not alt
        )
    if value == "draw2":
        return (
            _text_mask("+2", int(size * 0.7), False, False)
            if corner
            else _cards_mask(int(size * 1.0), 2)
        )
    if value == "wild-draw4" and corner:
        return _text_mask("+4", int(size * 0.7), False, False)
    if value == "wild-shuffle" and corner:
        return _shuffle_mask(int(size * 0.75))
    return None


def _paste_mask(
    img: Image.Image,
    mask: Image.Image,
    center: tuple[float, float],
    fill: RGB,
    outline: RGB | None = None,
    outline_px: int = 0,
    shadow: RGB | None = None,
    shadow_px: int = 0,
    angle: float = 0.0,
    flip: bool = False,
    shadow_left: bool = False,
    shadow_up: bool = False,
) -> None:
    """Paint ``fill`` through ``mask`` centred at ``center`` with outline/shadow
    (the shadow falls down-right, or down-left with ``shadow_left``; up instead
    of down with ``shadow_up``)."""
    pad = outline_px + shadow_px + 2
    m = Image.new("L", (mask.width + 2 * pad, mask.height + 2 * pad), 0)
    m.paste(mask, (pad, pad))
    if angle:
        m = m.rotate(angle, resample=Image.BICUBIC, expand=True)
    if flip:
        m = m.rotate(180)
    x = round(center[0] - m.width / 2)
    y = round(center[1] - m.height / 2)
    layers: list[tuple[Image.Image, RGB, tuple[int, int]]] = []
    if shadow is not None and shadow_px:
        d = -shadow_px if flip else shadow_px
        grown = m.filter(ImageFilter.MaxFilter(3)) if outline_px else m
        at = (x - d if shadow_left else x + d, y - d if shadow_up else y + d)
        layers.append((grown, shadow, at))
    if outline is not None and outline_px:
        layers.append(
            (m.filter(ImageFilter.MaxFilter(2 * outline_px + 1)), outline, (x, y))
        )
    layers.append((m, fill, (x, y)))
    for layer, color, pos in layers:
        img.paste(Image.new("RGB", layer.size, color), pos, layer)


def _four_colour_oval(
    img: Image.Image,
    box: tuple[float, float, float, float],
    palette: dict[str, RGB],
    angle: float,
) -> None:
    """A four-colour quadrant oval (wild), optionally tilted."""
    x0, y0, x1, y1 = box
    w, h = int(x1 - x0), int(y1 - y0)
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    for i, color in enumerate(WILD_ORDER):
        start = (180, 270, 90, 0)[i]
        draw.pieslice(
            [0, 0, w - 1, h - 1], start, start + 90, fill=palette[color] + (255,)
        )
    if angle:
        layer = layer.rotate(angle, resample=Image.BICUBIC, expand=True)
    img.paste(
        layer,
        (round((x0 + x1 - layer.width) / 2), round((y0 + y1 - layer.height) / 2)),
        layer,
    )


def _four_cards(
    img: Image.Image, center: tuple[float, float], size: float, palette: dict[str, RGB]
) -> None:
    """Four small cards in the four colours (wild draw four's centre)."""
    draw = ImageDraw.Draw(img)
    cw, ch = size * 0.36, size * 0.55
    spots = [(-0.42, -0.05), (-0.14, -0.32), (0.06, 0.18), (0.3, -0.1)]
    for (dx, dy), color in zip(spots, ("blue", "green", "red", "yellow")):
        x = center[0] + dx * size - cw / 2
        y = center[1] + dy * size - ch / 2 + size * 0.05
        draw.rounded_rectangle(
            [x - 4, y - 4, x + cw + 4, y + ch + 4], radius=10, fill=(255, 255, 255)
        )
        draw.rounded_rectangle([x, y, x + cw, y + ch], radius=8, fill=palette[color])


def _wild_word(
    img: Image.Image,
    center: tuple[float, float],
    width: float,
    palette: dict[str, RGB],
    angle: float,
) -> None:
    """The word WILD across the centre, one colour per letter, outlined in black
    (the older decks' wild)."""
    size = int(width / 2.6)
    font = _font(size, True)
    letters = "WILD"
    spans = [font.getlength(ch) for ch in letters]
    pad = size // 3
    layer = Image.new("RGBA", (int(sum(spans)) + 2 * pad, size * 2), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    x = pad
    for ch, span, colour in zip(letters, spans, ("red", "yellow", "green", "blue")):
        draw.text(
            (x, pad // 2),
            ch,
            font=font,
            fill=palette[colour] + (255,),
            stroke_width=max(2, size // 12),
            stroke_fill=(16, 16, 16, 255),
        )
        x += span
    layer = layer.crop(layer.getbbox())
    if angle:
        layer = layer.rotate(angle, resample=Image.BICUBIC, expand=True)
    img.paste(
        layer,
        (round(center[0] - layer.width / 2), round(center[1] - layer.height / 2)),
        layer,
    )

