"""Options of the tgus-t1 / tgus-t2 game: one frozen dataclass, two presets.

Every field carries ``metadata={"help": ..., "source": ...}`` so that
``tableref rules tgus-t2`` can list the options generically. A header's
``options`` object overrides single fields by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from referee.text import Text, define

from .cards import quote as _quote

define({
    "tgus-t.option.unknown": {
        "en": "unknown option {name}",
        "ja": "不明なオプション{name}",
    },
    "tgus-t.option.ranks": {
        "en": "an object giving each draw effect a whole number rank",
        "ja": "各ドロー効果に整数の順位を与えるオブジェクト",
    },
    "tgus-t.option.bad": {
        "en": "option {name} cannot be {value}",
        "ja": "オプション{name}の値{value}",
    },
})

T1 = "000 §TGUS-TGC-UNO.T1"
T2 = "000 §TGUS-TGC-UNO.T2"


def _opt(default: Any, help_: str, source: str) -> Any:
    return field(default=default, metadata={"help": help_, "source": source})


@dataclass(frozen=True)
class TgusTOptions:
    """House rules of the 東幻符闘祭 deck (000, T1 and T2)."""

    hand_size: int = _opt(
        7,
        "cards dealt to each player (the header's hand_size wins)",
        T1 + ": 5-10 cards, 7 chosen by the project; " + T2 + ": 10 cards",
    )
    hand_size_min: int = _opt(
        5,
        "smallest hand size the preset allows (else an info ruling)",
        T1 + ": 5; " + T2 + ": 10",
    )
    hand_size_max: int = _opt(
        10,
        "largest hand size the preset allows (else an info ruling)",
        T1 + ": 10; " + T2 + ": 10",
    )
    multi_play: bool = _opt(
        True, "several cards of the same number or the same effect in one play", T1
    )
    multi_wild: bool = _opt(
        False,
        "several colourless cards of one kind at once (Counters always may)",
        T1
        + ": forbidden (ワイルドカードの複数枚出しは禁止); "
        + T2
        + ": same number or same picture, no such ban",
    )
    plain_uno: bool = _opt(
        True,
        "a plain 'UNO' counts as the call (else a character's name is needed)",
        T1
        + ": yes (通常の「ウノ」と宣言しても構わない); "
        + T2
        + ": no (必ず東方Project関連のキャラクターを言う)",
    )
    uno_penalty: int = _opt(
        2,
        "cards drawn when caught with one card and no call",
        T1 + " (チャレンジ・ウノ; count from 001)",
    )
    precedence: tuple[tuple[str, int], ...] = _opt(
        (
            ("hit2", 1),
            ("reverse-hit2", 1),
            ("wild-hit4", 2),
            ("wild-hit-x", 3),
            ("counter", 4),
        ),
        "draw-card rank: a pending draw may be answered only by a rank as high or "
        "higher",
        T1
        + ": Hit+2 = Reverse Hit+2 = 1, Hit+4 = 2, Hit+? = 3, Counter = 4; "
        + T2
        + ": the same, All Hit+2 = 4, Counter = 5",
    )
    all_hit2: bool = _opt(
        False,
        "a Gamble played from a hand of 2 or fewer may make every other "
        "player draw 2 (All Hit+2)",
        T2 + ": ギャンブル (2枚以下); T1: no",
    )
    change_limit: int = _opt(
        15,
        "a Change may not target a player holding this many cards or more",
        T1 + " (15枚以上が目安)",
    )
    leftover_draw: int = _opt(
        2,
        "cards drawn at a time while a hand holds no number card (0: off)",
        T1 + " (絵札残り)",
    )
    leftover_penalty: int = _opt(
        0,
        "cards drawn when caught having missed the forced leftover draw",
        T2 + ": 3 (ペナルティとして3枚); T1 names none: 0",
    )
    stock: bool = _opt(
        False,
        "a draw larger than the pile is stocked and taken after the rebuild",
        T2 + ": ストック; T1: the pile is rebuilt and the draw goes on",
    )
    rebuild_at: int = _opt(
        0,
        "rebuild the pile from the discards when it holds this many cards or fewer",
        T2 + ": 10 (残り10枚以下); T1 names none: 0, when the pile is empty",
    )
    stock_floor: int = _opt(
        0,
        "stocked draws are paused while the pile holds this many cards or fewer",
        T2 + ": 15 (残り15枚以下); T1 has no stock",
    )
    last_confesses: bool = _opt(
        False,
        "the player left last names their favourite character",
        T2 + ": 最後まで残った人は嫁キャラクター暴露; T1: no such rule",
    )
    deck_size: int = _opt(
        0,
        "cards in the physical deck (0: the documented 122-card deck)",
        "docs/cards-tgus-t.md (000 prints no deck list)",
    )

    def rank(self, effect: str) -> int:
        """The precedence rank of a draw effect, 0 for cards that are no draw card."""
        return dict(self.precedence).get(effect, 0)

    def with_overrides(
        self, overrides: Mapping[str, Any]
    ) -> tuple[TgusTOptions, list[Text]]:
        """A copy with header overrides applied, and a message per override refused.

        ``precedence`` is given as an object, effect -> rank
        (``{"hit2": 1, "counter": 4}``); every other option as its plain value.
        """
        known = {f.name: f for f in fields(self)}
        changes: dict[str, Any] = {}
        refused: list[Text] = []
        for name, value in overrides.items():
            if name not in known:
                refused.append(Text("tgus-t.option.unknown", name=_quote(name)))
                continue
            ok, value = _accepts(name, getattr(self, name), value)
            if not ok:
                refused.append(
                    Text("tgus-t.option.bad", name=_quote(name), value=_quote(value))
                )
                continue
            changes[name] = value
        return replace(self, **changes), refused


def _accepts(name: str, default: Any, value: Any) -> tuple[bool, Any]:
    """Whether a header may set option ``name`` (preset value ``default``) to
    ``value``, and the value as the options hold it."""
    if isinstance(default, bool):
        return isinstance(value, bool), value
    if isinstance(default, int):
        return (isinstance(value, int) and not isinstance(value, bool)
                and value >= 0), value
    if name == "precedence" and isinstance(value, Mapping):
        return all(isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                   for k, v in value.items()), tuple(value.items())
    return False, value


def option_refusals(options: TgusTOptions, overrides: Mapping[str, Any],
                    rules: str) -> list[Text]:
    """The overrides :meth:`TgusTOptions.with_overrides` refuses, each as the
    sentence refusing it where a new game is started."""
    from referee.game import allowed_values, option_bad_value, option_unknown

    known = {f.name: f for f in fields(options)}
    out: list[Text] = []
    for name, value in overrides.items():
        if name not in known:
            out.append(option_unknown(rules, name, known))
            continue
        default = getattr(options, name)
        if not _accepts(name, default, value)[0]:
            allowed = (Text("tgus-t.option.ranks") if name == "precedence"
                       else allowed_values(default, {"minimum": 0}
                                           if isinstance(default, int)
                                           and not isinstance(default, bool) else {}))
            out.append(option_bad_value(name, value, allowed))
    return out


TGUS_T1 = TgusTOptions()
TGUS_T2 = TgusTOptions(
    hand_size=10,
    hand_size_min=10,
    multi_wild=True,
    plain_uno=False,
    precedence=(
        ("hit2", 1),
        ("reverse-hit2", 1),
        ("wild-hit4", 2),
        ("wild-hit-x", 3),
        ("all-hit2", 4),
        ("counter", 5),
    ),
    all_hit2=True,
    leftover_penalty=3,
    stock=True,
    rebuild_at=10,
    stock_floor=15,
    last_confesses=True,
)

PRESETS: dict[str, TgusTOptions] = {"tgus-t1": TGUS_T1, "tgus-t2": TGUS_T2}
