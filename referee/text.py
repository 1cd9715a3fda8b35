"""Ruling sentences said in the viewer's language, rendered from data.

A ruling's text is a :class:`Text`: a message key and its arguments. Its value
as a ``str`` is the English sentence, so a log, the command line and every
caller that reads ``ruling.text`` see plain English; :meth:`Text.render` says
the same sentence in another language, and :meth:`Text.data` is the JSON form
the page receives (``"msg"`` beside ``"text"`` in a ruling), which
:func:`render_data` renders again on the other side.

Sentences live in catalogs, one per game, each beside the rules that use it::

    from referee.text import Text, define, card

    define({
        "uno.out-of-turn": {
            "en": "It is {turn}'s turn, not {player}'s, so {player} takes {cards} back.",
            "ja": "{turn}の番で{player}の番ではないので、{player}は{cards}を戻します。",
        },
    })
    Text("uno.out-of-turn", turn="Ann", player="Bo", cards=card("red-7"))

Arguments are rendered by type: a ``str`` (a player's name, a number already
written) is inserted as it is; an ``int`` is written in digits; a :class:`Text`
(a part of a sentence, a card's name, a count with its noun) is rendered in
the same language. Formatters are keys that start with ``@`` and render with
a function instead of a template: :func:`card`, :func:`cards`, :func:`count`,
:func:`join`, :func:`cap`, :func:`color`.

Card names depend on the deck: a game registers how its deck's labels are said
with :func:`define_cards`; the standard UNO deck is said by
:func:`standard_card_name`.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Callable, Iterable, Mapping
from typing import Any

LANGS = ("en", "ja")
"""The languages every message is written in; English is the fallback."""

_CATALOG: dict[str, dict[str, str]] = {}
_FORMATTERS: dict[str, Callable[[Mapping[str, Any], str], str]] = {}
_CARD_NAMERS: dict[str, Callable[[str, str], str]] = {}
_FIELDS = string.Formatter()
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode


def define(messages: Mapping[str, Mapping[str, str]]) -> None:
    """Add messages to the catalog: ``{key: {"en": ..., "ja": ...}}``.

    A key is ``<game>.<name>``; defining a key twice with another text is an
    error (two rules would say one sentence differently).
    """
    for key, texts in messages.items():
        if key.startswith("@"):
            raise ValueError(f"message keys starting with @ are formatters: {key!r}")
        if "en" not in texts:
            raise ValueError(f"message {key!r} has no English text")
        old = _CATALOG.get(key)
        if old is not None and old != dict(texts):
            raise ValueError(f"message {key!r} is defined twice, differently")
        _CATALOG[key] = dict(texts)


def catalog() -> dict[str, dict[str, str]]:
    """A copy of every message defined so far (for checks and docs)."""
    return {k: dict(v) for k, v in _CATALOG.items()}


def formatter(key: str) -> Callable[[Callable[[Mapping[str, Any], str], str]],
                                    Callable[[Mapping[str, Any], str], str]]:
    """Register ``fn(args, lang) -> str`` as the renderer of ``@key``."""
    def register(fn: Callable[[Mapping[str, Any], str], str]
                 ) -> Callable[[Mapping[str, Any], str], str]:
        _FORMATTERS["@" + key] = fn
        return fn
    return register


def define_cards(deck: str, namer: Callable[[str, str], str]) -> None:
    """How the cards of ``deck`` are said: ``namer(label, lang) -> name``."""
    _CARD_NAMERS[deck] = namer


def decks() -> tuple[str, ...]:
    """The decks whose card names are defined (``uno``, ``tgus-t`` ...)."""
    return tuple(_CARD_NAMERS)


class Text(str):
    """A sentence or a part of one: ``key`` and ``args``; its value is English."""

    __slots__ = ("key", "args", "_json")
    key: str
    args: dict[str, Any]

    def __new__(cls, key: str, /, **args: Any) -> "Text":
        obj = super().__new__(cls, _render(key, args, "en"))
        obj.key = key
        obj.args = args
        obj._json = None
        return obj

    def render(self, lang: str = "en") -> str:
        """The sentence in ``lang`` (English where a message lacks that language)."""
        if lang == "en":
            return str.__str__(self)
        return _render(self.key, self.args, lang)

    def data(self) -> dict[str, Any]:
        """The JSON form: ``{"key": ..., "args": {...}}``, nested parts alike."""
        return {"key": self.key,
                "args": {k: _data(v) for k, v in self.args.items()}}

    def json(self) -> str:
        """:meth:`data` as JSON text (made once: a Text is never changed)."""
        if self._json is None:
            self._json = _ENCODE(self.data())
        return self._json

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.key, self.args))


def _rebuild(key: str, args: dict[str, Any]) -> Text:
    return Text(key, **args)


def _data(value: Any) -> Any:
    if isinstance(value, Text):
        return value.data()
    if isinstance(value, (list, tuple)):
        return [_data(v) for v in value]
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return value
    return str(value)


def from_data(data: Any) -> Any:
    """The inverse of :meth:`Text.data` (arguments that are messages become
    :class:`Text` again); anything else comes back as it is."""
    if isinstance(data, Mapping) and isinstance(data.get("key"), str) \
            and isinstance(data.get("args", {}), Mapping):
        args = {str(k): from_data(v) for k, v in data.get("args", {}).items()}
        try:
            return Text(data["key"], **args)
        except (KeyError, ValueError, IndexError, TypeError):
            return None
    if isinstance(data, list):
        return [from_data(v) for v in data]
    return data


def render_data(data: Any, lang: str = "en", fallback: str = "") -> str:
    """A ruling's ``msg`` (from JSON) said in ``lang``; ``fallback`` (the
    ruling's English ``text``) where the data is missing or not a message."""
    text = from_data(data) if data is not None else None
    if isinstance(text, Text):
        return text.render(lang)
    return fallback


def _arg(value: Any, lang: str) -> Any:
    if type(value) is str or type(value) is int:  # names, numbers (most arguments)
        return value
    if isinstance(value, Text):
        return value.render(lang)
    if isinstance(value, (list, tuple)):
        return [_arg(v, lang) for v in value]
    return value


def _render(key: str, args: Mapping[str, Any], lang: str) -> str:
    fn = _FORMATTERS.get(key)
    if fn is not None:
        return fn(args, lang)
    texts = _CATALOG.get(key)
    if texts is None:
        raise KeyError(f"no message {key!r}: define it in the game's catalog")
    template = texts.get(lang) or texts["en"]
    values = {k: _arg(v, lang) for k, v in args.items()}
    if "!" in template:
        return _LINKING.vformat(template, (), values)
    return template.format_map(values)


# -- Japanese: one sentence per ruling ----------------------------------------------
# A Japanese ruling is one sentence ending in a single 。: its clauses are joined
# with 、 in the continuative (連用) form, as 「Benは黄の3を出し、Chieの番です。」.
# A catalogue template says a part in that form with the conversion ``!l``
# (``"{text!l}、{effect}"``, made by :func:`connective`), a reason with ``!c``
# (``"{why!c}、戻してください"``, made by :func:`because`), and a sentence said
# inside another, in parentheses, with ``!s`` (without its 。).

_NEGATIVE = (  # negative polite endings and their continuative forms
    ("ありません", "なく"), ("ていません", "ておらず"), ("もいません", "もおらず"),
    ("がいません", "がおらず"), ("しません", "せず"), ("なりません", "ならず"),
    ("変わりません", "変わらず"), ("分かりません", "分からず"),
    ("かまいません", "かまわず"), ("起きません", "起きず"), ("足りません", "足りず"),
    ("できません", "できず"), ("しれません", "しれず"),
)
_A_ROW = {"き": "か", "ぎ": "が", "し": "さ", "ち": "た", "に": "な", "び": "ば",
          "み": "ま", "り": "ら", "い": "わ"}
_TAIL = re.compile(r"((?:（[^（）]*）|\([^()]*\))*)$")


def connective(text: str) -> str:
    """A Japanese clause said so that another follows it after 、: its polite
    ending in the continuative form (出します → 出し, 番です → 番で, 出せません →
    出せず, 引きました → 引き, 戻してください → 戻して); a closing 。 is dropped
    and a parenthetical note at the end stays after the verb. A clause with no
    ending it knows is said as it is."""
    text = text.rstrip()
    while text.endswith("。"):
        text = text[:-1].rstrip()
    note = _TAIL.search(text).group(1)
    body = text[:len(text) - len(note)] if note else text
    return _continuative(body) + note


def _continuative(body: str) -> str:
    for ending in ("ませんでした", "ません"):
        if body.endswith(ending):
            whole = body[:-len(ending)] + "ません"
            for neg, form in _NEGATIVE:
                if whole.endswith(neg):
                    return whole[:-len(neg)] + form
            stem = body[:-len(ending)]
            if stem[-1:] in _A_ROW and stem[-2:-1] not in ("せ", "け", "え", "れ", "て"):
                return stem[:-1] + _A_ROW[stem[-1]] + "ず"
            return stem + "ず"
    for ending, form in (("でした", "で"), ("ています", "ており"), ("ていました", "ており"),
                         ("ました", ""), ("てください", "て"), ("でください", "で"),
                         ("終了です", "終了となり"), ("です", "で"), ("ます", "")):
        if body.endswith(ending):
            return body[:-len(ending)] + form
    return body


def because(text: str) -> str:
    """A Japanese clause said as the reason of what follows (…ので): 番です →
    番なので, 出せません → 出せないので, ありません → ないので, 引きました →
    引きましたので; a parenthetical note at the end stays after it."""
    text = text.rstrip()
    while text.endswith("。"):
        text = text[:-1].rstrip()
    note = _TAIL.search(text).group(1)
    body = text[:len(text) - len(note)] if note else text
    if body.endswith("です"):
        return body[:-2] + "なので" + note
    if body.endswith("ません"):
        linked = _continuative(body)
        for form, plain in (("ておらず", "ていない"), ("もおらず", "もいない"),
                            ("がおらず", "がいない"), ("せず", "しない"), ("なく", "ない")):
            if linked.endswith(form):
                return linked[:-len(form)] + plain + "ので" + note
        if linked.endswith("ず"):
            return linked[:-1] + "ないので" + note
    for polite, plain in (("でした", "だった"), ("あります", "ある"), ("できます", "できる"),
                          ("します", "する")):
        if body.endswith(polite):
            return body[:-len(polite)] + plain + "ので" + note
    if body.endswith(("ます", "ました", "ない", "た")):
        return body + "ので" + note
    return connective(text)


class _Linking(string.Formatter):
    """Templates with ``{part!l}``: the part in its continuative form;
    ``{part!c}``: the part as the reason of what follows (…ので);
    ``{part!s}``: a sentence said inside another, without its 。."""

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion == "l":
            return connective(str(value))
        if conversion == "c":
            return because(str(value))
        if conversion == "s":
            return str(value).rstrip().rstrip("。")
        return super().convert_field(value, conversion)


_LINKING = _Linking()


def fields(template: str) -> set[str]:
    """The argument names a template uses (``{player}``, ``{n}``)."""
    return {name.split(".")[0].split("[")[0]
            for _, name, _, _ in _FIELDS.parse(template) if name}


# -- formatters ---------------------------------------------------------------------

_PARTS: dict[tuple[Any, ...], Text] = {}  # card names and counts already made
_PARTS_MAX = 4096


def _part(key: tuple[Any, ...], make: Callable[[], Text]) -> Text:
    """A part made once and shared (a replay names the same cards thousands of
    times; a Text renders its English when made). Parts are never changed."""
    part = _PARTS.get(key)
    if part is None:
        if len(_PARTS) >= _PARTS_MAX:
            _PARTS.clear()
        part = _PARTS[key] = make()
    return part


def card(label: Any, deck: str = "uno") -> Text:
    """A card's name: ``card("red-7")`` is "red 7", "赤の7"."""
    name = str(getattr(label, "label", label))
    return _part(("card", name, deck), lambda: Text("@card", label=name, deck=deck))


def cards(labels: Iterable[Any], deck: str = "uno") -> Text:
    """Several cards' names: "red 7 and blue Skip", "赤の7と青のスキップ"."""
    names = tuple(str(getattr(c, "label", c)) for c in labels)
    return _part(("cards", names, deck),
                 lambda: Text("@cards", labels=list(names), deck=deck))


def count(n: int, noun: str) -> Text:
    """A number and its noun: ``count(1, "card")`` is "1 card", "1枚"."""
    return _part(("count", int(n), noun), lambda: Text("@count", n=int(n), noun=noun))


def join(*parts: Any, sep: str = " ") -> Text:
    """Parts said one after the other (sentences of a ruling)."""
    return Text("@join", parts=[p for p in parts if p], sep=sep)


def cap(part: Any) -> Text:
    """A part of a sentence that starts one (capital first letter in English)."""
    return Text("@cap", part=part)


def color(name: str) -> Text:
    """A colour's name: "red", "赤"."""
    return Text("@color", name=str(name))


def plain(text: str) -> Text:
    """A text that is said the same in every language (a name, a label)."""
    return Text("@plain", text=str(text))


COLOR_NAMES = {
    "en": {"red": "red", "yellow": "yellow", "green": "green", "blue": "blue"},
    "ja": {"red": "赤", "yellow": "黄", "green": "緑", "blue": "青"},
}
STANDARD_VALUES = {
    "en": {"skip": "Skip", "reverse": "Reverse", "draw2": "Draw Two", "wild": "Wild",
           "wild-draw4": "Wild Draw Four", "wild-shuffle": "Wild Shuffle Hands",
           "wild-custom": "white Wild"},
    "ja": {"skip": "スキップ", "reverse": "リバース", "draw2": "ドロー2", "wild": "ワイルド",
           "wild-draw4": "ワイルドドロー4", "wild-shuffle": "シャッフルワイルド",
           "wild-custom": "白いワイルド"},
}
NOUNS = {
    "en": {"card": ("card", "cards"), "point": ("point", "points"),
           "round": ("round", "rounds"), "turn": ("turn", "turns"),
           "player": ("player", "players")},
    "ja": {"card": "{n}枚", "point": "{n}点", "round": "{n}ラウンド", "turn": "{n}手番",
           "player": "{n}人"},
}


def standard_card_name(label: str, lang: str = "en") -> str:
    """A standard UNO card as a person says it: "red 7", "blue Skip",
    "Wild Draw Four"; "赤の7", "青のスキップ", "ワイルドドロー4"."""
    lang = lang if lang in STANDARD_VALUES else "en"
    colour, _, value = label.partition("-")
    if colour not in COLOR_NAMES["en"]:
        colour, value = "", label
    name = STANDARD_VALUES[lang].get(value, value)
    if not colour:
        return name
    if lang == "ja":
        return f"{COLOR_NAMES['ja'][colour]}の{name}"
    return f"{colour} {name}"


define_cards("uno", standard_card_name)


def card_name(label: str, lang: str = "en", deck: str = "uno") -> str:
    """``label`` of ``deck`` said in ``lang`` (the label itself when unknown)."""
    namer = _CARD_NAMERS.get(deck, standard_card_name)
    try:
        name = namer(label, lang)
    except Exception:  # a label the deck does not know is said as it is
        name = label
    if name == label and lang != "en":
        # a card of another deck (a ruling refusing it): said as its own deck says it
        for other, namer in _CARD_NAMERS.items():
            if other == deck:
                continue
            try:
                said = namer(label, lang)
            except Exception:  # noqa: BLE001 - not that deck's label either
                continue
            if said != label:
                return said
    return name


@formatter("card")
def _card(args: Mapping[str, Any], lang: str) -> str:
    return card_name(str(args["label"]), lang, str(args.get("deck", "uno")))


@formatter("cards")
def _cards(args: Mapping[str, Any], lang: str) -> str:
    deck = str(args.get("deck", "uno"))
    names = [card_name(str(label), lang, deck) for label in args["labels"]]
    return list_of(names, lang)


def list_of(names: list[str], lang: str = "en") -> str:
    """"a", "a and b", "a, b and c"; "aとb", "a、bとc"."""
    if not names:
        return ""
    if lang == "ja":
        return names[0] if len(names) == 1 else "、".join(names[:-1]) + "と" + names[-1]
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


@formatter("count")
def _count(args: Mapping[str, Any], lang: str) -> str:
    n, noun = int(args["n"]), str(args["noun"])
    if lang == "ja":
        return NOUNS["ja"].get(noun, "{n} " + noun).format(n=n)
    one, many = NOUNS["en"].get(noun, (noun, noun + "s"))
    return f"{n} {one if n == 1 else many}"


@formatter("join")
def _join(args: Mapping[str, Any], lang: str) -> str:
    sep = str(args.get("sep", " "))
    if lang == "ja" and sep == " ":
        sep = ""
    return sep.join(str(_arg(p, lang)) for p in args["parts"])


@formatter("cap")
def _cap(args: Mapping[str, Any], lang: str) -> str:
    text = str(_arg(args["part"], lang))
    return text[:1].upper() + text[1:] if lang == "en" else text


@formatter("color")
def _color(args: Mapping[str, Any], lang: str) -> str:
    name = str(args["name"])
    return COLOR_NAMES.get(lang, COLOR_NAMES["en"]).get(name, name)


INFERRED = {"en": " (inferred: {why})", "ja": "（推定: {why}）"}
INFERRED_BARE = {"en": " (inferred)", "ja": "（推定）"}


@formatter("inferred")
def _inferred(args: Mapping[str, Any], lang: str) -> str:
    """A ruling on an inferred event: its sentence, then why it was inferred."""
    text = str(_arg(args["text"], lang))
    why = _arg(args.get("why", ""), lang)
    key = lang if lang in INFERRED else "en"
    clause = (INFERRED[key].format(why=why) if why else INFERRED_BARE[key])
    for stop in (".", "。"):
        if text.endswith(stop):
            return text[:-1] + clause + stop
    return text + clause


@formatter("plain")
def _plain(args: Mapping[str, Any], lang: str) -> str:
    return str(args["text"])
