"""Issue 26: the token leaves the URL after the first visit; a reachable address.

The first visit with ``?token=...`` sets an HttpOnly, SameSite=Strict cookie
and redirects to the same address without the token; afterwards the cookie
(or the X-Tableref-Token header) is the token and the URL never carries it.
"""

from __future__ import annotations

import argparse
import logging
import socket

import pytest
from webtest_game import PLAYERS, header

from web import create_app
from web.memstore import MemoryStore

TOKEN = "s3cret"
A = PLAYERS[0]


@pytest.fixture
def guarded():
    app = create_app(
        {"TESTING": True, "STORE": MemoryStore(), "TOKEN": TOKEN, "ALLOWED_HOSTS": None}
    )
    client = app.test_client()
    resp = client.post("/api/games", json=header(), headers={"X-Tableref-Token": TOKEN})
    assert resp.status_code == 201
    return client


@pytest.mark.parametrize(
    "url, target",
    [
        ("/?token=s3cret", "/"),
        ("/setup?token=s3cret", "/setup"),
        ("/scores?view=referee&token=s3cret", "/scores?view=referee"),
        ("/?lang=ja&token=s3cret&x=1", "/?lang=ja&x=1"),
    ],
)
def test_first_visit_sets_the_cookie_and_drops_the_token_from_the_url(
    guarded, url, target
):
    resp = guarded.get(url)
    assert resp.status_code in (302, 303), resp.status_code
    assert resp.headers["Location"] == target
    cookie = resp.headers["Set-Cookie"]
    assert f"tableref_token={TOKEN}" in cookie
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert TOKEN not in resp.get_data(as_text=True)
    page = guarded.get(target)  # the cookie is the token now
    assert page.status_code == 200
    assert TOKEN not in page.get_data(as_text=True)
    ok = guarded.post("/api/events", json={"type": "uno", "player": A})
    assert ok.status_code == 201


def test_a_wrong_token_sets_no_cookie(guarded):
    resp = guarded.get("/?token=wrong")
    assert "tableref_token" not in resp.headers.get("Set-Cookie", "")
    assert guarded.get("/").status_code == 403
    assert guarded.get("/api/state").status_code == 403


def test_the_token_in_a_query_string_is_not_a_credential(guarded):
    """Only the cookie and the header count: a token in a URL is redirected away."""
    resp = guarded.get("/api/state?token=s3cret")
    assert resp.status_code in (302, 303)
    assert resp.headers["Location"] == "/api/state"
    fresh = guarded.application.test_client()
    assert fresh.get("/api/events", query_string={"token": TOKEN}).status_code != 200
    auth = {"X-Tableref-Token": TOKEN}
    assert fresh.get("/api/events", headers=auth).status_code == 200
    other = guarded.application.test_client()  # no cookie from a redirect
    post = other.post("/api/events?token=s3cret", json={"type": "uno", "player": A})
    assert post.status_code == 403


def test_the_access_log_does_not_show_the_token(caplog):
    from web.security import RedactToken

    record = logging.LogRecord(
        "werkzeug", logging.INFO, __file__, 1,
        '%s - - [%s] "%s" %s %s',
        ("127.0.0.1", "now", "GET /?lang=ja&token=s3cret HTTP/1.1", "302", "-"),
        None,
    )
    assert RedactToken().filter(record)
    assert TOKEN not in record.getMessage() and "token=" in record.getMessage()
    assert any(
        isinstance(f, RedactToken) for f in logging.getLogger("werkzeug").filters
    )


class FakeSocket:
    """Records what the address lookup does with its socket: no packet leaves."""

    calls: list[tuple] = []

    def __init__(self, family=socket.AF_INET, kind=socket.SOCK_DGRAM, *a, **kw):
        self.calls.append(("socket", family, kind))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def connect(self, address):
        self.calls.append(("connect", address))

    def getsockname(self):
        return ("192.168.1.23", 50000)

    def close(self):
        pass

    def send(self, *a):  # pragma: no cover - must not be called
        self.calls.append(("send",))

    sendto = sendall = send


def test_the_printed_address_is_one_other_machines_can_open(monkeypatch):
    from web import commands

    FakeSocket.calls = []
    monkeypatch.setattr(commands.socket, "socket", FakeSocket)
    assert commands.reachable_host("0.0.0.0") == "192.168.1.23"
    assert [c[0] for c in FakeSocket.calls] == ["socket", "connect"]
    assert FakeSocket.calls[0][2] == socket.SOCK_DGRAM  # UDP: connect sends nothing
    assert commands.reachable_host("127.0.0.1") == "127.0.0.1"
    assert commands.reachable_host("192.168.1.5") == "192.168.1.5"


def test_without_a_route_the_hostname_is_printed(monkeypatch):
    from web import commands

    class NoRoute(FakeSocket):
        def connect(self, address):
            raise OSError("Network is unreachable")

    monkeypatch.setattr(commands.socket, "socket", NoRoute)
    monkeypatch.setattr(commands.socket, "gethostname", lambda: "tablepc")
    assert commands.reachable_host("0.0.0.0") == "tablepc"


def test_serve_prints_a_reachable_address(monkeypatch, tmp_path, capsys):
    """``tableref serve --host 0.0.0.0`` printed http://0.0.0.0:...; no server runs."""
    import werkzeug.serving

    from web import commands

    class Server:
        server_port = 8123

        def serve_forever(self):
            raise KeyboardInterrupt

        def server_close(self):
            pass

    bound = []

    def make_server(host, port, app, threaded):
        bound.append(host)
        return Server()

    monkeypatch.setattr(werkzeug.serving, "make_server", make_server)
    monkeypatch.setattr(commands, "reachable_host", lambda host: "192.168.1.23")
    p = argparse.ArgumentParser()
    commands.serve_arguments(p)
    args = p.parse_args(
        ["--host", "0.0.0.0", "--token", "t0k", "--demo-log", "--port", "0",
         "--db", str(tmp_path / "t.sqlite3")]
    )
    assert commands.serve(args) == 0
    out = capsys.readouterr().out
    assert bound == ["0.0.0.0"]
    assert "http://0.0.0.0" not in out
    assert "open http://192.168.1.23:8123/?token=t0k" in out
