"""The draw pile of a tgus-t table: draws owed, tgus-t2's stock, the rebuild.

000 §T2: a draw larger than the pile is stocked per player and taken when the
pile is rebuilt, in turn order from the player on turn; the pile is rebuilt
from the discards at 10 cards or fewer; stocked draws pause while the pile
holds 15 cards or fewer (the project reads this as: stocked draws never take
the pile below 15). tgus-t1 rebuilds only when the pile is empty and has no
stock. The game binds these functions as methods.
"""

from __future__ import annotations


from referee.log import Event
from referee.rulings import Ruling
from referee.text import Text, count as n_cards, define

from .common import discards
from .context import TgusTReferee

define({
    "tgus-t.owe": {
        "en": "{player} draws {n}",
        "ja": "{player}は{n}枚引きます",
    },
    "tgus-t.owe-stocked": {
        "en": "{player} draws {now} now and {stocked} are stocked until the pile "
              "is rebuilt",
        "ja": "{player}は今{now}枚引き、残りの{stocked}枚は山札が作り直されるまで"
              "ストックします",
    },
    "tgus-t.pile.short-one": {
        "en": "The referee counted only {pile} in the pile but {n} was taken, so "
              "its count of the discards is lowered to match.",
        "ja": "審判の数えでは山札は{pile}でしたが、{n}枚引かれたので、"
              "捨て札の数を減らして合わせます。",
    },
    "tgus-t.pile.short-many": {
        "en": "The referee counted only {pile} in the pile but {n} were taken, so "
              "its count of the discards is lowered to match.",
        "ja": "審判の数えでは山札は{pile}でしたが、{n}枚引かれたので、"
              "捨て札の数を減らして合わせます。",
    },
    "tgus-t.reshuffle": {
        "en": "Shuffle the {moved} under the top card into the pile, which now "
              "holds {pile} (rebuilt at {at} cards or fewer).",
        "ja": ("場のカードの下の捨て札{moved}を切って山札に入れ、"
               "山札は{pile}になりました（{at}枚以下で作り直し）。"),
    },
    "tgus-t.stock.wait": {
        "en": "{player}'s {n} stocked cards wait: stocked draws never take the pile "
              "below {floor} cards (the project's reading of 000).",
        "ja": ("{player}のストック{n}枚は待ちで、"
               "ストックのドローで山札を{floor}枚より少なくはしません（000の本プロジ"
               "ェクトでの解釈）。"),
    },
    "tgus-t.stock.draw": {
        "en": "The pile is rebuilt, so {player} now draws {n} stocked cards{wait}.",
        "ja": "山札が作り直されたので、{player}はストックから{n}枚引きます{wait}。",
    },
    "tgus-t.stock.left": {
        "en": " ({n} wait until the next rebuild)",
        "ja": "（残り{n}枚は次の作り直しまで待ちます）",
    },
})



def owe(game: TgusTReferee, player: str, count: int) -> Text:
    """Make ``player`` owe ``count`` cards; T2 stocks what the pile cannot give."""
    t = game.t
    if not game.opts.stock:
        t.owed[player] = t.owed.get(player, 0) + count
        return Text("tgus-t.owe", player=player, n=count)
    now = max(0, min(count, t.pile - t.owed_total()))
    t.owed[player] = t.owed.get(player, 0) + now
    if now == count:
        return Text("tgus-t.owe", player=player, n=count)
    t.stock[player] = t.stock.get(player, 0) + count - now
    return Text("tgus-t.owe-stocked", player=player, now=now, stocked=count - now)


def take_from_pile(
    game: TgusTReferee, ev: Event, count: int, out: list[Ruling]
) -> None:
    """Move ``count`` cards from the pile, rebuilding it when it runs low."""
    t = game.t
    if count > t.pile:
        rebuild(game, ev, out, force=True)
    if count > t.pile:
        short = count - t.pile
        out.append(
            game.ruling(
                ev.index,
                "info",
                "pile",
                Text(
                    "tgus-t.pile.short-one" if count == 1 else "tgus-t.pile.short-many",
                    pile=n_cards(t.pile, "card"),
                    n=count,
                ),
            )
        )
        t.discards = max(0, t.discards - short)
        count = t.pile
    t.pile -= count
    rebuild(game, ev, out)


def rebuild(
    game: TgusTReferee, ev: Event, out: list[Ruling], force: bool = False
) -> None:
    """Shuffle the discards (but the top card) into the pile when it runs low."""
    t = game.t
    if t.discards <= 1 or not (force or t.pile <= game.opts.rebuild_at):
        return
    moved = t.discards - 1
    t.pile += moved
    t.discards = 1
    out.append(
        game.ruling(
            ev.index,
            "info",
            "reshuffle",
            Text(
                "tgus-t.reshuffle",
                moved=discards(moved),
                pile=n_cards(t.pile, "card"),
                at=game.opts.rebuild_at,
            ),
        )
    )
    supply_stock(game, ev, out)


def supply_stock(game: TgusTReferee, ev: Event, out: list[Ruling]) -> None:
    """After a rebuild, stocked draws are taken in turn order above the floor."""
    t = game.t
    if not t.stock or t.turn is None:
        return
    room = t.pile - game.opts.stock_floor - t.owed_total()
    order = [t.turn] + [p for p in _order_from(game, t.turn) if p != t.turn]
    for player in order:
        have = t.stock.get(player, 0)
        if not have:
            continue
        if room <= 0:
            out.append(
                game.ruling(
                    ev.index,
                    "pending",
                    "stock",
                    Text(
                        "tgus-t.stock.wait",
                        player=player,
                        n=have,
                        floor=game.opts.stock_floor,
                    ),
                    player=player,
                )
            )
            continue
        take = min(have, room)
        room -= take
        t.owed[player] = t.owed.get(player, 0) + take
        t.stock[player] = have - take
        if not t.stock[player]:
            del t.stock[player]
            t.picture_stock.discard(player)
        out.append(
            game.ruling(
                ev.index,
                "pending",
                "stock",
                Text(
                    "tgus-t.stock.draw",
                    player=player,
                    n=take,
                    wait=Text("tgus-t.stock.left", n=have - take)
                    if have > take
                    else "",
                ),
                player=player,
                draw=take,
            )
        )


def _order_from(game: TgusTReferee, start: str) -> list[str]:
    i = game.players.index(start)
    n = len(game.players)
    return [game.players[(i + k * game.t.direction) % n] for k in range(n)]
