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
from ..rulings import Ruling
from ..text import Text, count, define
from .options import UnoOptions
from .plays import cards_n, hand_points, off_deck, off_deck_text
from .state import Say, UnoState
from .turns import name_list, tally

define({
    "uno.score-reveal-no-player": {
        "en": "a reveal needs the 'player' whose hand is shown",
        "ja": "手札を見せるには、見せるプレイヤーの指定が必要です"},
    "uno.score-deck": {
        "en": "{problem}: {player} takes it away and shows the hand again.",
        "ja": "{problem!c}、{player}はそれを除いて、手札を見せ直します。"},
    "uno.score-draw-first": {
        "en": "{player} must first draw the {count} owed, then show the hand again.",
        "ja": "{player}は先に引くべき{count}を引いてから、手札を見せ直します。"},
    "uno.score-shows": {
        "en": "{player} shows {count} worth {points}{note}.",
        "ja": "{player}は{count}を見せ、{points}です{note}。"},
    "uno.score-shows-again": {
        "en": "{player} shows again {count} worth {points}{note}.",
        "ja": "{player}は{count}を見せ直し、{points}です{note}。"},
    "uno.score-count-corrected": {
        "en": " (the referee counted {n}, so the shown hand is taken as the truth)",
        "ja": "（審判の数えは{n}枚でしたが、見せた手札を正しいものとします）"},
    "uno.score-idle-reveal": {
        "en": "{player} showed {count}{diff}; no ruling is waiting on it.",
        "ja": "{player}は{count}を見せ{diff}、これを待っている裁定はありません。"},
    "uno.score-referee-counts": {
        "en": " (the referee counts {n})",
        "ja": "（審判の数えでは{n}枚）"},
    "uno.score-round": {
        "en": "{player} wins round {round} and scores {points}{missing}; totals: "
              "{totals}{tail}.",
        "ja": ("ラウンド{round}は{player}の勝ちで、{points}点を得ます{missing}（合計:"
               " {totals}）{tail}。")},
    "uno.score-round-doubled": {
        "en": "{player} wins round {round} and scores {points} after doubling by UNO "
              "calls{missing}; totals: {totals}{tail}.",
        "ja": ("ラウンド{round}は{player}の勝ちで、"
               "ウノ宣言による倍付けで{points}点を得ます{missing}（合計: {totals}）"
               "{tail}。")},
    "uno.score-never-showed": {
        "en": " ({players} never showed a hand, which counts 0)",
        "ja": "（{players}は手札を見せなかったので0点です）"},
    "uno.game-end-after": {"en": "after {count}", "ja": "{count}を終えて"},
    "uno.game-end-target": {
        "en": "because a total reached {target}",
        "ja": "合計が{target}点に達したので"},
    "uno.game-end-wins": {
        "en": "The game ends {why}: {player} wins with {points}.",
        "ja": "{why}ゲーム終了となり、{player}が{points}で勝ちです。"},
    "uno.game-end-tie": {
        "en": "The game ends {why}: {players} tie for first with {points}.",
        "ja": "{why}ゲーム終了となり、{players}が{points}で1位に並びます。"},
    "uno.round-abandoned": {
        "en": "Round {round} had no winner when a new first card was turned, so it is "
              "abandoned without scores.",
        "ja": "新しい最初のカードがめくられたとき、"
              "ラウンド{round}にはまだ勝者がいなかったので、得点なしで打ち切ります。"},
})


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
        raise GameError(Text("uno.score-reveal-no-player"))
    cards = parse_cards(ev.data.get("cards", []))
    bad = off_deck(cards, o.deck)
    if bad is not None:
        return p, cards, [say(ev.index, "illegal", "deck",
                              Text("uno.score-deck", problem=off_deck_text(bad, o.deck),
                                   player=s.players[p]), player=s.players[p])]
    return p, cards, []


def show_hand(s: UnoState, index: int, p: int, cards: list[Card],
              say: Say) -> Ruling:
    """A losing hand shown for scoring (``illegal`` while cards are still owed)."""
    name = s.players[p]
    if s.owed[p]:
        return say(index, "illegal", "reveal",
                   Text("uno.score-draw-first", player=name, count=cards_n(s.owed[p])),
                   player=name, draw=s.owed[p])
    note: Text | str = ""
    if len(cards) != s.hand_counts[p]:
        note = Text("uno.score-count-corrected", n=s.hand_counts[p])
        s.hand_counts[p] = len(cards)
    key = "uno.score-shows-again" if p in s.revealed else "uno.score-shows"
    s.revealed[p] = cards
    return say(index, "ok", "reveal",
               Text(key, player=name, count=cards_n(len(cards)),
                    points=count(hand_points(cards), "point"), note=note))


def idle_reveal(s: UnoState, index: int, p: int, cards: list[Card],
                say: Say) -> Ruling:
    diff = ("" if len(cards) == s.hand_counts[p]
            else Text("uno.score-referee-counts", n=s.hand_counts[p]))
    return say(index, "info", "reveal",
               Text("uno.score-idle-reveal", player=s.players[p],
                    count=cards_n(len(cards)), diff=diff))


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
    missing = [s.players[p] for p in range(s.n)
               if p != winner and p not in s.revealed]
    miss = (Text("uno.score-never-showed", players=name_list(missing))
            if missing else "")
    key = "uno.score-round-doubled" if o.doubling else "uno.score-round"
    return say(index, "round-end", "scoring",
               Text(key, player=s.players[winner], round=s.round,
                    points=deltas[winner], missing=miss,
                    totals=tally(scores, scores.values(), "point"), tail=tail),
               scores=scores, round=s.round, deltas=record["deltas"], **extra)


def close_round(s: UnoState, o: UnoOptions, index: int, say: Say) -> list[Ruling]:
    """The winner deals next; the game ends after ``rounds`` or at ``target``."""
    s.dealer = s.round_winner if s.round_winner is not None else s.dealer
    s.phase = "setup"
    s.owed = [0] * s.n
    if o.scoring == "japan":
        done = s.rounds_won >= o.rounds
        why = Text("uno.game-end-after", count=count(s.rounds_won, "round"))
    else:
        done = max(s.scores) >= o.target
        why = Text("uno.game-end-target", target=o.target)
    return [end_game(s, index, why, say)] if done else []


def end_game(s: UnoState, index: int, why: Text, say: Say) -> Ruling:
    """The ``game-end`` ruling: the highest total wins (a tie is said so).

    ``why`` finishes "The game ends ...": ``after 5 rounds`` (a :class:`Text`)."""
    s.phase = "over"
    best = max(s.scores)
    top = [p for p in range(s.n) if s.scores[p] == best]
    ranking = sorted(range(s.n), key=lambda p: -s.scores[p])
    scores = dict(zip(s.players, s.scores))
    if len(top) == 1:
        s.winner = top[0]
        text = Text("uno.game-end-wins", why=why, player=s.players[top[0]],
                    points=count(best, "point"))
    else:
        s.winner = None
        text = Text("uno.game-end-tie", why=why,
                    players=name_list([s.players[p] for p in top], " and "),
                    points=count(best, "point"))
    return say(index, "game-end", "game-end", text,
               scores=scores, ranking=[s.players[p] for p in ranking])


def abandon_round(s: UnoState, index: int, say: Say) -> list[Ruling]:
    """A new ``start`` arrived while a round was still being played."""
    s.rounds.append({"round": s.round, "winner": None, "reason": "abandoned",
                     "deltas": {n: 0 for n in s.players}, "hands": {}})
    s.phase = "setup"
    return [say(index, "info", "round-end", Text("uno.round-abandoned", round=s.round))]
