"""A seeded random playout of tgus-t1 / tgus-t2 with real hidden hands.

The simulator holds the true deck, hands, pile and discards, lets random
players act on what the referee's state asks for (answer or take a pending
draw, counter, name colours, turn cards for Hit+?, report leftovers, call and
catch), feeds every action to the referee as a table event, and undoes on its
own table whatever the referee rules illegal ("take it back"). Tests and
benchmarks use it to check that the referee's counts match the table's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from referee.cards import COLORS, Card
from referee.game import apply_safely
from referee.log import Event, Header
from referee.rulings import Ruling

from .cards import ALL_HIT2, GAMBLE_EFFECTS, deck
from .game import TgusTGame
from .hitx import TURNED_GAMBLE_EFFECTS


@dataclass
class Playout:
    """The result: the game, every event and ruling, and the checks made on the way."""

    game: TgusTGame
    events: list[dict[str, Any]] = field(default_factory=list)
    rulings: list[Ruling] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)


class Simulator:
    """Random players at a real table, refereed event by event."""

    def __init__(
        self, rules: str, players: int = 4, seed: int = 0, hand_size: int | None = None
    ):
        self.rng = random.Random(seed)
        names = [f"P{i + 1}" for i in range(players)]
        header = {"type": "game", "game": "uno", "rules": rules, "players": names}
        if hand_size:
            header["hand_size"] = hand_size
        self.game = TgusTGame(Header.from_dict(header))
        self.pile = deck()
        self.rng.shuffle(self.pile)
        size = self.game.opts.hand_size
        self.hands = {p: [self.pile.pop() for _ in range(size)] for p in names}
        self.discards: list[Card] = []
        self.declined: set[str] = set()
        self.out = Playout(self.game)

    # -- the table ------------------------------------------------------------------
    def send(self, obj: dict[str, Any]) -> list[Ruling]:
        """Record one table event and let the referee rule on it."""
        index = len(self.out.events) + 1
        self.out.events.append(obj)
        got = apply_safely(self.game, Event(index, obj["type"], obj))
        self.out.rulings += got
        return got

    def _rebuild(self, force: bool) -> None:
        if len(self.discards) > 1 and (
            force or len(self.pile) <= self.game.opts.rebuild_at
        ):
            top = self.discards.pop()
            self.rng.shuffle(self.discards)
            self.pile = self.discards + self.pile
            self.discards = [top]

    def _take(self, count: int) -> list[Card]:
        if count > len(self.pile):
            self._rebuild(True)
        count = min(count, len(self.pile))
        taken = [self.pile.pop() for _ in range(count)]
        self._rebuild(False)
        return taken

    def check(self) -> None:
        """Compare the referee's counts with the table's; note any difference."""
        s = self.game.state()
        true = {p: len(h) for p, h in self.hands.items()}
        if s["hand_counts"] != true:
            self.out.mismatches.append(
                f"event {len(self.out.events)}: hands " f"{s['hand_counts']} != {true}"
            )
        if s["pile"] != len(self.pile) or s["discards"] != len(self.discards):
            self.out.mismatches.append(
                f"event {len(self.out.events)}: pile {s['pile']}/{s['discards']} != "
                f"{len(self.pile)}/{len(self.discards)}"
            )

    # -- players --------------------------------------------------------------------
    def run(self, max_events: int = 4000) -> Playout:
        """Turn the first card and play until the game ends (or ``max_events``)."""
        start = self.pile.pop()
        self.discards.append(start)
        self.send({"type": "start", "card": start.label})
        while not self.game.over and len(self.out.events) < max_events:
            self.step()
            self.check()
        return self.out

    def step(self) -> None:
        """One action: whatever the referee waits for first, else the turn."""
        t = self.game.t
        if t.hitx is not None:
            return self._turn_card()
        if t.awaiting_color is not None:
            self.send(
                {
                    "type": "color",
                    "player": t.awaiting_color,
                    "color": self.rng.choice(COLORS),
                }
            )
            return None
        if t.change is not None:
            return self._answer_change()
        for p in sorted(t.all_hit_open - self.declined):
            self.declined.add(p)
            if self._has(p, "counter") and self.rng.random() < 0.5:
                return self._play(p, [self._find(p, "counter")])
        if not t.all_hit_open:
            self.declined.clear()
        for p in self.game.players:
            if t.owed.get(p) and self._available():
                return self._draw(p, t.owed[p])
        for p in self.game.players:
            hand = self.hands[p]
            if (
                hand
                and p not in t.ranking
                and p not in t.leftover
                and not any(c.is_number for c in hand)
            ):
                self.send({"type": "picture-leftover", "player": p})
                return None
        if t.exposed is not None and self.rng.random() < 0.5:
            catcher = self.rng.choice([p for p in self.game.players if p != t.exposed])
            self.send({"type": "catch", "player": catcher, "target": t.exposed})
            return None
        return self._turn()

    def _turn(self) -> None:
        t = self.game.t
        p = t.turn
        if p is None:
            return None
        hand = self.hands[p]
        if t.chain is not None:
            answers = [c for c in hand if self._rank(c) >= t.chain.rank]
            if answers and self.rng.random() < 0.7:
                return self._play(p, [self.rng.choice(answers)])
            return self._draw(p, 1)
        if t.drew:
            options = self._legal(p)
            if options and self.rng.random() < 0.8:
                return self._play(p, self.rng.choice(options))
            self.send({"type": "pass", "player": p})
            return None
        options = self._legal(p)
        if options and self.rng.random() < 0.95:
            return self._play(p, self.rng.choice(options))
        return self._draw(p, 1)

    def _available(self) -> int:
        return len(self.pile) + max(0, len(self.discards) - 1)

    def _rank(self, card: Card) -> int:
        if card.value == "gamble":
            return self.game.opts.rank("counter")
        return self.game.opts.rank(card.value)

    def _legal(self, p: str) -> list[list[Card]]:
        t = self.game.t
        out: list[list[Card]] = []
        for card in self.hands[p]:
            if card.value == "counter":
                continue
            if (
                card.color is None
                or t.color is None
                or card.color == t.color
                or card.value == t.top_effect
            ):
                same = [
                    c for c in self.hands[p] if c.value == card.value and c is not card
                ]
                group = [card] + same[: self.rng.randint(0, len(same))]
                out.append(group if card.color is not None else [card])
        return out

    def _has(self, p: str, value: str) -> bool:
        return any(c.value == value for c in self.hands[p])

    def _find(self, p: str, value: str) -> Card:
        return next(c for c in self.hands[p] if c.value == value)

    def _play(self, p: str, cards: list[Card]) -> None:
        t = self.game.t
        obj: dict[str, Any] = {
            "type": "play",
            "player": p,
            "cards": [c.label for c in cards],
        }
        if cards[0].color is None:
            obj["color"] = self.rng.choice(COLORS)
        if cards[0].value == "gamble":
            if t.chain is not None:
                obj["effect"] = "counter"
            else:
                pool = list(GAMBLE_EFFECTS)
                if self.game.opts.all_hit2:
                    pool.append(ALL_HIT2)
                obj["effect"] = self.rng.choice([e for e in pool if e != "counter"])
        if obj.get("effect", cards[0].value) in ("change", "replace"):
            others = [q for q in t.active() if q != p]
            obj["target"] = self.rng.choice(others)
        if "color" in obj and not self._names_colour(p, cards, obj):
            del obj["color"]  # drawn all the same: the seeded games stay as they were
        got = self.send(obj)
        if any(r.ruling == "illegal" for r in got):
            return None
        for card in cards:
            self.hands[p].remove(card)
        self.discards += cards
        if obj.get("effect") == "hand2" and len(self.hands[p]) > 2:
            self.pile = self.hands[p][2:] + self.pile  # under the pile
            self.hands[p] = self.hands[p][:2]
        if obj.get("effect", cards[0].value) == "replace" and "target" in obj:
            q = obj["target"]
            if self.hands[p]:
                self.hands[p], self.hands[q] = self.hands[q], self.hands[p]
        if len(self.hands[p]) == 1 and self.rng.random() < 0.8:
            self.send({"type": "call", "player": p, "name": "Reimu"})
        return None

    def _names_colour(self, p: str, cards: list[Card], obj: dict[str, Any]) -> bool:
        """Whether this play's player names a colour with it (000 T1, T2).

        Not a Change (its target names it) nor a Counter, except a Gamble
        countering a Hit; a Counter bouncing a Change leaves its colour to a
        ``color`` event, so the Change's player may still counter back.
        """
        eff = obj.get("effect", cards[0].value)
        if eff == "change":
            return False
        if eff == "counter":
            chain = self.game.t.chain
            return (
                any(c.value == "gamble" for c in cards)
                and chain is not None
                and chain.target == p
                and p not in self.game.t.all_hit_open
                and self.game.t.change is None
            )
        return True

    def _draw(self, p: str, count: int) -> None:
        t = self.game.t
        before = len(self.hands[p])
        ask = count
        if t.chain is None or t.chain.target != p:
            ask = min(count, self._available())
        if ask < 1:  # nothing left to draw from: the table is stuck, say so and pass
            self.send({"type": "pass", "player": p})
            return None
        got = self.send({"type": "draw", "player": p, "count": ask})
        refused = sum(1 for r in got if r.ruling == "illegal")
        if refused:
            return None
        new_count = self.game.state()["hand_counts"][p]
        self.hands[p] += self._take(new_count - before)
        return None

    def _turn_card(self) -> None:
        t = self.game.t
        card = self._take(1)
        if not card:  # no card anywhere to turn: the table is stuck
            self.send({"type": "pass", "player": t.hitx.player})
            return None
        obj: dict[str, Any] = {
            "type": "turned",
            "cards": [card[0].label],
            "color": self.rng.choice(COLORS),
        }
        if card[0].value == "gamble":
            obj["effect"] = self.rng.choice(TURNED_GAMBLE_EFFECTS)
        self.send(obj)
        self.discards += card
        return None

    def _answer_change(self) -> None:
        t = self.game.t
        c = t.change
        if self._has(c.target, "counter") and self.rng.random() < 0.5:
            return self._play(c.target, [self._find(c.target, "counter")])
        victim = c.target
        self.send(
            {"type": "color", "player": c.chooser, "color": self.rng.choice(COLORS)}
        )
        n = len(self.hands[victim])
        self.pile = self.hands[victim] + self.pile
        self.hands[victim] = [self.pile.pop() for _ in range(n)]
        return None


def playout(rules: str, seed: int, players: int = 4, max_events: int = 4000) -> Playout:
    """Run one seeded random game and return what happened."""
    return Simulator(rules, players, seed).run(max_events)
