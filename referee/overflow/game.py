"""The overflow referee (seed 004).

A round: the limit phase turns one card of each colour's limit deck (Reverse,
0-3; Reverse = unlimited; never three Reverses at once), the limit-break phase
has everyone put one hand card face down (+1 to its colour; a Wild +1 to every
colour), then players insert cards into the box, calling the colour (a Wild:
"pass"), and draw back to hand size, until someone calls "Overflow" against an
insert. Judgement turns the face-down cards up, fixes the final limits and
gives -3 to whoever was wrong. The game ends when someone is at -8 or below.

The box is the game's secret: :meth:`Overflow.observe` (the table's view,
``public_view()``, or one player's) never shows the colours in the box, their
counts, the others' face-down cards or the final limits before the judgement;
:meth:`Overflow.state` is the referee's view. Events and
interpretations: ``docs/events-overflow.md``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..cards import ACTIONS, COLORS, NUMBERS, Card
from ..game import GameError, register
from ..log import Event, Header
from ..rulings import Ruling, n_of
from ..phased import PhasedGame, card_of, cards_of, count_of

LIMIT_VALUES = ("reverse", "0", "1", "2", "3")
#: Play cards: 108 less 4 Wild Draw Fours and the 20 limit-deck cards.
PLAY_CARDS = 84
#: The cards of overflow's deck (004): the four colours and four Wilds, the Wild
#: Draw Fours removed. A card of any other deck is refused (rule ``deck``).
DECK = frozenset(Card(color, value) for color in COLORS
                 for value in (*NUMBERS, *ACTIONS)) | {Card(None, "wild")}
DECK_TEXT = "the four colours and four Wilds, no Wild Draw Four"


@dataclass(frozen=True)
class OverflowOptions:
    """House rules of overflow; every default is the seed's rule."""

    hand_size: int = field(default=5, metadata={
        "help": "cards dealt to each hand (and held again at a round's start)",
        "source": "004 §遊び方"})
    bonus_points: int = field(default=2, metadata={
        "help": "points for showing four hand cards of one colour",
        "source": "004 §同色4枚ボーナス"})
    penalty: int = field(default=3, metadata={
        "help": "points lost by whoever was wrong at the judgement",
        "source": "004 §判定フェイズ"})
    end_at: int = field(default=-8, metadata={
        "help": "the game ends when a player's score is at or below this",
        "source": "004 §ゲームの終了"})
    max_reverses: int = field(default=2, metadata={
        "help": "most Reverses (unlimited colours) shown at once in the limit phase",
        "source": "004 §限界フェイズ"})


@dataclass
class Insert:
    """One card put into the box (1-based ``n`` within the round)."""

    n: int
    player: str
    card: Card


@register
class Overflow(PhasedGame):
    """Overflow limits (004): fill a box without passing its secret colour limits."""

    name = "overflow"
    handlers = {**PhasedGame.handlers, "limit": "on_limit",
                "limit-break": "on_limit_break", "draw": "on_draw", "bonus": "on_bonus",
                "insert": "on_insert", "overflow": "on_overflow", "reveal": "on_reveal"}
    PHASES = {"limit": ("limit",), "limit-break": ("limit-break",),
              "insert": ("insert",), "bonus": ("insert",), "overflow": ("insert",)}

    @classmethod
    def presets(cls) -> dict[str, Any]:
        return {"overflow": OverflowOptions()}

    def __init__(self, header: Header):
        super().__init__(header)
        if not 3 <= len(self.players) <= 5:
            raise GameError(f"overflow is for 3 to 5 players, not {len(self.players)}")
        self.options: OverflowOptions = self.options_from(OverflowOptions, header)
        self.hands = {p: self.options.hand_size for p in self.players}
        self.pile = PLAY_CARDS - self.options.hand_size * len(self.players)
        if self.pile < 0:
            raise GameError("hand_size is too large for the 84 play cards")
        self.start = header.dealer or self.players[0]
        # owed refills outlive a round: a draw may be logged after the judgement
        self.owed: dict[str, int] = {p: 0 for p in self.players}
        self._new_round()

    def _new_round(self) -> None:
        self.phase = "limit"
        self.limit_cards: dict[str, Card] = {}
        self.face_down: dict[str, Card | None] = {}
        self.box: list[Insert] = []
        self.turn = self.start
        self.bonus_this_turn = False
        self.round_bonus: Counter[str] = Counter()
        self.accusation: tuple[str, Insert] | None = None

    # -- limit and limit-break phases -------------------------------------------
    def on_limit(self, event: Event) -> list[Ruling]:
        card = card_of(event)
        if card.color is None or card.value not in LIMIT_VALUES:
            text = (f"{card} is not a limit-deck card (Reverse or 0-3 of a colour); "
                    "turn the limit deck's card instead.")
            return [self.ruling(event.index, "illegal", "limit-deck", text)]
        if card.color in self.limit_cards:
            was = self.limit_cards[card.color]
            text = (f"The {card.color} limit is already {was}, "
                    "so this second card was ignored.")
            return [self.ruling(event.index, "info", "limit-deck", text)]
        shown = sum(c.value == "reverse" for c in self.limit_cards.values())
        if card.value == "reverse" and shown >= self.options.max_reverses:
            text = (f"{shown} Reverses are already shown: put {card} under the "
                    f"{card.color} limit deck and turn its next card.")
            return [self.ruling(event.index, "pending", "third-reverse", text)]
        self.limit_cards[card.color] = card
        text = f"The {card.color} limit card is {card}"
        if len(self.limit_cards) < len(COLORS):
            return [self.ruling(event.index, "ok", "limit", text + ".")]
        self.phase = "limit-break"
        text += "; every player now puts one hand card face down."
        return [self.ruling(event.index, "ok", "limit", text)]

    def on_limit_break(self, event: Event) -> list[Ruling]:
        player, note = self.who(event)
        card = card_of(event) if event.get("card") is not None else None
        refused = self.off_deck(event, [card] if card else [], DECK, DECK_TEXT, player,
                                note)
        if refused:
            return refused
        if player in self.face_down:
            text = f"{player} already has a face-down card this round; take it back."
            return [self.ruling(event.index, "illegal", "limit-break", text,
                                player=player)]
        self.face_down[player] = card
        self.hands[player] -= 1
        text = f"{player} put one card face down{note}"
        if len(self.face_down) < len(self.players):
            return [self.ruling(event.index, "ok", "limit-break", text + ".")]
        self.phase = "insert"
        text += f"; {self.turn} inserts first."
        return [self.ruling(event.index, "ok", "limit-break", text)]

    # -- insert phase -----------------------------------------------------------
    def on_draw(self, event: Event) -> list[Ruling]:
        player, note = self.who_draws(event, self.owed)
        count = count_of(event)
        if self.owed[player] == 0:
            text = f"{player} owes no card{note}; put the {count} drawn back."
            return [self.ruling(event.index, "illegal", "draw", text, player=player)]
        take = min(count, self.owed[player], self.pile)
        self.owed[player] -= take
        self.hands[player] += take
        self.pile -= take
        if count > take:
            text = (f"{player} may draw only {take}{note}; put {count - take} back on "
                    "the pile.")
            return [self.ruling(event.index, "illegal", "draw", text, player=player)]
        return [self.ruling(event.index, "ok", "draw", f"{player} drew {take}{note}.")]

    def on_bonus(self, event: Event) -> list[Ruling]:
        player, note = self.who(event)
        cards = cards_of(event)
        size = self.options.hand_size - 1
        why = ""
        if player == self.turn:
            refused = self.off_deck(event, cards, DECK, DECK_TEXT, player, note)
            if refused:
                return refused
        if player != self.turn:
            why = f"it is {self.turn}'s turn"
        elif self.bonus_this_turn:
            why = "the bonus was already taken this turn"
        elif len(cards) != size or self.hands[player] != size:
            why = f"the bonus needs the whole hand of {size} cards"
        elif len({c.color for c in cards if c.color is not None}) > 1:
            why = "the shown cards are not all one colour (Wilds may join any colour)"
        if why:
            text = f"No bonus for {player}: {why}; take the cards back."
            return [self.ruling(event.index, "illegal", "bonus", text, player=player)]
        points = self.options.bonus_points
        self.bonus_this_turn = True
        self.scores[player] += points
        self.round_bonus[player] += points
        self.hands[player] = 0
        self.pile += len(cards)  # shuffled into the bottom of the pile
        self.owed[player] += size
        text = (f"{player} showed {size} cards of one colour{note}: "
                f"+{n_of(points, 'point')}, draw {size}, shuffle the shown cards under "
                "the pile, then insert.")
        return [self.ruling(event.index, "ok", "bonus", text, player=player, draw=size)]

    def on_insert(self, event: Event) -> list[Ruling]:
        player, note = self.who(event)
        card = card_of(event)
        call = event.get("call")
        if player != self.turn:
            text = (f"It is {self.turn}'s turn to insert, not {player}'s; {player} "
                    "takes the card back.")
            return [self.ruling(event.index, "illegal", "turn", text, player=player)]
        refused = self.off_deck(event, [card], DECK, DECK_TEXT, player, note)
        if refused:
            return refused
        if self.hands[player] <= 0:
            text = f"{player} has no card in hand to insert; draw first."
            return [self.ruling(event.index, "illegal", "insert", text, player=player)]
        self.hands[player] -= 1
        self.box.append(Insert(len(self.box) + 1, player, card))
        self.owed[player] += 1
        self.turn = self.next_player(player)
        self.bonus_this_turn = False
        text = f"{player} put card {len(self.box)} into the box{note} and draws 1."
        out = [self.ruling(event.index, "ok", "insert", text, player=player, draw=1)]
        want = "pass" if card.is_wild else card.color
        if call is not None and str(call).lower() != want:
            text = (f"{player}'s call does not match the card put in: the card counts "
                    "as it is and the call must be corrected aloud.")
            out.append(self.ruling(event.index, "illegal", "call", text, player=player))
        return out

    def on_overflow(self, event: Event) -> list[Ruling]:
        player, note = self.who(event)
        target = event.get("target")
        if target not in self.players:
            raise GameError(f"'overflow' needs a 'target' player, got {target!r}")
        if player != self.turn:
            text = (f"Only {self.turn}, whose turn it is, may call Overflow now; "
                    f"{player}'s call does not count.")
            return [self.ruling(event.index, "illegal", "call", text)]
        own = [i.n for i in self.box if i.player == player]
        since = own[-1] if own else 0
        mine = [i for i in self.box if i.player == target and i.n > since]
        named = event.get("insert")
        if named is not None:
            mine = [i for i in mine if i.n == named]
        if target == player or not mine:
            what = f"insert {named}" if named is not None else "an insert"
            text = (f"{player} cannot accuse {target} of {what}: only another player's "
                    f"insert made after {player}'s own last insert may be accused; "
                    f"{player} inserts or calls again.")
            return [self.ruling(event.index, "illegal", "call", text, player=player)]
        self.accusation = (player, mine[-1])
        self.phase = "judgement"
        text = (f"{player} calls Overflow on {target}'s insert {mine[-1].n}{note}: "
                "everyone turns up the face-down card.")
        return [self.ruling(event.index, "pending", "call", text)] + self._judge(event)

    def on_reveal(self, event: Event) -> list[Ruling]:
        player, _ = self.who(event)
        raw = event.get("cards") or ([event.get("card")] if event.get("card") else None)
        if not isinstance(raw, list) or len(raw) != 1:
            raise GameError("'reveal' needs the face-down card as 'card' or 'cards'")
        card = Card.from_label(raw[0])
        refused = self.off_deck(event, [card], DECK, DECK_TEXT, player)
        if refused:
            return refused
        if self.phase == "limit" and self.rounds and not self.limit_cards:
            # a reveal of the round just judged from the logged face-down cards
            was = self.rounds[-1]["face_down"].get(player)
            if was == card.label:
                text = f"{player}'s face-down card {card} is the one judged."
                return [self.ruling(event.index, "ok", "reveal", text)]
            text = (f"{player} shows {card}, but the judgement used the logged "
                    f"face-down card {was}.")
            return [self.ruling(event.index, "info", "reveal", text)]
        if self.phase != "judgement":
            text = (f"A 'reveal' does not belong in the {self.phase} phase; it was not "
                    "counted.")
            return [self.ruling(event.index, "illegal", "phase", text)]
        if player not in self.face_down:
            text = f"{player} placed no face-down card this round, so this was ignored."
            return [self.ruling(event.index, "info", "reveal", text)]
        before = self.face_down[player]
        self.face_down[player] = card
        out = []
        if before is not None and before != card:
            text = (f"{player}'s face-down card was logged as {before} but shows "
                    f"{card}; the shown card counts.")
            out = [self.ruling(event.index, "info", "reveal", text)]
        return out + self._judge(event)

    # -- judgement --------------------------------------------------------------
    def final_limits(self) -> dict[str, int | None]:
        """Colour -> final limit (None = unlimited), from the known face-down cards."""
        add: Counter[str] = Counter()
        for card in self.face_down.values():
            if card is not None:
                add.update(COLORS if card.is_wild else (card.color,))
        return {c: None if self.limit_cards[c].value == "reverse"
                else int(self.limit_cards[c].value) + add[c] for c in COLORS}

    def _judge(self, event: Event) -> list[Ruling]:
        if self.accusation is None or any(c is None for c in self.face_down.values()):
            return []
        caller, accused = self.accusation
        limits = self.final_limits()
        color = accused.card.color
        count = sum(1 for i in self.box[: accused.n] if i.card.color == color)
        limit = limits[color] if color else None
        went_over = limit is not None and count > limit
        loser = accused.player if went_over else caller
        penalty = self.options.penalty
        if color is None:
            what = f"{accused.player}'s insert {accused.n} was a Wild (pass)"
        else:
            shown = "no limit" if limit is None else limit
            what = (f"{accused.player}'s insert {accused.n} was {color} card {count} "
                    f"against a limit of {shown}")
        self.scores[loser] -= penalty
        deltas = {p: self.round_bonus[p] - (penalty if p == loser else 0)
                  for p in self.players}
        self.rounds.append({
            "round": len(self.rounds) + 1, "caller": caller, "accused": accused.player,
            "insert": accused.n, "card": accused.card.label, "count": count,
            "limits": limits, "went_over": went_over, "loser": loser, "deltas": deltas,
            "box": [i.card.label for i in self.box],
            "face_down": {p: c.label for p, c in self.face_down.items() if c},
        })
        text = f"{what}, so {loser} scores -{penalty} and starts the next round."
        out = [self.ruling(event.index, "round-end", "round-end", text, player=loser,
                       scores=dict(self.scores))]
        self.pile += len(self.box)  # the box is shuffled under the pile
        for p in self.face_down:
            self.hands[p] += 1
        self.start = loser
        low = min(self.scores.values())
        if low <= self.options.end_at:
            out.append(self.finish(event, f"A player is at {low}, so the game ends"))
        self._new_round()
        return out

    # -- views ------------------------------------------------------------------
    def _table(self) -> dict[str, Any]:
        """What lies open on the table: the common keys and the turned limit cards.

        The turned limit cards are shown because they lie face up on the table
        (004 §限界フェイズ); who inserted is seen, never what.
        """
        out = self.common_state()
        accused = self.accusation
        out.update({
            "round": len(self.rounds) + (0 if self.over else 1),
            "start_player": self.start, "hand_counts": dict(self.hands),
            "pile": self.pile, "owed_draws": {p: n for p, n in self.owed.items() if n},
            "limit_cards": {c: k.label for c, k in self.limit_cards.items()},
            "face_down_placed": sorted(self.face_down),
            "accusation": None if accused is None else {
                "caller": accused[0], "target": accused[1].player,
                "insert": accused[1].n},
        })
        return out

    def observe(self, viewer: str | None = None) -> dict[str, Any]:
        """What ``viewer`` may see: the table, and a player's own face-down card.

        The colours in the box, their counts, the others' face-down cards and
        the final limits stay hidden until the judgement (004 §判定フェイズ).
        """
        out = self._table()
        out["inserts"] = [{"n": i.n, "player": i.player} for i in self.box]
        own = self.face_down.get(viewer) if viewer is not None else None
        if own is not None:
            out["face_down"] = {viewer: own.label}
        return out

    def state(self) -> dict[str, Any]:
        """The referee's view: the box, the face-down cards and the counts too."""
        out = self._table()
        out["box"] = [{"n": i.n, "player": i.player, "card": i.card.label}
                      for i in self.box]
        out["box_counts"] = dict(Counter(i.card.color or "pass" for i in self.box))
        down = self.face_down
        out["face_down"] = {p: c.label if c else None for p, c in down.items()}
        known = len(down) == len(self.players) and all(down.values())
        if len(self.limit_cards) == len(COLORS) and known:
            out["final_limits"] = self.final_limits()
        return out
