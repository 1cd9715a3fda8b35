"""What the table display shows, read from a game's state, and how to say it.

The display is meant to be read from two metres: the top card and its colour,
whose turn, the direction, the cards owed (the stack of draw cards a player
faces and any penalty draws, such as an upheld challenge's 4 or a caught UNO's
2), who holds one card without having called UNO, and the last ruling. It is
built from any game's state (``state()`` for the referee, ``public_view()``
for the table) using the keys the games share; a game without a key shows
nothing for it.

Card names, the headline and the sentence of a ruling are said in the
viewer's language, from data: card names by :mod:`referee.text`'s card namers
(the rulings name cards the same way), the headline from the ruling's kind,
rule name, player and draw, the sentence from its ``msg``
(:func:`referee.text.render_data`), or its English ``text`` where it has none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee import text

COLORS = ("red", "yellow", "green", "blue")
ALERTS = ("illegal", "penalty")  # rulings the display highlights (and may sound)
ROUND_ENDS = ("round-end", "game-end")
IN_ROUND = ("turn", "drawn", "challenge", "scoring")  # uno phases of a live round
BETWEEN_ROUNDS = ("setup", "restart")  # uno phases waiting for a first card

# Colour and card names are referee.text's, so that the page and the rulings
# name a card the same way ("yellow Draw Two", 「黄のドロー2」).
COLOR_NAMES = text.COLOR_NAMES

# Rule names (the part after the preset) as a short headline; the rest show
# the rule name as it is.
RULE_NAMES = {
    "en": {
        "first-card": "First card",
        "match": "Play",
        "play": "Play",
        "draw": "Draw",
        "pass": "Pass",
        "skip": "Skip",
        "reverse": "Reverse",
        "draw2": "Draw Two",
        "wild": "Wild",
        "wd4": "Wild Draw Four",
        "wd4-challenge": "Challenge",
        "uno-call": "UNO call",
        "uno-missed": "UNO not called",
        "uno-catch": "UNO catch",
        "catch": "Catch",
        "turn": "Out of turn",
        "reveal": "Hand shown",
        "scoring": "Scoring",
        "round-end": "Round over",
        "game-end": "Game over",
        "game-over": "The game is over",
        "stacking": "Stacking",
        "start": "Round start",
        "direction": "Direction",
        "precedence": "Who acted first",
        "draw-then-play": "Play after drawing",
        "reshuffle": "Reshuffle",
        "unknown-event": "Unknown event",
        "malformed": "Unreadable event",
    },
    "ja": {
        "first-card": "最初の札",
        "match": "出す",
        "play": "出す",
        "draw": "引く",
        "pass": "パス",
        "skip": "スキップ",
        "reverse": "リバース",
        "draw2": "ドロー2",
        "wild": "ワイルド",
        "wd4": "ワイルドドロー4",
        "wd4-challenge": "チャレンジ",
        "uno-call": "ウノ宣言",
        "uno-missed": "ウノ忘れ",
        "uno-catch": "ウノ指摘",
        "catch": "指摘",
        "turn": "手番違い",
        "reveal": "手札公開",
        "scoring": "得点計算",
        "round-end": "ラウンド終了",
        "game-end": "ゲーム終了",
        "game-over": "ゲームは終了済み",
        "stacking": "重ね出し",
        "start": "ラウンド開始",
        "direction": "方向",
        "precedence": "先に動いた人",
        "draw-then-play": "引いた札を出す",
        "reshuffle": "山札の再構築",
        "unknown-event": "不明なイベント",
        "malformed": "読めないイベント",
    },
}
KIND_NAMES = {
    "en": {
        "ok": "OK",
        "illegal": "Illegal",
        "penalty": "Penalty",
        "pending": "Waiting",
        "round-end": "Round over",
        "game-end": "Game over",
        "info": "Note",
    },
    "ja": {
        "ok": "OK",
        "illegal": "反則",
        "penalty": "ペナルティ",
        "pending": "保留",
        "round-end": "ラウンド終了",
        "game-end": "ゲーム終了",
        "info": "情報",
    },
}
DRAWS = {"en": "{player} draws {n}", "ja": "{player}が{n}枚引く"}
CONCERNS = {"en": "{player}", "ja": "{player}"}


def deck_of(header: Mapping[str, Any] | None) -> str:
    """The deck whose card names a game's page uses (:func:`referee.text.define_cards`).

    The first registered of the rules preset (``tgus-t1``), the preset without
    its number (``tgus-t``), the game (``narabe-runo``) and its first word
    (``narabe``); the standard UNO deck (``uno``) otherwise.
    """
    header = header or {}
    rules, game = str(header.get("rules") or ""), str(header.get("game") or "")
    known = text.decks()
    for name in (rules, rules.rstrip("0123456789"), game, game.split("-")[0]):
        if name and name in known:
            return name
    return "uno"


def card_name(label: Any, lang: str = "en", deck: str = "uno") -> str:
    """A card label said in ``lang`` as the rulings say it (:mod:`referee.text`):
    ``yellow-draw2`` is "yellow Draw Two", 「黄のドロー2」.

    In the standard deck short forms (``R7``, ``W4``) are read too; a label
    the deck does not know stays as it is.
    """
    if not isinstance(label, str) or not label:
        return "—"
    lang = lang if lang in text.LANGS else "en"
    if deck == "uno":
        try:
            from referee.cards import Card

            label = Card.from_label(label).label
        except Exception:  # another game's deck: its label is its name
            return label
    return text.card_name(label, lang, deck)


def color_name(color: Any, lang: str = "en") -> str:
    """A colour said in ``lang`` (``—`` for none)."""
    if not isinstance(color, str) or not color:
        return "—"
    return COLOR_NAMES.get(lang, COLOR_NAMES["en"]).get(color, color)


def said(ruling: Any, lang: str = "en") -> str:
    """A ruling's sentence (or a question's ``refused``) in ``lang``.

    Rendered from the ruling's data (``msg``, :func:`referee.text.render_data`)
    where it has some; its English ``text`` otherwise (a ruling not yet
    written as a message, or a ``msg`` this installation cannot render) and
    in English (the text is the message's English, exactly as written).
    """
    if not isinstance(ruling, Mapping):
        return ""
    fallback = str(ruling.get("text") or "")
    msg = ruling.get("msg")
    if msg is None or (lang not in text.LANGS[1:] and fallback):
        return fallback  # English: the referee's text exactly as written
    try:
        return text.render_data(msg, lang if lang in text.LANGS else "en", fallback)
    except Exception:  # a message this installation cannot render: its English
        return fallback


def rule_short(rule: Any) -> str:
    """The rule name without its preset: ``official.uno-call`` -> ``uno-call``."""
    return str(rule or "").split(".", 1)[-1]


def headline(ruling: Mapping[str, Any], lang: str = "en") -> str:
    """A ruling in a few words, from its data: kind, rule, who draws how many."""
    lang = lang if lang in KIND_NAMES else "en"
    kind = str(ruling.get("ruling") or "info")
    short = rule_short(ruling.get("rule"))
    parts = [KIND_NAMES[lang].get(kind, kind)]
    rule = RULE_NAMES[lang].get(short)
    if rule and rule != parts[0]:
        parts.append(rule)
    player, draw = ruling.get("player"), ruling.get("draw")
    if isinstance(player, str) and isinstance(draw, int) and draw > 0:
        parts.append(DRAWS[lang].format(player=player, n=draw))
    elif isinstance(player, str) and player:
        parts.append(CONCERNS[lang].format(player=player))
    return " · ".join(parts)


def _names(value: Any) -> list[str]:
    if isinstance(value, Mapping):
        return [str(k) for k, v in value.items() if v]
    if isinstance(value, (list, tuple, set)):
        return [str(v) for v in value]
    return []


def owed_draws(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Who owes cards: the draw stack the player on turn faces, then penalties.

    ``pending_draw`` is the stack of draw cards (a Draw Two, a Wild Draw Four
    not yet taken) and belongs to the player whose turn it is; ``owed`` maps a
    player to penalty cards (an upheld challenge's 4, a caught UNO's 2).
    """
    out: list[dict[str, Any]] = []
    pending = state.get("pending_draw")
    turn = state.get("turn")
    if isinstance(pending, int) and not isinstance(pending, bool) and pending > 0:
        out.append({"player": turn, "count": pending, "why": "stack"})
    owed = state.get("owed")
    if isinstance(owed, Mapping):
        for player, count in owed.items():
            if isinstance(count, int) and not isinstance(count, bool) and count > 0:
                out.append({"player": str(player), "count": count, "why": "penalty"})
    return out


def mid_round(state: Mapping[str, Any], rulings: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a round is being played (a new first card would abandon it)."""
    if state.get("over"):
        return False
    phase = state.get("phase")
    if isinstance(phase, str):
        return phase in IN_ROUND
    if not rulings:
        return False
    return str(rulings[-1].get("ruling")) not in ROUND_ENDS


def needs_first_card(
    state: Mapping[str, Any], rulings: Sequence[Mapping[str, Any]]
) -> bool:
    """Whether the next step is to turn up a round's first card."""
    if state.get("over") or "top" not in state:
        return False
    phase = state.get("phase")
    if isinstance(phase, str):
        return phase in BETWEEN_ROUNDS
    return not rulings or str(rulings[-1].get("ruling")) in ROUND_ENDS


def to_reveal(state: Mapping[str, Any], players: Sequence[str] = ()) -> list[str]:
    """Who still shows a hand for scoring, in seat order (none outside scoring).

    In a game's ``scoring`` phase every player but the round's winner shows
    their hand; ``revealed`` maps those who have shown it.
    """
    if state.get("phase") != "scoring" or state.get("over"):
        return []
    names = [str(p) for p in (players or state.get("players") or [])]
    shown = state.get("revealed")
    shown = set(shown) if isinstance(shown, (Mapping, list, tuple)) else set()
    winners = state.get("round_winner")
    winners = {winners} if isinstance(winners, str) else set(_names(winners))
    counts = state.get("hand_counts")
    counts = counts if isinstance(counts, Mapping) else {}
    return [
        p
        for p in names
        if p not in shown and p not in winners and counts.get(p, 1) != 0
    ]


def table_display(
    state: Mapping[str, Any],
    rulings: Sequence[Mapping[str, Any]],
    lang: str = "en",
    deck: str = "uno",
) -> dict[str, Any]:
    """Everything the big display shows, from the state and the rulings so far."""
    color = state.get("color")
    top = state.get("top")
    last = dict(rulings[-1]) if rulings else None
    if last is not None:
        last["headline"] = headline(last, lang)
        last["sentence"] = said(last, lang)
        last["alert"] = last.get("ruling") in ALERTS
    return {
        "has_top": "top" in state,
        "top": top,
        "top_name": card_name(top, lang, deck) if top else "—",
        "color": color if color in COLORS else None,
        "color_name": color_name(color, lang),
        "turn": state.get("turn"),
        "direction": state.get("direction"),
        "owed": owed_draws(state),
        "tracks_owed": "pending_draw" in state or "owed" in state,
        "watch": _names(state.get("catchable")),
        "called": _names(state.get("uno")),
        "tracks_uno": "catchable" in state,
        "last": last,
        "mid_round": mid_round(state, rulings),
        "first_card": needs_first_card(state, rulings),
        "to_reveal": to_reveal(state),
        "challenge": _challenge(state),
    }


def _challenge(state: Mapping[str, Any]) -> dict[str, str] | None:
    """The challenge waiting for the accused's hand (``{challenger, accused}``)."""
    challenge = state.get("challenge")
    if not isinstance(challenge, Mapping) or state.get("over"):
        return None
    accused, challenger = challenge.get("accused"), challenge.get("challenger")
    if not isinstance(accused, str) or not accused:
        return None
    return {"accused": accused, "challenger": str(challenger or "")}


def form_defaults(
    state: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
    rulings: Sequence[Mapping[str, Any]],
    players: Sequence[str],
) -> dict[str, str]:
    """The player each control form should start on.

    - play, pass: the player whose turn it is; draw: the first player who
      owes cards (a penalty), else the player whose turn it is, and the count
      they owe (1 when nobody owes);
    - catch: the target is the first player who can be caught, the catcher
      the player on turn (or the next seat, never the target);
    - challenge: the challenger is the player hit by the Wild Draw Four (on
      turn), and the accused, who then shows their hand, is the player who
      played it (the player of the last Wild Draw Four play);
    - reveal: that accused player during a challenge, the first player who
      still shows a hand while a round is scored.
    """
    names = [str(p) for p in players]
    turn = state.get("turn") if state.get("turn") in names else None
    first = names[0] if names else ""
    out = {"turn": turn or first}
    owing = [o for o in owed_draws(state) if o["player"] in names]
    out["draw"] = owing[0]["player"] if owing else out["turn"]
    out["draw_count"] = str(owing[0]["count"]) if owing else "1"
    catchable = [p for p in _names(state.get("catchable")) if p in names]
    target = catchable[0] if catchable else ""
    catcher = turn or first
    if target and catcher == target and len(names) > 1:
        catcher = names[(names.index(target) + 1) % len(names)]
    out["catch_target"] = target or (names[1] if len(names) > 1 else first)
    out["catcher"] = catcher
    if out["catcher"] == out["catch_target"] and len(names) > 1:
        out["catch_target"] = names[(names.index(catcher) + 1) % len(names)]
    out["challenger"] = turn or first
    accused = ""
    challenge = state.get("challenge")
    if isinstance(challenge, Mapping) and challenge.get("accused") in names:
        accused = str(challenge["accused"])
    else:
        accused = _wd4_player(state, events, rulings, names)
    out["accused"] = accused
    out["reveal"] = accused if isinstance(challenge, Mapping) and accused else ""
    if not out["reveal"]:
        showing = to_reveal(state, names)
        out["reveal"] = showing[0] if showing else ""
    return out


def _wd4_player(
    state: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
    rulings: Sequence[Mapping[str, Any]],
    names: Sequence[str],
) -> str:
    """Who played the Wild Draw Four whose cards are still owed ('' if none)."""
    pending = state.get("pending_draw")
    if not isinstance(pending, int) or pending <= 0:
        return ""
    for ruling in reversed(rulings):
        if rule_short(ruling.get("rule")) == "wd4":
            line = ruling.get("event")
            if isinstance(line, int) and 1 <= line <= len(events):
                player = events[line - 1].get("player")
                return str(player) if player in names else ""
            return ""
    return ""
