"""Hands-free refereeing: the camera's events completed from the referee's state.

At a real table nobody clicks "pass" or names who played. The pipeline sees
cards land and arms reach; :func:`complete` turns one camera event into the
events the table log needs, given the referee's state just before it (the
live table and ``serve`` call it for every camera event):

- **Who played**: a ``play`` or ``draw`` belongs to the seat whose arm made it
  (``reach_from``): ``player`` is written from the reach and
  ``"player_from": "reach"``. A play from a seat whose turn it is not is then
  ruled by the referee as what it is (out of turn, or a jump-in where the
  options allow it). An arm that could not be attributed leaves ``player`` out
  (the referee takes the player whose turn it is and says so) and the event
  says ``"player_from": "turn"``.
- **Passes**: the player to move drew (the referee's phase is ``drawn``) and
  the next seat now plays or draws: the drawer passed. A ``pass`` event for
  them goes before it, marked ``"inferred": "<why>"``.
- **Twins the camera missed**: the player to move has not drawn, their arm
  reached onto the discard pile since the last play seen (the pipeline's
  ``pile_reaches`` on each play and draw), and the seat a copy of the top card
  would hand the turn to now plays or draws (for a Draw Two or Wild Draw Four:
  the next seat draws what it owes): they put that copy on it (the pile
  cannot tell a twin from the card below). A ``play`` of the top card for them
  goes before it, marked ``"inferred"`` (a wild's colour then from the play);
  likewise for the seat after a player who drew, the drawer's pass first.
- **A last card the camera missed**: a hand is shown (a camera ``reveal`` of
  another seat) while the player to move holds one card, has not drawn, owes
  nothing, and reached onto the discard pile since the last play seen (the
  pipeline puts ``pile_reaches`` on reveals too): they went out with a copy of
  the top card (:func:`_went_out`). A ``play`` of it goes before the reveal,
  marked ``"inferred"``.
- **A copy right after a draw**: the player who has just drawn puts down a
  copy of the top card (:func:`doubtful_twin`), which is also what the pile
  reports when the drawing arm moved the top card's box: :class:`HandsFree`
  holds it until the camera's next move, which sets it aside or lets it stand
  (``watch``'s live table and ``serve``'s camera both keep one). A copy the
  pile saw coming in from a hand, or one the top card's pixels are sure lies
  on it (``"carried_in"``) is a second card: ruled at once.
- **Draw-card debts**: the player to move still owes cards of a Draw Two or
  Wild Draw Four (the camera saw fewer taken, or none) and the next seat plays
  or draws: the debt was paid. A ``draw`` of what is owed goes before it,
  marked ``"inferred"``.
- **A draw that settles a held copy**: the pipeline raises a ``draw`` that
  counted fewer takes than the player owes to what they owe (a player cannot
  take fewer; :mod:`vision.plays`), reading the referee's state as the takes
  end. While a copy is held that state is older than the one the draw is
  ruled in: the copy stands first and can hand the turn to the drawer with a
  Draw Two's or Wild Draw Four's cards owed. :meth:`HandsFree.complete`
  raises the draw of the player to move that settled a copy that stood to
  what they owe then (the camera's count kept in ``takes``).
- **Wild colours**: a wild lies on top with no colour named and the next play
  is a coloured card: only that card's colour makes it legal, so a ``color``
  event goes before it, marked ``"inferred"``. A wild on a wild says nothing
  about the colour; the play then carries a ``question``.
- **Questions**: where the evidence cannot decide (the camera saw a seat play
  out of turn that is not the next after a draw: a play or a draw may have been
  missed; an unnamed wild's colour that no play showed), the camera's event
  carries ``"question": "<what to ask>"`` for the page or a person to settle,
  ``"question_msg"`` (the same question as :mod:`referee.text` data, said in
  the viewer's language) and ``"answers"``: the choices, each
  ``{"id", "label", "do"}`` with ``label`` a message and ``do`` the one
  correction to the log that answer makes (``insert`` its ``event`` before
  the question's line, ``keep`` the line as logged without its question,
  ``delete`` the line). The referee holds the event until it is answered
  (``Game.ask``); the page offers the answers as buttons (``web.questions``).
- **A round that went on**: the referee's count emptied a player's hand (a
  draw the camera missed or the referee refused, a card read twice: their
  count ran short) and ruled the round won, but no hand is shown and the
  camera's plays keep landing. :func:`went_on` reads the round again from
  that line: a ``draw`` of one card for that player goes before their play,
  marked ``"inferred"``, and every event after it is completed again from
  the state it now gives (passes, twins, colours, a copy held for the next
  move). It is kept when at least ``play.went_on_plays`` of the camera's
  plays after it are then ruled legal (:class:`vision.live.LiveTable` tries
  it on each camera event once as many came and no hand was shown; a count
  short by more is read again at its next false end the same way).
- **A question the table answered**: a play from the seat after the player
  to move, who had not drawn, is asked about (out of turn, or their draw and
  pass missed?); when it and the camera plays after it, ``play.went_on_plays``
  of them, are legal once that draw is inferred and none asks again,
  :func:`answered` reads the log again with the draw (``LiveTable`` tries it
  on each camera event after the question).
- Every ``inferred`` reason has its message beside it (``inferred_msg``). The
  messages are defined in :mod:`referee.camera_text`.

Only events with ``"source": "vision"`` are completed: what a person said or
clicked is taken as given. The function is pure: state in, events out.

A tgus-t1/tgus-t2 table (the 東幻符闘祭 deck, whose referee states what it waits
for rather than a ``phase``) takes a path of its own, :func:`complete_tgus_t`
(cards turned for a Hit+?, colours, targets, picture leftovers; passes with the
memory of :class:`TgusTHandsFree`), in :mod:`vision.handsfree_tgus_t`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping

from referee import camera_text as say
from referee.session import Referee
from referee.text import Text, color as color_text, define

from .handsfree_common import COLOURS, colour as _colour
from .handsfree_common import inferred as _inferred
from .handsfree_common import player_from_reach as _player_from_reach
from .handsfree_tgus_t import TgusTHandsFree, complete_tgus_t, is_tgus_t, split_play
from .plays import owed_in

_IN_PLAY = ("turn", "drawn")


def _next_seat(state: Mapping[str, Any], player: str) -> str | None:
    players = list(state.get("players") or [])
    if player not in players:
        return None
    step = 1 if int(state.get("direction") or 1) >= 0 else -1
    return players[(players.index(player) + step) % len(players)]


def complete(
    event: Mapping[str, Any], state: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The events to append for one camera ``event``, in order (it comes last).

    Args:
        event: an event from the pipeline (others are returned unchanged).
        state: the referee's full state before it (``Referee.state()``).

    Returns:
        Inferred events (``pass``, ``color``), then the event itself with
        ``player``/``player_from`` and any ``question`` filled in.
    """
    if event.get("type") == "reveal" and "pile_reaches" in event:
        ev = dict(event)
        reached = ev.pop("pile_reaches")
        if ev.get("source") != "vision" or is_tgus_t(state):
            return [ev]
        out = _went_out(ev, state, reached)
        return ([out] if out is not None else []) + [ev]
    if is_tgus_t(state):  # the 東幻符闘祭 deck's referee: its own path
        return complete_tgus_t(event, state)
    ev = dict(event)
    if ev.get("source") != "vision" or ev.get("type") not in ("play", "draw"):
        return [ev]
    reached = ev.pop("pile_reaches", None)
    _player_from_reach(ev, list(state.get("players") or []))
    phase, turn = state.get("phase"), state.get("turn")
    if phase not in _IN_PLAY or turn is None:
        return [ev]
    who = ev.get("player", turn)
    out: list[dict[str, Any]] = []
    stamp = {k: ev[k] for k in ("t",) if k in ev}
    acted = "played" if ev["type"] == "play" else "drew"
    owed = _penalty_taken(state, who, turn, phase)
    if owed is not None:
        out.append({**owed, "source": "vision", **stamp})
    elif who != turn:
        nxt = _next_seat(state, turn)
        drawn = phase == "drawn" and nxt is not None
        if drawn and who == nxt:
            out.append(_pass(turn, who, acted == "played", stamp))
        elif not (ev["type"] == "play" and _jump_in(ev, state)):
            if drawn:  # the drawer passed and the next seat put down a twin?
                twin = _missed_twin({**state, "turn": nxt, "phase": "turn"}, who,
                                    str(nxt), "turn", reached, ev["type"])
                if twin is not None:
                    out.append(_pass(turn, str(nxt), True, stamp))
            else:
                twin = _missed_twin(state, who, turn, phase, reached, ev["type"])
            if twin is not None:
                out.append({**twin, "source": "vision", **stamp})
                named = _colour(str((ev.get("cards") or [ev.get("card")])[0] or ""))
                if twin["cards"] == ["wild"] and named and ev["type"] == "play":
                    why = say.inferred_colour(str(ev["cards"][0]), "wild", named)
                    out.append(_inferred("color", why, stamp, color=named))
            elif ev["type"] == "play":
                _ask(ev, say.out_of_turn_question(who, turn),
                     _out_of_turn_answers(state, who, turn, phase))
    top = str(state.get("top") or "")
    if ev["type"] == "play" and top.startswith("wild") and not state.get("color"):
        cards = ev.get("cards") or [ev.get("card")]
        colour = _colour(str(cards[0] or ""))
        if colour is not None:
            why = say.inferred_colour(str(cards[0]), top, colour)
            out.insert(0, _inferred("color", why, stamp, color=colour))
        elif "question" not in ev:
            _ask(ev, say.wild_colour_question(top, str(cards[0])), _colour_answers())
    return out + [ev]


def _owed_after_copy(event: Mapping[str, Any], state: Mapping[str, Any]
                     ) -> Mapping[str, Any]:
    """The camera's ``draw`` that settled a held copy, raised to the cards the
    player to move owes in ``state`` (after the copy stood: a penalty, a Draw
    Two's or Wild Draw Four's cards) when it counted fewer; the camera's count
    kept in ``takes``. Any other event as it is."""
    if event.get("type") != "draw" or event.get("source") != "vision" or is_tgus_t(
        state
    ) or state.get("phase") != "turn":
        return event
    turn = state.get("turn")
    who = event.get("player") or event.get("reach_from") or turn
    try:
        count = int(event.get("count") or 1)
    except (TypeError, ValueError):
        return event
    if turn is None or who != turn:
        return event
    owed = owed_in(state, who)
    if owed <= count:
        return event
    return {**event, "count": owed, "takes": event.get("takes", count)}


def _pass(player: str, nxt: str, played: bool, stamp: dict[str, Any]
          ) -> dict[str, Any]:
    """``player`` drew and passed: the next seat, ``nxt``, played or drew."""
    return _inferred("pass", say.inferred_pass(player, nxt, played), stamp,
                     player=player)


def _penalty_taken(state: Mapping[str, Any], who: str, turn: str, phase: str
                   ) -> dict[str, Any] | None:
    """The rest of a Draw Two's or Wild Draw Four's cards, or ``None``.

    ``turn`` owes the cards of a draw card (``pending_draw``) and the next
    seat now plays or draws: ``turn`` took them all (the camera counts the
    takes of a hand, and two cards taken together count once; a debt is paid
    whole before the turn moves on), so a ``draw`` of what the referee still
    has owing goes first, marked ``inferred``."""
    owed = int(state.get("pending_draw") or 0)
    if phase != "turn" or owed <= 0 or who == turn or who != _next_seat(state, turn):
        return None
    why = Text("camera.inferred-penalty", player=turn, n=owed, next=who)
    return {"type": "draw", "player": turn, "count": owed, "inferred": str(why),
            "inferred_msg": why.data()}


def doubtful_twin(event: Mapping[str, Any], state: Mapping[str, Any]
                  ) -> dict[str, str | None] | None:
    """What the camera's next move must show for ``event`` to stand, or ``None``
    (an event that stands as it is).

    A copy of the top card put down by the player who has just drawn is what
    the pile reports when the drawing arm moved the top card's box (it then
    settles with another look, like a twin's); a real one is the drawn card
    played. The camera's next move tells them apart: the drawer moving again
    (playing the drawn card), or the next seat moving where the copy would
    hand the turn to another seat (a skip, a reverse), says the drawer did not
    put it down. Returns ``{"drawer", "next", "expect"}``: the drawer, the seat
    after them and the seat the copy hands the turn to (``None``: any).

    A copy the pile saw coming in (``"carried_in"``: a card of its label seen
    in a hand on its way to the pile, off the top card's box, or the top
    card's pixels sure a card lies on it,
    :meth:`vision.pile_memory.PileMemory.carried_in`) is a second card, not
    the top card moved by the drawing arm (which leaves its pixels as they
    were): it stands as it is (ruled at once)."""
    if is_tgus_t(state) or event.get("source") != "vision" or event.get(
        "type"
    ) != "play" or state.get("phase") != "drawn" or event.get("carried_in"):
        return None
    turn = state.get("turn")
    who = event.get("player") or event.get("reach_from") or turn
    top = str(state.get("top") or "")
    cards = list(event.get("cards") or [event.get("card")])
    if turn is None or who != turn or cards != [top]:
        return None
    return {"drawer": str(turn), "next": _next_seat(state, str(turn)),
            "expect": _after_copy(state, str(turn), top)}


def _after_copy(state: Mapping[str, Any], player: str, card: str) -> str | None:
    """Who moves after ``player`` puts a copy of ``card`` on it: the next seat
    (a number, a plain wild), the one after (a skip), the one before (a
    reverse, three or more players); ``None`` for a card that makes someone
    draw."""
    kind = card.split("-", 1)[-1]
    if card != "wild" and (_colour(card) is None or kind.startswith("draw")):
        return None
    nxt = _next_seat(state, player)
    if kind == "skip":
        return _next_seat(state, nxt) if nxt is not None else None
    if kind == "reverse":
        if len(state.get("players") or []) < 3:
            return None
        return _next_seat({**state, "direction": -int(state.get("direction") or 1)},
                          player)
    return nxt


def _missed_twin(state: Mapping[str, Any], who: str, turn: str, phase: str,
                 reached: Any, kind: str = "play") -> dict[str, Any] | None:
    """A twin put on its copy that the camera did not see land, or ``None``.

    ``who`` plays or draws (``kind``) on ``turn``'s turn, and ``turn``'s arm
    reached onto the discard pile since the last play the camera saw
    (``reached``: the pipeline's ``pile_reaches``) without a card of theirs
    landing there: the card a seat puts down that the pile cannot tell from
    the one below is a copy of it. It is taken as played when ``turn`` had not
    drawn, owes nothing, holds more than one card (with one it would have won
    the round), and ``who`` is the seat that copy hands the turn to; a copy of
    a Draw Two or Wild Draw Four makes the next seat draw, so there ``who``
    is the next seat, drawing."""
    top = str(state.get("top") or "")
    counts = state.get("hand_counts") or {}
    makes_draw = top == "wild-draw4" or top.endswith("-draw2")
    if (
        phase != "turn"
        or not isinstance(reached, (list, tuple))
        or turn not in reached
        or state.get("pending_draw")
        or (state.get("owed") or {}).get(turn)
        or int(counts.get(turn, 2)) < 2
        or (makes_draw and (kind != "draw" or _next_seat(state, turn) != who))
        or (not makes_draw and _after_copy(state, turn, top) != who)
    ):
        return None
    why = Text("camera.inferred-twin", player=turn, card=say.camera_card(top),
               next=who)
    return {"type": "play", "player": turn, "cards": [top], "inferred": str(why),
            "inferred_msg": why.data()}


def _went_out(ev: Mapping[str, Any], state: Mapping[str, Any], reached: Any
              ) -> dict[str, Any] | None:
    """The last card of the player to move, a twin the camera did not see
    land, or ``None``.

    A hand is shown (``ev``, a camera ``reveal`` of another seat) while the
    round is still being played: the player to move holds one card, owes
    nothing, has not drawn, and their arm reached onto the discard pile since
    the last play the camera saw (``reached``: the pipeline's
    ``pile_reaches``) without a card of theirs landing there. Hands are laid
    out when a round ends, and the card a seat puts down that the pile cannot
    tell from the one below is a copy of it: they went out with that copy."""
    phase, turn = state.get("phase"), state.get("turn")
    top = str(state.get("top") or "")
    counts = state.get("hand_counts") or {}
    if (
        phase != "turn"
        or turn is None
        or not top
        or ev.get("player") in (None, turn)
        or not isinstance(reached, (list, tuple))
        or turn not in reached
        or state.get("pending_draw")
        or (state.get("owed") or {}).get(turn)
        or int(counts.get(turn, 0)) != 1
    ):
        return None
    why = Text("camera.inferred-out", player=turn, card=say.camera_card(top),
               shown=str(ev.get("player")))
    return _inferred("play", why, ev, player=turn, cards=[top])


define({
    "camera.inferred-out": {
        "en": "{player} held one card and reached onto the discard pile, and no card "
              "of theirs was seen land; then {shown}'s hand was shown: {player} went "
              "out with a copy of {card}, put on its twin",
        "ja": "{player}は残り1枚で捨て札の山に手を伸ばしたがカードが見えず、その後"
              "{shown}の手札が公開されたため、{card}に同じカードを重ねて上がったとしました",
    },
    "camera.inferred-penalty": {
        "en": "{player} still owed {n} of a draw card's cards and the next seat, "
              "{next}, moved: {player} took them",
        "ja": "{player}はドローカードの{n}枚をまだ引いておらず、次の席の{next}が"
              "動いたため、{player}が引いたとしました",
    },
    "camera.inferred-twin": {
        "en": "{player} reached onto the discard pile and no card of theirs was seen "
              "land, then {next}, whose turn a copy of {card} gives, moved: a twin "
              "put on its copy",
        "ja": "{player}が捨て札の山に手を伸ばしたがカードが見えず、{card}の後に番が来る"
              "{next}が動いたため、同じカードを重ねて出したとしました",
    },
})


def _ask(ev: dict[str, Any], question: Text, answers: list[dict[str, Any]]) -> None:
    """Put ``question`` on the event: English, its message, and the answers."""
    ev["question"] = str(question)
    ev["question_msg"] = question.data()
    ev["answers"] = answers


def _answer(id_: str, label: Text, do: str, event: dict[str, Any] | None = None
            ) -> dict[str, Any]:
    out: dict[str, Any] = {"id": id_, "label": label.data(), "do": do}
    if event is not None:
        out["event"] = event
    return out


def _out_of_turn_answers(state: Mapping[str, Any], who: str, turn: str,
                         phase: str) -> list[dict[str, Any]]:
    """A play from ``who`` on ``turn``'s turn: a missed draw of ``turn``'s
    (when ``who`` sits next and ``turn`` had not drawn: the referee then takes
    ``who``'s play as ``turn``'s pass), out of turn as logged, or no play at all."""
    answers = []
    if phase == "turn" and who == _next_seat(state, turn):
        answers.append(_answer("missed-draw", say.answer_missed_draw(turn), "insert",
                               {"type": "draw", "player": turn, "count": 1}))
    answers.append(_answer("out-of-turn", say.answer_out_of_turn(who), "keep"))
    answers.append(_answer("misread", say.answer_misread(), "delete"))
    return answers


def _colour_answers() -> list[dict[str, Any]]:
    """The colours a wild may have been given (a ``color`` event inserted before
    the play), or none named (the play kept as logged)."""
    return [_answer(c, say.answer_colour(c), "insert", {"type": "color", "color": c})
            for c in COLOURS] + [_answer("no-colour", say.answer_no_colour(), "keep")]


def _jump_in(ev: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
    """A card identical to the top card, with the jump-in option on."""
    cards = ev.get("cards") or [ev.get("card")]
    options = state.get("options") or {}
    return bool(options.get("jump_in")) and cards[0] == state.get("top")


class HandsFree:
    """The completion a table keeps: :func:`complete` for standard UNO, a
    :class:`TgusTHandsFree` (which remembers a turn draw) for the tgus-t deck,
    after a camera play holding two turns' cards is split into its turns
    (:func:`vision.handsfree_tgus_t.split_play`), and the camera plays held
    until the camera's next move. One per table.

    A copy of the top card put down by the player who has just drawn
    (:func:`doubtful_twin`) is held (:attr:`held`) until the camera's next
    event settles it (:meth:`settle`): set aside (:attr:`set_aside`), or it
    stands and its events go first, completed from the state before that move,
    and the move is completed from the state after them. :attr:`on_stood`, a
    hook called once a copy that stood has been appended and before the move is
    completed, lets the table append what the copy made possible (a colour
    heard while it was held now names it). :attr:`ruled` keeps when each held
    copy was ruled, on the camera's clock.

    Call it with each event and the referee's state just before it; it yields
    the events to append, in order: append each before taking the next (the
    move after a copy that stood is completed from the state read again). It
    may yield none (a held copy; a reach that turned a card for a Hit+? is part
    of the ``turned`` event that follows). Holding needs that second read:
    only a HandsFree given ``state`` (a function returning the referee's state
    now), or called with such a function as the state, holds a copy; given a
    state alone it completes every event at once.
    """

    def __init__(
        self,
        state: Callable[[], Mapping[str, Any]] | None = None,
        on_stood: Callable[[dict[str, Any], dict[str, Any]], Any] | None = None,
    ) -> None:
        self.tgus_t = TgusTHandsFree()
        #: reads the referee's state now (``None``: no copy is held)
        self.read_state = state
        #: called with (the copy, the move that settled it) once a held copy
        #: stood and its events were appended, before the move is completed
        self.on_stood = on_stood
        #: the camera play held, with what the next move must show
        #: (:func:`doubtful_twin`), or ``None``
        self.held: tuple[dict[str, Any], dict[str, Any]] | None = None
        #: the held copies that did not stand
        self.set_aside: list[dict[str, Any]] = []
        #: each held copy as ruled: ``{"event", "t", "stood"}``, ``t`` the camera
        #: time of the move that settled it (``None``: the end, no move came)
        self.ruled: list[dict[str, Any]] = []

    def __call__(
        self,
        event: Mapping[str, Any],
        state: Mapping[str, Any] | Callable[[], Mapping[str, Any]],
    ) -> Iterator[dict[str, Any]]:
        read = state if callable(state) else self.read_state
        now = state() if callable(state) else state
        camera = event.get("source") == "vision"
        if camera and self.held is not None:
            yield from self.settle(event, now)
            if read is not None:
                now = read()  # after the copy's events (and the hook's)
        if camera and read is not None and self.hold(event, now):
            return
        # each piece completed from the state after the pieces before it (the
        # caller appends each event before asking for the next)
        for k, piece in enumerate(self.pieces(event, now)):
            if k and read is not None:
                now = read()
            yield from self.complete(piece, now)

    def pieces(self, event: Mapping[str, Any], state: Mapping[str, Any]
               ) -> list[dict[str, Any]]:
        """The turns a camera event holds, each to be completed from the state
        after the ones before it: a tgus-t camera play holding two turns' cards
        split (:func:`vision.handsfree_tgus_t.split_play`); any other event as
        it is."""
        if event.get("source") == "vision" and is_tgus_t(state):
            return split_play(event, state.get("top"))
        return [dict(event)]

    def complete(self, event: Mapping[str, Any], state: Mapping[str, Any]
                 ) -> list[dict[str, Any]]:
        """``event`` completed from ``state`` (nothing held or settled)."""
        if "carried_in" in event:  # said to doubtful_twin, not written to the log
            event = {k: v for k, v in event.items() if k != "carried_in"}
        if is_tgus_t(state):
            return self.tgus_t(event, state)
        last = self.ruled[-1] if self.ruled else None
        if last is not None and last["stood"] and last["t"] is not None and (
            event.get("t") == last["t"]
        ):  # the move that settled a copy that stood
            event = _owed_after_copy(event, state)
        return complete(event, state)

    def hold(self, event: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """Hold ``event`` (the object itself) when the camera's next move must
        say whether it stands (:func:`doubtful_twin`); whether it was held."""
        try:
            expect = doubtful_twin(event, state)
        except Exception:  # a state it cannot read: taken as it came
            expect = None
        if expect is None:
            return False
        self.held = (event, expect)  # type: ignore[assignment]
        return True

    def settle(self, event: Mapping[str, Any], state: Mapping[str, Any]
               ) -> Iterator[dict[str, Any]]:
        """The camera's next ``event`` settles the held copy: set aside when it
        is a move of the drawer (the drawn card played), or of the next seat
        where the copy hands the turn to another (the drawer passed); else it
        stands and its events, completed from ``state``, are yielded (append
        each), then :attr:`on_stood` is called. Nothing when none is held."""
        if self.held is None:
            return
        held, what = self.held
        self.held = None
        seat = event.get("player") or event.get("reach_from")
        t = float(event.get("t", 0))
        if event.get("type") in ("play", "draw") and seat is not None and (
            seat == what.get("drawer")
            or (seat == what.get("next") and what.get("expect") not in (None, seat))
        ):
            self.set_aside.append(held)
            self.ruled.append({"event": held, "t": t, "stood": False})
            return
        self.ruled.append({"event": held, "t": t, "stood": True})
        try:
            events = self.complete(held, state)
        except Exception:  # a state the completion cannot read: as it came
            events = [dict(held)]
        yield from events
        if self.on_stood is not None:
            self.on_stood(held, dict(event))

    def finish(self, state: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The end (no move after it): a held copy stands; its events."""
        if self.held is None:
            return []
        held, self.held = self.held[0], None
        self.ruled.append({"event": held, "t": None, "stood": True})
        try:
            return self.complete(held, state)
        except Exception:  # a state the completion cannot read: as it came
            return [dict(held)]


# -- a round that went on after the count emptied a hand ---------------------------
define({
    "camera.inferred-went-on": {
        "en": "{player}'s last card by the count was the {card}, but no hand was "
              "shown and {n} more cards landed on the discard pile from the seats "
              "in turn: the round went on, and {player} held a card more than "
              "counted (a draw the camera missed)",
        "ja": "数の上では{card}が{player}の最後の1枚でしたが、手札は公開されず、その後も"
              "{n}枚が順番どおりに捨て札に出されたため、ラウンドは続いており、{player}は"
              "数えたより1枚多く持っていた（カメラが引くのを見逃した）としました",
    },
})


@dataclass
class RoundEnd:
    """A round the referee ruled won on a camera play, and what came after it.

    ``line`` is the play's log line; ``after`` the events that reached the
    table since, in order, each ``("camera", event as the camera sent it)``
    (to be completed again) or ``("as-is", event as appended)`` (heard or
    given: taken as it was)."""

    line: int
    after: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def camera_plays(self) -> int:
        """The camera's plays among :attr:`after`."""
        return sum(1 for kind, e in self.after
                   if kind == "camera" and e.get("type") == "play")


@dataclass
class WentOn:
    """A round read again by :func:`went_on`: the referee holding the log read
    again, the completion that read it (a copy it holds for the next move,
    the copies it ruled), the line of the inferred draw, and the round end that
    log now has on a camera play after it (``None``: none)."""

    referee: Referee
    completion: "HandsFree"
    line: int
    end: RoundEnd | None


def round_end_on(event: Mapping[str, Any], rulings: list[Any]) -> bool:
    """Whether ``rulings`` on a camera ``event`` say the round was won by it
    (a ``round-end`` ruled ``pending``: the losers' hands are awaited)."""
    return (event.get("source") == "vision" and event.get("type") == "play"
            and any(r.ruling == "pending" and r.rule.endswith("round-end")
                    for r in rulings))


def went_on(referee: Referee, end: RoundEnd, least: int) -> WentOn | None:
    """The round read again when the referee's count ended it at ``end`` but
    the table went on, or ``None``.

    The player whose count reached no cards on ``end.line`` (their turn, no
    card owed, not after a draw) holds a card more: a ``draw`` of one card,
    marked ``inferred``, goes before that play, and each event of
    ``end.after`` is appended again, the camera's completed from the state
    it now meets (:class:`HandsFree`). Kept when at least ``least`` of the
    camera's plays after that line are ruled legal (no refusal, no question);
    a play that ends the round again counts, and that end is returned
    (``WentOn.end``) with what came after it, to be read again in turn."""
    if least < 1 or end.camera_plays() < least:
        return None
    lines = referee.events
    if not 1 <= end.line <= len(lines):
        return None
    play = lines[end.line - 1]
    again = referee.upto(end.line - 1)
    state = again.state()
    who = play.get("player", state.get("turn"))
    if (is_tgus_t(state) or state.get("phase") != "turn" or who != state.get("turn")
            or state.get("pending_draw") or (state.get("owed") or {}).get(who)
            or int((state.get("hand_counts") or {}).get(who, 0)) != 1):
        return None
    cards = list(play.get("cards") or [play.get("card")])
    why = Text("camera.inferred-went-on", player=who,
               card=say.camera_card(str(cards[-1] or "")), n=end.camera_plays())
    draw = _inferred("draw", why, play, player=who, count=1)
    line = len(again.events) + 1
    again.append(draw)
    if round_end_on(play, again.append(play)):
        return None  # still the last card
    completion, legal, new_end = _read_on(again, end.after)
    if legal < least:
        return None
    return WentOn(again, completion, line, new_end)


def _read_on(again: Referee, after: list[tuple[str, dict[str, Any]]]
             ) -> tuple["HandsFree", int, RoundEnd | None]:
    """Append ``after`` to ``again`` (a referee reading a stretch of the log
    again), the camera's events completed from the state each meets. Returns
    the completion (a copy it holds for the next move), how many of the
    camera's plays were ruled legal (no refusal, no question), and a round
    end on a camera play among them with what came after it (``None``: none,
    or a hand shown or a start after it)."""
    completion = HandsFree(state=again.state)
    legal, new_end = 0, None
    for kind, event in after:
        if new_end is not None:
            new_end.after.append((kind, dict(event)))
        if kind != "camera":
            again.append(event)
            if event.get("type") in ("reveal", "start"):
                new_end = None
            continue
        for e in completion(event, again.state):
            rulings = again.append(e)
            if e.get("type") in ("reveal", "start"):
                new_end = None
            if e.get("inferred") or e.get("type") != "play":
                continue
            refused = any(r.ruling == "illegal" for r in rulings)
            legal += not refused and not e.get("question")
            if round_end_on(e, rulings):
                new_end = RoundEnd(len(again.events))
    return completion, legal, new_end


# -- a question the table answered by playing on -----------------------------------
define({
    "camera.inferred-answered": {
        "en": "the camera saw {player} play on {turn}'s turn; the {n} plays after it "
              "went on in turn as if {turn} had drawn a card and passed: {turn} drew",
        "ja": "{turn}の番に{player}が出したのをカメラが見ましたが、その後の{n}回の出し札は"
              "{turn}が1枚引いてパスしたとすれば順番どおりだったため、{turn}が引いたとしました",
    },
})


@dataclass
class Asked:
    """A camera play the referee holds as a question (played out of turn, or
    a draw of the player to move missed): ``start`` is the log's length before
    the camera event's lines, ``event`` the event as the camera sent it, and
    ``after`` what reached the table after it (as in :class:`RoundEnd`)."""

    start: int
    event: dict[str, Any]
    after: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def camera_plays(self) -> int:
        return 1 + sum(1 for kind, e in self.after
                       if kind == "camera" and e.get("type") == "play")


def answered(referee: Referee, asked: Asked, least: int) -> WentOn | None:
    """The question on a camera play from the seat after the player to move
    (who had not drawn), answered by the table: the plays after it went on in
    turn as if that player had drawn a card and passed (the question's
    ``missed-draw`` answer), or ``None``.

    The log is read again from ``asked.start``: a ``draw`` of one card for the
    player to move, marked ``inferred``, then the camera's event completed
    again (their pass is now inferred) and every event after it. Kept when at
    least ``least`` of those camera plays, the asked one included, are ruled
    legal and none asks again."""
    if least < 1 or asked.camera_plays() < least:
        return None
    lines = referee.events
    again = referee.upto(asked.start)
    first = next((e for e in lines[asked.start:asked.start + 3]
                  if e.get("answers") and e.get("type") == "play"), {})
    answers = [a for a in first.get("answers") or [] if isinstance(a, dict)
               and a.get("id") == "missed-draw" and a.get("do") == "insert"]
    if not answers or not isinstance(answers[0].get("event"), dict):
        return None
    missed = answers[0]["event"]
    state = again.state()
    if state.get("phase") != "turn" or missed.get("player") != state.get("turn"):
        return None
    who = first.get("player")
    why = Text("camera.inferred-answered", player=who, turn=missed.get("player"),
               n=asked.camera_plays())
    draw = _inferred("draw", why, asked.event, **{k: v for k, v in missed.items()
                                                 if k != "type"})
    line = len(again.events) + 1
    again.append(draw)
    completion, legal, new_end = _read_on(again, [("camera", dict(asked.event)),
                                                  *asked.after])
    asks = any(e.get("question") and e.get("type") == "play"
               for e in again.events[line:])
    if legal < least or asks:
        return None
    return WentOn(again, completion, line, new_end)
