"""The TGUS-TGC-UNO rules wired into the uno engine (presets tgus-1, tgus-2, tgus-3).

:class:`TgusMixin` sits in front of the engine's mixins in ``UnoGame``'s bases
and overrides their hooks (``on_play``, ``play_cards``, ``card_effect``,
``go_out``, ``finish_round`` ...). Every override falls through to the engine
unchanged unless a TGUS option is on, so the official preset is untouched.
The face-down play, doubt and stop events live in :mod:`.tgus_facedown`; the
pure rule functions in :mod:`.tgus`. Rules are documented in
``docs/rules-tgus.md``, events in ``docs/events-tgus.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..cards import Card
from ..game import GameError
from ..log import Event
from ..rulings import Ruling
from .plays import card_name, cards_name, cards_of, hand_points
from .tgus import (FaceDown, Ranking, effective_value, finishes_on_number,
                   next_hand_sizes, ordinal, picture_only)
from .tgus_calls import TgusCallsMixin
from .tgus_facedown import FaceDownMixin

if TYPE_CHECKING:  # pragma: no cover
    from .engine import UnoGame

#: event type -> handler, merged into ``UnoGame.handlers``.
TGUS_HANDLERS: dict[str, str] = {
    "start": "tgus_on_start", "direction": "on_direction",
    "picture-leftover": "on_picture_leftover", "shuffle-hands": "on_shuffle_hands",
    "face-down": "on_face_down", "doubt": "on_doubt", "stop": "on_stop",
}

@dataclass
class TgusTrack:
    """What the TGUS rules remember beside the engine's :class:`UnoState`."""

    ranking: Ranking
    wins: list[int]
    face_down_left: list[int]
    direction_set: bool = False
    acted: bool = False
    face_down: FaceDown | None = None
    face_down_card: Card | None = None
    doubter: int | None = None
    failed_challenger: int | None = None
    took_draw: int | None = None
    stopped: bool = False
    next_sizes: dict[str, int] | None = None
    play_cards: list[Card] = field(default_factory=list)
    play_called: bool = False
    as_value: str | None = None
    downpour: list[int] = field(default_factory=list)


class TgusMixin(FaceDownMixin, TgusCallsMixin):
    """Hooks of the TGUS presets; a no-op under options that do not use them."""

    @cached_property  # made on first use, then a plain attribute (replay speed)
    def tg(self: "UnoGame") -> TgusTrack:
        n = len(self.players)
        return TgusTrack(Ranking(tuple(range(n))), [0] * n,
                         [self.options.face_down] * n)

    def in_players(self: "UnoGame") -> list[int]:
        """Players still holding cards this round, in seat order."""
        return [q for q in range(self.s.n) if q not in self.s.out]

    # -- round start, hand sizes, direction --------------------------------------------
    def tgus_on_start(self: "UnoGame", ev: Event) -> list[Ruling]:
        s, o, tg = self.s, self.options, self.tg
        out: list[Ruling] = []
        if s.round == 0:
            out += self._header_hand_sizes()
        out += self.on_start(ev)
        if s.phase != "turn":
            return out
        n = s.n
        tg.ranking = Ranking(tuple(range(n)))
        tg.face_down_left = [o.face_down] * n
        tg.direction_set = tg.acted = tg.stopped = False
        tg.face_down = tg.doubter = tg.failed_challenger = tg.took_draw = None
        biggest = max(s.hand_counts)
        if o.hand_size_max and biggest > o.hand_size_max and s.round == 1:
            out.append(self.ruling(
                ev.index, "info", "hand-size", f"A hand of {biggest} cards is more "
                f"than this preset's {o.hand_size_max}, but the game is refereed with "
                "it."))
        return out

    def _header_hand_sizes(self: "UnoGame") -> list[Ruling]:
        sizes = self.header.data.get("hand_sizes")
        if sizes is None:
            return []
        if not isinstance(sizes, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) and v > 0
                for v in sizes.values()):
            raise GameError(f"header 'hand_sizes' must map players to positive whole "
                            f"numbers, got {sizes!r}")
        unknown = [k for k in sizes if k not in self.players]
        base = self.s.hand_size
        self.s.start_sizes = [sizes.get(p, base) for p in self.players]
        if unknown:
            return [self.ruling(
                0, "info", "hand-size", f"The header's hand_sizes name "
                f"{', '.join(unknown)}, who do not play, so those entries are "
                "ignored.")]
        return []

    def _first_action(self: "UnoGame", index: int) -> list[Ruling]:
        """Note a round whose first action comes without a recorded direction."""
        s, o, tg = self.s, self.options, self.tg
        if tg.acted or s.phase not in ("turn", "drawn"):
            return []
        tg.acted = True
        if o.direction_rps and not tg.direction_set:
            return [self.ruling(
                index, "info", "direction", "No rock-paper-scissors result for the "
                "direction was logged, so play goes clockwise (interpreted: the seed "
                "names no default).")]
        return []

    # -- plays -------------------------------------------------------------------------
    def on_play(self: "UnoGame", ev: Event) -> list[Ruling]:
        s, o, tg = self.s, self.options, self.tg
        raw = ev.data.get("cards", [ev.data["card"]] if "card" in ev.data else [])
        cards = cards_of(raw)
        p, _ = self.who(ev, s.turn)
        out = self._first_action(ev.index) if p == s.turn else []
        tg.as_value = None
        if cards and o.white_wild == "all-mighty" and any(
                c.value == "wild-custom" for c in cards):
            problem = self._all_mighty_problem(ev, cards)
            if problem:
                return out + [self.ruling(
                    ev.index, "illegal", "white-wild",
                    f"{problem}, so {self.nm(p)} takes it back.", p)]
        if tg.failed_challenger == p and p == s.turn and s.pending:
            if o.after_failed_challenge == "draw":
                return out + [self.ruling(
                    ev.index, "illegal", "challenge", f"{self.nm(p)} lost the "
                    f"challenge and must draw the {s.pending} cards, which may not be "
                    f"passed on, so {self.nm(p)} takes the card back.", p, s.pending)]
            if o.after_failed_challenge == "stack":
                return out + self._stack_after_failed_challenge(ev, p)
        tg.play_cards, tg.play_called = cards, bool(s.called[p]) if cards else False
        before = s.discard
        result = super().on_play(ev)  # type: ignore[misc]
        if s.discard == before and out:  # nothing was played: the round has not begun
            tg.acted, out = False, []
        return out + result

    def _all_mighty_problem(self: "UnoGame", ev: Event,
                            cards: list[Card]) -> str | None:
        s, tg = self.s, self.tg
        if len(cards) > 1:
            return "A white wild is played on its own in this preset"
        as_value = ev.data.get("as")
        try:
            value = effective_value(cards[0], as_value, "all-mighty")
        except ValueError as exc:
            return f"{str(exc)[0].upper()}{str(exc)[1:]}"
        if s.pending and (s.pending_kind, value) not in self.options.stack_table():
            return (f"A white wild acting as {value} cannot answer the {s.pending} "
                    "cards owed")
        tg.as_value = value
        return None

    def _stack_after_failed_challenge(self: "UnoGame", ev: Event,
                                      p: int) -> list[Ruling]:
        s, tg = self.s, self.tg
        before = s.discard
        s.pending -= 2
        tg.failed_challenger = None
        result = super().on_play(ev)  # type: ignore[misc]
        if s.discard == before:  # the answer was not accepted
            s.pending += 2
            tg.failed_challenger = p
            return result
        void = (f" (the challenge's extra 2 cards are void because {self.nm(p)} passed "
                "the draw on)")
        return [replace(r, text=r.text[:-1] + void + ".")
                if r.ruling == "pending" else r for r in result]

    def play_cards(self: "UnoGame", ev: Event, p: int, cards: list[Card],
                   color: str | None, note: str = "",
                   jump: bool = False) -> list[Ruling]:
        s, o, tg = self.s, self.options, self.tg
        self._close_face_down()
        tg.failed_challenger = tg.took_draw = None
        tg.downpour = []
        deflect = bool(s.pending) and cards[-1].value in ("skip", "reverse")
        out = super().play_cards(ev, p, cards, color, note, jump)  # type: ignore[misc]
        if deflect:
            how = ("a Skip passes the draw over the next player, as the seed's T2 "
                   "table does" if cards[-1].value == "skip"
                   else "a Reverse sends the draw back")
            out = [replace(r, text=f"{r.text[:-1]} (interpreted: {how}).")
                   if r.ruling == "pending" else r for r in out]
        if s.wd4 is not None and o.challenge_on_stack and o.challenge:
            s.wd4.challengeable = True
        if tg.as_value is not None:
            acting = card_name(Card(None, tg.as_value))
            out = [replace(r, rule=f"{self.prefix}.white-wild", text=r.text.replace(
                "the white Wild", f"the white Wild as a {acting}", 1))
                if r.rule == f"{self.prefix}.wild" else r for r in out]
        for q in tg.downpour:
            out.append(self.ruling(
                ev.index, "penalty", "white-wild", "The white wild is a Wild "
                f"Downpour: {self.nm(q)} draws {s.owed[q]} now (interpreted: H2O's "
                "Downpour Draw 2, not to be passed on).", q, s.owed[q]))
        return out

    def card_effect(self: "UnoGame", p: int, card: Card, k: int) -> str:
        s, o, tg = self.s, self.options, self.tg
        if card.value == "wild-custom" and o.white_wild == "all-mighty" and tg.as_value:
            acting = Card(None, tg.as_value)
            return super().card_effect(p, acting, k)  # type: ignore[misc]
        if card.value == "wild-custom" and o.white_wild == "downpour":
            tg.downpour = [q for q in self.in_players() if q != p]
            for q in tg.downpour:
                s.owed[q] += o.downpour_draw * k
            s.turn = s.step(p, 1)
            return (f"every other player draws {o.downpour_draw * k}; it is "
                    f"{self.nm(s.turn)}'s turn.")
        if card.value == "reverse" and s.out and len(self.in_players()) == 2:
            if k % 2:
                s.direction = -s.direction
            s.turn = s.step(p, 1 + k)
            return (f"with two players left the Reverse acts as a Skip: "
                    f"{self.nm(s.turn)} plays.")
        return super().card_effect(p, card, k)  # type: ignore[misc]

    # -- going out, ranking, scoring ---------------------------------------------------
    def go_out(self: "UnoGame", index: int, p: int, text: str) -> list[Ruling]:
        s, o, tg = self.s, self.options, self.tg
        cards, name = tg.play_cards, self.nm(p)
        fines: list[tuple[str, int, str]] = []
        if o.picture_leftover and cards and picture_only(cards):
            fines.append(("picture-leftover", 2, f"{name} went out on picture "
                          f"cards only, so {name}'s hand held no number card and "
                          "should have drawn 2 at a time (interpreted: the cards stay "
                          f"played, {name} is not out and draws 2)"))
        elif o.number_finish and not finishes_on_number(cards):
            fines.append(("number-finish", o.number_finish, f"{name} must go out on "
                          f"a number card, so the {cards_name(cards)} stay played, "
                          f"{name} is not out and draws {o.number_finish} and play "
                          "continues (interpreted: the cards keep their effect)"))
        if o.multi_out_penalty and len(cards) > 1 and not tg.play_called:
            fines.append(("multi-out", o.multi_out_penalty, f"{name} went out "
                          f"with {len(cards)} cards without calling UNO first, so "
                          f"{name} is not out and draws {o.multi_out_penalty} "
                          "(interpreted: the cards stay played)"))
        if fines:
            out = [self._play_ruling(index, text)]
            for rule, count, why in fines:
                s.owed[p] += count
                out.append(self.ruling(index, "penalty", rule, why + ".", p, count))
            return out
        if not o.play_to_last:
            return super().go_out(index, p, text)  # type: ignore[misc]
        return self._rank_out(index, p, text)

    def _play_ruling(self: "UnoGame", index: int, text: str) -> Ruling:
        s = self.s
        if s.pending:
            rule = "draw2" if s.pending_kind == "draw2" else "wd4"
            return self.ruling(index, "pending", rule, f"{text}: {self.nm(s.turn)} "
                               f"draws {s.pending} and loses the turn unless they pass "
                               "it on.", s.turn, s.pending)
        return self.ruling(index, "ok", "match",
                           f"{text}; it is {self.nm(s.turn)}'s turn.")

    def _rank_out(self: "UnoGame", index: int, p: int, text: str) -> list[Ruling]:
        s, tg = self.s, self.tg
        place = tg.ranking.finish(p)
        s.out.add(p)
        s.called[p] = False
        s.catchable.pop(p, None)
        left = [self.nm(q) for q in self.in_players()]
        head = (f"{text}, {self.nm(p)}'s last card: {self.nm(p)} is out in "
                f"{ordinal(place)} place")
        if len(left) >= 2:
            if s.turn == p:
                s.turn = s.step(p, 1)
            owe = (f"{self.nm(s.turn)} draws {s.pending} or passes it on"
                   if s.pending else f"it is {self.nm(s.turn)}'s turn")
            return [self.ruling(index, "ok", "ranking", f"{head} and play goes on "
                                f"with {', '.join(left)}: {owe}.", place=place)]
        last = self.in_players()[0]
        winner = tg.ranking.order[0]
        s.round_winner, s.phase = winner, "scoring"
        s.catchable.clear()
        for q in tg.ranking.order:
            if q != winner:
                s.revealed[q] = []
        if s.pending:
            s.owed[last] += s.pending
        s.pending, s.pending_kind = 0, None
        owes = f" draws the {s.owed[last]} cards owed and" if s.owed[last] else ""
        return [self.ruling(index, "pending", "ranking", f"{head} and only "
                            f"{self.nm(last)} is left, so round {s.round} is over: "
                            f"{self.nm(last)}{owes} shows their hand (reveal) for "
                            "scoring.", last, s.owed[last] or None, place=place)]

    def finish_round(self: "UnoGame", index: int, forced: bool = False) -> list[Ruling]:
        s, o, tg = self.s, self.options, self.tg
        if not (o.play_to_last or tg.stopped or o.success_weight != "none"):
            return super().finish_round(index, forced)  # type: ignore[misc]
        winner = s.round_winner
        points = {q: hand_points(s.revealed.get(q, [])) for q in self.in_players()}
        order = tg.ranking.full(points)
        if winner is not None and order[0] != winner:
            order.remove(winner)
            order.insert(0, winner)
        ranking = [self.nm(q) for q in order]
        out = super().finish_round(index, forced)  # type: ignore[misc]
        if winner is not None:
            tg.wins[winner] += 1
        extra: dict[str, Any] = {"ranking": ranking}
        tail = ""
        if o.success_weight != "none":
            sizes = next_hand_sizes(
                self.players, s.hand_size, o.success_weight, ranking=ranking,
                wins=dict(zip(self.players, tg.wins)),
                points=dict(zip(self.players, s.scores)),
                target=o.target if o.scoring == "international" else None)
            s.start_sizes = [sizes[n] for n in self.players]
            tg.next_sizes = sizes
            extra["next_hand_sizes"] = sizes
            how = " (interpreted: +3/+2/+1 for 1st/2nd/3rd)" if (
                o.success_weight == "rank") else ""
            tail = f"; next game's hands (success weight{how}): " + ", ".join(
                f"{n} {c}" for n, c in sizes.items())
        out = [replace(r, extra={**r.extra, **extra}, text=r.text[:-1] + tail + ".")
               if r.ruling == "round-end" else r for r in out]
        if tg.stopped and s.phase != "over":
            out.append(self.end_game(index, "because the table stopped it by points"))
        return out

    # -- draws, passes, catches, challenges --------------------------------------------
    def on_draw(self: "UnoGame", ev: Event) -> list[Ruling]:
        s, o, tg = self.s, self.options, self.tg
        p, _ = self.who(ev, s.turn)
        out = self._first_action(ev.index) if p == s.turn else []
        self._close_face_down()
        had_pending = s.pending and p == s.turn and s.phase == "turn"
        out += super().on_draw(ev)  # type: ignore[misc]
        if had_pending and not s.pending:
            tg.failed_challenger = None
            if o.play_after_forced_draw and s.turn != p and s.phase == "turn":
                s.turn = p
                tg.took_draw = p
                paid = f"{self.prefix}.draw"
                out = [r for r in out if not (r.rule == paid and r.ruling == "ok")]
                out.append(self.ruling(
                    ev.index, "ok", "draw-then-play", f"{self.nm(p)} drew the cards "
                    "owed and keeps the turn: a card may still be played (or pass)."))
        return out

    def on_pass(self: "UnoGame", ev: Event) -> list[Ruling]:
        s, tg = self.s, self.tg
        p, _ = self.who(ev, s.turn)
        self._close_face_down()
        if p == tg.took_draw == s.turn and s.phase == "turn":
            tg.took_draw = None
            s.turn = s.step(p, 1)
            return [self.ruling(ev.index, "ok", "draw-then-play",
                                f"{self.nm(p)} took the cards and passes; it is "
                                f"{self.nm(s.turn)}'s turn.")]
        return super().on_pass(ev)  # type: ignore[misc]

    def tgus_state(self: "UnoGame") -> dict[str, Any]:
        """The TGUS keys of the state view (see docs/events-tgus.md)."""
        tg = self.tg
        return {"ranking": [self.nm(q) for q in tg.ranking.order],
                "out": sorted(self.nm(q) for q in self.s.out),
                "face_down_left": dict(zip(self.players, tg.face_down_left)),
                "face_down": tg.face_down is not None,
                "next_hand_sizes": tg.next_sizes}
