"""tgus-t1 and tgus-t2: UNO as played with the 東幻符闘祭 deck (000 §T1, §T2).

Why a class of its own rather than options of the standard engine: the deck is
different (Hit+2, Reverse Hit+2, Wild Hit+4, Hit+?, Counter, Change, Replace,
Gamble), so legality is decided by a precedence table instead of Draw Two /
Wild Draw Four stacking rules; Hit+? resolves a draw from cards turned from the
pile; Counter bounces Hit chains, Changes and All Hit+2 with colour rights of
their own; and tgus-t2 counts the draw pile to stock draws the pile cannot
give. None of that exists with the standard deck, and none of the standard
engine's Wild Draw Four challenge or scoring applies here. The two presets are
instances of one options type (:mod:`.options`).

The class dispatches events (``handlers``) and handles the bookkeeping ones
(start, pass, reveal, challenge); the rule modules take the game as their first
argument: plays in :mod:`.plays` (Counter and going out in :mod:`.counter`),
the name call and the catch in :mod:`.calls`, draws and leftovers in
:mod:`.draws`, Hit+? turned cards and named colours in :mod:`.turned`, the pile
(owed draws, rebuild, stock) in :mod:`.pile`. They see the game through the
:class:`.context.TgusTReferee` protocol and never import this module.
"""

from __future__ import annotations

from typing import Any

from referee.cards import COLORS, Card, parse_cards
from referee.game import Game, GameError, register
from referee.log import Event, Header
from referee.rulings import Ruling
from referee.text import Text, card, define

from . import calls, draws, gone_out, pile, plays, still_in, turned
from .cards import deck, quote
from .common import DECK_LABELS, implied, not_in_deck, preset
from .options import PRESETS, TgusTOptions, option_refusals
from .table import Table

DECK_SIZE = len(deck())

define({
    "tgus-t.error.no-player": {
        "en": "{type} names no player and nobody is on turn",
        "ja": "{type}にはプレイヤーの指定がなく、手番の人もいません",
    },
    "tgus-t.error.not-a-player": {
        "en": "{player} is not one of the players {players}",
        "ja": "{player}はプレイヤー{players}の中にいません",
    },
    "tgus-t.error.direction": {
        "en": "direction must be 1 or -1, got {got}",
        "ja": "向きは1か-1でなければなりませんが、{got}でした",
    },
    "tgus-t.error.first": {
        "en": "first player {got} is not one of the players",
        "ja": "最初のプレイヤー{got}はプレイヤーの中にいません",
    },
    "tgus-t.unknown-event": {
        "en": "Event type {type} means nothing in {prefix} and was ignored.",
        "ja": "{prefix}では{type}というイベントに意味がないため、無視しました。",
    },
    "tgus-t.not-started": {
        "en": "No first card has been turned yet, so this was ignored.",
        "ja": "まだ最初のカードがめくられていないため、無視しました。",
    },
    "tgus-t.game-over": {
        "en": "The game is over (every place is decided); this was ignored.",
        "ja": "ゲームは終わっており（順位はすべて決まりました）、無視しました。",
    },
    "tgus-t.start.again": {
        "en": "The round is already under way; this start was ignored.",
        "ja": "ラウンドはすでに始まっているため、この開始は無視しました。",
    },
    "tgus-t.start.option": {
        "en": "Header {why}: ignored.",
        "ja": "ヘッダーの{why}は無視しました。",
    },
    "tgus-t.start.hand-size": {
        "en": "{prefix} deals {low}-{high} cards but this table dealt {size}; "
              "the referee counts {size}.",
        "ja": ("{prefix}の配り枚数は{low}～{high}枚ですが、この卓では{size}枚配り、"
               "審判は{size}枚として数えます。"),
    },
    "tgus-t.start": {
        "en": "Round {round} starts on {card} with {size} cards each; the first "
              "card has no effect (the project's reading of 000), and {turn} "
              "plays first.",
        "ja": ("第{round}ラウンドを{card}から始め、手札は各{size}枚で、"
               "最初のカードの効果はなく（000の本プロジェクトでの解釈）、"
               "最初は{turn}の番です。"),
    },
    "tgus-t.pass.turn": {
        "en": "{player} passed but it is {turn}'s turn{note}.",
        "ja": "{player}はパスしましたが、今は{turn}の番です{note}。",
    },
    "tgus-t.pass.pending": {
        "en": "{player} cannot pass under a pending draw: draw {amount} or "
              "answer it{note}.",
        "ja": ("{player}にはドローがかかっているのでパスできず、{amount}枚引くか、"
               "返してください{note}。"),
    },
    "tgus-t.pass.draw-first": {
        "en": "{player} must draw a card before passing{note}.",
        "ja": "{player}はパスの前に1枚引かなければなりません{note}。",
    },
    "tgus-t.pass": {
        "en": "{player} passes; {next} plays next{note}.",
        "ja": "{player}はパスし、次は{next}の番です{note}。",
    },
    "tgus-t.no-challenge": {
        "en": "{prefix} has no challenge of a Wild Hit+4, so this was ignored.",
        "ja": "{prefix}にはワイルド・ヒット4へのチャレンジがないため、無視しました。",
    },
    "tgus-t.reveal": {
        "en": "A shown hand changes nothing in the count; noted.",
        "ja": "見せた手札で枚数は変わらず、記録しました。",
    },
})


@register
class TgusTGame(Game):
    """UNO with the 東幻符闘祭 deck (Hit+?, Counter, Change, stock): tgus-t1/t2."""

    name = "uno"

    def __init__(self, header: Header):
        super().__init__(header)
        base = PRESETS.get(header.rules)
        if base is None:
            raise GameError(f"{header.rules!r} is not a tgus-t preset")
        self.opts, self.refused = base.with_overrides(header.options)
        if header.hand_size is not None:
            self.opts, _ = self.opts.with_overrides({"hand_size": header.hand_size})
        self.deck_size = self.opts.deck_size or DECK_SIZE
        self.t = Table(self.players)
        self.implied_round = -1  # the round that said "player taken from the turn"
        self.wins = {p: 0 for p in self.players}
        self.winner: str | None = None
        self.dealer = header.dealer or self.players[-1]

    @classmethod
    def presets(cls) -> dict[str, TgusTOptions]:
        """The two presets, tgus-t1 and tgus-t2, as options values."""
        return dict(PRESETS)

    def option_refusals(self) -> list[Text]:
        """:meth:`Game.option_refusals`: the checks of ``with_overrides``."""
        return option_refusals(PRESETS[self.header.rules], self.header.options,
                               self.prefix)

    # -- helpers -------------------------------------------------------------------
    def who(self, ev: Event, notes: list[str]) -> str:
        """The acting player: the event's, or the player on turn (said in ``notes``
        once a round; the rulings carry ``implied: true``, :meth:`Game.annotate`)."""
        player = ev.get("player")
        if player is None or ev.get("player_from") == "turn":
            if player is None and self.t.turn is None:
                raise GameError(Text("tgus-t.error.no-player", type=ev.type))
            if self.implied_round != self.t.round:
                self.implied_round = self.t.round
                notes.append("player taken from the turn")
            if player is None:
                return self.t.turn
        if player not in self.players:
            raise GameError(
                Text(
                    "tgus-t.error.not-a-player",
                    player=quote(player),
                    players=str(list(self.players)),
                )
            )
        return player

    def close_catch_window(self, player: str) -> None:
        """Another player acting ends the window to catch a missing call."""
        if self.t.exposed is not None and self.t.exposed != player:
            self.t.exposed = None

    # -- pile and draws owed (see :mod:`.pile`) ---------------------------------------
    owe = pile.owe
    take_from_pile = pile.take_from_pile
    rebuild = pile.rebuild

    # -- events ---------------------------------------------------------------------
    #: event type -> handler (see docs/events-tgus-t.md); ``call`` is ``uno``'s
    #: other name and ``leftover`` is ``picture-leftover``'s.
    #: events whose missing player is the turn's (their rulings: ``implied``)
    implied_types = frozenset({"play", "draw", "pass"})
    handlers = {
        **Game.handlers,
        "start": "on_start",
        "play": "on_play",
        "turned": "on_turned",
        "color": "on_color",
        "draw": "on_draw",
        "pass": "on_pass",
        "uno": "on_uno",
        "call": "on_uno",
        "catch": "on_catch",
        "picture-leftover": "on_picture_leftover",
        "leftover": "on_picture_leftover",
        "challenge": "on_challenge",
        "reveal": "on_reveal",
        "still-in": "on_still_in",
        "gone-out": "on_gone_out",
    }

    def unknown_event(self, event: Event) -> Ruling:
        """An event type tgus-t does not know is ignored (``unknown-event``)."""
        return self.ruling(
            event.index,
            "info",
            "unknown-event",
            Text(
                "tgus-t.unknown-event",
                type=quote(event.type),
                prefix=preset(self.prefix),
            ),
        )

    def refusal(self, event: Event) -> Ruling | None:
        """Before the first card only ``start`` counts; after the game, nothing
        but a ``still-in`` (:mod:`.still_in`: a seat out seen still playing)."""
        if event.type == "start":
            return None
        if not self.t.started:
            return self.ruling(
                event.index,
                "info",
                "start",
                Text("tgus-t.not-started"),
            )
        if self.t.over and event.type != "still-in":  # the end taken back
            return self.ruling(
                event.index,
                "info",
                "game-over",
                Text("tgus-t.game-over"),
            )
        return None

    on_play = plays.on_play
    on_turned = turned.on_turned
    on_color = turned.on_color

    def on_start(self, ev: Event) -> list[Ruling]:
        """The first card is turned: deal, set the top card and the first player."""
        t = self.t
        if t.started and not t.over:
            return [
                self.ruling(
                    ev.index,
                    "info",
                    "start",
                    Text("tgus-t.start.again"),
                )
            ]
        first_card = Card.from_label(ev.get("card", ""))
        if first_card.label not in DECK_LABELS:
            raise GameError(not_in_deck(first_card.label))
        out: list[Ruling] = []
        for why in self.refused:
            out.append(
                self.ruling(
                    ev.index, "info", "options", Text("tgus-t.start.option", why=why)
                )
            )
        self.refused = []
        size = self.opts.hand_size
        if not self.opts.hand_size_min <= size <= self.opts.hand_size_max:
            out.append(
                self.ruling(
                    ev.index,
                    "info",
                    "hand-size",
                    Text(
                        "tgus-t.start.hand-size",
                        prefix=preset(self.prefix),
                        low=self.opts.hand_size_min,
                        high=self.opts.hand_size_max,
                        size=size,
                    ),
                )
            )
        direction = ev.get("direction", 1)
        if direction not in (1, -1):
            raise GameError(Text("tgus-t.error.direction", got=quote(direction)))
        self.winner = None
        self.t = t = Table(
            self.players, started=True, round=t.round + 1, direction=direction
        )
        t.hands = {p: size for p in self.players}
        t.pile = max(0, self.deck_size - size * len(self.players) - 1)
        t.discards = 1
        t.top, t.top_effect = first_card, first_card.value
        color = ev.get("color")
        t.color = first_card.color or (color if color in COLORS else None)
        first = ev.get("first")
        if first is not None and first not in self.players:
            raise GameError(Text("tgus-t.error.first", got=quote(first)))
        t.turn = first or t.next(self.dealer)
        out.append(
            self.ruling(
                ev.index,
                "ok",
                "start",
                Text(
                    "tgus-t.start",
                    round=t.round,
                    card=card(first_card, deck="tgus-t"),
                    size=size,
                    turn=t.turn,
                ),
            )
        )
        return out

    def on_draw(self, ev: Event) -> list[Ruling]:
        """Cards taken from the pile (see :func:`.draws.on_draw`)."""
        return draws.on_draw(self, ev)

    def on_pass(self, ev: Event) -> list[Ruling]:
        """The player on turn ends it after the turn draw."""
        t = self.t
        notes: list[str] = []
        player = self.who(ev, notes)
        note = implied(notes)
        if player != t.turn:
            return [
                self.ruling(
                    ev.index,
                    "illegal",
                    "turn",
                    Text("tgus-t.pass.turn", player=player, turn=t.turn, note=note),
                )
            ]
        if t.chain is not None:
            return [
                self.ruling(
                    ev.index,
                    "illegal",
                    "precedence",
                    Text(
                        "tgus-t.pass.pending",
                        player=player,
                        amount=t.chain.amount,
                        note=note,
                    ),
                )
            ]
        if not t.drew:
            return [
                self.ruling(
                    ev.index,
                    "illegal",
                    "pass",
                    Text("tgus-t.pass.draw-first", player=player, note=note),
                )
            ]
        self.close_catch_window(player)
        t.turn, t.drew = t.next(player), False
        return [
            self.ruling(
                ev.index,
                "ok",
                "pass",
                Text("tgus-t.pass", player=player, next=t.turn, note=note),
            )
        ]

    on_still_in = still_in.on_still_in
    on_gone_out = gone_out.on_gone_out
    on_uno = calls.on_uno
    on_catch = calls.on_catch

    def on_picture_leftover(self, ev: Event) -> list[Ruling]:
        """Self-report: the player's hand holds no number card (絵札残り).

        ``picture-leftover`` as in docs/events-tgus.md; ``leftover`` is an alias.
        """
        return draws.leftover(self, ev)


    def on_challenge(self, ev: Event) -> list[Ruling]:
        """Wild Hit+4 cannot be challenged in these presets."""
        return [
            self.ruling(
                ev.index,
                "info",
                "no-challenge",
                Text("tgus-t.no-challenge", prefix=preset(self.prefix)),
            )
        ]

    def on_reveal(self, ev: Event) -> list[Ruling]:
        """A shown hand is noted; the referee counts cards, it does not track them."""
        parse_cards(ev.get("cards", []))
        return [
            self.ruling(
                ev.index,
                "info",
                "reveal",
                Text("tgus-t.reveal"),
            )
        ]

    # -- views ------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """Whether every place is decided."""
        return self.t.over

    def state(self) -> dict[str, Any]:
        """The spec's final-state keys plus pile, stock, ranking (events-tgus-t.md)."""
        t = self.t
        return {
            "game": self.name,
            "rules": self.prefix,
            "players": list(self.players),
            "turn": t.turn,
            "direction": t.direction,
            "top": t.top.label if t.top else None,
            "top_effect": t.top_effect,
            "color": t.color,
            "pending_draw": t.chain.amount if t.chain else 0,
            "pending_target": t.chain.target if t.chain else None,
            "pending_rank": t.chain.rank if t.chain else 0,
            "hand_counts": dict(t.hands),
            "scores": dict(self.wins),
            "rounds": t.round,
            "over": t.over,
            "winner": self.winner,
            "ranking": list(t.ranking),
            "pile": t.pile,
            "discards": t.discards,
            "owed": {p: n for p, n in t.owed.items() if n},
            "stock": dict(t.stock),
            "picture_stock": sorted(t.picture_stock),
            "awaiting": turned.awaiting(self),
            "called": sorted(t.called),
            "drew": t.drew,
        }
