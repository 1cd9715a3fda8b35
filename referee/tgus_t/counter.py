"""Counter answers and what follows every play: going out, calls, the ranking.

A Counter may be played out of turn by the player a Change or an All Hit+2
share is aimed at, or by the target of a pending Hit chain (000 §T1, §T2).
"""

from __future__ import annotations


from referee.cards import Card
from referee.log import Event
from referee.rulings import Ruling

from .common import answers, discard, names
from .context import TgusTReferee
from .table import Chain, ChangeHit



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
    once = " (several Counters count as one)" if len(cards) > 1 else ""
    if t.change is not None and player == t.change.target:
        back = t.change.source
        t.change = ChangeHit(player, back, player)
        text = (
            f"the Change bounces back to {back}, and {player} will name the colour "
            f"unless {back} counters again"
        )
        rule, target, draw = "counter", None, None
    elif player in t.all_hit_open:
        t.all_hit_open.discard(player)
        source = t.all_hit_source or player
        owed = min(2, t.owed.get(player, 0))  # the share: owed first, then stock
        t.owed[player] = t.owed.get(player, 0) - owed
        stocked = min(2 - owed, t.stock.get(player, 0))
        if stocked:
            t.stock[player] -= stocked
            if not t.stock[player]:
                del t.stock[player]
        text = f"the All Hit+2 share goes back: {game.owe(source, 2)}"
        rule, target, draw = "counter", source, 2
    elif (
        t.chain is not None
        and player == t.chain.target
        and o.rank("counter") >= t.chain.rank
    ):
        t.direction = -t.direction  # turned round like a Reverse (project's reading)
        back = t.next(player)
        t.chain = Chain(t.chain.amount, back, o.rank("counter"), player)
        t.turn = back
        text = (
            f"the draw of {t.chain.amount} turns round to {back}, who may only "
            f"answer with {answers(game, t.chain.rank)}, and play goes the other way "
            "(the project's reading of 000)"
        )
        rule, target, draw = "counter", back, t.chain.amount
    else:
        why = (
            "the Hit+? cards must be turned first"
            if t.hitx
            else "a Counter only answers a pending Hit, a Change aimed at its player, "
            "or All Hit+2"
        )
        return [
            game.ruling(
                ev.index,
                "illegal",
                "counter",
                f"{player} played {names(cards)} but {why}: take it back" f"{note}.",
                player=player,
            )
        ]
    out: list[Ruling] = []
    discard(game, player, cards, "counter", color, out, ev)
    kind = "pending" if t.chain or t.change else "ok"
    out.insert(
        0,
        game.ruling(
            ev.index,
            kind,
            rule,
            f"{player} counters{once}: {text}{note}.",
            player=target,
            draw=draw,
        ),
    )
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
                f"{player} has no cards left but still has draws owed or "
                "stocked, so cannot go out and plays on with 0 cards.",
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
                f"{player} goes out in place {place}; play goes on until "
                "one player is left.",
                **{"place": place},
            )
        )
        return
    t.ranking += active
    t.over = True
    t.turn = None
    t.chain = None
    order = ", ".join(f"{i}. {p}" for i, p in enumerate(t.ranking, 1))
    confess = (
        f", and {active[0]} names their favourite character"
        if game.opts.last_confesses
        else ""
    )
    out.append(
        game.ruling(
            ev.index,
            "game-end",
            "game-end",
            f"{player} goes out in place {place} and {active[0]} is last"
            f"{confess}: {order}.",
            scores=dict(game.wins),
            ranking=list(t.ranking),
        )
    )
