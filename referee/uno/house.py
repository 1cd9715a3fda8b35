"""Events of the uno family that a preset may not use, and the Shuffle Hands count.

The TGUS house rules (seed 000, :mod:`referee.uno.tgus_game`) add events:
``direction``, ``face-down``, ``doubt``, ``picture-leftover`` and ``stop``
(docs/events-tgus.md). A preset without the rule still knows the event and
says in its ruling that the rule is not used, rather than calling it unknown.
``shuffle-hands`` records how a Wild Shuffle Hands (112-card deck) was dealt.
"""

from __future__ import annotations

from ..game import GameError
from ..log import Event
from ..rulings import Ruling
from .state import Say, UnoState

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
        raise GameError("a direction must be 1, -1, 'clockwise' or "
                        f"'counter-clockwise', got {raw!r}")
    return DIRECTIONS[key]


def direction_off(s: UnoState, ev: Event, say: Say) -> list[Ruling]:
    direction_of(ev)
    return [say(ev.index, "info", "direction", "This preset does not choose the "
                "direction by rock-paper-scissors, so the direction event is ignored.")]


def face_down_player(s: UnoState, ev: Event) -> int:
    p, _ = s.who(ev, s.turn if s.phase in ("turn", "drawn") else None)
    if p is None:
        raise GameError("a face-down play needs the 'player'")
    return p


def face_down_off(s: UnoState, ev: Event, say: Say) -> list[Ruling]:
    p = face_down_player(s, ev)
    name = s.players[p]
    return [say(ev.index, "illegal", "face-down", f"This preset does not use face-down "
                f"plays, so {name} takes the card back.", player=name,
                draw=s.pending or None)]


def doubter(s: UnoState, ev: Event) -> int:
    p, _ = s.who(ev, None)
    if p is None:
        raise GameError("a doubt needs the 'player' who calls it")
    return p


def doubt_off(s: UnoState, ev: Event, say: Say) -> list[Ruling]:
    doubter(s, ev)
    return [say(ev.index, "info", "doubt", "This preset has no face-down plays, so "
                "there is nothing to doubt.")]


def reporter(s: UnoState, ev: Event) -> int:
    p, _ = s.who(ev, None)
    if p is None:
        raise GameError("a picture-leftover report needs the 'player'")
    return p


def picture_leftover_off(s: UnoState, ev: Event, say: Say) -> list[Ruling]:
    reporter(s, ev)
    return [say(ev.index, "info", "picture-leftover", "This preset has no forced draw "
                "for a hand of picture cards, so the report changes nothing.")]


def stop_off(s: UnoState, ev: Event, say: Say) -> list[Ruling]:
    return [say(ev.index, "info", "points-end", "This preset does not stop a game by "
                "points, so play goes on.")]


def on_shuffle_hands(s: UnoState, ev: Event, say: Say) -> list[Ruling]:
    """``shuffle-hands``: the hand counts a Wild Shuffle Hands dealt out."""
    counts = ev.data.get("hand_counts")
    if not isinstance(counts, dict) or not all(
            k in s.players and isinstance(v, int) and not isinstance(v, bool)
            and v >= 0 for k, v in counts.items()):
        raise GameError(f"'hand_counts' must map players to card counts, got "
                        f"{counts!r}")
    shuffled = s.top is not None and s.top.value == "wild-shuffle"
    if not shuffled or s.phase not in ("turn", "drawn"):
        return [say(ev.index, "info", "shuffle-hands", "No Wild Shuffle Hands was just "
                    "played, so the hand counts are left as they are.")]
    new = [counts.get(n, s.hand_counts[i]) for i, n in enumerate(s.players)]
    if sum(new) != sum(s.hand_counts):
        return [say(ev.index, "illegal", "shuffle-hands", f"The logged hands hold "
                    f"{sum(new)} cards but {sum(s.hand_counts)} were dealt out, so the "
                    "referee keeps its even deal; please count again.")]
    s.hand_counts = new
    shown = ", ".join(f"{n} {c}" for n, c in zip(s.players, new))
    return [say(ev.index, "ok", "shuffle-hands",
                f"The hands were dealt out as {shown}, and the referee counts them "
                "so.")]
