"""A camera event the table does not log (dropped while the table is paused,
refused) leaves no evidence frame behind, in the store or in the camera's
folder; a frame whose event the camera path still holds (a copy held for the
next move, across a restart too) is kept until its line is logged, and every
line the log keeps still shows its own frame.

The store deletes a frame only where no stored event, of any version of the
log, names it, and the row before the file (``drop_evidence``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.store import GameStore
from tests.web.test_camera_restart import SKIP, STOOD, UNO, Server, cam
from web.commands import _camera_ended, _camera_event
from web.memstore import MemoryStore


class Framed(Server):
    """A server whose store keeps evidence frames (a MemoryStore too)."""

    def __init__(self, tmp_path: Path, durable: bool):
        self.tmp_path = tmp_path
        self.database = tmp_path / "games.sqlite3"
        self.memory = None if durable else MemoryStore(tmp_path / "memory-evidence")
        self.pipeline = tmp_path / "pipeline"
        self.pipeline.mkdir()
        self.n = 0
        self.client = self.start()

    def framed(self, event) -> dict:
        """``event`` with its evidence frame, as the pipeline writes it."""
        self.n += 1
        frame = self.pipeline / f"{self.n:04d}-{event['type']}.jpg"
        frame.write_bytes(b"\xff\xd8 frame %d \xff\xd9" % self.n)
        return {**event, "evidence": str(frame)}

    def feed(self, events) -> None:
        super().feed([self.framed(e) for e in events])

    def pause(self, paused: bool) -> None:
        resp = self.app.test_client().post("/api/pause", json={"paused": paused})
        assert resp.status_code == 200

    def stored(self) -> set[str]:
        """Every frame file the store keeps."""
        folder = Path(self.table.store.evidence_dir)
        return {str(p) for p in folder.rglob("*.jpg")}

    def shown(self) -> list[str]:
        table = self.table
        return [e["evidence"] for e in table.store.events(table.gid) if "evidence" in e]


def begun(tmp_path: Path, durable: bool) -> Framed:
    server = Framed(tmp_path, durable)
    assert server.app.test_client().post("/api/games", json=UNO).status_code == 201
    return server


def nothing_stray_nothing_lost(server: Framed) -> None:
    shown = server.shown()
    assert len(shown) == len(set(shown))
    assert server.stored() == set(shown)
    store = server.table.store
    if isinstance(store, GameStore):  # no row names a frame that is not there
        assert set(store.evidence(server.table.gid)) == set(shown)
    assert not list(server.pipeline.iterdir())  # the pipeline's copies are gone
    client = server.app.test_client()
    for line, e in enumerate(server.table.referee.events, start=1):
        if "evidence" in e:
            resp = client.get(f"/evidence/{line}")
            assert resp.status_code == 200, (line, resp.status_code)
            assert resp.data == Path(e["evidence"]).read_bytes()


@pytest.mark.parametrize("durable", [True, False], ids=["sqlite", "memory"])
def test_an_event_dropped_while_paused_leaves_no_frame(tmp_path, durable):
    server = begun(tmp_path, durable)
    server.feed(SKIP[:2])
    assert len(server.shown()) == 2
    server.pause(True)
    server.feed(SKIP[2:3])  # dropped: the table is paused
    assert server.table.dropped == 1
    assert len(server.table.referee.events) == 2
    nothing_stray_nothing_lost(server)
    server.pause(False)
    server.feed([cam("draw", 5, count=1, reach_from="C")])
    assert len(server.shown()) == 3
    nothing_stray_nothing_lost(server)


@pytest.mark.parametrize("durable", [True, False], ids=["sqlite", "memory"])
def test_a_held_copy_keeps_its_frame_until_its_line_is_logged(tmp_path, durable):
    server = begun(tmp_path, durable)
    server.feed(SKIP)  # the last play: a copy held for the camera's next move
    held = server.table.camera.handsfree.held
    assert held is not None and held[0]["evidence"] in server.stored()
    server.feed(STOOD)
    _camera_ended(server.table, server.table.camera)
    assert len(server.shown()) == len(SKIP + STOOD)
    nothing_stray_nothing_lost(server)


def test_a_copy_held_across_a_restart_keeps_its_frame(tmp_path):
    server = begun(tmp_path, True)
    server.feed(SKIP)
    server.restart()
    server.feed(STOOD)
    _camera_ended(server.table, server.table.camera)
    assert len(server.shown()) == len(SKIP + STOOD)
    nothing_stray_nothing_lost(server)


@pytest.mark.parametrize("durable", [True, False], ids=["sqlite", "memory"])
def test_a_held_copy_dropped_with_the_move_that_settled_it_leaves_no_frame(
        tmp_path, durable):
    server = begun(tmp_path, durable)
    server.feed(SKIP)
    server.pause(True)
    server.feed(STOOD)  # settles the held copy: both dropped while paused
    _camera_ended(server.table, server.table.camera)
    assert len(server.shown()) == len(SKIP) - 1
    nothing_stray_nothing_lost(server)


def test_a_frame_the_saved_pending_state_still_names_waits_for_the_next_save(
        tmp_path, monkeypatch):
    """The held copy's frame is named by the pending state saved beside the
    game (a restart takes it up): while a newer state could not be saved, the
    frame stays, so a restart never takes up a copy whose frame is gone."""
    from web import pending

    server = begun(tmp_path, True)
    server.feed(SKIP)  # a copy held, saved beside the game
    held = server.table.camera.handsfree.held[0]["evidence"]
    server.pause(True)
    saving = pending._save

    def failing(store, gid, text):
        raise OSError("the disk is full")

    monkeypatch.setattr(pending, "_save", failing)
    server.feed(STOOD)  # the held copy dropped with it, paused; not saved
    assert Path(held).exists()
    monkeypatch.setattr(pending, "_save", saving)
    server.pause(False)  # saved again: nothing names the frame any longer
    server.feed([cam("draw", 9, count=1, reach_from="A")])
    assert not Path(held).exists()
    nothing_stray_nothing_lost(server)


@pytest.mark.parametrize("durable", [True, False], ids=["sqlite", "memory"])
def test_a_refused_camera_event_leaves_no_frame(tmp_path, durable):
    server = begun(tmp_path, durable)
    server.feed(SKIP[:2])
    table = server.table
    _camera_event(table, table.camera, server.framed(cam("play", 3, cards="green-3")))
    assert table.camera.refused == 1
    nothing_stray_nothing_lost(server)


def test_a_frame_kept_just_before_a_stop_whose_line_never_went_in_is_deleted(
        tmp_path):
    server = begun(tmp_path, True)
    server.feed(SKIP[:3])
    table = server.table
    # the server stopped after the store kept a frame, before its line went in
    stray = table.store.save_evidence(table.gid, b"\xff\xd8 stray \xff\xd9")
    replaced = server.shown()[-1]  # a person deletes the draw: the audit names it
    assert server.app.test_client().delete("/api/events/3").status_code == 200
    server.restart()
    server.feed(SKIP[3:] + STOOD)
    _camera_ended(server.table, server.table.camera)
    assert not Path(stray).exists()
    assert Path(replaced).exists()  # the audit trail's frame stays
    assert set(server.table.store.evidence(server.table.gid)) == \
        set(server.shown()) | {replaced}


@pytest.mark.parametrize("durable", [True, False], ids=["sqlite", "memory"])
def test_a_frame_the_store_cannot_keep_leaves_the_line_without_one(
        tmp_path, monkeypatch, durable):
    server = begun(tmp_path, durable)
    server.feed(SKIP[:1])

    def full(gid, jpeg):
        raise OSError("no space left on the device")

    monkeypatch.setattr(server.table.store, "save_evidence", full)
    server.feed(SKIP[1:2])  # logged without its frame; the pipeline's copy gone
    events = server.table.referee.events
    assert len(events) == 2 and "evidence" not in events[1]
    nothing_stray_nothing_lost(server)


@pytest.mark.parametrize("durable", [True, False], ids=["sqlite", "memory"])
def test_a_line_never_names_a_frame_that_was_not_written(tmp_path, durable):
    server = begun(tmp_path, durable)
    server.feed(SKIP[:1])
    table = server.table
    for missing in (str(server.pipeline / "never-written.jpg"), "/x\x00y.jpg"):
        _camera_event(table, table.camera, {**SKIP[1], "evidence": missing})
    assert not table.camera.refused, table.camera.last_refusal
    assert all("evidence" not in e for e in table.referee.events[1:])
    nothing_stray_nothing_lost(server)


# -- the store ---------------------------------------------------------------------
HEADER = {"type": "game", "game": "uno", "rules": "official", "players": ["A", "B"]}


def stores(tmp_path: Path):
    yield GameStore(tmp_path / "g.sqlite3")
    yield MemoryStore(tmp_path / "memory-evidence")


@pytest.mark.parametrize("kind", [0, 1], ids=["sqlite", "memory"])
def test_the_store_deletes_only_a_frame_no_stored_event_names(tmp_path, kind):
    store = list(stores(tmp_path))[kind]
    gid = store.create_game(HEADER)
    logged, replaced, loose = (store.save_evidence(gid, b"jpeg %d" % i)
                               for i in range(3))
    store.append(gid, {"type": "draw", "player": "A", "count": 1, "evidence": replaced})
    store.set_events(gid, [{"type": "draw", "player": "A", "count": 1,
                            "evidence": logged}], reason="a correction")
    other = tmp_path / "elsewhere.jpg"
    other.write_bytes(b"not the store's")
    assert not store.drop_evidence(gid, logged)  # the log names it
    assert not store.drop_evidence(gid, replaced)  # the audit trail names it
    assert not store.drop_evidence(gid, str(other))  # not a frame it saved
    assert store.drop_evidence(gid, loose)
    assert not Path(loose).exists() and Path(logged).exists()
    assert Path(replaced).exists() and other.exists()
    assert not store.drop_evidence(gid, loose)  # once
    again = store.save_evidence(gid, b"a new frame")
    assert again not in (logged, replaced)  # a name never lent twice
    assert Path(logged).read_bytes() == b"jpeg 0"
    if isinstance(store, GameStore):
        assert store.evidence(gid) == [logged, replaced, again]


def test_a_stop_while_a_frame_is_deleted_leaves_no_row_naming_a_missing_file(
        tmp_path, monkeypatch):
    store = GameStore(tmp_path / "g.sqlite3")
    gid = store.create_game(HEADER)
    frame = store.save_evidence(gid, b"jpeg")

    def stopped(self, missing_ok=False):
        raise KeyboardInterrupt  # the process stops here

    monkeypatch.setattr(Path, "unlink", stopped)
    with pytest.raises(KeyboardInterrupt):
        store.drop_evidence(gid, frame)
    monkeypatch.undo()
    assert store.evidence(gid) == []  # the row went first
    assert Path(frame).exists()  # a file no row names: never a dangling name


def test_a_path_with_quotes_and_non_ascii_is_found_in_the_log(tmp_path):
    store = GameStore(tmp_path / "g.sqlite3", evidence_dir=str(tmp_path / 'ev "é"'))
    gid = store.create_game(HEADER)
    frame = store.save_evidence(gid, b"jpeg")
    store.append(gid, {"type": "draw", "player": "A", "count": 1, "evidence": frame})
    assert json.dumps(frame, ensure_ascii=False) in json.dumps(
        store.events(gid)[0], ensure_ascii=False)
    assert not store.drop_evidence(gid, frame)
    assert Path(frame).exists()
    # a line written with \u escapes (another writer) names it as well
    other = store.save_evidence(gid, b"jpeg 2")
    store._tx(lambda: store._db.execute(
        "INSERT INTO events VALUES (?, 0, 2, ?, 0)",
        (gid, json.dumps({"type": "pass", "player": "B", "evidence": other}))))
    assert "\\u00e9" in store._db.execute(
        "SELECT body FROM events WHERE line=2").fetchone()[0]
    assert not store.drop_evidence(gid, other)
    assert Path(other).exists()
