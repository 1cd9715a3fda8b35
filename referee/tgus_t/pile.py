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
from referee.rulings import Ruling, n_of

from .context import TgusTReferee



def owe(game: TgusTReferee, player: str, count: int) -> str:
    """Make ``player`` owe ``count`` cards; T2 stocks what the pile cannot give."""
    t = game.t
    if not game.opts.stock:
        t.owed[player] = t.owed.get(player, 0) + count
        return f"{player} draws {count}"
    now = max(0, min(count, t.pile - t.owed_total()))
    t.owed[player] = t.owed.get(player, 0) + now
    if now == count:
        return f"{player} draws {count}"
    t.stock[player] = t.stock.get(player, 0) + count - now
    return (
        f"{player} draws {now} now and {count - now} are stocked until the pile "
        f"is rebuilt"
    )


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
                f"The referee counted only {n_of(t.pile, 'card')} in the pile but "
                f"{count} {'was' if count == 1 else 'were'} taken, so its count of "
                "the discards is lowered to match.",
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
            f"Shuffle the {n_of(moved, 'discard')} under the top card into the "
            f"pile, which now holds {n_of(t.pile, 'card')} (rebuilt at "
            f"{game.opts.rebuild_at} cards or fewer).",
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
                    f"{player}'s {have} stocked cards wait: stocked draws never "
                    f"take the pile below {game.opts.stock_floor} cards (the "
                    "project's reading of 000).",
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
                f"The pile is rebuilt, so {player} now draws {take} stocked cards"
                + (
                    f" ({have - take} wait until the next rebuild)"
                    if have > take
                    else ""
                )
                + ".",
                player=player,
                draw=take,
            )
        )


def _order_from(game: TgusTReferee, start: str) -> list[str]:
    i = game.players.index(start)
    n = len(game.players)
    return [game.players[(i + k * game.t.direction) % n] for k in range(n)]
