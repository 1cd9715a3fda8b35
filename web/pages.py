"""The HTML pages: referee view, table view, scoreboard, setup, video and evidence.

Pages are rendered by Jinja (autoescaped); the script in ``static/app.js``
only swaps in server-rendered fragments (``/partials``) when the SSE
stream says something changed, so every user string is escaped in one place.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    g,
    jsonify,
    render_template,
    request,
    send_file,
)

from .camera import camera_choices
from .errors import fail, say, viewer_lang
from .display import (
    card_name,
    color_name,
    deck_of,
    form_defaults,
    headline,
    said,
    table_display,
)
from .memstore import game_list
from .scores import build_board
from .security import has_token, hung_up, require_token
from .table import game_presets, get_table
from .table_error import READ_FAILURES, refused_read

bp = Blueprint("pages", __name__)

PARTIALS = (
    "display",
    "questions",
    "controls",
    "state",
    "rulings",
    "events",
    "scores",
    "change",
    "camera_status",
)
# the event log, corrections and the controls: token only
REFEREE_PARTIALS = ("events", "change", "questions", "controls")
PUBLIC_PARTIALS = tuple(n for n in PARTIALS if n not in REFEREE_PARTIALS)
SHOWN = {
    "game",
    "rules",
    "players",
    "turn",
    "scores",
    "rounds",
    "over",
    "winner",
    "top",
    "color",
    "direction",
    "pending_draw",
    "hand_counts",
    "uno",
    "catchable",
    "options",
    "owed",
    "phase",
}
DIRECTIONS = {1: "clockwise", -1: "counterclockwise"}
COLORS = ("red", "yellow", "green", "blue")


def _view() -> str:
    view = request.args.get("view", "table")
    if view not in ("referee", "table"):
        fail(400, "view_unknown")
    if view == "referee":
        require_token()
    return view


def context(view: str) -> dict[str, Any]:
    """What every page and fragment is rendered from."""
    table = get_table()
    snap = table.snapshot(public=view == "table")
    state = snap.get("state") or {}
    header = snap.get("header") or {}
    board = build_board(state, header) if snap.get("game") else None
    cam = (
        table.camera.status()
        if table.camera
        else {"state": "unavailable", "message": "no camera was started"}
    )
    rulings = snap.get("rulings") or []
    lang = getattr(g, "lang", "en")
    g.deck = deck_of(header)  # how the ``card`` filter names this game's cards
    display = table_display(state, rulings, lang, g.deck)
    details = [
        (key, value if isinstance(value, str) else _tojson_compact(value))
        for key, value in state.items()
        if key not in SHOWN
    ]
    return {
        "view": view,
        "snap": snap,
        "state": state,
        "header": header,
        "board": board,
        "details": details,
        "camera": cam,
        "directions": DIRECTIONS,
        "colors": COLORS,
        "players": list(header.get("players") or []),
        "video": has_token(),  # the camera's picture is the referee's
        "display": display,
        "defaults": form_defaults(
            state, snap.get("events") or [], rulings, header.get("players") or []
        ),
    }


@bp.get("/")
def live():
    """The referee's view: video, full state, controls, rulings, events, scores."""
    if not has_token():
        if request.accept_mimetypes.best == "application/json":
            fail(403, "referee_view_token")
        return render_template(
            "error.html",
            error={
                "status": 403,
                "error": "Forbidden",
                "code": "referee_view_token",
                "message": say("referee_view_token", "en"),
            },
            said=None if g.lang == "en" else say("referee_view_token", g.lang),
            link="/table",
        ), 403
    return render_template("live.html", **context("referee"))


@bp.get("/table")
def table_view():
    """The table view, safe to show the players (public view, no controls)."""
    return render_template("live.html", **context("table"))


@bp.get("/scores")
def scores():
    """The scoreboard with per-round history and the chart of totals."""
    return render_template("scores.html", **context(_view()))


@bp.get("/partials")
def partials():
    """Server-rendered fragments of a page, ``{name: html}``, for the live refresh."""
    view = _view()
    shown = PARTIALS if view == "referee" else PUBLIC_PARTIALS
    asked = request.args.get("names", ",".join(shown)).split(",")
    names = list(dict.fromkeys(n.strip() for n in asked if n.strip()))  # each once
    if not names:
        fail(400, "fragments_none", names=", ".join(shown))
    unknown = [n for n in names if n not in PARTIALS]
    if unknown:
        fail(404, "fragment_unknown", name=repr(unknown[0][:40]), names=", ".join(PARTIALS))
    if any(n in REFEREE_PARTIALS for n in names):
        require_token()
    ctx = context(view)
    return jsonify({name: render_template(f"_{name}.html", **ctx) for name in names})


@bp.get("/setup")
def setup():
    """Players, game, preset, options, camera and calibration; stored games."""
    require_token()
    found = game_presets()
    table = get_table()
    header = table.referee.header.to_dict() if table.referee else {}
    camera = table.camera.status() if table.camera else None
    try:
        stored, unlisted = game_list(table.store), None
    except READ_FAILURES as exc:  # a read that failed (a database locked): said
        said = refused_read(exc)
        stored, unlisted = [], say(said.reason or "", viewer_lang(), said.params)
    return render_template(
        "setup.html",
        games=found,
        defaults=preset_defaults(found),
        header=header,
        stored=stored,
        unlisted=unlisted,
        current=table.gid,
        camera=camera,
        cameras=camera_choices(
            current_app.config.get("VIDEO_DIRS", ()),
            (camera or {}).get("source"),
        ),
        calibration=current_app.config.get("CALIBRATION"),
    )


SETUP_FIELDS = ("hand_size", "scoring", "rounds", "target")


def preset_defaults(found: list[tuple[str, list[str]]]) -> dict[str, dict[str, Any]]:
    """Each preset's own hand size and scoring (``{preset: {field: value}}``),
    read from the game's options type, so the setup page starts from them."""
    from referee.game import find_game

    out: dict[str, dict[str, Any]] = {}
    for name, presets in found:
        for preset in presets:
            try:
                options = find_game(name, preset).presets().get(preset)
            except Exception:  # a game that fails to load has no defaults to offer
                options = None
            out[preset] = {
                f: getattr(options, f)
                for f in SETUP_FIELDS
                if isinstance(getattr(options, f, None), (int, str))
            }
    return out


@bp.get("/frame.jpg")
def frame():
    """The latest camera frame with the pipeline's overlays (token only)."""
    require_token()
    cam = get_table().camera
    jpeg = cam.jpeg() if cam else None
    if jpeg is None:
        fail(404, "no_camera_frame")
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/video.mjpeg")
def video():
    """The camera as MJPEG (multipart/x-mixed-replace) from the latest frames.

    Token only. The stream ends when the client hangs up (checked between
    frames, so a camera without frames does not keep a thread), after
    ``VIDEO_IDLE`` seconds without a new frame (the page then asks again) and
    after ``VIDEO_SECONDS`` in all.
    """
    require_token()
    cam = get_table().camera
    if cam is None or (cam.jpeg() is None and getattr(cam, "pipeline", None) is None):
        fail(404, "camera_not_available")
    period = 1.0 / float(current_app.config["VIDEO_FPS"])
    idle = float(current_app.config.get("VIDEO_IDLE", 30.0))
    deadline = time.monotonic() + float(current_app.config["VIDEO_SECONDS"])
    sock = request.environ.get("werkzeug.socket")

    def generate():
        last = None
        seen = time.monotonic()
        while True:
            now = time.monotonic()
            if now >= deadline or now - seen > idle or hung_up(sock):
                return
            jpeg = cam.jpeg()
            if jpeg is not None and jpeg is not last:
                last, seen = jpeg, now
                yield (
                    b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                    + str(len(jpeg)).encode()
                    + b"\r\n\r\n"
                    + bytes(jpeg)
                    + b"\r\n"
                )
            time.sleep(period)

    return Response(
        generate(),
        mimetype="multipart/x-mixed-replace; boundary=frame",
        headers={"Cache-Control": "no-store"},
    )


@bp.get("/evidence/<int:line>")
def evidence(line: int):
    """The camera frame an event was seen in (only from the evidence folders)."""
    require_token()
    snap = get_table().snapshot(public=False)
    events = snap.get("events") or []
    if not 1 <= line <= len(events):
        fail(404, "evidence_no_line", line=str(line)[:40])
    path = events[line - 1].get("evidence")
    if not isinstance(path, str) or not path:
        fail(404, "evidence_none", line=line)
    try:  # a path this system cannot open (a NUL byte, too long) is no frame
        target = Path(path).resolve()
        roots = [Path(p).resolve() for p in current_app.config.get("EVIDENCE_DIRS", [])]
        inside = any(target.is_relative_to(root) for root in roots)
        there = target.suffix.lower() in (".jpg", ".jpeg", ".png") and target.is_file()
    except (OSError, ValueError):
        inside, there = True, False
    if not inside:
        fail(403, "evidence_outside", line=line)
    if not there:
        fail(404, "evidence_missing", line=line)
    return send_file(target, max_age=3600)


def _tojson_compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


@bp.app_template_filter("card")
def card_filter(label: Any) -> str:
    """A card label in the viewer's language, in the game's deck, as the
    rulings name it (``yellow-draw2`` -> ``黄のドロー2``)."""
    return card_name(label, getattr(g, "lang", "en"), getattr(g, "deck", "uno"))


@bp.app_template_filter("colour")
def colour_filter(color: Any) -> str:
    """A colour in the viewer's language."""
    return color_name(color, getattr(g, "lang", "en"))


@bp.app_template_filter("headline")
def headline_filter(ruling: Any) -> str:
    """A ruling in a few words, in the viewer's language (from its data)."""
    return headline(ruling, getattr(g, "lang", "en")) if ruling else ""


@bp.app_template_filter("said")
def said_filter(ruling: Any) -> str:
    """A ruling's sentence in the viewer's language, rendered from its data
    (``msg``); its English ``text`` where it has none. Also a question's
    ``refused`` (what stands if the event happened as logged)."""
    return said(ruling, getattr(g, "lang", "en"))


@bp.app_template_filter("event_text")
def event_text(event: Any) -> str:
    """An event said plainly for the log: who, what, which cards."""
    if not isinstance(event, dict):
        return str(event)
    from .i18n import translate

    kind = str(event.get("type", "?"))
    parts = [str(event.get("player") or ""), translate("ev_" + kind)]
    if kind == "catch" and event.get("target"):
        parts.append(str(event["target"]))
    cards = event.get("cards")
    if isinstance(cards, list):
        sep = "、" if getattr(g, "lang", "en") == "ja" else ", "
        parts.append(sep.join(card_filter(c) for c in cards))
    elif isinstance(event.get("card"), str):
        parts.append(card_filter(event["card"]))
    if isinstance(event.get("color"), str):
        parts.append("→ " + colour_filter(event["color"]))
    if isinstance(event.get("count"), int):
        parts.append(f"×{event['count']}")
    if event.get("source") not in (None, "manual"):
        parts.append(f"({event['source']})")
    return " ".join(p for p in parts if p)


@bp.app_template_filter("event_json")
def event_json(value: Any) -> str:
    """An event as one line of JSON, for the correction box (escaped by Jinja)."""
    return _tojson_compact(value)
