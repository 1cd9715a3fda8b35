"""Play detection for classic UNO: tracked cards and hands -> table events.

A card counts as **played** when a card the pile did not hold before lies on
the discard pile, still (within ``move_mm``) and untouched by any hand, for
``settle_frames`` frames spanning ``settle_s`` seconds (every threshold is a
field of :class:`~vision.config.PlayConfig`; the watching of the pile is
:class:`~vision.pile.PileWatcher`), or lies that still, within ``let_go_mm``
(its size within ``let_go_size_px`` pixels where that is more),
under the hand that put it down and lingers (let go: ``let_go_frames`` frames, an arm's
tip within ``let_go_tip_mm``). Its label is the one
with the most evidence over the frames it has lain still (the classifier's
log-probabilities, summed: :func:`~vision.tracking.label_scores`); given the
referee's state, a close call goes to the legal play
(:func:`~vision.prior.choose_label`).
That rules out the three classic false alarms:

- a hand passing over the pile hides cards but adds none;
- a card held in the air is touched by the hand that holds it, moves, and
  measures larger than a card lying flat
  (:func:`~vision.card_scale.card_scale`);
- a misread of one frame is outweighed by the other reads.

The pile remembers every card it has taken (label, position, size, track), so
a card that shows again after a hand has moved away is not played twice. The first
card on an empty pile is the round's ``start``; a pile that stays empty and
unreached for ``clear_s`` seconds has been cleared for a new round.

Cards that land in the same frame form one multi-card play; with
``group_s > 0`` (for games whose options allow several cards a turn) cards
that land within ``group_s`` seconds of each other are grouped too, at the
cost of that much latency.

**Draws** are seen from the hands: an arm whose tip rests on the draw pile
(moving slower than ``draw_still_mm_s``) for ``draw_dwell_s`` and then leaves
(unseen there for ``draw_leave_s``) took a card (an arm passing over the pile
on its way does not rest); takes by the same seat within ``draw_group_s`` form
one ``draw`` event with their count.
Reaches into the draw pile before the round's first card (turning the start
card) are not draws.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from .config import PlayConfig
from .detections import Detections
from .geometry import TableGeometry
from .hands import Reach
from .pile import PileWatcher
from .pile_memory import PileCard, PileView
from .prior import LegalCheck, uno_legal
from .tracking import Track


@dataclass
class _DrawReach:
    start: float
    last: float
    tip: tuple[float, float]
    still: float = 0.0  # seconds the hand rested on the pile
    seats: list[str | None] = field(default_factory=list)


class UnoPlayDetector:
    """Turns tracked detections and reaches into ``start``/``play``/``draw`` events.

    Args:
        geometry: the table's zones (``discard`` and ``draw`` are used).
        config: thresholds.
        attribute_players: put the seat an arm came from in ``player``;
            otherwise it goes in ``reach_from`` and the referee takes the
            player whose turn it is (the spec's rule for a missing player).
        game_state: returns the referee's state now (``Referee.state()``);
            a close call between labels then goes to the legal play
            (:func:`choose_label`). ``None``: the camera's evidence alone.
    """

    def __init__(
        self,
        geometry: TableGeometry,
        config: PlayConfig | None = None,
        *,
        attribute_players: bool = False,
        game_state: Callable[[], Mapping[str, Any]] | None = None,
    ):
        self.geometry = geometry
        self.config = config or PlayConfig()
        self.attribute_players = attribute_players
        self.game_state = game_state
        self.watcher = PileWatcher(geometry, "discard", self.config)
        self._pending: list[tuple[PileCard, str | None]] = []
        self._pending_draw: dict[str, Any] | None = None
        self._draw_reach: _DrawReach | None = None
        self._discard_reach: tuple[float, str | None] | None = None
        # seat -> (when its arm came onto the discard pile, when last seen there)
        self._arrived: dict[str | None, tuple[float, float]] = {}
        self.cleared = False

    def _legal_now(self) -> LegalCheck:
        """The referee's prior for this frame, asked for only when a card needs it."""
        asked: list[LegalCheck | None] = []

        def check(label: str) -> bool:
            if not asked:
                try:
                    asked.append(uno_legal(self.game_state()))
                except Exception:  # a referee that cannot say: the camera alone
                    asked.append(None)
            return asked[0] is None or asked[0](label)

        return check

    def _twin_ok(
        self, t: float
    ) -> tuple[Callable[[str], bool], Callable[[str], bool]]:
        """Whether the referee expects the arm last seen on the pile to put a
        card of this label down now: its seat is the one to move and the card
        is legal (and, unless the house rules allow stacking, the seat owes
        no cards: it must draw them), or the one after a player who drew (for
        a twin put neatly on its copy, :meth:`PileMemory._top_changed`). A
        draw still being counted comes first: after the player to move drew,
        the next seat drawing too (the drawer passed, unheard yet) is the seat
        to move, and may put down a legal card (the one it drew). A copy of
        the top card from it is expected only where the pixels show one laid
        (the second callable, ``PileMemory.twin_if_laid``): its drawing arm
        passing over the pile shifts the top card's box just as a copy laid
        there would, but leaves the top card's pixels as they were; the card
        it drew may be a copy of the top card, played at once.
        Asked only when a card needs it."""
        recent = self._discard_reach and (
            t - self._discard_reach[0] <= self.config.reach_memory_s
        )
        if self.game_state is None or not recent:
            return (lambda label: False), (lambda label: False)
        seat = self._discard_reach[1]
        legal = self._legal_now()

        @functools.cache  # both callables below ask it, within one frame
        def judge(label: str) -> bool | str:
            try:
                state = self.game_state()
                turn, phase = state.get("turn"), state.get("phase")
                players = list(state.get("players") or [])
                step = 1 if int(state.get("direction") or 1) >= 0 else -1
            except Exception:  # a referee that cannot say: the camera alone
                return False
            if seat is not None and seat == turn:
                # a player who owes cards draws them, unless the house rules
                # let them answer a Draw card with another
                owes = int(state.get("pending_draw") or 0) > 0
                stacking = bool((state.get("options") or {}).get("stacking"))
                return (stacking or not owes) and legal(label)
            if seat is None or turn not in players:
                return False

            def after(p: str) -> str:
                return players[(players.index(p) + step) % len(players)]

            # a draw still being counted here comes before this card: the
            # referee's turn as it will be once it is sent
            pending = self._pending_draw
            taker = pending["seat"] if pending is not None else None
            if taker == turn:
                phase = "drawn"
            elif phase == "drawn" and taker is not None and taker == after(turn):
                turn = taker  # the drawer passed and the next seat drew too
                if seat == turn:  # ... and plays a card: the one it drew
                    # (a copy of the top card only if its pixels show it laid:
                    # the drawing arm moving the top card's box shows just that)
                    if not legal(label):
                        return False
                    return "laid" if label == state.get("top") else True
            # the player to move drew: the next seat may play (they passed)
            return phase == "drawn" and seat == after(turn)

        def ok(label: str) -> bool:
            said = judge(label)
            return said != "laid" and bool(said)

        def if_laid(label: str) -> bool:
            return judge(label) == "laid"

        return ok, if_laid

    def _seat_field(self, seat: str | None) -> dict[str, Any]:
        if seat is None:
            return {}
        return {"player": seat} if self.attribute_players else {"reach_from": seat}

    @property
    def pile(self) -> list[PileCard]:
        return self.watcher.pile

    def see(self, view: PileView | None) -> None:
        """This frame's pixels for the pile's twin check (before :meth:`update`)."""
        self.watcher.see(view)

    # -- the frame step ----------------------------------------------------------------
    def update(
        self,
        dets: Detections,
        t: float,
        tracks: dict[int, Track],
        reaches: list[Reach] = (),
    ) -> list[dict[str, Any]]:
        """Process one frame's tracked detections; return the events it completes."""
        cfg = self.config
        events: list[dict[str, Any]] = []
        was_empty = not self.pile
        legal = None
        if not was_empty and self.game_state is not None and not self._pending:
            legal = self._legal_now()
        memory = self.watcher.memory
        memory.twin_ok, memory.twin_if_laid = self._twin_ok(t)
        landed = self.watcher.landed(dets, t, tracks, reaches, legal=legal)
        if landed:
            events += self._flush_draw()
        for k, card in enumerate(landed):
            recent = (
                self._discard_reach and t - self._discard_reach[0] <= cfg.reach_memory_s
            )
            seat = self._discard_reach[1] if recent else None
            if was_empty and k == 0:
                events.append({"type": "start", "card": card.label, "t": round(t, 3)})
                continue
            self._pending.append((card, seat))
        if self._pending and (
            cfg.group_s <= 0 or t - self._pending[-1][0].t >= cfg.group_s
        ):
            events += self._flush_play()
        events += self._update_draws(t, reaches)
        if self._pending_draw and t - self._pending_draw["last"] >= cfg.draw_group_s:
            events += self._flush_draw()
        #: the discard pile was found gathered in this frame (its zone is bare)
        self.cleared = self.watcher.check_clear(dets, t, reaches)
        return events

    def flush(self) -> list[dict[str, Any]]:
        """Events still held back (a multi-card group, a draw count): at the end."""
        return self._flush_draw() + self._flush_play()

    def _flush_play(self) -> list[dict[str, Any]]:
        if not self._pending:
            return []
        cards = [c.label for c, _ in self._pending]
        seats = [s for _, s in self._pending if s is not None]
        event: dict[str, Any] = {
            "type": "play",
            "cards": cards,
            "t": round(self._pending[-1][0].t, 3),
        }
        event.update(self._seat_field(seats[-1] if seats else None))
        if all(c.carried for c, _ in self._pending):
            # copies of the top card seen coming in from a hand (a project
            # field: ``vision.handsfree.doubtful_twin`` rules such a copy at once)
            event["carried_in"] = True
        self._pending = []
        return [event]

    def _note_discard_reach(self, t: float, reaches: list[Reach]) -> None:
        """Note the seat of the arm on the discard pile now (``_discard_reach``).

        Of several arms there, the one that came last: an arm that stays on
        the pile after putting its card down (or the ghost of one, the
        background still taking in the cloth where it lay) is not the one
        bringing the next card. An arm unseen on the pile for less than
        ``arrival_gap_s`` has not left (it keeps when it came)."""
        on_pile = [
            r.seat for r in reaches
            if self.geometry.inside("discard", np.array([r.tip]))[0]
        ]
        gap = self.config.arrival_gap_s
        self._arrived = {
            seat: (came, last) for seat, (came, last) in self._arrived.items()
            if t - last < gap or seat in on_pile
        }
        for seat in on_pile:
            came = self._arrived.get(seat, (t, t))[0]
            self._arrived[seat] = (came, t)
        if on_pile:
            # the newest arrival; among equals the last listed
            newest = max(self._arrived[seat][0] for seat in on_pile)
            seat = [s for s in on_pile if self._arrived[s][0] == newest][-1]
            self._discard_reach = (t, seat)

    # -- draws ----------------------------------------------------------------
    def _update_draws(self, t: float, reaches: list[Reach]) -> list[dict[str, Any]]:
        cfg = self.config
        in_draw = [
            r for r in reaches if self.geometry.inside("draw", np.array([r.tip]))[0]
        ]
        self._note_discard_reach(t, reaches)
        if in_draw:
            tip = in_draw[0].tip
            reach = self._draw_reach
            if reach is None:
                self._draw_reach = _DrawReach(t, t, tip)
            else:
                dt = t - reach.last
                if (
                    dt > 0
                    and np.hypot(tip[0] - reach.tip[0], tip[1] - reach.tip[1])
                    <= cfg.draw_still_mm_s * dt
                ):
                    reach.still += dt
                reach.last, reach.tip = t, tip
            self._draw_reach.seats += [r.seat for r in in_draw]
            return []
        reach = self._draw_reach
        if reach is None or t - reach.last < cfg.draw_leave_s:
            return []
        self._draw_reach = None
        if reach.still < cfg.draw_dwell_s or not self.pile:
            return []
        named = [s for s in reach.seats if s is not None]
        seat = max(set(named), key=named.count) if named else None
        events = self._flush_play()
        pending = self._pending_draw
        if pending and (
            pending["seat"] != seat or t - pending["last"] > cfg.draw_group_s
        ):
            events += self._flush_draw()
            pending = None
        if pending:
            pending["count"] += 1
            pending["last"] = t
        else:
            self._pending_draw = {
                "seat": seat,
                "count": 1,
                "first": reach.start,
                "last": t,
            }
        return events

    def _owed_now(self, seat: str | None) -> int:
        """Cards the referee says ``seat`` must take now (:func:`owed_in` of
        its state; 0 when nothing is owed or the referee cannot say)."""
        if self.game_state is None:
            return 0
        try:
            state = self.game_state()
        except Exception:  # a referee that cannot say: the camera alone
            return 0
        return owed_in(state, seat)

    def _flush_draw(self) -> list[dict[str, Any]]:
        pending, self._pending_draw = self._pending_draw, None
        if not pending:
            return []
        event: dict[str, Any] = {
            "type": "draw",
            "count": pending["count"],
            "t": round(pending["first"], 3),
        }
        # Takes that follow each other closely can look like one reach to the
        # hand tracker (the hand never leaves the pile between them). When the
        # referee says this player owes more cards than the takes counted (a
        # Draw Two, a Wild Draw Four, a penalty), they took what they owe: a
        # player cannot take fewer. The camera's count stays in ``takes``.
        owed = self._owed_now(pending["seat"])
        if owed > pending["count"]:
            event.update(count=owed, takes=pending["count"])
        event.update(self._seat_field(pending["seat"]))
        return [event]


def owed_in(state: Mapping[str, Any], seat: str | None) -> int:
    """Cards ``seat`` must take in the referee's ``state``: a penalty it owes,
    plus the Draw Two / Wild Draw Four waiting on the player to move; ``seat``
    None: the player to move, or the only debtor (the spec's rule). 0 when
    nothing is owed or the state cannot say."""
    try:
        owed = {str(k): int(v) for k, v in (state.get("owed") or {}).items()}
        turn = state.get("turn")
        waiting = int(state.get("pending_draw") or 0)
    except (TypeError, ValueError, AttributeError):  # a state it cannot read
        return 0
    if seat is None:
        seat = turn if turn is not None else (
            next(iter(owed)) if len(owed) == 1 else None
        )
    if seat is None:
        return 0
    return owed.get(seat, 0) + (waiting if seat == turn else 0)
