"""The narabe-runo referee (seed 003): paths of cards on a table grid.

Cards are laid next to the previously played card (one path), matching it by
colour or number/symbol. Face-down score cards lie around the start card; the
card laid on one captures it and the whole branch is discarded. A Reverse
makes the next player connect to another branch (a new one from the start
card or another branch's end). A card wholly outside the boundary of the score
cards is illegal. The game ends when one score card is left; the captured
score cards are then scored (:mod:`referee.narabe.scoring`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, standard_deck
from ..game import GameError, register
from ..log import Event, Header
from ..phased import PhasedGame, card_of, cards_of, count_of, names
from ..rulings import Ruling
from ..text import Text, count, define
from .geometry import Cell, adjacent, cell_of, outside_boundary
from .scoring import DRAWS, missing_draws, score_cards


@dataclass(frozen=True)
class NarabeOptions:
    """House rules of narabe-runo; every default is the seed's rule."""

    hand_size: int = field(default=3, metadata={
        "help": "cards dealt to each hand", "source": "003 §基本ルール"})
    hand_limit: int = field(default=7, metadata={
        "help": "most cards a hand may hold; draws stop there",
        "source": "003 §基本ルール"})
    gift: int = field(default=3, metadata={
        "help": "points a Skip/Reverse/Wild score card gives to the others it names",
        "source": "003 §得点カードの獲得点"})
    end_left: int = field(default=1, metadata={
        "help": "the game ends when this many score cards are left",
        "source": "003 §基本ルール"})
    extra_wilds: bool = field(default=False, metadata={
        "help": "the 112-card deck with Shuffle Hands and white wilds",
        "source": "RULES.md §Cards"})


@dataclass
class Placed:
    """A card on the table: where, what, and the colour it names (a wild's call)."""

    cell: Cell
    card: Card
    color: str | None


define({
    "narabe.phase-setup": {"en": "setup", "ja": "準備"},
    "narabe.phase-play": {"en": "play", "ja": "プレイ"},
    "narabe.phase-scoring": {"en": "scoring", "ja": "得点計算"},
    "narabe.event-start": {"en": "start", "ja": "スタートカードを置くこと"},
    "narabe.event-score-cards": {"en": "score-cards", "ja": "得点カードを置くこと"},
    "narabe.event-play": {"en": "play", "ja": "カードを出すこと"},
    "narabe.event-discard": {"en": "discard", "ja": "カードを捨てること"},
    "narabe.event-reveal": {"en": "reveal", "ja": "得点カードの公開"},
    "narabe.event-score-draw": {"en": "score-draw", "ja": "ドロー得点カードのカード引き"},
    "narabe.players": {
        "en": "narabe-runo is for 2 to 4 players, not {n}",
        "ja": "このゲームは2〜4人で遊びます（{n}人では遊べません）",
    },
    "narabe.deck": {
        "en": "the narabe-runo deck (the {size}-card UNO deck)",
        "ja": "このゲームのデッキ（{size}枚のウノ）",
    },
    "narabe.start-again": {
        "en": "The start card is already down; this second one was ignored.",
        "ja": "スタートカードはもう置かれており、2枚目は無視しました。",
    },
    "narabe.start": {
        "en": "The start card is {card}; {player} plays first.",
        "ja": "スタートカードは{card}で、{player}から始めます。",
    },
    "narabe.needs-spots": {
        "en": "'score-cards' needs 'at': a list of [x, y] positions",
        "ja": "「score-cards」には位置[x, y]のリスト「at」が必要です",
    },
    "narabe.needs-at": {
        "en": "'play' needs 'at': the card's [x, y] position",
        "ja": "「play」にはカードの位置[x, y]を示す「at」が必要です",
    },
    "narabe.start-first": {
        "en": "Lay the start card first, then the score cards around it.",
        "ja": "先にスタートカードを置き、その周りに得点カードを置いてください。",
    },
    "narabe.spots-again": {
        "en": "Lay the score cards again: more than {n}, each on its own place, around "
              "the start card and not on it.",
        "ja": ("得点カードは、{n}枚より多く、1枚ずつ別の場所に、"
               "スタートカードの上ではなく周りに置き直してください。"),
    },
    "narabe.spots": {
        "en": "{n} score cards lie face down around the start card.",
        "ja": "得点カード{n}枚がスタートカードの周りに裏向きで置かれました。",
    },
    "narabe.where-continue": {
        "en": "it must lie next to the previous card",
        "ja": "直前に出されたカードの隣に置かなければなりません",
    },
    "narabe.where-other": {
        "en": "after a Reverse it must start a new branch at the start card or "
              "continue another branch",
        "ja": "リバースの後は、スタートカードから新しい分岐を作るか、別の分岐に"
              "繋げなければなりません",
    },
    "narabe.where-free": {
        "en": "it must lie next to the start card or a branch's last card",
        "ja": "スタートカードか、分岐の最後のカードの隣に置かなければなりません",
    },
    "narabe.occupied": {
        "en": "a card already lies there",
        "ja": "そこにはもうカードがあります",
    },
    "narabe.no-match": {
        "en": "{card} matches neither colour nor number/symbol of its neighbour",
        "ja": "{card}は隣のカードと色も数字・記号も合っていません",
    },
    "narabe.outside": {
        "en": "it lies wholly outside the boundary joining the outer score cards",
        "ja": "外側の得点カードを結んだ境界線から完全に出ています",
    },
    "narabe.misplaced": {
        "en": "{player}'s {card} cannot go there{note}: {why}; take it back.",
        "ja": "{player}の{card}はそこに置けず{note}、{why!c}、戻してください。",
    },
    "narabe.capture": {
        "en": "{player} reached a score card and takes it face down; the branch is "
              "discarded and {player} draws {draw}.",
        "ja": ("{player}は得点カードを踏み、裏向きのまま獲得し、"
               "この道は捨て札になり、{player}は{draw}枚引きます。"),
    },
    "narabe.played": {
        "en": "{player} played {card}{note} and draws {draw}.",
        "ja": "{player}は{card}を出し{note}、{draw}枚引きます。",
    },
    "narabe.skip": {
        "en": "{player} loses the turn to the Skip.",
        "ja": "スキップで{player}の手番は飛ばされます。",
    },
    "narabe.reverse": {
        "en": "{player} must connect to another branch or start a new one at the start "
              "card.",
        "ja": "{player}は別の分岐に繋げるか、スタートカードから新しい分岐を作ります。",
    },
    "narabe.end-of-play": {
        "en": "Only {n} score card is left: the game ends; show the captured score "
              "cards.",
        "ja": ("得点カードが残り{n}枚になったのでゲーム終了となり、"
               "獲得した得点カードを公開してください。"),
    },
    "narabe.discarded": {
        "en": "{player} discarded {card}{note} and draws {draw}.",
        "ja": "{player}は{card}を捨て{note}、{draw}枚引きます。",
    },
    "narabe.reshuffle": {
        "en": "The pile is short: shuffle the discards into a new pile.",
        "ja": "山札が足りず、捨て札を混ぜて新しい山札にしてください。",
    },
    "narabe.hand-limit": {
        "en": "hand limit {n}",
        "ja": "手札制限{n}枚",
    },
    "narabe.pile-empty": {
        "en": "the pile and the discards hold no more",
        "ja": "山札にも捨て札にももうカードがありません",
    },
    "narabe.owed": {
        "en": "{player} owed {cards} for the last play or discard",
        "ja": "{player}の直前のプレイか捨て札の分は{cards}です",
    },
    "narabe.owed-none": {
        "en": "{player} owed no cards for the last play or discard",
        "ja": "{player}の直前のプレイか捨て札の分はありません",
    },
    "narabe.draw-only": {
        "en": "{player} may draw only {take} ({why}){note}; put {back} back.",
        "ja": ("{player}が引けるのは{take}枚だけで（{why}）{note}、"
               "{back}枚戻してください。"),
    },
    "narabe.drew": {
        "en": "{player} drew {take}{note}.",
        "ja": "{player}は{take}枚引きました{note}。",
    },
    "narabe.reveal": {
        "en": "{player} captured {n} score cards and shows them once; show exactly "
              "those.",
        "ja": ("{player}が獲得した得点カードは{n}枚で、"
               "その{n}枚を1度だけ公開してください。"),
    },
    "narabe.score-draw": {
        "en": "{player} has no shown Draw score card that draws {n}; put the cards "
              "back.",
        "ja": ("{player}には{n}枚引く公開済みのドロー得点カードがなく、"
               "カードを戻してください。"),
    },
    "narabe.still-to-show": {
        "en": "Still to show: {players}.",
        "ja": "まだ公開していない人: {players}。",
    },
    "narabe.scored": {
        "en": "Every captured score card is scored",
        "ja": "獲得した得点カードをすべて計算しました",
    },
})


@register
class NarabeRuno(PhasedGame):
    """Narabe-runo (003): lay one path of cards on the table to reach score cards."""

    name = "narabe-runo"
    aliases = ("narabe",)
    handlers = {**PhasedGame.handlers, "start": "on_start",
                "score-cards": "on_score_cards", "play": "on_play",
                "discard": "on_discard", "draw": "on_draw", "reveal": "on_reveal",
                "score-draw": "on_score_draw"}
    PHASES = {"start": ("setup",), "score-cards": ("setup",), "play": ("play",),
              "discard": ("play",), "reveal": ("scoring",), "score-draw": ("scoring",)}
    TEXT = "narabe"

    @classmethod
    def presets(cls) -> dict[str, Any]:
        return {"narabe-runo": NarabeOptions()}

    def __init__(self, header: Header):
        super().__init__(header)
        n = len(self.players)
        if not 2 <= n <= 4:
            raise GameError(Text("narabe.players", n=n))
        self.options: NarabeOptions = self.options_from(NarabeOptions, header)
        self.hands = {p: self.options.hand_size for p in self.players}
        cards = standard_deck(self.options.extra_wilds)
        #: the cards of this game's deck (003: an UNO deck); others are refused
        self.deck = frozenset(cards)
        deck_size = len(cards)
        self.pile = deck_size - self.options.hand_size * n
        self.discards = 0
        if header.dealer:
            self.turn = self.next_player(header.dealer)
        self.start: Placed | None = None
        self.spots: list[Cell] = []
        self.all_spots: list[Cell] = []
        self.branches: list[list[Placed]] = []
        self.current: int | None = None  # the branch of the previous card
        self.must = "free"  # "continue" | "other" (after a Reverse) | "free"
        self.owed = {p: 0 for p in self.players}
        self.captured = {p: 0 for p in self.players}
        self.revealed: dict[str, list[Card]] = {}
        self.picks: dict[str, list[list[Card]]] = {p: [] for p in self.players}

    # -- setup ------------------------------------------------------------------
    def on_start(self, event: Event) -> list[Ruling]:
        card = card_of(event)
        if self.start is not None:
            text = Text("narabe.start-again")
            return [self.ruling(event.index, "info", "start", text)]
        refused = self._off_deck(event, [card])
        if refused:
            return refused
        cell = cell_of(event.get("at", [0, 0]))
        color = event.get("color") if card.is_wild else card.color
        self.start = Placed(cell, card, color)
        self.pile -= 1
        text = Text("narabe.start", card=self.card(card), player=self.turn)
        return [self.ruling(event.index, "ok", "start", text)]

    def on_score_cards(self, event: Event) -> list[Ruling]:
        raw = event.get("at")
        if not isinstance(raw, list) or not raw:
            raise GameError(Text("narabe.needs-spots"))
        spots = [cell_of(p) for p in raw]
        if self.start is None:
            text = Text("narabe.start-first")
            return [self.ruling(event.index, "illegal", "score-cards", text)]
        if (len(set(spots)) != len(spots) or self.start.cell in spots
                or len(spots) <= self.options.end_left or self.all_spots
                or outside_boundary(self.start.cell, spots)):
            text = Text("narabe.spots-again", n=self.options.end_left)
            return [self.ruling(event.index, "illegal", "score-cards", text)]
        self.spots, self.all_spots = list(spots), list(spots)
        self.pile -= len(spots)
        self.phase = "play"
        text = Text("narabe.spots", n=len(spots))
        return [self.ruling(event.index, "ok", "score-cards", text)]

    # -- play -------------------------------------------------------------------
    def _anchors(self) -> list[tuple[int | None, Placed]]:
        """(branch index, or None for a new branch, and its card) a play may join."""
        assert self.start is not None
        tips = [(i, b[-1]) for i, b in enumerate(self.branches)]
        if self.must == "continue" and self.current is not None:
            return [t for t in tips if t[0] == self.current]
        others = [t for t in tips if self.must == "free" or t[0] != self.current]
        return others + [(None, self.start)]

    @staticmethod
    def _matches(card: Card, anchor: Placed) -> bool:
        if card.is_wild or (anchor.card.is_wild and anchor.color is None):
            return True
        return card.color == anchor.color or card.value == anchor.card.value

    def _misplaced(self, card: Card, cell: Cell) -> tuple[str, Text | None, list]:
        """(rule, why, matching anchors): why ``card`` may not go on ``cell``."""
        assert self.start is not None
        used = {p.cell for b in self.branches for p in b} | {self.start.cell}
        touching = [a for a in self._anchors() if adjacent(a[1].cell, cell)]
        matching = [a for a in touching if self._matches(card, a[1])]
        if cell in used:
            return "path", Text("narabe.occupied"), []
        if not touching:
            rule = "branch" if self.must == "other" else "path"
            return rule, Text(f"narabe.where-{self.must}"), []
        if not matching:
            return "match", Text("narabe.no-match", card=self.card(card)), []
        if outside_boundary(cell, self.all_spots):
            return "boundary", Text("narabe.outside"), []
        return "", None, matching

    def on_play(self, event: Event) -> list[Ruling]:
        player, note = self.who(event)
        card = card_of(event)
        if "at" not in event.data:
            raise GameError(Text("narabe.needs-at"))
        cell = cell_of(event.get("at"))
        if player != self.turn:
            text = Text("game.turn-take-back", turn=self.turn, player=player)
            return [self.ruling(event.index, "illegal", "turn", text, player=player)]
        refused = self._off_deck(event, [card], player, note)
        if refused:
            return refused
        rule, why, matching = self._misplaced(card, cell)
        if why:
            text = Text("narabe.misplaced", player=player, card=self.card(card),
                        note=note, why=why)
            return [self.ruling(event.index, "illegal", rule, text, player=player)]
        branch = matching[0][0]
        color = (event.get("color") or None) if card.is_wild else card.color
        placed = Placed(cell, card, color)
        if branch is None:
            self.branches.append([placed])
            branch = len(self.branches) - 1
        else:
            self.branches[branch].append(placed)
        self.hands[player] -= 1
        draw = self._owe(player, DRAWS.get(card.value, 1))
        if cell in self.spots:
            self.spots.remove(cell)
            self.captured[player] += 1
            self.discards += len(self.branches.pop(branch))
            self.current, self.must = None, "free"
            text = Text("narabe.capture", player=player, draw=draw)
            out = [self.ruling(event.index, "ok", "capture", text, player=player,
                               draw=draw)]
        else:
            self.current = branch
            self.must = "other" if card.value == "reverse" else "continue"
            text = Text("narabe.played", player=player, card=self.card(card), note=note,
                        draw=draw)
            out = [self.ruling(event.index, "ok", "play", text, player=player,
                               draw=draw)]
        skipped = card.value == "skip"
        self.turn = self.next_player(player, 2 if skipped else 1)
        if skipped:
            text = Text("narabe.skip", player=self.next_player(player))
            out.append(self.ruling(event.index, "ok", "skip", text))
        elif self.must == "other":
            text = Text("narabe.reverse", player=self.turn)
            out.append(self.ruling(event.index, "ok", "reverse", text))
        if len(self.spots) <= self.options.end_left:
            self.phase = "scoring"
            text = Text("narabe.end-of-play", n=len(self.spots))
            out.append(self.ruling(event.index, "ok", "end-of-play", text))
        return out

    def _off_deck(self, event: Event, cards: list[Card], player: str | None = None,
                  note: Any = "") -> list[Ruling]:
        what = Text("narabe.deck", size=112 if self.options.extra_wilds else 108)
        return self.off_deck(event, cards, self.deck, what, player, note)

    def _owe(self, player: str, count: int) -> int:
        room = self.options.hand_limit - self.hands[player] - self.owed[player]
        take = max(0, min(count, room))
        self.owed[player] += take
        return take

    def on_discard(self, event: Event) -> list[Ruling]:
        player, note = self.who(event)
        card = card_of(event)
        if player != self.turn:
            text = Text("game.turn-take-back", turn=self.turn, player=player)
            return [self.ruling(event.index, "illegal", "turn", text, player=player)]
        refused = self._off_deck(event, [card], player, note)
        if refused:
            return refused
        self.hands[player] -= 1
        self.discards += 1
        draw = self._owe(player, 1)
        self.turn = self.next_player(player)
        text = Text("narabe.discarded", player=player, card=self.card(card), note=note,
                    draw=draw)
        return [self.ruling(event.index, "ok", "discard", text, player=player,
                            draw=draw)]

    def on_draw(self, event: Event) -> list[Ruling]:
        player, note = self.who_draws(event, self.owed)
        wanted = count_of(event)
        owed = self.owed[player]
        take = min(wanted, owed)
        out: list[Ruling] = []
        if take > self.pile:
            self.pile += self.discards
            self.discards = 0
            text = Text("narabe.reshuffle")
            out = [self.ruling(event.index, "info", "reshuffle", text)]
        take = min(take, self.pile)
        self.owed[player] -= take
        self.hands[player] += take
        self.pile -= take
        if take < wanted:
            if self.hands[player] >= self.options.hand_limit:
                why = Text("narabe.hand-limit", n=self.options.hand_limit)
            elif take < owed:
                why = Text("narabe.pile-empty")
            elif owed:
                why = Text("narabe.owed", player=player, cards=count(owed, "card"))
            else:
                why = Text("narabe.owed-none", player=player)
            text = Text("narabe.draw-only", player=player, take=take, why=why,
                        note=note, back=wanted - take)
            return out + [self.ruling(event.index, "illegal", "draw", text,
                                      player=player)]
        text = Text("narabe.drew", player=player, take=take, note=note)
        return out + [self.ruling(event.index, "ok", "draw", text)]

    # -- scoring ----------------------------------------------------------------
    def on_reveal(self, event: Event) -> list[Ruling]:
        player, _ = self.who(event)
        cards = cards_of(event)
        refused = self._off_deck(event, cards, player)
        if refused:
            return refused
        if player in self.revealed or len(cards) != self.captured[player]:
            text = Text("narabe.reveal", player=player, n=self.captured[player])
            return [self.ruling(event.index, "illegal", "reveal", text)]
        self.revealed[player] = cards
        return self._score(event)

    def on_score_draw(self, event: Event) -> list[Ruling]:
        player, _ = self.who(event)
        cards = cards_of(event)
        refused = self._off_deck(event, cards, player)
        if refused:
            return refused
        shown = self.revealed.get(player, [])
        if missing_draws(shown, self.picks[player], len(cards)) <= 0:
            text = Text("narabe.score-draw", player=player, n=len(cards))
            return [self.ruling(event.index, "illegal", "score-draw", text)]
        self.picks[player].append(cards)
        self.pile -= len(cards)
        return self._score(event)

    def _score(self, event: Event) -> list[Ruling]:
        waiting = {p for p in self.players
                   if self.captured[p] and p not in self.revealed}
        waiting |= {p for p, cs in self.revealed.items()
                    if missing_draws(cs, self.picks[p], 2)
                    or missing_draws(cs, self.picks[p], 4)}
        if waiting:
            text = Text("narabe.still-to-show", players=names(sorted(waiting), ", "))
            return [self.ruling(event.index, "pending", "score", text)]
        deltas = score_cards(self.players, self.revealed, self.picks, self.options.gift)
        self.scores = dict(deltas)
        labels = {p: [c.label for c in cs] for p, cs in self.revealed.items()}
        self.rounds.append({"round": 1, "score_cards": labels, "deltas": deltas})
        return [self.finish(event, Text("narabe.scored"))]

    # -- views ------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """The table as the referee sees it; score cards are unknown until shown."""
        def cards(b: list[Placed]) -> list[dict[str, Any]]:
            return [{"at": list(p.cell), "card": p.card.label, "color": p.color}
                    for p in b]

        out = self.common_state()
        out.update({
            "start": cards([self.start])[0] if self.start else None,
            "score_cards": [list(c) for c in self.spots],
            "branches": [cards(b) for b in self.branches],
            "current_branch": self.current, "must": self.must,
            "hand_counts": dict(self.hands), "pile": self.pile,
            "discards": self.discards,
            "owed_draws": {p: n for p, n in self.owed.items() if n},
            "captured": dict(self.captured),
        })
        return out
