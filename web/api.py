"""The JSON API and the SSE stream (documented in ``docs/api.md``)."""

from __future__ import annotations

import json
import time
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from . import questions as asking
from .errors import Words, fail, failure_kind, short
from .events import REQUEST_BODY, no_controls, text_only
from .memstore import game_list
from .security import has_token, hung_up, require_token
from .table import game_presets, get_table
from .table_error import _reading

bp = Blueprint("api", __name__, url_prefix="/api")
# the referee view's open questions, said in the viewer's language
bp.add_app_template_global(asking.for_page, "open_questions")
bp.add_app_template_global(asking.ui, "question_ui")
STREAM_POLL = 1.0  # seconds between checks that an SSE client is still there
SCAN_REFUSED = ("error", "ended", "unavailable")  # camera states with no frames to come


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def body() -> Any:
    """The request's JSON body; 400 with the reason when it is not JSON."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        fail(400, "body_empty")
    try:
        obj = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        fail(400, "body_not_utf8")
    except (ValueError, RecursionError) as exc:
        fail(400, "body_not_json", kind=exc.__class__.__name__)
    text_only(obj, REQUEST_BODY)  # an EventError: a 400 saying why
    no_controls(obj, REQUEST_BODY)
    return obj


def _object() -> dict[str, Any]:
    obj = body()
    if not isinstance(obj, dict):
        fail(400, "body_not_object", got_type=type(obj).__name__)
    return obj


@bp.get("/state")
def state():
    """The referee's full state (hidden information included)."""
    require_token()
    return jsonify(get_table().snapshot(public=False))


@bp.get("/public")
def public():
    """What may be shown to the players (the game's public view)."""
    snap = get_table().snapshot(public=True)
    snap.pop("events", None)
    return jsonify(snap)


@bp.get("/rulings")
def rulings():
    """Every ruling of the current game, or those after index ``since``.

    Without the token, the texts are those of the table view (no hidden card).
    """
    since = request.args.get("since", "-1")
    try:
        since_i = int(since)
    except ValueError:
        fail(400, "since_not_index", got=short(since))
    return jsonify(
        {
            "game": get_table().gid,
            "rulings": [
                r
                for r in get_table().rulings(public=not has_token())
                if r["index"] > since_i
            ],
        }
    )


@bp.get("/events")
def events():
    """The recorded events, line 1 first."""
    require_token()
    snap = get_table().snapshot(public=False)
    return jsonify({"game": snap["game"], "events": snap.get("events", [])})


@bp.post("/events")
def append():
    """Record one event (manual entry, UNO call, catch ...) and return its rulings."""
    line, new = get_table().append(_object(), source="manual")
    if line == 0:
        fail(409, "paused_not_recorded")
    return jsonify({"line": line, "rulings": new}), 201


@bp.put("/events/<int:line>")
def correct(line: int):
    """Replace the event on a line; the referee replays and says what changed."""
    return jsonify(get_table().correct(line, _object()))


@bp.delete("/events/<int:line>")
def delete(line: int):
    """Remove the event on a line (a misread) and replay."""
    return jsonify(get_table().delete(line))


@bp.post("/events/<int:line>/before")
def insert(line: int):
    """Insert a forgotten event before a line and replay."""
    return jsonify(get_table().insert(line, _object())), 201


@bp.post("/undo")
def undo():
    """Take back the last change (a new event, a correction, an insert or a
    delete: ``undid`` says which) and replay; see :mod:`web.undo`."""
    _object()
    return jsonify(get_table().undo())


@bp.get("/questions")
def questions():
    """The referee's open questions, each with its answers and its digest."""
    require_token()
    return jsonify({"game": get_table().gid, "questions": asking.for_api(get_table())})


@bp.post("/questions/<int:line>/answer")
def answer(line: int):
    """Answer the question on a line (``{"answer": id, "digest": ...}``): one
    correction of the log (insert, correct or delete), undoable like any."""
    return jsonify(asking.answer(get_table(), line, _object()))


@bp.post("/pause")
def pause():
    """Pause (``{"paused": true}``) or resume the camera and voice input."""
    paused = _object().get("paused")
    if not isinstance(paused, bool):
        fail(400, "pause_not_bool")
    get_table().set_paused(paused)
    return jsonify({"paused": paused})


@bp.get("/games")
def games():
    """Stored games, and the one being refereed (a game whose header cannot
    be read back listed as a damaged one: ``damaged`` ``log_damaged``)."""
    with _reading():  # a read that failed: 503, by its kind
        stored = game_list(get_table().store)
    return jsonify({"current": get_table().gid, "games": stored})


@bp.post("/games")
def new_game():
    """Start a new game from a header; ``camera``/``calibration`` restart the camera."""
    header = _object()
    source, calibration = header.pop("camera", None), header.pop("calibration", None)
    for name, value in (("camera", source), ("calibration", calibration)):
        if value is not None and (not isinstance(value, str) or len(value) > 500):
            fail(400, "camera_not_text", name=name)
    gid = get_table().new_game(header)
    camera = None
    starter = current_app.extensions.get("tableref.start_camera")
    if starter is not None:  # the camera follows the new game's players
        camera = starter(source, calibration)
    elif source:
        camera = {
            "state": "unavailable",
            "message": "this server runs without a camera pipeline",
        }
    return jsonify({"game": gid, "camera": camera}), 201


#: the largest id a stored game can have (SQLite's INTEGER)
MAX_GAME_ID = 2**63 - 1


def _stored(gid: int) -> int:
    """``gid`` where a stored game may have it; else 404 (no store has it)."""
    if not 0 < gid <= MAX_GAME_ID:
        fail(404, "no_stored_game", gid=str(gid)[:40])
    return gid


@bp.post("/games/<int:gid>/resume")
def resume(gid: int):
    """Make a stored game the current one again (state rebuilt by replay)."""
    _object()
    _stored(gid)
    get_table().resume(gid)
    return jsonify({"game": gid})


@bp.get("/games/<int:gid>/log")
def export(gid: int):
    """A stored game as table-log lines (JSON lines, header first)."""
    require_token()
    _stored(gid)
    # no such game 404; a row it cannot read back 409 (the store keeps it); a
    # read that failed 503, by its kind
    with _reading(gid, damaged="stored_log_unreadable"):
        lines = get_table().store.export(gid)
    return Response("\n".join(lines) + "\n", mimetype="application/x-ndjson")


@bp.get("/presets")
def presets():
    """Every registered game with its rule presets, for the setup page."""
    return jsonify({"games": [{"game": g, "presets": p} for g, p in game_presets()]})


@bp.get("/camera")
def camera():
    """The camera pipeline's status (``unavailable`` with the reason if none)."""
    cam = get_table().camera
    if cam is None:
        return jsonify({"state": "unavailable", "message": "no camera was started"})
    return jsonify(cam.status())


@bp.post("/camera/scan")
def scan():
    """Start (``{"on": true}``) or stop the camera's round-end hand scan."""
    on = _object().get("on")
    if not isinstance(on, bool):
        fail(400, "scan_not_bool")
    cam = get_table().camera
    pipeline = getattr(cam, "pipeline", None)
    if pipeline is None or not hasattr(pipeline, "set_scan"):
        fail(409, "scan_no_pipeline")
    try:  # the camera's own words: the refusal says their kind in Japanese
        status = cam.status("en") if hasattr(cam, "status") else {}
    except TypeError:  # a camera that speaks one language
        status = cam.status()
    if status.get("state") in SCAN_REFUSED:  # its words, with their kind's code
        why = Words(status.get("message") or status.get("state"), status.get("failure"))
        fail(409, "scan_refused", why=why)
    try:
        pipeline.set_scan(on)
    except Exception as exc:  # a pipeline that cannot take the request says why
        fail(409, "scan_refused", why=Words(str(exc)[:200], failure_kind(exc)))
    return jsonify({"scan": on})


def _last_id() -> int:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last")
    if raw is None:
        return get_table().seq
    try:
        return max(int(raw), 0)
    except ValueError:
        fail(400, "last_event_not_number", got=short(raw))


@bp.get("/stream")
def stream():
    """Server-sent events: rulings, corrections, pauses and new games, with ids."""
    table = get_table()
    last = _last_id()
    public = not has_token()  # the table view's texts: no hidden card
    heartbeat = float(current_app.config["SSE_HEARTBEAT"])
    poll = min(heartbeat, STREAM_POLL)  # how soon a client that left is noticed
    deadline = time.monotonic() + float(current_app.config["SSE_SECONDS"])
    sock = request.environ.get("werkzeug.socket")

    def generate():
        nonlocal last
        yield "retry: 2000\n: connected\n\n"
        beat = time.monotonic() + heartbeat
        while time.monotonic() < deadline and not hung_up(sock):
            messages = table.messages_after(last, poll, public=public)
            if not messages:
                if time.monotonic() >= beat:
                    beat = time.monotonic() + heartbeat
                    yield ": heartbeat\n\n"
                continue
            beat = time.monotonic() + heartbeat
            for seq, kind, data in messages:
                text = json.dumps(data, ensure_ascii=False)
                yield f"id: {seq}\nevent: {kind}\ndata: {text}\n\n"
                last = seq  # a reset may move it back (a restarted server)

    return Response(
        generate(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
