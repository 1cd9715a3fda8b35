"""Counter answers and what follows every play: going out, calls, the ranking.

A Counter may be played out of turn by the player a Change or an All Hit+2
share is aimed at, or by the target of a pending Hit chain (000 §T1, §T2).
"""

from __future__ import annotations


from referee.cards import Card
from referee.log import Event
from referee.rulings import Ruling
from referee.text import Text, define

from .common import answers, discard, illegal_play, ranking
from .context import TgusTReferee
from .table import Chain, ChangeHit
from .turned import name_colour

define({
    "tgus-t.counters": {
        "en": "{player} counters{once}: {text}{note}.",
        "ja": "{player}はカウンターし{once}、{text}{note}。",
    },
    "tgus-t.counter.once": {
        "en": " (several Counters count as one)",
        "ja": "（複数枚のカウンターは1回分です）",
    },
    "tgus-t.counter.change": {
        "en": "the Change bounces back to {back}, and {player} will name the colour "
              "unless {back} counters again",
        "ja": ("チェンジは{back}に跳ね返り、{back}がさらにカウンターしなければ、"
               "{player}が色を指定します"),
    },
    "tgus-t.counter.change-named": {
        "en": "the Change bounces back to {back}",
        "ja": "チェンジは{back}に跳ね返ります",
    },
    "tgus-t.counter.all-hit2": {
        "en": "the All Hit+2 share goes back: {owe}",
        "ja": "オールヒット2の2枚は返され、{owe}",
    },
    "tgus-t.counter.chain": {
        "en": "the draw of {amount} turns round to {back}, who may only answer with "
              "{answers}, and play goes the other way (the project's reading of 000)",
        "ja": ("{amount}枚のドローは{back}に回り、{back}が返せるのは{answers}だけで、"
               "順番は逆回りになります（000の本プロジェクトでの解釈）"),
    },
    "tgus-t.why.counter-hit-x": {
        "en": "the Hit+? cards must be turned first",
        "ja": "先にヒット?のカードをめくらなければなりません",
    },
    "tgus-t.why.counter-nothing": {
        "en": "a Counter only answers a pending Hit, a Change aimed at its player, "
              "or All Hit+2",
        "ja": "カウンターで返せるのは、かかっているヒット、自分に向けられたチェンジ、"
              "オールヒット2だけです",
    },
    "tgus-t.stock-no-out": {
        "en": "{player} has no cards left but still has draws owed or stocked, "
              "so cannot go out and plays on with 0 cards.",
        "ja": ("{player}は手札がなくなりましたが、"
               "まだ引く分かストックが残っているので上がれず、手札0枚で続けます。"),
    },
    "tgus-t.going-out": {
        "en": "{player} goes out in place {place}; play goes on until one player "
              "is left.",
        "ja": "{player}は{place}位で上がり、最後の1人になるまで続けます。",
    },
    "tgus-t.game-end": {
        "en": "{player} goes out in place {place} and {last} is last{confess}: "
              "{order}.",
        "ja": ("{player}が{place}位で上がり、{last}が最下位で{confess}、"
               "順位は{order}です。"),
    },
    "tgus-t.confess": {
        "en": ", and {last} names their favourite character",
        "ja": "、{last}は嫁キャラクターを暴露し",
    },
})


def counter(
    game: TgusTReferee,
    ev: Event,
    player: str,
    cards: list[Card],
    color: str | None,
    note: str,
) -> list[Ruling]:
    """A Counter: bounces a Change, an All Hit+2 share, or a pending Hit chain."""
    t, o = game.t, game.opts
    once = Text("tgus-t.counter.once") if len(cards) > 1 else ""
    if t.change is not None and player == t.change.target:
        back = t.change.source
        t.change = ChangeHit(player, back, player)  # 000 T1: its colour is the counterer's
        text = Text(
            "tgus-t.counter.change-named" if color else "tgus-t.counter.change",
            back=back,
            player=player,
        )
        rule, target, draw = "counter", None, None
    elif player in t.all_hit_open:
        t.countered[player] = "all-hit2"  # 000 T2: the Gamble's player keeps the colour
        t.all_hit_open.discard(player)
        source = t.all_hit_source or player
        owed = min(2, t.owed.get(player, 0))  # the share: owed first, then stock
        t.owed[player] = t.owed.get(player, 0) - owed
        stocked = min(2 - owed, t.stock.get(player, 0))
        if stocked:
            t.stock[player] -= stocked
            if not t.stock[player]:
                del t.stock[player]
        text = Text("tgus-t.counter.all-hit2", owe=game.owe(source, 2))
        rule, target, draw = "counter", source, 2
    elif (
        t.chain is not None
        and player == t.chain.target
        and o.rank("counter") >= t.chain.rank
    ):
        t.direction = -t.direction  # turned round like a Reverse (project's reading)
        if any(c.value == "gamble" for c in cards):
            t.awaiting_color = player  # 000 T1: a Gamble's player names the colour
            t.countered.pop(player, None)
        else:
            t.countered[player] = "hit"  # a Counter names no colour of its own
        back = t.next(player)
        t.chain = Chain(t.chain.amount, back, o.rank("counter"), player)
        t.turn = back
        text = Text(
            "tgus-t.counter.chain",
            amount=t.chain.amount,
            back=back,
            answers=answers(game, t.chain.rank),
        )
        rule, target, draw = "counter", back, t.chain.amount
    else:
        why = Text(
            "tgus-t.why.counter-hit-x" if t.hitx else "tgus-t.why.counter-nothing"
        )
        return [
            game.ruling(
                ev.index,
                "illegal",
                "counter",
                illegal_play(player, cards, why, note),
                player=player,
            )
        ]
    out: list[Ruling] = []
    discard(game, player, cards, "counter", color, out, ev)
    # a colour on the play is ruled as a colour event right after it
    named = [name_colour(game, ev.index, player, color)] if color else []
    kind = "pending" if t.chain or t.change else "ok"
    out.insert(
        0,
        game.ruling(
            ev.index,
            kind,
            rule,
            Text("tgus-t.counters", player=player, once=once, text=text, note=note),
            player=target,
            draw=draw,
        ),
    )
    out += named
    after_play(game, ev, player, out)
    return out


def after_play(game: TgusTReferee, ev: Event, player: str, out: list[Ruling]) -> None:
    """Going out, the name-call window, and the end of the game."""
    t = game.t
    left = t.hands[player]
    if left == 1 and player not in t.called:
        t.exposed = player
    if left > 1:
        t.called.discard(player)
    if left:
        return
    if t.owed.get(player) or t.stock.get(player):
        out.append(
            game.ruling(
                ev.index,
                "info",
                "stock",
                Text("tgus-t.stock-no-out", player=player),
            )
        )
        return
    t.ranking.append(player)
    t.called.discard(player)
    if t.exposed == player:  # out: a missing call can no longer be caught
        t.exposed = None
    t.leftover.discard(player)
    t.all_hit_open.discard(player)
    if game.winner is None:
        game.winner = player
        game.wins[player] += 1
    active = t.active()
    place = len(t.ranking)
    if len(active) > 1:
        if t.turn == player:
            t.turn = t.next(player)
        if t.chain is not None and t.chain.target == player:
            t.chain.target = t.next(player)
            t.turn = t.chain.target
        out.append(
            game.ruling(
                ev.index,
                "ok",
                "going-out",
                Text("tgus-t.going-out", player=player, place=place),
                **{"place": place},
            )
        )
        return
    t.ranking += active
    t.over = True
    t.turn = None
    t.chain = None
    confess = (
        Text("tgus-t.confess", last=active[0]) if game.opts.last_confesses else ""
    )
    out.append(
        game.ruling(
            ev.index,
            "game-end",
            "game-end",
            Text(
                "tgus-t.game-end",
                player=player,
                place=place,
                last=active[0],
                confess=confess,
                order=ranking(t.ranking),
            ),
            scores=dict(game.wins),
            ranking=list(t.ranking),
        )
    )
