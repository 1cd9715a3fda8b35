"""Calls and reveals: UNO, catch, Wild Draw Four challenge, reveal, colour.

Judgements that need a hand wait for a ``reveal`` event: the challenge is
``pending`` until the accused shows their hand, the round's score until every
loser has shown theirs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import parse_cards
from ..game import GameError
from ..log import Event
from ..rulings import Ruling
from .plays import (card_name, cards_n, hand_points, off_deck, off_deck_text,
                    wd4_offending_card)

if TYPE_CHECKING:  # pragma: no cover
    from .engine import UnoGame


class CallsMixin:
    """``on_uno``, ``on_catch``, ``on_challenge``, ``on_reveal``, ``on_color``."""

    def on_uno(self: "UnoGame", ev: Event) -> list[Ruling]:
        """``uno``: a call with one card, or with two before playing down to one."""
        s = self.s
        default = None
        if len(s.catchable) == 1:
            default = next(iter(s.catchable))
        elif s.phase in ("turn", "drawn") and s.hand_counts[s.turn] <= 2:
            default = s.turn
        p, implied = self.who(ev, default)
        if p is None:
            return [self.ruling(ev.index, "info", "uno-call",
                                "An UNO call was logged without a player and nobody is "
                                "down to one or two cards, so it is ignored.")]
        name = self.nm(p)
        note = f" (taken as {name}'s call)" if implied else ""
        count = s.hand_counts[p]
        if s.phase not in ("turn", "drawn", "challenge"):
            return [self.ruling(
                ev.index, "info", "uno-call",
                f"{name} called UNO{note} while no round is being played, which has "
                "no effect.")]
        if count not in (1, 2):
            return [self.ruling(
                ev.index, "info", "uno-call",
                f"{name} called UNO{note} holding {count} cards, which has no effect.")]
        if s.called[p]:
            return [self.ruling(ev.index, "info", "uno-call",
                                f"{name} had already called UNO{note}.")]
        s.called[p] = True
        s.uno_calls[p] += 1
        if s.catchable.pop(p, None) is not None:
            text = f"{name} called UNO{note} before anyone caught the missing call."
        elif count == 2:
            text = f"{name} called UNO{note} before playing down to one card."
        else:
            text = f"{name} called UNO{note} with one card left."
        return [self.ruling(ev.index, "ok", "uno-call", text)]

    def on_catch(self: "UnoGame", ev: Event) -> list[Ruling]:
        """``catch``: a missing UNO call pointed out while its window is open."""
        s, o = self.s, self.options
        catcher, _ = self.who(ev, None)
        default = next(iter(s.catchable)) if len(s.catchable) == 1 else None
        target, _ = self.who(ev, default, key="target")
        by = self.nm(catcher) if catcher is not None else "someone"
        if target is None:
            return [self.ruling(
                ev.index, "info", "uno-call",
                f"{by} pointed out a missing UNO call, but no target was logged and "
                "nobody can be caught now.")]
        name = self.nm(target)
        if target == catcher:
            return [self.ruling(ev.index, "info", "uno-call",
                                f"{name} cannot catch themselves, so nothing happens.")]
        if target in s.catchable and s.hand_counts[target] == 1:
            del s.catchable[target]
            if not o.uno_penalty:
                return [self.ruling(
                    ev.index, "info", "uno-call",
                    f"{name} was caught without an UNO call by {by}, but this table's "
                    "penalty is 0 cards.")]
            s.owed[target] += o.uno_penalty
            before = (f" before {self.nm(s.turn)} played"
                      if s.phase in ("turn", "drawn") and s.turn != target else "")
            return [self.ruling(
                ev.index, "penalty", "uno-call",
                f"{name} went down to one card without calling UNO and was caught by "
                f"{by}{before}: {name} draws {o.uno_penalty}.", target, o.uno_penalty)]
        if s.hand_counts[target] != 1 or s.phase not in ("turn", "drawn", "challenge"):
            why = (f"{name} holds {s.hand_counts[target]} cards" if s.phase != "scoring"
                   else "the round is already won")
            return [self.ruling(ev.index, "info", "uno-call",
                                f"{by}'s catch has no effect: {why}.")]
        if s.called[target]:
            return [self.ruling(ev.index, "info", "uno-call",
                                f"{name} did call UNO, so {by}'s catch has no effect.")]
        return [self.ruling(
            ev.index, "info", "uno-call",
            f"Too late: {name}'s missing UNO call could only be caught until the next "
            "player had played, so there is no penalty.")]

    def on_challenge(self: "UnoGame", ev: Event) -> list[Ruling]:
        """``challenge``: the player hit by a Wild Draw Four asks to see the hand."""
        s = self.s
        rec = s.wd4
        p, implied = self.who(ev, s.turn if s.phase in ("turn", "drawn") else None)
        by = self.nm(p) if p is not None else "Someone"
        if (s.phase != "turn" or rec is None or s.pending_kind != "wild-draw4"
                or not s.pending or s.turn != rec.victim):
            return [self.ruling(
                ev.index, "info", "wd4-challenge",
                f"{by} challenged, but there is no Wild Draw Four that can be "
                "challenged now, so nothing happens.")]
        victim, accused = self.nm(rec.victim), self.nm(rec.player)
        if p != rec.victim:
            return [self.ruling(
                ev.index, "info", "wd4-challenge",
                f"Only {victim}, who was hit by the Wild Draw Four, may challenge it, "
                f"so {by}'s challenge is ignored.")]
        if not rec.challengeable:
            why = ("it was played on a Wild Draw Four" if self.options.challenge
                   else "this table plays without challenges")
            return [self.ruling(
                ev.index, "illegal", "wd4-challenge",
                f"This Wild Draw Four cannot be challenged because {why}, so {victim} "
                f"draws {s.pending}.", rec.victim, s.pending)]
        out = self.close_windows(ev.index, p, played=False)
        s.phase, s.challenger = "challenge", p
        return out + [self.ruling(
            ev.index, "pending", "wd4-challenge",
            f"{victim} challenges {accused}'s Wild Draw Four: {accused} shows their "
            f"hand to {victim} (reveal) and the referee judges it.", rec.player)]

    def on_reveal(self: "UnoGame", ev: Event) -> list[Ruling]:
        """``reveal``: a hand shown, for a challenge or for scoring."""
        s = self.s
        p, _ = self.who(ev, None)
        if p is None:
            raise GameError("a reveal needs the 'player' whose hand is shown")
        cards = parse_cards(ev.data.get("cards", []))
        name = self.nm(p)
        bad = off_deck(cards, self.options.deck)
        if bad is not None:
            return [self.ruling(
                ev.index, "illegal", "deck", f"{off_deck_text(bad, self.options.deck)}"
                f": {name} takes it away and shows the hand again.", p)]
        if s.phase == "challenge" and s.wd4 and p == s.wd4.player:
            return self.judge_challenge(ev, p, cards)
        if s.phase == "scoring" and p != s.round_winner:
            if s.owed[p]:
                return [self.ruling(
                    ev.index, "illegal", "reveal",
                    f"{name} must first draw the {cards_n(s.owed[p])} owed, then show "
                    "the hand again.", p, s.owed[p])]
            note = ""
            if len(cards) != s.hand_counts[p]:
                note = (
                    f" (the referee counted {s.hand_counts[p]}, so the shown hand is "
                    "taken as the truth)")
                s.hand_counts[p] = len(cards)
            again = " again" if p in s.revealed else ""
            s.revealed[p] = cards
            out = [self.ruling(ev.index, "ok", "reveal",
                               f"{name} shows{again} {cards_n(len(cards))} worth "
                               f"{hand_points(cards)} points{note}.")]
            return out + self.maybe_score(ev.index)
        diff = ("" if len(cards) == s.hand_counts[p]
                else f" (the referee counts {s.hand_counts[p]})")
        return [self.ruling(
            ev.index, "info", "reveal",
            f"{name} showed {cards_n(len(cards))}{diff}; no ruling is waiting on it.")]

    def judge_challenge(self: "UnoGame", ev: Event, p: int,
                        cards: list) -> list[Ruling]:
        """Settle a Wild Draw Four challenge from the accused's shown hand."""
        s, o = self.s, self.options
        rec = s.wd4
        assert rec is not None and s.challenger is not None
        victim, accused = s.challenger, self.nm(p)
        note = ""
        if s.hand_counts[p] > rec.count_after >= 0:
            note = (
                f" (the shown hand includes the {s.hand_counts[p] - rec.count_after} "
                "card(s) drawn since the Wild Draw Four)")
        elif len(cards) != s.hand_counts[p]:
            note = f" (the referee had counted {s.hand_counts[p]} cards)"
            s.hand_counts[p] = len(cards)
        s.secret_reveal[p] = cards
        bad = wd4_offending_card(cards, rec.prev_top, rec.prev_color, rec.prev_pending,
                                 rec.prev_pending_kind, o)
        s.phase, s.wd4, s.challenger = "turn", None, None
        if bad is None:
            s.pending += 2
            return [self.ruling(
                ev.index, "penalty", "wd4-challenge",
                f"Challenge failed: {accused} had no other card that could be "
                f"played{note}, so {self.nm(victim)} draws {s.pending} (the Wild Draw "
                "Four's cards plus 2) and loses the turn.", victim, s.pending)]
        s.owed[p] += 4
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
            text = (
                f"Challenge upheld: {accused} {why}{note}, so {accused} takes the "
                "Wild Draw Four back, draws 4 and must play another card.")
        else:
            s.pending, s.pending_kind = 0, None
            text = (
                f"Challenge upheld: {accused} {why}{note}, so {accused} draws 4 "
                f"instead and {self.nm(victim)} plays on {s.color}.")
        return [self.ruling(ev.index, "penalty", "wd4-challenge", text, p, 4)]

    def on_color(self: "UnoGame", ev: Event) -> list[Ruling]:
        """Project event ``{"type": "color", "color": "blue"}``: a wild's colour.

        001: the player who plays the Wild names the colour, once. A colour
        event without a player is taken as theirs; one from another player, or
        a second naming, is refused and the colour named first stays.
        """
        s = self.s
        color = self.color_of(ev)
        if color is None:
            raise GameError("a color event needs a 'color'")
        top = s.top
        if (top is not None and top.is_wild and s.round_winner is not None
                and s.phase in ("scoring", "setup")):
            return [self.ruling(
                ev.index, "info", "wild",
                f"{color.capitalize()} is noted for the {card_name(top)} that won "
                f"round {s.round}, but no colour is needed once the round is won, so "
                "it changes nothing.")]
        in_play = s.phase in ("turn", "drawn", "challenge")
        if top is None or not top.is_wild or not in_play:
            return [self.ruling(
                ev.index, "info", "wild",
                f"No wild card is on top, so naming {color} has no effect.")]
        owner = s.wild_player
        p, _ = self.who(ev, owner)
        if owner is not None and p != owner:
            stays = f"stays {s.color}" if s.color else "is still to be named by them"
            return [self.ruling(
                ev.index, "illegal", "wild",
                f"Only {self.nm(owner)}, who played the {card_name(top)}, names its "
                f"colour, so {self.nm(p)}'s {color} is refused and the colour "
                f"{stays}.")]
        if s.color is not None:
            named = (f"{self.nm(owner)} already named {s.color}" if owner is not None
                     else f"The colour {s.color} was already named")
            if color == s.color:
                return [self.ruling(
                    ev.index, "info", "wild",
                    f"{named} for the {card_name(top)}; naming it again changes "
                    "nothing.")]
            return [self.ruling(
                ev.index, "illegal", "wild",
                f"{named} for the {card_name(top)}, so naming {color} now is refused "
                f"and the colour stays {s.color}.")]
        s.color = color
        return [self.ruling(ev.index, "ok", "wild",
                            f"The colour of the {card_name(top)} is {color}.")]
