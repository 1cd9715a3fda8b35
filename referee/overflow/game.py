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
from ..rulings import Ruling
from ..phased import PhasedGame, card_of, cards_of, count_of
from ..text import Text, count, define
from ..text import color as colour  # ``color`` is a card's colour here

define({
    "overflow.phase-limit": {"en": "limit", "ja": "限界"},
    "overflow.phase-limit-break": {"en": "limit-break", "ja": "限界突破"},
    "overflow.phase-insert": {"en": "insert", "ja": "投入"},
    "overflow.phase-judgement": {"en": "judgement", "ja": "判定"},
    "overflow.event-limit": {"en": "limit", "ja": "限界カードの公開"},
    "overflow.event-limit-break": {"en": "limit-break", "ja": "裏向きのカードを置くこと"},
    "overflow.event-insert": {"en": "insert", "ja": "投入"},
    "overflow.event-bonus": {"en": "bonus", "ja": "同色4枚ボーナス"},
    "overflow.event-overflow": {"en": "overflow", "ja": "「オーバーフロー」のコール"},
    "overflow.event-reveal": {"en": "reveal", "ja": "裏向きのカードの公開"},
    "overflow.deck": {
        "en": "the overflow deck (the four colours and four Wilds, no Wild Draw Four)",
        "ja": "このゲームのデッキ（4色のカードと4枚のワイルド、ドローフォーなし）",
    },
    "overflow.players": {
        "en": "overflow is for 3 to 5 players, not {n}",
        "ja": "オーバーフローは3〜5人で遊ぶゲームです（{n}人では遊べません）",
    },
    "overflow.hand-size": {
        "en": "hand_size is too large for the {n} play cards",
        "ja": "hand_sizeが大きすぎて、{n}枚のカードでは配れません",
    },
    "overflow.not-limit-card": {
        "en": "{card} is not a limit-deck card (Reverse or 0-3 of a colour); turn the "
              "limit deck's card instead.",
        "ja": ("{card}は限界デッキのカード（各色のリバースか0〜3）ではなく、"
               "限界デッキのカードを公開してください。"),
    },
    "overflow.limit-again": {
        "en": "The {color} limit is already {card}, so this second card was ignored.",
        "ja": "{color}の限界カードはもう{card}なので、2枚目は無視しました。",
    },
    "overflow.third-reverse": {
        "en": "{shown} Reverses are already shown: put {card} under the {color} limit "
              "deck and turn its next card.",
        "ja": ("リバースはもう{shown}枚公開されており、"
               "{card}を{color}の限界デッキの下に戻し、"
               "一番上のカードをもう一度公開してください。"),
    },
    "overflow.limit": {
        "en": "The {color} limit card is {card}.",
        "ja": "{color}の限界カードは{card}です。",
    },
    "overflow.limit-last": {
        "en": "The {color} limit card is {card}; every player now puts one hand card "
              "face down.",
        "ja": ("{color}の限界カードは{card}で、全員、"
               "手札から1枚を選んで裏向きに置いてください。"),
    },
    "overflow.face-down-again": {
        "en": "{player} already has a face-down card this round; take it back.",
        "ja": ("{player}はこのラウンドの裏向きのカードをもう置いており、"
               "戻してください。"),
    },
    "overflow.face-down": {
        "en": "{player} put one card face down{note}.",
        "ja": "{player}はカードを1枚裏向きに置きました{note}。",
    },
    "overflow.face-down-last": {
        "en": "{player} put one card face down{note}; {turn} inserts first.",
        "ja": "{player}はカードを1枚裏向きに置き{note}、最初に投入するのは{turn}です。",
    },
    "overflow.owes-none": {
        "en": "{player} owes no card{note}; put the {n} drawn back.",
        "ja": "{player}が補充するカードはなく{note}、引いた{n}枚を戻してください。",
    },
    "overflow.draw-only": {
        "en": "{player} may draw only {take}{note}; put {back} back on the pile.",
        "ja": ("{player}が補充できるのは{take}枚だけで{note}、"
               "{back}枚を山札に戻してください。"),
    },
    "overflow.drew": {
        "en": "{player} drew {take}{note}.",
        "ja": "{player}は{take}枚補充しました{note}。",
    },
    "overflow.bonus-turn": {
        "en": "it is {turn}'s turn",
        "ja": "今は{turn}の番です",
    },
    "overflow.bonus-taken": {
        "en": "the bonus was already taken this turn",
        "ja": "この手番のボーナスはもう受け取っています",
    },
    "overflow.bonus-size": {
        "en": "the bonus needs the whole hand of {size} cards",
        "ja": "ボーナスには手札{size}枚すべてが必要です",
    },
    "overflow.bonus-colours": {
        "en": "the shown cards are not all one colour (Wilds may join any colour)",
        "ja": "公開したカードが同じ色ではありません（ワイルドはどの色にも含められます）",
    },
    "overflow.no-bonus": {
        "en": "No bonus for {player}: {why}; take the cards back.",
        "ja": "{player}にボーナスはなく、{why!c}、カードを戻してください。",
    },
    "overflow.bonus": {
        "en": "{player} showed {size} cards of one colour{note}: +{points}, "
              "draw {size}, shuffle the shown cards under the pile, then insert.",
        "ja": ("{player}は同じ色の{size}枚を公開し{note}、+{points}を得て、"
               "{size}枚補充し、公開したカードをシャッフルして山札の下に戻してから投"
               "入してください。"),
    },
    "overflow.insert-turn": {
        "en": "It is {turn}'s turn to insert, not {player}'s; {player} takes the card "
              "back.",
        "ja": ("投入するのは{turn}の番で、{player}の番ではなく、"
               "{player}はカードを戻します。"),
    },
    "overflow.no-hand": {
        "en": "{player} has no card in hand to insert; draw first.",
        "ja": "{player}には投入する手札がなく、先に補充してください。",
    },
    "overflow.inserted": {
        "en": "{player} put card {n} into the box{note} and draws 1.",
        "ja": "{player}は{n}枚目のカードを箱に投入し{note}、1枚補充します。",
    },
    "overflow.wrong-call": {
        "en": "{player}'s call does not match the card put in: the card counts as it "
              "is and the call must be corrected aloud.",
        "ja": ("{player}のコールが投入したカードと合っておらず、"
               "カードはそのまま数え、声に出してコールを訂正してください。"),
    },
    "overflow.needs-target": {
        "en": "'overflow' needs a 'target' player, got {target}",
        "ja": "「overflow」には対象のプレイヤー「target」が必要です（{target}は使えません）",
    },
    "overflow.not-caller": {
        "en": "Only {turn}, whose turn it is, may call Overflow now; {player}'s call "
              "does not count.",
        "ja": ("今「オーバーフロー」をコールできるのは手番の{turn}だけで、"
               "{player}のコールは数えません。"),
    },
    "overflow.an-insert": {"en": "an insert", "ja": "投入"},
    "overflow.insert-n": {"en": "insert {n}", "ja": "投入（箱の{n}枚目）"},
    "overflow.cannot-accuse": {
        "en": "{player} cannot accuse {target} of {what}: only another player's "
              "insert made after {player}'s own last insert may be accused; {player} "
              "inserts or calls again.",
        "ja": ("{player}は{target}の{what}に「オーバーフロー」をコールできず（コール"
               "できるのは、{player}が前回投入した後の他のプレイヤーの投入だけ）、"
               "{player}は投入するか、コールし直してください。"),
    },
    "overflow.call": {
        "en": "{player} calls Overflow on {target}'s insert {n}{note}: everyone turns "
              "up the face-down card.",
        "ja": ("{player}が{target}の投入（箱の{n}枚目）に「オーバーフロー」をコールした"
               "ので{note}、全員、裏向きのカードを一斉に公開してください。"),
    },
    "overflow.needs-reveal-card": {
        "en": "'reveal' needs the face-down card as 'card' or 'cards'",
        "ja": "「reveal」には裏向きのカードを「card」か「cards」で指定します",
    },
    "overflow.reveal-judged": {
        "en": "{player}'s face-down card {card} is the one judged.",
        "ja": "{player}の裏向きのカードは{card}で、判定に使ったカードと同じです。",
    },
    "overflow.no-card": {"en": "None", "ja": "（記録なし）"},
    "overflow.reveal-other": {
        "en": "{player} shows {card}, but the judgement used the logged face-down card "
              "{was}.",
        "ja": "{player}は{card}を公開しましたが、判定には記録された裏向きのカード{was}を"
              "使いました。",
    },
    "overflow.reveal-none": {
        "en": "{player} placed no face-down card this round, so this was ignored.",
        "ja": "{player}はこのラウンドで裏向きのカードを置いていないので、無視しました。",
    },
    "overflow.reveal-differs": {
        "en": "{player}'s face-down card was logged as {before} but shows {card}; the "
              "shown card counts.",
        "ja": ("{player}の裏向きのカードは{before}と記録されていましたが、"
               "公開されたのは{card}で、公開されたカードを使います。"),
    },
    "overflow.judged-wild": {
        "en": "{player}'s insert {n} was a Wild (pass)",
        "ja": "{player}の投入（箱の{n}枚目）はワイルド（パス）でした",
    },
    "overflow.judged": {
        "en": "{player}'s insert {n} was {color} card {count} against a limit of "
              "{limit}",
        "ja": "{player}の投入（箱の{n}枚目）は{color}の{count}枚目で、限界値は{limit}でした",
    },
    "overflow.no-limit": {"en": "no limit", "ja": "無限"},
    "overflow.round-end": {
        "en": "{what}, so {loser} scores -{penalty} and starts the next round.",
        "ja": ("{what!l}、{loser}がマイナス{penalty}点となり、"
               "次のラウンドのスタートプレイヤーになります。"),
    },
    "overflow.game-ends": {
        "en": "A player is at {low}, so the game ends",
        "ja": "{low}点のプレイヤーが出たので、ゲーム終了です",
    },
})

LIMIT_VALUES = ("reverse", "0", "1", "2", "3")
#: Play cards: 108 less 4 Wild Draw Fours and the 20 limit-deck cards.
PLAY_CARDS = 84
#: The cards of overflow's deck (004): the four colours and four Wilds, the Wild
#: Draw Fours removed. A card of any other deck is refused (rule ``deck``).
DECK = frozenset(Card(color, value) for color in COLORS
                 for value in (*NUMBERS, *ACTIONS)) | {Card(None, "wild")}
DECK_TEXT = Text("overflow.deck")


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
    TEXT = "overflow"

    @classmethod
    def presets(cls) -> dict[str, Any]:
        return {"overflow": OverflowOptions()}

    def __init__(self, header: Header):
        super().__init__(header)
        if not 3 <= len(self.players) <= 5:
            raise GameError(Text("overflow.players", n=len(self.players)))
        self.options: OverflowOptions = self.options_from(OverflowOptions, header)
        self.hands = {p: self.options.hand_size for p in self.players}
        self.pile = PLAY_CARDS - self.options.hand_size * len(self.players)
        if self.pile < 0:
            raise GameError(Text("overflow.hand-size", n=PLAY_CARDS))
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
            text = Text("overflow.not-limit-card", card=self.card(card))
            return [self.ruling(event.index, "illegal", "limit-deck", text)]
        if card.color in self.limit_cards:
            was = self.limit_cards[card.color]
            text = Text("overflow.limit-again", color=colour(card.color),
                        card=self.card(was))
            return [self.ruling(event.index, "info", "limit-deck", text)]
        shown = sum(c.value == "reverse" for c in self.limit_cards.values())
        if card.value == "reverse" and shown >= self.options.max_reverses:
            text = Text("overflow.third-reverse", shown=shown, card=self.card(card),
                        color=colour(card.color))
            return [self.ruling(event.index, "pending", "third-reverse", text)]
        self.limit_cards[card.color] = card
        said = {"color": colour(card.color), "card": self.card(card)}
        if len(self.limit_cards) < len(COLORS):
            text = Text("overflow.limit", **said)
            return [self.ruling(event.index, "ok", "limit", text)]
        self.phase = "limit-break"
        text = Text("overflow.limit-last", **said)
        return [self.ruling(event.index, "ok", "limit", text)]

    def on_limit_break(self, event: Event) -> list[Ruling]:
        player, note = self.who(event)
        card = card_of(event) if event.get("card") is not None else None
        refused = self.off_deck(event, [card] if card else [], DECK, DECK_TEXT, player,
                                note)
        if refused:
            return refused
        if player in self.face_down:
            text = Text("overflow.face-down-again", player=player)
            return [self.ruling(event.index, "illegal", "limit-break", text,
                                player=player)]
        self.face_down[player] = card
        self.hands[player] -= 1
        if len(self.face_down) < len(self.players):
            text = Text("overflow.face-down", player=player, note=note)
            return [self.ruling(event.index, "ok", "limit-break", text)]
        self.phase = "insert"
        text = Text("overflow.face-down-last", player=player, note=note, turn=self.turn)
        return [self.ruling(event.index, "ok", "limit-break", text)]

    # -- insert phase -----------------------------------------------------------
    def on_draw(self, event: Event) -> list[Ruling]:
        player, note = self.who_draws(event, self.owed)
        wanted = count_of(event)
        if self.owed[player] == 0:
            text = Text("overflow.owes-none", player=player, note=note, n=wanted)
            return [self.ruling(event.index, "illegal", "draw", text, player=player)]
        take = min(wanted, self.owed[player], self.pile)
        self.owed[player] -= take
        self.hands[player] += take
        self.pile -= take
        if wanted > take:
            text = Text("overflow.draw-only", player=player, take=take, note=note,
                        back=wanted - take)
            return [self.ruling(event.index, "illegal", "draw", text, player=player)]
        return [self.ruling(event.index, "ok", "draw",
                            Text("overflow.drew", player=player, take=take, note=note))]

    def on_bonus(self, event: Event) -> list[Ruling]:
        player, note = self.who(event)
        cards = cards_of(event)
        size = self.options.hand_size - 1
        why: Text | None = None
        if player == self.turn:
            refused = self.off_deck(event, cards, DECK, DECK_TEXT, player, note)
            if refused:
                return refused
        if player != self.turn:
            why = Text("overflow.bonus-turn", turn=self.turn)
        elif self.bonus_this_turn:
            why = Text("overflow.bonus-taken")
        elif len(cards) != size or self.hands[player] != size:
            why = Text("overflow.bonus-size", size=size)
        elif len({c.color for c in cards if c.color is not None}) > 1:
            why = Text("overflow.bonus-colours")
        if why:
            text = Text("overflow.no-bonus", player=player, why=why)
            return [self.ruling(event.index, "illegal", "bonus", text, player=player)]
        points = self.options.bonus_points
        self.bonus_this_turn = True
        self.scores[player] += points
        self.round_bonus[player] += points
        self.hands[player] = 0
        self.pile += len(cards)  # shuffled into the bottom of the pile
        self.owed[player] += size
        text = Text("overflow.bonus", player=player, size=size, note=note,
                    points=count(points, "point"))
        return [self.ruling(event.index, "ok", "bonus", text, player=player, draw=size)]

    def on_insert(self, event: Event) -> list[Ruling]:
        player, note = self.who(event)
        card = card_of(event)
        call = event.get("call")
        if player != self.turn:
            text = Text("overflow.insert-turn", turn=self.turn, player=player)
            return [self.ruling(event.index, "illegal", "turn", text, player=player)]
        refused = self.off_deck(event, [card], DECK, DECK_TEXT, player, note)
        if refused:
            return refused
        if self.hands[player] <= 0:
            text = Text("overflow.no-hand", player=player)
            return [self.ruling(event.index, "illegal", "insert", text, player=player)]
        self.hands[player] -= 1
        self.box.append(Insert(len(self.box) + 1, player, card))
        self.owed[player] += 1
        self.turn = self.next_player(player)
        self.bonus_this_turn = False
        text = Text("overflow.inserted", player=player, n=len(self.box), note=note)
        out = [self.ruling(event.index, "ok", "insert", text, player=player, draw=1)]
        want = "pass" if card.is_wild else card.color
        if call is not None and str(call).lower() != want:
            text = Text("overflow.wrong-call", player=player)
            out.append(self.ruling(event.index, "illegal", "call", text, player=player))
        return out

    def on_overflow(self, event: Event) -> list[Ruling]:
        player, note = self.who(event)
        target = event.get("target")
        if target not in self.players:
            raise GameError(Text("overflow.needs-target", target=repr(target)))
        if player != self.turn:
            text = Text("overflow.not-caller", turn=self.turn, player=player)
            return [self.ruling(event.index, "illegal", "call", text)]
        own = [i.n for i in self.box if i.player == player]
        since = own[-1] if own else 0
        mine = [i for i in self.box if i.player == target and i.n > since]
        named = event.get("insert")
        if named is not None:
            mine = [i for i in mine if i.n == named]
        if target == player or not mine:
            what = (Text("overflow.insert-n", n=str(named)) if named is not None
                    else Text("overflow.an-insert"))
            text = Text("overflow.cannot-accuse", player=player, target=target,
                        what=what)
            return [self.ruling(event.index, "illegal", "call", text, player=player)]
        self.accusation = (player, mine[-1])
        self.phase = "judgement"
        text = Text("overflow.call", player=player, target=target, n=mine[-1].n,
                    note=note)
        return [self.ruling(event.index, "pending", "call", text)] + self._judge(event)

    def on_reveal(self, event: Event) -> list[Ruling]:
        player, _ = self.who(event)
        raw = event.get("cards") or ([event.get("card")] if event.get("card") else None)
        if not isinstance(raw, list) or len(raw) != 1:
            raise GameError(Text("overflow.needs-reveal-card"))
        card = Card.from_label(raw[0])
        refused = self.off_deck(event, [card], DECK, DECK_TEXT, player)
        if refused:
            return refused
        if self.phase == "limit" and self.rounds and not self.limit_cards:
            # a reveal of the round just judged from the logged face-down cards
            was = self.rounds[-1]["face_down"].get(player)
            if was == card.label:
                text = Text("overflow.reveal-judged", player=player,
                            card=self.card(card))
                return [self.ruling(event.index, "ok", "reveal", text)]
            logged = self.card(was) if was is not None else Text("overflow.no-card")
            text = Text("overflow.reveal-other", player=player, card=self.card(card),
                        was=logged)
            return [self.ruling(event.index, "info", "reveal", text)]
        if self.phase != "judgement":
            text = self.out_of_phase("reveal")
            return [self.ruling(event.index, "illegal", "phase", text)]
        if player not in self.face_down:
            text = Text("overflow.reveal-none", player=player)
            return [self.ruling(event.index, "info", "reveal", text)]
        before = self.face_down[player]
        self.face_down[player] = card
        out = []
        if before is not None and before != card:
            text = Text("overflow.reveal-differs", player=player,
                        before=self.card(before), card=self.card(card))
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
            what = Text("overflow.judged-wild", player=accused.player, n=accused.n)
        else:
            shown = Text("overflow.no-limit") if limit is None else limit
            what = Text("overflow.judged", player=accused.player, n=accused.n,
                        color=colour(color), count=count, limit=shown)
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
        text = Text("overflow.round-end", what=what, loser=loser, penalty=penalty)
        out = [self.ruling(event.index, "round-end", "round-end", text, player=loser,
                       scores=dict(self.scores))]
        self.pile += len(self.box)  # the box is shuffled under the pile
        for p in self.face_down:
            self.hands[p] += 1
        self.start = loser
        low = min(self.scores.values())
        if low <= self.options.end_at:
            out.append(self.finish(event, Text("overflow.game-ends", low=low)))
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
