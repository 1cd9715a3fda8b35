"""A seat the log holds in that is seen no more: ``gone-out``.

The mirror of ``still-in`` (:mod:`.still_in`): the referee counts cards, it
does not see them, so two cards of one value read as one, or a draw counted
twice, leave cards in a hand the player has already emptied. The log then
holds the player in, and with the player on turn every play of the others is
out of turn. A ``gone-out`` event (the camera's completion infers it when the
seat on turn has made no move it saw while every other seat played on round
the table, docs/events-tgus-t.md) counts the player's hand as empty (the
cards it held in the log go back to the pile count) and the player goes out
as a play of its last card would take it out: the next place (the round win
when first), the turn to the next player, the game's end when one is left.
"""

from __future__ import annotations

from referee.log import Event
from referee.rulings import Ruling
from referee.text import Text, define

from .context import TgusTReferee
from .counter import after_play

define({
    "tgus-t.gone-out.not-playing": {
        "en": "{player} is not in play; nothing changes.",
        "ja": "{player}はプレイ中ではないので、何も変わりません。",
    },
    "tgus-t.gone-out": {
        "en": "{player} is seen no more while the others play on: the hand "
              "was counted too high, so {player} has gone out.",
        "ja": "{player}の手番が見えず他の人が続けているので、手札の数え過ぎとして"
              "{player}は上がったとします。",
    },
})


def on_gone_out(game: TgusTReferee, ev: Event) -> list[Ruling]:
    """``{"type": "gone-out", "player": P}``: P, whom the log holds in, has
    gone out (see the module docstring); a ``going-out`` or ``game-end``
    ruling follows as after a last card played. A player already out is
    noted (``info``) and nothing changes."""
    t = game.t
    notes: list[str] = []
    player = game.who(ev, notes)
    if player in t.ranking or t.over:
        return [game.ruling(ev.index, "info", "gone-out",
                            Text("tgus-t.gone-out.not-playing", player=player))]
    t.pile += max(0, t.hands.get(player, 0))
    t.hands[player] = 0
    t.owed.pop(player, None)
    t.stock.pop(player, None)
    t.picture_stock.discard(player)
    if t.awaiting_color == player:
        t.awaiting_color = None
    out = [game.ruling(ev.index, "ok", "gone-out",
                       Text("tgus-t.gone-out", player=player))]
    turn, drew = t.turn, t.drew
    after_play(game, ev, player, out)
    if turn != player and not t.over and turn not in t.ranking:
        # out while another player was on turn: that turn goes on as it was
        t.turn, t.drew = turn, drew
    else:
        t.drew = False
    return out
