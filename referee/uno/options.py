"""House rules of the uno engine: one frozen options value, named presets.

Every house rule is a field of :class:`UnoOptions` with ``metadata`` giving a
one-line ``help`` and its ``source`` (which seed and section, the spec, or a
project decision). A preset is an *instance* (``PRESETS["official"]``), never
a subclass; a header's ``options`` override single fields by name through
:func:`resolve`, which never raises: a bad name or value becomes a problem
string that the engine reports as an ``info`` ruling.

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

from .tgus_presets import tgus_presets

ACTION_VALUES = ("skip", "reverse", "draw2", "wild", "wild-draw4", "wild-shuffle",
                 "wild-custom")
STACK_CARDS = ("draw2", "wild-draw4", "skip", "reverse")
ALL_STACK_ANSWERS = ("draw2>draw2", "draw2>wild-draw4", "wild-draw4>wild-draw4",
                     "wild-draw4>draw2")


def _opt(default: Any, help_: str, source: str, choices: tuple[Any, ...] = (),
         minimum: int | None = None) -> Any:
    meta: dict[str, Any] = {"help": help_, "source": source}
    if choices:
        meta["choices"] = choices
    if minimum is not None:
        meta["minimum"] = minimum
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class UnoOptions:
    """Every house rule the uno engine knows; presets are instances."""

    deck: int = _opt(108, "cards in the deck: 108, or 112 with Shuffle Hands and 3 "
                     "white wilds", "RULES.md Cards", (108, 112))
    hand_size: int = _opt(7, "cards dealt to each player (the header's hand_size wins)",
                          "001 公式 2", minimum=1)
    first_action_returned: bool = _opt(
        False, "any action card turned as the first card is put back and another "
        "turned (officially only a Wild Draw Four is)",
        "001 ローカルルール 2 (local 1)")
    wd4_rule: str = _opt(
        "no-playable", "when a Wild Draw Four is legal: 'no-playable' (no other "
        "playable card, 001) or 'no-current-colour' (no card of the current colour, "
        "Mattel)",
        "001 ワイルド・ドロー4", ("no-playable", "no-current-colour"))
    wd4_guilty_takeback: bool = _opt(
        True, "a Wild Draw Four found guilty goes back to its player's hand and play "
        "returns to them (001); false: it stays and the challenger plays on (Mattel)",
        "001 チャレンジ成功")
    challenge: bool = _opt(True, "the player hit by a Wild Draw Four may challenge it",
                           "001 チャレンジ")
    multi_play: str = _opt(
        "off", "several cards in one play: 'off', 'same' (same number or symbol, the "
        "first must match, the last stays on top) or 'pairs' (two identical number "
        "cards, the competition two-card rule); true means 'same'",
        "spec; 001 4-2 and ローカルルール 4", ("off", "same", "pairs"))
    multi_effects: bool = _opt(
        True, "with multi-play, the effects of several action cards add up (three Draw "
        "Twos = 6 cards, two Reverses cancel)", "001 ローカルルール 4")
    multi_out: str = _opt(
        "needs-call", "going out with several cards: 'allowed' (an UNO finish, local "
        "3) or 'needs-call' (without an UNO call only the first card counts, 001 4-2)",
        "001 4-2 / ローカルルール 5", ("allowed", "needs-call"))
    out_on_action: bool = _opt(
        True, "a player may go out on an action or wild card (false: the local rule "
        "forbidding it; such a play is taken back)", "001 ローカルルール 5")
    stacking: bool = _opt(
        False, "a player who owes cards from a Draw Two / Wild Draw Four may pass them "
        "on with an answer from stack_answers, the count accumulating",
        "spec; 001 ローカルルール 6")
    stack_answers: tuple[str, ...] = _opt(
        ALL_STACK_ANSWERS, "answer table for stacking: '<owed card>><answer card>' "
        "entries (values draw2, wild-draw4, skip, reverse)", "001 ローカルルール 6")
    uno_penalty: int = _opt(2, "cards drawn for a caught missing UNO call (local rule: "
                            "up to 6)", "spec; 001 公式 7 / ローカルルール 7",
                            minimum=0)
    catch_window: str = _opt(
        "next-plays", "when a missing UNO call can no longer be caught: 'next-plays' "
        "(once another player has played a card, 001) or 'next-acts' (once the next "
        "player draws or plays, Mattel)", "001 公式 7", ("next-plays", "next-acts"))
    referee_catches: bool = _opt(
        False, "when the catch window closes on a player who went down to one card "
        "without calling, the referee applies the penalty itself", "issue 8 / project")
    jump_in: bool = _opt(
        False, "a card identical in colour and number/symbol to the top card may be "
        "played out of turn; play continues from that player",
        "spec; 001 ローカルルール 8")
    doubling: bool = _opt(
        False, "at scoring each losing hand is multiplied by (its UNO calls this round "
        "+ 1)", "001 ローカルルール 9")
    scoring: str = _opt("japan", "'japan' (fixed rounds, losers go minus) or "
                        "'international' (first to the target)",
                        "spec; 001 勝敗について", ("japan", "international"))
    rounds: int = _opt(5, "rounds played under japan scoring", "spec; 001 日本ルール",
                       minimum=1)
    target: int = _opt(500, "points that end an international game",
                       "spec; 001 国際ルール", minimum=1)
    # -- TGUS-TGC-UNO house rules (seed 000; presets in tgus_presets.py) --------------
    # Every field from here on is a TGUS option (``TGUS_FIELDS``): while all keep
    # their official value the engine skips the TGUS hooks (``uses_tgus_hooks``).
    hand_size_max: int = _opt(
        0, "largest hand a header may set; a bigger hand_size gets an info ruling "
        "(0: no limit)", "000 TGUS-TGC-UNO.1 (最大でも10枚)", minimum=0)
    direction_rps: bool = _opt(
        False, "the first player's two neighbours play rock-paper-scissors for the "
        "direction, recorded by a 'direction' event before the first play",
        "000 TGUS-TGC-UNO.1")
    uno_catch: bool = _opt(
        True, "a missing UNO call may be caught ('catch' event); false: catches are "
        "ignored", "001 公式 7; 000 TGUS-TGC-UNO.1 (非推奨)")
    picture_leftover: bool = _opt(
        False, "a hand of picture cards only draws 2 at a time until a number card "
        "comes (self-reported 'picture-leftover' event)",
        "000 TGUS-TGC-UNO.1 (英語残り・絵柄残り)")
    number_finish: int = _opt(
        0, "cards drawn by a player who goes out on anything but number cards: the "
        "cards stay played and play continues (0: off)", "000 TGUS-TGC-UNO.2/.3",
        minimum=0)
    multi_out_penalty: int = _opt(
        0, "with multi_out 'allowed': cards drawn by a player who goes out with "
        "several cards without calling UNO first; they are not out (0: no call needed)",
        "000 TGUS-TGC-UNO.3", minimum=0)
    challenge_on_stack: bool = _opt(
        False, "a Wild Draw Four played on a Wild Draw Four may be challenged too "
        "(only the one just played)",
        "000 TGUS-TGC-UNO.2 (直前のワイルド・ドロー4のみ)")
    after_failed_challenge: str = _opt(
        "pass-on", "after a lost challenge: 'pass-on' (with stacking, the cards + 2 "
        "may be passed on), 'draw' (the challenger takes the cards + 2) or "
        "'stack' (they may still pass the cards on, and then the +2 is void)",
        "001 チャレンジ失敗; 000 TGUS-TGC-UNO.2/.3", ("pass-on", "draw", "stack"))
    white_wild: str = _opt(
        "wild", "the white customizable wild: 'wild' (a plain Wild), 'downpour' (UNO "
        "H2O's Wild Downpour: every other player draws downpour_draw) or 'all-mighty' "
        "(acts as the picture card named by the play's 'as')",
        "000 TGUS-TGC-UNO.2/.3", ("wild", "downpour", "all-mighty"))
    downpour_draw: int = _opt(2, "cards each other player draws for a Wild Downpour",
                              "000 TGUS-TGC-UNO.2 / UNO H2O", minimum=1)
    face_down: int = _opt(
        0, "face-down plays (skip your own turn; others may doubt) each player may "
        "make per game; never to go out (0: not used)", "000 TGUS-TGC-UNO.3", minimum=0)
    doubt_penalty: int = _opt(4, "cards drawn by the loser of a doubt",
                              "000 TGUS-TGC-UNO.3", minimum=0)
    success_weight: str = _opt(
        "none", "extra starting cards for the next game: 'none', 'rank' (previous "
        "game's 1st/2nd/3rd +3/+2/+1), 'wins' (+1 a game won) or 'points' (the "
        "tgus-3 table)",
        "000 TGUS-TGC-UNO.2/.3", ("none", "rank", "wins", "points"))
    play_to_last: bool = _opt(
        False, "play goes on after the first player goes out until one player is left; "
        "the round ends with a ranking", "000 TGUS-TGC-UNO.1")
    stop_by_points: bool = _opt(
        False, "a 'stop' event ends a game that drags on by official point scoring",
        "000 TGUS-TGC-UNO.3")
    play_after_forced_draw: bool = _opt(
        False, "a player who has just drawn the cards of a Draw Two / Wild Draw Four "
        "keeps the turn and may still play or pass (officially the turn is lost)",
        "000 TGUS-TGC-UNO.2/.3 (そのターンにカードを出すことを認める)")

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


#: Named presets. Other engineers add instances here (``tgus-1`` ...).
PRESETS: dict[str, UnoOptions] = {"official": UnoOptions()}
PRESETS.update(tgus_presets(PRESETS["official"]))  # tgus-1, tgus-2, tgus-3 (seed 000)

_FIELDS = {f.name: f for f in fields(UnoOptions)}
_NAMES = list(_FIELDS)
#: The TGUS-TGC-UNO options: the fields from ``hand_size_max`` on.
TGUS_FIELDS: tuple[str, ...] = tuple(_NAMES[_NAMES.index("hand_size_max"):])


def uses_tgus_hooks(options: UnoOptions) -> bool:
    """Whether ``options`` switch on any TGUS rule (seed 000).

    True when a TGUS option differs from the official preset or a stacking
    answer is a Skip, Reverse or white wild (a deflection); the engine decides
    this once per game and otherwise runs its plain handlers (replay speed).
    """
    official = PRESETS["official"]
    if any(not a.endswith((">draw2", ">wild-draw4")) for a in options.stack_answers):
        return True
    return any(getattr(options, n) != getattr(official, n) for n in TGUS_FIELDS)


def _coerce(name: str, value: Any) -> Any:
    """Check one override; returns the value to store or raises ``ValueError``."""
    f = _FIELDS[name]
    meta = f.metadata
    default = f.default if f.default is not MISSING else None
    if name == "multi_play" and isinstance(value, bool):
        value = "same" if value else "off"
    if name == "first_action_returned" and value == "action":
        value = True
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ValueError(f"must be true or false, got {value!r}")
    elif isinstance(default, int):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"must be a whole number, got {value!r}")
        if "minimum" in meta and value < meta["minimum"]:
            raise ValueError(f"must be at least {meta['minimum']}, got {value}")
    elif isinstance(default, str):
        if not isinstance(value, str):
            raise ValueError(f"must be a string, got {value!r}")
    elif isinstance(default, tuple):
        if not isinstance(value, (list, tuple)) or not all(
                isinstance(v, str) for v in value):
            raise ValueError(f"must be a list of strings, got {value!r}")
        value = tuple(value)
        if name == "stack_answers":
            for entry in value:
                a, sep, b = entry.partition(">")
                if not sep or a not in STACK_CARDS or b not in STACK_CARDS:
                    raise ValueError(f"entry {entry!r} is not '<card>><card>' with "
                                     f"cards from {', '.join(STACK_CARDS)}")
    if "choices" in meta and value not in meta["choices"]:
        raise ValueError(f"must be one of {', '.join(map(str, meta['choices']))}, "
                         f"got {value!r}")
    return value


def resolve(preset: UnoOptions, overrides: Mapping[str, Any],
            hand_size: int | None = None) -> tuple[UnoOptions, list[str]]:
    """Apply a header's ``options`` (and ``hand_size``) to a preset.

    Args:
        preset: the preset's options value.
        overrides: option name -> value from the header.
        hand_size: the header's ``hand_size``, if any.

    Returns:
        The options in force and a list of problems (one sentence each) about
        overrides that were ignored. Never raises for bad content.
    """
    changes: dict[str, Any] = {}
    problems: list[str] = []
    for name, value in overrides.items():
        if name not in _FIELDS:
            problems.append(f"unknown option {name!r} was ignored (known options: "
                            f"{', '.join(sorted(_FIELDS))})")
            continue
        try:
            changes[name] = _coerce(name, value)
        except ValueError as exc:
            problems.append(f"option {name!r} was ignored: it {exc}")
    if hand_size is not None:
        changes["hand_size"] = hand_size
    return replace(preset, **changes), problems


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
