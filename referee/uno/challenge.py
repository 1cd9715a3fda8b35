"""Rule ``wd4-challenge``: the Wild Draw Four challenge (001 チャレンジ).

The player hit by a Wild Draw Four may challenge it; the accused shows their
hand (a ``reveal``) and the referee judges it against the top card and the
colour in force *before* the Wild Draw Four (``wd4_rule``). The penalties are
options: ``wd4_guilty_penalty`` (4) for a guilty player, who takes the card
back and must play another (``wd4_guilty_takeback``), and
``wd4_challenge_penalty`` (2, on top of the Wild Draw Four's own cards: 6)
for a failed challenger. The verdict is kept in ``UnoState.verdict``.
"""

from __future__ import annotations

from ..cards import Card
from ..log import Event
from ..rulings import Ruling
from .calls import close_windows
from .options import UnoOptions
from .plays import card_name, cards_n, wd4_offending_card
from .state import Say, UnoState


def on_challenge(s: UnoState, o: UnoOptions, ev: Event, say: Say) -> list[Ruling]:
    """``challenge``: the player hit by a Wild Draw Four asks to see the hand."""
    rec = s.wd4
    p, _ = s.who(ev, s.turn if s.phase in ("turn", "drawn") else None)
    by = s.players[p] if p is not None else "Someone"
    if (s.phase != "turn" or rec is None or s.pending_kind != "wild-draw4"
            or not s.pending or s.turn != rec.victim):
        return [say(ev.index, "info", "wd4-challenge",
                    f"{by} challenged, but there is no Wild Draw Four that can be "
                    "challenged now, so nothing happens.")]
    victim, accused = s.players[rec.victim], s.players[rec.player]
    if p != rec.victim:
        return [say(ev.index, "info", "wd4-challenge",
                    f"Only {victim}, who was hit by the Wild Draw Four, may challenge "
                    f"it, so {by}'s challenge is ignored.")]
    if not rec.challengeable:
        why = ("it was played on a Wild Draw Four" if o.challenge
               else "this table plays without challenges")
        return [say(ev.index, "illegal", "wd4-challenge",
                    f"This Wild Draw Four cannot be challenged because {why}, so "
                    f"{victim} draws {s.pending}.", player=victim, draw=s.pending)]
    assert p is not None
    out = close_windows(s, o, ev.index, p, False, say)
    s.phase, s.challenger = "challenge", p
    return out + [say(ev.index, "pending", "wd4-challenge",
                      f"{victim} challenges {accused}'s Wild Draw Four: {accused} "
                      f"shows their hand to {victim} (reveal) and the referee judges "
                      "it.", player=accused)]


def judge(s: UnoState, o: UnoOptions, ev: Event, p: int,
          cards: list[Card], say: Say) -> list[Ruling]:
    """Settle a Wild Draw Four challenge from the accused's shown hand."""
    rec = s.wd4
    assert rec is not None and s.challenger is not None
    victim, accused = s.challenger, s.players[p]
    note = ""
    if s.hand_counts[p] > rec.count_after >= 0:
        note = (f" (the shown hand includes the "
                f"{cards_n(s.hand_counts[p] - rec.count_after)} drawn since the Wild "
                "Draw Four)")
    elif len(cards) != s.hand_counts[p]:
        note = f" (the referee had counted {cards_n(s.hand_counts[p])})"
        s.hand_counts[p] = len(cards)
    s.secret_reveal[p] = cards
    s.reveal_viewer[p] = victim
    bad = wd4_offending_card(cards, rec.prev_top, rec.prev_color, rec.prev_pending,
                             rec.prev_pending_kind, o)
    s.phase, s.wd4, s.challenger = "turn", None, None
    s.verdict = (p, bad is not None)
    if bad is None:
        extra = o.wd4_challenge_penalty
        s.pending += extra
        return [say(ev.index, "penalty", "wd4-challenge",
                    f"Challenge failed: {accused} had no other card that could be "
                    f"played{note}, so {s.players[victim]} draws {s.pending} (the Wild "
                    f"Draw Four's cards plus {extra}) and loses the turn.",
                    player=s.players[victim], draw=s.pending)]
    fine = o.wd4_guilty_penalty
    s.owed[p] += fine
    why = (f"could have played the {card_name(bad)}" if o.wd4_rule == "no-playable"
           else f"held the {card_name(bad)} of the colour in force")
    if o.wd4_guilty_takeback:
        s.top, s.color = rec.prev_top, rec.prev_color
        s.direction = rec.prev_direction
        s.pending, s.pending_kind = rec.prev_pending, rec.prev_pending_kind
        s.hand_counts[p] += rec.cards
        s.discard -= rec.cards
        if s.discard < 1 and s.top is not None and s.draw_pile:
            s.draw_pile, s.discard = s.draw_pile - 1, 1  # reshuffled meanwhile
        s.turn = p
        s.wild_player = rec.prev_wild_player
        s.wd4_returned = p
        s.called[p] = False
        s.catchable.pop(p, None)
        text = (f"Challenge upheld: {accused} {why}{note}, so {accused} takes the "
                f"Wild Draw Four back, draws {fine} and must play another card.")
    else:
        s.pending, s.pending_kind = 0, None
        text = (f"Challenge upheld: {accused} {why}{note}, so {accused} draws {fine} "
                f"instead and {s.players[victim]} plays on {s.color}.")
    return [say(ev.index, "penalty", "wd4-challenge", text, player=accused, draw=fine)]
