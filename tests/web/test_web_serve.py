"""``tableref serve`` and the camera side: arguments, token, demo, pipeline thread."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
import types
import urllib.request

import pytest
from webtest_game import PLAYERS, header

from web.camera import Camera, LogPlayer, read_demo_log
from web.commands import _header, is_loopback, serve_arguments



def parse(*argv):
    p = argparse.ArgumentParser()
    serve_arguments(p)
    return p.parse_args(list(argv))


def test_defaults_bind_to_localhost_port_8000():
    args = parse()
    assert (args.host, args.port, args.source, args.token) == (
        "127.0.0.1",
        8000,
        None,
        None,
    )
    assert _header(args) is None  # no players: the demo (or the last game) is served


def test_header_from_arguments():
    args = parse(
        "video.mp4",
        "--players",
        "あいこ",
        "Ben",
        "--rules",
        "tgus-1",
        "--scoring",
        "international",
        "--target",
        "300",
        "--options",
        '{"stacking": true}',
    )
    assert args.source == "video.mp4"
    assert _header(args) == {
        "type": "game",
        "game": "uno",
        "rules": "tgus-1",
        "players": ["あいこ", "Ben"],
        "options": {"stacking": True, "scoring": "international", "target": 300},
    }
    with pytest.raises(SystemExit):
        _header(parse("--players", "A", "B", "--options", "[1]"))


@pytest.mark.parametrize(
    "host, loop",
    [
        ("127.0.0.1", True),
        ("localhost", True),
        ("::1", True),
        ("127.0.0.2", True),
        ("0.0.0.0", False),
        ("192.168.1.5", False),
        ("example.org", False),
    ],
)
def test_loopback_detection(host, loop):
    assert is_loopback(host) is loop


def start_serve(tmp_path, *extra):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tableref",
            "serve",
            "--port",
            "0",
            "--db",
            str(tmp_path / "t.sqlite3"),
            "--demo-interval",
            "0.01",
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    lines = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "open http" in line:
            threading.Thread(target=proc.stdout.read, daemon=True).start()  # drain
            return proc, line.split("open ", 1)[1].strip(), lines
    proc.kill()
    raise AssertionError("serve did not print its URL:\n" + "".join(lines))


def get_json(url, token=None):
    req = urllib.request.Request(
        url, headers={"X-Tableref-Token": token} if token else {}
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


def wait_events(base, n, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        snap = get_json(base + "/api/state")
        if len(snap["events"]) >= n:
            return snap
        time.sleep(0.1)
    return snap


def stop(proc):
    proc.terminate()
    proc.wait(10)


def test_serve_replays_the_demo_to_the_end(tmp_path):
    from referee.data import DEMO_LOG

    header_, events = read_demo_log(DEMO_LOG)
    proc, url, lines = start_serve(tmp_path, "--demo-log")
    try:
        assert url.startswith("http://127.0.0.1:") and "token" not in url
        base = url.rstrip("/")
        snap = wait_events(base, len(events))
        assert snap["header"]["players"] == header_["players"]
        assert [e["type"] for e in snap["events"]] == [e["type"] for e in events]
        assert len(snap["rulings"]) >= len(events)
        camera = get_json(base + "/api/camera")
        assert (
            camera["state"] == "unavailable" and "demo table log" in camera["message"]
        )
        with urllib.request.urlopen(base + "/", timeout=10) as resp:
            assert header_["players"][0] in resp.read().decode()
        finished = snap["state"]["over"]
    finally:
        stop(proc)
    proc, url, lines = start_serve(tmp_path, "--demo-log")
    try:
        snap = get_json(url.rstrip("/") + "/api/state")
        # a finished game is not resumed: the demo starts again as a new game
        assert snap["game"] == (2 if finished else 1)
    finally:
        stop(proc)


def test_serve_resumes_an_interrupted_game_from_the_store(tmp_path):
    from referee.store import GameStore

    proc, url, lines = start_serve(tmp_path, "--demo-log", "--demo-interval", "0.3")
    try:
        wait_events(url.rstrip("/"), 3)
    finally:
        stop(proc)  # killed in the middle of the game
    stored = GameStore(tmp_path / "t.sqlite3").events(1)
    assert len(stored) >= 3
    proc, url, lines = start_serve(tmp_path, "--demo-log")
    try:
        assert any("resuming game 1" in line for line in lines), lines
        snap = get_json(url.rstrip("/") + "/api/state")
        assert snap["game"] == 1 and snap["events"] == stored
        assert len(snap["rulings"]) >= len(stored)
    finally:
        stop(proc)


def test_serve_off_localhost_prints_and_requires_a_token(tmp_path):
    proc, url, lines = start_serve(
        tmp_path, "--host", "0.0.0.0", "--token", "t0k", "--demo-log"
    )
    try:
        assert url.endswith("/?token=t0k")
        base = url.split("/?")[0].replace("0.0.0.0", "127.0.0.1")
        with pytest.raises(urllib.error.HTTPError) as err:
            get_json(base + "/api/state")
        assert err.value.code == 403
        assert get_json(base + "/api/state", token="t0k")["game"] == 1
    finally:
        proc.terminate()
        proc.wait(10)


class FakePipeline:
    """Stands in for vision.pipeline.TablePipeline: emits a start and a play."""

    made: list[FakePipeline] = []

    def __init__(
        self, source, *, game, players, table, evidence_dir, on_event, options,
        game_state=None, config=None,
    ):
        self.args = dict(
            source=source,
            game=game,
            players=players,
            table=table,
            evidence_dir=evidence_dir,
            options=options,
        )
        self.on_event = on_event
        self.game_state = game_state
        self.seen_state: dict | None = None
        FakePipeline.made.append(self)

    def run(self, stop):
        self.on_event({"type": "start", "card": "red-7", "source": "vision"})
        if self.game_state is not None:
            self.seen_state = self.game_state()
        self.on_event(
            {
                "type": "play",
                "player": PLAYERS[0],
                "cards": ["red-1"],
                "source": "vision",
            }
        )

    def status(self):
        return {
            "state": "ended",
            "message": "end of video",
            "source": "fake",
            "fps": 0,
            "frames": 2,
        }

    def latest_jpeg(self):
        return b"\xff\xd8x"


def test_camera_thread_feeds_the_table(app, game, monkeypatch):
    monkeypatch.setitem(
        sys.modules,
        "vision.pipeline",
        types.SimpleNamespace(TablePipeline=FakePipeline),
    )
    table = app.extensions["tableref.table"]
    cam = Camera()
    assert cam.start(
        "0",
        header(),
        lambda e: table.append(e, source="vision"),
        evidence_dir="/tmp/ev",
        table="kitchen",
        game_state=lambda: table.referee.state(),
    )
    cam.thread.join(5)
    made = FakePipeline.made[-1]
    # The pipeline can read the live game (the referee prior on close calls).
    assert isinstance(made.seen_state, dict) and made.seen_state
    assert made.args["source"] == 0 and made.args["players"] == PLAYERS
    assert made.args["table"] == "kitchen"
    assert [e["type"] for e in table.referee.events] == ["start", "play"]
    assert cam.status()["state"] == "ended" and cam.jpeg() == b"\xff\xd8x"


def test_camera_unavailable_when_the_pipeline_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "vision.pipeline", None)  # import fails
    cam = Camera()
    assert cam.start("0", header(), lambda e: None) is False
    assert cam.status()["state"] == "unavailable"
    assert "not available" in cam.status()["message"] and cam.jpeg() is None


def test_log_player_waits_while_paused():
    got: list[dict] = []
    paused = threading.Event()
    paused.set()
    player = LogPlayer(
        [{"type": "uno"}], got.append, interval=0.01, paused=paused.is_set
    ).start()
    time.sleep(0.2)
    assert got == []
    paused.clear()
    player.thread.join(2)
    assert got == [{"type": "uno", "source": "vision"}]


def test_demo_falls_back_to_the_log_when_the_camera_fails(app, game):
    from web.commands import _demo_fallback

    class Failing:
        def status(self):
            return {"state": "error", "message": "the card detector is not installed"}

    table = app.extensions["tableref.table"]
    cam = Camera()
    cam.pipeline, cam.error = Failing(), None
    _demo_fallback(table, cam, [{"type": "start", "card": "red-7"}], 0.01, wait=1)
    deadline = time.monotonic() + 5
    while not table.referee.events and time.monotonic() < deadline:
        time.sleep(0.02)
    assert table.referee.events[0]["source"] == "vision"
    assert "detector" in cam.status()["message"] and "demo" in cam.status()["message"]


def test_scan_needs_a_running_pipeline(app, client, game):
    assert client.post("/api/camera/scan", json={"on": True}).status_code == 409
    made = []
    cam = Camera()
    cam.pipeline = types.SimpleNamespace(
        set_scan=made.append, status=lambda: {"state": "running"}
    )
    cam.error = None
    app.extensions["tableref.table"].camera = cam
    assert client.post("/api/camera/scan", json={"on": "yes"}).status_code == 400
    assert client.post("/api/camera/scan", json={"on": True}).get_json() == {
        "scan": True
    }
    assert made == [True]
    assert 'data-post="/api/camera/scan"' in client.get("/").get_data(as_text=True)


def test_scan_a_pipeline_refuses_is_a_conflict_that_says_why(app, client, game):
    def refuse(on):
        raise RuntimeError("the pipeline is closing")

    cam = Camera()
    cam.pipeline = types.SimpleNamespace(set_scan=refuse, status=lambda: {"state": "running"})
    cam.error = None
    app.extensions["tableref.table"].camera = cam
    resp = client.post("/api/camera/scan", json={"on": True})
    assert resp.status_code == 409
    assert "closing" in resp.get_data(as_text=True)


def test_listen_feeds_voice_events_to_the_table(app, game, monkeypatch, capsys):
    from web.commands import _listen

    calls = {}

    def listen_into(append, get_state, **kwargs):
        calls.update(kwargs, state=get_state())
        append({"type": "uno", "player": PLAYERS[0]})
        append({"type": "uno", "player": 5})  # refused with a message, not a crash
        return "handle"

    monkeypatch.setitem(
        sys.modules, "voice.bridge", types.SimpleNamespace(listen_into=listen_into)
    )
    table = app.extensions["tableref.table"]
    assert _listen(table, "2") == "handle"
    assert calls["device"] == 2 and calls["state"]["players"] == PLAYERS
    assert table.referee.events == [
        {"type": "uno", "player": PLAYERS[0], "source": "voice"}
    ]
    assert "not recorded" in capsys.readouterr().err
    assert "colour_after" not in calls  # the listener's own default
    calls.clear()
    _listen(table, "2", colour_after=4.5)  # serve's listen.colour_after_s
    assert calls["colour_after"] == 4.5
    monkeypatch.setitem(sys.modules, "voice.bridge", None)
    assert _listen(table, "") is None
    assert "not available" in capsys.readouterr().err


def test_serve_says_so_when_the_port_is_taken(tmp_path):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        env = dict(os.environ)
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "tableref",
                "serve",
                "--demo-log",
                "--port",
                str(port),
                "--db",
                str(tmp_path / "t.sqlite3"),
            ],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=60,
        )
    assert done.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
