"""Plays and card effects: the turn machine of the uno engine.

A play that breaks a rule is an ``illegal`` ruling with its remedy (the cards
go back to the hand, the turn is unchanged) and leaves the state untouched.
Draws and passes live in :mod:`.draws`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import Card
from ..game import GameError
from ..log import Event
from ..rulings import Ruling
from .draws import DrawsMixin
from .plays import (card_name, cards_n, cards_name, cards_of, first_card_problem,
                    multi_problem, off_deck, off_deck_text)
from .state import Wd4Record

if TYPE_CHECKING:  # pragma: no cover
    from .engine import UnoGame

_RULE_OF = {"skip": "skip", "reverse": "reverse", "draw2": "draw2", "wild": "wild",
            "wild-draw4": "wd4", "wild-shuffle": "shuffle-hands", "wild-custom": "wild"}


class TurnsMixin(DrawsMixin):
    """``on_play`` and the effects of cards (draws, passes: ``DrawsMixin``)."""

    # -- play ----------------------------------------------------------------------
    def on_play(self: "UnoGame", ev: Event) -> list[Ruling]:
        """``play``: cards put on the pile (legality, effects, going out)."""
        s, o = self.s, self.options
        raw = ev.data.get("cards")
        if raw is None and "card" in ev.data:
            raw = [ev.data["card"]]
        cards = cards_of(raw if raw is not None else [])
        if not cards:
            raise GameError("a play needs a non-empty 'cards' list")
        color = self.color_of(ev)
        p, implied = self.who(ev, s.turn)
        name = self.nm(p)
        bad = off_deck(cards, o.deck)
        if bad is not None:
            return [self.ruling(ev.index, "illegal", "deck",
                                f"{off_deck_text(bad, o.deck)}: {name} takes it back.",
                                p)]

        def what() -> str:  # built only for a refusal (replay speed)
            return f"the {cards_name(cards)}"

        if s.phase in ("setup", "restart"):
            return [self.ruling(ev.index, "illegal", "first-card",
                                f"No first card has been turned for this round yet, so "
                                f"{self.nm(p)} takes {what()} back.", p)]
        if s.phase == "scoring":
            return [self.ruling(
                ev.index, "illegal", "round-end",
                f"Round {s.round} is already won by {self.nm(s.round_winner)}, so "
                f"{self.nm(p)} takes {what()} back.", p)]
        if s.phase == "challenge":
            return [self.ruling(
                ev.index, "illegal", "wd4-challenge",
                "The challenge must be settled first (the accused shows their hand), "
                f"so {self.nm(p)} takes {what()} back.", p)]
        note = self.implied_note(p, implied)
        out: list[Ruling] = []
        jump = False
        if p != s.turn:
            top = s.top
            if (o.jump_in and top is not None and top.color is not None
                    and cards[0] == top and s.phase != "drawn"
                    and first_card_problem(cards[0], top, s.color, s.pending,
                                           s.pending_kind, o) is None):
                jump = True
            elif s.phase == "drawn" and p == s.step(s.turn):
                out.append(self.ruling(
                    ev.index, "info", "pass",
                    f"{self.nm(s.turn)} drew and did not play, so the turn passed to "
                    f"{self.nm(p)} (no pass was logged)."))
                out += self.close_windows(ev.index, s.turn, played=False)
                s.turn, s.phase, s.drawn_card = p, "turn", None
            else:
                return [self.ruling(
                    ev.index, "illegal", "turn",
                    f"It is {self.nm(s.turn)}'s turn, not {self.nm(p)}'s, so "
                    f"{self.nm(p)} takes {what()} back and play goes on with "
                    f"{self.nm(s.turn)}.", p)]

        def back() -> str:
            still = "" if jump else f" and it is still {name}'s turn"
            return f"{name} takes {what()} back{still}"

        if len(cards) > s.hand_counts[p]:
            return out + [self.ruling(
                ev.index, "illegal", "hand-count",
                f"{self.nm(p)} holds only {cards_n(s.hand_counts[p])} by the "
                f"referee's count, so {back()}.", p)]
        problem = multi_problem(cards, o)
        if problem:
            return out + [self.ruling(
                ev.index, "illegal", "multi-play",
                f"{problem[0].upper()}{problem[1:]}, so {back()}.", p)]
        if s.phase == "drawn" and not jump:
            other = s.drawn_card is not None and cards[0] != s.drawn_card
            if len(cards) > 1 or other:
                return out + [self.ruling(
                    ev.index, "illegal", "drawn-card",
                    "After drawing, only the card just drawn may be played, so "
                    f"{back()}.", p)]
        if s.wd4_returned == p and cards[0].value == "wild-draw4":
            return out + [self.ruling(
                ev.index, "illegal", "wd4-challenge",
                f"{name}'s Wild Draw Four was found guilty and went back to the hand, "
                f"so {name} must play another card now, not a Wild Draw Four; "
                f"{back()}.", p)]
        problem = first_card_problem(
            cards[0], s.top, s.color, s.pending, s.pending_kind, o)
        if problem:
            rule = ("stacking" if o.stacking
                    else _RULE_OF.get(s.pending_kind or "", "draw2")
                    ) if s.pending else "match"
            if s.pending:
                problem = (
                    f"{self.nm(p)} owes {s.pending} cards and must draw them first")
                if s.pending_kind == "wild-draw4" and s.wd4 and s.wd4.challengeable:
                    problem += " (or challenge)"
            return out + [self.ruling(
                ev.index, "illegal", rule,
                f"The {card_name(cards[0])} cannot be played because {problem}, so "
                f"{back()}.", p)]
        left = s.hand_counts[p] - len(cards)
        if left == 0:
            if s.owed[p]:
                return out + [self.ruling(
                    ev.index, "illegal", "going-out",
                    f"{name} still owes {cards_n(s.owed[p])} and must draw them before "
                    f"going out, so {back()}.", p, s.owed[p])]
            if not o.out_on_action and cards[-1].is_action:
                return out + [self.ruling(
                    ev.index, "illegal", "going-out",
                    f"This table forbids going out on an action card, so {back()}.", p)]
            if len(cards) > 1 and o.multi_out == "needs-call" and not s.called[p]:
                out.append(self.ruling(
                    ev.index, "illegal", "multi-play",
                    f"{self.nm(p)} went out with {len(cards)} cards without calling "
                    f"UNO, so only the {card_name(cards[0])} counts and the rest go "
                    "back to the hand.", p))
                cards = cards[:1]
        return out + self.play_cards(ev, p, cards, color, note, jump)

    def play_cards(self: "UnoGame", ev: Event, p: int, cards: list[Card],
                   color: str | None,
                   note: str = "", jump: bool = False) -> list[Ruling]:
        """Put legal ``cards`` of player ``p`` on the pile and apply their effect."""
        s, o = self.s, self.options
        out = self.close_windows(ev.index, p, played=True) if s.catchable else []
        prev = (s.top, s.color, s.direction, s.pending, s.pending_kind)
        s.hand_counts[p] -= len(cards)
        s.discard += len(cards)
        last = cards[-1]
        s.top = last
        s.color = last.color or color
        prev_wild = s.wild_player
        s.wild_player = p if last.is_wild else None
        s.phase, s.drawn_card, s.wd4, s.wd4_returned = "turn", None, None, None
        count = s.hand_counts[p]
        if count == 1 and not s.called[p]:
            s.catchable[p] = ev.index
        elif count != 1:
            s.called[p] = False
        k = len(cards) if o.multi_effects else 1
        effect = self.card_effect(p, last, k)
        who = f"{self.nm(p)} jumps in with" if jump else f"{self.nm(p)} plays"
        text = f"{who} the {cards_name(cards)}{note}"
        if last.is_wild:
            text += f" and names {s.color}" if s.color else (
                " without a logged colour, so any card may follow until one is named")
        if count == 0:
            return out + self.go_out(ev.index, p, text)
        if last.value == "wild-draw4":
            s.wd4 = Wd4Record(p, s.turn, len(cards), *prev,
                              challengeable=o.challenge and not (
                                  prev[3] and prev[4] == "wild-draw4"),
                              count_after=count, prev_wild_player=prev_wild)
        rule = "jump-in" if jump else (
            "stacking" if prev[3] and s.pending else _RULE_OF.get(last.value, "match"))
        if s.pending:
            victim = s.turn
            more = ""
            if s.wd4 and s.wd4.challengeable:
                more = " unless they challenge"
            elif o.stacking:
                more = " unless they pass it on"
            return out + [self.ruling(
                ev.index, "pending", rule,
                f"{text}: {self.nm(victim)} draws {s.pending} and loses the "
                f"turn{more}.", victim, s.pending)]
        return out + [self.ruling(ev.index, "ok", rule, f"{text}; {effect}")]

    def card_effect(self: "UnoGame", p: int, card: Card, k: int) -> str:
        """Apply the effect of ``k`` cards like ``card`` played by ``p``; say what."""
        s = self.s
        v = card.value
        if v == "skip":
            skipped = [self.nm(s.step(p, i)) for i in range(1, k + 1)]
            s.turn = s.step(p, k + 1)
            return (
                f"{' and '.join(skipped)} is skipped and it is {self.nm(s.turn)}'s "
                "turn.")
        if v == "reverse":
            if k % 2:
                s.direction = -s.direction
            if s.n == 2:
                s.turn = s.step(p, 1 + k)
                return (
                    f"with two players the Reverse acts as a Skip: {self.nm(s.turn)} "
                    "plays.")
            s.turn = s.step(p, 1)
            way = "clockwise" if s.direction == 1 else "counter-clockwise"
            return f"play now goes {way} and it is {self.nm(s.turn)}'s turn."
        if v == "draw2" or v == "wild-draw4":
            s.pending += (2 if v == "draw2" else 4) * k
            s.pending_kind = v
            s.turn = s.step(p, 1)
            return ""
        if v == "wild-shuffle" and s.hand_counts[p]:
            self.shuffle_hands(p)
            s.turn = s.step(p, 1)
            counts = ", ".join(f"{n} {c}" for n, c in zip(self.players, s.hand_counts))
            return (
                f"all hands are shuffled and dealt out again from {self.nm(s.turn)} "
                f"({counts}); it is {self.nm(s.turn)}'s turn.")
        s.turn = s.step(p, 1)
        return f"it is {self.nm(s.turn)}'s turn."

    def shuffle_hands(self: "UnoGame", p: int) -> None:
        """Wild Shuffle Hands: all hands are gathered and dealt from the next player."""
        s = self.s
        total = sum(s.hand_counts)
        base, extra = divmod(total, s.n)
        for i in range(s.n):
            s.hand_counts[s.step(p, i + 1)] = base + (1 if i < extra else 0)
        s.called = [False] * s.n
        s.catchable.clear()

    def go_out(self: "UnoGame", index: int, p: int, text: str) -> list[Ruling]:
        """``p`` played the last card: the round is won, scoring waits for reveals."""
        s = self.s
        s.round_winner = p
        s.phase = "scoring"
        s.catchable.clear()
        s.called[p] = False
        tail = "every other player shows their hand (reveal) for scoring"
        victim = None
        if s.pending:
            victim = s.turn
            before = s.owed[victim]
            s.owed[victim] += s.pending
            more = (f" ({s.pending} for the {card_name(s.top)} and {before} owed "
                    "before, all counting in the score)" if before
                    else " (they count in the score)")
            tail = (f"{self.nm(victim)} still draws {s.owed[victim]}{more}, then "
                    f"{tail}")
        s.pending, s.pending_kind = 0, None
        name = self.nm(p)
        return [self.ruling(
            index, "pending", "round-end",
            f"{text}; that was {name}'s last card, so {name} wins round {s.round}: "
            f"{tail}.", victim, s.owed[victim] if victim is not None else None)]
