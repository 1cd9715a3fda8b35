"""Who called? Attributing a heard UNO call to a player from the referee's state.

A microphone hears "UNO" but not who said it. The referee's state says who can be
calling: the player who just went down to one card, or the player whose turn it is
and who holds two cards and is about to play the second-to-last one (the camera may
not have seen that play yet). In order:

1. a player the referee lists as ``catchable`` (went down to one card without
   calling; the catch window is still open) and who has not called yet; with several,
   the one who played last;
2. the player whose turn it is, holding two cards, who has not called yet; or,
   when that player has drawn (and is about to pass), the next player holding
   two cards;
3. the player who played last (the one before ``turn`` in play order), holding one
   card, who has not called yet.

Anything else (nobody near one card, or only players who already called) is
unattributable: no event, and a reason for the log. The same player heard twice
within :data:`REPEAT_SECONDS` (an echo, or the table repeating the call) counts
once.

A likely call (heard only by the listener's lower decision,
:attr:`voice.detection.SpotterConfig.likely_cut_threshold`) counts only for a
player who went down to one card by a play at most :data:`LIKELY_PLAY_S`
seconds from it (:class:`DownClock`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

REPEAT_SECONDS = 4.0
#: seconds of the game clock between a likely UNO call (heard only by the
#: listener's lower decision, :attr:`voice.detection.SpotterConfig.likely_cut_threshold`)
#: and the play that leaves its caller with one card (before or after it)
#: within which the call counts (:class:`DownClock`); the default of the
#: config field ``listen.likely_play_s``
LIKELY_PLAY_S = 2.0
#: seconds after a wild was first seen waiting for its colour during which a heard
#: colour may still name it (later, the colour is left to the next card played):
#: the default of the config field ``listen.colour_after_s``
#: (``vision.config.ListenConfig``), which a caller passes as ``after``
COLOUR_AFTER = 6.0


@dataclass(frozen=True)
class Attribution:
    """The answer: a player, or None with the reason.

    Attributes:
        player: who called, or None when the call cannot be attributed.
        reason: one sentence saying why (shown in the log).
    """

    player: str | None
    reason: str


def _players(state: Mapping[str, Any]) -> list[str]:
    players = state.get("players")
    if isinstance(players, Sequence) and not isinstance(players, str) and players:
        return [str(p) for p in players]
    counts = state.get("hand_counts")
    return [str(p) for p in counts] if isinstance(counts, Mapping) else []


def previous_player(state: Mapping[str, Any]) -> str | None:
    """The player before ``turn`` in the current direction (who played last)."""
    players = _players(state)
    turn = state.get("turn")
    if turn not in players:
        return None
    step = -1 if int(state.get("direction", 1) or 1) > 0 else 1
    return players[(players.index(turn) + step) % len(players)]


def next_player(state: Mapping[str, Any]) -> str | None:
    """The player after ``turn`` in the current direction (who plays next)."""
    players = _players(state)
    turn = state.get("turn")
    if turn not in players:
        return None
    step = 1 if int(state.get("direction", 1) or 1) > 0 else -1
    return players[(players.index(turn) + step) % len(players)]


def attribute(state: Mapping[str, Any], recent: Sequence[Mapping[str, Any]] = (),
              now: float | None = None) -> Attribution:
    """Decide which player a heard call belongs to.

    Args:
        state: the referee's state (``hand_counts``, ``turn``, ``direction``, and
            ``players``, ``uno`` (players who already called) and ``catchable`` when
            the game reports them).
        recent: recent events, oldest first; ``uno`` events with a ``t`` within
            :data:`REPEAT_SECONDS` of ``now`` mark a player as already heard.
        now: the time of the call on the same clock as the events' ``t``.

    Returns:
        The player, or None with the reason.
    """
    counts = state.get("hand_counts")
    if not isinstance(counts, Mapping) or not counts:
        return Attribution(None, "heard a call but the referee knows no hands yet")
    counts = {str(p): c for p, c in counts.items()}
    called = {str(p) for p in state.get("uno") or ()}
    for ev in reversed(recent):
        if ev.get("type") != "uno" or ev.get("player") is None:
            continue
        t = ev.get("t")
        if now is None or t is None or abs(now - float(t)) <= REPEAT_SECONDS:
            called.add(str(ev["player"]))

    def open_(p: str | None) -> bool:
        return p is not None and p not in called

    turn = state.get("turn")
    turn = str(turn) if turn is not None else None
    prev = previous_player(state)
    catchable = [str(p) for p in state.get("catchable") or () if open_(str(p))]
    if catchable:
        player = prev if prev in catchable else catchable[-1]
        return Attribution(player, f"{player} went down to one card and had not called")
    if open_(turn) and counts.get(turn) == 2:
        return Attribution(turn, f"it is {turn}'s turn with two cards: the call comes "
                                 "with the next-to-last card")
    after = next_player(state)
    if state.get("phase") == "drawn" and open_(after) and counts.get(after) == 2:
        return Attribution(after, f"{turn} drew and is passing, so {after} plays "
                                  "next, with two cards")
    if open_(prev) and counts.get(prev) == 1:
        return Attribution(prev, f"{prev} played last and holds one card")
    near = sorted(p for p, c in counts.items() if c in (1, 2))
    if not near:
        return Attribution(None, "heard a call but no player holds one or two cards")
    if all(p in called for p in near):
        return Attribution(None, f"heard a call but {', '.join(near)} already called")
    return Attribution(None, "heard a call but neither the player to move nor the one "
                             f"who just played is down to their last cards "
                             f"({', '.join(near)} hold one or two)")


def attribute_colour(state: Mapping[str, Any], colour: str) -> Attribution:
    """Who named a heard colour: the player of the wild on top that waits for one.

    A wild played in turn has moved the turn on, so its player is the one before
    ``turn`` (:func:`previous_player`); a wild turned as the first card of a round
    (one card on the discard pile) is named by the player to move; a wild that
    won the round (no one to move) by the round's winner. A colour heard
    when no wild waits for one (table talk, a colour already named) is
    unattributable: no event.
    """
    top = str(state.get("top") or "")
    if not top.startswith("wild"):
        return Attribution(None, f"heard {colour} but no wild is on top")
    if state.get("color"):
        return Attribution(None, f"heard {colour} but the {top}'s colour is already "
                                 f"{state['color']}")
    turn = state.get("turn")
    if turn is None:
        winner = state.get("round_winner")
        if winner is not None:
            # the wild was the round's last card: its player went out and names it
            return Attribution(str(winner), f"{winner} went out with the {top}")
        return Attribution(None, f"heard {colour} but no one is to move")
    if state.get("discard_pile") == 1:
        return Attribution(str(turn), f"the {top} was turned first; {turn} names it")
    player = previous_player(state)
    if player is None:
        return Attribution(None, f"heard {colour} but the referee names no players")
    return Attribution(player, f"{player} played the {top}")


def waiting_wild(state: Mapping[str, Any]) -> tuple[str, Any] | None:
    """The wild on top that waits for its colour, as ``(card, discard pile size)``
    (another wild played later is another key), or None when none waits."""
    top = str(state.get("top") or "")
    if not top.startswith("wild") or state.get("color"):
        return None
    return top, state.get("discard_pile")


class WildClock:
    """When the wild now waiting for its colour was first seen, on the game
    clock: a colour heard more than :data:`COLOUR_AFTER` seconds later does not
    name it (the gate's window; :func:`attribute_colour` is the gate's state).

    Call :meth:`observe` with the referee's state as the game goes on (the
    listener does, every chunk of audio and before judging a colour).
    """

    def __init__(self, after: float = COLOUR_AFTER) -> None:
        self.after = after
        self.key: tuple[str, Any] | None = None
        self.since: float | None = None

    def observe(self, state: Mapping[str, Any], now: float) -> None:
        key = waiting_wild(state)
        if key != self.key:
            self.key, self.since = key, (None if key is None else now)

    def too_late(self, t: float) -> str | None:
        """Why a colour heard at ``t`` comes too late for the waiting wild, or None."""
        if self.since is not None and t > self.since + self.after:
            return (f"heard {t - self.since:.1f} s after the {self.key[0]} was seen "
                    f"(a colour names it within {self.after:g} s)")
        return None


class DownClock:
    """When each player last went down to one card by a play (holding two or
    more cards before it), on the game clock: a likely UNO call counts only
    for a player who did so close to the call (:data:`LIKELY_PLAY_S`).

    Call :meth:`observe` with the referee's state as the game goes on (the
    microphone's listener does, every chunk of audio; ``vision.hearing``, at
    each camera event of a recording heard beside a video).
    """

    def __init__(self) -> None:
        self.counts: dict[str, Any] = {}
        #: player -> when they last went down to one card
        self.at: dict[str, float] = {}

    def observe(self, state: Mapping[str, Any], now: float) -> None:
        counts = state.get("hand_counts")
        if not isinstance(counts, Mapping):
            return
        counts = {str(p): c for p, c in counts.items()}
        for p, c in counts.items():
            before = self.counts.get(p)
            if c == 1 and isinstance(before, int) and before >= 2:
                self.at[p] = now
        self.counts = counts

    @classmethod
    def read(cls, referee: Any,
             when: Callable[[Mapping[str, Any]], float | None],
             observe: Callable[[Mapping[str, Any], float], Any] | None = None,
             ) -> "DownClock":
        """Who went down to one card and when, read again from a game's log
        (``referee``: a :class:`referee.session.Referee` holding it) as if it
        had been observed from the game's start (a server started again on a
        stored game, a new game on a running one): the log is replayed on a
        referee of its own, and after each line that ``when`` places on the
        hearer's clock (its time there; ``None``: a line of no time on it)
        the state is observed at that time, by this clock and by ``observe``
        (a :class:`WildClock`'s: when a wild began to wait for its colour).
        ``vision.hearing.Hearing.rebuild`` places the camera's lines of a
        recording; :func:`voice.bridge.listen_into`'s listener the lines its
        own clock holds (none of a microphone's, whose clock starts with it)."""
        from referee.log import LogError
        from referee.session import Referee

        replay = Referee(referee.header)
        out = cls()
        for event in list(referee.events):
            try:
                replay.append(event)
            except LogError:  # the store holds checked lines; tolerant anyway
                continue
            t = when(event)
            if t is None:
                continue
            state = replay.state()
            out.observe(state, t)
            if observe is not None:
                observe(state, t)
        return out

    def near(self, player: str, t: float, within: float = LIKELY_PLAY_S) -> bool:
        """Whether ``player`` went down to one card at most ``within`` seconds
        from ``t`` (before or after)."""
        at = self.at.get(str(player))
        return at is not None and abs(at - t) <= within
