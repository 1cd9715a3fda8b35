"""Draws of the tgus-t game: taking a pending draw, owed and turn draws, leftovers.

A pending Hit chain is taken by its target's ``draw``; the cards then become
*owed* (tgus-t2 stocks what the pile cannot give). A ``draw`` pays owed cards
first; one card beyond that is the turn's draw of the player on turn; any more
nobody owed are ruled illegal and not counted (put them back).

The picture leftover (絵札残り): a player whose hand holds no number card must
draw 2 at a time until one arrives. The referee cannot see hands, so the player
self-reports with ``{"type": "leftover", "player": "B"}`` (again after each 2
that bring no number card); a missed report is caught with
``{"type": "catch", "player": "A", "target": "B", "for": "leftover"}``.
"""

from __future__ import annotations


from referee.cards import parse_cards
from referee.game import GameError
from referee.log import Event
from referee.rulings import Ruling

from .context import TgusTReferee



def on_draw(game: TgusTReferee, ev: Event) -> list[Ruling]:
    """Cards taken from the pile."""
    t = game.t
    notes: list[str] = []
    player = game.who(ev, notes)
    note = f" ({notes[0]})" if notes else ""
    count = ev.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise GameError(f"count must be a positive integer, got {count!r}")
    if player in t.ranking:
        return [
            game.ruling(
                ev.index,
                "illegal",
                "going-out",
                f"{player} has already gone out and draws nothing: put the "
                f"cards back{note}.",
            )
        ]
    if t.hitx is not None:
        return [
            game.ruling(
                ev.index,
                "illegal",
                "hit-x",
                f"The cards for {t.hitx.player}'s Hit+? must be turned before "
                f"anyone draws: put the cards back{note}.",
            )
        ]
    out: list[Ruling] = []
    took_chain = False
    if t.chain is not None and player == t.chain.target:
        amount = t.chain.amount
        t.chain = None
        text = game.owe(player, amount)
        t.turn, t.drew = t.next(player), False
        took_chain = True
        out.append(
            game.ruling(
                ev.index,
                "ok",
                "precedence",
                f"{player} takes the pending draw: {text}; {t.turn} "
                f"plays next{note}.",
                player=player,
                draw=amount,
            )
        )
    owed = t.owed.get(player, 0)
    paid = min(count, owed)
    t.owed[player] = owed - paid
    if not t.owed[player]:
        del t.owed[player]
    rest = count - paid
    t.all_hit_open.discard(player)
    counted = count
    if rest:
        if player == t.turn and not t.drew and t.chain is None and not took_chain:
            t.drew = True
            extra = "" if rest == 1 else f" ({rest} cards, only 1 was needed)"
            out.append(
                game.ruling(
                    ev.index,
                    "ok",
                    "draw",
                    f"{player} draws for the turn{extra} and may play or "
                    f"pass{note}.",
                    player=player,
                )
            )
        else:
            counted -= rest
            out.append(
                game.ruling(
                    ev.index,
                    "illegal",
                    "draw",
                    f"{player} drew {rest} card{'s' * (rest > 1)} nobody "
                    f"owed: put {'them' if rest > 1 else 'it'} back{note}.",
                    player=player,
                )
            )
    if counted:
        t.hands[player] += counted
        if t.hands[player] > 1:
            t.called.discard(player)
            if t.exposed == player:  # no longer one card: nothing left to catch
                t.exposed = None
        game.take_from_pile(ev, counted, out)
    game.close_catch_window(player)
    left = t.owed.get(player, 0)
    if paid and not left:
        if player in t.leftover:
            t.leftover.discard(player)
            out.append(
                game.ruling(
                    ev.index,
                    "ok",
                    "leftover",
                    f"{player} has drawn the forced cards; if there is "
                    "still no number card, report the leftover again.",
                )
            )
        elif not out:
            out.append(
                game.ruling(
                    ev.index,
                    "ok",
                    "draw",
                    f"{player} has drawn what was owed{note}.",
                )
            )
    elif left:
        out.append(
            game.ruling(
                ev.index,
                "pending",
                "draw",
                f"{player} still owes {left} card{'s' * (left > 1)}{note}.",
                player=player,
                draw=left,
            )
        )
    return out


def leftover(game: TgusTReferee, ev: Event) -> list[Ruling]:
    """A self-report: the player's hand holds no number card (絵札残り)."""
    t, o = game.t, game.opts
    player = ev.get("player")
    if player not in game.players:
        raise GameError(f"a leftover report needs a player, got {player!r}")
    if not o.leftover_draw:
        return _leftover_info(
            game, ev, f"{game.prefix} has no forced draw for a hand without numbers."
        )
    shown = ev.get("cards")
    if shown is not None and any(c.is_number for c in parse_cards(shown)):
        return _leftover_info(
            game,
            ev,
            f"{player}'s hand shows a number card, so there is no forced draw.",
        )
    if player in t.ranking or t.hands.get(player, 0) == 0:
        return _leftover_info(
            game, ev, f"{player} holds no cards, so there is nothing to report."
        )
    return [
        _force(
            game, ev, player, o.leftover_draw, 0, f"{player} holds only picture cards"
        )
    ]


def _leftover_info(game: TgusTReferee, ev: Event, text: str) -> list[Ruling]:
    """An ``info`` ruling under the leftover rule: nothing is owed."""
    return [game.ruling(ev.index, "info", "leftover", text)]


def _force(
    game: TgusTReferee, ev: Event, player: str, count: int, penalty: int, why: str
) -> Ruling:
    t = game.t
    before = t.stock.get(player, 0)
    text = game.owe(player, count + penalty)
    t.leftover.add(player)
    if t.stock.get(player, 0) > before:
        t.picture_stock.add(player)
        text += " (a picture stock: no going out until it is drawn)"
    kind = "penalty" if penalty else "pending"
    rule = "leftover-penalty" if penalty else "leftover"
    return game.ruling(
        ev.index,
        kind,
        rule,
        f"{why}: {text}, and 2 more each time no number card arrives.",
        player=player,
        draw=count + penalty,
    )


def catch_leftover(
    game: TgusTReferee, ev: Event, player: str, target: str
) -> list[Ruling]:
    """A player points out that ``target`` missed the forced leftover draw."""
    t, o = game.t, game.opts
    if not o.leftover_draw:
        return _leftover_info(
            game, ev, f"{game.prefix} has no forced draw for a hand without numbers."
        )
    shown = ev.get("cards")
    if shown is not None and any(c.is_number for c in parse_cards(shown)):
        return _leftover_info(
            game, ev, f"{player}'s catch fails: {target}'s hand shows a number card."
        )
    if target in t.leftover or t.hands.get(target, 0) == 0 or target in t.ranking:
        return [
            game.ruling(
                ev.index,
                "info",
                "leftover",
                f"{player}'s catch fails: {target} is already drawing for "
                "the leftover or holds no cards.",
            )
        ]
    penalty = o.leftover_penalty
    why = (
        f"{target} missed the forced draw for a hand without number cards and was "
        f"caught by {player}" + (f" ({penalty} penalty cards)" if penalty else "")
    )
    return [_force(game, ev, target, o.leftover_draw, penalty, why)]
