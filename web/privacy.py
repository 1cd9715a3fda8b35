"""What the table view may show of the rulings: no card the players have not seen.

The referee writes each ruling for the referee, who sees everything: the
ruling on a Wild Draw Four challenge names the card that convicts the
challenged hand, a draw's ruling may name the cards drawn. The table view
(``/table``, ``/api/public``, ``/api/rulings``, the stream without the token)
shows the same rulings with such texts re-worded from the ruling's structure
(kind, player, cards to draw), never the referee's text.

The decision uses the event a ruling answers and the game's two views, not
the rule's name (rule names differ between games and change). It is taken
once, when the event is applied (:func:`is_secret`), because a game forgets a
private reveal later and the decision must not change then:

- cards laid face up (``play``, ``start``, ``turned``) are public;
- cards shown (``reveal``, ``doubt``) are public when, right after the event,
  the public view lists that very hand (a hand laid out for scoring) or the
  event ended the round or the game (every hand is laid out), and never when
  the referee's state holds them in a part the public view leaves out (the
  challenged hand a game keeps for the challenger); otherwise they are the
  referee's (a hand shown to one player, as for a challenge);
- any other event's cards (a ``draw``'s drawn cards, a ``face-down`` card, an
  event this module does not know) are the referee's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

# Events whose cards every player sees (laid face up on the table).
FACE_UP_EVENTS = frozenset({"play", "start", "turned"})
# Events that show cards: public unless the game keeps them for the referee.
SHOWING_EVENTS = frozenset({"reveal", "doubt"})
CARD_FIELDS = ("card", "cards")
# Ruling kinds after which every hand is laid out for scoring.
ENDS = frozenset({"round-end", "game-end"})
# Ruling fields the re-worded ruling keeps (the rest may carry hidden cards).
KEPT = ("index", "event", "ruling", "rule", "player", "draw", "scores")


def event_cards(event: Any) -> list[str]:
    """The card labels an event names (``card`` and ``cards``)."""
    if not isinstance(event, Mapping):
        return []
    cards: list[str] = []
    for name in CARD_FIELDS:
        value = event.get(name)
        if isinstance(value, str):
            cards.append(value)
        elif isinstance(value, list):
            cards.extend(str(c) for c in value)
    return cards


def _strings(value: Any, found: set[str]) -> set[str]:
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, Mapping):
        for item in value.values():
            _strings(item, found)
    elif isinstance(value, (list, tuple, set)):
        for item in value:
            _strings(item, found)
    return found


def referee_only(state: Mapping[str, Any], public: Mapping[str, Any]) -> set[str]:
    """The strings in the parts of ``state`` that the public view leaves out."""
    found: set[str] = set()
    for key, value in state.items():
        if key not in public:
            _strings(value, found)
        elif public[key] != value:
            found |= _strings(value, set()) - _strings(public[key], set())
    return found


def _lists(value: Any, found: set[tuple[str, ...]]) -> set[tuple[str, ...]]:
    """Every list of strings inside ``value``, sorted (to compare hands)."""
    if isinstance(value, Mapping):
        for item in value.values():
            _lists(item, found)
    elif isinstance(value, (list, tuple)):
        if value and all(isinstance(v, str) for v in value):
            found.add(tuple(sorted(value)))
        for item in value:
            _lists(item, found)
    return found


def is_secret(
    event: Any,
    views: Callable[[], tuple[Mapping[str, Any], Mapping[str, Any]]],
    kinds: Iterable[str] = (),
) -> bool:
    """True if ``event`` names cards only the referee may see.

    ``views()`` gives the referee's state and the table's view right after the
    event was applied (called only for an event that shows cards); ``kinds``
    are the kinds of the rulings the event got (``round-end`` ...).
    """
    cards = event_cards(event)
    kind = event.get("type") if isinstance(event, Mapping) else None
    if not cards or kind in FACE_UP_EVENTS:
        return False
    if kind not in SHOWING_EVENTS:
        return True
    state, public = views()
    if set(cards) & referee_only(state, public):
        return True
    listed = tuple(sorted(cards)) in _lists(public, set())
    return not (listed or ENDS & set(kinds))


def reworded(ruling: Mapping[str, Any], event: Any) -> dict[str, Any]:
    """The ruling said from its structure alone, naming no card."""
    out = {k: ruling[k] for k in KEPT if k in ruling}
    event = event if isinstance(event, Mapping) else {}
    who = event.get("player")
    kind = event.get("type") or "event"
    first = (
        f"{who}'s {kind}: the cards stay hidden on the table view."
        if isinstance(who, str) and who
        else f"A {kind}: the cards stay hidden on the table view."
    )
    player, draw = ruling.get("player"), ruling.get("draw")
    verdict = {
        "illegal": "Not allowed",
        "penalty": "Penalty",
        "pending": "Waiting",
        "round-end": "The round ends",
        "game-end": "The game ends",
    }.get(str(ruling.get("ruling")), "")
    second = ""
    if isinstance(player, str) and isinstance(draw, int) and draw:
        second = f"{player} draws {draw}."
    elif isinstance(player, str):
        second = f"It concerns {player}."
    if verdict:
        second = f"{verdict}: {second}" if second else f"{verdict}."
    out["text"] = f"{first} {second}".strip()
    out["hidden"] = True
    return out


def public_rulings(
    rulings: Iterable[Mapping[str, Any]],
    events: Sequence[Any],
    secret: Sequence[bool],
) -> list[dict[str, Any]]:
    """``rulings`` as the table view may show them.

    ``events`` is the game's log and ``secret`` says, event by event, whether
    it names cards only the referee may see (:func:`is_secret`).
    """
    out = []
    for ruling in rulings:
        line = ruling.get("event")
        if (
            isinstance(line, int)
            and not isinstance(line, bool)
            and 1 <= line <= len(events)
            and (line > len(secret) or secret[line - 1])  # unknown: the referee's
        ):
            out.append(reworded(ruling, events[line - 1]))
        else:
            out.append(dict(ruling))
    return out


def public_change(
    change: Mapping[str, Any] | None,
    before: tuple[Sequence[Any], Sequence[bool]],
    after: tuple[Sequence[Any], Sequence[bool]],
) -> dict[str, Any] | None:
    """A correction's summary for the table view: removed rulings read against
    the log (and its secrets) ``before`` it, added ones against those ``after``."""
    if change is None:
        return None
    out = dict(change)
    out["removed"] = public_rulings(change.get("removed", []), *before)
    out["added"] = public_rulings(change.get("added", []), *after)
    return out
