"""kill -9 the real ``tableref serve`` during a fast event stream, restart, check.

Each seed streams a legal UNO game (the project's simulator) through
``POST /api/events`` as fast as the server answers, kills the server with
SIGKILL after a random delay, restarts it on the same database and checks that
every event the client got a 2xx for is stored, in order, that the state and
rulings the restarted server reports equal a clean ``referee.game.replay`` of
its exported log, and that the page shows the resumed game. The long run
(50 kills) is ``benchmarks/fault_kill9.py``. One seed also undoes every fourth
event and posts it again, so kills land in corrections (new log versions) too.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from faults_server import Server, create_game, event_stream, kill_cycles

KILLS = 3


@pytest.mark.parametrize("seed, undo_every", [(11, 0), (12, 0), (13, 4)])
def test_kill9_loses_no_acknowledged_event_and_resumes_a_clean_replay(
        tmp_path, seed, undo_every):
    header, events = event_stream(seed, 4000)
    report = kill_cycles(tmp_path / "t.sqlite3", header, events, KILLS, seed,
                         undo_every=undo_every)
    assert report.problems == []
    assert report.lost == 0
    assert report.kills == KILLS
    # the kills came in the middle of the stream, not before or after it
    assert 0 < report.stored < len(events) and report.acked > 0
    if not undo_every:
        # at most one event per kill was stored without its answer reaching the client
        assert report.acked <= report.stored <= report.acked + KILLS
    assert len(report.resume_ms) == KILLS + 1


def test_restart_resumes_the_same_game_not_a_new_one(tmp_path):
    db = tmp_path / "t.sqlite3"
    header, events = event_stream(5, 10)
    gid = create_game(db, header)
    server = Server(db).start()
    try:
        server.wait_state(lambda s: s.get("game") == gid)
        for event in events:
            assert server.request("POST", "/api/events", event)[0] == 201
        server.kill9()
    finally:
        server.stop()
    server = Server(db).start()
    try:
        snap = server.wait_state(lambda s: s.get("game") is not None)
        assert snap["game"] == gid
        assert [e["type"] for e in snap["events"]] == [e["type"] for e in events]
        assert any(f"resuming game {gid}" in line for line in server.lines)
        status, games = server.request("GET", "/api/games")
        assert status == 200 and [g["id"] for g in games["games"]] == [gid]
    finally:
        server.stop()
    # the killed session's game is in the history, open, with every event
    env = dict(os.environ)
    done = subprocess.run(
        [sys.executable, "-m", "tableref", "history", "--db", str(db)],
        env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert f"#{gid}" in done.stdout and f"{len(events)} events  open" in done.stdout
