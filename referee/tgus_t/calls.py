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

from . import draws
from .context import TgusTReferee


def on_uno(game: TgusTReferee, ev: Event) -> list[Ruling]:
    """The name call made instead of "UNO" (event ``uno``, or ``call``)."""
    t = game.t
    player = ev.get("player")
    if player not in game.players:
        raise GameError(f"a call needs a player, got {player!r}")
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
                f"{player} called a plain UNO, but {game.prefix} needs a "
                "character's name, so it does not count: call again with "
                "a name.",
            )
        ]
    if t.hands.get(player, 0) > 2:
        return [
            game.ruling(
                ev.index,
                "info",
                "uno-call",
                f"{player} called with {t.hands[player]} cards; a call "
                "only counts at two cards or fewer.",
            )
        ]
    t.called.add(player)
    if t.exposed == player:
        t.exposed = None
    said = "UNO" if plain else name.strip()
    return [
        game.ruling(
            ev.index, "ok", "uno-call", f"{player} called {said!r} in time."
        )
    ]


def on_catch(game: TgusTReferee, ev: Event) -> list[Ruling]:
    """A missing name call (default) or a missed forced leftover draw (``for``)."""
    t = game.t
    player, target = ev.get("player"), ev.get("target")
    if player not in game.players or target not in game.players:
        raise GameError(
            f"a catch needs a player and a target, got {player!r}, {target!r}"
        )
    if ev.get("for") == "leftover":
        return draws.catch_leftover(game, ev, player, target)
    if t.exposed != target:
        why = (
            "has already gone out"
            if target in t.ranking
            else "has called"
            if target in t.called
            else "does not hold one card"
            if t.hands.get(target) != 1
            else "can no longer be caught: the next player has already acted"
        )
        return [
            game.ruling(
                ev.index,
                "info",
                "uno-missed",
                f"{player}'s catch fails: {target} {why}.",
            )
        ]
    t.exposed = None
    text = game.owe(target, game.opts.uno_penalty)
    why = " (000 gives no count; 2 is 001's official one)" * (
        game.opts.uno_penalty == 2
    )
    return [
        game.ruling(
            ev.index,
            "penalty",
            "uno-missed",
            f"{target} held one card without calling a name and was caught "
            f"by {player}: {text}{why}.",
            player=target,
            draw=game.opts.uno_penalty,
        )
    ]
