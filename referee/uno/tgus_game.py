"""The TGUS-TGC-UNO house rules (seed 000) as a variant of classic UNO.

:class:`TgusGame` is registered for the presets tgus-1, tgus-2 and tgus-3
(:data:`~referee.uno.tgus_presets.TGUS_PRESETS`); ``find_game("uno",
"tgus-2")`` finds it through :meth:`handles`, python-chess style. It extends
:attr:`UnoGame.handlers` with its own events and overrides only the steps its
rules change; each override calls the plain functions of :mod:`.tgus_rules`
and :mod:`.tgus_facedown` and, for the unchanged part, the base step. Rules:
docs/rules-tgus.md; events: docs/events-tgus.md.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..cards import Card
from ..game import register
from ..log import Event, Header
from ..rulings import Ruling
from ..text import Text, define, join
from . import tgus_facedown as fd
from . import tgus_rules as tr
from .game import UnoGame
from .plays import card_name, cards_n, cards_name, cards_of
from .scoring import end_game
from .tgus import Ranking, shuffle_hands_counts
from .tgus_presets import TGUS_PRESETS, TgusOptions, preset_source, preset_summary
from .tgus_state import TgusTrack
from .turns import Before

define({
    "uno.tgus-white-wild-back": {
        "en": "{problem}, so {player} takes it back.",
        "ja": "{problem!c}、{player}はそれを戻します。"},
    "uno.tgus-lost-challenge-draws": {
        "en": "{player} lost the challenge and must draw the {count}, which may not "
              "be passed on, so {player} takes the card back.",
        "ja": ("{player}はチャレンジに負けたので{count}を引かなければならず、"
               "次へ回すことはできず、{player}はカードを戻します。")},
    "uno.tgus-reverse-two-left": {
        "en": "with two players left the Reverse acts as a Skip: {player} plays.",
        "ja": "残りが2人なのでリバースはスキップと同じで、{player}の番です。"},
    "uno.tgus-white-wild-as": {
        "en": "white Wild as a {acting}",
        "ja": "白いワイルド（{acting}として）"},
    "uno.tgus-challenge-void": {
        "en": " (the challenge's extra {n} cards are void because {player} passed the "
              "draw on)",
        "ja": "（{player}がドローを次へ回したので、チャレンジの追加{n}枚は無効です）"},
    "uno.tgus-draw-then-play": {
        "en": "{player} drew the cards owed and keeps the turn: a card may still be "
              "played (or pass).",
        "ja": ("{player}は引くべきカードを引き、手番はそのままで、"
               "まだカードを出せます（パスもできます）。")},
    "uno.tgus-took-and-passes": {
        "en": "{player} took the cards and passes; it is {next}'s turn.",
        "ja": "{player}はカードを引いてパスし、{next}の番です。"},
    "uno.tgus-no-catch": {
        "en": "This preset does not use the catch for a missing UNO call, so nothing "
              "happens.",
        "ja": "このプリセットではウノの言い忘れを指摘するルールを使わないので、"
              "何も起きません。"},
    "uno.tgus-stopped-by-points": {
        "en": "because the table stopped it by points",
        "ja": "テーブルが点数で打ち切ったので"},
})


@register
class TgusGame(UnoGame):
    """UNO under the TGUS-TGC-UNO house rules (seed 000: tgus-1, tgus-2, tgus-3)."""

    handlers: ClassVar[dict[str, str]] = {**UnoGame.handlers}
    PRESETS: ClassVar[dict[str, Any]] = TGUS_PRESETS
    #: ``tableref rules tgus-3`` shows which seed section sets each option.
    preset_source = staticmethod(preset_source)
    #: ``tableref rules`` lists each tgus preset with one line.
    preset_summary = staticmethod(preset_summary)

    options: TgusOptions

    def __init__(self, header: Header):
        super().__init__(header)
        n = len(self.players)
        self.tg = TgusTrack(Ranking(tuple(range(n))), [0] * n,
                            [self.options.face_down] * n)

    # -- round start, direction ------------------------------------------------------
    def on_start(self, ev: Event) -> list[Ruling]:
        s = self.s
        out: list[Ruling] = []
        if s.round == 0:
            out += tr.header_hand_sizes(s, self.header, self.ruling)
        out += super().on_start(ev)
        if s.phase != "turn":
            return out
        return out + tr.new_round(s, self.options, self.tg, ev.index, self.ruling)

    def on_direction(self, ev: Event) -> list[Ruling]:
        return tr.on_direction(self.s, self.options, self.tg, ev, self.ruling)

    # -- plays -----------------------------------------------------------------------
    def on_play(self, ev: Event) -> list[Ruling]:
        s, o, tg, say = self.s, self.options, self.tg, self.ruling
        raw = ev.data.get("cards", [ev.data["card"]] if "card" in ev.data else [])
        cards = cards_of(raw)
        p, _ = s.who(ev, s.turn)
        assert p is not None
        name = s.players[p]
        out = tr.first_action(s, o, tg, ev.index, say) if p == s.turn else []
        tg.as_value = None
        if cards and o.white_wild == "all-mighty" and any(
                c.value == "wild-custom" for c in cards):
            problem = tr.all_mighty_problem(s, o, tg, ev, cards)
            if problem:
                return out + [say(ev.index, "illegal", "white-wild",
                                  Text("uno.tgus-white-wild-back", problem=problem,
                                       player=name), player=name)]
        if tg.failed_challenger == p and p == s.turn and s.pending:
            if o.after_failed_challenge == "draw":
                return out + [say(
                    ev.index, "illegal", "wd4-challenge",
                    Text("uno.tgus-lost-challenge-draws", player=name,
                         count=cards_n(s.pending)), player=name, draw=s.pending)]
            if o.after_failed_challenge == "stack":
                return out + self._stack_after_failed_challenge(ev, p)
        tg.play_cards, tg.play_called = cards, bool(s.called[p]) if cards else False
        before = s.discard
        result = super().on_play(ev)
        if s.discard == before and out:  # nothing was played: the round has not begun
            tg.acted, out = False, []
        return out + result

    def _stack_after_failed_challenge(self, ev: Event, p: int) -> list[Ruling]:
        """tgus-3: a lost challenge's cards may still be passed on; the +2 is void."""
        s, tg = self.s, self.tg
        extra = self.options.wd4_challenge_penalty
        before = s.discard
        s.pending -= extra
        tg.failed_challenger, tg.void = None, p
        try:
            result = super().on_play(ev)
        finally:
            tg.void = None
        if s.discard == before:  # the answer was not accepted
            s.pending += extra
            tg.failed_challenger = p
        return result

    def play_cards(self, ev: Event, p: int, cards: list[Card], color: str | None,
                   note: str = "", jump: bool = False) -> list[Ruling]:
        s, o, tg = self.s, self.options, self.tg
        fd.close_face_down(tg)
        tg.failed_challenger = tg.took_draw = None
        tg.downpour = []
        out = super().play_cards(ev, p, cards, color, note, jump)
        if s.wd4 is not None and o.challenge_on_stack and o.challenge:
            s.wd4.challengeable = True  # 000 .2: only the Wild Draw Four just played
        if tg.downpour:
            out += tr.downpour_rulings(s, tg, ev.index, self.ruling)
        return out

    def card_effect(self, p: int, card: Card, k: int) -> Text | str:
        s, o, tg = self.s, self.options, self.tg
        if card.value == "wild-custom" and o.white_wild == "all-mighty" and tg.as_value:
            return super().card_effect(p, Card(None, tg.as_value), k)
        if card.value == "wild-custom" and o.white_wild == "downpour":
            return tr.downpour(s, o, tg, p, k)
        if card.value == "reverse" and s.out and len(tr.in_players(s)) == 2:
            if k % 2:
                s.direction = -s.direction
            s.turn = s.step(p, 1 + k)
            return Text("uno.tgus-reverse-two-left", player=s.players[s.turn])
        return super().card_effect(p, card, k)

    def shuffle_hands(self, p: int) -> None:
        """Only the players still in share the hands (``play_to_last``)."""
        s = self.s
        if not s.out:
            return super().shuffle_hands(p)
        seats = [s.players[q] for q in tr.in_players(s)]
        counts = shuffle_hands_counts(dict(zip(s.players, s.hand_counts)), seats,
                                      s.players[p], s.direction)
        for name, c in counts.items():
            s.hand_counts[s.seats[name]] = c
        s.called = [False] * s.n
        s.catchable.clear()
        return None

    def play_rule(self, before: Before, last: Card, jump: bool) -> str:
        rule = UnoGame.play_rule(self, before, last, jump)
        return "white-wild" if self.tg.as_value and rule == "wild" else rule

    def cards_said(self, p: int, cards: list[Card], rule: str) -> str:
        """An all-mighty white wild (played alone) is named with what it acts as
        (not going out)."""
        if rule != "white-wild" or not self.s.hand_counts[p] or len(cards) != 1:
            return cards_name(cards)
        return Text("uno.tgus-white-wild-as",
                    acting=card_name(Card(None, self.tg.as_value)))

    def pending_note(self, before: Before, last: Card) -> str:
        note = super().pending_note(before, last)
        if self.tg.void is not None:
            return join(note, Text("uno.tgus-challenge-void",
                                   n=self.options.wd4_challenge_penalty,
                                   player=self.s.players[self.tg.void]), sep="")
        return note

    def go_out(self, index: int, p: int, text: str, tail: str = "") -> list[Ruling]:
        s, o, tg = self.s, self.options, self.tg
        fines = tr.finish_fines(s, o, tg, p)
        if fines:
            return tr.fined_out(s, index, p, text, tail, fines, self.ruling)
        if not o.play_to_last:
            return super().go_out(index, p, text, tail)
        return tr.rank_out(s, tg, index, p, text, tail, self.ruling)

    # -- draws, passes, catches, challenges --------------------------------------------
    def on_draw(self, ev: Event) -> list[Ruling]:
        s, o, tg, say = self.s, self.options, self.tg, self.ruling
        p, _ = s.who(ev, s.turn)
        out = tr.first_action(s, o, tg, ev.index, say) if p == s.turn else []
        fd.close_face_down(tg)
        had_pending = s.pending and p == s.turn and s.phase == "turn"
        tg.paying = bool(had_pending)
        out += super().on_draw(ev)
        tg.paying = False
        if had_pending and not s.pending:
            tg.failed_challenger = None
        if tg.keep_turn:
            tg.keep_turn = False
            assert p is not None
            s.turn = tg.took_draw = p
            out.append(say(ev.index, "ok", "draw-then-play",
                           Text("uno.tgus-draw-then-play", player=s.players[p])))
        return out

    def lose_turn(self, index: int, p: int, note: str) -> list[Ruling]:
        out = super().lose_turn(index, p, note)
        if self.tg.paying and self.options.play_after_forced_draw and self.s.turn != p:
            self.tg.keep_turn = True  # 000 .2/.3: the turn is kept (on_draw)
            return []
        return out

    def on_pass(self, ev: Event) -> list[Ruling]:
        s, tg = self.s, self.tg
        p, _ = s.who(ev, s.turn)
        fd.close_face_down(tg)
        if p == tg.took_draw == s.turn and s.phase == "turn":
            tg.took_draw = None
            s.turn = s.step(p, 1)
            return [self.ruling(ev.index, "ok", "draw-then-play",
                                Text("uno.tgus-took-and-passes", player=s.players[p],
                                     next=s.players[s.turn]))]
        return super().on_pass(ev)

    def on_catch(self, ev: Event) -> list[Ruling]:
        if not self.options.uno_catch:
            return [self.ruling(ev.index, "info", "uno-missed",
                                Text("uno.tgus-no-catch"))]
        return super().on_catch(ev)

    def judge_challenge(self, ev: Event, p: int, cards: list[Card]) -> list[Ruling]:
        victim = self.s.challenger
        out = super().judge_challenge(ev, p, cards)
        if self.s.verdict == (p, False):
            self.tg.failed_challenger = victim
        return out

    # -- reports, face-down plays, doubts, stop ----------------------------------------
    def on_picture_leftover(self, ev: Event) -> list[Ruling]:
        return tr.on_picture_leftover(self.s, self.options, ev, self.ruling)

    def on_face_down(self, ev: Event) -> list[Ruling]:
        return fd.on_face_down(self.s, self.options, self.tg, ev, self.ruling)

    def on_doubt(self, ev: Event) -> list[Ruling]:
        return fd.on_doubt(self.s, self.options, self.tg, ev, self.ruling)

    def on_stop(self, ev: Event) -> list[Ruling]:
        return fd.on_stop(self.s, self.options, self.tg, ev, self.ruling)

    def on_reveal(self, ev: Event) -> list[Ruling]:
        shown = fd.doubt_reveal(self.s, self.options, self.tg, ev, self.ruling)
        return shown if shown is not None else super().on_reveal(ev)

    # -- scoring -----------------------------------------------------------------------
    def maybe_score(self, index: int) -> list[Ruling]:
        if not self.tg.stopped:
            return super().maybe_score(index)
        return self.finish_round(index) if fd.stopped_all_shown(self.s) else []

    def finish_round(self, index: int, forced: bool = False) -> list[Ruling]:
        out = super().finish_round(index, forced)
        if self.tg.stopped and self.s.phase != "over":
            out.append(end_game(self.s, index, Text("uno.tgus-stopped-by-points"),
                                self.ruling))
        return out

    def round_extra(self) -> tuple[str, dict[str, Any]]:
        o = self.options
        if not (o.play_to_last or self.tg.stopped or o.success_weight != "none"):
            return "", {}
        return tr.round_extra(self.s, o, self.tg)

    # -- views -------------------------------------------------------------------------
    def _shared(self) -> dict[str, Any]:
        s, tg = self.s, self.tg
        return {**super()._shared(),
                "ranking": [s.players[q] for q in tg.ranking.order],
                "out": sorted(s.players[q] for q in s.out),
                "face_down_left": dict(zip(self.players, tg.face_down_left)),
                "face_down": tg.face_down is not None,
                "next_hand_sizes": tg.next_sizes}
