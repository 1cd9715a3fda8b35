"""``tableref serve`` run in-process with its HTTP server replaced and a
stand-in camera pipeline that plays a script of camera events per source,
each with an evidence frame written into the folder it is given, as
``vision.pipeline.TablePipeline._emit`` does."""

from __future__ import annotations

import argparse
import sys
import threading
import types
from pathlib import Path

#: the camera events each source plays, by source; ``SOURCE:late``: those it
#: sends after it was stopped (an event in flight when it was replaced)
SCRIPTS: dict[str, list[dict]] = {}


class NoServer:
    server_port = 0

    def __init__(self, app) -> None:
        self.app = app

    def serve_forever(self) -> None:
        raise KeyboardInterrupt

    def server_close(self) -> None:
        pass


class ScriptedPipeline:
    """Plays ``SCRIPTS[source]`` (each event with its frame), then runs until
    stopped; ``done`` is set once its events are sent."""

    made: list[ScriptedPipeline] = []

    def __init__(self, source, *, game, players, table, evidence_dir, on_event,
                 options, game_state=None, config=None):
        self.source = str(source)
        self.folder = Path(evidence_dir)
        self.on_event = on_event
        self.n = 0
        self.done = threading.Event()
        ScriptedPipeline.made.append(self)

    def _send(self, event: dict) -> None:
        self.n += 1
        frame = self.folder / f"{self.n:04d}-{event['type']}.jpg"
        frame.write_bytes(b"\xff\xd8 %s %d \xff\xd9" % (self.source.encode(), self.n))
        self.on_event({**event, "evidence": str(frame)})

    def run(self, stop) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        try:
            for event in SCRIPTS.get(self.source, []):
                self._send(dict(event))
        finally:
            self.done.set()
        stop.wait()
        for event in SCRIPTS.get(self.source + ":late", []):
            self._send(dict(event))

    def status(self) -> dict:
        return {"state": "running", "source": self.source}

    def latest_jpeg(self) -> None:
        return None


def serve_app(tmp_path: Path, monkeypatch, *extra: str, pipeline: type | None = None):
    """``serve`` on the store ``tmp_path/t.sqlite3`` (no real server, the
    scripted pipeline, or ``pipeline``, as the camera, no demo played);
    returns its app."""
    import werkzeug.serving

    from web.commands import serve, serve_arguments

    made: list[NoServer] = []

    def make_server(host, port, app, threaded=True):
        made.append(NoServer(app))
        return made[-1]

    monkeypatch.setattr(werkzeug.serving, "make_server", make_server)
    camera = types.SimpleNamespace(TablePipeline=pipeline or ScriptedPipeline)
    monkeypatch.setitem(sys.modules, "vision.pipeline", camera)
    parser = argparse.ArgumentParser()
    serve_arguments(parser)
    args = parser.parse_args(["--db", str(tmp_path / "t.sqlite3"), "--demo-log",
                              "--demo-interval", "3600", "--port", "0", *extra])
    assert serve(args) == 0
    return made[-1].app


def camera_runs(app, source: str | None = None, timeout: float = 10.0):
    """Start (or replace) the camera on ``source`` as the setup page does,
    and wait until its script is played; returns the table's camera."""
    app.extensions["tableref.start_camera"](source)
    camera = app.extensions["tableref.table"].camera
    pipeline = camera.pipeline
    assert pipeline is not None, camera.status()
    assert pipeline.done.wait(timeout)
    return camera
