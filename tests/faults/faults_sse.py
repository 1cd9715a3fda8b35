"""SSE viewers on plain sockets, for the load test and ``benchmarks/load_sse.py``.

Each :class:`Viewer` opens ``GET /api/stream`` (HTTP/1.0, so the body is the
raw stream), parses the messages and stamps each with ``time.monotonic()``.
All reads have a short socket timeout and an overall deadline: nothing hangs.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

HOST = "127.0.0.1"  # where faults_server.Server listens


class Served(Protocol):
    """What :func:`load` needs of a running server (``faults_server.Server``)."""

    port: int

    def request(self, method: str, path: str, body: Any = None,
                timeout: float = 10.0) -> tuple[int, Any]: ...


@dataclass
class Message:
    """One SSE message as a viewer received it."""

    id: int
    kind: str
    data: dict[str, Any]
    at: float  # time.monotonic() when it was parsed


@dataclass
class Viewer:
    """One viewer of the rulings stream, run in its own thread."""

    port: int
    deadline: float
    messages: list[Message] = field(default_factory=list)
    ready: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)
    error: str | None = None
    target: int | None = None  # stop after this many messages (set by the poster)
    last_event_id: int | None = None  # sent as Last-Event-ID, as a browser reconnects

    def start(self) -> "Viewer":
        threading.Thread(target=self._run, daemon=True).start()
        return self

    def _run(self) -> None:
        try:
            self._read()
        except Exception as exc:  # reported, never raised in a thread
            self.error = f"{exc.__class__.__name__}: {exc}"
        finally:
            self.ready.set()
            self.done.set()

    def _finished(self) -> bool:
        return self.target is not None and len(self.messages) >= self.target

    def _read(self) -> None:
        sock = socket.create_connection((HOST, self.port), timeout=5)
        try:
            sock.settimeout(0.25)
            resume = ("" if self.last_event_id is None
                      else f"Last-Event-ID: {self.last_event_id}\r\n")
            sock.sendall(f"GET /api/stream HTTP/1.0\r\nHost: {HOST}:{self.port}\r\n"
                         f"Accept: text/event-stream\r\n{resume}\r\n".encode())
            buf = b""
            headers_done = False
            while time.monotonic() < self.deadline and not self._finished():
                try:
                    chunk = sock.recv(65536)
                except socket.timeout:
                    continue
                if not chunk:
                    self.error = self.error or "the server closed the stream"
                    return
                now = time.monotonic()
                buf += chunk
                if not headers_done:
                    if b"\r\n\r\n" not in buf:
                        continue
                    head, buf = buf.split(b"\r\n\r\n", 1)
                    if b" 200 " not in head.split(b"\r\n", 1)[0]:
                        self.error = head.decode("latin-1")[:200]
                        return
                    headers_done = True
                while b"\n\n" in buf:
                    block, buf = buf.split(b"\n\n", 1)
                    self._message(block.decode("utf-8"), now)
            if not self._finished():
                self.error = self.error or (
                    f"deadline passed with {len(self.messages)} of {self.target} "
                    "messages")
        finally:
            sock.close()

    def _message(self, block: str, now: float) -> None:
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if line.startswith(":"):
                if "connected" in line:
                    self.ready.set()
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            fields[name] = f"{fields[name]}\n{value}" if name in fields else value
        if "data" in fields:
            self.messages.append(Message(int(fields.get("id", "0")),
                                         fields.get("event", ""),
                                         json.loads(fields["data"]), now))


def message_line(msg: Message) -> int | None:
    """The log line a ruling or event message is about."""
    if msg.kind == "ruling":
        return int(msg.data["event"])
    if msg.kind == "event":
        return int(msg.data["line"])
    return None


def load(server: Served, events: list[dict[str, Any]], viewers: int, rate: float | None,
         timeout: float = 60.0) -> dict[str, Any]:
    """Open ``viewers`` streams, POST ``events`` at ``rate``/s, collect what they got.

    Returns ``latencies_ms`` (every viewer x every line: POST sent -> first
    message about that line received), ``complete`` (every viewer got every
    message, in order), the server's rulings and the viewers' problems.
    """
    deadline = time.monotonic() + timeout
    group = [Viewer(server.port, deadline).start() for _ in range(viewers)]
    for v in group:
        if not v.ready.wait(max(0.1, deadline - time.monotonic())):
            raise RuntimeError("a viewer did not connect in time")
    sent: dict[int, float] = {}
    t0 = time.monotonic()
    for k, event in enumerate(events):
        if rate:
            pause = t0 + k / rate - time.monotonic()
            if pause > 0:
                time.sleep(pause)
        at = time.monotonic()
        status, body = server.request("POST", "/api/events", event, timeout=10)
        if status != 201:
            raise RuntimeError(f"event {k} answered {status}: {body!r}"[:300])
        sent[int(body["line"])] = at
    post_seconds = time.monotonic() - t0
    status, snap = server.request("GET", "/api/state")
    rulings = snap["rulings"]
    lines_with_rulings = {r["event"] for r in rulings}
    new_rulings = [r for r in rulings if r["event"] in sent]
    target = len(new_rulings) + len([n for n in sent if n not in lines_with_rulings])
    for v in group:
        v.target = target
    for v in group:
        v.done.wait(max(0.1, deadline - time.monotonic()))
    problems: list[str] = []
    latencies: list[float] = []
    for n, v in enumerate(group):
        if v.error:
            problems.append(f"viewer {n}: {v.error}")
        got = [m.data for m in v.messages if m.kind == "ruling"]
        if got != new_rulings:
            problems.append(f"viewer {n}: {len(got)} rulings, expected "
                            f"{len(new_rulings)} in order")
        ids = [m.id for m in v.messages]
        if ids != sorted(set(ids)):
            problems.append(f"viewer {n}: message ids out of order or repeated")
        first: dict[int, float] = {}
        for m in v.messages:
            line = message_line(m)
            if line is not None and line not in first:
                first[line] = m.at
        missing = [line for line in sent if line not in first]
        if missing:
            problems.append(f"viewer {n}: nothing received for lines {missing[:10]}")
        latencies += [(first[line] - sent[line]) * 1000
                      for line in sent if line in first]
    return {"viewers": viewers, "events": len(events), "messages": target,
            "latencies_ms": latencies, "complete": not problems, "problems": problems,
            "rulings": new_rulings, "post_seconds": post_seconds}


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank) of ``values``."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, int(round(q / 100 * len(ordered) + 0.5)) - 1))
    return ordered[rank]
