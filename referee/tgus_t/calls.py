"""The calls of the tgus-t game: the name called instead of "UNO", and the catch.

000 §T1: a player down to one card calls a character's name (tgus-t1 also
takes a plain "UNO"); a player who did not is caught by another before the
next player acts and draws the UNO penalty (``uno_penalty``). A catch ``for``
a leftover is the missed forced draw of :func:`.draws.catch_leftover`.
Functions take the game (:class:`.context.TgusTReferee`) as first argument;
the game binds them as methods.
"""

from __future__ import annotations

from referee.game import GameError
from referee.log import Event
from referee.rulings import Ruling
from referee.text import Text, define

from . import draws
from .cards import quote
from .common import preset
from .context import TgusTReferee

define({
    "tgus-t.error.call-player": {
        "en": "a call needs a player, got {got}",
        "ja": "宣言にはプレイヤーが必要ですが、{got}でした",
    },
    "tgus-t.error.catch": {
        "en": "a catch needs a player and a target, got {player}, {target}",
        "ja": "指摘にはプレイヤーと対象が必要ですが、{player}と{target}でした",
    },
    "tgus-t.call.plain": {
        "en": "{player} called a plain UNO, but {prefix} needs a character's name, "
              "so it does not count: call again with a name.",
        "ja": ("{player}はただの「ウノ」を宣言しましたが、"
               "{prefix}ではキャラクターの名前が必要で無効なので、"
               "名前で宣言し直してください。"),
    },
    "tgus-t.call.early": {
        "en": "{player} called with {n} cards; a call only counts at two cards "
              "or fewer.",
        "ja": ("{player}は手札{n}枚で宣言しましたが、"
               "宣言は手札2枚以下のときだけ有効です。"),
    },
    "tgus-t.call.ok": {
        "en": "{player} called {said} in time.",
        "ja": "{player}は{said}と宣言し、間に合っています。",
    },
    "tgus-t.uno": {"en": "UNO", "ja": "ウノ"},
    "tgus-t.catch.fails": {
        "en": "{player}'s catch fails: {target} {why}.",
        "ja": "{player}の指摘は不成立で、{target}{why}。",
    },
    "tgus-t.catch.gone-out": {
        "en": "has already gone out",
        "ja": "はもう上がっています",
    },
    "tgus-t.catch.called": {
        "en": "has called",
        "ja": "は宣言済みです",
    },
    "tgus-t.catch.not-one": {
        "en": "does not hold one card",
        "ja": "の手札は1枚ではありません",
    },
    "tgus-t.catch.late": {
        "en": "can no longer be caught: the next player has already acted",
        "ja": "はもう指摘できず、次のプレイヤーがすでに動きました",
    },
    "tgus-t.catch.penalty": {
        "en": "{target} held one card without calling a name and was caught by "
              "{player}: {owe}{why}.",
        "ja": ("{target}は名前を宣言しないまま1枚になっていて、{player}に指摘され、"
               "{owe}{why}。"),
    },
    "tgus-t.catch.count": {
        "en": " (000 gives no count; 2 is 001's official one)",
        "ja": "（000には枚数がないため、001の公式ルールの2枚です）",
    },
})


def on_uno(game: TgusTReferee, ev: Event) -> list[Ruling]:
    """The name call made instead of "UNO" (event ``uno``, or ``call``)."""
    t = game.t
    player = ev.get("player")
    if player not in game.players:
        raise GameError(Text("tgus-t.error.call-player", got=quote(player)))
    name = ev.get("name")
    plain = (
        not isinstance(name, str)
        or not name.strip()
        or name.strip().lower() == "uno"
    )
    if plain and not game.opts.plain_uno:
        return [
            game.ruling(
                ev.index,
                "illegal",
                "uno-call",
                Text("tgus-t.call.plain", player=player, prefix=preset(game.prefix)),
            )
        ]
    if t.hands.get(player, 0) > 2:
        return [
            game.ruling(
                ev.index,
                "info",
                "uno-call",
                Text("tgus-t.call.early", player=player, n=t.hands[player]),
            )
        ]
    t.called.add(player)
    if t.exposed == player:
        t.exposed = None
    said = quote(Text("tgus-t.uno") if plain else name.strip())
    return [
        game.ruling(
            ev.index,
            "ok",
            "uno-call",
            Text("tgus-t.call.ok", player=player, said=said),
        )
    ]


def on_catch(game: TgusTReferee, ev: Event) -> list[Ruling]:
    """A missing name call (default) or a missed forced leftover draw (``for``)."""
    t = game.t
    player, target = ev.get("player"), ev.get("target")
    if player not in game.players or target not in game.players:
        raise GameError(
            Text("tgus-t.error.catch", player=quote(player), target=quote(target))
        )
    if ev.get("for") == "leftover":
        return draws.catch_leftover(game, ev, player, target)
    if t.exposed != target:
        why = Text(
            "tgus-t.catch.gone-out"
            if target in t.ranking
            else "tgus-t.catch.called"
            if target in t.called
            else "tgus-t.catch.not-one"
            if t.hands.get(target) != 1
            else "tgus-t.catch.late"
        )
        return [
            game.ruling(
                ev.index,
                "info",
                "uno-missed",
                Text("tgus-t.catch.fails", player=player, target=target, why=why),
            )
        ]
    t.exposed = None
    text = game.owe(target, game.opts.uno_penalty)
    why = Text("tgus-t.catch.count") if game.opts.uno_penalty == 2 else ""
    return [
        game.ruling(
            ev.index,
            "penalty",
            "uno-missed",
            Text(
                "tgus-t.catch.penalty", target=target, player=player, owe=text, why=why
            ),
            player=target,
            draw=game.opts.uno_penalty,
        )
    ]
