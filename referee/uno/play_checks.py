"""Whether a play's cards may go down: the refusals of a play, said.

:func:`check_play` is the first step of a play (:mod:`.turns` re-exports it):
a play that breaks a rule is an ``illegal`` ruling with its remedy (the cards
go back to the hand, the turn is unchanged) and leaves the state untouched; a
legal play comes back as :data:`Play`, the arguments of ``UnoGame.play_cards``.
"""

from __future__ import annotations

from ..cards import Card
from ..game import GameError
from ..log import Event
from ..rulings import Ruling
from ..text import Text, cap, define
from .calls import close_windows, color_of
from .options import UnoOptions
from .plays import (card_name, cards_n, cards_name, cards_of, first_card_problem,
                    multi_problem, off_deck, off_deck_text)
from .state import Say, UnoState

define({
    "uno.play-no-cards": {
        "en": "a play needs a non-empty 'cards' list",
        "ja": "プレイには出したカードが1枚以上必要です"},
    # refusals of a play (check_play)
    "uno.play-deck": {
        "en": "{problem}: {player} takes it back.",
        "ja": "{problem!c}、{player}はそれを戻します。"},
    "uno.play-before-first-card": {
        "en": "No first card has been turned for this round yet, so {player} takes "
              "the {cards} back.",
        "ja": "このラウンドの最初のカードがまだめくられていないので、"
              "{player}は{cards}を戻します。"},
    "uno.play-round-won": {
        "en": "Round {round} is already won by {winner}, so {player} takes the {cards}"
              " back.",
        "ja": "ラウンド{round}はもう{winner}が勝っているので、"
              "{player}は{cards}を戻します。"},
    "uno.play-challenge-first": {
        "en": "The challenge must be settled first (the accused shows their hand), so "
              "{player} takes the {cards} back.",
        "ja": ("先にチャレンジの決着をつけなければならず（疑われた人が手札を見せます"
               "）、{player}は{cards}を戻します。")},
    "uno.play-pass-implied": {
        "en": "{before} drew and did not play, so the turn passed to {player} (no "
              "pass was logged).",
        "ja": "{before}は引いたカードを出さなかったので、"
              "手番は{player}に移りました（パスは記録されていません）。"},
    "uno.play-not-your-turn": {
        "en": "It is {turn}'s turn, not {player}'s, so {player} takes the {cards} "
              "back and play goes on with {turn}.",
        "ja": "{player}ではなく{turn}の番なので、{player}は{cards}を戻し、"
              "{turn}から続けます。"},
    "uno.play-back": {
        "en": "{player} takes the {cards} back",
        "ja": "{player}は{cards}を戻します"},
    "uno.play-back-still": {
        "en": "{player} takes the {cards} back and it is still {player}'s turn",
        "ja": "{player}は{cards}を戻し、まだ{player}の番です"},
    "uno.play-hand-count": {
        "en": "{player} holds only {count} by the referee's count, so {back}.",
        "ja": "審判の数えでは{player}の手札は{count}だけなので、{back}。"},
    "uno.play-multi": {"en": "{problem}, so {back}.", "ja": "{problem!c}、{back}。"},
    "uno.play-drawn-card": {
        "en": "After drawing, only the card just drawn may be played, so {back}.",
        "ja": "引いた後に出せるのは、いま引いたカードだけで、{back}。"},
    "uno.play-wd4-returned": {
        "en": "{player}'s Wild Draw Four was found guilty and went back to the hand, "
              "so {player} must play another card now, not a Wild Draw Four; {back}.",
        "ja": ("{player}のワイルドドロー4は反則と判定されて手札に戻ったので、"
               "{player}はワイルドドロー4ではなく別のカードを出さなければならず、"
               "{back}。")},
    "uno.play-owes": {
        "en": "{player} owes {count} and must draw them first",
        "ja": "{player}は{count}引く番で、先にそれを引かなければなりません"},
    "uno.play-owes-or-challenge": {
        "en": "{player} owes {count} and must draw them first (or challenge)",
        "ja": "{player}は{count}引く番で、先にそれを引かなければなりません（チャレン"
              "ジもできます）"},
    "uno.play-cannot": {
        "en": "The {card} cannot be played because {problem}, so {back}.",
        "ja": "{problem!c}、{card}は出せず、{back}。"},
    "uno.play-out-owing": {
        "en": "{player} still owes {count} and must draw them before going out, so "
              "{back}.",
        "ja": ("{player}はまだ{count}引かなければならず、"
               "上がる前にそれを引く必要があり、{back}。")},
    "uno.play-out-on-action": {
        "en": "This table forbids going out on an action card, so {back}.",
        "ja": "このテーブルでは記号カードで上がることはできず、{back}。"},
    "uno.play-out-without-call": {
        "en": "{player} went out with {n} cards without calling UNO, so only the "
              "{card} counts and the rest go back to the hand.",
        "ja": "{player}はウノを言わずに{n}枚で上がろうとしたので、"
              "{card}だけを出したことになり、残りは手札に戻ります。"},
})

RULE_OF = {"skip": "skip", "reverse": "reverse", "draw2": "draw2", "wild": "wild",
           "wild-draw4": "wd4", "wild-shuffle": "shuffle-hands", "wild-custom": "wild"}


#: A play found legal: (player, cards, colour named, note on an implied player,
#: jump-in), the arguments of ``UnoGame.play_cards`` after the event.
Play = tuple[int, list[Card], "str | None", str, bool]


def check_play(s: UnoState, o: UnoOptions, ev: Event,
               say: Say) -> tuple[list[Ruling], Play | None]:
    """``play``: whether the cards may go down; the rulings so far and the play."""
    raw = ev.data.get("cards")
    if raw is None and "card" in ev.data:
        raw = [ev.data["card"]]
    cards = cards_of(raw if raw is not None else [])
    if not cards:
        raise GameError(Text("uno.play-no-cards"))
    color = color_of(ev)
    p, implied = s.who(ev, s.turn)
    assert p is not None
    names = s.players
    name = names[p]
    bad = off_deck(cards, o.deck)
    if bad is not None:
        return [say(ev.index, "illegal", "deck",
                    Text("uno.play-deck", problem=off_deck_text(bad, o.deck),
                         player=name), player=name)], None

    if s.phase in ("setup", "restart"):
        return [say(ev.index, "illegal", "first-card",
                    Text("uno.play-before-first-card", player=name,
                         cards=cards_name(cards)), player=name)], None
    if s.phase == "scoring":
        return [say(ev.index, "illegal", "round-end",
                    Text("uno.play-round-won", round=s.round,
                         winner=s.name(s.round_winner), player=name,
                         cards=cards_name(cards)), player=name)], None
    if s.phase == "challenge":
        return [say(ev.index, "illegal", "wd4-challenge",
                    Text("uno.play-challenge-first", player=name,
                         cards=cards_name(cards)), player=name)], None
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
                           Text("uno.play-pass-implied", before=names[s.turn],
                                player=name)))
            out += close_windows(s, o, ev.index, s.turn, False, say)
            s.turn, s.phase, s.drawn_card = p, "turn", None
        else:
            return [say(ev.index, "illegal", "turn",
                        Text("uno.play-not-your-turn", turn=names[s.turn], player=name,
                             cards=cards_name(cards)), player=name)], None

    def back() -> Text:  # built only for a refusal (replay speed)
        return Text("uno.play-back" if jump else "uno.play-back-still", player=name,
                    cards=cards_name(cards))

    if len(cards) > s.hand_counts[p]:
        return out + [say(ev.index, "illegal", "hand-count",
                          Text("uno.play-hand-count", player=name,
                               count=cards_n(s.hand_counts[p]), back=back()),
                          player=name)], None
    problem = multi_problem(cards, o)
    if problem:
        return out + [say(ev.index, "illegal", "multi-play",
                          Text("uno.play-multi", problem=cap(problem), back=back()),
                          player=name)], None
    if s.phase == "drawn" and not jump:
        other = s.drawn_card is not None and cards[0] != s.drawn_card
        if len(cards) > 1 or other:
            return out + [say(ev.index, "illegal", "drawn-card",
                              Text("uno.play-drawn-card", back=back()),
                              player=name)], None
    if s.wd4_returned == p and cards[0].value == "wild-draw4":
        return out + [say(ev.index, "illegal", "wd4-challenge",
                          Text("uno.play-wd4-returned", player=name, back=back()),
                          player=name)], None
    problem = first_card_problem(cards[0], s.top, s.color, s.pending, s.pending_kind, o)
    if problem:
        rule = ("stacking" if o.stacking else RULE_OF.get(s.pending_kind or "", "draw2")
                ) if s.pending else "match"
        if s.pending:
            challengeable = (s.pending_kind == "wild-draw4" and s.wd4
                             and s.wd4.challengeable)
            problem = Text("uno.play-owes-or-challenge" if challengeable
                           else "uno.play-owes", player=name, count=cards_n(s.pending))
        return out + [say(ev.index, "illegal", rule,
                          Text("uno.play-cannot", card=card_name(cards[0]),
                               problem=problem, back=back()), player=name)], None
    left = s.hand_counts[p] - len(cards)
    if left == 0:
        if s.owed[p]:
            return out + [say(ev.index, "illegal", "going-out",
                              Text("uno.play-out-owing", player=name,
                                   count=cards_n(s.owed[p]), back=back()),
                              player=name, draw=s.owed[p])], None
        if not o.out_on_action and cards[-1].is_action:
            return out + [say(ev.index, "illegal", "going-out",
                              Text("uno.play-out-on-action", back=back()),
                              player=name)], None
        if len(cards) > 1 and o.multi_out == "needs-call" and not s.called[p]:
            out.append(say(ev.index, "illegal", "multi-play",
                           Text("uno.play-out-without-call", player=name,
                                n=len(cards), card=card_name(cards[0])), player=name))
            cards = cards[:1]
    return out, (p, cards, color, s.implied_note(p, implied), jump)
