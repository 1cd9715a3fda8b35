"""Request guards: allowed hosts, cross-site protection, the control token, JSON errors.

- ``ALLOWED_HOSTS`` (default the loopback names) refuses other ``Host`` headers,
  so a web page elsewhere cannot reach the referee by DNS rebinding.
- Every state-changing request (POST, PUT, DELETE) is JSON or a DELETE (a
  cross-site form can send neither without a CORS preflight, which this app
  never grants) and, where the browser names an
  ``Origin`` or ``Referer``, it must be this server.
- With ``TOKEN`` set (``tableref serve`` sets it when bound to an address other
  than loopback), control actions, the referee's view, the event log and the
  camera need the token: the ``X-Tableref-Token`` header, or the cookie set by
  opening ``/?token=...`` once. That first visit answers with a redirect to
  the same address without the token (so it stays out of the history, the
  bookmarks and the access log, where it is masked); a token in a query string
  is never a credential by itself.
- Errors are JSON ``{"error", "code", "message", "status"}`` under ``/api``
  and a short page elsewhere, the message in the viewer's language
  (:mod:`web.errors`); never a traceback.
"""

from __future__ import annotations

import hmac
import logging
import re
import select
import socket
from html import escape
from typing import Any
from urllib.parse import urlencode, urlsplit

from flask import (
    Flask,
    Response,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
)
from werkzeug.exceptions import HTTPException

from .errors import Refusal, details, fail, say, viewer_lang
from .events import EventError
from .table import TableError

TOKEN_COOKIE = "tableref_token"
TOKEN_HEADER = "X-Tableref-Token"
UNSAFE = ("POST", "PUT", "PATCH", "DELETE")
LOOPBACK = ("localhost", "127.0.0.1", "::1")

log = logging.getLogger(__name__)


def has_token() -> bool:
    """True if no token is required or the request carries the right one."""
    token = current_app.config.get("TOKEN")
    if not token:
        return True
    given = request.headers.get(TOKEN_HEADER) or request.cookies.get(TOKEN_COOKIE) or ""
    return _is_token(given)


def _is_token(given: str) -> bool:
    token = current_app.config.get("TOKEN")
    return bool(token) and hmac.compare_digest(
        given.encode("utf-8", "replace"), str(token).encode("utf-8", "replace")
    )


def _token_visit() -> Response:
    """``?token=...``: the cookie (if it is the token) and the same URL without it."""
    given = request.args.get("token", "")
    rest = [(k, v) for k, v in request.args.items(multi=True) if k != "token"]
    target = request.path + ("?" + urlencode(rest) if rest else "")
    resp = redirect(target, 303)
    resp.headers["Cache-Control"] = "no-store"
    if _is_token(given):
        resp.set_cookie(
            TOKEN_COOKIE, given, httponly=True, samesite="Strict", path="/"
        )
    return resp


class RedactToken(logging.Filter):
    """Masks ``token=...`` in log lines (werkzeug's access log shows each URL)."""

    pattern = re.compile(r"(\btoken=)[^&\s\"']+")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = self.pattern.sub(r"\1***", record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(
                self.pattern.sub(r"\1***", a) if isinstance(a, str) else a
                for a in record.args
            )
        return True


def require_token() -> None:
    """Abort 403 unless the request carries the control token."""
    if not has_token():
        fail(403, "token_needed")


def hung_up(sock: Any) -> bool:
    """True once the client of a streamed response has closed its connection.

    ``sock`` is werkzeug's ``environ["werkzeug.socket"]``; a closed connection
    reads as end of file (peeked, so nothing is consumed). Without a socket (a
    test client) it is False and the streams' time limits apply.
    """
    if sock is None:
        return False
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        return bool(readable) and sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):  # closed or reset
        return True


def _same_origin(url: str) -> bool:
    try:
        parts = urlsplit(url)
    except ValueError:  # not a URL at all
        return False
    return f"{parts.scheme}://{parts.netloc}" == request.host_url.rstrip("/")


def _guard() -> Response | None:
    allowed = current_app.config.get("ALLOWED_HOSTS")
    try:
        hostname = urlsplit("//" + request.host).hostname or ""
    except ValueError:  # an unparsable Host header (a bad port, brackets ...)
        hostname = None
    if allowed and hostname not in allowed:
        fail(400, "host_unknown", host=repr(request.host[:80]))
    if request.method in ("GET", "HEAD") and "token" in request.args:
        return _token_visit()
    if request.method not in UNSAFE:
        return None
    origin = request.headers.get("Origin")
    referer = request.headers.get("Referer")
    if origin is not None and not _same_origin(origin):
        fail(403, "cross_site_origin")
    if origin is None and referer and not _same_origin(referer):
        fail(403, "cross_site_referer")
    if request.method != "DELETE" and request.mimetype != "application/json":
        fail(415, "not_json_type")
    require_token()
    return None


def _said_by(exc: HTTPException) -> tuple[str, dict[str, Any]]:
    """The refusal's code and its parts: its own, or the status's when the
    server raised it without one (an unknown address, a method not taken)."""
    from .i18n import MESSAGES

    code = exc.code or 500
    reason = getattr(exc, "reason", None)
    if reason is not None:
        return reason, dict(getattr(exc, "params", {}) or {})
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if code == 413 and limit:
        return "body_too_large", {"kib": limit // 1024}
    if code >= 500:
        return "unexpected", {}
    return (f"http_{code}" if f"http_{code}" in MESSAGES else "http_4xx"), {}


def _error(exc: HTTPException) -> Response | tuple:
    """The error's answer: JSON ``{"error", "code", "message", "status"}``
    under ``/api`` (and to a client that asks for JSON), a short page
    elsewhere; the message in the viewer's language (:mod:`web.errors`)."""
    code = exc.code or 500
    reason, params = _said_by(exc)
    lang = viewer_lang()
    english = say(reason, "en", params)
    if reason.startswith("http_") and exc.description != type(exc).description:
        english = str(exc.description)  # a refusal raised with its own words
    message = english if lang == "en" else say(reason, lang, params)
    body = {"error": exc.name, "code": reason, "message": message, "status": code}
    body.update(details(reason, params, lang))  # options refused, a failure's words
    if (
        request.path.startswith("/api/")
        or request.accept_mimetypes.best == "application/json"
    ):
        return jsonify(body), code
    page = dict(body, message=english)
    said = None if lang == "en" else message
    try:
        return render_template("error.html", error=page, said=said), code
    except Exception:  # no page to render with (a Host no URL can be built for)
        text = escape(f"{code} {exc.name}: {english}")
        return Response(
            f"<!doctype html><title>{code}</title><p>{text}</p>\n",
            code,
            mimetype="text/html",
        )


def init_app(app: Flask) -> None:
    """Install the guards and the error handlers."""
    app.before_request(_guard)

    access = logging.getLogger("werkzeug")
    if not any(isinstance(f, RedactToken) for f in access.filters):
        access.addFilter(RedactToken())

    @app.after_request
    def _headers(resp: Response) -> Response:
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("X-Frame-Options", "DENY")
        resp.headers.setdefault("Referrer-Policy", "same-origin")
        resp.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; "
            "script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
        )
        return resp

    app.register_error_handler(HTTPException, _error)

    @app.errorhandler(EventError)
    @app.errorhandler(TableError)
    def _table_error(exc: EventError | TableError):
        status = getattr(exc, "status", 400)
        reason = getattr(exc, "reason", None)
        if reason is not None:
            return _error(Refusal(status, reason, **(exc.params or {})))
        err = HTTPException(exc.message)
        err.code = status
        return _error(err)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        return _error(Refusal(500, "unexpected"))
