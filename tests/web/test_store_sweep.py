"""``tableref serve`` started again after a stop at any moment (``kill -9``)
deletes what the stop left half-done in the store's folders (``web.sweep``):
a frame file no row names (written just before its row, or a temporary file
cut short), the pipeline's copies in ``camera-<gid>/``, the temporary files
of a pending state or undo history cut short. Nothing recorded is lost: each
line's frame, a frame a row names (a held copy's, taken up after the
restart), the audit trail's frames and the saved states stay, and the game
goes on as if it had not stopped."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.web.serve_fakes import SCRIPTS, camera_runs, serve_app
from tests.web.test_camera_replaced import bare
from tests.web.test_camera_restart import SKIP, STOOD, UNO, uninterrupted
from web.commands import _camera_ended
from web.sweep import sweep


@pytest.fixture(autouse=True)
def scripts():
    SCRIPTS.clear()
    yield SCRIPTS
    SCRIPTS.clear()


def killed(tmp_path: Path, monkeypatch):
    """A game played up to a copy held, a line corrected (the audit trail
    names the old line's frame), then the partial files a process killed
    in the middle of each write leaves; returns the app, its game, the
    strays and what must stay."""
    app = serve_app(tmp_path, monkeypatch)
    client = app.test_client()
    assert client.post("/api/games", json=UNO).status_code == 201
    table, store = app.extensions["tableref.table"], app.extensions["tableref.store"]
    gid = table.gid
    SCRIPTS["a.mp4"] = list(SKIP)
    camera_runs(app, "a.mp4")
    assert table.camera.handsfree.held is not None
    held = table.camera.handsfree.held[0]["evidence"]
    replaced = store.events(gid)[2]["evidence"]
    resp = client.put("/api/events/3", json=bare([store.events(gid)[2]])[0])
    assert resp.status_code == 200, resp.get_json()
    table.camera.stop.set()
    folder = Path(store.evidence_dir)
    ns = time.time_ns()
    strays = [
        folder / str(gid) / f".{ns}.jpg.tmp",  # a frame cut short
        folder / str(gid) / f"{ns + 1}.jpg",  # a whole frame, its row never written
        folder / f"camera-{gid}" / "0005-play.jpg",  # the pipeline's copy
        Path(f"{store.path}-camera") / f"game-{gid}.json.tmp",  # a state cut short
        Path(f"{store.path}-undo") / f"game-{gid}.json.tmp",
    ]
    for path in strays:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"\xff\xd8 cut sh")
    kept = {held, replaced, *(e["evidence"] for e in store.events(gid) if "evidence" in e),
            f"{store.path}-camera/game-{gid}.json", f"{store.path}-undo/game-{gid}.json"}
    assert all(Path(p).is_file() for p in kept)
    return app, gid, strays, kept


def test_a_restart_after_a_kill_sweeps_what_it_left_half_done(tmp_path, monkeypatch):
    app, gid, strays, kept = killed(tmp_path, monkeypatch)
    again = serve_app(tmp_path, monkeypatch)  # the server started again
    table = again.extensions["tableref.table"]
    assert table.gid == gid
    assert [p for p in strays if p.exists()] == []
    assert [p for p in kept if not Path(p).is_file()] == []
    SCRIPTS["a.mp4"] = list(STOOD)
    camera = camera_runs(again, "a.mp4")
    camera.ended = "source"
    _camera_ended(table, camera)
    assert bare(table.referee.events) == uninterrupted(UNO, (*SKIP, *STOOD))
    client = again.test_client()
    for line, event in enumerate(table.referee.events, start=1):
        if line == 3:  # corrected by a person: the line names no frame
            assert "evidence" not in event
            continue
        assert Path(event["evidence"]).is_file()
        assert client.get(f"/evidence/{line}").status_code == 200
    store = again.extensions["tableref.store"]
    on_disk = {str(p) for p in (Path(store.evidence_dir) / str(gid)).iterdir()}
    assert on_disk == set(store.evidence(gid))  # the audit trail's frame too
    for url in ("/", "/table", "/api/state", "/api/camera", "/api/events"):
        assert client.get(url).status_code == 200, url


def test_the_sweep_keeps_a_frame_a_line_names_without_a_row(tmp_path):
    """A frame whose row went (the size limit's retention stopped between
    the row and the file) while a line still names it is kept."""
    from referee.store import GameStore

    store = GameStore(tmp_path / "g.sqlite3")
    gid = store.create_game({"type": "game", **UNO})
    frame = Path(store.save_evidence(gid, b"\xff\xd8 a \xff\xd9"))
    store.append(gid, {"type": "start", "card": "red-7", "source": "vision",
                       "evidence": str(frame)})
    orphan = frame.with_name("1.jpg")  # no row, no line
    orphan.write_bytes(b"x")
    store._db.execute("DELETE FROM evidence")  # the row gone, as retention does
    assert sweep(store, None) == [orphan]
    assert frame.is_file()


def test_the_sweep_leaves_what_is_not_its_own(tmp_path):
    """Files other than frames in the pipeline's folders, another folder's
    files and a store kept in memory are left as they are; a missing folder
    is no error."""
    from web.memstore import MemoryStore

    store = MemoryStore(tmp_path / "memory")
    gid = store.create_game({"type": "game", **UNO})
    frame = Path(store.save_evidence(gid, b"\xff\xd8"))
    other = tmp_path / "pipeline" / "camera-1" / "notes.txt"
    other.parent.mkdir(parents=True)
    other.write_text("mine")
    copy = other.with_name("0001-play.jpg")
    copy.write_bytes(b"\xff")
    assert sweep(store, tmp_path / "pipeline") == [copy]
    assert frame.is_file() and other.is_file()
    assert sweep(store, tmp_path / "nowhere") == []


def test_a_frame_named_by_a_path_written_otherwise_is_kept(tmp_path, monkeypatch):
    """A row written while the store was opened by a relative path (another
    working folder) still keeps its frame: a frame is known by its name."""
    from referee.store import GameStore

    monkeypatch.chdir(tmp_path)
    store = GameStore("g.sqlite3")  # relative: rows name relative paths
    gid = store.create_game({"type": "game", **UNO})
    frame = store.save_evidence(gid, b"\xff\xd8 a \xff\xd9")
    assert not Path(frame).is_absolute()
    store.close()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    again = GameStore(tmp_path / "g.sqlite3")
    assert sweep(again, None) == []
    assert (tmp_path / frame).is_file()
