"""16 viewers on the SSE rulings stream of a real server: all get every ruling, in order.

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


@pytest.mark.xfail(strict=True, reason=(
    "web/table.py Table.seq restarts at 0 in every process, so a page whose EventSource "
    "reconnects after a restart with Last-Event-ID N waits until the new process passes "
    "N and silently misses the rulings before that; ids must not repeat across restarts "
    "(e.g. seed Table.seq from time.time_ns() // 1_000_000) so the old id gets 'reset'"))
def test_a_page_reconnecting_after_a_restart_is_told_to_reload(tmp_path):
    db = tmp_path / "t.sqlite3"
    header, events = event_stream(52, 40)
    gid = create_game(db, header)
    server = Server(db).start()
    try:
        server.wait_state(lambda s: s.get("game") == gid)
        for event in events[:30]:
            assert server.request("POST", "/api/events", event)[0] == 201
        seen = server.request("GET", "/api/state")[1]["seq"]  # the page's Last-Event-ID
        server.kill9()
    finally:
        server.stop()
    server = Server(db).start()
    try:
        server.wait_state(lambda s: s.get("game") == gid)
        viewer = Viewer(server.port, time.monotonic() + 5, last_event_id=seen)
        viewer.target = 1
        viewer.start()
        assert viewer.ready.wait(5)
        for event in events[30:33]:
            assert server.request("POST", "/api/events", event)[0] == 201
        viewer.done.wait(6)
    finally:
        server.stop()
    assert viewer.messages, viewer.error
    first = viewer.messages[0]
    assert first.kind == "reset" or message_line(first) == 31, first
