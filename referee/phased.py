"""What the three non-UNO games (overflow, junocos, narabe-runo) share.

A small base class, :class:`PhasedGame`, on :class:`referee.game.Game`'s
dispatch (``handlers``) and rulings (``Game.ruling``): an event after the game
ended is ``<game>.game-over``, an event outside its phase is an ``illegal``
ruling (``<game>.phase``) that changes nothing, a missing ``player`` is the
player whose turn it is (and the ruling says so), a card of another deck is
``<game>.deck``, and the common keys of ``state()`` (``game, rules, players,
turn, scores, rounds, over, winner, winners``) are built in one place.
Options are a frozen dataclass per game, overridden by the
header's ``options`` (:func:`build_options`).

Every ruling's text is a :class:`referee.text.Text`: the sentences shared by
the three games are the ``game.*`` messages here, each game's own are
``<TEXT>.*`` messages in its module (``junocos``, ``narabe``, ``overflow``);
a card is said by the deck of that name (:func:`label_card_name`: its label
in English, as these rulings always wrote it, its name in Japanese).
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any, ClassVar

from collections.abc import Mapping

from .cards import ACTIONS, NUMBERS, WILDS, Card
from .game import Game, GameError, allowed_values, option_bad_value, option_unknown
from .log import Event, Header
from .rulings import Ruling
from .text import (COLOR_NAMES, Text, card_name, define, define_cards, formatter,
                   standard_card_name)

define({
    "game.no-player": {
        "en": " (no player was given, so {player}, whose turn it is)",
        "ja": "（プレイヤーの指定がないため、手番の{player}とします）",
    },
    "game.no-player-owes": {
        "en": " (no player was given, so {player}, who owes cards)",
        "ja": "（プレイヤーの指定がないため、カードを引く{player}とします）",
    },
    "game.option-unknown": {
        "en": "Option {key} means nothing here (options: {names}), so it was ignored.",
        "ja": ("オプション{key}はこのゲームにはなく（オプション: {names}）、"
               "無視しました。"),
    },
    "game.option-type": {
        "en": "Option {key} must be {type}, not {value}, so the preset's {default} "
              "applies.",
        "ja": ("オプション{key}は{type}で指定し（{value}は使えません）、"
               "プリセットの{default}を使います。"),
    },
    "game.type-int": {"en": "int", "ja": "整数"},
    "game.type-bool": {"en": "bool", "ja": "真偽値"},
    "game.type-str": {"en": "str", "ja": "文字列"},
    "game.type-float": {"en": "float", "ja": "数値"},
    "game.needs-card": {
        "en": "'{type}' needs a '{key}' card label",
        "ja": "「{type}」にはカードのラベル「{key}」が必要です",
    },
    "game.needs-cards": {
        "en": "'{type}' needs '{key}': a list of card labels",
        "ja": "「{type}」には「{key}」（カードのラベルのリスト）が必要です",
    },
    "game.bad-count": {
        "en": "'count' must be a positive integer, got {count}",
        "ja": "「count」は正の整数で指定します（{count}は使えません）",
    },
    "game.not-a-player": {
        "en": "{player} is not a player of this game",
        "ja": "{player}はこのゲームのプレイヤーではありません",
    },
    "game.off-deck": {
        "en": "{card} is not in {deck}{note}: take it back; it was not counted.",
        "ja": "{card}は{deck}にはなく{note}、数えずに戻してください。",
    },
    "game.turn-take-back": {
        "en": "It is {turn}'s turn, not {player}'s; {player} takes it back.",
        "ja": "{turn}の番で、{player}の番ではなく、{player}はカードを戻します。",
    },
    "game.game-over": {
        "en": "The game is over; this event was not refereed.",
        "ja": "ゲームは終了しており、このイベントは判定しませんでした。",
    },
    "game.phase": {
        "en": "A '{type}' does not belong in the {phase} phase; it was not counted.",
        "ja": "{phase}フェイズに{type}はできず、数えませんでした。",
    },
    "game.game-end-win": {
        "en": "{why}: {winners} wins with {best}.",
        "ja": "{why!l}、{winners}が{best}点で勝ちです。",
    },
    "game.game-end-shared": {
        "en": "{why}: {winners} share the win with {best}.",
        "ja": "{why!l}、{winners}が{best}点で勝ちを分け合います。",
    },
})


NUMBERS_AND_ACTIONS = frozenset([*NUMBERS, *ACTIONS])
WILD_LABELS = frozenset(WILDS)


def label_card_name(label: str, lang: str = "en") -> str:
    """A card of the UNO deck as the three phased games say it: its label in
    English ("red-7", as their rulings always said), its name in Japanese
    ("赤の7"); a card of another deck by that deck's namer (tgus-t)."""
    if lang == "en":
        return label
    colour, _, value = label.partition("-")
    if label in WILD_LABELS or (colour in COLOR_NAMES["en"]
                                and value in NUMBERS_AND_ACTIONS):
        return standard_card_name(label, lang)
    return card_name(label, lang, "tgus-t")


for _deck in ("junocos", "narabe", "overflow"):
    define_cards(_deck, label_card_name)

_AND = {"en": {" and ": " and ", ", ": ", "}, "ja": {" and ": "と", ", ": "、"}}


@formatter("game-names")
def _names(args: Mapping[str, Any], lang: str) -> str:
    """Players' names one after the other: ``sep`` is " and " or ", " in English."""
    sep = str(args.get("sep", " and "))
    return _AND.get(lang, _AND["en"]).get(sep, sep).join(str(n) for n in args["names"])


def names(players: list[str], sep: str = " and ") -> Text:
    """Players' names joined by ``sep`` ("A and B", "AとB"; "A, B", "A、B")."""
    return Text("@game-names", names=list(players), sep=sep)


@formatter("game-card-list")
def _card_list(args: Mapping[str, Any], lang: str) -> str:
    """Cards named one after the other with commas ("red-7, blue-1"; "赤の7、青の1")."""
    deck = str(args.get("deck", "uno"))
    sep = ", " if lang == "en" else "、"
    return sep.join(card_name(str(label), lang, deck) for label in args["labels"])


def card_list(labels: list[Any], deck: str) -> Text:
    return Text("@game-card-list", labels=[str(getattr(c, "label", c)) for c in labels],
                deck=deck)


@formatter("game-deltas")
def _deltas(args: Mapping[str, Any], lang: str) -> str:
    """Score changes: "A +3, B -1"; "A +3点、B -1点"."""
    if lang == "ja":
        return "、".join(f"{p} {int(d):+d}点" for p, d in args["deltas"])
    return ", ".join(f"{p} {int(d):+d}" for p, d in args["deltas"])


def deltas_text(deltas: Mapping[str, int]) -> Text:
    return Text("@game-deltas", deltas=[[p, int(d)] for p, d in deltas.items()])


def _type_name(t: type) -> Any:
    try:
        return Text(f"game.type-{t.__name__}")
    except KeyError:
        return t.__name__


def _fits(value: Any, want: type) -> bool:
    """Whether a header's option ``value`` may replace a preset value of type ``want``."""
    return isinstance(value, want) and isinstance(value, bool) == (want is bool)


def option_refusals(cls: type, header: Header, rules: str) -> list[Text]:
    """The header's ``options`` that :func:`build_options` ignores, each as the
    sentence refusing it where a new game is started."""
    base = cls()
    known = {f.name: f for f in fields(cls)}
    out: list[Text] = []
    for key, value in header.options.items():
        if key not in known:
            out.append(option_unknown(rules, key, known))
        elif not _fits(value, type(getattr(base, key))):
            out.append(option_bad_value(key, value, allowed_values(
                getattr(base, key), known[key].metadata)))
    return out


def build_options(cls: type, header: Header) -> tuple[Any, list[str]]:
    """The options dataclass ``cls`` with the header's ``options`` applied.

    Returns:
        The options and one sentence per header option that was ignored (an
        unknown name or a value of the wrong type); the game reports those as
        ``info`` rulings and goes on with the preset's value.
    """
    base = cls()
    known = {f.name for f in fields(cls)}
    changes: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in header.options.items():
        if key not in known:
            names = ", ".join(sorted(known))
            problems.append(Text("game.option-unknown", key=repr(key), names=names))
            continue
        want = type(getattr(base, key))
        if not _fits(value, want):
            default = getattr(base, key)
            problems.append(Text("game.option-type", key=repr(key),
                                 type=_type_name(want), value=repr(value),
                                 default=repr(default)))
            continue
        changes[key] = value
    return replace(base, **changes), problems


def card_of(event: Event, key: str = "card") -> Card:
    """The card named by ``event[key]``; raises GameError when it is missing."""
    raw = event.get(key)
    if raw is None:
        raise GameError(Text("game.needs-card", type=event.type, key=key))
    return Card.from_label(raw)


def cards_of(event: Event, key: str = "cards", required: bool = True) -> list[Card]:
    """The cards named by the list ``event[key]`` (empty when optional and absent)."""
    raw = event.get(key)
    if raw is None and not required:
        return []
    if not isinstance(raw, list):
        raise GameError(Text("game.needs-cards", type=event.type, key=key))
    return [Card.from_label(x) for x in raw]


def count_of(event: Event) -> int:
    """The positive ``count`` of a draw event (default 1)."""
    count = event.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise GameError(Text("game.bad-count", count=repr(count)))
    return count


class PhasedGame(Game):
    """Base of a game whose events belong to phases. Subclasses set ``PHASES``.

    ``handlers`` maps an event type to its method (``Game.apply`` dispatches);
    ``PHASES`` maps an event type to the phases it is allowed in; a type not
    listed is allowed in any phase. Subclasses keep ``self.phase``,
    ``self.turn``, ``self.scores``, ``self.rounds`` and ``self.winners``.
    """

    PHASES: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: the game's message prefix (``junocos``, ``narabe``, ``overflow``): its
    #: phases are said by ``<TEXT>.phase-<phase>``, its event types by
    #: ``<TEXT>.event-<type>``, its cards by the deck of that name.
    TEXT: ClassVar[str] = "game"

    def __init__(self, header: Header):
        super().__init__(header)
        self.turn = self.players[0]
        self.phase = "setup"
        self.scores = {p: 0 for p in self.players}
        self.rounds: list[dict[str, Any]] = []
        self.winners: list[str] = []
        self.notes: list[str] = []  # header problems, reported with the first event

    def options_from(self, cls: type, header: Header) -> Any:
        """The game's options from the header; problems become ``notes``."""
        self._options_type = cls
        options, self.notes = build_options(cls, header)
        return options

    def option_refusals(self) -> list[Text]:
        """:meth:`Game.option_refusals`: the checks of :func:`build_options`."""
        cls = getattr(self, "_options_type", None)
        return [] if cls is None else option_refusals(cls, self.header, self.prefix)

    @property
    def over(self) -> bool:
        return bool(self.winners)

    def card(self, card: Card | str) -> Text:
        """A card's name in this game's rulings (its label in English)."""
        return Text("@card", label=str(getattr(card, "label", card)), deck=self.TEXT)

    def said(self, kind: str, name: str) -> Any:
        """A phase (``kind="phase"``) or event type (``"event"``) as the game says
        it: the message ``<TEXT>.<kind>-<name>``, or the name itself."""
        try:
            return Text(f"{self.TEXT}.{kind}-{name}")
        except KeyError:
            return name

    def off_deck(self, event: Event, cards: list[Card], deck: frozenset[Card],
                 what: Text, player: str | None = None, note: Any = "") -> list[Ruling]:
        """A ``deck`` ruling for the first of ``cards`` not in ``deck``, or [].

        A card of another deck (the 東幻符闘祭 deck's ``red-hit2``, ``counter``)
        is not counted and the game goes on; ``what`` names the game's deck
        ("the overflow deck (...)").
        """
        for card in cards:
            if card not in deck:
                text = Text("game.off-deck", card=self.card(card), deck=what, note=note)
                return [self.ruling(event.index, "illegal", "deck", text,
                                    player=player)]
        return []

    def who(self, event: Event) -> tuple[str, Any]:
        """The acting player and a note for the ruling when the event named nobody
        (a :class:`Text` that starts with a space, or "")."""
        player = event.player
        if player is None:
            return self.turn, Text("game.no-player", player=self.turn)
        if player not in self.players:
            raise GameError(Text("game.not-a-player", player=repr(player)))
        return player, ""

    def who_draws(self, event: Event, owed: dict[str, int]) -> tuple[str, Any]:
        """Like :meth:`who`, but a draw naming nobody is the owing player nearest
        before the turn (the one who just played), not the player whose turn it is."""
        if event.player is not None:
            return self.who(event)
        for back in range(1, len(self.players) + 1):
            player = self.next_player(self.turn, -back)
            if owed.get(player):
                return player, Text("game.no-player-owes", player=player)
        return self.who(event)

    def next_player(self, player: str, steps: int = 1) -> str:
        """The player ``steps`` seats clockwise (negative: counter-clockwise)."""
        n = len(self.players)
        return self.players[(self.players.index(player) + steps) % n]

    def apply(self, event: Event) -> list[Ruling]:
        """Header problems first (once), then ``game-over`` or the dispatch."""
        notes = [self.ruling(event.index, "info", "options", n) for n in self.notes]
        self.notes = []
        if self.over:
            text = Text("game.game-over")
            return notes + [self.ruling(event.index, "info", "game-over", text)]
        return notes + super().apply(event)

    def refusal(self, event: Event) -> Ruling | None:
        """An ``illegal`` ``phase`` ruling for an event outside its phases."""
        allowed = self.PHASES.get(event.type)
        if allowed is not None and self.phase not in allowed:
            return self.ruling(event.index, "illegal", "phase",
                               self.out_of_phase(event.type))
        return None

    def out_of_phase(self, kind: str) -> Text:
        """"A 'play' does not belong in the scoring phase; it was not counted." """
        return Text("game.phase", type=self.said("event", kind),
                    phase=self.said("phase", self.phase))

    def finish(self, event: Event, why: Text) -> Ruling:
        """End the game: the highest score wins, ties share; the game-end ruling."""
        best = max(self.scores.values())
        self.winners = [p for p in self.players if self.scores[p] == best]
        key = "game.game-end-win" if len(self.winners) == 1 else "game.game-end-shared"
        text = Text(key, why=why, winners=names(self.winners), best=best)
        return self.ruling(event.index, "game-end", "game-end", text,
                           scores=dict(self.scores))

    def common_state(self) -> dict[str, Any]:
        """The keys every game's state has (the page's scoreboard reads these)."""
        winners = self.winners
        return {
            "game": self.name,
            "rules": self.header.rules,
            "players": list(self.players),
            "turn": None if self.over else self.turn,
            "phase": "over" if self.over else self.phase,
            "scores": dict(self.scores),
            "rounds": [dict(r) for r in self.rounds],
            "over": self.over,
            # one name, or the list of names sharing the win (the page shows both)
            "winner": winners[0] if len(winners) == 1 else list(winners) or None,
            "winners": list(self.winners),
        }
