"""The uno game class: it dispatches events and runs the steps of a turn in order.

:class:`UnoGame` owns the state (:class:`~referee.uno.state.UnoState`) and the
options in force; each event goes through :meth:`referee.game.Game.apply` to a
handler in :attr:`UnoGame.handlers`, and each handler calls the plain rule
functions of :mod:`.start`, :mod:`.turns`, :mod:`.draws`, :mod:`.calls`,
:mod:`.challenge` and :mod:`.scoring` in order. The methods a house-rule
variant may override are the *steps* (python-chess style): ``play_cards``,
``card_effect``, ``shuffle_hands``, ``go_out``, ``play_rule``, ``cards_said``,
``pending_note``, ``lose_turn``, ``judge_challenge``, ``maybe_score``,
``finish_round`` and ``round_extra``. :class:`~referee.uno.tgus_game.TgusGame`
is such a variant.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..cards import Card
from ..game import Game, register
from ..log import Event, Header
from ..rulings import Ruling
from ..text import Text, cap, define, formatter
from . import calls, challenge, draws, house, scoring, start, turns
from .observe import view
from .options import PRESETS, UnoOptions, refusals, resolve
from .plays import cards_name
from .state import UnoState
from .turns import Before

define({
    "uno.option-problem": {"en": "{problem}.", "ja": "{problem}。"},
    "uno.too-few-players": {
        "en": "UNO needs at least 2 players, so nothing can be played in this game.",
        "ja": "UNOは2人以上で遊ぶので、このゲームでは何も出せません。"},
    "uno.too-few-event": {
        "en": "This event is ignored because UNO needs 2 players.",
        "ja": "UNOは2人以上で遊ぶので、このイベントは無視します。"},
    "uno.game-over-event": {
        "en": "The game is over, so this {type} event is ignored.",
        "ja": "ゲームは終わっているので、この{type}は無視します。"},
    "uno.game-over-start": {
        "en": "The game is over, so this start is ignored.",
        "ja": "ゲームは終わっているので、このスタートは無視します。"},
    "uno.unknown-event": {
        "en": "Line {line} has the event type {type}, which uno does not use, so it is "
              "ignored.",
        "ja": "{line}行目のイベントの種類{type}はUNOでは使わないので、無視します。"},
})

#: How the events of the uno family are called in Japanese (``uno-event``).
EVENT_NAMES_JA = {
    "start": "スタート", "play": "カードを出す記録", "draw": "カードを引く記録",
    "pass": "パス", "uno": "ウノ宣言", "catch": "ウノの指摘", "challenge": "チャレンジ",
    "reveal": "手札の公開", "color": "色の指定", "shuffle-hands": "手札の配り直し",
    "direction": "向きの記録", "face-down": "伏せて出す記録", "doubt": "ダウト",
    "picture-leftover": "絵札の報告", "stop": "終了の記録",
}


@formatter("uno-event")
def _event_name(args: Mapping[str, Any], lang: str) -> str:
    """An event type as the ruling says it: ``draw``; ``カードを引く記録``."""
    kind = str(args["type"])
    if lang == "ja":
        return EVENT_NAMES_JA.get(kind, f"{kind}の記録")
    return kind


@register
class UnoGame(Game):
    """Classic UNO (official rules of seed 001; local rules are options).

    Attributes:
        options: the house rules in force (preset plus header overrides).
        prefix: the rule-name prefix of every ruling (the preset's name).
        s: the mutable :class:`UnoState`.
    """

    name: ClassVar[str] = "uno"
    #: event type -> handler method name; a variant extends it.
    handlers: ClassVar[dict[str, str]] = {
        "start": "on_start", "play": "on_play", "draw": "on_draw", "pass": "on_pass",
        "uno": "on_uno", "catch": "on_catch", "challenge": "on_challenge",
        "reveal": "on_reveal", "color": "on_color", "shuffle-hands": "on_shuffle_hands",
        # events of house rules this preset does not use (docs/events-tgus.md)
        "direction": "on_direction", "face-down": "on_face_down", "doubt": "on_doubt",
        "picture-leftover": "on_picture_leftover", "stop": "on_stop",
    }
    #: events whose missing player is the turn's (their rulings: ``implied``).
    implied_types: ClassVar[frozenset[str]] = frozenset(
        {"play", "draw", "pass", "face-down"})
    #: the presets this class runs: name -> options.
    PRESETS: ClassVar[dict[str, Any]] = PRESETS

    @classmethod
    def presets(cls) -> dict[str, Any]:
        return dict(cls.PRESETS)

    def __init__(self, header: Header):
        super().__init__(header)
        base = self.PRESETS.get(header.rules) or next(iter(self.PRESETS.values()))
        self.options: UnoOptions
        self.options, problems = resolve(base, header.options, header.hand_size)
        dealer = (self.players.index(header.dealer) if header.dealer in self.players
                  else len(self.players) - 1)
        self.s = UnoState(
            self.players, dealer, self.options.hand_size, self.options.deck)
        self._early: list[Ruling] = [
            self.ruling(0, "info", "options",
                        Text("uno.option-problem", problem=cap(p)))
            for p in problems]
        self._too_few_players = len(self.players) < 2
        if self._too_few_players:
            self._early.append(self.ruling(
                0, "info", "players", Text("uno.too-few-players")))
        if self._early:  # the header's rulings go out with the first event's
            self.apply = self._apply_after_header  # type: ignore[method-assign]

    def option_refusals(self) -> list[Text]:
        """:meth:`Game.option_refusals`: the checks of :func:`resolve`."""
        base = self.PRESETS.get(self.header.rules) or next(iter(self.PRESETS.values()))
        return refusals(base, self.header.options, self.prefix)

    # -- dispatch ----------------------------------------------------------------------
    def _apply_after_header(self, event: Event) -> list[Ruling]:
        """:meth:`Game.apply`, after the header's own rulings (options, players).

        Set on the instance only while such rulings wait, so that every other
        event goes straight to :meth:`Game.apply` (replay speed).
        """
        if not self._early:
            return Game.apply(self, event)
        out, self._early = self._early, []
        self.__dict__.pop("apply", None)
        return out + Game.apply(self, event)

    def refusal(self, event: Event) -> Ruling | None:
        """Refuse every event of a game with too few players or already over."""
        if self._too_few_players:
            return self._too_few(event)
        if self.s.phase == "over":
            return self.ruling(event.index, "info", "game-over",
                               Text("uno.game-over-event",
                                    type=Text("@uno-event", type=event.type)))
        return None

    def open_question(self, event: Event) -> bool:
        """A play's question stays open while the wild on top has no colour
        (the camera could not tell which colour was named); a reveal's
        question is always open (:meth:`Game.open_question`)."""
        s = self.s
        if event.type == "reveal":
            return True
        return (event.type == "play" and s.phase in ("turn", "drawn")
                and s.top is not None and s.top.is_wild and s.color is None)

    def unknown_event(self, event: Event) -> Ruling:
        if self._too_few_players:
            return self._too_few(event)
        return self.ruling(event.index, "info", "unknown-event",
                           Text("uno.unknown-event", line=event.index,
                                type=repr(event.type)))

    def _too_few(self, event: Event) -> Ruling:
        return self.ruling(event.index, "info", "players", Text("uno.too-few-event"))

    # -- round start -------------------------------------------------------------------
    def on_start(self, ev: Event) -> list[Ruling]:
        """``start``: the first card of a round (deals the round when one is due)."""
        s, o, say = self.s, self.options, self.ruling
        card, color, refused = start.read_start(o, ev, say)
        if refused:
            return refused
        out: list[Ruling] = []
        if s.phase == "scoring":
            out += self.finish_round(ev.index, forced=True)
            if s.phase == "over":
                return out + [say(ev.index, "info", "game-over",
                                  Text("uno.game-over-start"))]
        elif s.phase in ("turn", "drawn", "challenge"):
            out += scoring.abandon_round(s, ev.index, say)
        return out + [start.turn_first_card(s, o, ev.index, card, color, say)]

    # -- plays -------------------------------------------------------------------------
    def on_play(self, ev: Event) -> list[Ruling]:
        """``play``: cards put on the pile (legality, then :meth:`play_cards`)."""
        out, play = turns.check_play(self.s, self.options, ev, self.ruling)
        if play is None:
            return out
        return out + self.play_cards(ev, *play)

    def play_cards(self, ev: Event, p: int, cards: list[Card], color: str | None,
                   note: str = "", jump: bool = False) -> list[Ruling]:
        """Put legal ``cards`` of player ``p`` on the pile and apply their effect."""
        s, o, say = self.s, self.options, self.ruling
        out = (calls.close_windows(s, o, ev.index, p, True, say) if s.catchable
               else [])
        before = turns.put_down(s, ev.index, p, cards, color)
        last = cards[-1]
        effect = self.card_effect(p, last, len(cards) if o.multi_effects else 1)
        rule = self.play_rule(before, last, jump)
        text = turns.play_text(s, p, self.cards_said(p, cards, rule), note, jump, last)
        tail = self.pending_note(before, last) if s.pending else ""
        if s.hand_counts[p] == 0:
            return out + self.go_out(ev.index, p, text, tail)
        if last.value == "wild-draw4":
            turns.record_wd4(s, o, p, cards, before)
        return out + [turns.play_ruling(s, o, ev.index, rule, text, effect, tail, say)]

    def card_effect(self, p: int, card: Card, k: int) -> str:
        """Apply the effect of ``k`` cards like ``card`` played by ``p``; say what."""
        s = self.s
        if card.value == "wild-shuffle" and s.hand_counts[p]:
            self.shuffle_hands(p)
            return turns.shuffled(s, p)
        return turns.card_effect(s, p, card, k)

    def shuffle_hands(self, p: int) -> None:
        turns.shuffle_hands(self.s, p)

    def play_rule(self, before: Before, last: Card, jump: bool) -> str:
        """The rule a legal play is ruled under (see :func:`turns.play_rule`)."""
        if jump:
            return "jump-in"
        if before.pending and self.s.pending:
            return "stacking"
        return turns.RULE_OF.get(last.value, "match")

    def cards_said(self, p: int, cards: list[Card], rule: str) -> Text:
        """The cards as the ruling names them (``red 7``, ``Wild Draw Four``)."""
        return cards_name(cards)

    def pending_note(self, before: Before, last: Card) -> str:
        """A note closing the ruling of a play that leaves a debt (a deflection)."""
        return turns.deflect_note(before, last)

    def go_out(self, index: int, p: int, text: str, tail: str = "") -> list[Ruling]:
        return turns.go_out(self.s, index, p, text, tail, self.ruling)

    # -- draws and passes --------------------------------------------------------------
    def on_draw(self, ev: Event) -> list[Ruling]:
        """``draw``: pays a penalty or a Draw Two / Wild Draw Four, or a turn's draw."""
        s, o, say = self.s, self.options, self.ruling
        d = draws.read_draw(s, ev, say)
        if isinstance(d, list):
            return d
        p, left = d.player, d.count
        out = draws.drop_challenge(s, ev.index, p, say)
        if s.owed[p]:
            paid, left = draws.pay_owed(s, ev.index, d, left, say)
            out += paid
            if s.phase == "scoring":
                out += self.maybe_score(ev.index)
        if left and p == s.turn and s.phase == "turn" and s.pending:
            paid, left = draws.pay_pending(s, o, ev.index, d, left, say)
            out += paid
            if not s.pending:
                out += self.lose_turn(ev.index, p, d.note)
        elif left and p == s.turn and s.phase == "turn":
            left -= 1
            out += draws.draw_one(s, o, ev.index, d, say)
        if left:
            out.append(draws.refuse_rest(s, ev.index, d, left, say))
        return out

    def lose_turn(self, index: int, p: int, note: str) -> list[Ruling]:
        """A Draw Two / Wild Draw Four debt is paid: the turn moves on."""
        return draws.lose_turn(self.s, index, p, note, self.ruling)

    def on_pass(self, ev: Event) -> list[Ruling]:
        return draws.on_pass(self.s, self.options, ev, self.ruling)

    # -- calls -------------------------------------------------------------------------
    def on_uno(self, ev: Event) -> list[Ruling]:
        return calls.on_uno(self.s, ev, self.ruling)

    def on_catch(self, ev: Event) -> list[Ruling]:
        return calls.on_catch(self.s, self.options, ev, self.ruling)

    def on_color(self, ev: Event) -> list[Ruling]:
        return calls.on_color(self.s, ev, self.ruling)

    def on_challenge(self, ev: Event) -> list[Ruling]:
        return challenge.on_challenge(self.s, self.options, ev, self.ruling)

    def judge_challenge(self, ev: Event, p: int, cards: list[Card]) -> list[Ruling]:
        return challenge.judge(self.s, self.options, ev, p, cards, self.ruling)

    def on_shuffle_hands(self, ev: Event) -> list[Ruling]:
        return house.on_shuffle_hands(self.s, ev, self.ruling)

    # -- house-rule events this preset does not use ------------------------------------
    def on_direction(self, ev: Event) -> list[Ruling]:
        return house.direction_off(self.s, ev, self.ruling)

    def on_face_down(self, ev: Event) -> list[Ruling]:
        return house.face_down_off(self.s, ev, self.ruling)

    def on_doubt(self, ev: Event) -> list[Ruling]:
        return house.doubt_off(self.s, ev, self.ruling)

    def on_picture_leftover(self, ev: Event) -> list[Ruling]:
        return house.picture_leftover_off(self.s, ev, self.ruling)

    def on_stop(self, ev: Event) -> list[Ruling]:
        return house.stop_off(self.s, ev, self.ruling)

    # -- reveals and scoring -----------------------------------------------------------
    def on_reveal(self, ev: Event) -> list[Ruling]:
        """``reveal``: a hand shown, for a challenge or for scoring."""
        s, say = self.s, self.ruling
        p, cards, refused = scoring.read_reveal(s, self.options, ev, say)
        if refused:
            return refused
        if s.phase == "challenge" and s.wd4 and p == s.wd4.player:
            return self.judge_challenge(ev, p, cards)
        if s.phase == "scoring" and p != s.round_winner:
            shown = scoring.show_hand(s, ev.index, p, cards, say)
            if shown.ruling == "illegal":
                return [shown]
            return [shown] + self.maybe_score(ev.index)
        return [scoring.idle_reveal(s, ev.index, p, cards, say)]

    def maybe_score(self, index: int) -> list[Ruling]:
        """Score the round once every loser has shown their hand and drawn all owed."""
        return self.finish_round(index) if scoring.all_shown(self.s) else []

    def finish_round(self, index: int, forced: bool = False) -> list[Ruling]:
        """Write the round's result, update scores, and end the game if it is over."""
        s, o, say = self.s, self.options, self.ruling
        record, deltas = scoring.score_round(s, o)
        tail, extra = self.round_extra()
        out = [scoring.round_ruling(s, o, index, record, deltas, say, tail, **extra)]
        return out + scoring.close_round(s, o, index, say)

    def round_extra(self) -> tuple[str, dict[str, Any]]:
        """Text appended to the round's result and further fields (none here)."""
        return "", {}

    # -- views -------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.s.phase == "over"

    def _shared(self) -> dict[str, Any]:
        s = self.s
        return {"game": self.name, "rules": self.header.rules,
                "players": list(self.players), "options": self.options.to_dict(),
                "rounds": [dict(r) for r in s.rounds], "over": self.over,
                "winner": s.name(s.winner)}

    def state(self) -> dict[str, Any]:
        """The referee's full view: every secret included."""
        return {**view(self.s, referee=True), **self._shared()}

    def observe(self, viewer: str | None = None) -> dict[str, Any]:
        """What ``viewer`` may see (``None``: the table; a name: that player)."""
        seat = self.s.seats.get(viewer) if viewer is not None else None
        return {**view(self.s, seat), **self._shared()}
