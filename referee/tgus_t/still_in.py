"""A seat the log holds out seen still playing: ``still-in``.

The referee counts cards, it does not see them: a missed draw or a Counter
never read empties a hand in the log while the player still holds cards. A
``still-in`` event (the camera's completion infers it before a play or draw
by a seat the log holds out, docs/events-tgus-t.md) takes the player off the
finished places: a round win it took as first out goes to the next player
out (or is taken back), its hand is counted as at least the cards it is now
seen to play (taken from the pile), and where the game had ended it goes on,
with the player on turn (the end left nobody on turn).
"""

from __future__ import annotations

from referee.game import GameError
from referee.log import Event
from referee.rulings import Ruling
from referee.text import Text, count, define

from .cards import deck, quote
from .context import TgusTReferee

define({
    "tgus-t.still-in.playing": {
        "en": "{player} is still in the round; nothing changes.",
        "ja": "{player}はまだ上がっておらず、何も変わりません。",
    },
    "tgus-t.still-in": {
        "en": "{player} is seen still playing, so is not out: off place "
              "{place}{win}{hand}{on}.",
        "ja": ("{player}はまだプレイしているので上がっておらず、"
               "{place}位を取り消し{win}{hand}{on}ます。"),
    },
    "tgus-t.still-in.win-to": {
        "en": ", the round win going to {winner}",
        "ja": "、ラウンドの勝ちを{winner}に移し",
    },
    "tgus-t.still-in.win-back": {
        "en": ", the round win taken back",
        "ja": "、ラウンドの勝ちを取り消し",
    },
    "tgus-t.still-in.hand": {
        "en": ", the hand counted as {n}",
        "ja": "、手札を{n}と数え",
    },
    "tgus-t.error.seen-count": {
        "en": "count must be the cards seen played, a whole number from 0 to "
              "the deck's size, got {got}",
        "ja": "枚数は出されたカードの数(0からデッキの枚数までの整数)でなければ"
              "なりませんが、{got}でした",
    },
    "tgus-t.still-in.on": {
        "en": ", and the game goes on with {player} on turn",
        "ja": "、{player}の番でゲームを続け",
    },
})


def on_still_in(game: TgusTReferee, ev: Event) -> list[Ruling]:
    """``{"type": "still-in", "player": P, "count": N}``: P, whom the log holds
    out, is seen playing ``count`` cards (default 1; 0: a draw seen; its hand
    is counted as at least those and one card); see the module
    docstring. A player not out (or the last one, who still holds cards) is
    noted (``info``) and nothing changes."""
    t = game.t
    notes: list[str] = []
    player = game.who(ev, notes)
    seen = ev.get("count", 1)
    if (not isinstance(seen, int) or isinstance(seen, bool)
            or not 0 <= seen <= (game.opts.deck_size or len(deck()))):
        raise GameError(Text("tgus-t.error.seen-count", got=quote(seen)))
    last = t.ranking[-1] if t.over and t.ranking else None
    if player not in t.ranking or player == last:
        return [game.ruling(ev.index, "info", "still-in",
                            Text("tgus-t.still-in.playing", player=player))]
    place = t.ranking.index(player) + 1
    t.ranking.remove(player)
    reopened = t.over
    if reopened:  # the seat left last was never out: back in play too
        t.ranking.pop()
        t.over = False
        t.turn = player
        t.drew = False
    win: Text | str = ""
    if game.winner == player:
        game.wins[player] -= 1
        game.winner = t.ranking[0] if t.ranking else None
        if game.winner is not None:
            game.wins[game.winner] += 1
            win = Text("tgus-t.still-in.win-to", winner=game.winner)
        else:
            win = Text("tgus-t.still-in.win-back")
    seen = max(1, seen)  # a player not out holds a card at least
    hand: Text | str = ""
    if t.hands.get(player, 0) < seen:
        added = seen - t.hands.get(player, 0)
        t.hands[player] = seen
        t.pile = max(0, t.pile - added)
        hand = Text("tgus-t.still-in.hand", n=count(seen, "card"))
    on = Text("tgus-t.still-in.on", player=player) if reopened else ""
    return [game.ruling(
        ev.index, "ok", "still-in",
        Text("tgus-t.still-in", player=player, place=place, win=win, hand=hand,
             on=on),
        scores=dict(game.wins), ranking=list(t.ranking))]
