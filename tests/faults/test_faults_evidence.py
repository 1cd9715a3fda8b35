"""The camera's records: evidence frames kept by the store, refused events survived.

``tableref serve`` is run in-process with the HTTP server replaced and a
stand-in pipeline that, like ``vision.pipeline.TablePipeline._emit``, writes
an evidence JPEG into the folder it is given and names it in the event, or
emits an event the table refuses (a misread) in the middle of the game.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.serve_fakes import serve_app


class _EvidencePipeline:
    """Emits one ``start`` event with an evidence frame, as the real pipeline does."""

    def __init__(self, source, *, game, players, table, evidence_dir, on_event,
                 options, game_state=None, config=None):
        self.evidence_dir = Path(evidence_dir)
        self.on_event = on_event

    def run(self, stop) -> None:
        self.evidence_dir.mkdir(parents=True, exist_ok=True)
        path = self.evidence_dir / "0001-start.jpg"
        path.write_bytes(b"\xff\xd8\xff\xe0" + b"\0" * 2000)
        self.on_event({"type": "start", "card": "red-7", "source": "vision",
                       "evidence": str(path)})

    def status(self) -> dict:
        return {"state": "ended", "message": "end of video", "source": "fake"}

    def latest_jpeg(self) -> None:
        return None


def _serve_with(tmp_path, monkeypatch, pipeline_class):
    """Run ``serve`` (no real server) with ``pipeline_class`` as the camera."""
    return serve_app(tmp_path, monkeypatch, "--players", "A", "B",
                     pipeline=pipeline_class)


def test_camera_evidence_is_kept_by_the_store(tmp_path, monkeypatch):
    app = _serve_with(tmp_path, monkeypatch, _EvidencePipeline)
    table = app.extensions["tableref.table"]
    store = app.extensions["tableref.store"]
    app.extensions["tableref.start_camera"]("table.mp4")
    table.camera.thread.join(10)
    events = store.events(table.gid)
    assert [e["type"] for e in events] == ["start"]
    kept = store.evidence(table.gid)
    assert kept and events[0]["evidence"] in kept
    assert Path(events[0]["evidence"]).is_file()


class _RefusedEventPipeline(_EvidencePipeline):
    """Emits a start, an event the table refuses, then a play; like a misread."""

    def run(self, stop) -> None:
        self.on_event({"type": "start", "card": "red-7", "source": "vision"})
        self.on_event({"type": "play", "cards": [], "source": "vision"})  # refused
        self.on_event({"type": "play", "player": "A", "cards": ["red-3"],
                       "source": "vision"})


def test_a_refused_camera_event_does_not_stop_the_camera(tmp_path, monkeypatch):
    app = _serve_with(tmp_path, monkeypatch, _RefusedEventPipeline)
    table = app.extensions["tableref.table"]
    app.extensions["tableref.start_camera"]("table.mp4")
    table.camera.thread.join(10)
    stored = app.extensions["tableref.store"].events(table.gid)
    assert [e["type"] for e in stored] == ["start", "play"]
