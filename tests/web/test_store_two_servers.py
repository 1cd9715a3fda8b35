"""Two servers on one store (the same user folder, the same ``--db``): the one
that starts second neither sweeps the first's live files as left by a stop
nor referees the first's game beside it (``web.lease``); once the first is
gone (``kill -9``), the next start sweeps what it left and takes its game up
with nothing recorded lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from web import create_app
from web.errors import ERRORS
from web.sweep import sweep

pytest.importorskip("fcntl")

ROOT = Path(__file__).resolve().parents[2]
UNO = {"game": "uno", "rules": "official", "players": ["A", "B", "C"]}
FIRST = textwrap.dedent("""
    import sys
    from web import create_app
    app = create_app({"DATABASE": sys.argv[1], "EVIDENCE_DIRS": [sys.argv[2]]})
    client = app.test_client()
    assert client.post("/api/games", json=%r).status_code == 201
    assert client.post("/api/events", json={"type": "start", "card": "red-7"}
                       ).status_code == 201
    print(app.extensions["tableref.table"].gid, flush=True)
    sys.stdin.read()  # runs until its input is closed (or it is killed)
""" % (UNO,))


def strays(store, gid: int) -> list[Path]:
    """What a server writes of game ``gid`` before naming it (a frame before
    its row, its pipeline's copy, a state being written): left by a stop, or
    in flight in a live server."""
    folder = Path(store.evidence_dir)
    paths = [folder / str(gid) / "99000.jpg", folder / f"camera-{gid}" / "0001-play.jpg",
             Path(f"{store.path}-camera") / f"game-{gid}.json.tmp",
             Path(f"{store.path}-undo") / f"game-{gid}.json.tmp"]
    for path in paths:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"\xff\xd8 in flight")
    return paths


def app_on(db: Path, tmp_path: Path):
    return create_app({"TESTING": True, "DATABASE": str(db),
                       "EVIDENCE_DIRS": [str(tmp_path / "evidence")]})


def test_a_second_server_leaves_the_first_ones_game_and_files_alone(tmp_path):
    db = tmp_path / "store" / "tableref.sqlite3"
    db.parent.mkdir()
    early = app_on(db, tmp_path)  # a game left by a server that has stopped
    client = early.test_client()
    assert client.post("/api/games", json=UNO).status_code == 201
    old = early.extensions["tableref.table"].gid
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    first = subprocess.Popen([sys.executable, "-c", FIRST, str(db), str(tmp_path / "ev1")],
                             cwd=ROOT, env=env, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        line = first.stdout.readline()
        assert line.strip().isdigit(), (line, first.poll())
        live = int(line)
        second = app_on(db, tmp_path)
        store = second.extensions["tableref.store"]
        theirs, left = strays(store, live), strays(store, old)
        swept = sweep(store, store.evidence_dir)
        assert sorted(swept) == sorted(left)  # the stopped one's, not the live one's
        assert all(p.is_file() for p in theirs)
        table = second.extensions["tableref.table"]
        assert table.gid != live  # the last game is the first server's: not taken
        resp = second.test_client().post(f"/api/games/{live}/resume?lang=ja", json={})
        assert resp.status_code == 409 and resp.get_json()["code"] == "game_held"
        assert str(first.pid) in resp.get_json()["message"]
        assert resp.get_json()["message"].endswith("。")
        en = second.test_client().post(f"/api/games/{live}/resume", json={}).get_json()
        assert en["message"] == ERRORS["game_held"]["en"].format(gid=live, pid=first.pid)
        assert second.test_client().post(f"/api/games/{old}/resume", json={}
                                         ).status_code == 200  # no one holds it
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
    again = app_on(db, tmp_path)  # started after the first was killed
    store = again.extensions["tableref.store"]
    assert sorted(sweep(store, store.evidence_dir)) == sorted(theirs)
    assert not any(p.exists() for p in theirs)
    client = again.test_client()
    assert client.post(f"/api/games/{live}/resume", json={}).status_code == 200
    events = client.get("/api/events").get_json()["events"]
    assert [e["type"] for e in events] == ["start"]  # what it recorded is all there
    assert not list((db.parent / "tableref.sqlite3-servers").glob(f"{first.pid}-*"))


def test_a_server_that_cannot_read_another_live_ones_games_sweeps_no_game(tmp_path):
    """A live lease whose list of games is unreadable holds every game."""
    import fcntl

    db = tmp_path / "tableref.sqlite3"
    app = app_on(db, tmp_path)
    store = app.extensions["tableref.store"]
    assert app.test_client().post("/api/games", json=UNO).status_code == 201
    gid = app.extensions["tableref.table"].gid
    folder = Path(f"{db}-servers")
    lock = folder / "1-feedbeef.lock"  # another process's lease, held
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # another open file: another holder
        (folder / "1-feedbeef.json").write_text("{not json")
        paths = strays(store, gid)
        assert sweep(store, store.evidence_dir) == []
        assert all(p.is_file() for p in paths)
    finally:
        os.close(fd)
    assert sorted(sweep(store, store.evidence_dir)) == sorted(paths)  # gone now
    assert not lock.exists()
