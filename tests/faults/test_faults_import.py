"""A table log whose last line was cut off mid-write, imported and then served.

``tableref import`` (a real subprocess) reports the broken line and keeps the
rest; the imported, unfinished game is then what ``tableref serve`` resumes,
and its state equals a clean replay. The web app has no import endpoint (see
``docs/records.md``), so the server side is checked through the store it
resumes from.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from faults_server import Server, clean_replay, event_stream, export_lines, normal


def _tableref(*argv: str, cwd) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-m", "tableref", *argv], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=60)


def test_truncated_last_line_is_reported_skipped_and_the_game_resumes(tmp_path):
    header, events = event_stream(31, 40)
    lines = [json.dumps(header)] + [json.dumps(e) for e in events]
    cut = lines[-1][: len(lines[-1]) // 2]  # the writer died in the middle of this line
    log = tmp_path / "table.jsonl"
    log.write_text("\n".join(lines[:-1] + [cut]), encoding="utf-8")  # no final newline
    db = tmp_path / "t.sqlite3"

    done = _tableref("import", str(log), "--db", str(db), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "imported as game #1" in done.stdout
    skipped = [s for s in done.stderr.splitlines() if "skipped" in s]
    assert len(skipped) == 1 and f"line {len(lines) - 1}" in skipped[0], done.stderr

    exported = _tableref("export", "1", "--db", str(db), cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    back = [json.loads(s) for s in exported.stdout.splitlines()]
    assert back == [header, *events[:-1]]

    server = Server(db).start()
    try:
        snap = server.wait_state(lambda s: s.get("game") == 1)
        assert snap["events"] == events[:-1]
        state, rulings = clean_replay(export_lines(server, 1))
        assert normal(snap["state"]) == state
        # replaying the damaged file itself gives the same state (plus one info ruling)
        damaged_state, damaged_rulings = clean_replay(log.read_text().splitlines())
        assert damaged_state == state
        assert [r for r in damaged_rulings if r["rule"] == "log.malformed"]
        # the game goes on from the last good line
        nxt = events[-1]
        status, body = server.request("POST", "/api/events", nxt)
        assert (status, body["line"]) == (201, len(events))
    finally:
        server.stop()


def test_import_of_a_log_cut_inside_its_header_is_refused_clearly(tmp_path):
    header, _ = event_stream(32, 1)
    log = tmp_path / "table.jsonl"
    log.write_text(json.dumps(header)[:25], encoding="utf-8")
    db = str(tmp_path / "t.sqlite3")
    done = _tableref("import", str(log), "--db", db, cwd=tmp_path)
    assert done.returncode == 2
    assert "no valid header" in done.stderr and "Traceback" not in done.stderr
