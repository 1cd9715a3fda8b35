"""Events of the uno family that a preset may not use, and the Shuffle Hands count.

The TGUS house rules (seed 000, :mod:`referee.uno.tgus_game`) add events:
``direction``, ``face-down``, ``doubt``, ``picture-leftover`` and ``stop``
(docs/events-tgus.md). A preset without the rule still knows the event and
says in its ruling that the rule is not used, rather than calling it unknown.
``shuffle-hands`` records how a Wild Shuffle Hands (112-card deck) was dealt.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..game import GameError
from ..log import Event
from ..rulings import Ruling
from ..text import Text, define, formatter
from .state import Say, UnoState

define({
    "uno.bad-direction": {
        "en": "a direction must be 1, -1, 'clockwise' or 'counter-clockwise', got {got}",
        "ja": "方向は 1、-1、'clockwise'、'counter-clockwise' のいずれかです（{got}）",
    },
    "uno.face-down-needs-player": {
        "en": "a face-down play needs the 'player'",
        "ja": "裏向きで出す記録には 'player' が必要です",
    },
    "uno.doubt-needs-player": {
        "en": "a doubt needs the 'player' who calls it",
        "ja": "ダウトの記録には宣言した 'player' が必要です",
    },
    "uno.leftover-needs-player": {
        "en": "a picture-leftover report needs the 'player'",
        "ja": "絵札残りの申告には 'player' が必要です",
    },
    "uno.bad-hand-counts": {
        "en": "'hand_counts' must map players to card counts, got {got}",
        "ja": "'hand_counts' はプレイヤーごとの枚数でなければなりません（{got}）",
    },
})

define({
    "uno.direction-off": {
        "en": "This preset does not choose the direction by rock-paper-scissors, so "
              "the direction event is ignored.",
        "ja": "このプリセットではじゃんけんで向きを決めないので、向きの記録は無視します。"},
    "uno.face-down-off": {
        "en": "This preset does not use face-down plays, so {player} takes the card "
              "back.",
        "ja": "このプリセットではカードを伏せて出さないので、{player}はカードを戻します。"},
    "uno.doubt-off": {
        "en": "This preset has no face-down plays, so there is nothing to doubt.",
        "ja": "このプリセットには伏せて出すカードがないので、ダウトするものはありません。"},
    "uno.picture-leftover-off": {
        "en": "This preset has no forced draw for a hand of picture cards, so the "
              "report changes nothing.",
        "ja": "このプリセットには絵札だけの手札で引く決まりがないので、報告しても何も"
              "変わりません。"},
    "uno.stop-off": {
        "en": "This preset does not stop a game by points, so play goes on.",
        "ja": "このプリセットは点数でゲームを終えないので、そのまま続けます。"},
    "uno.shuffle-none": {
        "en": "No Wild Shuffle Hands was just played, so the hand counts are left as "
              "they are.",
        "ja": "シャッフルワイルドが出された直後ではないので、手札の枚数はそのままです。"},
    "uno.shuffle-miscount": {
        "en": "The logged hands hold {logged} cards but {dealt} were dealt out, so the "
              "referee keeps its even deal; please count again.",
        "ja": ("記録された手札は合わせて{logged}枚ですが、"
               "配られたのは{dealt}枚なので、審判は均等に配った枚数のままにし、"
               "数え直してください。")},
    "uno.shuffle-dealt": {
        "en": "The hands were dealt out as {hands}, and the referee counts them so.",
        "ja": "手札は{hands}と配られたので、審判はそのように数えます。"},
})


@formatter("uno-hands")
def _hands(args: Mapping[str, Any], lang: str) -> str:
    """Players' hand counts: ``P1 5, P2 4``; ``P1 5枚、P2 4枚``."""
    pairs = zip(args["players"], args["counts"])
    if lang == "ja":
        return "、".join(f"{n} {c}枚" for n, c in pairs)
    return ", ".join(f"{n} {c}" for n, c in pairs)


DIRECTIONS = {1: 1, -1: -1, "clockwise": 1, "counter-clockwise": -1,
              "counterclockwise": -1, "cw": 1, "ccw": -1}


def direction_of(ev: Event) -> int:
    """The direction a ``direction`` event names (1 clockwise, -1 counter).

    Raises:
        GameError: not a direction.
    """
    raw = ev.data.get("direction")
    key = raw.lower() if isinstance(raw, str) else raw
    if isinstance(raw, bool) or key not in DIRECTIONS:
        raise GameError(Text("uno.bad-direction", got=repr(raw)))
    return DIRECTIONS[key]


def direction_off(s: UnoState, ev: Event, say: Say) -> list[Ruling]:
    direction_of(ev)
    return [say(ev.index, "info", "direction", Text("uno.direction-off"))]


def face_down_player(s: UnoState, ev: Event) -> int:
    p, _ = s.who(ev, s.turn if s.phase in ("turn", "drawn") else None)
    if p is None:
        raise GameError(Text("uno.face-down-needs-player"))
    return p


def face_down_off(s: UnoState, ev: Event, say: Say) -> list[Ruling]:
    p = face_down_player(s, ev)
    name = s.players[p]
    return [say(ev.index, "illegal", "face-down",
                Text("uno.face-down-off", player=name), player=name,
                draw=s.pending or None)]


def doubter(s: UnoState, ev: Event) -> int:
    p, _ = s.who(ev, None)
    if p is None:
        raise GameError(Text("uno.doubt-needs-player"))
    return p


def doubt_off(s: UnoState, ev: Event, say: Say) -> list[Ruling]:
    doubter(s, ev)
    return [say(ev.index, "info", "doubt", Text("uno.doubt-off"))]


def reporter(s: UnoState, ev: Event) -> int:
    p, _ = s.who(ev, None)
    if p is None:
        raise GameError(Text("uno.leftover-needs-player"))
    return p


def picture_leftover_off(s: UnoState, ev: Event, say: Say) -> list[Ruling]:
    reporter(s, ev)
    return [say(ev.index, "info", "picture-leftover", Text("uno.picture-leftover-off"))]


def stop_off(s: UnoState, ev: Event, say: Say) -> list[Ruling]:
    return [say(ev.index, "info", "points-end", Text("uno.stop-off"))]


def on_shuffle_hands(s: UnoState, ev: Event, say: Say) -> list[Ruling]:
    """``shuffle-hands``: the hand counts a Wild Shuffle Hands dealt out."""
    counts = ev.data.get("hand_counts")
    if not isinstance(counts, dict) or not all(
            k in s.players and isinstance(v, int) and not isinstance(v, bool)
            and v >= 0 for k, v in counts.items()):
        raise GameError(Text("uno.bad-hand-counts", got=repr(counts)))
    shuffled = s.top is not None and s.top.value == "wild-shuffle"
    if not shuffled or s.phase not in ("turn", "drawn"):
        return [say(ev.index, "info", "shuffle-hands", Text("uno.shuffle-none"))]
    new = [counts.get(n, s.hand_counts[i]) for i, n in enumerate(s.players)]
    if sum(new) != sum(s.hand_counts):
        return [say(ev.index, "illegal", "shuffle-hands",
                    Text("uno.shuffle-miscount", logged=sum(new),
                         dealt=sum(s.hand_counts)))]
    s.hand_counts = new
    shown = Text("@uno-hands", players=list(s.players), counts=list(new))
    return [say(ev.index, "ok", "shuffle-hands",
                Text("uno.shuffle-dealt", hands=shown))]
