"""TGUS calls and reports: direction, picture leftover, Shuffle Hands, catch, challenge.

Part of :class:`referee.uno.tgus_rules.TgusMixin` (kept apart to stay small);
see ``docs/rules-tgus.md`` for the rules and ``docs/events-tgus.md`` for the
events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import parse_cards
from ..game import GameError
from ..log import Event
from ..rulings import Ruling
from .plays import card_name
from .tgus import shuffle_hands_counts
from .tgus_presets import preset_source, preset_summary

if TYPE_CHECKING:  # pragma: no cover
    from .engine import UnoGame

_DIRECTIONS = {1: 1, -1: -1, "clockwise": 1, "counter-clockwise": -1,
               "counterclockwise": -1, "cw": 1, "ccw": -1}


class TgusCallsMixin:
    """``on_direction``, ``on_picture_leftover``, ``on_shuffle_hands`` and hooks."""

    #: ``tableref rules tgus-3`` shows which seed section sets each option.
    preset_source = staticmethod(preset_source)
    #: ``tableref rules`` lists each tgus preset with one line.
    preset_summary = staticmethod(preset_summary)

    def on_direction(self: "UnoGame", ev: Event) -> list[Ruling]:
        s, o, tg = self.s, self.options, self.tg
        raw = ev.data.get("direction")
        key = raw.lower() if isinstance(raw, str) else raw
        if isinstance(raw, bool) or key not in _DIRECTIONS:
            raise GameError("a direction must be 1, -1, 'clockwise' or "
                            f"'counter-clockwise', got {raw!r}")
        direction = _DIRECTIONS[key]
        if not o.direction_rps:
            return [self.ruling(
                ev.index, "info", "direction", "This preset does not choose the "
                "direction by rock-paper-scissors, so the direction event is ignored.")]
        if s.phase in ("setup", "restart"):
            return [self.ruling(
                ev.index, "info", "direction", "No first card has been turned yet, so "
                "the direction is not recorded; log it after the start event.")]
        if s.phase not in ("turn", "drawn") or tg.acted:
            return [self.ruling(
                ev.index, "illegal", "direction", "The direction is chosen before the "
                "round's first play, so this late choice is ignored and play goes on "
                "as it was.")]
        first = s.turn
        way = "clockwise" if direction == 1 else "counter-clockwise"
        winner, _ = self.who(ev, None, key="winner")
        s.direction = direction
        tg.direction_set = True
        if winner is not None and winner not in (s.step(first, 1), s.step(first, -1)):
            return [self.ruling(
                ev.index, "info", "direction", f"{self.nm(winner)} is not a neighbour "
                f"of the first player {self.nm(first)}, who should play "
                "rock-paper-scissors, but the direction is taken as logged: play goes "
                f"{way}.")]
        by = (f"{self.nm(winner)} won rock-paper-scissors, so " if winner is not None
              else "By rock-paper-scissors ")
        return [self.ruling(ev.index, "ok", "direction",
                            f"{by}play goes {way}, starting with {self.nm(first)}.")]

    def shuffle_hands(self: "UnoGame", p: int) -> None:
        s = self.s
        if not s.out:
            return super().shuffle_hands(p)  # type: ignore[misc]
        seats = [self.nm(q) for q in self.in_players()]
        counts = shuffle_hands_counts(dict(zip(self.players, s.hand_counts)), seats,
                                      self.nm(p), s.direction)
        for name, c in counts.items():
            s.hand_counts[self.players.index(name)] = c
        s.called = [False] * s.n
        s.catchable.clear()
        return None

    def on_shuffle_hands(self: "UnoGame", ev: Event) -> list[Ruling]:
        s = self.s
        counts = ev.data.get("hand_counts")
        if not isinstance(counts, dict) or not all(
                k in self.players and isinstance(v, int) and not isinstance(v, bool)
                and v >= 0 for k, v in counts.items()):
            raise GameError("'hand_counts' must map players to card counts, got "
                            f"{counts!r}")
        shuffled = s.top is not None and s.top.value == "wild-shuffle"
        if not shuffled or s.phase not in ("turn", "drawn"):
            return [self.ruling(
                ev.index, "info", "shuffle-hands", "No Wild Shuffle Hands was just "
                "played, so the hand counts are left as they are.")]
        new = [counts.get(n, s.hand_counts[i]) for i, n in enumerate(self.players)]
        if sum(new) != sum(s.hand_counts):
            return [self.ruling(
                ev.index, "illegal", "shuffle-hands", f"The logged hands hold "
                f"{sum(new)} cards but {sum(s.hand_counts)} were dealt out, so the "
                "referee keeps its even deal; please count again.")]
        s.hand_counts = new
        shown = ", ".join(f"{n} {c}" for n, c in zip(self.players, new))
        return [self.ruling(ev.index, "ok", "shuffle-hands",
                            f"The hands were dealt out as {shown}, and the referee "
                            "counts them so.")]

    def on_catch(self: "UnoGame", ev: Event) -> list[Ruling]:
        if not self.options.uno_catch:
            return [self.ruling(
                ev.index, "info", "uno-catch", "This preset does not use the catch for "
                "a missing UNO call, so nothing happens.")]
        return super().on_catch(ev)  # type: ignore[misc]

    def judge_challenge(self: "UnoGame", ev: Event, p: int,
                        cards: list) -> list[Ruling]:
        s = self.s
        victim = s.challenger
        before = s.owed[p]
        out = super().judge_challenge(ev, p, cards)  # type: ignore[misc]
        if s.owed[p] == before:
            self.tg.failed_challenger = victim
        return out

    def on_picture_leftover(self: "UnoGame", ev: Event) -> list[Ruling]:
        s, o = self.s, self.options
        p, _ = self.who(ev, None)
        if p is None:
            raise GameError("a picture-leftover report needs the 'player'")
        if not o.picture_leftover:
            return [self.ruling(
                ev.index, "info", "picture-leftover", "This preset has no forced draw "
                "for a hand of picture cards, so the report changes nothing.")]
        if s.phase not in ("turn", "drawn", "challenge") or p in s.out:
            return [self.ruling(
                ev.index, "info", "picture-leftover", f"{self.nm(p)} is not playing a "
                "hand now, so the report changes nothing.")]
        shown = parse_cards(ev.data["cards"]) if "cards" in ev.data else []
        numbers = [c for c in shown if c.is_number]
        if numbers:
            return [self.ruling(
                ev.index, "info", "picture-leftover", "The hand shown holds the "
                f"{card_name(numbers[0])}, a number card, so {self.nm(p)} does not "
                "have to draw.")]
        s.owed[p] += 2
        return [self.ruling(
            ev.index, "penalty", "picture-leftover", f"{self.nm(p)}'s hand holds only "
            f"picture cards, so {self.nm(p)} draws 2 now, and 2 more each time no "
            "number card comes (report again).", p, 2)]
