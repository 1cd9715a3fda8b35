"""Draws and passes: the half of the uno turn machine that takes cards.

Plain functions over the state. A draw pays what a player owes (a penalty, a
Draw Two / Wild Draw Four) or is the turn's one voluntary draw; a draw that
should not have happened is ``illegal`` with the remedy of returning the
cards, and the state then counts as if the remedy were carried out.
:meth:`referee.uno.game.UnoGame.on_draw` calls these steps in order.
"""

from __future__ import annotations

from typing import NamedTuple

from ..cards import Card, parse_cards
from ..game import GameError
from ..log import Event
from ..rulings import Ruling
from .calls import close_windows
from ..text import Text, define
from .options import UnoOptions
from .plays import cards_n
from .state import Say, UnoState

define({
    "uno.bad-draw-count": {
        "en": "a draw's 'count' must be a positive whole number, got {got}",
        "ja": "引く記録の 'count' は正の整数でなければなりません（{got}）",
    },
    "uno.draw-needs-player": {
        "en": "a draw needs a 'player' here: nobody owes cards",
        "ja": "ここで引く記録には 'player' が必要です（引く義務のある人がいません）",
    },
})

define({
    "uno.draw-no-round": {
        "en": "No round is under way (the first card is not turned), so the cards go "
              "back to the pile.",
        "ja": "ラウンドが始まっていない（最初のカードがめくられていない）ので、"
              "カードは山札に戻します。"},
    "uno.draw-drops-challenge": {
        "en": "{player} draws instead of waiting for the accused's hand, so the "
              "challenge is dropped.",
        "ja": "{player}は相手の手札を待たずに引いたので、チャレンジは取り下げです。"},
    "uno.reshuffle": {
        "en": "The draw pile ran out, so the discards except the top card are "
              "shuffled into a new pile.",
        "ja": "山札がなくなったので、一番上以外の捨て札を混ぜて新しい山札にします。"},
    "uno.draw-excused": {
        "en": "Only {cards} could be drawn, so {player} is excused the other {n}.",
        "ja": "{cards}しか引けなかったので、{player}は残りの{n}枚を引かなくて"
              "かまいません。"},
    "uno.draw-still-owes": {
        "en": "{player} drew {n}{note} and still owes {owed}.",
        "ja": "{player}は{n}枚引き{note}、まだ{owed}枚引かなければなりません。"},
    "uno.draw-paid": {
        "en": "{player} drew the {cards} owed{note}.",
        "ja": "{player}は引くべき{cards}を引きました{note}。"},
    "uno.draw-lose-turn": {
        "en": "{player} drew the cards owed{note} and loses the turn; it is {next}'s "
              "turn.",
        "ja": "{player}は引くべきカードを引き{note}、手番を失い、{next}の番です。"},
    "uno.draw-one": {
        "en": "{player} draws a card{note} and may play that card or pass.",
        "ja": "{player}はカードを1枚引き{note}、そのカードを出すか、パスできます。"},
    "uno.refuse-drawn": {"en": "has already drawn this turn",
                         "ja": "この手番ですでに引いている"},
    "uno.refuse-owes-none": {"en": "owes no cards", "ja": "引くべきカードがない"},
    "uno.refuse-not-now": {
        "en": "may not draw now (it is not their turn and they owe no cards)",
        "ja": "今は引けない（手番ではなく、引くべきカードもない）"},
    "uno.refuse-only-one": {"en": "may draw only one card",
                            "ja": "1枚しか引けない"},
    "uno.refuse-rest-one": {
        "en": "{player}{note} {why}, so {cards} goes back to the pile.",
        "ja": "{player}は{why}ので{note}、{cards}を山札に戻します。"},
    "uno.refuse-rest": {
        "en": "{player}{note} {why}, so {cards} go back to the pile.",
        "ja": "{player}は{why}ので{note}、{cards}を山札に戻します。"},
    "uno.pass-not-now": {
        "en": "Nothing is waiting on {player} to play now, so the pass is ignored.",
        "ja": "今は{player}が出す場面ではないので、パスは無視します。"},
    "uno.pass-not-turn": {
        "en": "It is {turn}'s turn, not {player}'s, so the pass is ignored.",
        "ja": "{turn}の番で{player}の番ではないので、パスは無視します。"},
    "uno.pass-after-draw": {
        "en": "{player} passes after drawing{note}; it is {next}'s turn.",
        "ja": "{player}は引いた後にパスし{note}、{next}の番です。"},
    "uno.pass-owes": {
        "en": "{player} must first draw the {cards} owed{note}, so the pass is "
              "ignored.",
        "ja": "{player}はまず引くべき{cards}を引かなければならないので{note}、"
              "パスは無視します。"},
    "uno.pass-draw-first": {
        "en": "{player} must draw a card before passing{note}, so it is still "
              "{player}'s turn.",
        "ja": "{player}はパスの前にカードを1枚引かなければならないので{note}、"
              "まだ{player}の番です。"},
})

_IN_PLAY = ("turn", "drawn")


class Draw(NamedTuple):
    """A ``draw`` event read: who, how many, and the cards if logged."""

    player: int
    count: int
    cards: list[Card] | None
    note: Text | str  # " (player taken from the turn)" (UnoState.implied_note)


def read_draw(s: UnoState, ev: Event, say: Say) -> Draw | list[Ruling]:
    """The draw an event asks for, or the rulings refusing it outright."""
    count = ev.data.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise GameError(Text("uno.bad-draw-count", got=repr(count)))
    drawn = ev.data.get("cards")
    drawn_cards = parse_cards(drawn) if drawn is not None else None
    if s.phase in ("setup", "restart"):
        who, _ = s.who(ev, None)
        return [say(ev.index, "illegal", "draw", Text("uno.draw-no-round"),
                    player=s.name(who))]
    debtors = [i for i, c in enumerate(s.owed) if c]
    default = s.turn if s.phase in ("turn", "drawn", "challenge") else None
    free = default is None or (not s.owed[default] and not s.pending)
    if free and len(debtors) == 1:
        default = debtors[0]
    p, implied = s.who(ev, default)
    if p is None:
        raise GameError(Text("uno.draw-needs-player"))
    note = s.implied_note(p, implied, "turn" if p == s.turn else "cards owed")
    return Draw(p, count, drawn_cards, note)


def drop_challenge(s: UnoState, index: int, p: int, say: Say) -> list[Ruling]:
    """A challenger who draws instead of waiting drops the challenge."""
    if s.phase == "challenge" and p == s.challenger and not s.owed[p]:
        s.phase, s.challenger = "turn", None
        return [say(index, "info", "wd4-challenge",
                    Text("uno.draw-drops-challenge", player=s.players[p]))]
    return []


def take(s: UnoState, index: int, p: int, count: int, say: Say) -> list[Ruling]:
    """Move ``count`` cards from the pile to ``p``'s hand (reshuffle if needed)."""
    out = []
    if count > s.draw_pile and s.discard > 1:
        out.append(say(index, "info", "reshuffle", Text("uno.reshuffle")))
    got = s.take_from_pile(count)
    s.hand_counts[p] += got
    if got:
        s.called[p] = False
        s.catchable.pop(p, None)
    if got < count:
        out.append(say(index, "info", "reshuffle",
                       Text("uno.draw-excused", cards=cards_n(got), player=s.players[p],
                            n=count - got)))
    return out


def pay_owed(s: UnoState, index: int, d: Draw, left: int,
             say: Say) -> tuple[list[Ruling], int]:
    """Pay what ``d.player`` owes (a penalty); returns rulings and cards left over."""
    p = d.player
    pay = min(left, s.owed[p])
    out = take(s, index, p, pay, say)
    s.owed[p] -= pay
    if s.owed[p] and not s.draw_pile and s.discard <= 1:
        s.owed[p] = 0
    if s.owed[p]:
        out.append(say(index, "pending", "draw",
                       Text("uno.draw-still-owes", player=s.players[p], n=pay,
                            note=d.note, owed=s.owed[p]),
                       player=s.players[p], draw=s.owed[p]))
    else:
        out.append(say(index, "ok", "draw",
                       Text("uno.draw-paid", player=s.players[p], cards=cards_n(pay),
                            note=d.note)))
    return out, left - pay


def pay_pending(s: UnoState, o: UnoOptions, index: int, d: Draw, left: int,
                say: Say) -> tuple[list[Ruling], int]:
    """Pay a Draw Two / Wild Draw Four debt; returns rulings and cards left over."""
    p = d.player
    out = close_windows(s, o, index, p, False, say)
    pay = min(left, s.pending)
    out += take(s, index, p, pay, say)
    s.pending -= pay
    if s.pending and not s.draw_pile and s.discard <= 1:
        s.pending = 0
    if s.pending:
        out.append(say(index, "pending", "draw",
                       Text("uno.draw-still-owes", player=s.players[p], n=pay,
                            note=d.note, owed=s.pending),
                       player=s.players[p], draw=s.pending))
    return out, left - pay


def lose_turn(s: UnoState, index: int, p: int, note: Text | str,
              say: Say) -> list[Ruling]:
    """The debt is paid: the player loses the turn (001 ドロー2)."""
    s.pending_kind, s.wd4 = None, None
    s.turn = s.step(p, 1)
    return [say(index, "ok", "draw",
                Text("uno.draw-lose-turn", player=s.players[p], note=note,
                     next=s.players[s.turn]))]


def draw_one(s: UnoState, o: UnoOptions, index: int, d: Draw,
             say: Say) -> list[Ruling]:
    """The turn's one voluntary draw: then play that card or pass."""
    p = d.player
    out = close_windows(s, o, index, p, False, say)
    out += take(s, index, p, 1, say)
    s.phase = "drawn"
    s.drawn_card = d.cards[-1] if d.cards and d.count == 1 else None
    out.append(say(index, "ok", "draw",
                   Text("uno.draw-one", player=s.players[p], note=d.note)))
    return out


def refuse_rest(s: UnoState, index: int, d: Draw, left: int, say: Say) -> Ruling:
    """Cards drawn beyond what was owed or allowed go back to the pile."""
    p = d.player
    why = ("uno.refuse-drawn" if s.phase == "drawn" and p == s.turn
           else "uno.refuse-owes-none" if p == s.turn and s.phase == "turn"
           else "uno.refuse-not-now")
    if p == s.turn and s.phase == "turn" and not s.pending:
        why = "uno.refuse-only-one"
    return say(index, "illegal", "draw",
               Text("uno.refuse-rest-one" if left == 1 else "uno.refuse-rest",
                    player=s.players[p], note=d.note, why=Text(why),
                    cards=cards_n(left)),
               player=s.players[p])


def on_pass(s: UnoState, o: UnoOptions, ev: Event, say: Say) -> list[Ruling]:
    """``pass``: ends the turn after a draw."""
    p, implied = s.who(ev, s.turn)
    assert p is not None
    name = s.players[p]
    if s.phase not in _IN_PLAY:
        return [say(ev.index, "info", "pass", Text("uno.pass-not-now", player=name))]
    if p != s.turn:
        return [say(ev.index, "illegal", "turn",
                    Text("uno.pass-not-turn", turn=s.players[s.turn], player=name),
                    player=name)]
    note = s.implied_note(p, implied)
    if s.phase == "drawn":
        out = close_windows(s, o, ev.index, p, False, say)
        s.turn, s.phase, s.drawn_card = s.step(p, 1), "turn", None
        s.wd4_returned = None
        return out + [say(ev.index, "ok", "pass",
                          Text("uno.pass-after-draw", player=name, note=note,
                               next=s.players[s.turn]))]
    if s.pending:
        return [say(ev.index, "illegal", "pass",
                    Text("uno.pass-owes", player=name, cards=cards_n(s.pending),
                         note=note), player=name, draw=s.pending)]
    return [say(ev.index, "illegal", "pass",
                Text("uno.pass-draw-first", player=name, note=note), player=name)]
