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
from referee.text import Text, count as n_cards, define

from .cards import quote
from .common import implied, preset
from .context import TgusTReferee

define({
    "tgus-t.error.count": {
        "en": "count must be a positive integer, got {got}",
        "ja": "引く枚数は正の整数でなければなりませんが、{got}でした",
    },
    "tgus-t.error.leftover-player": {
        "en": "a leftover report needs a player, got {got}",
        "ja": "絵札残りの申告にはプレイヤーが必要ですが、{got}でした",
    },
    "tgus-t.draw.gone-out": {
        "en": "{player} has already gone out and draws nothing: put the cards "
              "back{note}.",
        "ja": "{player}はもう上がっているので引けず、カードを戻します{note}。",
    },
    "tgus-t.draw.hit-x": {
        "en": "The cards for {player}'s Hit+? must be turned before anyone draws: "
              "put the cards back{note}.",
        "ja": ("誰かが引く前に{player}のヒット?のカードをめくらなければならず、"
               "カードを戻します{note}。"),
    },
    "tgus-t.draw.takes-chain": {
        "en": "{player} takes the pending draw: {owe}; {next} plays next{note}.",
        "ja": "{player}はかかっているドローを受け、{owe!l}、次は{next}の番です{note}。",
    },
    "tgus-t.draw.turn": {
        "en": "{player} draws for the turn{extra} and may play or pass{note}.",
        "ja": "{player}は手番のドローをし{extra}、出すかパスできます{note}。",
    },
    "tgus-t.draw.turn-extra": {
        "en": " ({n} cards, only 1 was needed)",
        "ja": "（{n}枚引きましたが、必要なのは1枚です）",
    },
    "tgus-t.draw.unowed-one": {
        "en": "{player} drew {n} nobody owed: put it back{note}.",
        "ja": "{player}は引く必要のない{n}を引き、戻します{note}。",
    },
    "tgus-t.draw.unowed-many": {
        "en": "{player} drew {n} nobody owed: put them back{note}.",
        "ja": "{player}は引く必要のない{n}を引き、戻します{note}。",
    },
    "tgus-t.draw.leftover-done": {
        "en": "{player} has drawn the forced cards; if there is still no number "
              "card, report the leftover again.",
        "ja": ("{player}は強制ドローを引き終え、まだ数字のカードがなければ、"
               "もう一度絵札残りを申告してください。"),
    },
    "tgus-t.draw.paid": {
        "en": "{player} has drawn what was owed{note}.",
        "ja": "{player}は引く分を引き終えました{note}。",
    },
    "tgus-t.draw.still-owes": {
        "en": "{player} still owes {n}{note}.",
        "ja": "{player}はまだ{n}引かなければなりません{note}。",
    },
    "tgus-t.leftover.none": {
        "en": "{prefix} has no forced draw for a hand without numbers.",
        "ja": "{prefix}には数字のない手札の強制ドローはありません。",
    },
    "tgus-t.leftover.shows-number": {
        "en": "{player}'s hand shows a number card, so there is no forced draw.",
        "ja": "{player}の手札に数字のカードがあるので、強制ドローはありません。",
    },
    "tgus-t.leftover.no-cards": {
        "en": "{player} holds no cards, so there is nothing to report.",
        "ja": "{player}は手札がないので、申告することはありません。",
    },
    "tgus-t.leftover.forced": {
        "en": "{why}: {owe}, and 2 more each time no number card arrives.",
        "ja": ("{why!l}、{owe!l}、数字のカードが来なければ、"
               "そのたびにさらに2枚引きます。"),
    },
    "tgus-t.leftover.pictures": {
        "en": "{player} holds only picture cards",
        "ja": "{player}の手札は絵札だけです",
    },
    "tgus-t.leftover.caught": {
        "en": "{target} missed the forced draw for a hand without number cards and "
              "was caught by {player}{penalty}",
        "ja": "{target}は数字のない手札の強制ドローを忘れ、{player}に指摘されました"
              "{penalty}",
    },
    "tgus-t.leftover.penalty": {
        "en": " ({n} penalty cards)",
        "ja": "（ペナルティ{n}枚）",
    },
    "tgus-t.leftover.picture-stock": {
        "en": "{owe} (a picture stock: no going out until it is drawn)",
        "ja": "{owe}（絵札ストック: 引き終えるまで上がれません）",
    },
    "tgus-t.leftover.catch-number": {
        "en": "{player}'s catch fails: {target}'s hand shows a number card.",
        "ja": "{player}の指摘は不成立で、{target}の手札に数字のカードがあります。",
    },
    "tgus-t.leftover.catch-moot": {
        "en": "{player}'s catch fails: {target} is already drawing for the "
              "leftover or holds no cards.",
        "ja": ("{player}の指摘は不成立で、{target}はすでに絵札残りのドロー中か、"
               "手札がありません。"),
    },
})


def on_draw(game: TgusTReferee, ev: Event) -> list[Ruling]:
    """Cards taken from the pile."""
    t = game.t
    notes: list[str] = []
    player = game.who(ev, notes)
    note = implied(notes)
    count = ev.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise GameError(Text("tgus-t.error.count", got=quote(count)))
    if player in t.ranking:
        return [
            game.ruling(
                ev.index,
                "illegal",
                "going-out",
                Text("tgus-t.draw.gone-out", player=player, note=note),
            )
        ]
    if t.hitx is not None:
        return [
            game.ruling(
                ev.index,
                "illegal",
                "hit-x",
                Text("tgus-t.draw.hit-x", player=t.hitx.player, note=note),
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
                Text(
                    "tgus-t.draw.takes-chain",
                    player=player,
                    owe=text,
                    next=t.turn,
                    note=note,
                ),
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
            extra = "" if rest == 1 else Text("tgus-t.draw.turn-extra", n=rest)
            out.append(
                game.ruling(
                    ev.index,
                    "ok",
                    "draw",
                    Text("tgus-t.draw.turn", player=player, extra=extra, note=note),
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
                    Text(
                        "tgus-t.draw.unowed-many" if rest > 1
                        else "tgus-t.draw.unowed-one",
                        player=player,
                        n=n_cards(rest, "card"),
                        note=note,
                    ),
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
                    Text("tgus-t.draw.leftover-done", player=player),
                )
            )
        elif not out:
            out.append(
                game.ruling(
                    ev.index,
                    "ok",
                    "draw",
                    Text("tgus-t.draw.paid", player=player, note=note),
                )
            )
    elif left:
        out.append(
            game.ruling(
                ev.index,
                "pending",
                "draw",
                Text(
                    "tgus-t.draw.still-owes",
                    player=player,
                    n=n_cards(left, "card"),
                    note=note,
                ),
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
        raise GameError(Text("tgus-t.error.leftover-player", got=quote(player)))
    if not o.leftover_draw:
        return _leftover_info(
            game, ev, Text("tgus-t.leftover.none", prefix=preset(game.prefix))
        )
    shown = ev.get("cards")
    if shown is not None and any(c.is_number for c in parse_cards(shown)):
        return _leftover_info(
            game, ev, Text("tgus-t.leftover.shows-number", player=player)
        )
    if player in t.ranking or t.hands.get(player, 0) == 0:
        return _leftover_info(game, ev, Text("tgus-t.leftover.no-cards", player=player))
    return [
        _force(
            game,
            ev,
            player,
            o.leftover_draw,
            0,
            Text("tgus-t.leftover.pictures", player=player),
        )
    ]


def _leftover_info(game: TgusTReferee, ev: Event, text: Text) -> list[Ruling]:
    """An ``info`` ruling under the leftover rule: nothing is owed."""
    return [game.ruling(ev.index, "info", "leftover", text)]


def _force(
    game: TgusTReferee, ev: Event, player: str, count: int, penalty: int, why: Text
) -> Ruling:
    t = game.t
    before = t.stock.get(player, 0)
    text = game.owe(player, count + penalty)
    t.leftover.add(player)
    if t.stock.get(player, 0) > before:
        t.picture_stock.add(player)
        text = Text("tgus-t.leftover.picture-stock", owe=text)
    kind = "penalty" if penalty else "pending"
    rule = "leftover-penalty" if penalty else "leftover"
    return game.ruling(
        ev.index,
        kind,
        rule,
        Text("tgus-t.leftover.forced", why=why, owe=text),
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
            game, ev, Text("tgus-t.leftover.none", prefix=preset(game.prefix))
        )
    shown = ev.get("cards")
    if shown is not None and any(c.is_number for c in parse_cards(shown)):
        return _leftover_info(
            game,
            ev,
            Text("tgus-t.leftover.catch-number", player=player, target=target),
        )
    if target in t.leftover or t.hands.get(target, 0) == 0 or target in t.ranking:
        return [
            game.ruling(
                ev.index,
                "info",
                "leftover",
                Text("tgus-t.leftover.catch-moot", player=player, target=target),
            )
        ]
    penalty = o.leftover_penalty
    why = Text(
        "tgus-t.leftover.caught",
        target=target,
        player=player,
        penalty=Text("tgus-t.leftover.penalty", n=penalty) if penalty else "",
    )
    return [_force(game, ev, target, o.leftover_draw, penalty, why)]
