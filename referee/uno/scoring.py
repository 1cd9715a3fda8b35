"""Round and game end: reveals, scoring from revealed hands, japan and international.

- japan (001 日本ルール): the winner scores the total of the other hands, each
  other player scores minus their own; the game ends after ``rounds`` rounds.
- international (001 国際ルール): the winner scores the total of the other
  hands, the others 0; the game ends when a total reaches ``target``.
- doubling (001 local 9): each losing hand counts (its UNO calls + 1) times;
  the winner receives the multiplied totals (the project's reading).

Rules ``reveal``, ``round-end`` (a round won or abandoned), ``scoring`` (the
round's result) and ``game-end``. Plain functions over the state;
:meth:`referee.uno.game.UnoGame.finish_round` calls them in order.
"""

from __future__ import annotations

from typing import Any

from ..cards import Card, parse_cards
from ..game import GameError
from ..log import Event
from ..rulings import Ruling, n_of
from .options import UnoOptions
from .plays import cards_n, hand_points, off_deck, off_deck_text
from .state import Say, UnoState


def round_deltas(hands: dict[int, int], multipliers: dict[int, int], winner: int,
                 n: int, japan: bool) -> list[int]:
    """Score deltas per player from hand points (losers only) and multipliers."""
    deltas = [0] * n
    for p, points in hands.items():
        value = points * multipliers.get(p, 1)
        deltas[winner] += value
        if japan:
            deltas[p] -= value
    return deltas


# -- reveals -------------------------------------------------------------------------
def read_reveal(s: UnoState, o: UnoOptions, ev: Event,
                say: Say) -> tuple[int, list[Card], list[Ruling]]:
    """The player and cards a ``reveal`` shows, and a refusal if a card is off-deck."""
    p, _ = s.who(ev, None)
    if p is None:
        raise GameError("a reveal needs the 'player' whose hand is shown")
    cards = parse_cards(ev.data.get("cards", []))
    bad = off_deck(cards, o.deck)
    if bad is not None:
        return p, cards, [say(ev.index, "illegal", "deck",
                              f"{off_deck_text(bad, o.deck)}: {s.players[p]} takes it "
                              "away and shows the hand again.", player=s.players[p])]
    return p, cards, []


def show_hand(s: UnoState, index: int, p: int, cards: list[Card],
              say: Say) -> Ruling:
    """A losing hand shown for scoring (``illegal`` while cards are still owed)."""
    name = s.players[p]
    if s.owed[p]:
        return say(index, "illegal", "reveal",
                   f"{name} must first draw the {cards_n(s.owed[p])} owed, then show "
                   "the hand again.", player=name, draw=s.owed[p])
    note = ""
    if len(cards) != s.hand_counts[p]:
        note = (f" (the referee counted {s.hand_counts[p]}, so the shown hand is "
                "taken as the truth)")
        s.hand_counts[p] = len(cards)
    again = " again" if p in s.revealed else ""
    s.revealed[p] = cards
    return say(index, "ok", "reveal", f"{name} shows{again} {cards_n(len(cards))} "
               f"worth {n_of(hand_points(cards), 'point')}{note}.")


def idle_reveal(s: UnoState, index: int, p: int, cards: list[Card],
                say: Say) -> Ruling:
    diff = ("" if len(cards) == s.hand_counts[p]
            else f" (the referee counts {s.hand_counts[p]})")
    return say(index, "info", "reveal", f"{s.players[p]} showed "
               f"{cards_n(len(cards))}{diff}; no ruling is waiting on it.")


def all_shown(s: UnoState) -> bool:
    """Every loser has shown their hand and drawn all they owe."""
    return all(p in s.revealed and not s.owed[p]
               for p in range(s.n) if p != s.round_winner)


# -- the round's result ----------------------------------------------------------------
def score_round(s: UnoState, o: UnoOptions) -> tuple[dict[str, Any], list[int]]:
    """Add the round's deltas to the scores; returns the round record and deltas."""
    winner = s.round_winner
    assert winner is not None
    names = s.players
    losers = [p for p in range(s.n) if p != winner]
    hands = {p: hand_points(s.revealed.get(p, [])) for p in losers}
    mult = {p: (s.uno_calls[p] + 1 if o.doubling else 1) for p in losers}
    deltas = round_deltas(hands, mult, winner, s.n, o.scoring == "japan")
    for p, d in enumerate(deltas):
        s.scores[p] += d
    record: dict[str, Any] = {
        "round": s.round, "winner": names[winner], "reason": "out",
        "deltas": dict(zip(names, deltas)),
        "hands": {names[p]: [c.label for c in s.revealed.get(p, [])] for p in losers},
    }
    if o.doubling:
        record["multipliers"] = {names[p]: m for p, m in mult.items()}
    s.rounds.append(record)
    s.rounds_won += 1
    return record, deltas


def round_ruling(s: UnoState, o: UnoOptions, index: int, record: dict[str, Any],
                 deltas: list[int], say: Say, tail: str = "",
                 **extra: Any) -> Ruling:
    """The ``round-end`` ruling: who won, the score, the totals (``tail`` appended)."""
    winner = s.round_winner
    assert winner is not None
    scores = dict(zip(s.players, s.scores))
    totals = ", ".join(f"{n} {v}" for n, v in scores.items())
    missing = [s.players[p] for p in range(s.n)
               if p != winner and p not in s.revealed]
    miss = (f" ({', '.join(missing)} never showed a hand, which counts 0)"
            if missing else "")
    doubled = " after doubling by UNO calls" if o.doubling else ""
    return say(index, "round-end", "scoring",
               f"{s.players[winner]} wins round {s.round} and scores "
               f"{deltas[winner]}{doubled}{miss}; totals: {totals}{tail}.",
               scores=scores, round=s.round, deltas=record["deltas"], **extra)


def close_round(s: UnoState, o: UnoOptions, index: int, say: Say) -> list[Ruling]:
    """The winner deals next; the game ends after ``rounds`` or at ``target``."""
    s.dealer = s.round_winner if s.round_winner is not None else s.dealer
    s.phase = "setup"
    s.owed = [0] * s.n
    if o.scoring == "japan":
        done = s.rounds_won >= o.rounds
        why = f"after {n_of(s.rounds_won, 'round')}"
    else:
        done = max(s.scores) >= o.target
        why = f"because a total reached {o.target}"
    return [end_game(s, index, why, say)] if done else []


def end_game(s: UnoState, index: int, why: str, say: Say) -> Ruling:
    """The ``game-end`` ruling: the highest total wins (a tie is said so)."""
    s.phase = "over"
    best = max(s.scores)
    top = [p for p in range(s.n) if s.scores[p] == best]
    ranking = sorted(range(s.n), key=lambda p: -s.scores[p])
    scores = dict(zip(s.players, s.scores))
    if len(top) == 1:
        s.winner = top[0]
        head = f"{s.players[top[0]]} wins with {n_of(best, 'point')}"
    else:
        s.winner = None
        head = (f"{' and '.join(s.players[p] for p in top)} tie for first with "
                f"{n_of(best, 'point')}")
    return say(index, "game-end", "game-end", f"The game ends {why}: {head}.",
               scores=scores, ranking=[s.players[p] for p in ranking])


def abandon_round(s: UnoState, index: int, say: Say) -> list[Ruling]:
    """A new ``start`` arrived while a round was still being played."""
    s.rounds.append({"round": s.round, "winner": None, "reason": "abandoned",
                     "deltas": {n: 0 for n in s.players}, "hands": {}})
    s.phase = "setup"
    return [say(index, "info", "round-end",
                f"Round {s.round} had no winner when a new first card was turned, so "
                "it is abandoned without scores.")]
