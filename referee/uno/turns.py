"""Plays and card effects: the turn machine of the uno engine, as plain functions.

Each function takes the state (and the options, the event, and ``say`` to
name its rulings) and returns rulings; :class:`~referee.uno.game.UnoGame`
calls them in order. A play that breaks a rule is an ``illegal`` ruling with
its remedy (the cards go back to the hand, the turn is unchanged) and leaves
the state untouched. Draws and passes live in :mod:`.draws`.
"""

from __future__ import annotations

from typing import NamedTuple

from ..cards import Card
from ..game import GameError
from ..log import Event
from ..rulings import Ruling
from .calls import close_windows, color_of
from .options import UnoOptions
from .plays import (card_name, cards_n, cards_name, cards_of, first_card_problem,
                    multi_problem, off_deck, off_deck_text)
from .state import Say, UnoState, Wd4Record

RULE_OF = {"skip": "skip", "reverse": "reverse", "draw2": "draw2", "wild": "wild",
           "wild-draw4": "wd4", "wild-shuffle": "shuffle-hands", "wild-custom": "wild"}


#: A play found legal: (player, cards, colour named, note on an implied player,
#: jump-in), the arguments of ``UnoGame.play_cards`` after the event.
Play = tuple[int, list[Card], "str | None", str, bool]


class Before(NamedTuple):
    """What a Wild Draw Four challenge may have to restore."""

    top: Card | None
    color: str | None
    direction: int
    pending: int
    pending_kind: str | None
    wild_player: int | None


def check_play(s: UnoState, o: UnoOptions, ev: Event,
               say: Say) -> tuple[list[Ruling], Play | None]:
    """``play``: whether the cards may go down; the rulings so far and the play."""
    raw = ev.data.get("cards")
    if raw is None and "card" in ev.data:
        raw = [ev.data["card"]]
    cards = cards_of(raw if raw is not None else [])
    if not cards:
        raise GameError("a play needs a non-empty 'cards' list")
    color = color_of(ev)
    p, implied = s.who(ev, s.turn)
    assert p is not None
    names = s.players
    name = names[p]
    bad = off_deck(cards, o.deck)
    if bad is not None:
        return [say(ev.index, "illegal", "deck",
                    f"{off_deck_text(bad, o.deck)}: {name} takes it back.",
                    player=name)], None

    def what() -> str:  # built only for a refusal (replay speed)
        return f"the {cards_name(cards)}"

    if s.phase in ("setup", "restart"):
        return [say(ev.index, "illegal", "first-card",
                    f"No first card has been turned for this round yet, so {name} "
                    f"takes {what()} back.", player=name)], None
    if s.phase == "scoring":
        return [say(ev.index, "illegal", "round-end",
                    f"Round {s.round} is already won by {s.name(s.round_winner)}, so "
                    f"{name} takes {what()} back.", player=name)], None
    if s.phase == "challenge":
        return [say(ev.index, "illegal", "wd4-challenge",
                    "The challenge must be settled first (the accused shows their "
                    f"hand), so {name} takes {what()} back.", player=name)], None
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
            out.append(say(ev.index, "info", "pass",
                           f"{names[s.turn]} drew and did not play, so the turn "
                           f"passed to {name} (no pass was logged)."))
            out += close_windows(s, o, ev.index, s.turn, False, say)
            s.turn, s.phase, s.drawn_card = p, "turn", None
        else:
            return [say(ev.index, "illegal", "turn",
                        f"It is {names[s.turn]}'s turn, not {name}'s, so {name} takes "
                        f"{what()} back and play goes on with {names[s.turn]}.",
                        player=name)], None

    def back() -> str:
        still = "" if jump else f" and it is still {name}'s turn"
        return f"{name} takes {what()} back{still}"

    if len(cards) > s.hand_counts[p]:
        return out + [say(ev.index, "illegal", "hand-count",
                          f"{name} holds only {cards_n(s.hand_counts[p])} by the "
                          f"referee's count, so {back()}.", player=name)], None
    problem = multi_problem(cards, o)
    if problem:
        return out + [say(ev.index, "illegal", "multi-play",
                          f"{problem[0].upper()}{problem[1:]}, so {back()}.",
                          player=name)], None
    if s.phase == "drawn" and not jump:
        other = s.drawn_card is not None and cards[0] != s.drawn_card
        if len(cards) > 1 or other:
            return out + [say(ev.index, "illegal", "drawn-card",
                              "After drawing, only the card just drawn may be played, "
                              f"so {back()}.", player=name)], None
    if s.wd4_returned == p and cards[0].value == "wild-draw4":
        return out + [say(ev.index, "illegal", "wd4-challenge",
                          f"{name}'s Wild Draw Four was found guilty and went back to "
                          f"the hand, so {name} must play another card now, not a Wild "
                          f"Draw Four; {back()}.", player=name)], None
    problem = first_card_problem(cards[0], s.top, s.color, s.pending, s.pending_kind, o)
    if problem:
        rule = ("stacking" if o.stacking else RULE_OF.get(s.pending_kind or "", "draw2")
                ) if s.pending else "match"
        if s.pending:
            problem = f"{name} owes {cards_n(s.pending)} and must draw them first"
            if s.pending_kind == "wild-draw4" and s.wd4 and s.wd4.challengeable:
                problem += " (or challenge)"
        return out + [say(ev.index, "illegal", rule,
                          f"The {card_name(cards[0])} cannot be played because "
                          f"{problem}, so {back()}.", player=name)], None
    left = s.hand_counts[p] - len(cards)
    if left == 0:
        if s.owed[p]:
            return out + [say(ev.index, "illegal", "going-out",
                              f"{name} still owes {cards_n(s.owed[p])} and must draw "
                              f"them before going out, so {back()}.", player=name,
                              draw=s.owed[p])], None
        if not o.out_on_action and cards[-1].is_action:
            return out + [say(ev.index, "illegal", "going-out",
                              "This table forbids going out on an action card, so "
                              f"{back()}.", player=name)], None
        if len(cards) > 1 and o.multi_out == "needs-call" and not s.called[p]:
            out.append(say(ev.index, "illegal", "multi-play",
                           f"{name} went out with {len(cards)} cards without calling "
                           f"UNO, so only the {card_name(cards[0])} counts and the "
                           "rest go back to the hand.", player=name))
            cards = cards[:1]
    return out, (p, cards, color, s.implied_note(p, implied), jump)


def put_down(s: UnoState, index: int, p: int, cards: list[Card],
             color: str | None) -> Before:
    """Move legal ``cards`` of ``p`` onto the pile (before their effect)."""
    before = Before(s.top, s.color, s.direction, s.pending, s.pending_kind,
                    s.wild_player)
    s.hand_counts[p] -= len(cards)
    s.discard += len(cards)
    last = cards[-1]
    s.top = last
    s.color = last.color or color
    s.wild_player = p if last.color is None else None  # who names a wild's colour
    s.phase, s.drawn_card, s.wd4, s.wd4_returned = "turn", None, None, None
    count = s.hand_counts[p]
    if count == 1 and not s.called[p]:
        s.catchable[p] = index
    elif count != 1:
        s.called[p] = False
    return before


def card_effect(s: UnoState, p: int, card: Card, k: int) -> str:
    """Apply the effect of ``k`` cards like ``card`` played by ``p``; say what.

    Wild Shuffle Hands is dealt by the game's ``shuffle_hands`` step first and
    then described by :func:`shuffled`.
    """
    v = card.value
    names = s.players
    if v == "skip":
        skipped = [names[s.step(p, i)] for i in range(1, k + 1)]
        s.turn = s.step(p, k + 1)
        return f"{' and '.join(skipped)} is skipped and it is {names[s.turn]}'s turn."
    if v == "reverse":
        if k % 2:
            s.direction = -s.direction
        if s.n == 2:
            s.turn = s.step(p, 1 + k)
            return (f"with two players the Reverse acts as a Skip: {names[s.turn]} "
                    "plays.")
        s.turn = s.step(p, 1)
        way = "clockwise" if s.direction == 1 else "counter-clockwise"
        return f"play now goes {way} and it is {names[s.turn]}'s turn."
    if v == "draw2" or v == "wild-draw4":
        s.pending += (2 if v == "draw2" else 4) * k
        s.pending_kind = v
        s.turn = s.step(p, 1)
        return ""
    s.turn = s.step(p, 1)
    return f"it is {names[s.turn]}'s turn."


def shuffle_hands(s: UnoState, p: int) -> None:
    """Wild Shuffle Hands: all hands are gathered and dealt from the next player."""
    total = sum(s.hand_counts)
    base, extra = divmod(total, s.n)
    for i in range(s.n):
        s.hand_counts[s.step(p, i + 1)] = base + (1 if i < extra else 0)
    s.called = [False] * s.n
    s.catchable.clear()


def shuffled(s: UnoState, p: int) -> str:
    """The effect text of a Wild Shuffle Hands after the deal; the turn moves on."""
    s.turn = s.step(p, 1)
    counts = ", ".join(f"{n} {c}" for n, c in zip(s.players, s.hand_counts))
    nxt = s.players[s.turn]
    return (f"all hands are shuffled and dealt out again from {nxt} ({counts}); it is "
            f"{nxt}'s turn.")


def play_rule(before: Before, s: UnoState, last: Card, jump: bool) -> str:
    """The rule a legal play is ruled under (``jump-in``, ``stacking``, ``skip``...)."""
    if jump:
        return "jump-in"
    if before.pending and s.pending:
        return "stacking"
    return RULE_OF.get(last.value, "match")


def deflect_note(before: Before, last: Card) -> str:
    """How a Skip or Reverse answer moves a debt on (``stack_answers``)."""
    if not before.pending or last.value not in ("skip", "reverse"):
        return ""
    how = ("a Skip passes the draw over the next player, as the seed's T2 table does"
           if last.value == "skip" else "a Reverse sends the draw back")
    return f" (interpreted: {how})"


def play_text(s: UnoState, p: int, said: str, note: str, jump: bool,
              last: Card) -> str:
    """``B plays the red 7`` (and the colour named for a wild)."""
    who = f"{s.players[p]} jumps in with" if jump else f"{s.players[p]} plays"
    text = f"{who} the {said}{note}"
    if last.is_wild:
        text += f" and names {s.color}" if s.color else (
            " without a logged colour, so any card may follow until one is named")
    return text


def record_wd4(s: UnoState, o: UnoOptions, p: int, cards: list[Card],
               before: Before) -> None:
    """Keep what a challenge of this Wild Draw Four needs."""
    s.wd4 = Wd4Record(p, s.turn, len(cards), before.top, before.color,
                      before.direction, before.pending, before.pending_kind,
                      challengeable=o.challenge and not (
                          before.pending and before.pending_kind == "wild-draw4"),
                      count_after=s.hand_counts[p],
                      prev_wild_player=before.wild_player)


def play_ruling(s: UnoState, o: UnoOptions, index: int, rule: str, text: str,
                effect: str, tail: str, say: Say) -> Ruling:
    """The ruling on a legal play that did not end the round."""
    if s.pending:
        victim = s.turn
        more = ""
        if s.wd4 and s.wd4.challengeable:
            more = " unless they challenge"
        elif o.stacking:
            more = " unless they pass it on"
        return say(index, "pending", rule,
                   f"{text}: {s.players[victim]} draws {s.pending} and loses the "
                   f"turn{more}{tail}.", player=s.players[victim], draw=s.pending)
    return say(index, "ok", rule, f"{text}; {effect}")


def go_out(s: UnoState, index: int, p: int, text: str, tail: str,
           say: Say) -> list[Ruling]:
    """``p`` played the last card: the round is won, scoring waits for reveals."""
    s.round_winner = p
    s.phase = "scoring"
    s.catchable.clear()
    s.called[p] = False
    then = "every other player shows their hand (reveal) for scoring"
    victim = None
    if s.pending:
        victim = s.turn
        before = s.owed[victim]
        s.owed[victim] += s.pending
        more = (f" ({s.pending} for the {card_name(s.top)} and {before} owed before, "
                "all counting in the score)" if before and s.top
                else " (they count in the score)")
        then = (f"{s.players[victim]} still draws {s.owed[victim]}{more}, then "
                f"{then}")
    s.pending, s.pending_kind = 0, None
    name = s.players[p]
    return [say(index, "pending", "round-end",
                f"{text}; that was {name}'s last card, so {name} wins round "
                f"{s.round}: {then}{tail}.", player=s.name(victim),
                draw=s.owed[victim] if victim is not None else None)]
