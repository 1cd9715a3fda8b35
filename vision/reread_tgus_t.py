"""tgus-t: a camera event read otherwise, the events after it completed again.

An amendment of one log line (:func:`vision.handsfree_tgus_t.amendment`)
cannot explain a misreading whose completion shaped the lines after it: a
Gamble said to be a Hit+? turns cards that the completion took for plays, a
Change aimed at another seat makes that seat name the colour. The table keeps
the camera's events as they came (``camera``) and reads them again from the
start, each through a fresh completion and referee as the table itself does
(:func:`reread`), with one of them read otherwise: a Gamble given an effect
(and a Change's or Replace's target), a Change's or Replace's target another
seat, or a card of its value hidden under a play. :func:`camera_amendment`
tries these, the latest camera event first, among the last
``play.reread_back`` camera events, and keeps the first under which no line
from that event's on is ruled illegal.
"""

from __future__ import annotations

from typing import Any, Mapping

from referee.text import Text, define

from .config import PlayConfig
from .handsfree import HandsFree
from .handsfree_common import COLOURS
from .handsfree_tgus_t import _card_text, amend_hidden

define({
    "camera.tgus-t.amended-target": {
        "en": "a later play is legal only if the {card} aimed at {target}",
        "ja": "後のプレイは{card}の対象が{target}だった場合だけ正しいため、そうしました",
    },
})


def reread(header: Mapping[str, Any], camera: list[Mapping[str, Any]],
           changes: Mapping[int, Mapping[str, Any] | None] | None = None,
           config: PlayConfig | None = None) -> tuple[Any, Any, list[int]]:
    """The camera events ``camera`` read again from the start as a table reads
    them (a :class:`vision.handsfree.HandsFree` completion, each line ruled
    illegal amended by :func:`amend_hidden`), camera event ``k`` replaced by
    ``changes[k]`` (``None``: left out). Returns (referee, completion, the
    referee's line count before each camera event)."""
    referee, complete, starts, _ = _read(header, camera, changes, config)
    return referee, complete, starts


def _read(header: Mapping[str, Any], camera: list[Mapping[str, Any]],
          changes: Mapping[int, Mapping[str, Any] | None] | None,
          config: PlayConfig | None, keep: frozenset[int] = frozenset(),
          start: tuple[int, Any] | None = None
          ) -> tuple[Any, Any, list[int], dict[int, Any]]:
    """:func:`reread`, keeping a copy of the (referee, completion) before each
    camera event of ``keep``; from ``start``, (k, such a copy), it reads on
    from camera event ``k`` (the reading up to it is the same). Also returns
    the copies."""
    import copy

    from referee.session import Referee

    changes = changes or {}
    if start is None:
        first = 0
        referee = Referee(dict(header))
        complete = HandsFree(state=referee.state)
    else:  # the completion reads the copied referee (one deep copy)
        first, (referee, complete) = start[0], copy.deepcopy(start[1])
    starts: list[int] = []
    kept: dict[int, Any] = {}
    for k in range(first, len(camera)):
        event = camera[k]
        if k in keep:
            kept[k] = copy.deepcopy((referee, complete))
        starts.append(len(referee.events))
        ev = changes.get(k, event) if k in changes else event
        if ev is None:
            continue
        feed = [dict(ev)] if ev.get("type") == "start" else complete(ev, referee.state)
        for e in feed:
            try:
                referee.append(e)
            except Exception:  # noqa: BLE001 - a malformed event: the game goes on
                continue
            amend_hidden(referee, config)
    return referee, complete, starts, kept


def _illegal_from(referee: Any, line: int) -> bool:
    return any(r.event > line and r.ruling == "illegal" for r in referee.rulings)


def _readings(event: Mapping[str, Any], players: list[str]
              ) -> list[tuple[dict[str, Any], Text]]:
    """The other readings of one camera event, each with its reason."""
    from referee.cards import Card
    from referee.tgus_t.cards import GAMBLE_EFFECTS
    from referee.tgus_t.common import DECK_LABELS

    if event.get("type") != "play":
        return []
    cards = [str(c) for c in event.get("cards") or []]
    seat = event.get("player") or event.get("reach_from")
    others = [p for p in players if p != seat]
    out: list[tuple[dict[str, Any], Text]] = []
    if cards == ["gamble"] and "effect" not in event:
        for effect in GAMBLE_EFFECTS:
            if effect in ("wild", "counter"):
                continue
            for target in (others if effect in ("change", "replace") else [None]):
                why = Text("camera.tgus-t.amended-gamble", player=str(seat),
                           effect=effect)
                ev = {**event, "effect": effect}
                if target is not None:
                    ev["target"] = target
                out.append((ev, why))
    if any(c in ("change", "replace") for c in cards) and "target" not in event:
        for target in others:
            why = Text("camera.tgus-t.amended-target", card=_card_text(cards[0]),
                       target=target)
            out.append(({**event, "target": target}, why))
    try:
        seen = [Card.from_label(c) for c in cards]
    except ValueError:
        seen = []
    if seen and all(c.color is not None and c.value == seen[0].value for c in seen):
        for colour in COLOURS:
            hidden = f"{colour}-{seen[0].value}"
            if hidden in DECK_LABELS:
                why = Text("camera.tgus-t.amended-hidden", player=str(seat),
                           hidden=_card_text(hidden))
                out.append(({**event, "cards": [hidden] + cards}, why))
    return out


def camera_amendment(header: Mapping[str, Any], camera: list[Mapping[str, Any]],
                     changes: Mapping[int, Mapping[str, Any] | None] | None = None,
                     config: PlayConfig | None = None, last: int | None = None
                     ) -> tuple[dict[int, Any], Any, Any] | None:
    """The camera's event ``last`` (default: the last of ``camera``) left a
    line ruled illegal that no one-line amendment explains: one camera event
    among the last ``play.reread_back`` before it read otherwise (see the
    module docstring), the latest first, under which the log read again
    (:func:`reread`) holds no illegal line from that event's on. Events of
    ``camera`` from another source (heard, ``source`` not ``vision``) are
    read again as they came, never otherwise, and are not counted. Returns
    (the changes, with this one, the referee and the completion of that
    reading: the table carries on with them), or ``None``."""
    config = config or PlayConfig()
    changes = dict(changes or {})
    players = [str(p) for p in header.get("players") or []]
    last = len(camera) - 1 if last is None else last
    window = []  # the camera events that may be read otherwise, latest first
    for k in range(last - 1, -1, -1):
        if camera[k].get("source", "vision") != "vision":
            continue  # what was heard is taken as given
        if len(window) == config.reread_back:
            break
        window.append(k)
    tries = {k: _readings(changes.get(k, camera[k]) if k in changes else camera[k],
                          players)
             for k in window if k not in changes and camera[k] is not None}
    # each reading reads on from a copy of the table before its event
    _, _, starts, kept = _read(header, camera, changes, config,
                               keep=frozenset(k for k in tries if tries[k]))
    for k in window:
        for reading, why in tries.get(k, []):
            reading = {**reading, "inferred": str(why), "inferred_msg": why.data()}
            tried = {**changes, k: reading}
            referee, complete, _, _ = _read(header, camera, tried, config,
                                            start=(k, kept[k]))
            if not _illegal_from(referee, starts[k]):
                return tried, referee, complete
    return None
