"""Random playouts: complete legal uno games with hands the simulator knows.

The simulator deals real shuffled cards, lets random players act legally (with
the odd bluffed Wild Draw Four, forgotten UNO call, catch, challenge and
jump-in), writes the table log a camera and a microphone would give (reveals
included) and feeds it to the engine as it goes. With ``check=True`` it asserts
after every event that the engine's hand counts, draw pile and discard pile
equal the real ones, that every card is accounted for, that no legal move was
ruled illegal, that a bluffed Wild Draw Four is found guilty (the verdict is
read from ``UnoState.verdict``) and an honest one innocent, that each round
has one winner, and that scores follow the revealed hands. Turn and debts are
read from the engine (the simulator plays *for* the table).

``tableref simulate --seed 1`` prints a game's table log.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from typing import Any

from ..cards import COLORS, Card, standard_deck
from ..game import apply_safely, new_game
from ..log import Event, Header
from ..rulings import Ruling
from .game import UnoGame
from .plays import hand_points, playable, wd4_offending_card


class SimulationError(AssertionError):
    """An invariant broke: the engine disagrees with the real cards."""


@dataclass
class Simulation:
    """A simulated game: header, events (line 1 on), rulings, and the engine."""

    header: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    rulings: list[Ruling] = field(default_factory=list)
    game: UnoGame | None = None

    def lines(self) -> list[str]:
        """The table log as JSON lines (header first)."""
        return [json.dumps(self.header)] + [json.dumps(e) for e in self.events]


class Simulator:
    """One game's playout; see the module docstring."""

    def __init__(self, seed: int, players: int = 4,
                 options: dict[str, Any] | None = None,
                 rules: str = "official", check: bool = True, max_events: int = 4000,
                 hand_size: int | None = None):
        self.rng = random.Random(seed)
        names = [f"P{i + 1}" for i in range(players)]
        head: dict[str, Any] = {"type": "game", "game": "uno", "rules": rules,
                                "players": names, "dealer": names[-1],
                                "options": dict(options or {})}
        if hand_size is not None:
            head["hand_size"] = hand_size
        self.sim = Simulation(head)
        game = new_game(Header.from_dict(head))
        assert isinstance(game, UnoGame)
        self.game = game
        self.sim.game = self.game
        self.o = self.game.options
        self.check = check
        self.max_events = max_events
        self.hands: list[list[Card]] = [[] for _ in names]
        self.pile: list[Card] = []
        self.discard: list[Card] = []
        self.deck_size = 112 if self.o.deck == 112 else 108
        self.bluffed = False

    # -- event plumbing ----------------------------------------------------------------
    def emit(self, obj: dict[str, Any], legal: bool = True) -> list[Ruling]:
        line = len(self.sim.events) + 1
        self.sim.events.append(obj)
        out = apply_safely(self.game, Event(line, obj["type"], obj))
        self.sim.rulings += out
        if self.check and legal:
            bad = [r for r in out if r.ruling == "illegal" or r.rule.startswith("log.")]
            if bad:
                raise SimulationError(
                    f"line {line} {obj}: legal move ruled {bad[0].to_dict()}")
        return out

    def verify(self) -> None:
        s = self.game.s
        real = [len(h) for h in self.hands]
        total = len(self.pile) + len(self.discard) + sum(real)
        problems = []
        if total != self.deck_size:
            problems.append(f"{total} cards accounted for, not {self.deck_size}")
        if s.hand_counts != real:
            problems.append(f"hand counts {s.hand_counts} != real {real}")
        if min(s.hand_counts) < 0:
            problems.append(f"negative hand count {s.hand_counts}")
        if s.draw_pile != len(self.pile):
            problems.append(f"draw pile {s.draw_pile} != real {len(self.pile)}")
        if s.discard != len(self.discard):
            problems.append(f"discard pile {s.discard} != real {len(self.discard)}")
        if problems:
            raise SimulationError(
                f"after line {len(self.sim.events)}: " + "; ".join(problems))

    # -- real cards --------------------------------------------------------------
    def available(self) -> int:
        return len(self.pile) + max(0, len(self.discard) - 1)

    def draw_cards(self, p: int, count: int) -> list[Card]:
        if count > len(self.pile) and len(self.discard) > 1:
            rest, self.discard = self.discard[:-1], self.discard[-1:]
            self.rng.shuffle(rest)
            self.pile = rest + self.pile
        got = [self.pile.pop() for _ in range(min(count, len(self.pile)))]
        self.hands[p] += got
        return got

    def put(self, p: int, cards: list[Card]) -> None:
        for c in cards:
            self.hands[p].remove(c)
        self.discard += cards

    def deal(self) -> None:
        deck = standard_deck(extra_wilds=self.deck_size == 112)
        self.rng.shuffle(deck)
        self.pile, self.discard = deck, []
        self.hands = [[self.pile.pop() for _ in range(self.o.hand_size)]
                      for _ in self.hands]

    # -- the game loop ---------------------------------------------------------------
    def run(self) -> Simulation:
        s = self.game.s
        while s.phase != "over" and len(self.sim.events) < self.max_events:
            self.step()
            if self.check:
                self.verify()
        return self.sim

    def step(self) -> None:
        s, rng = self.game.s, self.rng
        if s.phase in ("setup", "restart"):
            self.turn_first_card()
            return
        if s.phase == "challenge":
            self.answer_challenge()
            return
        debtors = [p for p, c in enumerate(s.owed) if c]
        rec = s.wd4
        if debtors and not (rec and s.pending and rec.player in debtors):
            self.pay(debtors[0], s.owed[debtors[0]])
            return
        if s.phase == "scoring":
            self.reveal_for_scoring()
            return
        if s.catchable and rng.random() < 0.3:
            target = next(iter(s.catchable))
            if rng.random() < 0.4:
                self.emit(
                    {"type": "uno", "player": s.players[target], "source": "voice"})
            else:
                catcher = rng.choice([q for q in range(s.n) if q != target])
                self.emit({"type": "catch", "player": s.players[catcher],
                           "target": s.players[target]})
            return
        if (self.o.jump_in and not s.pending and s.phase == "turn"
                and rng.random() < 0.3):
            if self.try_jump_in():
                return
        if rng.random() < 0.02:
            self.illegal_move()
            return
        self.act(s.turn)

    def turn_first_card(self) -> None:
        s = self.game.s
        if s.phase == "setup":
            self.deal()
        card = self.pile.pop()
        self.discard.append(card)
        obj: dict[str, Any] = {"type": "start", "card": card.label}
        if card.is_wild and self.rng.random() < 0.5:
            obj["color"] = self.rng.choice(COLORS)
        self.emit(obj)
        if s.phase == "restart":  # the card goes back into the pile
            self.discard.pop()
            self.pile.insert(self.rng.randrange(len(self.pile) + 1), card)

    def pay(self, p: int, owed: int) -> None:
        count = max(1, min(owed, self.available()))
        self.draw_cards(p, count)
        self.emit({"type": "draw", "player": self.game.s.players[p], "count": count})

    def reveal_for_scoring(self) -> None:
        s = self.game.s
        for p in range(s.n):
            if p != s.round_winner and p not in s.revealed:
                hands = [len(h) for h in self.hands]
                if self.check and (hands.count(0) != 1 or hands[s.round_winner] != 0):
                    raise SimulationError(
                        f"round {s.round}: not one winner, hands {hands}")
                before = len(s.rounds)
                self.emit({"type": "reveal", "player": s.players[p],
                           "cards": [c.label for c in self.hands[p]]})
                if len(s.rounds) > before:
                    self.check_round(s.rounds[-1])
                return

    def check_round(self, record: dict[str, Any]) -> None:
        if not self.check:
            return
        s = self.game.s
        mult = record.get("multipliers", {})
        winner = record["winner"]
        expected = {n: 0 for n in s.players}
        for p, name in enumerate(s.players):
            if name != winner:
                value = hand_points(self.hands[p]) * mult.get(name, 1)
                expected[winner] += value
                if self.o.scoring == "japan":
                    expected[name] -= value
        if record["deltas"] != expected:
            raise SimulationError(f"round {record['round']}: deltas {record['deltas']} "
                                  f"!= {expected} from the real hands")

    def answer_challenge(self) -> None:
        s = self.game.s
        assert s.wd4 is not None
        accused = s.wd4.player
        k = s.wd4.cards
        judged = s.verdict
        out = self.emit({"type": "reveal", "player": s.players[accused],
                         "cards": [c.label for c in self.hands[accused]]})
        guilty = s.verdict is not judged and s.verdict == (accused, True)
        if self.check and guilty != self.bluffed:
            raise SimulationError(
                f"line {len(self.sim.events)}: bluff={self.bluffed} but ruled "
                f"{[r.to_dict() for r in out]}")
        if guilty and self.o.wd4_guilty_takeback:
            back, self.discard = self.discard[-k:], self.discard[:-k]
            self.hands[accused] += back

    # -- choosing moves ----------------------------------------------------------------
    def legal(self, p: int) -> list[Card]:
        s = self.game.s
        return [c for c in self.hands[p]
                if playable(c, s.top, s.color, s.pending, s.pending_kind, self.o)
                and not (c.value == "wild-draw4" and s.wd4_returned == p)]

    def group(self, p: int, first: Card) -> list[Card]:
        """``first`` plus the cards it may go down with (multi-play)."""
        o, hand = self.o, list(self.hands[p])
        hand.remove(first)
        if o.multi_play == "same":
            mates = [c for c in hand if c.value == first.value]
            return [first] + mates[: self.rng.randrange(len(mates) + 1)]
        if o.multi_play == "pairs" and first.is_number and first in hand:
            return [first, first] if self.rng.random() < 0.7 else [first]
        return [first]

    def may_finish(self, p: int, cards: list[Card]) -> bool:
        o = self.o
        if len(cards) < len(self.hands[p]):
            return True
        if not o.out_on_action and cards[-1].is_action:
            return False
        return len(cards) <= 2 or o.multi_out == "allowed"

    def play(self, p: int, cards: list[Card], jump: bool = False) -> None:
        s, rng = self.game.s, self.rng
        left = len(self.hands[p]) - len(cards)
        must = left == 0 and len(cards) > 1 and self.o.multi_out == "needs-call"
        if (left <= 1 and len(self.hands[p]) <= 2 and not s.called[p]
                and (must or rng.random() < 0.7)):
            self.emit({"type": "uno", "player": s.players[p]})
        obj: dict[str, Any] = {"type": "play", "cards": [c.label for c in cards]}
        if jump or rng.random() < 0.9:
            obj["player"] = s.players[p]
        if cards[-1].is_wild:
            obj["color"] = rng.choice(COLORS)
        self.put(p, cards)
        self.emit(obj)
        if cards[-1].value == "wild-shuffle" and self.hands[p]:
            pool = [c for h in self.hands for c in h]
            self.rng.shuffle(pool)
            self.hands = [[] for _ in self.hands]
            for j, card in enumerate(pool):
                self.hands[s.step(p, j % s.n + 1)].append(card)

    def act(self, p: int) -> None:
        s, o, rng = self.game.s, self.o, self.rng
        if s.owed[p]:  # a debt is drawn before anything else (001: before going out)
            self.pay(p, s.owed[p])
            return
        if s.pending:
            rec = s.wd4
            if rec and rec.challengeable and rec.victim == p and rng.random() < 0.35:
                self.emit({"type": "challenge", "player": s.players[p]})
                return
            answers = self.legal(p) if o.stacking else []
            answers = [c for c in answers if self.may_finish(p, [c])]
            if answers and rng.random() < 0.7:
                self.play_checked(p, [rng.choice(answers)])
                return
            self.pay_pending(p)
            return
        options = [c for c in self.legal(p) if self.may_finish(p, [c])]
        if not options or rng.random() < 0.08:
            drawn = self.draw_cards(p, 1)
            obj: dict[str, Any] = {"type": "draw", "player": s.players[p]}
            if drawn and rng.random() < 0.5:
                obj["cards"] = [drawn[0].label]
            self.emit(obj)
            if s.phase != "drawn":
                return
            card = drawn[0] if drawn else None
            if (card is not None and card in self.legal(p)
                    and self.may_finish(p, [card])
                    and rng.random() < 0.8):
                self.play_checked(p, [card])
            else:
                self.emit({"type": "pass", "player": s.players[p]})
            return
        card = rng.choice(options)
        cards = self.group(p, card)
        if not self.may_finish(p, cards):
            cards = [card]
        self.play_checked(p, cards)

    def play_checked(self, p: int, cards: list[Card]) -> None:
        """Play, noting whether a Wild Draw Four is a bluff (for the challenge)."""
        s = self.game.s
        if cards[-1].value == "wild-draw4":
            rest = list(self.hands[p])
            for c in cards:
                rest.remove(c)
            self.bluffed = wd4_offending_card(rest, s.top, s.color, s.pending,
                                              s.pending_kind, self.o) is not None
        self.play(p, cards)

    def pay_pending(self, p: int) -> None:
        self.pay(p, self.game.s.pending)

    def try_jump_in(self) -> bool:
        s = self.game.s
        top = s.top
        if top is None or top.color is None:
            return False
        for q in self.rng.sample(range(s.n), s.n):
            if q != s.turn and top in self.hands[q] and self.may_finish(q, [top]):
                self.play(q, [top], jump=True)
                return True
        return False

    def illegal_move(self) -> None:
        """A deliberate illegal play (wrong turn or no match): nothing may change."""
        s = self.game.s
        before = self.game.state()
        other = s.step(s.turn, 2) if s.n > 2 else s.turn
        wrong = [c for c in self.hands[other] if not c.is_wild and (
            other != s.turn or not playable(c, s.top, s.color, s.pending,
                                            s.pending_kind, self.o))]
        if not wrong or (other != s.turn and self.o.jump_in):
            return
        out = self.emit({"type": "play", "player": s.players[other],
                         "cards": [wrong[0].label]}, legal=False)
        if self.check and (any(r.ruling != "illegal" for r in out)
                           or self.game.state() != before):
            raise SimulationError(f"line {len(self.sim.events)}: illegal play was not "
                                  f"refused cleanly: {[r.to_dict() for r in out]}")


def simulate(seed: int, players: int = 4, options: dict[str, Any] | None = None,
             **kw: Any) -> Simulation:
    """Play one game; see :class:`Simulator` for the arguments."""
    return Simulator(seed, players, options, **kw).run()
