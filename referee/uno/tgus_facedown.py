"""tgus-3's face-down plays, doubts, and the stop of a game that drags on.

A face-down card leaves its player's hand and skips their turn; the face-up
card below still decides what may be played. Until the next action at the
table any other player may call a doubt; the card is then shown (on the
``doubt`` event as ``card`` or by a ``reveal``) and the loser draws
``doubt_penalty`` (4). Plain functions over the state (``s``, ``o``, ``tg``);
:class:`~referee.uno.tgus_game.TgusGame` calls them.
"""

from __future__ import annotations

from ..cards import Card, parse_cards
from ..log import Event
from ..rulings import Ruling
from .calls import close_windows
from .house import doubter, face_down_player
from .plays import card_name, cards_n, hand_points, off_deck, off_deck_text
from .state import Say, UnoState
from .tgus import FaceDown, doubt_loser
from .tgus_presets import TgusOptions
from .tgus_rules import first_action, in_players
from .tgus_state import TgusTrack


def close_face_down(tg: TgusTrack) -> None:
    """The next action at the table closes the doubt window (unless one is open)."""
    if tg.doubter is None:
        tg.face_down = None


def face_down_problem(s: UnoState, o: TgusOptions, tg: TgusTrack, p: int) -> str | None:
    name = s.players[p]
    if not o.face_down:
        return (f"This preset does not use face-down plays, so {name} takes the card "
                "back")
    if s.phase not in ("turn", "drawn") or p != s.turn:
        who = f"{s.players[s.turn]}'s" if s.phase in ("turn", "drawn") else "nobody's"
        return f"It is {who} turn, so {name} takes the face-down card back"
    if s.pending:
        return (f"{name} owes {cards_n(s.pending)}, which a face-down play cannot "
                f"dodge (interpreted), so {name} takes the card back")
    if s.hand_counts[p] <= 1:
        return (f"A face-down play may never be used to go out, so {name} takes the "
                "card back")
    if tg.face_down_left[p] <= 0:
        return (f"{name} has used all {o.face_down} face-down plays of this game, so "
                "the card goes back to the hand")
    return None


def on_face_down(s: UnoState, o: TgusOptions, tg: TgusTrack, ev: Event,
                 say: Say) -> list[Ruling]:
    """``face-down``: a card played face down to skip the turn."""
    p = face_down_player(s, ev)
    _, implied = s.who(ev, p)
    name = s.players[p]
    problem = face_down_problem(s, o, tg, p)
    if problem:
        return [say(ev.index, "illegal", "face-down", problem + ".", player=name,
                    draw=s.pending or None)]
    card = Card.from_label(ev.data["card"]) if "card" in ev.data else None
    if card is not None and off_deck((card,), o.deck) is not None:
        return [say(ev.index, "illegal", "deck", off_deck_text(card, o.deck)
                    + f": {name} takes it back.", player=name)]
    out = first_action(s, o, tg, ev.index, say)
    tg.doubter = None
    out += close_windows(s, o, ev.index, p, True, say)
    tg.failed_challenger = tg.took_draw = None
    s.hand_counts[p] -= 1
    s.discard += 1
    s.phase, s.drawn_card = "turn", None
    if s.hand_counts[p] == 1 and not s.called[p]:
        s.catchable[p] = ev.index
    elif s.hand_counts[p] != 1:
        s.called[p] = False
    tg.face_down_left[p] -= 1
    tg.face_down = FaceDown(p, s.top, s.color, ev.index) if s.top else None
    tg.face_down_card = card
    s.turn = s.step(p, 1)
    note = s.implied_note(p, implied)
    return out + [say(ev.index, "ok", "face-down", f"{name} plays a card face down"
                      f"{note} to skip the turn ({tg.face_down_left[p]} left this "
                      f"game); anyone may doubt it before {s.players[s.turn]} acts.")]


def on_doubt(s: UnoState, o: TgusOptions, tg: TgusTrack, ev: Event,
             say: Say) -> list[Ruling]:
    """``doubt``: a player says a face-down card could have been played."""
    p = doubter(s, ev)
    name = s.players[p]
    if not o.face_down:
        return [say(ev.index, "info", "doubt", "This preset has no face-down plays, so "
                    "there is nothing to doubt.")]
    fd = tg.face_down
    if fd is None or tg.doubter is not None:
        why = ("a doubt is already being settled" if tg.doubter is not None
               else "no face-down card can be doubted now (a doubt must come before "
               "the next player acts)")
        return [say(ev.index, "info", "doubt",
                    f"{name} called doubt, but {why}, so nothing happens.")]
    if p == fd.player:
        return [say(ev.index, "illegal", "doubt",
                    f"{name} cannot doubt their own face-down card.", player=name)]
    if p in s.out:
        return [say(ev.index, "illegal", "doubt", f"{name} is already out of this "
                    "game, so only the players still in may doubt.", player=name)]
    tg.doubter = p
    accused = s.players[fd.player]
    if "card" in ev.data:
        card = Card.from_label(ev.data["card"])
        if off_deck((card,), o.deck) is not None:
            return [say(ev.index, "illegal", "deck", off_deck_text(card, o.deck)
                        + f": {accused} shows the face-down card (reveal).",
                        player=accused)]
        return settle_doubt(s, o, tg, ev.index, card, say)
    if tg.face_down_card is not None:
        return settle_doubt(s, o, tg, ev.index, tg.face_down_card, say)
    return [say(ev.index, "pending", "doubt", f"{name} doubts {accused}'s face-down "
                f"card: {accused} shows it (reveal).", player=accused)]


def settle_doubt(s: UnoState, o: TgusOptions, tg: TgusTrack, index: int, card: Card,
                 say: Say) -> list[Ruling]:
    """The face-down card is known: whoever was wrong draws ``doubt_penalty``."""
    fd, who = tg.face_down, tg.doubter
    assert fd is not None and who is not None
    _, playable = doubt_loser(fd, card, s.players[who])
    loser = who if playable else fd.player
    tg.face_down, tg.doubter, tg.face_down_card = None, None, None
    s.owed[loser] += o.doubt_penalty
    could = "could" if playable else "could not"
    return [say(index, "penalty", "doubt", "The face-down card is the "
                f"{card_name(card)}, which {could} have been played on the "
                f"{card_name(fd.top)} ({fd.color}), so {s.players[loser]} draws "
                f"{o.doubt_penalty}.", player=s.players[loser], draw=o.doubt_penalty,
                doubt={"card": card.label, "playable": playable})]


def doubt_reveal(s: UnoState, o: TgusOptions, tg: TgusTrack, ev: Event,
                 say: Say) -> list[Ruling] | None:
    """A ``reveal`` of the doubted card by its player, or ``None`` for any other."""
    fd = tg.face_down
    by_accused = fd is not None and ev.data.get("player") == s.players[fd.player]
    if tg.doubter is None or fd is None or not by_accused:
        return None
    cards = parse_cards(ev.data.get("cards", []))
    accused = s.players[fd.player]
    bad = off_deck(cards, o.deck)
    if bad is not None:
        return [say(ev.index, "illegal", "deck", off_deck_text(bad, o.deck)
                    + ": show the face-down card again.", player=accused)]
    if len(cards) != 1:
        return [say(ev.index, "illegal", "doubt", "A doubt is settled by showing the "
                    f"one face-down card, not {len(cards)}; show it again.",
                    player=accused)]
    return settle_doubt(s, o, tg, ev.index, cards[0], say)


# -- stop by points --------------------------------------------------------------------
def on_stop(s: UnoState, o: TgusOptions, tg: TgusTrack, ev: Event,
            say: Say) -> list[Ruling]:
    """``stop``: a game that drags on ends by official point scoring (tgus-3)."""
    if not o.stop_by_points:
        return [say(ev.index, "info", "points-end", "This preset does not stop a game "
                    "by points, so play goes on.")]
    if s.phase not in ("turn", "drawn"):
        return [say(ev.index, "info", "points-end", "No round is being played, so "
                    "there is nothing to stop.")]
    tg.stopped = True
    close_face_down(tg)
    s.phase = "scoring"
    s.catchable.clear()
    if s.pending:
        s.owed[s.turn] += s.pending
    s.pending, s.pending_kind = 0, None
    s.round_winner = tg.ranking.order[0] if tg.ranking.order else None
    for q in tg.ranking.order[1:]:
        s.revealed[q] = []
    still = ", ".join(s.players[q] for q in in_players(s))
    return [say(ev.index, "pending", "points-end", "The game is stopped and ends by "
                f"official point scoring: {still} show their hands (reveal).")]


def stopped_all_shown(s: UnoState) -> bool:
    """After a stop: everyone still in has shown and paid; the best hand wins."""
    still = in_players(s)
    if not all(q in s.revealed and not s.owed[q] for q in still):
        return False
    if s.round_winner is None:
        s.round_winner = min(still, key=lambda q: (hand_points(s.revealed[q]), q))
    return True
