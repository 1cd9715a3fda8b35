"""Issue 26: ``/video.mjpeg`` needs the token; video and SSE leave no thread behind.

Every test here talks to a real threaded werkzeug server on the loopback
interface only (port chosen by the system), with a camera that never has a
frame: before the fix every connection kept a thread sleeping for hours.
"""

from __future__ import annotations

import socket
import threading
import time
import types

import pytest
from webtest_game import header

from web import create_app
from web.camera import Camera
from web.memstore import MemoryStore

TOKEN = "s3cret"
CONNECTIONS = 200


class NoFrames(Camera):
    """A camera whose pipeline runs but has not produced a frame (yet)."""

    def __init__(self, frames: list[bytes] | None = None) -> None:
        super().__init__()
        self.pipeline = types.SimpleNamespace(status=lambda: {"state": "running"})
        self.error = None
        self.frames = frames or []

    def jpeg(self):
        return self.frames[-1] if self.frames else None


@pytest.fixture
def server():
    from werkzeug.serving import make_server

    app = create_app(
        {
            "TESTING": True,
            "STORE": MemoryStore(),
            "TOKEN": TOKEN,
            "ALLOWED_HOSTS": None,
            "VIDEO_FPS": 20.0,
            "VIDEO_IDLE": 1.0,
        }
    )
    client = app.test_client()
    assert (
        client.post(
            "/api/games", json=header(), headers={"X-Tableref-Token": TOKEN}
        ).status_code
        == 201
    )
    camera = NoFrames()
    app.extensions["tableref.table"].camera = camera
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield types.SimpleNamespace(port=srv.server_port, app=app, camera=camera)
    srv.shutdown()
    srv.server_close()
    thread.join(5)


def request(
    port: int, auth: str | None, wait: float = 0.0, path: str = "/video.mjpeg",
    enough: bytes | None = None,
) -> bytes:
    """GET ``path``; read what comes within ``wait`` seconds (or until what came
    holds ``enough``), then hang up."""
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}"]
    if auth == "cookie":
        lines.append(f"Cookie: tableref_token={TOKEN}")
    elif auth == "header":
        lines.append(f"X-Tableref-Token: {TOKEN}")
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        got = b""
        end = time.monotonic() + wait
        sock.settimeout(0.05)
        while time.monotonic() < end:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                break
            got += chunk
            if enough is not None and enough in got:
                break
        return got


def settle(baseline: int, limit: float = 15.0) -> int:
    """Threads alive once the server's request threads have ended (or the limit)."""
    end = time.monotonic() + limit
    while threading.active_count() > baseline and time.monotonic() < end:
        time.sleep(0.05)
    return threading.active_count()


def test_video_needs_the_token(server):
    answer = request(server.port, None, wait=1.0)
    assert answer.startswith(b"HTTP/1.1 403"), answer[:200]
    server.camera.frames.append(b"\xff\xd8jpeg")
    answer = request(server.port, "cookie", wait=0.5)
    assert answer.startswith(b"HTTP/1.1 200") and b"jpeg" in answer, answer[:300]


def test_connections_that_hang_up_leave_no_thread(server):
    """Issue 26: 100 connections left 100 threads; now 200 leave none."""
    request(server.port, "header", wait=0.2)  # warm up (imports, first request)
    baseline = settle(threading.active_count() - 1, limit=3)
    started = time.monotonic()
    peak = baseline
    for i in range(CONNECTIONS):
        request(server.port, "cookie" if i % 2 else "header")
        peak = max(peak, threading.active_count())
    after = settle(baseline)
    print(
        f"video: {CONNECTIONS} connections, threads before {baseline}, peak {peak}, "
        f"after {after}, {time.monotonic() - started:.1f} s"
    )
    assert after <= baseline, (baseline, peak, after)


def test_a_stream_without_frames_ends_after_the_idle_limit(server):
    """A client that stays while no frame comes is answered and let go."""
    baseline = threading.active_count()
    started = time.monotonic()
    answer = request(server.port, "header", wait=8.0)  # returns when the server ends it
    took = time.monotonic() - started
    assert took < 5.0, took  # VIDEO_IDLE is 1 s
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
    assert settle(baseline) <= baseline


def test_a_stream_with_frames_ends_when_the_client_leaves(server):
    server.camera.frames.append(b"\xff\xd8one")
    baseline = threading.active_count()
    stop = threading.Event()

    def feed():  # a new frame every 50 ms: the idle limit never applies
        n = 0
        while not stop.is_set():
            n += 1
            server.camera.frames.append(b"\xff\xd8frame%d" % n)
            time.sleep(0.05)

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        for _ in range(20):
            assert b"frame" in request(server.port, "cookie", wait=3.0, enough=b"frame")
        assert settle(baseline + 1) <= baseline + 1  # the feeder itself
    finally:
        stop.set()
        feeder.join(2)


def test_event_streams_that_hang_up_leave_no_thread(server):
    """The SSE stream noticed a gone client only at its next heartbeat (15 s):
    a page reloaded 50 times held 50 threads that long; now about a second."""
    server.app.config.update(SSE_HEARTBEAT=15.0, SSE_SECONDS=300.0)
    request(server.port, None, wait=0.2, path="/api/stream")
    baseline = settle(threading.active_count() - 1, limit=3)
    for i in range(50):
        # every tenth waits for the status line (up to 2 s on a loaded machine)
        got = request(server.port, None, wait=2.0 if i % 10 == 0 else 0.0,
                      path="/api/stream", enough=b"\r\n")
        assert i % 10 or got.startswith(b"HTTP/1.1 200"), got[:100]
    after = settle(baseline, limit=5.0)
    print(f"stream: 50 connections, threads before {baseline}, after {after}")
    assert after <= baseline
