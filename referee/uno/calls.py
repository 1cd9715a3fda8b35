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
from ..text import Text, cap, color as colour_name, define
from .options import UnoOptions
from .plays import card_name
from .state import Say, UnoState

define({
    "uno.bad-colour": {
        "en": 'colour {got} is not one of {colours}',
        "ja": '色 {got} は {colours} のいずれでもありません',
    },
    "uno.color-needs-color": {
        "en": "a color event needs a 'color'",
        "ja": "色の記録には 'color' が必要です",
    },
})

define({
    "uno.someone": {"en": "someone", "ja": "誰か"},
    # the catch window closes (close_windows)
    "uno.missed-referee-played": {
        "en": "{player} went down to one card without calling UNO and nobody caught "
              "it before {actor} played, so the referee catches it: {player} draws "
              "{n}.",
        "ja": ("{player}はウノと言わずに残り1枚になり、"
               "{actor}がカードを出すまで誰も指摘しなかったので、審判が指摘し、"
               "{player}は{n}枚引きます。")},
    "uno.missed-referee-acted": {
        "en": "{player} went down to one card without calling UNO and nobody caught "
              "it before {actor} acted, so the referee catches it: {player} draws "
              "{n}.",
        "ja": ("{player}はウノと言わずに残り1枚になり、"
               "{actor}が動くまで誰も指摘しなかったので、審判が指摘し、"
               "{player}は{n}枚引きます。")},
    "uno.missed-closed-played": {
        "en": "{player} went down to one card without calling UNO, and now that "
              "{actor} has played the call can no longer be caught.",
        "ja": "{player}はウノと言わずに残り1枚になりましたが、{actor}がカードを"
              "出したので、もう指摘できません。"},
    "uno.missed-closed-acted": {
        "en": "{player} went down to one card without calling UNO, and now that "
              "{actor} has acted the call can no longer be caught.",
        "ja": "{player}はウノと言わずに残り1枚になりましたが、{actor}が動いたので、"
              "もう指摘できません。"},
    # the UNO call (on_uno)
    "uno.call-nobody": {
        "en": "An UNO call was logged without a player and nobody is down to one or "
              "two cards, so it is ignored.",
        "ja": "誰のウノか記録されておらず、残り1枚か2枚の人もいないので、無視します。"},
    "uno.call-taken-as": {"en": " (taken as {player}'s call)",
                          "ja": "（{player}の宣言とみなします）"},
    "uno.call-no-round": {
        "en": "{player} called UNO{note} while no round is being played, which has no "
              "effect.",
        "ja": "{player}がウノと言いました{note}が、ラウンド中ではないので効果はありません。"},
    "uno.call-holding": {
        "en": "{player} called UNO{note} holding {n} cards, which has no effect.",
        "ja": "{player}がウノと言いました{note}が、手札が{n}枚なので効果はありません。"},
    "uno.call-again": {
        "en": "{player} had already called UNO{note}.",
        "ja": "{player}はすでにウノと言っています{note}。"},
    "uno.call-before-caught": {
        "en": "{player} called UNO{note} before anyone caught the missing call.",
        "ja": "{player}は指摘される前にウノと言いました{note}。"},
    "uno.call-two": {
        "en": "{player} called UNO{note} before playing down to one card.",
        "ja": "{player}は残り1枚になる前にウノと言いました{note}。"},
    "uno.call-one": {
        "en": "{player} called UNO{note} with one card left.",
        "ja": "{player}は残り1枚でウノと言いました{note}。"},
    # the catch (on_catch)
    "uno.catch-no-target": {
        "en": "{by} pointed out a missing UNO call, but no target was logged and "
              "nobody can be caught now.",
        "ja": "{by}がウノの言い忘れを指摘しましたが、相手が記録されておらず、"
              "今指摘できる人もいません。"},
    "uno.catch-self": {
        "en": "{player} cannot catch themselves, so nothing happens.",
        "ja": "{player}は自分を指摘できないので、何も起きません。"},
    "uno.catch-no-penalty": {
        "en": "{player} was caught without an UNO call by {by}, but this table's "
              "penalty is 0 cards.",
        "ja": "{player}はウノの言い忘れを{by}に指摘されましたが、このテーブルの"
              "ペナルティは0枚です。"},
    "uno.catch-before": {"en": " before {turn} played",
                         "ja": "{turn}がカードを出す前に"},
    "uno.caught": {
        "en": "{player} went down to one card without calling UNO and was caught by "
              "{by}{before}: {player} draws {n}.",
        "ja": ("{player}はウノと言わずに残り1枚になり、{before}{by}に指摘され、"
               "{player}は{n}枚引きます。")},
    "uno.catch-holds": {"en": "{player} holds {n} cards",
                        "ja": "{player}の手札は{n}枚です"},
    "uno.catch-round-won": {"en": "the round is already won",
                            "ja": "ラウンドはもう勝負がついています"},
    "uno.catch-no-effect": {
        "en": "{by}'s catch has no effect: {why}.",
        "ja": "{by}の指摘は無効で、{why}。"},
    "uno.catch-did-call": {
        "en": "{player} did call UNO, so {by}'s catch has no effect.",
        "ja": "{player}はウノと言っているので、{by}の指摘は無効です。"},
    "uno.catch-too-late": {
        "en": "Too late: {player}'s missing UNO call could only be caught until the "
              "next player had played, so there is no penalty.",
        "ja": ("指摘が遅すぎ、{player}のウノの言い忘れは次の人がカードを出すまでしか"
               "指摘できないので、ペナルティはありません。")},
    # the colour of a wild (on_color)
    "uno.color-round-won": {
        "en": "{color} is noted for the {card} that won round {round}, but no colour "
              "is needed once the round is won, so it changes nothing.",
        "ja": "ラウンド{round}を決めた{card}に{color}と記録されましたが、勝負がついた"
              "ラウンドに色は要らないので、何も変わりません。"},
    "uno.color-no-wild": {
        "en": "No wild card is on top, so naming {color} has no effect.",
        "ja": "場の一番上がワイルドカードではないので、{color}の指定は無効です。"},
    "uno.color-stays": {"en": "stays {color}", "ja": "{color}のままです"},
    "uno.color-unnamed": {"en": "is still to be named by them",
                          "ja": "まだその人が決めます"},
    "uno.color-not-yours": {
        "en": "Only {owner}, who played the {card}, names its colour, so {player}'s "
              "{color} is refused and the colour {stays}.",
        "ja": "色を決めるのは{card}を出した{owner}だけなので、{player}の{color}は"
              "認められず、色は{stays}。"},
    "uno.color-named-by": {
        "en": "{owner} already named {color} for the {card}",
        "ja": "{owner}はすでに{card}の色を{color}に決めています"},
    "uno.color-named": {
        "en": "The colour {color} was already named for the {card}",
        "ja": "{card}の色はすでに{color}に決まっています"},
    "uno.color-again": {
        "en": "{named}; naming it again changes nothing.",
        "ja": "{named!c}、もう一度決めても何も変わりません。"},
    "uno.color-refused": {
        "en": "{named}, so naming {color} now is refused and the colour stays "
              "{current}.",
        "ja": "{named!c}、今{color}を指定しても認められず、色は{current}のままです。"},
    "uno.color-named-now": {
        "en": "The colour of the {card} is {color}.",
        "ja": "{card}の色は{color}です。"},
})

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
        raise GameError(Text("uno.bad-colour", got=repr(color), colours=", ".join(COLORS)))
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
    names = s.players
    for p in [q for q in s.catchable if q != actor]:
        del s.catchable[p]
        if s.called[p] or s.hand_counts[p] != 1:
            continue
        if o.referee_catches and o.uno_penalty:
            s.owed[p] += o.uno_penalty
            out.append(say(
                index, "penalty", "uno-missed",
                Text("uno.missed-referee-played" if played
                     else "uno.missed-referee-acted", player=names[p],
                     actor=names[actor], n=o.uno_penalty),
                player=names[p], draw=o.uno_penalty))
        else:
            out.append(say(
                index, "info", "uno-missed",
                Text("uno.missed-closed-played" if played
                     else "uno.missed-closed-acted", player=names[p],
                     actor=names[actor])))
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
        return [say(ev.index, "info", "uno-call", Text("uno.call-nobody"))]
    name = s.players[p]
    note = Text("uno.call-taken-as", player=name) if implied else ""
    count = s.hand_counts[p]
    if s.phase not in _IN_PLAY:
        return [say(ev.index, "info", "uno-call",
                    Text("uno.call-no-round", player=name, note=note))]
    if count not in (1, 2):
        return [say(ev.index, "info", "uno-call",
                    Text("uno.call-holding", player=name, note=note, n=count))]
    if s.called[p]:
        return [say(ev.index, "info", "uno-call",
                    Text("uno.call-again", player=name, note=note))]
    s.called[p] = True
    s.uno_calls[p] += 1
    if s.catchable.pop(p, None) is not None:
        key = "uno.call-before-caught"
    elif count == 2:
        key = "uno.call-two"
    else:
        key = "uno.call-one"
    return [say(ev.index, "ok", "uno-call", Text(key, player=name, note=note))]


def on_catch(s: UnoState, o: UnoOptions, ev: Event, say: Say) -> list[Ruling]:
    """``catch``: a missing UNO call pointed out while its window is open."""
    catcher, _ = s.who(ev, None)
    default = next(iter(s.catchable)) if len(s.catchable) == 1 else None
    target, _ = s.who(ev, default, key="target")
    by = s.players[catcher] if catcher is not None else Text("uno.someone")
    if target is None:
        return [say(ev.index, "info", "uno-missed",
                    Text("uno.catch-no-target", by=by))]
    name = s.players[target]
    if target == catcher:
        return [say(ev.index, "info", "uno-missed",
                    Text("uno.catch-self", player=name))]
    if target in s.catchable and s.hand_counts[target] == 1:
        del s.catchable[target]
        if not o.uno_penalty:
            return [say(ev.index, "info", "uno-missed",
                        Text("uno.catch-no-penalty", player=name, by=by))]
        s.owed[target] += o.uno_penalty
        before = (Text("uno.catch-before", turn=s.players[s.turn])
                  if s.phase in ("turn", "drawn") and s.turn != target else "")
        return [say(ev.index, "penalty", "uno-missed",
                    Text("uno.caught", player=name, by=by, before=before,
                         n=o.uno_penalty), player=name, draw=o.uno_penalty)]
    if s.hand_counts[target] != 1 or s.phase not in _IN_PLAY:
        why = (Text("uno.catch-holds", player=name, n=s.hand_counts[target])
               if s.phase != "scoring" else Text("uno.catch-round-won"))
        return [say(ev.index, "info", "uno-missed",
                    Text("uno.catch-no-effect", by=by, why=why))]
    if s.called[target]:
        return [say(ev.index, "info", "uno-missed",
                    Text("uno.catch-did-call", player=name, by=by))]
    return [say(ev.index, "info", "uno-missed",
                Text("uno.catch-too-late", player=name))]


def on_color(s: UnoState, ev: Event, say: Say) -> list[Ruling]:
    """Project event ``{"type": "color", "color": "blue"}``: a wild's colour.

    001: the player who plays the Wild names the colour, once. A colour event
    without a player is taken as theirs; one from another player, or a second
    naming, is refused and the colour named first stays.
    """
    color = color_of(ev)
    if color is None:
        raise GameError(Text("uno.color-needs-color"))
    top = s.top
    if (top is not None and top.is_wild and s.round_winner is not None
            and s.phase in ("scoring", "setup")):
        return [say(ev.index, "info", "wild",
                    Text("uno.color-round-won", color=cap(colour_name(color)),
                         card=card_name(top), round=s.round))]
    if top is None or not top.is_wild or s.phase not in _IN_PLAY:
        return [say(ev.index, "info", "wild",
                    Text("uno.color-no-wild", color=colour_name(color)))]
    owner = s.wild_player
    p, _ = s.who(ev, owner)
    if owner is not None and p != owner:
        stays = (Text("uno.color-stays", color=colour_name(s.color)) if s.color
                 else Text("uno.color-unnamed"))
        return [say(ev.index, "illegal", "wild",
                    Text("uno.color-not-yours", owner=s.players[owner],
                         card=card_name(top), player=str(s.name(p)),
                         color=colour_name(color), stays=stays))]
    if s.color is not None:
        named = (Text("uno.color-named-by", owner=s.players[owner],
                      color=colour_name(s.color), card=card_name(top))
                 if owner is not None
                 else Text("uno.color-named", color=colour_name(s.color),
                           card=card_name(top)))
        if color == s.color:
            return [say(ev.index, "info", "wild", Text("uno.color-again", named=named))]
        return [say(ev.index, "illegal", "wild",
                    Text("uno.color-refused", named=named, color=colour_name(color),
                         current=colour_name(s.color)))]
    s.color = color
    return [say(ev.index, "ok", "wild",
                Text("uno.color-named-now", card=card_name(top),
                     color=colour_name(color)))]
