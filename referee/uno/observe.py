"""What each viewer may see of an uno game, computed from its state.

In the manner of OpenSpiel's observers: :func:`view` builds a view for one
viewer from :class:`~referee.uno.state.UnoState`, adding only what that viewer
may know, never copying the full state and deleting keys.

- the table (``viewer=None``): counts, the pile, the turn, calls, scores;
- a player: the table's view plus their own secrets: the card they just drew
  (``drawn_card``) and the hand an accused player showed them in a Wild Draw
  Four challenge (``challenge_reveal``, 001: shown to the challenger only);
- the referee (``referee=True``): every secret (``UnoGame.state()``).
"""

from __future__ import annotations

from typing import Any

from .state import UnoState

_IN_PLAY = ("turn", "drawn", "challenge")


def view(s: UnoState, viewer: int | None = None,
         referee: bool = False) -> dict[str, Any]:
    """The state as ``viewer`` (a seat, or ``None`` for the table) may see it."""
    names = s.players
    out: dict[str, Any] = {
        "phase": s.phase,
        "round": s.round,
        "dealer": names[s.dealer],
        "turn": names[s.turn] if s.phase in _IN_PLAY else None,
        "direction": s.direction,
        "top": s.top.label if s.top else None,
        "color": s.color,
        "pending_draw": s.pending,
        "owed": {names[i]: c for i, c in enumerate(s.owed) if c},
        "hand_counts": dict(zip(names, s.hand_counts)),
        "scores": dict(zip(names, s.scores)),
        "uno": [names[i] for i, c in enumerate(s.called) if c],
        "uno_calls": dict(zip(names, s.uno_calls)),
        "catchable": [names[i] for i in sorted(s.catchable)],
        "draw_pile": s.draw_pile,
        "discard_pile": s.discard,
        "challenge": (
            {"challenger": names[s.challenger], "accused": names[s.wd4.player]}
            if s.phase == "challenge" and s.wd4 and s.challenger is not None
            else None),
        "revealed": {names[i]: [c.label for c in cards]
                     for i, cards in s.revealed.items()},
    }
    shown = {i: cards for i, cards in s.secret_reveal.items()
             if referee or (viewer is not None
                            and viewer in (i, s.reveal_viewer.get(i)))}
    if referee or shown:
        out["challenge_reveal"] = {names[i]: [c.label for c in cards]
                                   for i, cards in shown.items()}
    own_draw = viewer is not None and viewer == s.turn and s.phase == "drawn"
    if referee or (own_draw and s.drawn_card is not None):
        out["drawn_card"] = s.drawn_card.label if s.drawn_card else None
    out["round_winner"] = s.name(s.round_winner)
    return out
