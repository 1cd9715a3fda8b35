"""The referee's prior on a card's label: a close call goes to the legal play.

:func:`uno_legal` turns the live referee's UNO state into a check of which
labels are a legal play now; :func:`choose_label` weighs the camera's
evidence with it.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import numpy as np

from referee.cards import Card, CardError
from referee.uno.plays import matches, off_deck

#: Whether a label is a plausible play now (the referee's prior).
LegalCheck = Callable[[str], bool]


def choose_label(
    scores: np.ndarray,
    names: Sequence[str],
    legal: LegalCheck | None = None,
    margin: float = 1.6,
) -> str:
    """The label with the most evidence, weighed with the referee's prior.

    ``scores`` are mean log-probabilities per label (:func:`label_scores`).
    When the best label is not a legal play now and a legal one scores within
    ``margin`` of it (1.6: at least a fifth of its probability, in the mean
    over the frames), the legal one is taken: most plays at a real table are
    legal, so a close call goes the referee's way. A clear read of an illegal
    card (its runner-ups far behind) stays what the camera saw, and the
    referee rules it illegal.
    """
    order = np.argsort(-scores)
    best = names[int(order[0])]
    if legal is None or legal(best):
        return best
    for k in order[1:]:
        if scores[order[0]] - scores[k] > margin:
            break
        if legal(names[int(k)]):
            return names[int(k)]
    return best


def uno_legal(state: Mapping[str, Any] | None) -> LegalCheck | None:
    """The labels the referee's UNO state allows as a play, or ``None`` (no prior).

    A label is legal when its card is in the game's deck and matches the top
    card or the colour in force. No prior while no turn is being played (set-up,
    scoring), while a player owes drawn cards (whether an answer is allowed
    depends on house rules), or while a wild's colour is not named yet.
    """
    if not state or state.get("phase") not in ("turn", "drawn"):
        return None
    if state.get("pending_draw") or not state.get("color"):
        return None
    try:
        top = Card.from_label(state["top"]) if state.get("top") else None
    except CardError:
        return None
    colour = state.get("color")
    deck = int((state.get("options") or {}).get("deck", 108))

    def legal(label: str) -> bool:
        try:
            card = Card.from_label(label)
        except CardError:
            return False
        return off_deck([card], deck) is None and matches(card, top, colour)

    return legal

