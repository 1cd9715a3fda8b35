"""Drive a real ``tableref serve`` process for the fault tests and benchmarks.

Everything stays on 127.0.0.1, every wait has a timeout, and a started server
is always stopped (``Server.stop`` / ``Server.kill9``) by its caller's
``finally``. Used by ``tests/faults/`` and ``benchmarks/fault_kill9.py`` /
``benchmarks/load_sse.py`` (which import it as ``tests.faults.faults_server``).
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

HOST = "127.0.0.1"
START_TIMEOUT = 60.0  # seconds for ``tableref serve`` to print its URL

HEADER = {"type": "game", "game": "uno", "rules": "official",
          "players": ["P1", "P2", "P3", "P4"], "dealer": "P4",
          "options": {"scoring": "japan", "rounds": 40}}


def event_stream(seed: int, count: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A legal UNO game (the project's simulator) cut to ``count`` events.

    The cut is taken before the game is over, so the game stays resumable.
    """
    from referee.session import Referee
    from referee.uno.simulate import simulate

    sim = simulate(seed, 4, dict(HEADER["options"]))
    referee = Referee(sim.header)
    events: list[dict[str, Any]] = []
    for event in sim.events[:count]:
        referee.append(event)
        if referee.state().get("over"):
            break
        events.append(dict(event))
    return dict(sim.header), events


class ServerError(RuntimeError):
    """The server did not start or answer in time."""


class Server:
    """One ``tableref serve`` subprocess on an ephemeral port of 127.0.0.1.

    Args:
        db: the game store it uses (``--db``).
        extra: more ``tableref serve`` arguments.
        preexec: run in the child before ``exec`` (e.g. ignore ``SIGXFSZ``).
    """

    def __init__(self, db: str | os.PathLike[str], *extra: str,
                 preexec: Callable[[], None] | None = None):
        self.db = Path(db)
        self.extra = list(extra)
        self.preexec = preexec
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0
        self.lines: list[str] = []
        self.started_at = 0.0  # time.monotonic() just before the process started

    def start(self, timeout: float = START_TIMEOUT) -> "Server":
        """Start the process and wait (bounded) for it to print its URL."""
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        cmd = [sys.executable, "-m", "tableref", "serve", "--host", HOST,
               "--port", "0", "--db", str(self.db), "--demo-log", *self.extra]
        self.started_at = time.monotonic()
        self.proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, text=True, env=env, cwd=str(self.db.parent),
            preexec_fn=self.preexec)
        lines: queue.Queue[str | None] = queue.Queue()

        def drain(stream: Any) -> None:
            for line in stream:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=drain, args=(self.proc.stdout,), daemon=True).start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            self.lines.append(line)
            if "open http://" in line:
                url = line.split("open ", 1)[1].strip()
                self.port = int(url.split(":")[2].split("/")[0])
                self._collect(lines)
                return self
        self.stop()
        raise ServerError("tableref serve did not print its URL:\n"
                          + "".join(self.lines))

    def _collect(self, lines: "queue.Queue[str | None]") -> None:
        def run() -> None:
            while True:
                line = lines.get()
                if line is None:
                    return
                self.lines.append(line)

        threading.Thread(target=run, daemon=True).start()

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill9(self) -> None:
        """``kill -9`` the server and reap it."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(10)

    def stop(self) -> None:
        """Terminate (then kill) the server; safe to call twice."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)

    # -- HTTP ----------------------------------------------------------------------
    def request(self, method: str, path: str, body: Any = None,
                timeout: float = 10.0) -> tuple[int, Any]:
        """One request on a fresh connection; returns (status, decoded JSON or text)."""
        return request(self.port, method, path, body, timeout)

    def wait_state(self, check: Callable[[dict[str, Any]], bool],
                   timeout: float = 30.0) -> dict[str, Any]:
        """Poll ``/api/state`` until ``check(state)``; returns that state."""
        deadline = time.monotonic() + timeout
        last: Any = None
        while time.monotonic() < deadline:
            try:
                status, snap = self.request("GET", "/api/state", timeout=5)
            except OSError as exc:
                last = exc
            else:
                last = snap
                if status == 200 and check(snap):
                    return snap
            time.sleep(0.005)
        raise ServerError(
            f"no good state within {timeout} s; last answer: {last!r}"[:2000])


def request(port: int, method: str, path: str, body: Any = None,
            timeout: float = 10.0) -> tuple[int, Any]:
    """One HTTP request to 127.0.0.1:``port``; JSON bodies in and out."""
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        headers = {}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=headers)
        resp = conn.getresponse()
        raw = resp.read()
        kind = resp.getheader("Content-Type") or ""
        if "application/json" in kind:
            return resp.status, json.loads(raw)
        return resp.status, raw.decode("utf-8", "replace")
    finally:
        conn.close()


def normal(obj: Any) -> Any:
    """``obj`` as it looks after a JSON round trip (tuples become lists ...)."""
    return json.loads(json.dumps(obj, ensure_ascii=False))


def clean_replay(lines: Sequence[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """State and rulings of a clean :func:`referee.game.replay` of table-log lines."""
    from referee.game import replay

    result = replay(lines)
    return normal(result.state()), normal([r.to_dict() for r in result.rulings])


def export_lines(server: Server, gid: int) -> list[str]:
    """The game's table log from the server's export endpoint."""
    status, text = server.request("GET", f"/api/games/{gid}/log")
    if status != 200:
        raise ServerError(f"export of game {gid} answered {status}: {text!r}"[:500])
    return [line for line in str(text).splitlines() if line.strip()]


def create_game(db: str | os.PathLike[str], header: dict[str, Any]) -> int:
    """Store a new game directly (the state a previous session left behind)."""
    from referee.store import GameStore

    store = GameStore(db)
    try:
        return store.create_game(header)
    finally:
        store.close()


@dataclass
class KillReport:
    """What a series of kill -9 cycles showed."""

    kills: int = 0
    acked: int = 0  # requests (events and undos) answered 2xx
    lost: int = 0  # acknowledged events missing (or changed) after a restart
    stored: int = 0  # events in the store at the end of the last game
    resume_ms: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _post_stream(server: Server, events: list[dict[str, Any]], start: int,
                 acked: dict[int, int], report: "KillReport", stop: threading.Event,
                 undo_every: int = 0) -> None:
    """POST ``events[start:]`` one by one until the server dies; record every 2xx.

    With ``undo_every``, every such event is also undone (``POST /api/undo``, a
    correction stored as a new version of the log) and posted again, so kills
    land in corrections too. The client forgets a line before asking to undo
    it: only what is acknowledged and not taken back must survive.
    """
    def post(path: str, body: Any) -> tuple[int, Any] | None:
        try:
            status, answer = server.request("POST", path, body, timeout=5)
        except (OSError, http.client.HTTPException):
            return None  # the server was killed: this request is unacknowledged
        if not 200 <= status < 300:
            report.problems.append(f"{path} answered {status}: {answer!r}"[:300])
            return None
        report.acked += 1
        return status, answer

    for i in range(start, len(events)):
        for attempt in range(2 if undo_every and (i + 1) % undo_every == 0 else 1):
            if stop.is_set():
                return
            if attempt:
                acked.pop(i + 1, None)
                if post("/api/undo", {}) is None:
                    return
            done = post("/api/events", events[i])
            if done is None:
                return
            line = int(done[1]["line"])
            acked[line] = i
            if line != i + 1:
                report.problems.append(f"event {i} was acknowledged as line {line}")
                return


def check_restart(server: Server, gid: int, expected: list[dict[str, Any]],
                  acked: dict[int, int], report: KillReport) -> int:
    """After a restart: acknowledged events all there, state == clean replay.

    Returns the number of stored events (where the client goes on).
    """
    snap = server.wait_state(lambda s: s.get("game") == gid)
    report.resume_ms.append((time.monotonic() - server.started_at) * 1000)
    stored = snap["events"]
    for line, i in acked.items():
        if line > len(stored) or stored[line - 1] != expected[i]:
            report.lost += 1
    if stored != expected[:len(stored)]:
        report.problems.append(f"the store is not a prefix of the stream "
                               f"({len(stored)} events)")
    lines = export_lines(server, gid)
    state, rulings = clean_replay(lines)
    if normal(snap["state"]) != state:
        report.problems.append(f"restarted state differs from a clean replay "
                               f"after {len(stored)} events")
    live = [{k: v for k, v in r.items() if k != "index"} for r in snap["rulings"]]
    if normal(live) != rulings:
        report.problems.append(f"restarted rulings differ from a clean replay "
                               f"after {len(stored)} events")
    page_status, page = server.request("GET", "/")
    if page_status != 200 or not all(p in str(page) for p in snap["header"]["players"]):
        report.problems.append(
            f"the page did not show the resumed game ({page_status})")
    return len(stored)


def kill_cycles(db: str | os.PathLike[str], header: dict[str, Any],
                events: list[dict[str, Any]], kills: int, seed: int,
                max_delay: float = 0.4, report: KillReport | None = None,
                undo_every: int = 0) -> KillReport:
    """Stream ``events`` into a real server, ``kill -9`` it ``kills`` times, check.

    Each cycle restarts the server on the same db, checks that every
    acknowledged event is stored in order and that the reported state equals
    a clean replay of the exported log, then resumes the stream from what is
    stored and kills the server again after a random delay.
    """
    report = report or KillReport()
    rng = random.Random(seed)
    gid = create_game(db, header)
    expected = [{**e, "source": e.get("source", "manual")} for e in events]
    acked: dict[int, int] = {}
    for cycle in range(kills + 1):
        server = Server(db).start()
        try:
            pos = check_restart(server, gid, expected, acked, report)
            report.stored = pos
            if cycle == kills or pos >= len(events):
                break
            stop = threading.Event()
            client = threading.Thread(target=_post_stream, daemon=True, args=(
                server, events, pos, acked, report, stop, undo_every))
            client.start()
            time.sleep(rng.uniform(0.02, max_delay))
            server.kill9()
            report.kills += 1
            stop.set()
            client.join(15)
            if client.is_alive():
                report.problems.append("the client did not notice the kill within 15 s")
        finally:
            server.stop()
    return report
