"""Helpers shared by the play modules: deck labels, names, discarding a play."""

from __future__ import annotations


from referee.cards import Card
from referee.log import Event
from referee.rulings import Ruling, n_of

from .cards import ALL_HIT2, NAMES, deck_counts
from .context import TgusTReferee


DECK_LABELS = frozenset(deck_counts())


def names(cards: list[Card]) -> str:
    """The labels of played cards joined for a ruling's text."""
    return " + ".join(c.label for c in cards)


def answers(game: TgusTReferee, rank: int) -> str:
    """The cards that may answer a pending draw of ``rank``, for a ruling's text."""
    names = [
        NAMES.get(e, e) for e, r in game.opts.precedence if r >= rank and e != ALL_HIT2
    ]
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


def discard(
    game: TgusTReferee,
    player: str,
    cards: list[Card],
    eff: str,
    color: str | None,
    out: list[Ruling],
    ev: Event,
) -> None:
    """Move played cards from the hand to the discard pile and set top and colour."""
    t = game.t
    missing = len(cards) - t.hands[player]
    if missing > 0:  # the referee's count was off: the cards came from somewhere
        out.append(
            game.ruling(
                ev.index,
                "info",
                "count",
                f"{player} played {n_of(len(cards), 'card')} but the referee "
                f"counted {t.hands[player]}; the count is corrected.",
            )
        )
        t.hands[player] += missing
        t.pile = max(0, t.pile - missing)
    t.hands[player] -= len(cards)
    t.discards += len(cards)
    t.top, t.top_effect = cards[-1], eff
    if cards[-1].color is not None:
        t.color = cards[-1].color
    elif eff not in ("counter", "change"):
        t.color = color
        t.awaiting_color = None if color else player
    elif color:
        t.color = color
    t.drew = False
    if eff != "counter":  # the table has moved on: All Hit+2 counters are over
        t.all_hit_open.clear()
    if t.exposed is not None and t.exposed != player:
        t.exposed = None
