"""Card faces and the card back, composed from the palette and the symbols.

:func:`render_card` and :func:`card_back` (re-exported by :mod:`datasets.cards`)
are cached; treat returned images as read-only.
"""

from __future__ import annotations

import functools
import math

from PIL import Image, ImageDraw

from datasets.card_style import (
    _BASE_H,
    _BASE_W,
    CARD_ASPECT,
    DESIGNS,
    PALETTES,
    RGB,
)
from datasets.card_symbols import (
    _four_cards,
    _four_colour_oval,
    _paste_mask,
    _shuffle_mask,
    _symbol_mask,
    _text_mask,
    _wild_word,
)
from referee.cards import CLASSES, Card


def _base(fill: RGB) -> tuple[Image.Image, Image.Image]:
    """A white-bordered card with ``fill`` inside, and its rounded-corner alpha."""
    w, h = _BASE_W, _BASE_H
    alpha = Image.new("L", (w, h), 0)
    ImageDraw.Draw(alpha).rounded_rectangle(
        [0, 0, w - 1, h - 1], radius=w * 0.09, fill=255
    )
    img = Image.new("RGB", (w, h), (250, 250, 248))
    border = w * 0.07
    ImageDraw.Draw(img).rounded_rectangle(
        [border, border, w - 1 - border, h - 1 - border], radius=w * 0.05, fill=fill
    )
    return img, alpha


@functools.lru_cache(maxsize=512)
def _render_base(label: str, design: str, variant: int) -> Image.Image:
    card = Card.from_label(label)
    palette = PALETTES[design]
    wild = card.color is None
    color = palette["black" if wild else card.color]
    img, alpha = _base(color)
    w, h = img.size
    cx, cy = w / 2, h / 2
    white, dark = (255, 255, 255), (20, 20, 20)
    shade = tuple(int(c * 0.45) for c in color)
    draw = ImageDraw.Draw(img)
    classic = design == "classic"
    tilt = 35.0  # classic oval tilt, degrees counter-clockwise
    heavy = variant >= 4  # another type and print (see render_card)
    # The other print of the wild draw four: its cards on the plain white field.
    four_colour = wild and not (heavy and card.value == "wild-draw4")

    # Centre field.
    if card.value == "wild-custom":
        draw.rounded_rectangle(
            [w * 0.2, h * 0.24, w * 0.8, h * 0.76],
            radius=w * 0.05,
            fill=(246, 246, 240),
        )
    elif classic:
        layer = Image.new("L", (int(w * 0.74), int(h * 0.98)), 0)
        ImageDraw.Draw(layer).ellipse(
            [0, 0, layer.width - 1, layer.height - 1], fill=255
        )
        if variant % 2 == 0 and not wild:
            ring = max(6, w // 45)
            ImageDraw.Draw(layer).ellipse(
                [ring, ring, layer.width - 1 - ring, layer.height - 1 - ring], fill=0
            )
        layer = layer.rotate(-tilt * 0.75, resample=Image.BICUBIC, expand=True)
        img.paste(
            Image.new("RGB", layer.size, white),
            (round(cx - layer.width / 2), round(cy - layer.height / 2)),
            layer,
        )
        if four_colour:
            _four_colour_oval(
                img, (w * 0.22, h * 0.16, w * 0.78, h * 0.84), palette, -tilt * 0.75
            )
    else:
        r = w * 0.4
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(244, 244, 242))
        for k in range(48):
            a = 2 * math.pi * k / 48
            draw.line(
                [
                    (cx + r * 0.55 * math.cos(a), cy + r * 0.55 * math.sin(a)),
                    (cx + r * 0.95 * math.cos(a), cy + r * 0.95 * math.sin(a)),
                ],
                fill=(222, 222, 222),
                width=2,
            )
        if four_colour:
            _four_colour_oval(
                img,
                (cx - r * 0.8, cy - r * 0.8, cx + r * 0.8, cy + r * 0.8),
                palette,
                0,
            )

    # Centre symbol (variants 2 and 3: the other common print of some symbols;
    # 4-7: the same four in another type).
    alt = variant % 4 >= 2
    slant = (not classic) if heavy else None  # classic type upright, modern slanted
    ring_only = classic and variant % 2 == 0
    if classic and not ring_only:
        sym_fill, sym_outline, sym_shadow = color, white, dark
    elif classic:
        sym_fill, sym_outline, sym_shadow = white, dark, dark
    elif alt:  # printed with a thick black edge and drop shadow
        sym_fill, sym_outline, sym_shadow = color, dark, dark
    else:
        sym_fill, sym_outline, sym_shadow = color, None, shade
    if wild:
        sym_fill, sym_outline, sym_shadow = white, dark, dark
    big = int(w * 0.62)
    # The current design prints its reverse as a hooked S (the other print keeps
    # the arrows in line); the other type's S casts a black shadow up-left.
    # Its type (4, 5) has the flat-topped 3.
    hooked = card.value == "reverse" and not classic and not alt
    flat = not classic and heavy and not alt
    if hooked and heavy:
        sym_shadow = dark
    mask = _symbol_mask(
        card,
        big,
        corner=False,
        alt=alt,
        heavy=heavy,
        oblique=slant,
        hooked=hooked,
        flat=flat,
    )
    angle = (
        0.0
        if card.value.isdigit()
        else (tilt if card.value == "reverse" and classic and variant < 2 else 0)
    )
    if card.value == "reverse" and classic and heavy and not alt:
        angle = -20.0  # the S lies flatter, across the oval
    if card.value == "wild" and classic and alt:
        _wild_word(img, (cx, cy), w * 0.8, palette, tilt * 0.45)
    elif card.value == "wild-draw4":
        _four_cards(img, (cx, cy), w * 0.55, palette)
    elif card.value == "wild-shuffle":
        _paste_mask(img, _shuffle_mask(int(w * 0.5)), (cx, cy), white, dark, 4, dark, 5)
    elif mask is not None:
        _paste_mask(
            img,
            mask,
            (cx, cy),
            sym_fill,
            sym_outline,
            5 if sym_outline else 0,
            sym_shadow,
            12 if (alt and not classic) else 7,
            angle,
            shadow_left=heavy and not classic,  # as the current deck prints it
            shadow_up=hooked and heavy,
        )

    # Corner indices, top-left and bottom-right turned over.
    small = int(w * 0.2)
    spots = [((w * 0.2, h * 0.13), False), ((w * 0.8, h * 0.87), True)]
    for spot, flip in spots:
        cmask = _symbol_mask(
            card, small, corner=True, alt=alt, heavy=heavy, oblique=slant, flat=flat
        )
        if cmask is not None:
            outline = dark if classic else None
            _paste_mask(
                img,
                cmask,
                spot,
                white,
                outline,
                2 if outline else 0,
                dark,
                2,
                flip=flip,
            )
        else:  # wild, wild-custom: a small four-colour oval
            x, y = spot
            _four_colour_oval(
                img,
                (x - w * 0.09, y - h * 0.06, x + w * 0.09, y + h * 0.06),
                palette,
                -tilt if classic else 0,
            )
    out = img.convert("RGBA")
    out.putalpha(alpha)
    return out


def _resize(img: Image.Image, height: int) -> Image.Image:
    if height == img.height:
        return img.copy()
    width = max(1, round(height * CARD_ASPECT))
    return img.resize((width, height), Image.LANCZOS)


@functools.lru_cache(maxsize=2048)
def render_card(
    label: str, design: str = "modern", height: int = 300, variant: int = 0
) -> Image.Image:
    """Draw one card face.

    Args:
        label: a card label of :data:`referee.cards.CLASSES` or a short form (``R7``),
            or one of the tgus-t deck's own cards (``red-hit2``, ``counter``:
            their stand-in faces, :mod:`datasets.card_tgus_t`).
        design: ``"modern"`` or ``"classic"``.
        height: height in pixels (width is ``round(height * CARD_ASPECT)``).
        variant: small style changes within a design, 0-7 (classic: even ring
            oval with white symbol, odd filled white oval with coloured symbol;
            2 and 3 draw the other common print of some symbols: a flat-topped 3,
            reverse arrows in line, the word WILD on a classic wild, and in the
            modern design the centre symbol edged in black with a deep shadow);
            4-7 are 0-3 printed in another type: thicker, 12 % wider digits
            (upright in the classic design, slanted corners in the modern one),
            the reverse arrows staggered in an S, the wild draw four's cards
            on the plain white field, and (modern) the centre symbol's shadow
            falling down-left. The modern design's own print (0, 1, 4, 5) draws
            the reverse as the current deck does: two arrows whose shafts hook
            into one S cut along the diagonal (4, 5: heavier, black shadow
            up-left), and its type (4, 5) has the flat-topped 3.

    Returns:
        An RGBA image with transparent rounded corners (cached: do not modify it).

    Raises:
        ValueError: an unknown label or design, or a height under 8 pixels.
    """
    if design not in DESIGNS:
        raise ValueError(f"unknown design {design!r}; expected one of {DESIGNS}")
    if height < 8:
        raise ValueError(f"height must be at least 8 pixels, got {height}")
    try:
        canonical = Card.from_label(label).label
    except ValueError:  # perhaps a label of the tgus-t deck, not registered yet
        canonical = None
    if canonical not in CLASSES:
        from datasets.card_tgus_t import is_stand_in, render_stand_in

        if is_stand_in(label):
            canonical = Card.from_label(label).label
            return _resize(render_stand_in(canonical, design, int(variant) % 8),
                           int(height))
        raise ValueError(f"{label!r} is not a card of the standard or the tgus-t deck")
    return _resize(_render_base(canonical, design, int(variant) % 8), int(height))


@functools.lru_cache(maxsize=64)
def card_back(height: int = 300) -> Image.Image:
    """The back of a card: black with a tilted red oval and the yellow word UNO."""
    img, alpha = _base(PALETTES["classic"]["black"])
    w, h = img.size
    layer = Image.new("L", (int(w * 0.8), int(h * 0.55)), 0)
    ImageDraw.Draw(layer).ellipse([0, 0, layer.width - 1, layer.height - 1], fill=255)
    layer = layer.rotate(-35, resample=Image.BICUBIC, expand=True)
    img.paste(
        Image.new("RGB", layer.size, (215, 30, 30)),
        (round(w / 2 - layer.width / 2), round(h / 2 - layer.height / 2)),
        layer,
    )
    _paste_mask(
        img,
        _text_mask("UNO", int(w * 0.3), True, False),
        (w / 2, h / 2),
        (250, 210, 0),
        (20, 20, 20),
        4,
        (20, 20, 20),
        6,
        angle=20,
    )
    out = img.convert("RGBA")
    out.putalpha(alpha)
    return _resize(out, int(height))

