"""The demo's time line: which card lies where and which arm reaches where, when.

:func:`build_timeline` turns the scripted game's events into motions on the
table plane (millimetres, the play area ``AREA`` between the four markers):
an arm brings each played card to the discard pile and lets go (the event's
``t`` is that moment), takes drawn cards from the draw pile one at a time,
turns the first card of each round, lays the losers' hands out in front of
them, and clears the table between rounds. Two distractors are added: a card
held over the pile and taken back, and a hand passing over the pile.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .game import PLAYERS, simulate

AREA = (560.0, 420.0)
DISCARD = (AREA[0] / 2 + 0.9 * 56, AREA[1] / 2)
DRAW = (AREA[0] / 2 - 78, AREA[1] / 2)
ENTRY = [(300.0, 445.0), (-25.0, 70.0), (585.0, 70.0)]  # where each seat's arm comes in
# where each seat lays its hand out for scoring (up to 6 cards)
REVEAL_SLOTS = [
    [(110.0 + 60 * k, 372.0) for k in range(6)],
    [(x, y) for y in (60.0, 155.0, 250.0) for x in (35.0, 95.0)],
    [(x, y) for y in (60.0, 155.0, 250.0) for x in (525.0, 465.0)],
]


def reveal_slots(seat: int, n: int) -> list[tuple[float, float]]:
    """Where the ``n`` cards of a hand laid out at ``seat`` go: the slots above for
    up to six cards; a bigger hand overlaps like a loose fan (each card drawn
    over the one before, whose top-left index stays in sight) within the same
    strip of table, clear of the piles and of the other seats' strips."""
    if n <= len(REVEAL_SLOTS[seat]):
        return REVEAL_SLOTS[seat][:n]
    if seat == 0:  # one row, x from 95 to 465 mm
        step = 370.0 / (n - 1)
        if step < 56.0 * 0.55:
            raise ValueError(f"a hand of {n} cards does not fit seat 0's strip")
        return [(95.0 + step * k, 372.0) for k in range(n)]
    xs = (35.0, 95.0) if seat == 1 else (525.0, 465.0)
    rows = (n + 1) // 2
    step = 225.0 / (rows - 1)  # rows from y 55 to 280 mm, above seat 0's row
    if step < 87.0 * 0.55:
        raise ValueError(f"a hand of {n} cards does not fit seat {seat}'s strip")
    return [(xs[k % 2], 55.0 + step * (k // 2)) for k in range(n)]


@dataclass
class CardPose:
    label: str
    xy: tuple[float, float]
    angle: float
    scale: float = 1.0


@dataclass
class ArmPose:
    seat: int
    entry: tuple[float, float]
    tip: tuple[float, float]
    held: CardPose | None = None
    grip: bool = False  # fingers over the held card (a camera cannot read it)


@dataclass
class Scene:
    cards: list[CardPose]
    arms: list[ArmPose]
    draw_count: int


def _ease(p: float) -> float:
    p = min(max(p, 0.0), 1.0)
    return p * p * (3 - 2 * p)


def _lerp(a, b, p: float) -> tuple[float, float]:
    return (a[0] + (b[0] - a[0]) * p, a[1] + (b[1] - a[1]) * p)


@dataclass
class Timeline:
    """Changes of the table (cards added/removed) and arm motions over time."""

    changes: list[tuple[float, str, Any]] = field(default_factory=list)
    motions: list[tuple[float, float, Callable[[float], ArmPose]]] = field(
        default_factory=list
    )
    events: list[dict[str, Any]] = field(default_factory=list)
    lights: list[tuple[float, float, float, tuple[float, float, float]]] = field(
        default_factory=list
    )
    duration: float = 0.0

    def scene(self, t: float) -> Scene:
        pile: list[CardPose] = []
        shown: list[CardPose] = []
        count = 40
        for when, kind, value in self.changes:
            if when > t:
                break
            if kind == "pile":
                pile.append(value)
            elif kind == "reveal":
                shown += value
            elif kind == "clear":
                pile, shown = [], []
            elif kind == "draw":
                count = max(count - value, 0)
            elif kind == "refill":
                count = value
        arms = [fn(t) for t0, t1, fn in self.motions if t0 <= t < t1]
        return Scene(pile + shown, arms, count)

    def light(self, t: float) -> tuple[float, tuple[float, float, float]]:
        """Brightness gain and BGR tint at ``t`` (ramps of 1.5 s in and out)."""
        gain, tint = 1.0, np.array([1.0, 1.0, 1.0])
        for t0, t1, g, tn in self.lights:
            p = min(_ease((t - t0) / 1.5), _ease((t1 - t) / 1.5))
            if p > 0:
                gain *= 1 + (g - 1) * p
                tint = tint * (1 + (np.array(tn) - 1) * p)
        return gain, tuple(tint)

    def log(self) -> list[dict[str, Any]]:
        return self.events


class _Builder:
    def __init__(self, seed: int, real: bool = False):
        self.rng = random.Random(seed)
        self.tl = Timeline()
        self.t = 1.0
        self.real = real
        self.top: CardPose | None = None

    def _arm(
        self,
        seat: int,
        path: Callable[[float], tuple],
        t0: float,
        t1: float,
        held: Callable[[float], CardPose | None] = lambda t: None,
        grip: bool = False,
    ) -> None:
        entry = ENTRY[seat]
        self.tl.motions.append(
            (t0, t1, lambda t: ArmPose(seat, entry, path(t), held(t), grip))
        )

    def _carry(
        self,
        seat: int,
        label: str | None,
        target,
        angle: float,
        t0: float,
        reach: float = 0.5,
        hover: float = 0.0,
        land: bool = True,
        start_at=None,
        grip: bool = False,
        linger: float = 0.0,
    ) -> float:
        """Arm brings a card to ``target``; returns the landing time (the hand
        lets go then, and stays ``linger`` seconds at the card before it goes;
        ``grip``: fingers cover the card on its way)."""
        entry = ENTRY[seat]
        u = np.subtract(target, start_at or entry)
        u = u / (np.hypot(*u) or 1.0)
        hold = (target[0] - u[0] * 50, target[1] - u[1] * 50)
        outside = start_at or (entry[0] - u[0] * 80, entry[1] - u[1] * 80)
        t_land = t0 + reach + hover
        retract = 0.35

        def path(t: float) -> tuple[float, float]:
            if t < t0 + reach:
                return _lerp(outside, hold, _ease((t - t0) / reach))
            if t < t_land + linger:
                wiggle = 3 * math.sin(9 * (min(t, t_land) - t0))
                return (hold[0] + wiggle, hold[1] - wiggle)
            p = (t - t_land - linger) / retract
            back = (entry[0] - u[0] * 80, entry[1] - u[1] * 80)
            return _lerp(hold, back, 1 - (1 - min(p, 1)) ** 2)

        def held(t: float) -> CardPose | None:
            if label is None or (land and t >= t_land):
                return None
            tip = path(t)
            scale = (
                1.22
                if hover and t >= t0 + reach
                else 1.0 + 0.2 * (1 - _ease((t - t0) / reach))
                if t < t0 + reach
                else 1.0
            )
            return CardPose(
                label, (tip[0] + u[0] * 50, tip[1] + u[1] * 50), angle, scale
            )

        self._arm(seat, path, t0, t_land + linger + retract, held, grip)
        return t_land

    def play(self, seat: int, label: str, hover: float = 0.0) -> float:
        target = (
            DISCARD[0] + self.rng.uniform(-12, 12),
            DISCARD[1] + self.rng.uniform(-12, 12),
        )
        angle = self.rng.uniform(-25, 25)
        grip = linger = 0.0
        if self.real:
            grip = self.rng.random() < 0.7  # fingers over most carried cards
            linger = self.rng.choice((0.0, 0.0, 0.5, 0.9))  # a hand stays a moment
            if self.top is not None and self.top.label == label:
                # a twin put neatly on its copy: a few mm off, a few degrees turned
                a = self.rng.uniform(0, 2 * math.pi)
                r = self.rng.uniform(3.0, 6.0)
                target = (self.top.xy[0] + r * math.cos(a),
                          self.top.xy[1] + r * math.sin(a))
                angle = self.top.angle + self.rng.choice((-1, 1)) * self.rng.uniform(
                    2.0, 6.0)
        t_land = self._carry(seat, label, target, angle, self.t, hover=hover,
                             grip=bool(grip), linger=linger)
        self.top = CardPose(label, target, angle)
        self.tl.changes.append((t_land, "pile", self.top))
        self.t = t_land + linger + 0.35 + 0.6
        return t_land

    def hover_and_back(self, seat: int, label: str) -> None:
        target = (DISCARD[0] + 5, DISCARD[1] - 5)
        t_back = self._carry(seat, label, target, 10.0, self.t, hover=1.0, land=False)
        self.t = t_back + 0.35 + 0.6

    def pass_over(self, seat: int) -> None:
        entry = ENTRY[seat]
        far = (DISCARD[0] + 90, DISCARD[1] + 20)
        t0 = self.t

        def path(t: float) -> tuple[float, float]:
            p = (t - t0) / 1.0
            return (
                _lerp(entry, far, _ease(p * 2))
                if p < 0.5
                else _lerp(far, entry, _ease((p - 0.5) * 2))
            )

        self._arm(seat, path, t0, t0 + 1.0)
        self.t = t0 + 1.6

    def draw(self, seat: int, count: int) -> float:
        first = None
        for _ in range(count):
            t0 = self.t
            entry = ENTRY[seat]
            u = np.subtract(DRAW, entry) / np.hypot(*np.subtract(DRAW, entry))
            tip = (DRAW[0] - u[0] * 15, DRAW[1] - u[1] * 15)
            out = (entry[0] - u[0] * 80, entry[1] - u[1] * 80)
            t_take = t0 + 0.45 + 0.3

            def path(t, t0=t0, tip=tip, out=out, t_take=t_take):
                if t < t0 + 0.45:
                    return _lerp(out, tip, _ease((t - t0) / 0.45))
                if t < t_take:
                    return tip
                return _lerp(tip, out, _ease((t - t_take) / 0.4))

            def held(t, t_take=t_take, path=path, u=u):
                if t < t_take:
                    return None
                p = path(t)
                return CardPose("back", (p[0] + u[0] * 40, p[1] + u[1] * 40), 90.0)

            self._arm(seat, path, t0, t_take + 0.4, held)
            self.tl.changes.append((t_take, "draw", 1))
            first = t_take if first is None else first
            self.t = t_take + 0.4 + 0.25
        self.t += 0.35
        return first

    def start(self, seat: int, label: str) -> float:
        """Turn the top card of the draw pile onto the discard pile."""
        t0 = self.t
        entry = ENTRY[seat]
        u = np.subtract(DRAW, entry) / np.hypot(*np.subtract(DRAW, entry))
        tip = (DRAW[0] - u[0] * 15, DRAW[1] - u[1] * 15)
        out = (entry[0] - u[0] * 80, entry[1] - u[1] * 80)
        t_take = t0 + 0.45 + 0.25
        self._arm(seat, lambda t: _lerp(out, tip, _ease((t - t0) / 0.45)), t0, t_take)
        self.tl.changes.append((t_take, "draw", 1))
        t_land = self._carry(seat, label, DISCARD, 3.0, t_take, reach=0.5, start_at=tip)
        self.top = CardPose(label, DISCARD, 3.0)
        self.tl.changes.append((t_land, "pile", self.top))
        self.t = t_land + 0.35 + 0.8
        return t_land

    def reveal(self, seat: int, cards: list[str]) -> float:
        """Lay a hand out face up in front of its player."""
        poses = [
            CardPose(label, xy, 0.0)
            for label, xy in zip(cards, reveal_slots(seat, len(cards)))
        ]
        centre = tuple(np.mean([p.xy for p in poses], axis=0))
        t_lay = self._carry(seat, None, centre, 0.0, self.t, reach=0.5)
        self.tl.changes.append((t_lay, "reveal", poses))
        self.t = t_lay + 0.35 + 1.8
        return t_lay

    def clear(self) -> None:
        t_mid = self._carry(0, None, DISCARD, 0.0, self.t, reach=0.5)
        self.tl.changes.append((t_mid, "clear", None))
        self.tl.changes.append((t_mid, "refill", 40))
        self.t = t_mid + 0.35 + 2.8


def build_timeline(seed: int = 23, real: bool = False) -> Timeline:
    """The demo's time line for the game of :func:`vision.demo.game.simulate`.

    ``real``: what real tables do, for the evaluation's games: players put a
    twin on its copy whenever they can (a few millimetres off, a few degrees
    turned), fingers cover most carried cards, hands linger after letting go.
    """
    b = _Builder(seed, real)
    events = simulate(seed, twins=real)
    header, rest = events[0], events[1:]
    seat = {name: i for i, name in enumerate(PLAYERS)}
    out: list[dict[str, Any]] = [header]
    plays = 0
    dealer: str = header["dealer"]
    for e in rest:
        kind = e["type"]
        if kind == "start":
            if plays:
                b.clear()
            t = b.start(seat[dealer], e["card"])
        elif kind == "play":
            plays += 1
            if plays == 6:
                b.pass_over(1)
            if plays == 11:
                b.hover_and_back(seat[e["player"]], e["cards"][0])
            t = b.play(seat[e["player"]], e["cards"][0])
            dealer = e["player"]  # the round's last player wins it and deals next
        elif kind == "draw":
            t = b.draw(seat[e["player"]], e["count"])
        elif kind == "reveal":
            t = b.reveal(seat[e["player"]], e["cards"])
        else:  # uno / pass: said aloud
            t = b.t - 0.3 if kind == "pass" else b.t
            e = {**e, "source": "voice"}
        out.append({**e, "t": round(t, 3)})
    b.tl.changes.sort(key=lambda c: c[0])
    b.tl.events = _order(out)
    b.tl.duration = b.t + 1.5
    third = b.tl.duration / 3
    b.tl.lights = [
        (third - 4, third + 4, 0.68, (1.0, 1.0, 1.0)),
        (2 * third - 3, 2 * third + 5, 1.0, (0.82, 0.95, 1.08)),
    ]
    return b.tl


def _order(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Keep the game's order; times never go backwards in a log."""
    last = 0.0
    for e in events[1:]:
        e["t"] = max(e["t"], last)
        last = e["t"]
    return events
