"""What the table view may show of the rulings: no card the players have not seen.

The referee writes each ruling for the referee, who sees everything: the
ruling on a Wild Draw Four challenge names the card that convicts the
challenged hand, a draw's ruling may name the cards drawn. The table view
(``/table``, ``/api/public``, ``/api/rulings``, the stream without the token)
shows the same rulings with such texts re-worded from the ruling's structure
(kind, player, cards to draw), never the referee's text.

The decision uses the event a ruling answers, not the rule's name (rule names
differ between games and change): an event that carries cards (``card`` or
``cards``) and is not one that lays them face up on the table (a play, the
first card, cards turned from the pile) shows them to the referee only, unless
the public view itself lists the same cards (a hand laid out for scoring).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

# Events whose cards every player sees (laid face up on the table).
FACE_UP_EVENTS = frozenset({"play", "start", "turned"})
CARD_FIELDS = ("card", "cards")
# Ruling fields the re-worded ruling keeps (the rest may carry hidden cards).
KEPT = ("index", "event", "ruling", "rule", "player", "draw", "scores")


def hidden_cards(event: Any) -> list[str]:
    """The card labels ``event`` shows to the referee only (empty if none)."""
    if not isinstance(event, Mapping) or event.get("type") in FACE_UP_EVENTS:
        return []
    cards: list[str] = []
    for name in CARD_FIELDS:
        value = event.get(name)
        if isinstance(value, str):
            cards.append(value)
        elif isinstance(value, list):
            cards.extend(str(c) for c in value)
    return cards


def _card_lists(value: Any, found: set[tuple[str, ...]]) -> set[tuple[str, ...]]:
    """Every list of strings inside ``value``, sorted (to compare hands)."""
    if isinstance(value, Mapping):
        for item in value.values():
            _card_lists(item, found)
    elif isinstance(value, (list, tuple)):
        if value and all(isinstance(v, str) for v in value):
            found.add(tuple(sorted(value)))
        for item in value:
            _card_lists(item, found)
    return found


def _event_of(ruling: Mapping[str, Any], events: Sequence[Any]) -> Any:
    line = ruling.get("event")
    if isinstance(line, int) and not isinstance(line, bool) and 1 <= line <= len(events):
        return events[line - 1]
    return None


def reworded(ruling: Mapping[str, Any], event: Mapping[str, Any]) -> dict[str, Any]:
    """The ruling said from its structure alone, naming no card."""
    out = {k: ruling[k] for k in KEPT if k in ruling}
    who = event.get("player")
    kind = event.get("type")
    first = (
        f"{who}'s {kind}: the cards are shown to the referee only."
        if isinstance(who, str) and who
        else f"A {kind}: the cards are shown to the referee only."
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
    public_state: Mapping[str, Any] | Callable[[], Mapping[str, Any]],
) -> list[dict[str, Any]]:
    """``rulings`` as the table view may show them (``events``: the game's log).

    ``public_state`` is the game's public view (or a function returning it,
    called only when a ruling answers an event with hidden cards).
    """
    shown: set[tuple[str, ...]] | None = None
    out = []
    for ruling in rulings:
        event = _event_of(ruling, events)
        cards = hidden_cards(event)
        if cards:
            if shown is None:
                state = public_state() if callable(public_state) else public_state
                shown = _card_lists(state, set())
            if tuple(sorted(cards)) not in shown:
                out.append(reworded(ruling, event))
                continue
        out.append(dict(ruling))
    return out


def public_change(
    change: Mapping[str, Any] | None,
    before: Sequence[Any],
    after: Sequence[Any],
    public_state: Mapping[str, Any] | Callable[[], Mapping[str, Any]],
) -> dict[str, Any] | None:
    """A correction's summary for the table view: removed rulings read against
    the log ``before`` it, added ones against the log ``after``."""
    if change is None:
        return None
    out = dict(change)
    out["removed"] = public_rulings(change.get("removed", []), before, public_state)
    out["added"] = public_rulings(change.get("added", []), after, public_state)
    return out
