"""Plays of the tgus-t game: legality, multi-play, precedence and effects.

A play is checked (turn, matching, multi-play, precedence against a pending
draw, Change / Replace targets) and then applied: Hit cards build the pending
draw, Hit+? waits for turned cards, Skip / Reverse move the turn, Change waits
for its colour, Replace swaps hands, a Gamble acts as the effect it names.
Functions take the game (:class:`referee.tgus_t.game.TgusTReferee`) as first
argument; the game binds ``on_play`` as a method.
"""

from __future__ import annotations

from typing import Any

from referee.cards import COLORS, Card, parse_cards
from referee.game import GameError
from referee.log import Event
from referee.rulings import Ruling, n_of

from .cards import ALL_HIT2, GAMBLE_EFFECTS, HAND2, effect_of
from .common import DECK_LABELS, answers, discard, names
from .context import TgusTReferee
from .counter import after_play, counter
from .table import Chain, ChangeHit, HitX


_DRAW = {"hit2": 2, "reverse-hit2": 2, "wild-hit4": 4}


def _check(
    game: TgusTReferee, player: str, cards: list[Card], effs: list[str], ev: Event
) -> tuple[str, str] | None:
    """Why the play is illegal as (rule, text), or ``None`` when it may stand."""
    t, o = game.t, game.opts
    eff = effs[0]
    if player in t.ranking:
        return "going-out", f"{player} has already gone out and cannot play"
    if len(cards) > 1:
        if not o.multi_play:
            return "multi-play", "this table plays one card at a time"
        if len(set(effs)) > 1:
            return "multi-play", (
                "cards played together must share a number or an "
                f"effect, and {names(cards)} do not"
            )
        wilds = [c for c in cards if c.color is None]
        if eff != "counter" and len(wilds) > 1 and not o.multi_wild:
            return (
                "multi-wild",
                f"{game.prefix} forbids playing several colourless cards at once",
            )
    if eff == ALL_HIT2:
        if not o.all_hit2:
            return "gamble", f"All Hit+2 is no Gamble effect in {game.prefix}"
        if t.hands[player] > 2:
            return "all-hit2", (
                f"a Gamble makes All Hit+2 only from a hand of 2 or fewer "
                f"and {player} holds {t.hands[player]}"
            )
    if eff not in ("counter",) and t.hitx is not None:
        return "hit-x", f"the cards for {t.hitx.player}'s Hit+? must be turned first"
    if eff != "counter" and t.change is not None:
        c = t.change
        return "change", (
            f"{c.chooser} must first name the colour for the Change (or "
            f"{c.target} answers with a Counter)"
        )
    if eff == "counter":
        return None
    if player != t.turn:
        return "turn", f"it is {t.turn}'s turn, not {player}'s"
    if player in t.all_hit_open and o.rank(eff) > 0:
        # 000 §T2: All Hit+2 answers no draw card, and precedence forbids the
        # reverse: a share is drawn or bounced with a Counter, never passed on.
        return "precedence", (
            f"{player} owes a share of the All Hit+2, which only "
            f"{answers(game, o.rank(ALL_HIT2))} may answer; draw the 2 first"
        )
    if t.chain is not None:
        rank = o.rank(eff)
        if rank == 0 or rank < t.chain.rank or eff == ALL_HIT2:
            return "precedence", (
                f"{player} faces a pending draw of {t.chain.amount} of "
                f"rank {t.chain.rank}, which only "
                f"{answers(game, t.chain.rank)} may answer"
            )
        return None
    first = cards[0]
    if not (
        first.color is None
        or t.color is None
        or first.color == t.color
        or t.top_effect == eff
    ):
        return "match", (
            f"{first.label} matches neither the colour {t.color} nor the "
            f"top card {t.top.label if t.top else '-'}"
        )
    if eff in ("change", "replace"):
        target = ev.get("target")
        if target not in t.active() or target == player:
            return eff, (
                f"a {eff.capitalize()} needs a target among the other players "
                f"still in, got {target!r}"
            )
        if eff == "change" and t.hands[target] >= o.change_limit:
            return "change-limit", (
                f"a Change may not target {target}, who holds "
                f"{t.hands[target]} cards ({o.change_limit} or more)"
            )
    return None


def on_play(game: TgusTReferee, ev: Event) -> list[Ruling]:
    """A play: checked against turn, precedence and matching, then its effect."""
    t = game.t
    notes: list[str] = []
    player = game.who(ev, notes)
    note = f" ({notes[0]})" if notes else ""
    cards = parse_cards(ev.get("cards"))
    if not cards:
        raise GameError("a play needs at least one card")
    for card in cards:
        if card.label not in DECK_LABELS:
            return [
                game.ruling(
                    ev.index,
                    "illegal",
                    "deck",
                    f"{card.label} is no card of the 東幻符闘祭 deck: take it "
                    f"back{note}.",
                )
            ]
    color = ev.get("color")
    if color is not None and color not in COLORS:
        raise GameError(f"color must be one of {', '.join(COLORS)}, got {color!r}")
    named = ev.get("effect")
    if any(c.value == "gamble" for c in cards):
        if named is None:
            named = "wild"
        allowed = GAMBLE_EFFECTS + ((ALL_HIT2,) if game.opts.all_hit2 else ())
        if named not in allowed:
            return [
                game.ruling(
                    ev.index,
                    "illegal",
                    "gamble",
                    f"A Gamble cannot act as {named!r} in {game.prefix} (it may "
                    f"be {', '.join(allowed)}): take it back{note}.",
                )
            ]
    effs = [effect_of(c, named) for c in cards]
    problem = _check(game, player, cards, effs, ev)
    if problem:
        rule, why = problem
        return [
            game.ruling(
                ev.index,
                "illegal",
                rule,
                f"{player} played {names(cards)} but {why}: take it back" f"{note}.",
                player=player,
            )
        ]
    if effs[0] == "counter":
        return counter(game, ev, player, cards, color, note)
    out: list[Ruling] = []
    eff = effs[0]
    discard(game, player, cards, eff, color, out, ev)
    text, extra = _effect(game, ev, player, cards, eff, out)
    kind = (
        "pending"
        if t.chain or t.hitx or t.change or t.awaiting_color or eff == ALL_HIT2
        else "ok"
    )
    chain = t.chain
    rule = (
        "precedence"
        if chain and chain.source == player
        else "hit-x"
        if t.hitx
        else eff
        if eff in ("change", "replace", "all-hit2")
        else "gamble"
        if cards[0].value == "gamble"
        else "play"
    )
    ruling = game.ruling(
        ev.index,
        kind,
        rule,
        f"{player} plays {names(cards)}: {text}{note}.",
        player=chain.target if chain else None,
        draw=chain.amount if chain else None,
        **extra,
    )
    out.insert(0, ruling)
    after_play(game, ev, player, out)
    return out


def _effect(
    game: TgusTReferee,
    ev: Event,
    player: str,
    cards: list[Card],
    eff: str,
    out: list[Ruling],
) -> tuple[str, dict[str, Any]]:
    """Apply a play's effect to turn, direction and draws; describe it."""
    t, o = game.t, game.opts
    n = len(cards)
    if eff in _DRAW:
        if eff == "reverse-hit2" and n % 2:
            t.direction = -t.direction
        base = t.chain.amount if t.chain else 0
        target = t.next(player)
        t.chain = Chain(base + _DRAW[eff] * n, target, o.rank(eff), player)
        t.turn = target
        return (
            f"{target} must draw {t.chain.amount} or answer with "
            f"{answers(game, t.chain.rank)}"
        ), {}
    if eff == "wild-hit-x":
        base = t.chain.amount if t.chain else 0
        target = t.next(player)
        t.chain = None
        t.hitx = HitX(player, base, target, n)
        t.turn = target
        return f"turn {n} card{'s' * (n > 1)} from the pile for the Hit+?", {}
    if eff == "skip":
        t.turn = t.next(player, 1 + n)
        return f"{n} player{'s' * (n > 1)} skipped, {t.turn} plays next", {}
    if eff == "reverse":
        skips = 0
        for _ in range(n):
            if len(t.active()) == 2:
                skips += 1
            else:
                t.direction = -t.direction
        t.turn = t.next(player, 1 + skips)
        return f"play turns round, {t.turn} plays next", {}
    if eff == "change":
        target = ev.get("target")
        t.change = ChangeHit(player, target, target)
        t.turn = t.next(player)
        return (
            f"{target} names the colour and has their hand changed, unless they "
            "answer with a Counter"
        ), {}
    if eff == "replace":
        target = ev.get("target")
        t.turn = t.next(player)
        if not t.hands[player]:
            return f"{player} goes out on it, so there is no swap", {}
        t.hands[player], t.hands[target] = t.hands[target], t.hands[player]
        return (
            f"{player} and {target} swap hands (the project's reading of 000), "
            f"{t.turn} plays next"
        ), {}
    if eff == HAND2:
        t.turn = t.next(player)
        left = t.hands[player]
        if not left:
            return f"{player} goes out on it, {t.turn} plays next", {}
        if left >= 2:
            t.hands[player] = 2
            t.pile += left - 2
            what = f"puts {n_of(left - 2, 'card')} under the pile and keeps 2"
        else:
            what = game.owe(player, 2 - left)
        return (
            f"{player}'s hand becomes two cards ({player} {what}; the project's "
            f"reading of 000's 手札を二枚にする), {t.turn} plays next"
        ), {}
    if eff == ALL_HIT2:
        others = [p for p in t.active() if p != player]
        texts = [game.owe(p, 2) for p in others]
        t.all_hit_open = set(others)
        t.all_hit_source = player
        t.turn = t.next(player)
        return (
            f"All Hit+2: {', '.join(texts)}, unless they answer with a Counter, "
            f"which sends the 2 back to {player}"
        ), {}
    t.turn = t.next(player)
    return f"{t.turn} plays next", {}
