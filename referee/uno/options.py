"""House rules of classic UNO: one frozen options value, named presets.

Every house rule is a field of :class:`UnoOptions` with ``metadata`` giving a
one-line ``help`` and its ``source`` (which seed and section, the spec, or a
project decision); every penalty size is a field too, and its metadata names
the ``rule`` it sizes (``wd4_guilty_penalty`` and ``wd4_challenge_penalty``
for ``wd4-challenge``, ``uno_penalty`` for ``uno-call``), so a penalty is
changed here and nowhere else. A preset is an *instance*
(``PRESETS["official"]``); a header's ``options`` override single fields by
name through :func:`resolve`, which never raises: a bad name or value becomes
a problem string that the game reports as an ``info`` ruling. The TGUS house
rules extend this type in :mod:`referee.uno.tgus_presets` (``TgusOptions``).

The stacking answer table is data (``stack_answers``): entries
``"<pending>><answer>"`` such as ``"draw2>wild-draw4"`` say that a player who
owes cards from a ``<pending>`` card may pass them on with an ``<answer>``
card, which must still be a legal play on the top card (so a Draw Two on a
Wild Draw Four must match the named colour). The answer's own effect decides
who owes next (a Draw Two adds 2 and moves on; a Skip or Reverse answer, as
the tgus presets use, moves the debt without adding to it).
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields, replace
from functools import lru_cache
from typing import Any, Mapping

from ..text import Text, define

define({
    "uno.option-unknown": {
        "en": "unknown option {name} was ignored (known options: {known})",
        "ja": "不明なオプション{name}は無視しました（使えるオプション: {known}）"},
    "uno.option-ignored": {
        "en": "option {name} was ignored: it {why}",
        "ja": "オプション{name}は無視しました（{why}）"},
    "uno.option-bool": {"en": "must be true or false, got {value}",
                        "ja": "真偽値でなければなりません（指定: {value}）"},
    "uno.option-int": {"en": "must be a whole number, got {value}",
                       "ja": "整数でなければなりません（指定: {value}）"},
    "uno.option-minimum": {"en": "must be at least {minimum}, got {value}",
                           "ja": "{minimum}以上でなければなりません（指定: {value}）"},
    "uno.option-str": {"en": "must be a string, got {value}",
                       "ja": "文字列でなければなりません（指定: {value}）"},
    "uno.option-strs": {"en": "must be a list of strings, got {value}",
                        "ja": "文字列のリストでなければなりません（指定: {value}）"},
    "uno.option-entry": {
        "en": "entry {entry} is not '<card>><card>' with cards from {cards}",
        "ja": "項目{entry}は「札>札」の形ではありません（札は{cards}のどれか）"},
    "uno.option-choice": {
        "en": "must be one of {choices}, got {value}",
        "ja": "{choices}のどれかでなければなりません（指定: {value}）"},
    "uno.allowed-stack": {
        "en": "a list of '<card>><card>' entries with cards from {cards}",
        "ja": "「札>札」の形の項目のリスト（札は{cards}のどれか）"},
})

ACTION_VALUES = ("skip", "reverse", "draw2", "wild", "wild-draw4", "wild-shuffle",
                 "wild-custom")
#: the card values a ``stack_answers`` entry may name (the white wild answers
#: in tgus-3, whose own table a header must be able to write)
STACK_CARDS = ("draw2", "wild-draw4", "skip", "reverse", "wild-custom")
ALL_STACK_ANSWERS = ("draw2>draw2", "draw2>wild-draw4", "wild-draw4>wild-draw4",
                     "wild-draw4>draw2")


def option_field(default: Any, help_: str, source: str, choices: tuple[Any, ...] = (),
         minimum: int | None = None, rule: str | None = None) -> Any:
    """A field with its ``help``, ``source`` and, for a penalty, the ``rule`` name."""
    meta: dict[str, Any] = {"help": help_, "source": source}
    if rule is not None:
        meta["rule"] = rule
    if choices:
        meta["choices"] = choices
    if minimum is not None:
        meta["minimum"] = minimum
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class UnoOptions:
    """Every house rule the uno engine knows; presets are instances."""

    deck: int = option_field(
        108, "cards in the deck: 108, or 112 with Shuffle Hands and 3 white wilds",
        "RULES.md Cards", (108, 112))
    hand_size: int = option_field(
        7, "cards dealt to each player (the header's hand_size wins)", "001 公式 2",
        minimum=1)
    first_action_returned: bool = option_field(
        False, "any action card turned as the first card is put back and another "
        "turned (officially only a Wild Draw Four is)",
        "001 ローカルルール 2 (local 1)")
    wd4_rule: str = option_field(
        "no-playable", "when a Wild Draw Four is legal: 'no-playable' (no other "
        "playable card, 001) or 'no-current-colour' (no card of the current colour, "
        "Mattel)",
        "001 ワイルド・ドロー4", ("no-playable", "no-current-colour"))
    wd4_guilty_takeback: bool = option_field(
        True, "a Wild Draw Four found guilty goes back to its player's hand and play "
        "returns to them (001); false: it stays and the challenger plays on (Mattel)",
        "001 チャレンジ成功")
    challenge: bool = option_field(
        True, "the player hit by a Wild Draw Four may challenge it", "001 チャレンジ",
        rule="wd4-challenge")
    wd4_guilty_penalty: int = option_field(
        4, "cards drawn by a player whose Wild Draw Four is found guilty by a "
        "challenge", "001 チャレンジ成功 (4枚のカードを山札からひかなければならない)",
        minimum=0, rule="wd4-challenge")
    wd4_challenge_penalty: int = option_field(
        2, "cards a failed challenger draws on top of the Wild Draw Four's own (4 + 2 "
        "= 6)", "001 チャレンジ失敗 (さらに2枚、計6枚)", minimum=0, rule="wd4-challenge")
    multi_play: str = option_field(
        "off", "several cards in one play: 'off', 'same' (same number or symbol, the "
        "first must match, the last stays on top) or 'pairs' (two identical number "
        "cards, the competition two-card rule); true means 'same'",
        "spec; 001 4-2 and ローカルルール 4", ("off", "same", "pairs"))
    multi_effects: bool = option_field(
        True, "with multi-play, the effects of several action cards add up (three Draw "
        "Twos = 6 cards, two Reverses cancel)", "001 ローカルルール 4")
    multi_out: str = option_field(
        "needs-call", "going out with several cards: 'allowed' (an UNO finish, local "
        "3) or 'needs-call' (without an UNO call only the first card counts, 001 4-2)",
        "001 4-2 / ローカルルール 5", ("allowed", "needs-call"))
    out_on_action: bool = option_field(
        True, "a player may go out on an action or wild card (false: the local rule "
        "forbidding it; such a play is taken back)", "001 ローカルルール 5")
    stacking: bool = option_field(
        False, "a player who owes cards from a Draw Two / Wild Draw Four may pass them "
        "on with an answer from stack_answers, the count accumulating",
        "spec; 001 ローカルルール 6")
    stack_answers: tuple[str, ...] = option_field(
        ALL_STACK_ANSWERS, "answer table for stacking: '<owed card>><answer card>' "
        "entries (values draw2, wild-draw4, skip, reverse, wild-custom)",
        "001 ローカルルール 6")
    uno_penalty: int = option_field(
        2, "cards drawn for a caught missing UNO call (local rule: up to 6)",
        "spec; 001 公式 7 / ローカルルール 7", minimum=0, rule="uno-missed")
    catch_window: str = option_field(
        "next-plays", "when a missing UNO call can no longer be caught: 'next-plays' "
        "(once another player has played a card, 001) or 'next-acts' (once the next "
        "player draws or plays, Mattel)", "001 公式 7", ("next-plays", "next-acts"))
    referee_catches: bool = option_field(
        False, "when the catch window closes on a player who went down to one card "
        "without calling, the referee applies the penalty itself", "issue 8 / project")
    jump_in: bool = option_field(
        False, "a card identical in colour and number/symbol to the top card may be "
        "played out of turn; play continues from that player",
        "spec; 001 ローカルルール 8")
    doubling: bool = option_field(
        False, "at scoring each losing hand is multiplied by (its UNO calls this round "
        "+ 1)", "001 ローカルルール 9")
    scoring: str = option_field(
        "japan", "'japan' (fixed rounds, losers go minus) or 'international' (first "
        "to the target)", "spec; 001 勝敗について", ("japan", "international"))
    rounds: int = option_field(
        5, "rounds played under japan scoring", "spec; 001 日本ルール", minimum=1)
    target: int = option_field(
        500, "points that end an international game", "spec; 001 国際ルール", minimum=1)

    def to_dict(self) -> dict[str, Any]:
        """Field name -> value, JSON friendly."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    def stack_table(self) -> frozenset[tuple[str, str]]:
        """The answer table as ``(owed card value, answer value)`` pairs."""
        return _stack_table(self.stack_answers)


@lru_cache(maxsize=64)
def _stack_table(answers: tuple[str, ...]) -> frozenset[tuple[str, str]]:
    pairs = (entry.split(">", 1) for entry in answers)
    return frozenset((a, b) for a, b in pairs)


#: The presets :class:`~referee.uno.game.UnoGame` runs (the TGUS presets are
#: :data:`referee.uno.tgus_presets.TGUS_PRESETS`, run by ``TgusGame``).
PRESETS: dict[str, UnoOptions] = {"official": UnoOptions()}


@lru_cache(maxsize=8)
def _fields_of(kind: type) -> dict[str, Any]:
    return {f.name: f for f in fields(kind)}


def _coerce(f: Any, value: Any) -> Any:
    """Check one override of field ``f``; returns the value or raises ``ValueError``."""
    name = f.name
    meta = f.metadata
    default = f.default if f.default is not MISSING else None
    if name == "multi_play" and isinstance(value, bool):
        value = "same" if value else "off"
    if name == "first_action_returned" and value == "action":
        value = True
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ValueError(Text("uno.option-bool", value=repr(value)))
    elif isinstance(default, int):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(Text("uno.option-int", value=repr(value)))
        if "minimum" in meta and value < meta["minimum"]:
            raise ValueError(Text("uno.option-minimum", minimum=str(meta["minimum"]),
                                  value=str(value)))
    elif isinstance(default, str):
        if not isinstance(value, str):
            raise ValueError(Text("uno.option-str", value=repr(value)))
    elif isinstance(default, tuple):
        if not isinstance(value, (list, tuple)) or not all(
                isinstance(v, str) for v in value):
            raise ValueError(Text("uno.option-strs", value=repr(value)))
        value = tuple(value)
        if name == "stack_answers":
            for entry in value:
                a, sep, b = entry.partition(">")
                if not sep or a not in STACK_CARDS or b not in STACK_CARDS:
                    raise ValueError(Text("uno.option-entry", entry=repr(entry),
                                          cards=", ".join(STACK_CARDS)))
    if "choices" in meta and value not in meta["choices"]:
        raise ValueError(Text("uno.option-choice",
                              choices=", ".join(map(str, meta["choices"])),
                              value=repr(value)))
    return value


def resolve(preset: UnoOptions, overrides: Mapping[str, Any],
            hand_size: int | None = None) -> tuple[UnoOptions, list[Text]]:
    """Apply a header's ``options`` (and ``hand_size``) to a preset.

    Args:
        preset: the preset's options value.
        overrides: option name -> value from the header.
        hand_size: the header's ``hand_size``, if any.

    Returns:
        The options in force and a list of problems about overrides that were
        ignored, each a :class:`~referee.text.Text` (a sentence without its
        capital and full stop). Never raises for bad content.
    """
    known = _fields_of(type(preset))
    changes: dict[str, Any] = {}
    problems: list[Text] = []
    for name, value in overrides.items():
        if name not in known:
            problems.append(Text("uno.option-unknown", name=repr(name),
                                 known=", ".join(sorted(known))))
            continue
        try:
            changes[name] = _coerce(known[name], value)
        except ValueError as exc:
            why = (exc.args[0] if exc.args and isinstance(exc.args[0], Text)
                   else str(exc))
            problems.append(Text("uno.option-ignored", name=repr(name), why=why))
    if hand_size is not None:
        changes["hand_size"] = hand_size
    return replace(preset, **changes), problems


def refusals(preset: UnoOptions, overrides: Mapping[str, Any],
             rules: str) -> list[Text]:
    """The header's ``options`` that :func:`resolve` ignores, each as the
    sentence refusing it where a new game of preset ``rules`` is started
    (:func:`referee.game.start_game`): the same checks, said as a refusal that
    names the option and what it may be."""
    from ..game import allowed_values, option_bad_value, option_unknown

    known = _fields_of(type(preset))
    out: list[Text] = []
    for name, value in overrides.items():
        f = known.get(name)
        if f is None:
            out.append(option_unknown(rules, name, known))
            continue
        try:
            _coerce(f, value)
        except ValueError:
            allowed = (Text("uno.allowed-stack", cards=", ".join(STACK_CARDS))
                       if name == "stack_answers"
                       else allowed_values(getattr(preset, name), f.metadata))
            out.append(option_bad_value(name, value, allowed))
    return out


def option_docs(options: Any) -> list[dict[str, Any]]:
    """Name, value, help and source of every field of a dataclass options value."""
    from dataclasses import is_dataclass

    if not is_dataclass(options):
        return []
    out = []
    for f in fields(options):
        value = getattr(options, f.name)
        if isinstance(value, tuple):
            value = list(value)
        out.append({"name": f.name, "value": value, "help": f.metadata.get("help", ""),
                    "source": f.metadata.get("source", "")})
    return out
