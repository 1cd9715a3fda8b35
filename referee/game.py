"""The game base class, the registry of games, and replay.

One class per game (classic UNO, junocos, narabe-runo, overflow), found by the
header's ``game`` name and ``rules`` preset, in the manner of python-chess's
variants (``find_variant``). House rules are *options* of a game, never a
subclass per preset.

A game is driven only by events: ``Game(header)`` then ``apply(event)`` for
each event in order. ``apply`` never raises for a play that happened on the
table; it answers with rulings (ok, illegal with the remedy, penalty ...).
Exceptions are for malformed input only, and :func:`replay` turns those into
``info`` rulings too, so one bad line never stops a game.
"""

from __future__ import annotations

import gc
import json
from typing import Any, ClassVar, Iterable, Mapping

from .cards import CardError
from .log import Event, Header, LogError, TableLog, read_log
from .rulings import Ruling
from . import camera_text  # noqa: F401  (the camera's messages)
from .text import Text, connective, define, formatter, from_data, list_of

#: ruling kinds that mean an event took effect, at least in part (a ``pending``
#: Counter or colour stands and waits): such an event is never held whole by
#: :meth:`Game.ask`
IN_EFFECT = ("ok", "pending")

define({
    "game.unknown-event": {
        "en": "{game} has no '{type}' event, so it was ignored.",
        "ja": "{game}には「{type}」というイベントがないため、無視しました。",
    },
})


class GameError(ValueError):
    """An event the game cannot interpret at all (missing field, unknown card...)."""


class Game:
    """Base class of every game: dispatch, rulings and views in one shape.

    A subclass sets ``name`` and ``handlers`` (event type -> method name,
    extended as ``{**Base.handlers, "x": "on_x"}``) and writes one method per
    event. :meth:`apply` dispatches; an event type the game does not know is
    an ``info`` ruling (``<prefix>.unknown-event``) that changes nothing. A
    known event may be refused before its handler runs by :meth:`refusal`
    (the game is over, the event is out of its phase ...).

    Every ruling is built by :meth:`ruling`, named ``<prefix>.<rule>`` where
    ``prefix`` is the preset's name (``official``, ``tgus-2``, ``junocos``);
    the rule names shared by all games are listed in docs/rules.md.

    Views: :meth:`state` is the referee's full view; :meth:`observe` computes
    what one viewer may see (``None``: the table, what everyone may see; a
    player's name: that player's view, their own hand too) from the state, in
    the manner of OpenSpiel's observers; :meth:`public_view` is
    ``observe(None)``.
    """

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    #: event type -> name of the method that handles it.
    handlers: ClassVar[dict[str, str]] = {}
    #: event types whose missing ``player`` is taken from the turn: their
    #: rulings then carry ``implied: true`` (:meth:`annotate`).
    implied_types: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, header: Header):
        self.header = header
        self.players: tuple[str, ...] = header.players
        #: the first part of every rule name: the preset (``header.rules``).
        self.prefix: str = header.rules or self.name

    # -- presets ---------------------------------------------------------------
    @classmethod
    def presets(cls) -> dict[str, Any]:
        """Rule presets this class runs: name -> options value."""
        return {cls.name: None}

    @classmethod
    def handles(cls, rules: str) -> bool:
        return rules in cls.presets()

    def option_refusals(self) -> list[Text]:
        """The header's ``options`` this game ignored, each as the sentence that
        refuses it where a new game is started (:func:`start_game`): an unknown
        name (:func:`option_unknown`), a value of the wrong type or outside its
        allowed set (:func:`option_bad_value`). A replayed log keeps them as
        ``info`` rulings (the game goes on with the preset's values)."""
        return []

    # -- rulings ---------------------------------------------------------------
    def ruling(self, event: int, kind: str, rule: str, text: str, *,
               player: str | None = None, draw: int | None = None,
               scores: Mapping[str, int] | None = None, **extra: Any) -> Ruling:
        """A ruling on the event at line ``event`` under ``<prefix>.<rule>``.

        Args:
            event: the line number of the event it answers (header = 0).
            kind: one of :data:`referee.rulings.KINDS`.
            rule: the rule's name after the preset (``uno-call``, ``deck``).
            text: one sentence that says why.
            player: the name of the player who must act, if any.
            draw: how many cards that player must take.
            scores: player -> total, on ``round-end`` and ``game-end``.
            **extra: further fields of the ruling (``ranking`` ...).
        """
        return Ruling(event, kind, f"{self.prefix}.{rule}", text, player, draw,
                      scores, extra)

    # -- events ----------------------------------------------------------------
    def apply(self, event: Event) -> list[Ruling]:
        """Apply one event and return the rulings it produced."""
        method = self.handlers.get(event.type)
        if method is None:
            return [self.unknown_event(event)]
        refused = self.refusal(event)
        if refused is not None:
            return [refused]
        data = event.data
        if not ("inferred" in data or "question" in data or "player_from" in data
                or ("player" not in data and event.type in self.implied_types)):
            return getattr(self, method)(event)  # the usual event (replay speed)
        asked = self.open_question(event) if "question" in data else False
        return self.annotate(event, getattr(self, method)(event), asked)

    # -- what the table log says about its evidence ----------------------------
    def open_question(self, event: Event) -> bool:
        """Whether the ``question`` an event carries is still open before it
        is applied, even if the event is ruled legal (uno: a wild's colour that
        nobody named). A question on an event the game refuses is asked anyway.

        A ``reveal``'s question (a card of the shown hand read with doubt) is
        always open: the hand stands as read, and so do the scores, until the
        table picks one of its ``answers`` (the page's ``replace``)."""
        return event.type == "reveal"

    def annotate(self, event: Event, rulings: list[Ruling],
                 asked: bool = False) -> list[Ruling]:
        """The rulings of an event that says where it came from.

        - ``player`` missing, or ``"player_from": "turn"``, on an event type of
          :attr:`implied_types`: each ruling gets ``implied: true`` (the text
          says so once a round, the game's own business).
        - ``"inferred": "<why>"`` (an event the camera inferred): each ruling
          gets ``inferred``; the last, the event's own, ends ``(inferred: why)``.
        - ``"question": "<what to ask>"`` (evidence that cannot decide): see
          :meth:`ask`.
        """
        data = event.data
        out = rulings
        if event.type in self.implied_types and (
                "player" not in data or data.get("player_from") == "turn"):
            out = [r.with_extra(implied=True) for r in out]
        why = data.get("inferred")
        if why and out:
            out = [r.with_extra(inferred=why) for r in out]
            last = out[-1]
            reason = from_data(data.get("inferred_msg")) if "inferred_msg" in data else None
            if not isinstance(reason, Text):
                reason = why if isinstance(why, str) else ""
            out[-1] = last.with_text(Text("@inferred", text=last.text, why=reason))
        question = data.get("question")
        if isinstance(question, str) and question.strip():
            said = from_data(data.get("question_msg")) if "question_msg" in data else None
            out = self.ask(event, out, said if isinstance(said, Text)
                           else question.strip(), asked)
        return out

    def ask(self, event: Event, rulings: list[Ruling], question: str,
            open_before: bool) -> list[Ruling]:
        """An event whose evidence is in doubt: ask instead of refusing.

        Refused as logged (``illegal`` and no ruling of :data:`IN_EFFECT`:
        nothing of it went through, unlike a Counter that stands while the
        colour written on it is refused), the
        refusal becomes one ``pending`` ruling ``<prefix>.question`` whose text
        is the question; it keeps the refusal in ``refused`` (what stands if
        the table answers that the event happened as logged), and the state is
        as after the refusal: the event is held, it changes nothing. Ruled
        legal, the question is moot (a missed event was inserted before it),
        unless :meth:`open_question` said it was open: then a ``pending``
        question follows the event's rulings.
        """
        illegal = [r for r in rulings if r.ruling == "illegal"]
        if illegal and not any(r.ruling in IN_EFFECT for r in rulings):
            first = illegal[0]
            asked = self.ruling(event.index, "pending", "question", question,
                                question=question,
                                refused={"rule": first.rule, "text": first.text,
                                         **({"msg": first.text.data()}
                                            if isinstance(first.text, Text) else {})})
            out: list[Ruling] = []
            for r in rulings:
                if r.ruling != "illegal":
                    out.append(r)
                elif r is first:
                    out.append(asked)
            return out
        if open_before:
            return rulings + [self.ruling(event.index, "pending", "question", question,
                                          question=question)]
        return rulings

    def unknown_event(self, event: Event) -> Ruling:
        """The ruling on an event type this game does not know: it is ignored."""
        return self.ruling(event.index, "info", "unknown-event",
                           Text("game.unknown-event", game=self.prefix,
                                type=event.type))

    def refusal(self, event: Event) -> Ruling | None:
        """A ruling refusing a known event before its handler runs, or None."""
        return None

    # -- views -----------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """The referee's full view of the state (spec: "Final state" and more)."""
        raise NotImplementedError

    def observe(self, viewer: str | None = None) -> dict[str, Any]:
        """What ``viewer`` may see: ``None`` is the table, a name is that player.

        The base game keeps no secret, so every viewer sees :meth:`state`; a
        game with hidden information builds each view from its state.
        """
        return self.state()

    def public_view(self) -> dict[str, Any]:
        """What may be shown to everyone at the table: ``observe(None)``."""
        return self.observe(None)

    @property
    def over(self) -> bool:
        return False


_REGISTRY: list[type[Game]] = []
_BROKEN: dict[str, str] = {}  # module -> why it could not be imported


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game findable by :func:`find_game`."""
    if cls not in _REGISTRY:
        _REGISTRY.append(cls)
    return cls


def _load_builtin_games() -> None:
    # Import for the side effect of registration; each import is optional so
    # that one broken game module never takes the others down.
    import importlib
    import warnings

    for mod in ("referee.uno", "referee.tgus_t", "referee.junocos", "referee.narabe",
                "referee.overflow"):
        if mod in _BROKEN:
            continue
        try:
            importlib.import_module(mod)
        except Exception as exc:  # one broken game must not take the others down
            _BROKEN[mod] = f"{exc.__class__.__name__}: {exc}"
            warnings.warn(f"game module {mod} could not be loaded: {_BROKEN[mod]}",
                          RuntimeWarning, stacklevel=2)


def games() -> list[type[Game]]:
    """Every registered game class."""
    _load_builtin_games()
    return list(_REGISTRY)


def find_game(game: str, rules: str | None = None) -> type[Game]:
    """The class that runs ``game`` under preset ``rules``.

    Raises:
        GameError: no such game, or the game has no such preset.
    """
    candidates = [c for c in games() if game == c.name or game in c.aliases]
    if not candidates:
        known = sorted({c.name for c in games()})
        raise GameError(Text("game.unknown-game", game=repr(game), known=", ".join(known)))
    if rules is None:
        return candidates[0]
    for cls in candidates:
        if cls.handles(rules):
            return cls
    known = sorted(p for c in candidates for p in c.presets())
    raise GameError(Text("game.unknown-preset", game=repr(game), rules=repr(rules),
                         known=", ".join(known)))


define({
    "game.malformed": {
        "en": "Line {line} could not be read and was skipped: {why}.",
        "ja": "{line}行目は読めないため飛ばしました（{why!s}）。",
    },
    "game.skipped": {
        "en": "Line {line} ({type}) was skipped: {why}.",
        "ja": "{line}行目（{type}）は解釈できないため飛ばしました（{why!s}）。",
    },
    "game.no-referee": {
        "en": "Nothing can be refereed: {why}.",
        "ja": "判定できません（{why!s}）。",
    },
    "game.no-header": {
        "en": "the log has no header line",
        "ja": "ログにヘッダー行がありません",
    },
    "game.second-header": {
        "en": "Line {line} is a second header and was ignored.",
        "ja": "{line}行目は2つ目のヘッダーなので、無視しました。",
    },
    "game.unknown-game": {
        "en": "unknown game {game}; known games: {known}",
        "ja": "{game}というゲームはありません（遊べるゲーム: {known}）",
    },
    "game.unknown-preset": {
        "en": "game {game} has no rules preset {rules}; presets: {known}",
        "ja": ("ゲーム{game}にルールのプリセット{rules}はありません（プリセット: "
               "{known}）"),
    },
})


define({
    "game.option-not-known": {
        "en": "{rules} has no option {key} (its options: {known})",
        "ja": "{rules}にはオプション{key}がありません（使えるオプション: {known}）",
    },
    "game.options-not-known": {
        "en": "{rules} has no options {keys} (its options: {known})",
        "ja": "{rules}にはオプション{keys}がありません（使えるオプション: {known}）",
    },
    "game.option-bad-value": {
        "en": "option {key} cannot be {value}: it must be {allowed}",
        "ja": "オプション{key}に{value}は使えません（{allowed}で指定します）",
    },
    "game.cannot-start": {
        "en": "cannot start this game: {why}",
        "ja": "このゲームは始められません（{why}）。",
    },
    "game.allowed-bool": {"en": "true or false", "ja": "trueかfalse"},
    "game.allowed-int": {"en": "a whole number", "ja": "整数"},
    "game.allowed-int-min": {"en": "a whole number of at least {minimum}",
                             "ja": "{minimum}以上の整数"},
    "game.allowed-float": {"en": "a number", "ja": "数値"},
    "game.allowed-str": {"en": "a string", "ja": "文字列"},
    "game.allowed-strs": {"en": "a list of strings", "ja": "文字列のリスト"},
    "game.allowed-choice": {"en": "one of {choices}", "ja": "{choices}のどれか"},
})


def option_value_text(value: Any, limit: int = 40) -> str:
    """A header option's value as the header wrote it (JSON), cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def allowed_values(default: Any, metadata: Mapping[str, Any] | None = None) -> Text:
    """What an option whose preset value is ``default`` may be, as a part of a
    sentence: its ``choices`` or ``minimum`` (field metadata) where it has them,
    else its type."""
    meta = metadata or {}
    if "choices" in meta:
        return Text("game.allowed-choice",
                    choices=", ".join(option_value_text(c) for c in meta["choices"]))
    if isinstance(default, bool):
        return Text("game.allowed-bool")
    if isinstance(default, int):
        if "minimum" in meta:
            return Text("game.allowed-int-min", minimum=str(meta["minimum"]))
        return Text("game.allowed-int")
    if isinstance(default, float):
        return Text("game.allowed-float")
    if isinstance(default, str):
        return Text("game.allowed-str")
    return Text("game.allowed-strs")


def option_unknown(rules: str, key: str, known: Iterable[str]) -> Text:
    """The refusal of option ``key``, which preset ``rules`` does not have
    (``option``: the name as the header wrote it; ``options``: the preset's
    option names, for :func:`option_refusal_data`)."""
    names = sorted(known)
    return Text("game.option-not-known", rules=rules, key=repr(key),
                known=", ".join(names), option=key, options=names)


def option_bad_value(key: str, value: Any, allowed: Any) -> Text:
    """The refusal of ``value`` for option ``key``, which must be ``allowed``
    (``option`` and ``given``: the name and the value as the header wrote
    them, for :func:`option_refusal_data`)."""
    return Text("game.option-bad-value", key=repr(key), value=option_value_text(value),
                allowed=allowed, option=key, given=value)


@formatter("option-names")
def _option_names(args: Mapping[str, Any], lang: str) -> str:
    """Option names as a header writes them, quoted: "'a' and 'b'", "'a'と'b'"."""
    return list_of([repr(str(n)) for n in args["names"]], lang)


@formatter("option-clauses")
def _option_clauses(args: Mapping[str, Any], lang: str) -> str:
    """Clauses each refusing options, said as one clause: "...; ..." in
    English, joined with 、 in the continuative form in Japanese."""
    parts = [p.render(lang) if isinstance(p, Text) else str(p) for p in args["parts"]]
    if lang == "ja":
        return "、".join([connective(p) for p in parts[:-1]] + parts[-1:])
    return "; ".join(parts)


def options_refused(refusals: list[Text]) -> Text:
    """Every refused option of a header (:meth:`Game.option_refusals`) said in
    one clause: the unknown names together (the preset's options named once),
    then each value refused with what it may be. One refusal is said as it
    is."""
    if len(refusals) == 1:
        return refusals[0]
    unknown = [t for t in refusals if t.key == "game.option-not-known"]
    rest = [t for t in refusals if t.key != "game.option-not-known"]
    parts: list[Text] = []
    if len(unknown) > 1:
        first = unknown[0].args
        parts.append(Text("game.options-not-known", rules=first["rules"],
                          keys=Text("@option-names",
                                    names=[t.args["option"] for t in unknown]),
                          known=first["known"]))
    else:
        parts += unknown
    parts += rest
    return parts[0] if len(parts) == 1 else Text("@option-clauses", parts=parts)


def option_refusal_data(refused: Text, lang: str = "en") -> dict[str, Any]:
    """One refused option as data, said in ``lang``: ``option`` (its name),
    ``problem`` (``unknown`` or ``bad_value``), ``message`` (the clause
    refusing it); an unknown name adds ``known`` (the preset's options), a bad
    value ``value`` (as given) and ``allowed`` (what it may be)."""
    args = refused.args
    unknown = refused.key == "game.option-not-known"
    out: dict[str, Any] = {"option": args.get("option"),
                           "problem": "unknown" if unknown else "bad_value",
                           "message": refused.render(lang)}
    if unknown:
        out["known"] = list(args.get("options") or [])
    else:
        allowed = args.get("allowed")
        out["value"] = args.get("given")
        out["allowed"] = (allowed.render(lang) if isinstance(allowed, Text)
                          else str(allowed))
    return out


class OptionsRefused(GameError):
    """A new game's header whose ``options`` the game cannot use
    (:func:`start_game`): the exception's text (its only argument) is one
    clause naming every refused option (:func:`options_refused`);
    :attr:`refusals` holds each option's own clause."""

    def __init__(self, refusals: list[Text]):
        super().__init__(options_refused(refusals))
        self.refusals = list(refusals)

    def data(self, lang: str = "en") -> list[dict[str, Any]]:
        """Each refused option as data (:func:`option_refusal_data`)."""
        return [option_refusal_data(t, lang) for t in self.refusals]


def reason(exc: BaseException) -> Any:
    """Why an exception was raised, as a ruling says it: the
    :class:`referee.text.Text` it was raised with (``GameError(Text(...))``),
    else its English text."""
    said = exc.args[0] if len(exc.args) == 1 else None
    if isinstance(said, Text) and str.__str__(said) == str(exc):
        return said
    return str(exc)


def malformed_ruling(err: LogError) -> Ruling:
    """The ``info`` ruling for a line that could not be read."""
    return Ruling(err.line, "info", "log.malformed",
                  Text("game.malformed", line=err.line, why=err.message))


def skipped_ruling(event: Event, exc: Exception) -> Ruling:
    """The ``info`` ruling for an event the game could not interpret."""
    return Ruling(event.index, "info", "log.malformed",
                  Text("game.skipped", line=event.index, type=event.type,
                       why=reason(exc)))


def apply_safely(game: Game, event: Event) -> list[Ruling]:
    """``game.apply`` that turns malformed-event errors into an ``info`` ruling."""
    try:
        return game.apply(event)
    except (GameError, CardError, LogError) as exc:
        return [skipped_ruling(event, exc)]


class Replay:
    """The result of replaying a table log: the game and every ruling in order."""

    def __init__(self, log: TableLog, game: Game | None, rulings: list[Ruling]):
        self.log = log
        self.game = game
        self.rulings = rulings

    def state(self) -> dict[str, Any]:
        return self.game.state() if self.game else {}


def new_game(header: Header) -> Game:
    """The game a header names, as a stored log is replayed: an option it
    cannot use is an ``info`` ruling, never a refusal (forward compatible)."""
    return find_game(header.game, header.rules)(header)


def start_game(header: Header) -> Game:
    """The game a header names, where a new game is started: also refuses a
    header whose ``options`` name an unknown option or give one a value it
    cannot take.

    Raises:
        GameError: an unknown game or preset, said by its catalogue message.
        OptionsRefused: options the game cannot use, every one of them named
            with what it may be, in one clause of catalogue messages (like
            every header refusal: the caller's sentence holds it, "cannot
            start this game: ...", ``game.no-referee``).
    """
    game = new_game(header)
    refused = game.option_refusals()
    if refused:
        raise OptionsRefused(refused)
    return game


def replay(lines: Iterable[str]) -> Replay:
    """Replay a table log from its lines. Never raises for bad content.

    Malformed lines give ``info`` rulings (``log.malformed``) at their place in
    the order; a missing or invalid header gives one ``log.header`` ruling and
    nothing else can be refereed.
    """
    # A replay allocates many small acyclic objects that all stay alive; the
    # cyclic collector would rescan them again and again (half the time on a
    # long log), so it is paused for the replay and resumed afterwards.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _replay(lines)
    finally:
        if enabled:
            gc.enable()


def _replay(lines: Iterable[str]) -> Replay:
    log = read_log(lines)
    rulings: list[Ruling] = []
    if log.header is None:
        header_errors = [e for e in log.errors if "header" in e.message]
        why = (header_errors[0].message if header_errors
               else Text("game.no-header"))
        rulings.append(Ruling(0, "info", "log.header",
                              Text("game.no-referee", why=why)))
        rulings += [malformed_ruling(e) for e in log.errors if e not in header_errors]
        return Replay(log, None, rulings)
    try:
        game = new_game(log.header)
    except (GameError, ValueError) as exc:
        rulings.append(Ruling(0, "info", "log.header",
                              Text("game.no-referee",
                                   why=reason(exc))))
        return Replay(log, None, rulings)
    items: list[Any] = log.events
    if log.errors:  # the unreadable lines take their place in line order
        items = sorted([*log.errors, *log.events],
                       key=lambda x: x.line if isinstance(x, LogError) else x.index)
    apply = game.apply
    for item in items:
        if isinstance(item, LogError):
            rulings.append(malformed_ruling(item))
        elif item.type == "game":
            rulings.append(Ruling(
                item.index, "info", "log.header",
                Text("game.second-header", line=item.index)))
        else:
            try:  # apply_safely, inlined (replay speed)
                rulings += apply(item)
            except (GameError, CardError, LogError) as exc:
                rulings.append(skipped_ruling(item, exc))
    return Replay(log, game, rulings)
