"""A full disk while the server records: never a silent acknowledgement.

Three ways to fill the disk under a running server:

* the real ``tableref serve`` process gets a file-size limit of 1 byte
  (``prlimit(RLIMIT_FSIZE)`` from the test, with ``SIGXFSZ`` ignored in the
  child), so every write to its database fails as it would on a full disk;
  the limit is lifted again to show that recording resumes;
* a real full file system: the database on a 4 MiB tmpfs filled up by another
  file (needs root to mount; skipped elsewhere), then space freed again;
* the app in-process with SQLite's own "database or disk is full" condition
  (``PRAGMA max_page_count`` on the app's store).
"""

from __future__ import annotations

import errno
import json
import os
import resource
import shutil
import signal
import subprocess

import pytest

from faults_server import Server, create_game, event_stream

pytestmark = pytest.mark.skipif(not hasattr(resource, "prlimit"),
                                reason="prlimit is Linux only")


# more than a database page of payload, so the insert needs new pages
PAD = {f"pad{i}": "x" * 1900 for i in range(5)}


def _ignore_sigxfsz() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def _limit(pid: int, size: int) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (size, hard))


def test_full_disk_is_a_5xx_never_an_ack_and_recording_resumes(tmp_path):
    db = tmp_path / "t.sqlite3"
    header, events = event_stream(21, 12)
    gid = create_game(db, header)
    server = Server(db, preexec=_ignore_sigxfsz).start()
    acked = []
    try:
        server.wait_state(lambda s: s.get("game") == gid)
        for event in events[:4]:
            status, body = server.request("POST", "/api/events", event)
            assert status == 201
            acked.append(event)
        before = server.request("GET", "/api/state")[1]

        _limit(server.pid, 1)  # the disk is full
        for event in events[4:7]:
            status, body = server.request("POST", "/api/events", event)
            assert status >= 500, (status, body)
            assert isinstance(body, dict) and body["message"]
            assert body["status"] == status
        status, body = server.request("POST", "/api/undo", {})
        assert status >= 500, (status, body)
        during = server.request("GET", "/api/state")[1]
        # nothing was applied that is not recorded
        assert during["events"] == before["events"]
        assert during["state"] == before["state"]
        assert during["rulings"] == before["rulings"]

        _limit(server.pid, resource.RLIM_INFINITY)  # space is back
        for n, event in enumerate(events[4:], start=5):
            status, body = server.request("POST", "/api/events", event)
            assert (status, body["line"]) == (201, n)
            acked.append(event)
        server.kill9()
    finally:
        server.stop()
    server = Server(db).start()
    try:
        snap = server.wait_state(lambda s: s.get("game") == gid)
        assert [{k: v for k, v in e.items() if k != "source"} for e in snap["events"]] \
            == acked
    finally:
        server.stop()


@pytest.fixture
def small_disk(tmp_path):
    """A 4 MiB tmpfs mounted for this test only (skipped where that is not allowed)."""
    mnt = tmp_path / "disk"
    mnt.mkdir()
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mnt)],
                          capture_output=True, text=True, timeout=20)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True, timeout=20)


def _fill(path) -> int:
    """Write ``path`` until the file system is full; returns the bytes written."""
    written = 0
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (1 << 16, 1 << 12, 1):
            for _ in range(10_000):
                try:
                    written += os.write(fd, b"\0" * size)
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC, exc
                    break
    finally:
        os.close(fd)
    return written


def test_real_full_file_system_then_space_freed(small_disk):
    db = small_disk / "t.sqlite3"
    header, events = event_stream(23, 12)
    gid = create_game(db, header)
    server = Server(db).start()
    acked = []
    try:
        server.wait_state(lambda s: s.get("game") == gid)
        for event in events[:4]:
            assert server.request("POST", "/api/events", event)[0] == 201
            acked.append(event)
        before = server.request("GET", "/api/state")[1]
        filler = small_disk / "filler"
        assert _fill(filler) > 0
        for event in events[4:7]:
            status, body = server.request("POST", "/api/events", event)
            assert status >= 500, (status, body)
            assert isinstance(body, dict) and body["message"]
        during = server.request("GET", "/api/state")[1]
        assert during["events"] == before["events"]
        assert during["state"] == before["state"]
        filler.unlink()  # space is back
        for n, event in enumerate(events[4:], start=5):
            status, body = server.request("POST", "/api/events", event)
            assert (status, body["line"]) == (201, n)
            acked.append(event)
        server.kill9()
    finally:
        server.stop()
    server = Server(db).start()
    try:
        snap = server.wait_state(lambda s: s.get("game") == gid)
        assert [{k: v for k, v in e.items() if k != "source"} for e in snap["events"]] \
            == acked
    finally:
        server.stop()


def _app_with_full_disk(tmp_path):
    from web import create_app

    app = create_app({"DATABASE": str(tmp_path / "app.sqlite3"),
                      "EVIDENCE_DIRS": [str(tmp_path / "evidence")]})
    store = app.extensions["tableref.store"]
    client = app.test_client()
    header, events = event_stream(22, 6)
    assert client.post("/api/games", json=header).status_code == 201
    assert client.post("/api/events", json=events[0]).status_code == 201
    (pages,) = store._db.execute("PRAGMA page_count").fetchone()
    store._db.execute(f"PRAGMA max_page_count={pages}")
    return app, store, client, events


def test_sqlite_full_is_refused_and_the_referee_does_not_move(tmp_path):
    app, store, client, events = _app_with_full_disk(tmp_path)
    before = client.get("/api/state").get_json()
    resp = client.post("/api/events", json={**events[1], **PAD})
    assert resp.status_code >= 500 and resp.is_json
    assert client.get("/api/state").get_json()["events"] == before["events"]
    store._db.execute("PRAGMA max_page_count=1073741823")
    resp = client.post("/api/events", json=events[1])
    assert resp.status_code == 201 and resp.get_json()["line"] == 2
    assert len(store.events(before["game"])) == 2


def test_full_disk_answer_says_the_event_was_not_recorded(tmp_path):
    app, store, client, events = _app_with_full_disk(tmp_path)
    resp = client.post("/api/events", json={**events[1], **PAD})
    body = resp.get_json()
    assert resp.status_code >= 500, json.dumps(body)  # 507 Insufficient Storage
    assert "not recorded" in body["message"].lower(), body["message"]
