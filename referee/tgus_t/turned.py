"""Hit+? turned cards, colours named after a play, and what the referee waits for.

Functions take the game (:class:`referee.tgus_t.game.TgusTReferee`) as first
argument; the game binds them as methods.
"""

from __future__ import annotations


from referee.cards import COLORS, parse_cards
from referee.game import GameError
from referee.log import Event
from referee.rulings import Ruling
from referee.text import Text, color as colour, define

from .cards import quote
from .common import DECK_LABELS, answers, bad_color, not_in_deck, seq
from .context import TgusTReferee
from .hitx import resolve_all
from .table import Chain

define({
    "tgus-t.error.turned-no-cards": {
        "en": "a turned event needs at least one card",
        "ja": "めくったカードが1枚もありません",
    },
    "tgus-t.error.effects": {
        "en": "effects must be a list, got {got}",
        "ja": "ギャンブルの効果の指定はリストでなければなりませんが、{got}でした",
    },
    "tgus-t.error.color-player": {
        "en": "a colour event needs a player, got {got}",
        "ja": "色の指定にはプレイヤーが必要ですが、{got}でした",
    },
    "tgus-t.hit-x.nothing": {
        "en": "No Hit+? is waiting for turned cards; this was ignored.",
        "ja": "めくったカードを待っているヒット?はないため、無視しました。",
    },
    "tgus-t.hit-x.more-one": {
        "en": "Turn {n} more card for the Hit+?.",
        "ja": "ヒット?のためにあと{n}枚めくってください。",
    },
    "tgus-t.hit-x.more-many": {
        "en": "Turn {n} more cards for the Hit+?.",
        "ja": "ヒット?のためにあと{n}枚めくってください。",
    },
    "tgus-t.hit-x.turned": {
        "en": "Hit+? turned {steps}{table}: {target} must draw {total} or answer "
              "with {answers}.",
        "ja": ("ヒット?でめくったカード: {steps}{table!l}、"
               "{target}は{total}枚引くか、{answers}で返します。"),
    },
    "tgus-t.hit-x.t2-table": {
        "en": " (by T2's table, which the project applies to T1 as T1 prints none)",
        "ja": "（T1には表がないため、本プロジェクトはT2の表をT1にも使います）",
    },
    "tgus-t.color.change": {
        "en": "{victim}'s hand is changed (put under the pile and as many cards "
              "drawn anew, the project's reading of 000) and {player} names "
              "{color}.",
        "ja": ("{victim}の手札はチェンジされ（山札の下に入れて同じ枚数を引き直し、"
               "000の本プロジェクトでの解釈）、{player}は{color}を指定します。"),
    },
    "tgus-t.color.names": {
        "en": "{player} names {color}.",
        "ja": "{player}は{color}を指定します。",
    },
    "tgus-t.color.none": {
        "en": "{player} has no colour to name now, so {color} does not count.",
        "ja": "{player}は今は色を指定できないので、{color}は無効です。",
    },
    "tgus-t.color.none-change": {
        "en": "{player} has no colour to name: the Change's colour is {chooser}'s "
              "(000: the player it hits names it, or whoever bounced it with a "
              "Counter), so {color} does not count.",
        "ja": ("{player}は色を指定できず、チェンジの色を指定するのは{chooser}で（000:"
               " 食らったプレイヤー、またはカウンターで返したプレイヤー）、"
               "{color}は無効です。"),
    },
    "tgus-t.color.none-counter-hit": {
        "en": "{player}'s Counter answers a Hit and names no colour (000 gives the "
              "colour to Wilds, Replace, Gamble and Change only), so {color} does "
              "not count and the colour stays as it was.",
        "ja": ("{player}のカウンターはヒットを返すだけで、"
               "色は指定できず（000で色を決めるのはワイルド系、リプレイス、"
               "ギャンブル、チェンジだけです）、{color}は無効で、色はそのままです。"),
    },
    "tgus-t.color.none-counter-all-hit2": {
        "en": "{player}'s Counter sends the All Hit+2 share back, but the colour "
              "stays with {source}, who played the Gamble (000 T2), so {color} "
              "does not count.",
        "ja": ("{player}のカウンターでオールヒット2の2枚は返りますが、"
               "色の指定はギャンブルを出した{source}のままで（000 T2）、"
               "{color}は無効です。"),
    },
    # what the referee waits for (the state's "awaiting", for the page)
    "tgus-t.awaiting.hit-x": {
        "en": "cards turned for {player}'s Hit+?",
        "ja": "{player}のヒット?のためにめくるカード",
    },
    "tgus-t.awaiting.change": {
        "en": "{player} to name the colour for the Change",
        "ja": "{player}によるチェンジの色の指定",
    },
    "tgus-t.awaiting.color": {
        "en": "{player} to name a colour",
        "ja": "{player}による色の指定",
    },
    "tgus-t.awaiting.draw": {
        "en": "{player} to draw {amount} or answer",
        "ja": "{player}が{amount}枚引くか返すこと",
    },
})



def on_turned(game: TgusTReferee, ev: Event) -> list[Ruling]:
    """Cards turned from the pile for a Hit+? (000 §T2's table)."""
    t = game.t
    hx = t.hitx
    if hx is None:
        return [
            game.ruling(
                ev.index,
                "info",
                "hit-x",
                Text("tgus-t.hit-x.nothing"),
            )
        ]
    cards = parse_cards(ev.get("cards"))
    if not cards:
        raise GameError(Text("tgus-t.error.turned-no-cards"))
    for card in cards:
        if card.label not in DECK_LABELS:
            raise GameError(not_in_deck(card.label))
    effects = ev.get("effects")
    if effects is None:
        effects = [ev.get("effect")] * sum(c.value == "gamble" for c in cards)
    if not isinstance(effects, list):
        raise GameError(Text("tgus-t.error.effects", got=quote(effects)))
    color = ev.get("color")
    if color is not None and color not in COLORS:
        raise GameError(bad_color(color))
    out: list[Ruling] = []
    game.take_from_pile(ev, len(cards), out)
    t.discards += len(cards)
    hx.cards += cards
    hx.effects += [e for e in effects if isinstance(e, str)]
    steps, more = resolve_all(hx.cards, hx.effects, hx.base, hx.count)
    if more:
        out.insert(
            0,
            game.ruling(
                ev.index,
                "pending",
                "hit-x",
                Text(
                    "tgus-t.hit-x.more-many" if more > 1 else "tgus-t.hit-x.more-one",
                    n=more,
                ),
            ),
        )
        return out
    target = hx.target
    for step in steps:
        if step.flip:
            t.direction = -t.direction
            target = t.next(target)
        elif step.shift > 0:
            target = t.next(target)
    total = steps[-1].total
    last = hx.cards[len(steps) - 1]
    t.top = last
    t.top_effect = (
        last.value if last.value != "gamble" else (hx.effects or ["wild"])[-1]
    )
    t.color = last.color or color or t.color
    t.awaiting_color = hx.player if last.color is None and color is None else None
    t.hitx = None
    t.countered.clear()
    t.chain = Chain(total, target, game.opts.rank("wild-hit-x"), hx.player)
    t.turn = target
    said = seq([s.text for s in steps], "; ", "、")
    table = Text("tgus-t.hit-x.t2-table") if game.prefix == "tgus-t1" else ""
    out.insert(
        0,
        game.ruling(
            ev.index,
            "pending",
            "hit-x",
            Text(
                "tgus-t.hit-x.turned",
                steps=said,
                table=table,
                target=target,
                total=total,
                answers=answers(game, t.chain.rank),
            ),
            player=target,
            draw=total,
            **{"turned": [c.label for c in hx.cards[: len(steps)]]},
        ),
    )
    return out


def on_color(game: TgusTReferee, ev: Event) -> list[Ruling]:
    """A colour named after the play: Change (its chooser), or a late wild colour."""
    player, color = ev.get("player"), ev.get("color")
    if player not in game.players:
        raise GameError(Text("tgus-t.error.color-player", got=quote(player)))
    if color not in COLORS:
        raise GameError(bad_color(color))
    return [name_colour(game, ev.index, player, color)]


def name_colour(game: TgusTReferee, index: int, player: str, color: str) -> Ruling:
    """The ruling on ``player`` naming ``color`` now, after the last play.

    One ruling whichever way the colour comes: as a ``color`` event, or as the
    ``color`` of a Counter or Change play (ruled right after that play). The
    chooser of a pending Change settles it (000 T1: the player it hits, or the
    last who bounced it with a Counter); the player owed a colour (a Wild,
    Replace, Gamble, also a Gamble played as a Counter against a Hit) names it;
    anyone else is refused, with the reason: a Counter answering a Hit names no
    colour, nor one answering All Hit+2 (T2: the Gamble's player keeps it).
    """
    t = game.t
    if t.change is not None and player == t.change.chooser:
        victim = t.change.target
        t.change = None
        t.color = color
        return game.ruling(
            index,
            "ok",
            "change",
            Text(
                "tgus-t.color.change",
                victim=victim,
                player=player,
                color=colour(color),
            ),
        )
    if t.awaiting_color == player:
        t.awaiting_color = None
        t.color = color
        return game.ruling(
            index,
            "ok",
            "color",
            Text("tgus-t.color.names", player=player, color=colour(color)),
        )
    named = colour(color)
    if t.change is not None:
        why = Text("tgus-t.color.none-change", player=player,
                   chooser=t.change.chooser, color=named)
    elif t.countered.get(player) == "hit":
        why = Text("tgus-t.color.none-counter-hit", player=player, color=named)
    elif t.countered.get(player) == "all-hit2":
        why = Text("tgus-t.color.none-counter-all-hit2", player=player,
                   source=t.all_hit_source, color=named)
    else:
        why = Text("tgus-t.color.none", player=player, color=named)
    return game.ruling(index, "illegal", "color", why)


def awaiting(game: TgusTReferee) -> Text | None:
    """What the referee waits for, in words (for the state and the page)."""
    t = game.t
    if t.hitx is not None:
        return Text("tgus-t.awaiting.hit-x", player=t.hitx.player)
    if t.change is not None:
        return Text("tgus-t.awaiting.change", player=t.change.chooser)
    if t.awaiting_color is not None:
        return Text("tgus-t.awaiting.color", player=t.awaiting_color)
    if t.chain is not None:
        return Text(
            "tgus-t.awaiting.draw", player=t.chain.target, amount=t.chain.amount
        )
    return None
