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
- Errors are JSON ``{"error", "message", "status"}`` under ``/api`` and a short
  page elsewhere; never a traceback.
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
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
)
from werkzeug.exceptions import HTTPException, InternalServerError

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
        abort(
            403,
            "this action needs the token printed by 'tableref serve' "
            "(open the printed URL once, or send the X-Tableref-Token header)",
        )


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
        abort(
            400,
            f"unknown Host {request.host[:80]!r}; open the address 'tableref serve' "
            "printed",
        )
    if request.method in ("GET", "HEAD") and "token" in request.args:
        return _token_visit()
    if request.method not in UNSAFE:
        return None
    origin = request.headers.get("Origin")
    referer = request.headers.get("Referer")
    if origin is not None and not _same_origin(origin):
        abort(403, "cross-site request refused (its Origin is another site)")
    if origin is None and referer and not _same_origin(referer):
        abort(403, "cross-site request refused (its Referer is another site)")
    if request.method != "DELETE" and request.mimetype != "application/json":
        abort(415, "send the request body as JSON (Content-Type: application/json)")
    require_token()
    return None


def _error(exc: HTTPException) -> Response | tuple:
    code = exc.code or 500
    message = exc.description
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if code == 413 and limit:
        message = f"the request body is over {limit // 1024} KiB"
    body = {"error": exc.name, "message": message, "status": code}
    if (
        request.path.startswith("/api/")
        or request.accept_mimetypes.best == "application/json"
    ):
        return jsonify(body), code
    try:
        return render_template("error.html", error=body, said=_said(code)), code
    except Exception:  # no page to render with (a Host no URL can be built for)
        text = escape(f"{code} {exc.name}: {exc.description}")
        return Response(
            f"<!doctype html><title>{code}</title><p>{text}</p>\n",
            code,
            mimetype="text/html",
        )


def _said(code: int) -> str | None:
    """What an error page says first in a viewer's language other than
    English (the server's own words follow it); ``None`` in English."""
    from flask import g

    from .i18n import MESSAGES, translate

    if getattr(g, "lang", "en") == "en" or not 400 <= code < 500:
        return None
    return translate(f"http_{code}" if f"http_{code}" in MESSAGES else "http_4xx")


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
        err = HTTPException(exc.message)
        err.code = status
        return _error(err)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        return _error(
            InternalServerError(
                "the referee hit an unexpected error; the game is safe in the store"
            )
        )
