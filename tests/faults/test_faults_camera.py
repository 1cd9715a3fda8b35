"""The camera disappears mid-game: the game and its records go on.

The real vision pipeline (``vision.pipeline.TablePipeline`` with OpenCV
reading a real video file) runs in the page's camera thread. The "camera" is
a live source over a video file (``FrameSource`` with ``kind = "stream"``),
so it behaves as a webcam: when the file is truncated and removed mid-run, the
pipeline reports that the source stopped and retries; meanwhile the table
keeps taking events, the store keeps every one, and ``/api/camera`` and the
page show the camera problem. The detector is a stand-in that sees no cards
(the shipped model is not needed to lose a camera).
"""

from __future__ import annotations

import os
import threading
import time

import pytest

from faults_server import clean_replay, event_stream, normal

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")


class BlindDetector:
    """Sees no cards; takes a few ms a frame, as a model would."""

    def __init__(self) -> None:
        self.frames = 0
        self.seen = threading.Event()

    def detect(self, image):
        from vision.detections import Detections

        self.frames += 1
        if self.frames >= 5:
            self.seen.set()
        time.sleep(0.01)
        return Detections.empty()


def _video(path, frames: int = 400) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (96, 64))
    assert writer.isOpened(), "OpenCV cannot write MJPG here"
    for i in range(frames):
        image = np.full((64, 96, 3), (i * 3) % 255, np.uint8)
        cv2.putText(image, str(i), (5, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.8,
                    (255, 255, 255))
        writer.write(image)
    writer.release()


def _wait(check, seconds: float):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    return check()


def test_camera_lost_mid_game_the_game_and_records_go_on(tmp_path, monkeypatch):
    from vision import pipeline as vp
    from vision.sources import FrameSource
    from web import create_app
    from web.camera import Camera

    detector = BlindDetector()
    monkeypatch.setattr(vp, "load_default_detector", lambda: detector)
    video = tmp_path / "webcam.avi"
    _video(video)
    app = create_app({"DATABASE": str(tmp_path / "app.sqlite3"),
                      "EVIDENCE_DIRS": [str(tmp_path / "evidence")]})
    client = app.test_client()
    table = app.extensions["tableref.table"]
    store = app.extensions["tableref.store"]
    header, events = event_stream(41, 20)
    gid = client.post("/api/games", json=header).get_json()["game"]

    source = FrameSource(str(video))
    source.kind = "stream"  # a live source: a failure is a lost camera, not the end
    cam = Camera()
    table.camera = cam
    assert cam.start(source, header, lambda e: table.append(e, source="vision"))
    try:
        assert detector.seen.wait(20), cam.status()
        assert client.get("/api/camera").get_json()["state"] == "running"
        for event in events[:10]:
            assert client.post("/api/events", json=event).status_code == 201

        os.truncate(video, 0)  # the camera goes away mid-run
        video.unlink()
        status = _wait(lambda: (s := client.get("/api/camera").get_json())["state"]
                       in ("retrying", "error") and s, 30)
        assert status, client.get("/api/camera").get_json()
        message = status["message"]
        assert "stream" in message and (
            "stopped delivering" in message or "cannot open" in message), message
        page = client.get("/").get_data(as_text=True)
        assert status["state"] in page

        for event in events[10:]:
            assert client.post("/api/events", json=event).status_code == 201
    finally:
        cam.stop.set()
        cam.thread.join(10)
    assert not cam.thread.is_alive()
    stored = store.events(gid)
    assert [{k: v for k, v in e.items() if k != "source"} for e in stored] == events
    snap = client.get("/api/state").get_json()
    state, _ = clean_replay(store.export(gid))
    assert normal(snap["state"]) == state
