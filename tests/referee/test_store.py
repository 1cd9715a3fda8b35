"""The durable game store: append, corrections, history, export/import, faults."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from referee.store import GameStore, StoreError

HEADER = {"type": "game", "game": "uno", "rules": "official", "players": ["A", "B", "C"]}


def test_append_returns_line_numbers_and_events_round_trip(tmp_path):
    store = GameStore(tmp_path / "g.db")
    gid = store.create_game(HEADER)
    lines = [store.append(gid, {"type": "draw", "count": i, "note": "ウノ"}) for i in range(5)]
    assert lines == [1, 2, 3, 4, 5]
    assert [e["count"] for e in store.events(gid)] == [0, 1, 2, 3, 4]
    assert store.events(gid)[0]["note"] == "ウノ"
    # a second connection (another process after a restart) sees the same
    again = GameStore(tmp_path / "g.db")
    assert again.events(gid) == store.events(gid)
    assert again.header(gid)["players"] == ["A", "B", "C"]


def test_correction_is_a_new_version_and_keeps_the_old_one(tmp_path):
    store = GameStore(tmp_path / "g.db")
    gid = store.create_game(HEADER)
    store.append(gid, {"type": "start", "card": "red-7"})
    store.append(gid, {"type": "play", "cards": ["blue-7"]})
    store.set_events(gid, [{"type": "start", "card": "red-7"},
                           {"type": "play", "cards": ["red-7"]}], reason="misread on line 2")
    assert store.events(gid)[1]["cards"] == ["red-7"]
    assert store.events(gid, version=0)[1]["cards"] == ["blue-7"]
    assert store.corrections(gid)[0]["reason"] == "misread on line 2"
    assert store.append(gid, {"type": "pass"}) == 3


def test_history_lists_newest_first_and_resume_skips_finished(tmp_path):
    store = GameStore(tmp_path / "g.db")
    first = store.create_game(HEADER)
    second = store.create_game({**HEADER, "players": ["X", "Y"]})
    store.append(second, {"type": "start", "card": "G3"})
    assert [g.id for g in store.games()] == [second, first]
    assert store.games()[0].events == 1
    assert store.last_game() == second
    store.finish(second, {"scores": {"X": 10, "Y": -10}})
    assert store.last_game() == first
    assert store.games()[0].summary == {"scores": {"X": 10, "Y": -10}}


def test_unknown_game_is_a_clear_error(tmp_path):
    store = GameStore(tmp_path / "g.db")
    with pytest.raises(StoreError, match="no game with id 42"):
        store.append(42, {"type": "pass"})


def test_export_import_round_trip_and_truncated_last_line(tmp_path):
    store = GameStore(tmp_path / "g.db")
    gid = store.create_game(HEADER)
    for card in ("red-7", "red-3", "blue-3"):
        store.append(gid, {"type": "play", "cards": [card]})
    lines = store.export(gid)
    assert json.loads(lines[0])["type"] == "game"
    truncated = lines + ['{"type": "play", "cards": ["blue']  # the process died mid-write
    new_id, skipped = store.import_log(truncated)
    assert len(skipped) == 1 and "line 4" in skipped[0]
    assert store.events(new_id) == store.events(gid)


def test_import_without_header_is_refused(tmp_path):
    store = GameStore(tmp_path / "g.db")
    with pytest.raises(StoreError, match="no valid header"):
        store.import_log(['{"type": "play", "cards": ["R1"]}'])


def test_full_disk_is_reported_and_nothing_acknowledged_is_lost(tmp_path):
    store = GameStore(tmp_path / "g.db")
    gid = store.create_game(HEADER)
    acked = []
    # SQLite's own "database or disk is full" condition, injected with a page cap.
    (pages,) = store._db.execute("PRAGMA page_count").fetchone()
    store._db.execute(f"PRAGMA max_page_count={pages + 2}")
    with pytest.raises(StoreError, match="full"):
        for i in range(10_000):
            acked.append(store.append(gid, {"type": "draw", "count": 1, "pad": "x" * 500}))
    assert len(store.events(gid)) == len(acked) > 0
    store._db.execute("PRAGMA max_page_count=1073741823")
    assert store.append(gid, {"type": "pass"}) == len(acked) + 1


def test_evidence_retention_keeps_the_newest_within_the_limit(tmp_path):
    store = GameStore(tmp_path / "g.db", evidence_limit=2500)
    gid = store.create_game(HEADER)
    paths = [store.save_evidence(gid, bytes([i]) * 1000) for i in range(5)]
    kept = [p for p in paths if Path(p).exists()]
    assert kept == paths[-2:]
    assert Path(paths[-1]).read_bytes() == bytes([4]) * 1000


WRITER = textwrap.dedent("""
    import sys
    from referee.store import GameStore
    store = GameStore(sys.argv[1])
    gid = int(sys.argv[2])
    start = len(store.events(gid)) + 1
    for n in range(start, start + 100000):
        line = store.append(gid, {"type": "draw", "count": 1, "n": n})
        print(line, flush=True)
""")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kill_9_never_loses_an_acknowledged_event(tmp_path, seed):
    """A writer acknowledges each event after append returns; kill -9 it at a random point."""
    db = tmp_path / "g.db"
    gid = GameStore(db).create_game(HEADER)
    rng = random.Random(seed)
    total_acked = 0
    for _ in range(3):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db), str(gid)],
                                stdout=subprocess.PIPE, text=True)
        target = rng.randint(5, 60)
        last = 0
        for raw in proc.stdout:
            last = int(raw)
            if last >= total_acked + target:
                break
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        events = GameStore(db).events(gid)
        # every acknowledged line is there, in order, nothing torn or duplicated
        assert len(events) >= last
        assert [e["n"] for e in events] == list(range(1, len(events) + 1))
        total_acked = len(events)
    assert total_acked > 0
