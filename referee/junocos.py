"""Junocos: a must-follow trick-taking game on the UNO deck (seed 002).

A round: number cards are turned face up (Skips are set aside and shuffled
back), everyone gets 9 cards, the players draft the face-up cards one at a
time until one is left (the trump: its colour and its number), then 12 tricks
are played from hand and from the drafted "public" cards (the last public card
can never be played). Scores: 1 a trick, 10 for no trick, +5 when the tricks
equal the number on your last public card. The marker passes left; the game
ends after it has gone round twice.

Hands are hidden, but a hand card becomes known when it is played and hands
never grow, so a revoke (not following while holding the led colour) is caught
either at once (a playable public card of the colour lies in front of the
player) or later, when the player plays that colour from hand. Events and
interpretations: ``docs/events-junocos.md``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .cards import COLORS, Card
from .game import GameError, register
from .log import Event, Header
from .phased import PhasedGame, card_list, card_of, cards_of, deltas_text
from .rulings import Ruling
from .text import Text, color, count, define

define({
    "junocos.phase-deal": {"en": "deal", "ja": "カード配布"},
    "junocos.phase-take": {"en": "take", "ja": "切り札決定"},
    "junocos.phase-play": {"en": "play", "ja": "トリックテイキング"},
    "junocos.event-deal": {"en": "deal", "ja": "カードの配布"},
    "junocos.event-take": {"en": "take", "ja": "公開札を取ること"},
    "junocos.event-play": {"en": "play", "ja": "カードのプレイ"},
    "junocos.players": {
        "en": "junocos is for 3 or 4 players, not {n}",
        "ja": "ジュノコスは3〜4人で遊ぶゲームです（{n}人では遊べません）",
    },
    "junocos.deal-count": {
        "en": "{want} number cards must be turned up, not {got}",
        "ja": "表向きにする数字カードは{got}枚ではなく{want}枚です",
    },
    "junocos.deal-skip": {
        "en": "a Skip was turned up; set it aside, turn another, then shuffle it back",
        "ja": ("スキップカードが表向きになり、脇に避けて別のカードを表向きにし、"
               "並べ終えたら残りのデッキに混ぜてください"),
    },
    "junocos.deal-extra": {
        "en": "{cards} is not in the {size}-card deck",
        "ja": "{cards}は{size}枚のデッキにはありません",
    },
    "junocos.deal-again": {
        "en": "Deal again: {why}.",
        "ja": "{why!c}、配り直してください。",
    },
    "junocos.dealt": {
        "en": "{n} cards are face up and everyone holds {hand}; {start} takes the "
              "first card.",
        "ja": ("{n}枚が表向きに並び、全員の手札は{hand}枚で、"
               "{start}から1枚ずつ取ります。"),
    },
    "junocos.take-turn": {
        "en": "It is {turn}'s turn to take a card, not {player}'s; put it back.",
        "ja": "カードを取るのは{turn}の番で、{player}の番ではなく、戻してください。",
    },
    "junocos.take-missing": {
        "en": "{card} is not among the face-up cards; take one of them.",
        "ja": "{card}は表向きのカードの中になく、表向きのカードから1枚取ってください。",
    },
    "junocos.took": {
        "en": "{player} took {card}{note}.",
        "ja": "{player}は{card}を取りました{note}。",
    },
    "junocos.trump": {
        "en": "{player} took {card}{note}; the last card, {trump}, makes {color} and "
              "{value} trump, and {start} leads.",
        "ja": ("{player}は{card}を取り{note}、最後に残った{trump}で切り札は{color}と"
               "{value}になり、{start}がリードします。"),
    },
    "junocos.not-public": {
        "en": "{card} is not one of {player}'s public cards",
        "ja": "{card}は{player}の公開札ではありません",
    },
    "junocos.last-public": {
        "en": "{card} is {player}'s last public card, never to be played",
        "ja": "{card}は{player}の最後の公開札なので、プレイできません",
    },
    "junocos.hand-empty": {
        "en": "{player} has no card left in hand",
        "ja": "{player}の手札はもうありません",
    },
    "junocos.all-seen": {
        "en": "every {card} is already face up or played, so none is in a hand",
        "ja": "{card}はすべて表向きかプレイ済みなので、手札にはありません",
    },
    "junocos.unplayable": {
        "en": "{why}{note}; take it back and play another card.",
        "ja": "{why}{note!l}、戻して別のカードをプレイしてください。",
    },
    "junocos.off-deck": {
        "en": "{card} is not in the {size}-card junocos deck{note}; take it back and "
              "play another card.",
        "ja": ("{card}は{size}枚のジュノコスのデッキにはなく{note}、"
               "戻して別のカードをプレイしてください。"),
    },
    "junocos.from": {
        "en": "'from' must be 'hand' or 'public', got {source}",
        "ja": "「from」は「hand」か「public」で指定します（{source}は使えません）",
    },
    "junocos.revoke-now": {
        "en": "{player} must follow {led} with a public card in front of them; take "
              "{card} back and play {led}.",
        "ja": ("{player}は前に並べた公開札で{led}をマストフォローしなければならず、"
               "{card}を戻して{led}を出してください。"),
    },
    "junocos.played": {
        "en": "{player} played {card}{note}.",
        "ja": "{player}は{card}をプレイしました{note}。",
    },
    "junocos.revoke-late": {
        "en": "{player} did not follow {color} in trick {trick} although {card} was in "
              "hand: revoke, -{points}.",
        "ja": ("{player}は手札に{card}を持っていたのに、"
               "{trick}トリック目で{color}をマストフォローせず、"
               "フォロー違反で-{points}です。"),
    },
    "junocos.trick-next": {
        "en": "{winner} wins trick {trick} with {card} and leads next.",
        "ja": "{winner}が{card}で{trick}トリック目に勝ち、次にリードします。",
    },
    "junocos.trick-last": {
        "en": "{winner} wins trick {trick} with {card}.",
        "ja": "{winner}が{card}で{trick}トリック目に勝ちました。",
    },
    "junocos.round-end": {
        "en": "Round {round} is over: {deltas}.",
        "ja": "第{round}ラウンド終了です: {deltas}。",
    },
    "junocos.laps": {
        "en": "The marker has gone round {laps} times",
        "ja": "スタートプレイヤーマーカーが{laps}周しました",
    },
})

HAND = 9
TRICKS = 12


@dataclass(frozen=True)
class JunocosOptions:
    """House rules of junocos; every default but ``revoke_penalty`` is the seed's."""

    laps: int = field(default=2, metadata={
        "help": "times the start-player marker goes round before the game ends",
        "source": "002 §ゲームの終了"})
    zero_tricks: int = field(default=10, metadata={
        "help": "points for a round without a trick", "source": "002 §得点計算"})
    bonus: int = field(default=5, metadata={
        "help": "bonus when your tricks equal the number on your last public card",
        "source": "002 §得点計算"})
    revoke_penalty: int = field(default=5, metadata={
        "help": "points lost for each revoke (the seed names no penalty; house rule)",
        "source": "002 §トリックテイキングフェイズ (penalty: referee's choice)"})


def deck(players: int) -> Counter[Card]:
    """The 40-card (3 players) or 56-card (4 players) deck as a multiset."""
    out: Counter[Card] = Counter()
    for color in COLORS:
        out[Card(color, "skip")] += 1
        if players == 3:
            out.update({Card(color, str(n)): 1 for n in range(7)})
            out[Card(color, "7")] += 2
        else:
            out[Card(color, "0")] += 1
            out.update({Card(color, str(n)): 2 for n in range(1, 7)})
    return out


def strength(card: Card, led: str, trump: Card) -> tuple[int, int]:
    """Trick strength: trump card > trump number > trump colour > led colour > rest.

    Within a colour, higher numbers beat lower and a Skip is the weakest.
    """
    rank = int(card.value) + 1 if card.is_number else 0
    if card == trump:
        return (5, 0)
    if card.is_number and card.value == trump.value:
        return (4, 0)
    if card.color == trump.color:
        return (3, rank)
    if card.color == led:
        return (2, rank)
    return (0, 0)


@register
class Junocos(PhasedGame):
    """Junocos (002): must-follow tricks, trump drafted from face-up cards."""

    name = "junocos"
    handlers = {**PhasedGame.handlers, "deal": "on_deal", "take": "on_take",
                "play": "on_play"}
    PHASES = {"deal": ("deal",), "take": ("take",), "play": ("play",)}
    TEXT = "junocos"

    @classmethod
    def presets(cls) -> dict[str, Any]:
        return {"junocos": JunocosOptions()}

    def __init__(self, header: Header):
        super().__init__(header)
        n = len(self.players)
        if n not in (3, 4):
            raise GameError(Text("junocos.players", n=n))
        self.options: JunocosOptions = self.options_from(JunocosOptions, header)
        self.full = deck(n)
        self.row_size = 13 if n == 3 else 17
        self.first = self.players.index(header.dealer) if header.dealer else 0
        self._new_round()

    def _new_round(self) -> None:
        r = len(self.rounds)
        self.start = self.players[(self.first + r) % len(self.players)]
        self.phase = "deal"
        self.seen: Counter[Card] = Counter()  # cards face up or played this round
        self.row: list[Card] = []
        self.aside: list[Card] = []
        self.public: dict[str, list[Card]] = {p: [] for p in self.players}
        self.hands = {p: 0 for p in self.players}
        self.trump: Card | None = None
        self.turn = self.start
        self.trick: list[tuple[str, Card]] = []
        self.trick_no = 1
        self.won = {p: 0 for p in self.players}
        self.suspects: list[tuple[int, str, str]] = []  # (trick, player, led colour)
        self.penalties = {p: 0 for p in self.players}
        self.revokes: list[dict[str, Any]] = []

    # -- deal and draft ---------------------------------------------------------
    def on_deal(self, event: Event) -> list[Ruling]:
        row, aside = cards_of(event), cards_of(event, "aside", required=False)
        why: Text | None = None
        if len(row) != self.row_size:
            why = Text("junocos.deal-count", want=self.row_size, got=len(row))
        elif not all(c.is_number for c in row):
            why = Text("junocos.deal-skip")
        elif Counter(row + aside) - self.full:
            extra = card_list(list(Counter(row + aside) - self.full), "junocos")
            why = Text("junocos.deal-extra", cards=extra, size=sum(self.full.values()))
        if why:
            return [self.ruling(event.index, "illegal", "deal",
                                Text("junocos.deal-again", why=why))]
        self.row, self.aside = row, aside
        self.seen.update(row + aside)
        self.hands = {p: HAND for p in self.players}
        self.phase = "take"
        text = Text("junocos.dealt", n=len(row), hand=HAND, start=self.start)
        return [self.ruling(event.index, "ok", "deal", text)]

    def on_take(self, event: Event) -> list[Ruling]:
        player, note = self.who(event)
        card = card_of(event)
        if player != self.turn:
            text = Text("junocos.take-turn", turn=self.turn, player=player)
            return [self.ruling(event.index, "illegal", "draft", text, player=player)]
        if card not in self.row:
            text = Text("junocos.take-missing", card=self.card(card))
            return [self.ruling(event.index, "illegal", "draft", text, player=player)]
        self.row.remove(card)
        self.public[player].append(card)
        self.turn = self.next_player(player)
        if len(self.row) > 1:
            text = Text("junocos.took", player=player, card=self.card(card), note=note)
            return [self.ruling(event.index, "ok", "draft", text)]
        self.trump = trump = self.row[0]
        self.phase = "play"
        self.turn = self.start
        text = Text("junocos.trump", player=player, card=self.card(card), note=note,
                    trump=self.card(trump), color=color(trump.color or ""),
                    value=trump.value, start=self.start)
        return [self.ruling(event.index, "ok", "trump", text)]

    # -- tricks -----------------------------------------------------------------
    def _unplayable(self, player: str, card: Card, source: str) -> Text | None:
        """Why the card cannot be played from ``source`` at all (None when it can)."""
        public = self.public[player]
        if source == "public":
            if card not in public:
                return Text("junocos.not-public", card=self.card(card), player=player)
            if len(public) == 1:
                return Text("junocos.last-public", card=self.card(card), player=player)
        elif self.hands[player] == 0:
            return Text("junocos.hand-empty", player=player)
        elif self.seen[card] >= self.full[card]:
            return Text("junocos.all-seen", card=self.card(card))
        return None

    def on_play(self, event: Event) -> list[Ruling]:
        player, note = self.who(event)
        card = card_of(event)
        source = event.get("from")
        public = self.public[player]
        if source not in (None, "hand", "public"):
            raise GameError(Text("junocos.from", source=repr(source)))
        if source is None:
            source = "public" if card in public else "hand"
        if player != self.turn:
            text = Text("game.turn-take-back", turn=self.turn, player=player)
            return [self.ruling(event.index, "illegal", "turn", text, player=player)]
        if not self.full[card]:
            size = sum(self.full.values())
            text = Text("junocos.off-deck", card=self.card(card), size=size, note=note)
            return [self.ruling(event.index, "illegal", "deck", text, player=player)]
        why = self._unplayable(player, card, source)
        if why:
            text = Text("junocos.unplayable", why=why, note=note)
            return [self.ruling(event.index, "illegal", "card", text, player=player)]
        led = self.trick[0][1].color if self.trick else card.color
        playable = public if len(public) > 1 else []
        if card.color != led and any(c.color == led for c in playable):
            text = Text("junocos.revoke-now", player=player, led=color(led or ""),
                        card=self.card(card))
            return [self.ruling(event.index, "illegal", "revoke", text, player=player)]
        out = self._late_revokes(event, player, card) if source == "hand" else []
        if card.color != led:
            self.suspects.append((self.trick_no, player, led or ""))
        if source == "public":
            public.remove(card)
        else:
            self.hands[player] -= 1
            self.seen[card] += 1
        self.trick.append((player, card))
        self.turn = self.next_player(player)
        if len(self.trick) < len(self.players):
            text = Text("junocos.played", player=player, card=self.card(card),
                        note=note)
            return out + [self.ruling(event.index, "ok", "play", text)]
        return out + self._end_trick(event)

    def _late_revokes(self, event: Event, player: str, card: Card) -> list[Ruling]:
        """Penalties for earlier tricks in which ``player`` held ``card``'s colour."""
        out = []
        for item in [s for s in self.suspects if s[1:] == (player, card.color)]:
            self.suspects.remove(item)
            self.penalties[player] += self.options.revoke_penalty
            self.revokes.append({"trick": item[0], "player": player,
                                 "color": card.color, "shown_by": card.label})
            text = Text("junocos.revoke-late", player=player,
                        color=color(card.color or ""), trick=item[0],
                        card=self.card(card),
                        points=count(self.options.revoke_penalty, "point"))
            out.append(self.ruling(event.index, "penalty", "revoke", text,
                                   player=player, trick=item[0]))
        return out

    def _end_trick(self, event: Event) -> list[Ruling]:
        assert self.trump is not None
        led, trump = self.trick[0][1].color or "", self.trump
        best = max(range(len(self.trick)),
                   key=lambda i: (strength(self.trick[i][1], led, trump), i))
        winner, card = self.trick[best]
        self.won[winner] += 1
        said = {"winner": winner, "trick": self.trick_no, "card": self.card(card)}
        self.trick = []
        self.trick_no += 1
        self.turn = winner
        if self.trick_no <= TRICKS:
            text = Text("junocos.trick-next", **said)
            return [self.ruling(event.index, "ok", "trick", text, player=winner)]
        text = Text("junocos.trick-last", **said)
        return [self.ruling(event.index, "ok", "trick", text, player=winner)] + \
            self._end_round(event)

    def _end_round(self, event: Event) -> list[Ruling]:
        deltas: dict[str, int] = {}
        for p in self.players:
            won = self.won[p]
            last = self.public[p][0].number if self.public[p] else None
            points = won if won else self.options.zero_tricks
            points += self.options.bonus if won == last else 0
            deltas[p] = points - self.penalties[p]
            self.scores[p] += deltas[p]
        self.rounds.append({
            "round": len(self.rounds) + 1, "start": self.start,
            "trump": self.trump.label if self.trump else None, "tricks": dict(self.won),
            "last_public": {p: c[0].label for p, c in self.public.items() if c},
            "revokes": list(self.revokes), "deltas": deltas})
        text = Text("junocos.round-end", round=len(self.rounds),
                    deltas=deltas_text(deltas))
        out = [self.ruling(event.index, "round-end", "round-end", text,
                           scores=dict(self.scores))]
        if len(self.rounds) >= self.options.laps * len(self.players):
            laps = self.options.laps
            out.append(self.finish(event, Text("junocos.laps", laps=laps)))
        self._new_round()
        return out

    # -- views ------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """Everything the referee knows; junocos keeps no secret from the players."""
        out = self.common_state()
        out.update({
            "round": len(self.rounds) + (0 if self.over else 1),
            "start_player": self.start,
            "trump": self.trump.label if self.trump else None,
            "row": [c.label for c in self.row], "aside": [c.label for c in self.aside],
            "public": {p: [c.label for c in cs] for p, cs in self.public.items()},
            "hand_counts": dict(self.hands), "trick_no": self.trick_no,
            "trick": [{"player": p, "card": c.label} for p, c in self.trick],
            "tricks_won": dict(self.won), "revokes": list(self.revokes),
        })
        return out
