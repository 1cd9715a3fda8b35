"""Calls: the UNO call, the catch and its window, the colour of a wild.

Plain functions over the state and the options; each returns rulings named
through ``say`` (the game's ``ruling``). The Wild Draw Four challenge lives in
:mod:`.challenge`, reveals for scoring in :mod:`.scoring`.
"""

from __future__ import annotations

from ..cards import COLORS
from ..game import GameError
from ..log import Event
from ..rulings import Ruling
from .options import UnoOptions
from .plays import card_name
from .state import Say, UnoState

_IN_PLAY = ("turn", "drawn", "challenge")


def color_of(ev: Event) -> str | None:
    """The colour an event names, lower case, or ``None``.

    Raises:
        GameError: the colour is not one of the four.
    """
    color = ev.data.get("color")
    if color is None:
        return None
    if not isinstance(color, str) or color.lower() not in COLORS:
        raise GameError(f"colour {color!r} is not one of {', '.join(COLORS)}")
    return color.lower()


def close_windows(s: UnoState, o: UnoOptions, index: int, actor: int, played: bool,
                  say: Say) -> list[Ruling]:
    """Close the catch windows of players other than ``actor`` (rule ``uno-missed``).

    Called on a play (``played``) and, under ``catch_window='next-acts'``, on
    the current player's draw, pass or challenge. With ``referee_catches`` the
    referee applies ``uno_penalty`` itself (rule ``uno-missed``).
    """
    if not s.catchable or (not played and o.catch_window != "next-acts"):
        return []
    out = []
    act = "played" if played else "acted"
    names = s.players
    for p in [q for q in s.catchable if q != actor]:
        del s.catchable[p]
        if s.called[p] or s.hand_counts[p] != 1:
            continue
        if o.referee_catches and o.uno_penalty:
            s.owed[p] += o.uno_penalty
            out.append(say(
                index, "penalty", "uno-missed", f"{names[p]} went down to one card "
                f"without calling UNO and nobody caught it before {names[actor]} "
                f"{act}, so the referee catches it: {names[p]} draws "
                f"{o.uno_penalty}.", player=names[p], draw=o.uno_penalty))
        else:
            out.append(say(
                index, "info", "uno-missed", f"{names[p]} went down to one card "
                f"without calling UNO, and now that {names[actor]} has {act} the "
                "call can no longer be caught."))
    return out


def on_uno(s: UnoState, ev: Event, say: Say) -> list[Ruling]:
    """``uno``: a call with one card, or with two before playing down to one."""
    default = None
    if len(s.catchable) == 1:
        default = next(iter(s.catchable))
    elif s.phase in ("turn", "drawn") and s.hand_counts[s.turn] <= 2:
        default = s.turn
    p, implied = s.who(ev, default)
    if p is None:
        return [say(ev.index, "info", "uno-call",
                    "An UNO call was logged without a player and nobody is down to "
                    "one or two cards, so it is ignored.")]
    name = s.players[p]
    note = f" (taken as {name}'s call)" if implied else ""
    count = s.hand_counts[p]
    if s.phase not in _IN_PLAY:
        return [say(ev.index, "info", "uno-call",
                    f"{name} called UNO{note} while no round is being played, which "
                    "has no effect.")]
    if count not in (1, 2):
        return [say(ev.index, "info", "uno-call",
                    f"{name} called UNO{note} holding {count} cards, which has no "
                    "effect.")]
    if s.called[p]:
        return [say(ev.index, "info", "uno-call",
                    f"{name} had already called UNO{note}.")]
    s.called[p] = True
    s.uno_calls[p] += 1
    if s.catchable.pop(p, None) is not None:
        text = f"{name} called UNO{note} before anyone caught the missing call."
    elif count == 2:
        text = f"{name} called UNO{note} before playing down to one card."
    else:
        text = f"{name} called UNO{note} with one card left."
    return [say(ev.index, "ok", "uno-call", text)]


def on_catch(s: UnoState, o: UnoOptions, ev: Event, say: Say) -> list[Ruling]:
    """``catch``: a missing UNO call pointed out while its window is open."""
    catcher, _ = s.who(ev, None)
    default = next(iter(s.catchable)) if len(s.catchable) == 1 else None
    target, _ = s.who(ev, default, key="target")
    by = s.players[catcher] if catcher is not None else "someone"
    if target is None:
        return [say(ev.index, "info", "uno-missed",
                    f"{by} pointed out a missing UNO call, but no target was logged "
                    "and nobody can be caught now.")]
    name = s.players[target]
    if target == catcher:
        return [say(ev.index, "info", "uno-missed",
                    f"{name} cannot catch themselves, so nothing happens.")]
    if target in s.catchable and s.hand_counts[target] == 1:
        del s.catchable[target]
        if not o.uno_penalty:
            return [say(ev.index, "info", "uno-missed",
                        f"{name} was caught without an UNO call by {by}, but this "
                        "table's penalty is 0 cards.")]
        s.owed[target] += o.uno_penalty
        before = (f" before {s.players[s.turn]} played"
                  if s.phase in ("turn", "drawn") and s.turn != target else "")
        return [say(ev.index, "penalty", "uno-missed",
                    f"{name} went down to one card without calling UNO and was caught "
                    f"by {by}{before}: {name} draws {o.uno_penalty}.", player=name,
                    draw=o.uno_penalty)]
    if s.hand_counts[target] != 1 or s.phase not in _IN_PLAY:
        why = (f"{name} holds {s.hand_counts[target]} cards" if s.phase != "scoring"
               else "the round is already won")
        return [say(ev.index, "info", "uno-missed",
                    f"{by}'s catch has no effect: {why}.")]
    if s.called[target]:
        return [say(ev.index, "info", "uno-missed",
                    f"{name} did call UNO, so {by}'s catch has no effect.")]
    return [say(ev.index, "info", "uno-missed",
                f"Too late: {name}'s missing UNO call could only be caught until the "
                "next player had played, so there is no penalty.")]


def on_color(s: UnoState, ev: Event, say: Say) -> list[Ruling]:
    """Project event ``{"type": "color", "color": "blue"}``: a wild's colour.

    001: the player who plays the Wild names the colour, once. A colour event
    without a player is taken as theirs; one from another player, or a second
    naming, is refused and the colour named first stays.
    """
    color = color_of(ev)
    if color is None:
        raise GameError("a color event needs a 'color'")
    top = s.top
    if (top is not None and top.is_wild and s.round_winner is not None
            and s.phase in ("scoring", "setup")):
        return [say(ev.index, "info", "wild",
                    f"{color.capitalize()} is noted for the {card_name(top)} that won "
                    f"round {s.round}, but no colour is needed once the round is won, "
                    "so it changes nothing.")]
    if top is None or not top.is_wild or s.phase not in _IN_PLAY:
        return [say(ev.index, "info", "wild",
                    f"No wild card is on top, so naming {color} has no effect.")]
    owner = s.wild_player
    p, _ = s.who(ev, owner)
    if owner is not None and p != owner:
        stays = f"stays {s.color}" if s.color else "is still to be named by them"
        return [say(ev.index, "illegal", "wild",
                    f"Only {s.players[owner]}, who played the {card_name(top)}, names "
                    f"its colour, so {s.name(p)}'s {color} is refused and the colour "
                    f"{stays}.")]
    if s.color is not None:
        named = (f"{s.players[owner]} already named {s.color}" if owner is not None
                 else f"The colour {s.color} was already named")
        if color == s.color:
            return [say(ev.index, "info", "wild",
                        f"{named} for the {card_name(top)}; naming it again changes "
                        "nothing.")]
        return [say(ev.index, "illegal", "wild",
                    f"{named} for the {card_name(top)}, so naming {color} now is "
                    f"refused and the colour stays {s.color}.")]
    s.color = color
    return [say(ev.index, "ok", "wild",
                f"The colour of the {card_name(top)} is {color}.")]
