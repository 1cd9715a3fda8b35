"""TGUS-TGC-UNO rules (seed 000) as plain functions over the state.

Each function takes the uno state ``s``, the options ``o``, the TGUS part of
the state ``tg`` (:class:`~referee.uno.tgus_state.TgusTrack`) and ``say`` (the
game's ``ruling``), and returns rulings; :class:`~referee.uno.tgus_game.TgusGame`
calls them from the steps it overrides. Face-down plays, doubts and the stop
by points live in :mod:`.tgus_facedown`; the pure value functions (rankings,
success weight) in :mod:`.tgus`. Rules: docs/rules-tgus.md.
"""

from __future__ import annotations

from typing import Any

from ..cards import Card, parse_cards
from ..game import GameError
from ..log import Event, Header
from ..rulings import Ruling
from .house import direction_of, reporter
from .plays import card_name, cards_n, cards_name, hand_points
from .state import Say, UnoState
from .tgus import (Ranking, effective_value, finishes_on_number, next_hand_sizes,
                   ordinal, picture_only)
from .tgus_presets import TgusOptions
from .tgus_state import TgusTrack


def in_players(s: UnoState) -> list[int]:
    """Players still holding cards this round, in seat order."""
    return [q for q in range(s.n) if q not in s.out]


# -- round start, hand sizes, direction ------------------------------------------------
def header_hand_sizes(s: UnoState, header: Header, say: Say) -> list[Ruling]:
    """The header's ``hand_sizes`` (per-player hands of the first deal)."""
    sizes = header.data.get("hand_sizes")
    if sizes is None:
        return []
    if not isinstance(sizes, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0
            for v in sizes.values()):
        raise GameError(f"header 'hand_sizes' must map players to positive whole "
                        f"numbers, got {sizes!r}")
    unknown = [k for k in sizes if k not in s.players]
    s.start_sizes = [sizes.get(p, s.hand_size) for p in s.players]
    if unknown:
        return [say(0, "info", "hand-size", f"The header's hand_sizes name "
                    f"{', '.join(unknown)}, who do not play, so those entries are "
                    "ignored.")]
    return []


def new_round(s: UnoState, o: TgusOptions, tg: TgusTrack, index: int,
              say: Say) -> list[Ruling]:
    """Reset the round's TGUS record; note a hand above ``hand_size_max``."""
    tg.ranking = Ranking(tuple(range(s.n)))
    tg.face_down_left = [o.face_down] * s.n
    tg.direction_set = tg.acted = tg.stopped = False
    tg.face_down = tg.doubter = tg.failed_challenger = tg.took_draw = None
    biggest = max(s.hand_counts)
    if o.hand_size_max and biggest > o.hand_size_max and s.round == 1:
        return [say(index, "info", "hand-size", f"A hand of {biggest} cards is more "
                    f"than this preset's {o.hand_size_max}, but the game is refereed "
                    "with it.")]
    return []


def first_action(s: UnoState, o: TgusOptions, tg: TgusTrack, index: int,
                 say: Say) -> list[Ruling]:
    """Note a round whose first action comes without a recorded direction."""
    if tg.acted or s.phase not in ("turn", "drawn"):
        return []
    tg.acted = True
    if o.direction_rps and not tg.direction_set:
        return [say(index, "info", "direction", "No rock-paper-scissors result for the "
                    "direction was logged, so play goes clockwise (interpreted: the "
                    "seed names no default).")]
    return []


def on_direction(s: UnoState, o: TgusOptions, tg: TgusTrack, ev: Event,
                 say: Say) -> list[Ruling]:
    """``direction``: the rock-paper-scissors result before the first play."""
    direction = direction_of(ev)
    if not o.direction_rps:
        return [say(ev.index, "info", "direction", "This preset does not choose the "
                    "direction by rock-paper-scissors, so the direction event is "
                    "ignored.")]
    if s.phase in ("setup", "restart"):
        return [say(ev.index, "info", "direction", "No first card has been turned yet, "
                    "so the direction is not recorded; log it after the start event.")]
    if s.phase not in ("turn", "drawn") or tg.acted:
        return [say(ev.index, "illegal", "direction", "The direction is chosen before "
                    "the round's first play, so this late choice is ignored and play "
                    "goes on as it was.")]
    first = s.turn
    way = "clockwise" if direction == 1 else "counter-clockwise"
    winner, _ = s.who(ev, None, key="winner")
    s.direction = direction
    tg.direction_set = True
    names = s.players
    if winner is not None and winner not in (s.step(first, 1), s.step(first, -1)):
        return [say(ev.index, "info", "direction", f"{names[winner]} is not a "
                    f"neighbour of the first player {names[first]}, who should play "
                    "rock-paper-scissors, but the direction is taken as logged: play "
                    f"goes {way}.")]
    by = (f"{names[winner]} won rock-paper-scissors, so " if winner is not None
          else "By rock-paper-scissors ")
    return [say(ev.index, "ok", "direction",
                f"{by}play goes {way}, starting with {names[first]}.")]


# -- plays -----------------------------------------------------------------------------
def all_mighty_problem(s: UnoState, o: TgusOptions, tg: TgusTrack, ev: Event,
                       cards: list[Card]) -> str | None:
    """Why an all-mighty white wild may not be played so; records what it acts as."""
    if len(cards) > 1:
        return "A white wild is played on its own in this preset"
    try:
        value = effective_value(cards[0], ev.data.get("as"), "all-mighty")
    except ValueError as exc:
        return f"{str(exc)[0].upper()}{str(exc)[1:]}"
    if s.pending and (s.pending_kind, value) not in o.stack_table():
        return (f"A white wild acting as {value} cannot answer the "
                f"{cards_n(s.pending)} owed")
    tg.as_value = value
    return None


def downpour(s: UnoState, o: TgusOptions, tg: TgusTrack, p: int, k: int) -> str:
    """The white wild as a Wild Downpour: every other player draws."""
    tg.downpour = [q for q in in_players(s) if q != p]
    for q in tg.downpour:
        s.owed[q] += o.downpour_draw * k
    s.turn = s.step(p, 1)
    return (f"every other player draws {o.downpour_draw * k}; it is "
            f"{s.players[s.turn]}'s turn.")


def downpour_rulings(s: UnoState, tg: TgusTrack, index: int, say: Say) -> list[Ruling]:
    return [say(index, "penalty", "white-wild", "The white wild is a Wild Downpour: "
                f"{s.players[q]} draws {s.owed[q]} now (interpreted: H2O's Downpour "
                "Draw 2, not to be passed on).", player=s.players[q], draw=s.owed[q])
            for q in tg.downpour]


def finish_fines(s: UnoState, o: TgusOptions, tg: TgusTrack,
                 p: int) -> list[tuple[str, int, str]]:
    """Why ``p``, who played their last cards, is not out: (rule, cards, reason)."""
    cards, name = tg.play_cards, s.players[p]
    fines: list[tuple[str, int, str]] = []
    if o.picture_leftover and cards and picture_only(cards):
        n = o.picture_leftover_draw
        fines.append(("picture-leftover", n, f"{name} went out on picture cards only, "
                      f"so {name}'s hand held no number card and should have drawn {n} "
                      "at a time (interpreted: the cards stay played, "
                      f"{name} is not out and draws {n})"))
    elif o.number_finish and not finishes_on_number(cards):
        fines.append(("number-finish", o.number_finish, f"{name} must go out on a "
                      f"number card, so the {cards_name(cards)} stay played, {name} is "
                      f"not out and draws {o.number_finish} and play continues "
                      "(interpreted: the cards keep their effect)"))
    if o.multi_out_penalty and len(cards) > 1 and not tg.play_called:
        fines.append(("multi-out", o.multi_out_penalty, f"{name} went out with "
                      f"{len(cards)} cards without calling UNO first, so {name} is not "
                      f"out and draws {o.multi_out_penalty} (interpreted: the cards "
                      "stay played)"))
    return fines


def fined_out(s: UnoState, index: int, p: int, text: str, tail: str,
              fines: list[tuple[str, int, str]], say: Say) -> list[Ruling]:
    """The play stands, ``p`` is not out and draws each fine."""
    if s.pending:
        rule = "draw2" if s.pending_kind == "draw2" else "wd4"
        first = say(index, "pending", rule, f"{text}: {s.players[s.turn]} draws "
                    f"{s.pending} and loses the turn unless they pass it on{tail}.",
                    player=s.players[s.turn], draw=s.pending)
    else:
        first = say(index, "ok", "match", f"{text}; it is {s.players[s.turn]}'s turn.")
    out = [first]
    for rule, count, why in fines:
        s.owed[p] += count
        out.append(say(index, "penalty", rule, why + ".", player=s.players[p],
                       draw=count))
    return out


def rank_out(s: UnoState, tg: TgusTrack, index: int, p: int, text: str, tail: str,
             say: Say) -> list[Ruling]:
    """``p`` is out in a place; the round ends when one player is left."""
    place = tg.ranking.finish(p)
    s.out.add(p)
    s.called[p] = False
    s.catchable.pop(p, None)
    names = s.players
    left = [names[q] for q in in_players(s)]
    head = (f"{text}, {names[p]}'s last card: {names[p]} is out in {ordinal(place)} "
            "place")
    if len(left) >= 2:
        if s.turn == p:
            s.turn = s.step(p, 1)
        owe = (f"{names[s.turn]} draws {s.pending} or passes it on"
               if s.pending else f"it is {names[s.turn]}'s turn")
        return [say(index, "ok", "ranking", f"{head} and play goes on with "
                    f"{', '.join(left)}: {owe}.", place=place)]
    last = in_players(s)[0]
    winner = tg.ranking.order[0]
    s.round_winner, s.phase = winner, "scoring"
    s.catchable.clear()
    for q in tg.ranking.order:
        if q != winner:
            s.revealed[q] = []
    if s.pending:
        s.owed[last] += s.pending
    s.pending, s.pending_kind = 0, None
    owes = f" draws the {cards_n(s.owed[last])} owed and" if s.owed[last] else ""
    return [say(index, "pending", "ranking", f"{head} and only {names[last]} is left, "
                f"so round {s.round} is over: {names[last]}{owes} shows their hand "
                f"(reveal) for scoring{tail}.", player=names[last],
                draw=s.owed[last] or None, place=place)]


# -- scoring ---------------------------------------------------------------------------
def round_extra(s: UnoState, o: TgusOptions,
                tg: TgusTrack) -> tuple[str, dict[str, Any]]:
    """The ranking and the next game's hands (success weight) of a finished round."""
    winner = s.round_winner
    points = {q: hand_points(s.revealed.get(q, [])) for q in in_players(s)}
    order = tg.ranking.full(points)
    if winner is not None and order[0] != winner:
        order.remove(winner)
        order.insert(0, winner)
    ranking = [s.players[q] for q in order]
    if winner is not None:
        tg.wins[winner] += 1
    extra: dict[str, Any] = {"ranking": ranking}
    if o.success_weight == "none":
        return "", extra
    sizes = next_hand_sizes(
        s.players, s.hand_size, o.success_weight, ranking=ranking,
        wins=dict(zip(s.players, tg.wins)), points=dict(zip(s.players, s.scores)),
        target=o.target if o.scoring == "international" else None)
    s.start_sizes = [sizes[n] for n in s.players]
    tg.next_sizes = sizes
    extra["next_hand_sizes"] = sizes
    how = (" (interpreted: +3/+2/+1 for 1st/2nd/3rd)" if o.success_weight == "rank"
           else "")
    tail = f"; next game's hands (success weight{how}): " + ", ".join(
        f"{n} {c}" for n, c in sizes.items())
    return tail, extra


# -- reports ---------------------------------------------------------------------------
def on_picture_leftover(s: UnoState, o: TgusOptions, ev: Event,
                        say: Say) -> list[Ruling]:
    """``picture-leftover``: a hand of picture cards only draws ``n`` at a time."""
    p = reporter(s, ev)
    name = s.players[p]
    if not o.picture_leftover:
        return [say(ev.index, "info", "picture-leftover", "This preset has no forced "
                    "draw for a hand of picture cards, so the report changes nothing.")]
    if s.phase not in ("turn", "drawn", "challenge") or p in s.out:
        return [say(ev.index, "info", "picture-leftover", f"{name} is not playing a "
                    "hand now, so the report changes nothing.")]
    shown = parse_cards(ev.data["cards"]) if "cards" in ev.data else []
    numbers = [c for c in shown if c.is_number]
    if numbers:
        return [say(ev.index, "info", "picture-leftover", "The hand shown holds the "
                    f"{card_name(numbers[0])}, a number card, so {name} does not have "
                    "to draw.")]
    n = o.picture_leftover_draw
    s.owed[p] += n
    return [say(ev.index, "penalty", "picture-leftover", f"{name}'s hand holds only "
                f"picture cards, so {name} draws {n} now, and {n} more each time no "
                "number card comes (report again).", player=name, draw=n)]
