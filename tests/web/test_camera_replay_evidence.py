"""A recording played again after a restart (web.pending): the camera events
this game already took are dropped before their evidence frame is kept, so
no frame of a dropped event is left in the store or in the camera's folder,
and each line the log keeps still shows its own frame."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.test_camera_replay_restart import MORE, VIDEO, begun, playing
from tests.web.test_camera_restart import SKIP, STOOD, UNO, uninterrupted
from web.commands import _camera_ended

EVENTS = SKIP + STOOD + MORE


def framed(tmp_path: Path, events, run: str):
    """The events each with its evidence frame, as the pipeline writes them."""
    folder = tmp_path / f"camera-{run}"
    folder.mkdir()
    out = []
    for i, e in enumerate(events):
        frame = folder / f"{i:03d}.jpg"
        frame.write_bytes(b"\xff\xd8 frame %d of %s \xff\xd9" % (i, run.encode()))
        out.append({**e, "evidence": str(frame)})
    return folder, out


def kept(server) -> set[str]:
    store = server.table.store
    return {str(p) for p in Path(store.evidence_dir).rglob("*.jpg")}


@pytest.mark.parametrize("stop", [2, len(SKIP), len(EVENTS) - 1])
def test_no_frame_of_an_event_taken_already_is_kept_and_none_is_lost(tmp_path, stop):
    server = begun(tmp_path, True)
    first, events = framed(tmp_path, EVENTS[:stop], "first")
    server.feed(events)
    server.restart()
    playing(server, VIDEO, live=False)
    again, events = framed(tmp_path, EVENTS, "again")
    server.feed(events)  # from the recording's start again
    _camera_ended(server.table, server.table.camera)

    table = server.table
    assert [{k: v for k, v in e.items() if k != "evidence"}
            for e in table.referee.events] == uninterrupted(UNO, EVENTS)
    shown = [e["evidence"] for e in table.store.events(table.gid) if "evidence" in e]
    assert len(shown) == len(set(shown))
    assert kept(server) == set(shown)  # nothing stray, nothing lost
    assert not list(first.iterdir()) and not list(again.iterdir())
    client = server.app.test_client()
    for line, e in enumerate(table.referee.events, start=1):
        if "evidence" in e:
            resp = client.get(f"/evidence/{line}")
            assert resp.status_code == 200, (line, resp.status_code)
            assert Path(e["evidence"]).read_bytes() == resp.data
