"""What the table view may show of the rulings: no card the players have not seen.

The referee writes each ruling for the referee, who sees everything: the
ruling on a Wild Draw Four challenge names the card that convicts the
challenged hand, a draw's ruling may name the cards drawn. The table view
(``/table``, ``/api/public``, ``/api/rulings``, the stream without the token)
shows the same rulings with such texts re-worded from the ruling's structure
(kind, player, cards to draw), never the referee's text nor its ``msg`` (the
same sentence as data, with the same cards): the re-worded sentence is a
message of its own, so it too is said in the viewer's language.

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

from referee.text import Text, catalog, define, formatter, join

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


define({
    "web.hidden-cards": {
        "en": "{who}'s {kind}: the cards stay hidden on the table view.",
        "ja": "{who}の{kind}: テーブルビューではカードを伏せたままにします。",
    },
    "web.hidden-cards-anon": {
        "en": "A {kind}: the cards stay hidden on the table view.",
        "ja": "{kind}: テーブルビューではカードを伏せたままにします。",
    },
    "web.hidden-draws": {"en": "{player} draws {draw}.", "ja": "{player}は{draw}枚引きます。"},
    "web.hidden-concerns": {"en": "It concerns {player}.", "ja": "{player}についての裁定です。"},
    "web.hidden-verdict": {"en": "{verdict}: {rest}", "ja": "{verdict}: {rest}"},
    "web.hidden-verdict-only": {"en": "{verdict}.", "ja": "{verdict}。"},
    "web.verdict-illegal": {"en": "Not allowed", "ja": "反則"},
    "web.verdict-penalty": {"en": "Penalty", "ja": "ペナルティ"},
    "web.verdict-pending": {"en": "Waiting", "ja": "保留"},
    "web.verdict-round-end": {"en": "The round ends", "ja": "ラウンド終了"},
    "web.verdict-game-end": {"en": "The game ends", "ja": "ゲーム終了"},
})
VERDICTS = frozenset(k for k in catalog() if k.startswith("web.verdict-"))
# An event's type in a re-worded ruling (English says the type as it is).
EVENT_NAMES = {
    "ja": {
        "draw": "ドロー", "reveal": "手札公開", "doubt": "ダウト", "face-down": "伏せ札",
        "play": "プレイ", "challenge": "チャレンジ", "event": "イベント",
    },
}


@formatter("web-event")
def _event_name(args: Mapping[str, Any], lang: str) -> str:
    kind = str(args["kind"])
    return EVENT_NAMES.get(lang, {}).get(kind, kind)


def reworded(ruling: Mapping[str, Any], event: Any) -> dict[str, Any]:
    """The ruling said from its structure alone, naming no card.

    Its ``text`` (English) and its ``msg`` (the same sentence as data, so the
    table view says it in the viewer's language) are both re-worded; the
    referee's ``msg`` and every other field that may name a card are dropped.
    """
    out = {k: ruling[k] for k in KEPT if k in ruling}
    event = event if isinstance(event, Mapping) else {}
    who = event.get("player")
    kind = Text("@web-event", kind=str(event.get("type") or "event"))
    first = (
        Text("web.hidden-cards", who=who, kind=kind)
        if isinstance(who, str) and who
        else Text("web.hidden-cards-anon", kind=kind)
    )
    player, draw = ruling.get("player"), ruling.get("draw")
    verdict_key = "web.verdict-" + str(ruling.get("ruling"))
    verdict = Text(verdict_key) if verdict_key in VERDICTS else None
    second: Text | None = None
    if isinstance(player, str) and isinstance(draw, int) and draw:
        second = Text("web.hidden-draws", player=player, draw=draw)
    elif isinstance(player, str):
        second = Text("web.hidden-concerns", player=player)
    if verdict is not None:
        second = (Text("web.hidden-verdict", verdict=verdict, rest=second)
                  if second else Text("web.hidden-verdict-only", verdict=verdict))
    sentence = join(first, second) if second else first
    out["text"] = sentence
    out["msg"] = sentence.data()
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
