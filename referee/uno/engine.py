"""The uno game class: dispatch of events, round start, catch windows, views.

The play/draw/pass handlers live in :mod:`.turns`, the calls (UNO, catch,
challenge, reveal, colour) in :mod:`.calls`, scoring in :mod:`.scoring`;
:class:`UnoGame` puts them together. State is rebuilt purely by applying
events in order (:meth:`UnoGame.apply`); nothing else changes it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..cards import COLORS, Card
from ..game import Game, GameError, register
from ..log import Event, Header
from ..rulings import Ruling
from .calls import CallsMixin
from .options import PRESETS, UnoOptions, resolve, uses_tgus_hooks
from .plays import card_name, off_deck, off_deck_text
from .scoring import ScoringMixin
from .state import UnoState
from .tgus_rules import TGUS_HANDLERS, TgusMixin
from .turns import TurnsMixin


@register
class UnoGame(TgusMixin, TurnsMixin, CallsMixin, ScoringMixin, Game):
    """Classic UNO (official rules of seed 001; house rules are options).

    Refereed from a table log under a preset of :class:`UnoOptions`.

    Attributes:
        options: the house rules in force (preset plus header overrides).
        prefix: the rule-name prefix of every ruling (the preset's name).
        s: the mutable :class:`UnoState`.
    """

    name: ClassVar[str] = "uno"
    #: event type -> handler method name; subclasses/hooks may add entries.
    handlers: ClassVar[dict[str, str]] = {
        "start": "on_start", "play": "on_play", "draw": "on_draw", "pass": "on_pass",
        "uno": "on_uno", "catch": "on_catch", "challenge": "on_challenge",
        "reveal": "on_reveal", "color": "on_color",
        **TGUS_HANDLERS,  # tgus-1/2/3 events and hooks (tgus_rules.py)
    }

    @classmethod
    def presets(cls) -> dict[str, Any]:
        return dict(PRESETS)

    def __init__(self, header: Header):
        super().__init__(header)
        base = PRESETS.get(header.rules, PRESETS["official"])
        self.options: UnoOptions
        self.options, problems = resolve(base, header.options, header.hand_size)
        self.prefix = header.rules
        self._seats = {name: i for i, name in enumerate(self.players)}
        self._rule_names: dict[str, str] = {}
        dealer = (self.players.index(header.dealer) if header.dealer in self.players
                  else len(self.players) - 1)
        self.s = UnoState(
            self.players, dealer, self.options.hand_size, self.options.deck)
        self._early: list[Ruling] = [
            self.ruling(0, "info", "options", p[0].upper() + p[1:] + ".")
            for p in problems]
        if len(self.players) < 2:
            self._early.append(self.ruling(
                0, "info", "players", "UNO needs at least 2 players, so nothing can be "
                "played in this game."))
        if type(self) in (UnoGame, PlainUnoGame):
            # Decided once per game: with no TGUS rule on, the TGUS hooks are
            # skipped for every event (replay speed); see PlainUnoGame.
            plain = (not uses_tgus_hooks(self.options)
                     and "hand_sizes" not in header.data)
            self.__class__ = PlainUnoGame if plain else UnoGame

    # -- helpers -------------------------------------------------------------------
    def ruling(self, event: int, kind: str, rule: str, text: str,
               player: int | None = None,
               draw: int | None = None, scores: dict[str, int] | None = None,
               **extra: Any) -> Ruling:
        """A ruling named ``<prefix>.<rule>``; ``player`` is an index."""
        return Ruling(
            event, kind, self._rule_names.get(rule) or self._rule_name(rule), text,
            None if player is None else self.players[player], draw, scores, extra)

    def _rule_name(self, rule: str) -> str:
        full = self._rule_names[rule] = f"{self.prefix}.{rule}"
        return full

    def nm(self, player: int) -> str:
        return self.players[player]

    def who(self, ev: Event, default: int | None,
            key: str = "player") -> tuple[int | None, bool]:
        """The player an event names under ``key``, or ``default`` (implied=True).

        Raises:
            GameError: the name is not one of the players.
        """
        name = ev.data.get(key)
        if name is None:
            return default, True
        seat = self._seats.get(name) if isinstance(name, str) else None
        if seat is None:
            raise GameError(f"{key} {name!r} is not one of the players "
                            f"({', '.join(self.players)})")
        return seat, False

    def implied_note(self, player: int, implied: bool) -> str:
        if not implied:
            return ""
        return (
            f" (no player was logged, so it is taken as {self.nm(player)}'s, whose "
            "turn it is)")

    @staticmethod
    def color_of(ev: Event) -> str | None:
        color = ev.data.get("color")
        if color is None:
            return None
        if not isinstance(color, str) or color.lower() not in COLORS:
            raise GameError(f"colour {color!r} is not one of {', '.join(COLORS)}")
        return color.lower()

    # -- events --------------------------------------------------------------------
    def apply(self, event: Event) -> list[Ruling]:
        """Apply one event; returns its rulings. Malformed events raise GameError."""
        out: list[Ruling] = []
        if self._early:
            out, self._early = self._early, []
        if len(self.players) < 2:
            return out + [self.ruling(
                event.index, "info", "players",
                "This event is ignored because UNO needs 2 players.")]
        handler = self.handlers.get(event.type)
        if handler is not None and not out and self.s.phase != "over":
            return getattr(self, handler)(event)  # the common case, kept short
        if handler is None:
            return out + [self.ruling(
                event.index, "info", "unknown-event",
                f"Line {event.index} has the event type {event.type!r}, which uno "
                "does not use, so it is ignored.")]
        if self.s.phase == "over":
            return out + [self.ruling(
                event.index, "info", "game-end",
                f"The game is over, so this {event.type} event is ignored.")]
        return out + getattr(self, handler)(event)

    def on_start(self, ev: Event) -> list[Ruling]:
        """``start``: the first card of a round (deals the round when one is due)."""
        s, o = self.s, self.options
        card = Card.from_label(ev.data.get("card")) if "card" in ev.data else None
        if card is None:
            raise GameError("a start event needs the turned 'card'")
        color = self.color_of(ev)
        if off_deck((card,), o.deck) is not None:
            return [self.ruling(
                ev.index, "info", "deck", f"{off_deck_text(card, o.deck)}, so this "
                "start is ignored: take it back and turn another card.")]
        out: list[Ruling] = []
        if s.phase == "scoring":
            out += self.finish_round(ev.index, forced=True)
            if s.phase == "over":
                return out + [self.ruling(
                    ev.index, "info", "game-end",
                    "The game is over, so this start is ignored.")]
        elif s.phase in ("turn", "drawn", "challenge"):
            out += self.abandon_round(ev.index)
        if s.phase != "restart":
            s.deal()
        got = s.take_from_pile(1)
        s.discard = got
        s.top, s.color, s.phase = card, card.color, "turn"
        left = s.step(s.dealer, 1)
        dealer = self.nm(s.dealer)
        if card.value == "wild-draw4" or (o.first_action_returned and card.is_action):
            s.draw_pile += got
            s.discard = 0
            s.top, s.color, s.phase = None, None, "restart"
            why = ("a Wild Draw Four may not start a round"
                   if card.value == "wild-draw4"
                   else "this table returns action cards turned first")
            return out + [self.ruling(
                ev.index, "info", "first-card",
                f"The {card_name(card)} goes back into the pile and another card is "
                f"turned, because {why}.")]
        r = f"Round {s.round} starts with the {card_name(card)}"
        if card.value == "draw2":
            s.turn, s.pending, s.pending_kind = left, 2, "draw2"
            return out + [self.ruling(
                ev.index, "pending", "first-card",
                f"{r} as if dealer {dealer} had played it: {self.nm(left)} draws 2 "
                "and loses the turn.", left, 2)]
        if card.value == "skip":
            s.turn = s.step(left, 1)
            text = (
                f"{r} as if dealer {dealer} had played it: {self.nm(left)} is skipped "
                f"and {self.nm(s.turn)} plays first.")
        elif card.value == "reverse":
            s.direction = -1
            s.turn = s.dealer
            text = f"{r}: dealer {dealer} plays first and play goes counter-clockwise."
        elif card.is_wild:
            s.turn, s.color, s.wild_player = left, color, left
            named = f" and names {color}" if color else " and names the colour"
            text = f"{r}: {self.nm(left)}, left of dealer {dealer}, plays first{named}."
        else:
            s.turn = left
            text = f"{r}: {self.nm(left)}, left of dealer {dealer}, plays first."
        return out + [self.ruling(ev.index, "ok", "first-card", text)]

    # -- catch windows ---------------------------------------------------------------
    def close_windows(self, index: int, actor: int, played: bool) -> list[Ruling]:
        """Close the catch windows of players other than ``actor``.

        Called on a play (``played``) and, under ``catch_window='next-acts'``, on
        the current player's draw, pass or challenge.
        """
        s, o = self.s, self.options
        if not s.catchable or (not played and o.catch_window != "next-acts"):
            return []
        out = []
        act = "played" if played else "acted"
        for p in [q for q in s.catchable if q != actor]:
            del s.catchable[p]
            if s.called[p] or s.hand_counts[p] != 1:
                continue
            if o.referee_catches and o.uno_penalty:
                s.owed[p] += o.uno_penalty
                out.append(self.ruling(
                    index, "penalty", "uno-call", f"{self.nm(p)} went down to one card "
                    f"without calling UNO and nobody caught it before {self.nm(actor)} "
                    f"{act}, so the referee catches it: {self.nm(p)} draws "
                    f"{o.uno_penalty}.", p, o.uno_penalty))
            else:
                out.append(self.ruling(
                    index, "info", "uno-missed", f"{self.nm(p)} went down to one card "
                    f"without calling UNO, and now that {self.nm(actor)} has {act} the "
                    "call can no longer be caught."))
        return out

    # -- views -----------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.s.phase == "over"

    def state(self) -> dict[str, Any]:
        """Spec's final state plus the shared keys (see the package docstring)."""
        out = self.s.to_dict()
        out.update(
            game=self.name, rules=self.header.rules, players=list(self.players),
            options=self.options.to_dict(), rounds=[dict(r) for r in self.s.rounds],
            over=self.over, winner=self.s.name(self.s.winner))
        out.update(self.tgus_state())
        return out

    def public_view(self) -> dict[str, Any]:
        """The state without secrets (the challenge reveal, the drawn card)."""
        out = self.state()
        out.pop("challenge_reveal", None)
        out.pop("drawn_card", None)
        return out


class PlainUnoGame(UnoGame):
    """An :class:`UnoGame` whose options switch on no TGUS rule (official & co).

    ``UnoGame(header)`` becomes one when :func:`~.options.uses_tgus_hooks` says
    no TGUS option is on: the hooks that :class:`TgusMixin` overrides go
    straight to the engine's own methods, which is what the TGUS hooks do
    under such options anyway, without their per-event bookkeeping.
    """

    handlers: ClassVar[dict[str, str]] = {**UnoGame.handlers, "start": "on_start"}
    on_play = TurnsMixin.on_play
    play_cards = TurnsMixin.play_cards
    card_effect = TurnsMixin.card_effect
    shuffle_hands = TurnsMixin.shuffle_hands
    go_out = TurnsMixin.go_out
    on_draw = TurnsMixin.on_draw
    on_pass = TurnsMixin.on_pass
    on_catch = CallsMixin.on_catch
    on_reveal = CallsMixin.on_reveal
    judge_challenge = CallsMixin.judge_challenge
    finish_round = ScoringMixin.finish_round
    maybe_score = ScoringMixin.maybe_score
