"""Hit+?: the pending draw resolved from the cards turned from the pile.

000 §T2's table, applied to each turned card in order (T1 prints no table of
its own; the project applies T2's to both presets, see docs/rules-tgus-t.md):

=================  =====================================================
turned card        effect on the pending draw
=================  =====================================================
number 1-9         adds that many
0                  adds 10
Skip               adds 2 and passes it to the player after the target
Reverse, Counter   adds 2 and sends it back to the player before the target
                   (both turn the direction of play round, as a played Counter does)
Hit+2, Wild Hit+4  2 when nothing is pending, else doubles the total
Reverse Hit+2      as a Hit card, then sends it back
Hit+?              two more cards are turned
Gamble             the Hit+? player picks one of the rows above
other picture      adds 2 (Wild, Change, Replace)
=================  =====================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.cards import Card
from referee.text import Text, card as card_text, define

from .cards import effect as effect_text

define({
    "tgus-t.turned.gamble-as": {
        "en": "gamble as {effect}",
        "ja": "ギャンブル（{effect}として）",
    },
    "tgus-t.turned.adds": {
        "en": "{card} adds {n}",
        "ja": "{card}で{n}枚追加",
    },
    "tgus-t.turned.skips": {
        "en": "{card} adds 2 and skips on",
        "ja": "{card}で2枚追加して1人飛ばし",
    },
    "tgus-t.turned.back": {
        "en": "{card} adds 2 and sends it back",
        "ja": "{card}で2枚追加して前の人へ",
    },
    "tgus-t.turned.doubles": {
        "en": "{card} doubles it",
        "ja": "{card}で2倍",
    },
    "tgus-t.turned.doubles-back": {
        "en": "{card} doubles it and sends it back",
        "ja": "{card}で2倍にして前の人へ",
    },
    "tgus-t.turned.more": {
        "en": "{card} turns two more cards",
        "ja": "{card}でさらに2枚めくる",
    },
})

#: Effects a turned Gamble may take (one row of the table; All Hit+2 is excluded).
TURNED_GAMBLE_EFFECTS: tuple[str, ...] = (
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "skip",
    "reverse",
    "counter",
    "hit2",
    "reverse-hit2",
    "wild-hit-x",
    "wild",
)


@dataclass(frozen=True)
class Step:
    """What one turned card did: the new total, who it now points at, why."""

    card: str
    total: int
    shift: int  # 0 stays on the target, +1 passes on one, -1 sends back one
    more: int  # further cards to turn
    text: Text
    flip: bool = False  # a Reverse or Counter: the direction of play turns too


def resolve_card(card: Card, total: int, effect: str | None = None) -> Step:
    """Apply one turned card to the pending total.

    Args:
        card: the turned card.
        total: the draw pending before it (0 when the Hit+? started the chain).
        effect: for a turned Gamble, the row the Hit+? player picked.

    """
    value = card.value
    said: Text = card_text(card, deck="tgus-t")
    if value == "gamble":
        if effect not in TURNED_GAMBLE_EFFECTS:
            effect = "wild"
        value = effect
        said = Text("tgus-t.turned.gamble-as", effect=effect_text(effect))
    name = str(said)
    if value.isdigit():
        add = int(value) or 10
        text = Text("tgus-t.turned.adds", card=said, n=add)
        return Step(name, total + add, 0, 0, text)
    if value == "skip":
        return Step(name, total + 2, 1, 0, Text("tgus-t.turned.skips", card=said))
    if value in ("reverse", "counter"):
        return Step(
            name, total + 2, -1, 0, Text("tgus-t.turned.back", card=said), flip=True
        )
    if value in ("hit2", "wild-hit4", "reverse-hit2"):
        new = total * 2 if total else 2
        if value == "reverse-hit2":
            key = "tgus-t.turned.doubles-back" if total else "tgus-t.turned.back"
            return Step(name, new, -1, 0, Text(key, card=said), flip=True)
        text = (
            Text("tgus-t.turned.doubles", card=said)
            if total
            else Text("tgus-t.turned.adds", card=said, n=2)
        )
        return Step(name, new, 0, 0, text)
    if value == "wild-hit-x":
        return Step(name, total, 0, 2, Text("tgus-t.turned.more", card=said))
    return Step(name, total + 2, 0, 0, Text("tgus-t.turned.adds", card=said, n=2))


def resolve_all(
    cards: list[Card], effects: list[str], total: int, start: int = 1
) -> tuple[list[Step], int]:
    """Apply turned cards in order.

    Args:
        cards: the cards turned so far, in order.
        effects: the rows picked for turned Gambles, in the order of the Gambles.
        total: the draw pending when the Hit+? was played.
        start: cards to turn at first (one per Hit+? played together).

    Returns:
        The step of each card used, and how many more cards must still be turned
        (1 plus 2 per turned Hit+?, less those turned); extra cards are ignored.

    """
    steps: list[Step] = []
    need = start
    gambles = iter(effects)
    i = 0
    while i < len(cards) and i < need:
        card = cards[i]
        effect = next(gambles, None) if card.value == "gamble" else None
        step = resolve_card(card, total, effect)
        steps.append(step)
        total = step.total
        need += step.more
        i += 1
    return steps, max(0, need - len(steps))
