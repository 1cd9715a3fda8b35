"""Plays and card effects: the turn machine of the uno engine, as plain functions.

Each function takes the state (and the options, the event, and ``say`` to
name its rulings) and returns rulings; :class:`~referee.uno.game.UnoGame`
calls them in order. Whether a play may go down at all is checked first by
:func:`~referee.uno.play_checks.check_play` (re-exported here); draws and
passes live in :mod:`.draws`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..cards import COLORS, Card
from ..rulings import Ruling
from ..text import NOUNS, Text, color, define, formatter
from .options import UnoOptions
from .play_checks import RULE_OF, check_play  # noqa: F401 (re-exported)
from .plays import card_name
from .state import Say, UnoState, Wd4Record


define({
    # a legal play: who plays what (play_text), then its effect (card_effect)
    "uno.play-plays": {
        "en": "{player} plays the {cards}{note}",
        "ja": "{player}は{cards}を出します{note}"},
    "uno.play-plays-names": {
        "en": "{player} plays the {cards}{note} and names {color}",
        "ja": "{player}は{cards}を出して{color}を指定します{note}"},
    "uno.play-plays-no-colour": {
        "en": "{player} plays the {cards}{note} without a logged colour, so any card "
              "may follow until one is named",
        "ja": ("{player}は{cards}を出し{note}、色が記録されていないので、"
               "色が決まるまでどのカードでも出せます")},
    "uno.play-jumps": {
        "en": "{player} jumps in with the {cards}{note}",
        "ja": "{player}は{cards}でジャンプインします{note}"},
    "uno.play-jumps-names": {
        "en": "{player} jumps in with the {cards}{note} and names {color}",
        "ja": "{player}は{cards}でジャンプインして{color}を指定します{note}"},
    "uno.play-jumps-no-colour": {
        "en": "{player} jumps in with the {cards}{note} without a logged colour, so "
              "any card may follow until one is named",
        "ja": ("{player}は{cards}でジャンプインし{note}、色が記録されていないので、"
               "色が決まるまでどのカードでも出せます")},
    "uno.effect-turn": {"en": "it is {player}'s turn.", "ja": "{player}の番です。"},
    "uno.effect-skip": {
        "en": "{skipped} is skipped and it is {player}'s turn.",
        "ja": "{skipped}はとばされ、{player}の番です。"},
    "uno.effect-reverse-two": {
        "en": "with two players the Reverse acts as a Skip: {player} plays.",
        "ja": "2人なのでリバースはスキップと同じで、{player}の番です。"},
    "uno.effect-clockwise": {
        "en": "play now goes clockwise and it is {player}'s turn.",
        "ja": "ここから時計回りになり、{player}の番です。"},
    "uno.effect-counter-clockwise": {
        "en": "play now goes counter-clockwise and it is {player}'s turn.",
        "ja": "ここから反時計回りになり、{player}の番です。"},
    "uno.effect-shuffled": {
        "en": "all hands are shuffled and dealt out again from {player} ({counts}); "
              "it is {player}'s turn.",
        "ja": ("全員の手札を集めて混ぜ、{player}から配り直し（{counts}）、"
               "{player}の番です。")},
    "uno.deflect-skip": {
        "en": " (interpreted: a Skip passes the draw over the next player, as the "
              "seed's T2 table does)",
        "ja": "（解釈: シードのT2の表と同じく、スキップは次の人を飛ばしてドローを回し"
              "ます）"},
    "uno.deflect-reverse": {
        "en": " (interpreted: a Reverse sends the draw back)",
        "ja": "（解釈: リバースはドローを送り返します）"},
    # the ruling on a legal play (play_ruling, go_out)
    "uno.play-ok": {"en": "{text}; {effect}", "ja": "{text!l}、{effect}"},
    "uno.play-pending": {
        "en": "{text}: {player} draws {n} and loses the turn{tail}.",
        "ja": "{text!l}、{player}は{n}枚引いて、手番を失います{tail}。"},
    "uno.play-pending-challenge": {
        "en": "{text}: {player} draws {n} and loses the turn unless they challenge"
              "{tail}.",
        "ja": ("{text!l}、{player}はチャレンジしなければ{n}枚引いて、"
               "手番を失います{tail}。")},
    "uno.play-pending-stack": {
        "en": "{text}: {player} draws {n} and loses the turn unless they pass it on"
              "{tail}.",
        "ja": ("{text!l}、{player}は次へ回さなければ{n}枚引いて、"
               "手番を失います{tail}。")},
    "uno.out-reveal": {
        "en": "every other player shows their hand (reveal) for scoring",
        "ja": "ほかの全員が得点計算のために手札を見せます"},
    "uno.out-owed": {
        "en": "{player} still draws {n} (they count in the score), then {then}",
        "ja": "{player}はまだ{n}枚引き（得点に数えます）、そのあと{then}"},
    "uno.out-owed-before": {
        "en": "{player} still draws {n} ({pending} for the {card} and {before} owed "
              "before, all counting in the score), then {then}",
        "ja": "{player}はまだ{n}枚引き（{card}の{pending}枚と前から引くべき{before}枚"
              "で、すべて得点に数えます）、そのあと{then}"},
    "uno.out-wins": {
        "en": "{text}; that was {player}'s last card, so {player} wins round {round}: "
              "{then}{tail}.",
        "ja": ("{text!l}、これが{player}の最後のカードなので、"
               "ラウンド{round}は{player}の勝ちとなり、{then}{tail}。")},
})

_LIST_SEPS = {", ": "、", " and ": "と", "; ": "、"}


@formatter("uno-name-list")
def _name_list(args: Any, lang: str) -> str:
    """Players' names: ``"A and B"``, ``"A, B"`` (``sep``); ``"AとB"``, ``"A、B"``."""
    sep = str(args.get("sep", ", "))
    if lang == "ja":
        sep = _LIST_SEPS.get(sep, sep)
    return sep.join(str(n) for n in args["names"])


@formatter("uno-tally")
def _tally(args: Any, lang: str) -> str:
    """Players and numbers: ``A 5, B 7``; ``A 5枚、B 7枚`` (``noun``: card, point)."""
    pairs = zip(args["names"], args["values"])
    if lang == "ja":
        unit = NOUNS["ja"].get(str(args.get("noun")), "{n}")
        return "、".join(f"{n} {unit.format(n=v)}" for n, v in pairs)
    return ", ".join(f"{n} {v}" for n, v in pairs)


def name_list(names: list[str], sep: str = ", ") -> Text | str:
    """Names said one after the other (``sep`` ", " or " and "); one name as it is."""
    if len(names) == 1:
        return names[0]
    return Text("@uno-name-list", names=list(names), sep=sep)


def tally(names: Any, values: Any, noun: str) -> Text:
    """``A 5, B 7`` with each number's noun in Japanese (``card`` or ``point``)."""
    return Text("@uno-tally", names=list(names), values=list(values), noun=noun)


#: Rendered once: the colours a wild names, "it is P's turn." by name, and the
#: sentences of a play (replay speed: most rulings are plays). A Text is never
#: changed once made, so rulings may share one; a Text is equal to another with
#: the same English, and this module's English says one Japanese sentence.
_COLOURS: dict[str, Text] = {c: color(c) for c in COLORS}
_TURN_TEXTS: dict[str, Text] = {}
_PLAY_TEXTS: dict[tuple[Any, ...], Text] = {}
_KEPT = 4096  # the most sentences a cache keeps before it starts again


def colour_said(name: str) -> Text:
    """A colour's name (the four are rendered once)."""
    said = _COLOURS.get(name)
    return said if said is not None else color(name)


def turn_text(player: str) -> Text:
    """``it is P2's turn.`` (kept per name: the most frequent effect of a play)."""
    said = _TURN_TEXTS.get(player)
    if said is None:
        said = Text("uno.effect-turn", player=player)
        if len(_TURN_TEXTS) >= _KEPT:
            _TURN_TEXTS.clear()
        _TURN_TEXTS[player] = said
    return said


def _effect(key: str, player: str, skipped: Text | str | None = None) -> Text:
    """A card's effect on the turn (``P3 is skipped and it is P1's turn.``), kept."""
    known = (key, player, skipped)
    said = _PLAY_TEXTS.get(known)
    if said is None:
        said = (Text(key, player=player) if skipped is None
                else Text(key, skipped=skipped, player=player))
        _keep(known, said)
    return said


def _keep(known: tuple[Any, ...], said: Text) -> None:
    if len(_PLAY_TEXTS) >= _KEPT:
        _PLAY_TEXTS.clear()
    _PLAY_TEXTS[known] = said


class Before(NamedTuple):
    """What a Wild Draw Four challenge may have to restore."""

    top: Card | None
    color: str | None
    direction: int
    pending: int
    pending_kind: str | None
    wild_player: int | None


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


def card_effect(s: UnoState, p: int, card: Card, k: int) -> Text | str:
    """Apply the effect of ``k`` cards like ``card`` played by ``p``; say what.

    Wild Shuffle Hands is dealt by the game's ``shuffle_hands`` step first and
    then described by :func:`shuffled`.
    """
    v = card.value
    names = s.players
    if v == "skip":
        skipped = [names[s.step(p, i)] for i in range(1, k + 1)]
        s.turn = s.step(p, k + 1)
        return _effect("uno.effect-skip", names[s.turn], name_list(skipped, " and "))
    if v == "reverse":
        if k % 2:
            s.direction = -s.direction
        if s.n == 2:
            s.turn = s.step(p, 1 + k)
            return _effect("uno.effect-reverse-two", names[s.turn])
        s.turn = s.step(p, 1)
        return _effect("uno.effect-clockwise" if s.direction == 1
                       else "uno.effect-counter-clockwise", names[s.turn])
    if v == "draw2" or v == "wild-draw4":
        s.pending += (2 if v == "draw2" else 4) * k
        s.pending_kind = v
        s.turn = s.step(p, 1)
        return ""
    s.turn = s.step(p, 1)
    return turn_text(names[s.turn])


def shuffle_hands(s: UnoState, p: int) -> None:
    """Wild Shuffle Hands: all hands are gathered and dealt from the next player."""
    total = sum(s.hand_counts)
    base, extra = divmod(total, s.n)
    for i in range(s.n):
        s.hand_counts[s.step(p, i + 1)] = base + (1 if i < extra else 0)
    s.called = [False] * s.n
    s.catchable.clear()


def shuffled(s: UnoState, p: int) -> Text:
    """The effect text of a Wild Shuffle Hands after the deal; the turn moves on."""
    s.turn = s.step(p, 1)
    return Text("uno.effect-shuffled", player=s.players[s.turn],
                counts=tally(s.players, s.hand_counts, "card"))


def play_rule(before: Before, s: UnoState, last: Card, jump: bool) -> str:
    """The rule a legal play is ruled under (``jump-in``, ``stacking``, ``skip``...)."""
    if jump:
        return "jump-in"
    if before.pending and s.pending:
        return "stacking"
    return RULE_OF.get(last.value, "match")


def deflect_note(before: Before, last: Card) -> Text | str:
    """How a Skip or Reverse answer moves a debt on (``stack_answers``)."""
    if not before.pending or last.value not in ("skip", "reverse"):
        return ""
    return Text("uno.deflect-skip" if last.value == "skip" else "uno.deflect-reverse")


def play_text(s: UnoState, p: int, said: str, note: str, jump: bool,
              last: Card) -> Text:
    """``B plays the red 7`` (and the colour named for a wild)."""
    wild = last.is_wild
    known = (jump, s.players[p], said, note, wild, s.color if wild else None)
    text = _PLAY_TEXTS.get(known)
    if text is not None:
        return text
    how = "uno.play-jumps" if jump else "uno.play-plays"
    if not wild:
        text = Text(how, player=s.players[p], cards=said, note=note)
    elif s.color:
        text = Text(how + "-names", player=s.players[p], cards=said, note=note,
                    color=colour_said(s.color))
    else:
        text = Text(how + "-no-colour", player=s.players[p], cards=said, note=note)
    _keep(known, text)
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
        if s.wd4 and s.wd4.challengeable:
            key = "uno.play-pending-challenge"
        elif o.stacking:
            key = "uno.play-pending-stack"
        else:
            key = "uno.play-pending"
        name = s.players[victim]
        known = (key, text, name, s.pending, tail)
        said = _PLAY_TEXTS.get(known)
        if said is None:
            said = Text(key, text=text, player=name, n=s.pending, tail=tail)
            _keep(known, said)
        return say(index, "pending", rule, said, player=name, draw=s.pending)
    known = (text, effect)
    said = _PLAY_TEXTS.get(known)
    if said is None:
        said = Text("uno.play-ok", text=text, effect=effect)
        _keep(known, said)
    return say(index, "ok", rule, said)


def go_out(s: UnoState, index: int, p: int, text: str, tail: str,
           say: Say) -> list[Ruling]:
    """``p`` played the last card: the round is won, scoring waits for reveals."""
    s.round_winner = p
    s.phase = "scoring"
    s.catchable.clear()
    s.called[p] = False
    then: Text = Text("uno.out-reveal")
    victim = None
    if s.pending:
        victim = s.turn
        before = s.owed[victim]
        s.owed[victim] += s.pending
        if before and s.top:
            then = Text("uno.out-owed-before", player=s.players[victim],
                        n=s.owed[victim], pending=s.pending, card=card_name(s.top),
                        before=before, then=then)
        else:
            then = Text("uno.out-owed", player=s.players[victim], n=s.owed[victim],
                        then=then)
    s.pending, s.pending_kind = 0, None
    name = s.players[p]
    return [say(index, "pending", "round-end",
                Text("uno.out-wins", text=text, player=name, round=s.round, then=then,
                     tail=tail), player=s.name(victim),
                draw=s.owed[victim] if victim is not None else None)]
