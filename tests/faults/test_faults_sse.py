"""16 viewers on the SSE stream of a real server: all get every ruling, in order.

Timing is not asserted here; ``benchmarks/load_sse.py`` reports the
event-to-viewer latency.
"""

from __future__ import annotations

import time

import pytest

from faults_server import Server, create_game, event_stream
from faults_sse import Viewer, load, message_line


def test_sixteen_viewers_receive_every_ruling_in_order(tmp_path):
    db = tmp_path / "t.sqlite3"
    header, events = event_stream(51, 50)
    gid = create_game(db, header)
    server = Server(db).start()
    try:
        server.wait_state(lambda s: s.get("game") == gid)
        result = load(server, events, viewers=16, rate=None, timeout=60)
    finally:
        server.stop()
    assert result["problems"] == []
    assert result["complete"]
    assert len(result["rulings"]) >= len(events)  # every event got at least one ruling
    assert [r["index"] for r in result["rulings"]] == list(
        range(result["rulings"][0]["index"], result["rulings"][0]["index"]
              + len(result["rulings"])))
    assert len(result["latencies_ms"]) == 16 * len(events)


def _reconnect_after_restart(tmp_path, before: int, early: int, after: int):
    """Post ``before`` events, kill -9, restart, post ``early`` more, then reconnect.

    The viewer reconnects as a browser's EventSource does, with the last id it
    saw from the killed process as ``Last-Event-ID``; then ``after`` more
    events are posted. Returns the viewer and the first line after the restart.
    """
    db = tmp_path / "t.sqlite3"
    header, events = event_stream(52, before + early + after)
    gid = create_game(db, header)
    server = Server(db).start()
    try:
        server.wait_state(lambda s: s.get("game") == gid)
        for event in events[:before]:
            assert server.request("POST", "/api/events", event)[0] == 201
        seen = server.request("GET", "/api/state")[1]["seq"]  # the page's Last-Event-ID
        server.kill9()
    finally:
        server.stop()
    server = Server(db).start()
    try:
        server.wait_state(lambda s: s.get("game") == gid)
        for event in events[before:before + early]:
            assert server.request("POST", "/api/events", event)[0] == 201
        viewer = Viewer(server.port, time.monotonic() + 5, last_event_id=seen)
        viewer.target = 1
        viewer.start()
        assert viewer.ready.wait(5)
        for event in events[before + early:]:
            assert server.request("POST", "/api/events", event)[0] == 201
        viewer.done.wait(6)
    finally:
        server.stop()
    return viewer, before + 1


def test_a_page_reconnecting_after_a_restart_is_told_to_reload(tmp_path):
    viewer, first_line = _reconnect_after_restart(tmp_path, before=30, early=0, after=3)
    assert viewer.messages, viewer.error
    first = viewer.messages[0]
    assert first.kind == "reset" or message_line(first) == first_line, first


def test_a_page_reconnecting_late_after_a_restart_misses_nothing(tmp_path):
    viewer, first_line = _reconnect_after_restart(tmp_path, before=3, early=8, after=2)
    assert viewer.messages, viewer.error
    first = viewer.messages[0]
    assert first.kind == "reset" or message_line(first) == first_line, first
