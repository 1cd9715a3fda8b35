"""Helpers shared by the play modules: deck labels, names, discarding a play."""

from __future__ import annotations


from collections.abc import Iterable, Mapping
from typing import Any

from referee.cards import COLORS, Card
from referee.log import Event
from referee.rulings import Ruling
from referee.text import Text, card, color as colour, count, define, formatter

from .cards import ALL_HIT2, deck_counts, effects, played, quote
from .context import TgusTReferee


DECK_LABELS = frozenset(deck_counts())

define({
    "tgus-t.implied": {
        "en": " (player taken from the turn)",
        "ja": "（プレイヤーは手番から判断）",
    },
    "tgus-t.play-illegal": {
        "en": "{player} played {cards} but {why}: take it back{note}.",
        "ja": "{player}は{cards}を出しましたが、{why!c}、カードを戻します{note}。",
    },
    # malformed events (said by the log.malformed ruling, game.skipped)
    "tgus-t.error.color": {
        "en": "color must be one of {colors}, got {got}",
        "ja": "色は{colors}のどれかでなければなりませんが、{got}でした",
    },
    "tgus-t.error.not-in-deck": {
        "en": "{card} is not a card of the 東幻符闘祭 deck",
        "ja": "{card}は『東幻符闘祭』のカードではありません",
    },
    "tgus-t.count-corrected": {
        "en": "{player} played {n} but the referee counted {counted}; "
              "the count is corrected.",
        "ja": ("{player}は{n}出しましたが、審判は{counted}枚と数えており、"
               "枚数を直します。"),
    },
})


def names(cards: list[Card]) -> Text:
    """The played cards for a ruling's text: "red-7 + blue-7", "赤の7と青の7"."""
    return played(cards)


def answers(game: TgusTReferee, rank: int) -> Text:
    """The cards that may answer a pending draw of ``rank``, for a ruling's text."""
    return effects(
        [e for e, r in game.opts.precedence if r >= rank and e != ALL_HIT2]
    )


def bad_color(got: Any) -> Text:
    """Why a ``color`` field that names no colour cannot be read."""
    colors = seq([colour(c) for c in COLORS], ", ", "、")
    return Text("tgus-t.error.color", colors=colors, got=quote(got))


def not_in_deck(label: str) -> Text:
    """Why a card of another deck cannot be read where a deck card must be."""
    return Text("tgus-t.error.not-in-deck", card=card(label, deck="tgus-t"))


def implied(notes: list[str]) -> Text | str:
    """The note that ends a ruling whose player was taken from the turn."""
    return Text("tgus-t.implied") if notes else ""


def illegal_play(player: str, cards: list[Card], why: Any, note: Any) -> Text:
    """"A played X but why: take it back." (every refused play)."""
    return Text("tgus-t.play-illegal", player=player, cards=names(cards), why=why,
                note=note)


# -- formatters of the tgus-t rulings -------------------------------------------------
@formatter("tgus-t-seq")
def _seq(args: Mapping[str, Any], lang: str) -> str:
    parts = [p.render(lang) if isinstance(p, Text) else str(p) for p in args["parts"]]
    return str(args.get("ja" if lang == "ja" else "en", ", ")).join(parts)


def seq(parts: Iterable[Any], en: str = ", ", ja: str = "、") -> Text:
    """Parts listed with ``en`` between them in English, ``ja`` in Japanese."""
    return Text("@tgus-t-seq", parts=list(parts), en=en, ja=ja)


@formatter("tgus-t-preset")
def _preset(args: Mapping[str, Any], lang: str) -> str:
    prefix = str(args["prefix"])
    if lang == "ja" and prefix.startswith("tgus-t"):
        return "T" + prefix[len("tgus-t"):]  # 000 calls them T1 and T2
    return prefix


def preset(prefix: str) -> Text:
    """The preset's name: "tgus-t1"; in Japanese 000's "T1"."""
    return Text("@tgus-t-preset", prefix=str(prefix))


@formatter("tgus-t-discards")
def _discards(args: Mapping[str, Any], lang: str) -> str:
    n = int(args["n"])
    if lang == "ja":
        return f"{n}枚"
    return f"{n} discard{'s' * (n != 1)}"


def discards(n: int) -> Text:
    """"1 discard", "93 discards"; "93枚"."""
    return Text("@tgus-t-discards", n=int(n))


@formatter("tgus-t-ranking")
def _ranking(args: Mapping[str, Any], lang: str) -> str:
    players = [str(p) for p in args["players"]]
    if lang == "ja":
        return "、".join(f"{i}位 {p}" for i, p in enumerate(players, 1))
    return ", ".join(f"{i}. {p}" for i, p in enumerate(players, 1))


def ranking(players: Iterable[str]) -> Text:
    """The finishing order: "1. A, 2. B"; "1位 A、2位 B"."""
    return Text("@tgus-t-ranking", players=[str(p) for p in players])


def discard(
    game: TgusTReferee,
    player: str,
    cards: list[Card],
    eff: str,
    color: str | None,
    out: list[Ruling],
    ev: Event,
) -> None:
    """Move played cards from the hand to the discard pile and set top and colour."""
    t = game.t
    missing = len(cards) - t.hands[player]
    if missing > 0:  # the referee's count was off: the cards came from somewhere
        out.append(
            game.ruling(
                ev.index,
                "info",
                "count",
                Text("tgus-t.count-corrected", player=player,
                     n=count(len(cards), "card"), counted=t.hands[player]),
            )
        )
        t.hands[player] += missing
        t.pile = max(0, t.pile - missing)
    t.hands[player] -= len(cards)
    t.discards += len(cards)
    t.top, t.top_effect = cards[-1], eff
    if cards[-1].color is not None:
        t.color = cards[-1].color
    elif eff not in ("counter", "change"):
        t.color = color
        t.awaiting_color = None if color else player
    # a Counter or a Change gives its player no colour of its own: a colour on
    # the play is ruled after the play, as a colour event (turned.name_colour)
    t.drew = False
    if eff != "counter":  # the table has moved on: All Hit+2 counters are over
        t.all_hit_open.clear()
        t.countered.clear()
    if t.exposed is not None and t.exposed != player:
        t.exposed = None
