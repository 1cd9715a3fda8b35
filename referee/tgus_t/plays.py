"""Plays of the tgus-t game: legality, multi-play, precedence and effects.

A play is checked (turn, matching, multi-play, precedence against a pending
draw, Change / Replace targets) and then applied: Hit cards build the pending
draw, Hit+? waits for turned cards, Skip / Reverse move the turn, Change waits
for its colour, Replace swaps hands, a Gamble acts as the effect it names.
Functions take the game (:class:`referee.tgus_t.game.TgusTReferee`) as first
argument; the game binds ``on_play`` as a method.
"""

from __future__ import annotations

from typing import Any

from referee.cards import COLORS, Card, parse_cards
from referee.game import GameError
from referee.log import Event
from referee.rulings import Ruling
from referee.text import Text, card, color as colour, count, define, plain

from .cards import (ALL_HIT2, GAMBLE_EFFECTS, HAND2, effect, effect_of, effects,
                    quote)
from .common import (DECK_LABELS, answers, bad_color, discard, illegal_play,
                     implied, names, preset, seq)
from .context import TgusTReferee
from .counter import after_play, counter
from .table import Chain, ChangeHit, HitX
from .turned import name_colour


_DRAW = {"hit2": 2, "reverse-hit2": 2, "wild-hit4": 4}

define({
    "tgus-t.error.play-no-cards": {
        "en": "a play needs at least one card",
        "ja": "出すカードが1枚もありません",
    },
    # why a play is refused (the sentence is tgus-t.play-illegal)
    "tgus-t.why.gone-out": {
        "en": "{player} has already gone out and cannot play",
        "ja": "{player}はもう上がっているので出せません",
    },
    "tgus-t.why.one-at-a-time": {
        "en": "this table plays one card at a time",
        "ja": "この卓では1枚ずつしか出せません",
    },
    "tgus-t.why.multi-play": {
        "en": "cards played together must share a number or an effect, "
              "and {cards} do not",
        "ja": "一緒に出すカードは同じ数字か同じ効果でなければならず、{cards}は違います",
    },
    "tgus-t.why.multi-wild": {
        "en": "{prefix} forbids playing several colourless cards at once",
        "ja": "{prefix}では色のないカードの複数枚出しは禁止です",
    },
    "tgus-t.why.no-all-hit2": {
        "en": "All Hit+2 is no Gamble effect in {prefix}",
        "ja": "{prefix}ではギャンブルをオールヒット2として使えません",
    },
    "tgus-t.why.all-hit2-hand": {
        "en": "a Gamble makes All Hit+2 only from a hand of 2 or fewer "
              "and {player} holds {n}",
        "ja": "ギャンブルのオールヒット2は手札2枚以下のときだけで、"
              "{player}の手札は{n}枚です",
    },
    "tgus-t.why.hit-x-first": {
        "en": "the cards for {player}'s Hit+? must be turned first",
        "ja": "先に{player}のヒット?のカードをめくらなければなりません",
    },
    "tgus-t.why.change-first": {
        "en": "{chooser} must first name the colour for the Change "
              "(or {target} answers with a Counter)",
        "ja": "先に{chooser}がチェンジの色を指定しなければなりません"
              "（または{target}がカウンターで返します）",
    },
    "tgus-t.why.turn": {
        "en": "it is {turn}'s turn, not {player}'s",
        "ja": "今は{turn}の番で、{player}の番ではありません",
    },
    "tgus-t.why.all-hit2-share": {
        "en": "{player} owes a share of the All Hit+2, which only {answers} may "
              "answer; draw the 2 first",
        "ja": ("{player}にはオールヒット2の2枚がかかっていて、"
               "返せるのは{answers}だけで、先に2枚引いてください"),
    },
    "tgus-t.why.precedence": {
        "en": "{player} faces a pending draw of {amount} of rank {rank}, "
              "which only {answers} may answer",
        "ja": "{player}には優位性{rank}のドロー{amount}枚がかかっていて、"
              "返せるのは{answers}だけです",
    },
    "tgus-t.why.match": {
        "en": "{card} matches neither the colour {color} nor the top card {top}",
        "ja": "{card}は場の色（{color}）にも場のカード（{top}）にも合いません",
    },
    "tgus-t.why.target": {
        "en": "a {what} needs a target among the other players still in, "
              "got {target}",
        "ja": "{what}の対象は残っているほかのプレイヤーでなければならず、"
              "指名は{target}でした",
    },
    "tgus-t.why.change-limit": {
        "en": "a Change may not target {target}, who holds {n} cards "
              "({limit} or more)",
        "ja": "{target}は手札が{n}枚（{limit}枚以上）なので、チェンジの対象にできません",
    },
    # refused before the checks
    "tgus-t.not-in-deck": {
        "en": "{card} is no card of the 東幻符闘祭 deck: take it back{note}.",
        "ja": "{card}は『東幻符闘祭』のカードではなく、カードを戻します{note}。",
    },
    "tgus-t.gamble-effect": {
        "en": "A Gamble cannot act as {named} in {prefix} (it may be {allowed}): "
              "take it back{note}.",
        "ja": ("{prefix}ではギャンブルを{named}として使えず（使えるのは{allowed}）、"
               "カードを戻します{note}。"),
    },
    # a play that stands: "A plays X: what it does."
    "tgus-t.plays": {
        "en": "{player} plays {cards}: {text}{note}.",
        "ja": "{player}は{cards}を出し、{text}{note}。",
    },
    "tgus-t.does.hit": {
        "en": "{target} must draw {amount} or answer with {answers}",
        "ja": "{target}は{amount}枚引くか、{answers}で返します",
    },
    "tgus-t.does.hit-x": {
        "en": "turn {n} from the pile for the Hit+?",
        "ja": "ヒット?のために山札から{n}めくります",
    },
    "tgus-t.does.skip": {
        "en": "{n} skipped, {next} plays next",
        "ja": "{n}飛ばして、次は{next}の番です",
    },
    "tgus-t.does.reverse": {
        "en": "play turns round, {next} plays next",
        "ja": "順番が逆回りになり、次は{next}の番です",
    },
    "tgus-t.does.change": {
        "en": "{target} names the colour and has their hand changed, unless they "
              "answer with a Counter",
        "ja": "{target}がカウンターで返さなければ、{target}が色を指定し、"
              "手札がチェンジされます",
    },
    "tgus-t.does.replace-out": {
        "en": "{player} goes out on it, so there is no swap",
        "ja": "{player}はこれで上がるので、手札の交換はありません",
    },
    "tgus-t.does.replace": {
        "en": "{player} and {target} swap hands (the project's reading of 000), "
              "{next} plays next",
        "ja": ("{player}と{target}は手札を交換し（000の本プロジェクトでの解釈）、"
               "次は{next}の番です"),
    },
    "tgus-t.does.out": {
        "en": "{player} goes out on it, {next} plays next",
        "ja": "{player}はこれで上がり、次は{next}の番です",
    },
    "tgus-t.does.hand2": {
        "en": "{player}'s hand becomes two cards ({player} {what}; the project's "
              "reading of 000's 手札を二枚にする), {next} plays next",
        "ja": ("{player}の手札は2枚になり（{what!l}、"
               "000の「手札を二枚にする」の本プロジェクトでの解釈）、"
               "次は{next}の番です"),
    },
    "tgus-t.does.hand2-under": {
        "en": "puts {n} under the pile and keeps 2",
        "ja": "{n}を山札の下に入れて2枚残します",
    },
    "tgus-t.does.all-hit2": {
        "en": "All Hit+2: {owes}, unless they answer with a Counter, which sends "
              "the 2 back to {player}",
        "ja": ("オールヒット2で、{owes!l}、ただしカウンターで返すと、"
               "その2枚は{player}に戻ります"),
    },
    "tgus-t.does.next": {
        "en": "{next} plays next",
        "ja": "次は{next}の番です",
    },
})


def _check(
    game: TgusTReferee, player: str, cards: list[Card], effs: list[str], ev: Event
) -> tuple[str, Text] | None:
    """Why the play is illegal as (rule, text), or ``None`` when it may stand."""
    t, o = game.t, game.opts
    eff = effs[0]
    if player in t.ranking:
        return "going-out", Text("tgus-t.why.gone-out", player=player)
    if len(cards) > 1:
        if not o.multi_play:
            return "multi-play", Text("tgus-t.why.one-at-a-time")
        if len(set(effs)) > 1:
            return "multi-play", Text("tgus-t.why.multi-play", cards=names(cards))
        wilds = [c for c in cards if c.color is None]
        if eff != "counter" and len(wilds) > 1 and not o.multi_wild:
            return (
                "multi-wild",
                Text("tgus-t.why.multi-wild", prefix=preset(game.prefix)),
            )
    if eff == ALL_HIT2:
        if not o.all_hit2:
            return "gamble", Text("tgus-t.why.no-all-hit2", prefix=preset(game.prefix))
        if t.hands[player] > 2:
            return "all-hit2", Text(
                "tgus-t.why.all-hit2-hand", player=player, n=t.hands[player]
            )
    if eff not in ("counter",) and t.hitx is not None:
        return "hit-x", Text("tgus-t.why.hit-x-first", player=t.hitx.player)
    if eff != "counter" and t.change is not None:
        c = t.change
        return "change", Text(
            "tgus-t.why.change-first", chooser=c.chooser, target=c.target
        )
    if eff == "counter":
        return None
    if player != t.turn:
        return "turn", Text("tgus-t.why.turn", turn=t.turn, player=player)
    if player in t.all_hit_open and o.rank(eff) > 0:
        # 000 §T2: All Hit+2 answers no draw card, and precedence forbids the
        # reverse: a share is drawn or bounced with a Counter, never passed on.
        return "precedence", Text(
            "tgus-t.why.all-hit2-share",
            player=player,
            answers=answers(game, o.rank(ALL_HIT2)),
        )
    if t.chain is not None:
        rank = o.rank(eff)
        if rank == 0 or rank < t.chain.rank or eff == ALL_HIT2:
            return "precedence", Text(
                "tgus-t.why.precedence",
                player=player,
                amount=t.chain.amount,
                rank=t.chain.rank,
                answers=answers(game, t.chain.rank),
            )
        return None
    first = cards[0]
    if not (
        first.color is None
        or t.color is None
        or first.color == t.color
        or t.top_effect == eff
    ):
        return "match", Text(
            "tgus-t.why.match",
            card=card(first, deck="tgus-t"),
            color=colour(t.color),
            top=card(t.top, deck="tgus-t") if t.top else plain("-"),
        )
    if eff in ("change", "replace"):
        target = ev.get("target")
        if target not in t.active() or target == player:
            return eff, Text(
                "tgus-t.why.target", what=effect(eff, "cap"), target=quote(target)
            )
        if eff == "change" and t.hands[target] >= o.change_limit:
            return "change-limit", Text(
                "tgus-t.why.change-limit",
                target=target,
                n=t.hands[target],
                limit=o.change_limit,
            )
    return None


def on_play(game: TgusTReferee, ev: Event) -> list[Ruling]:
    """A play: checked against turn, precedence and matching, then its effect."""
    t = game.t
    notes: list[str] = []
    player = game.who(ev, notes)
    note = implied(notes)
    cards = parse_cards(ev.get("cards"))
    if not cards:
        raise GameError(Text("tgus-t.error.play-no-cards"))
    for c in cards:
        if c.label not in DECK_LABELS:
            return [
                game.ruling(
                    ev.index,
                    "illegal",
                    "deck",
                    Text("tgus-t.not-in-deck", card=card(c, deck="tgus-t"), note=note),
                )
            ]
    color = ev.get("color")
    if color is not None and color not in COLORS:
        raise GameError(bad_color(color))
    named = ev.get("effect")
    if any(c.value == "gamble" for c in cards):
        if named is None:
            named = "wild"
        allowed = GAMBLE_EFFECTS + ((ALL_HIT2,) if game.opts.all_hit2 else ())
        if named not in allowed:
            return [
                game.ruling(
                    ev.index,
                    "illegal",
                    "gamble",
                    Text(
                        "tgus-t.gamble-effect",
                        named=effect(named, "quote") if isinstance(named, str)
                        else repr(named),
                        prefix=preset(game.prefix),
                        allowed=effects(allowed, "ids"),
                        note=note,
                    ),
                )
            ]
    effs = [effect_of(c, named) for c in cards]
    problem = _check(game, player, cards, effs, ev)
    if problem:
        rule, why = problem
        return [
            game.ruling(
                ev.index,
                "illegal",
                rule,
                illegal_play(player, cards, why, note),
                player=player,
            )
        ]
    if effs[0] == "counter":
        return counter(game, ev, player, cards, color, note)
    out: list[Ruling] = []
    eff = effs[0]
    discard(game, player, cards, eff, color, out, ev)
    text, extra = _effect(game, ev, player, cards, eff, out)
    # a Change's player names no colour (its target does): a colour on the play
    # is ruled as a colour event right after it, as in counter()
    named = (
        [name_colour(game, ev.index, player, color)]
        if color and eff == "change" and cards[-1].color is None
        else []
    )
    kind = (
        "pending"
        if t.chain or t.hitx or t.change or t.awaiting_color or eff == ALL_HIT2
        else "ok"
    )
    chain = t.chain
    rule = (
        "precedence"
        if chain and chain.source == player
        else "hit-x"
        if t.hitx
        else eff
        if eff in ("change", "replace", "all-hit2")
        else "gamble"
        if cards[0].value == "gamble"
        else "play"
    )
    ruling = game.ruling(
        ev.index,
        kind,
        rule,
        Text("tgus-t.plays", player=player, cards=names(cards), text=text, note=note),
        player=chain.target if chain else None,
        draw=chain.amount if chain else None,
        **extra,
    )
    out.insert(0, ruling)
    out += named
    after_play(game, ev, player, out)
    return out


def _effect(
    game: TgusTReferee,
    ev: Event,
    player: str,
    cards: list[Card],
    eff: str,
    out: list[Ruling],
) -> tuple[Text, dict[str, Any]]:
    """Apply a play's effect to turn, direction and draws; describe it."""
    t, o = game.t, game.opts
    n = len(cards)
    if eff in _DRAW:
        if eff == "reverse-hit2" and n % 2:
            t.direction = -t.direction
        base = t.chain.amount if t.chain else 0
        target = t.next(player)
        t.chain = Chain(base + _DRAW[eff] * n, target, o.rank(eff), player)
        t.turn = target
        return Text(
            "tgus-t.does.hit",
            target=target,
            amount=t.chain.amount,
            answers=answers(game, t.chain.rank),
        ), {}
    if eff == "wild-hit-x":
        base = t.chain.amount if t.chain else 0
        target = t.next(player)
        t.chain = None
        t.hitx = HitX(player, base, target, n)
        t.turn = target
        return Text("tgus-t.does.hit-x", n=count(n, "card")), {}
    if eff == "skip":
        t.turn = t.next(player, 1 + n)
        return Text("tgus-t.does.skip", n=count(n, "player"), next=t.turn), {}
    if eff == "reverse":
        skips = 0
        for _ in range(n):
            if len(t.active()) == 2:
                skips += 1
            else:
                t.direction = -t.direction
        t.turn = t.next(player, 1 + skips)
        return Text("tgus-t.does.reverse", next=t.turn), {}
    if eff == "change":
        target = ev.get("target")
        t.change = ChangeHit(player, target, target)
        t.turn = t.next(player)
        return Text("tgus-t.does.change", target=target), {}
    if eff == "replace":
        target = ev.get("target")
        t.turn = t.next(player)
        if not t.hands[player]:
            return Text("tgus-t.does.replace-out", player=player), {}
        t.hands[player], t.hands[target] = t.hands[target], t.hands[player]
        return Text(
            "tgus-t.does.replace", player=player, target=target, next=t.turn
        ), {}
    if eff == HAND2:
        t.turn = t.next(player)
        left = t.hands[player]
        if not left:
            return Text("tgus-t.does.out", player=player, next=t.turn), {}
        if left >= 2:
            t.hands[player] = 2
            t.pile += left - 2
            what = Text("tgus-t.does.hand2-under", n=count(left - 2, "card"))
        else:
            what = game.owe(player, 2 - left)
        return Text(
            "tgus-t.does.hand2", player=player, what=what, next=t.turn
        ), {}
    if eff == ALL_HIT2:
        others = [p for p in t.active() if p != player]
        texts = [game.owe(p, 2) for p in others]
        t.all_hit_open = set(others)
        t.all_hit_source = player
        t.turn = t.next(player)
        return Text(
            "tgus-t.does.all-hit2", owes=seq(texts, ", ", "。"), player=player
        ), {}
    t.turn = t.next(player)
    return Text("tgus-t.does.next", next=t.turn), {}
