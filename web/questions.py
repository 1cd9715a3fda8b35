"""The referee's open questions and their one-tap answers.

Where the camera's evidence cannot decide, its event carries a ``question``
(``vision.handsfree`` for plays, ``vision.scan`` for a shown hand read with
doubt) and the referee holds it with a ``pending`` ruling
``<preset>.question`` (``referee.game.Game.ask``). Every such ruling in the
current replay is an open question: answering it changes the log, so the
replay settles it, and the answer is as durable and as undoable as any
correction.

An answer is one of the event's ``answers`` (``{"id", "label", "do",
"event"}``), chosen by its ``id``; the page sends only the id, the line and
the event's digest, never the correction itself. ``do`` says the correction:

- ``insert``: the answer's ``event`` is inserted before the question's line
  (a missed draw, the wild's colour); the held event is then ruled again;
- ``keep``: the line is corrected to the event as logged without its question
  (it happened as logged: the refusal in the ruling's ``refused`` stands);
- ``delete``: the line is removed (the camera misread it);
- ``replace``: the line is corrected to the answer's ``event`` (a ``reveal``
  whose hand was read with doubt: each answer is a whole alternative hand of
  the same player, one of them the hand as read). It must be an event of the
  held event's type and player whose cards are of the game's deck (else 400).

An event with a question but no usable ``answers`` (a log from elsewhere)
gets ``keep`` and ``delete``. The event the correction writes says which
answer it came from (``"answered": "<id>"``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from flask import g

from referee.text import render_data

from . import corrections
from .table_error import TableError

#: the fields that make an event ask (dropped when it is kept as logged)
QUESTION_FIELDS = ("question", "question_msg", "answers")
ACTIONS = ("insert", "keep", "delete", "replace")
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")

#: the page's own words about questions (the answers' labels and the questions
#: themselves are messages of referee.camera_text)
UI = {
    "en": {
        "title": "The referee asks",
        "hint": "Tap the answer: it is written to the log as a correction, and "
                "Undo takes it back.",
        "if_kept": "If it stands as logged:",
        "recorded": "Answer recorded",
        "line": "line",
        "keep": "It happened as logged",
        "delete": "No such event (misread)",
    },
    "ja": {
        "title": "審判からの質問",
        "hint": "答えをタップしてください。訂正としてログに記録され、「取り消し」で戻せます。",
        "if_kept": "記録どおりなら:",
        "recorded": "答えを記録しました",
        "line": "行",
        "keep": "記録どおり",
        "delete": "そのイベントはなかった（誤認識）",
    },
}


def ui(key: str, lang: str | None = None) -> str:
    """The page's word for ``key`` in ``lang`` (the request's by default)."""
    lang = lang or getattr(g, "lang", "en")
    return UI.get(lang, UI["en"]).get(key) or UI["en"].get(key, key)


def digest(event: Mapping[str, Any]) -> str:
    """A short fingerprint of an event: an answer names the event it answers,
    so one sent from a page that has not seen a later change is refused."""
    text = json.dumps(event, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:16]


def answers_of(event: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The well-formed answers an event offers (defaults where it offers none)."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    given = event.get("answers")
    for a in given if isinstance(given, list) else []:
        if not isinstance(a, Mapping):
            continue
        id_, do = a.get("id"), a.get("do")
        if not isinstance(id_, str) or not _ID.match(id_) or id_ in seen:
            continue
        if do not in ACTIONS or (do in ("insert", "replace")
                                 and not isinstance(a.get("event"), Mapping)):
            continue
        if do == "replace" and not _same_event(a["event"], event):
            continue
        seen.add(id_)
        out.append(dict(a))
    if not out:
        out = [{"id": "keep", "do": "keep"}, {"id": "delete", "do": "delete"}]
    return out


def _same_event(new: Mapping[str, Any], held: Mapping[str, Any]) -> bool:
    """A replacing answer is the held event told again: same type, same player."""
    return (new.get("type") == held.get("type")
            and new.get("player") == held.get("player")
            and not any(k in new for k in QUESTION_FIELDS))


def _refused_as_off_deck(referee: Any, line: int, event: Mapping[str, Any]) -> str:
    """The referee's refusal of ``event`` on ``line`` because a card is not of
    the game's deck or no card at all ("" if none): a replay of the log before it, on a copy."""
    scratch = type(referee)(referee.header)
    for e in referee.events[: line - 1]:
        try:
            scratch.append(e)
        except Exception:  # noqa: BLE001 - the same failure as the live replay's
            pass
    try:
        rulings = scratch.append(event)
    except Exception as exc:  # noqa: BLE001 - an event the engine cannot take
        return f"the referee cannot take it ({exc})"
    for r in rulings:
        if ((r.ruling == "illegal" and r.rule.endswith(".deck"))
                or r.rule == "log.malformed"):
            return str(r.text)
    return ""


def open_questions(rulings: list[Mapping[str, Any]],
                   events: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every open question: a ``pending`` ``<preset>.question`` ruling of the
    current replay, one per line, oldest first, with its answers and digest."""
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    for r in rulings:
        line = r.get("event")
        if (r.get("ruling") != "pending" or not str(r.get("rule", "")).endswith(
                ".question") or not isinstance(line, int) or line in seen
                or not 1 <= line <= len(events)):
            continue
        seen.add(line)
        event = events[line - 1]
        out.append({
            "line": line,
            "index": r.get("index"),
            "text": r.get("text") or r.get("question") or "",
            "msg": r.get("msg"),
            "refused": r.get("refused"),
            "digest": digest(event),
            "answers": answers_of(event),
        })
    return out


def _label(answer: Mapping[str, Any], lang: str) -> str:
    fallback = ui(str(answer.get("do")), lang) if answer.get("do") in ("keep", "delete") \
        else str(answer.get("id", ""))
    said = render_data(answer.get("label"), lang, fallback)
    return said or fallback


def said(question: Mapping[str, Any], lang: str = "en") -> dict[str, Any]:
    """A question as a page shows it: its text and answers' labels in ``lang``."""
    refused = question.get("refused")
    return {
        **question,
        "said": render_data(question.get("msg"), lang, str(question.get("text", ""))),
        "refused_said": (render_data(refused.get("msg"), lang, str(refused.get("text")))
                         if isinstance(refused, Mapping) and refused.get("text")
                         else ""),
        "answers": [{**a, "said": _label(a, lang)} for a in question["answers"]],
    }


def for_page(snap: Mapping[str, Any], lang: str | None = None) -> list[dict[str, Any]]:
    """The open questions of a referee snapshot, said in the viewer's language
    (a template global: ``open_questions(snap)``)."""
    lang = lang or getattr(g, "lang", "en")
    events = snap.get("events") or []
    if not events:
        return []
    return [said(q, lang) for q in open_questions(snap.get("rulings") or [], events)]


def for_api(table: Any) -> list[dict[str, Any]]:
    """The open questions for ``GET /api/questions`` (English texts and labels,
    the messages beside them)."""
    snap = table.snapshot(public=False)
    out = []
    for q in open_questions(snap.get("rulings") or [], snap.get("events") or []):
        q = said(q, "en")
        out.append({
            "line": q["line"], "question": q["said"], "msg": q["msg"],
            "refused": q["refused"], "digest": q["digest"],
            "answers": [{k: v for k, v in
                         {"id": a["id"], "label": a["said"],
                          "label_msg": a.get("label"), "do": a["do"],
                          "event": a.get("event")}.items() if v is not None}
                        for a in q["answers"]],
        })
    return out


def _short(value: Any) -> str:
    return repr(value)[:40]


def answer(table: Any, line: int, body: Mapping[str, Any]) -> dict[str, Any]:
    """Record the answer ``body["answer"]`` to the question on ``line`` as one
    correction of the log; returns the correction's result with ``answered``.

    Raises:
        TableError: 400 for a body that names no answer or an unknown one, 404
            for a line with no event, 409 for a line with no open question or
            whose event is not the one the page showed (``digest``).
    """
    choice, seen = body.get("answer"), body.get("digest")
    if not isinstance(choice, str) or not choice:
        raise TableError(status=400, reason="answer_no_id")
    if not isinstance(seen, str) or not seen:
        raise TableError(status=400, reason="answer_no_digest")
    with table.lock:
        referee = table._referee()
        corrections.check_line(table, line)
        snap = table.snapshot(public=False)
        asked = {q["line"]: q for q in open_questions(snap.get("rulings") or [],
                                                      snap.get("events") or [])}
        question = asked.get(line)
        if question is None:
            raise TableError(status=409, reason="no_open_question", params={"line": line})
        if question["digest"] != seen:
            raise TableError(status=409, reason="question_stale", params={"line": line})
        chosen = next((a for a in question["answers"] if a["id"] == choice), None)
        if chosen is None:
            ids = ", ".join(a["id"] for a in question["answers"])
            raise TableError(status=400, reason="answer_unknown", params={
                "line": line, "choice": _short(choice), "ids": ids})
        event = dict(referee.events[line - 1])
        if chosen["do"] == "insert":
            new = {**dict(chosen["event"]), "source": "manual", "answered": choice}
            result = corrections.insert(table, line, new)
        elif chosen["do"] == "keep":
            kept = {k: v for k, v in event.items() if k not in QUESTION_FIELDS}
            result = corrections.correct(table, line, {**kept, "answered": choice})
        elif chosen["do"] == "replace":
            new = {**{k: v for k, v in dict(chosen["event"]).items()
                      if k not in QUESTION_FIELDS},
                   "source": event.get("source", "manual"), "answered": choice}
            bad = _refused_as_off_deck(referee, line, new)
            if bad:
                raise TableError(status=400, reason="answer_not_hand", params={
                    "line": line, "choice": _short(choice), "bad": bad})
            result = corrections.correct(table, line, new)
        else:
            result = corrections.delete(table, line)
        result["answered"] = {"line": line, "answer": choice, "do": chosen["do"]}
        return result
