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
- Every ``inferred`` reason has its message beside it (``inferred_msg``). The
  messages are defined in :mod:`referee.camera_text`.

Only events with ``"source": "vision"`` are completed: what a person said or
clicked is taken as given. The function is pure: state in, events out.
"""

from __future__ import annotations

from typing import Any, Mapping

from referee import camera_text as say
from referee.text import Text

COLOURS = ("red", "yellow", "green", "blue")
_IN_PLAY = ("turn", "drawn")


def _next_seat(state: Mapping[str, Any], player: str) -> str | None:
    players = list(state.get("players") or [])
    if player not in players:
        return None
    step = 1 if int(state.get("direction") or 1) >= 0 else -1
    return players[(players.index(player) + step) % len(players)]


def _colour(label: str) -> str | None:
    head = label.split("-")[0]
    return head if head in COLOURS else None


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
    ev = dict(event)
    if ev.get("source") != "vision" or ev.get("type") not in ("play", "draw"):
        return [ev]
    players = list(state.get("players") or [])
    if "player" not in ev:
        seat = ev.get("reach_from")
        if isinstance(seat, str) and seat in players:
            ev["player"], ev["player_from"] = seat, "reach"
        else:
            ev["player_from"] = "turn"
    elif "player_from" not in ev:
        ev["player_from"] = "reach"
    phase, turn = state.get("phase"), state.get("turn")
    if phase not in _IN_PLAY or turn is None:
        return [ev]
    who = ev.get("player", turn)
    out: list[dict[str, Any]] = []
    stamp = {k: ev[k] for k in ("t",) if k in ev}
    acted = "played" if ev["type"] == "play" else "drew"
    if who != turn:
        if phase == "drawn" and who == _next_seat(state, turn):
            why = say.inferred_pass(turn, who, acted == "played")
            out.append(
                {
                    "type": "pass",
                    "player": turn,
                    "inferred": str(why),
                    "inferred_msg": why.data(),
                    "source": "vision",
                    **stamp,
                }
            )
        elif ev["type"] == "play" and not _jump_in(ev, state):
            _ask(ev, say.out_of_turn_question(who, turn),
                 _out_of_turn_answers(state, who, turn, phase))
    top = str(state.get("top") or "")
    if ev["type"] == "play" and top.startswith("wild") and not state.get("color"):
        cards = ev.get("cards") or [ev.get("card")]
        colour = _colour(str(cards[0] or ""))
        if colour is not None:
            why = say.inferred_colour(str(cards[0]), top, colour)
            out.insert(
                0,
                {
                    "type": "color",
                    "color": colour,
                    "inferred": str(why),
                    "inferred_msg": why.data(),
                    "source": "vision",
                    **stamp,
                },
            )
        elif "question" not in ev:
            _ask(ev, say.wild_colour_question(top, str(cards[0])), _colour_answers())
    return out + [ev]


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
