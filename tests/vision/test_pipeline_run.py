"""The whole pipeline on the bundled demo video, with the renderer's oracle detector."""

from __future__ import annotations

import json
import threading

import cv2
import numpy as np
import pytest

from vision import pipeline as pipeline_module
from vision.config import DetectorConfig
from vision.demo.evaluate import compare
from vision.demo.oracle import OracleDetector
from vision.pipeline import DEMO_DIR, DEMO_LOG, DEMO_VIDEO, TablePipeline, bundled_demo
from vision.sources import Frame, FrameSource, SourceError

ORACLE = DEMO_DIR / "demo-table.oracle.json.gz"
PLAYERS = ["Aiko", "Ben", "Chie"]


def truth() -> list[dict]:
    return [json.loads(x) for x in DEMO_LOG.read_text(encoding="utf-8").splitlines()][
        1:
    ]


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory):
    evidence = tmp_path_factory.mktemp("evidence")
    events: list[dict] = []
    pipe = TablePipeline(
        str(DEMO_VIDEO),
        players=PLAYERS,
        detector=OracleDetector(ORACLE),
        evidence_dir=evidence,
        on_event=events.append,
        realtime=False,
    )
    pipe.run(threading.Event())
    return pipe, events


def test_bundled_demo_names_the_video_and_its_header():
    video, header = bundled_demo()
    assert video == DEMO_VIDEO and video.is_file()
    assert header["type"] == "game" and header["players"] == PLAYERS


def test_every_play_of_the_demo_is_seen_once_in_order(demo_run):
    _, events = demo_run
    scores = compare(truth(), events)
    play = scores["play"]
    assert play.truth == 30 and play.matched == 30 and play.detected == 30
    seen = [
        tuple(e.get("cards") or [e["card"]])
        for e in events
        if e["type"] in ("start", "play")
    ]
    expected = [
        tuple(e.get("cards") or [e["card"]])
        for e in truth()
        if e["type"] in ("start", "play")
    ]
    assert seen == expected
    assert max(play.latencies) <= 0.3


def test_draws_are_seen_with_their_counts(demo_run):
    _, events = demo_run
    draws = [e["count"] for e in events if e["type"] == "draw"]
    assert draws == [e["count"] for e in truth() if e["type"] == "draw"]


def test_each_play_names_the_arms_that_reached_the_pile_since_the_last(demo_run):
    _, events = demo_run
    plays = [e for e in events if e["type"] == "play"]
    assert all(isinstance(e["pile_reaches"], list) for e in plays)
    players = [e["player"] for e in truth() if e["type"] == "play"]
    own = sum(p in e["pile_reaches"] for p, e in zip(players, plays))
    assert own >= 0.9 * len(plays)  # the arm that put the card down
    assert all(
        "pile_reaches" not in e for e in events if e["type"] not in ("play", "draw")
    )


def test_events_carry_source_time_and_evidence(demo_run):
    _, events = demo_run
    times = [e["t"] for e in events]
    assert all(e["source"] == "vision" for e in events)
    assert all(isinstance(t, float) for t in times)
    for e in events:
        image = cv2.imread(e["evidence"])
        assert image is not None and image.shape == (480, 640, 3)


def test_status_and_latest_frame(demo_run):
    pipe, _ = demo_run
    status = pipe.status()
    assert status["state"] == "ended" and status["frames"] > 1000
    assert status["source"].endswith("demo-table.mp4")
    jpeg = pipe.latest_jpeg()
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (480, 640, 3)
    assert pipe.geometry.method == "markers"


def test_noisy_detector_still_gives_the_same_plays():
    events: list[dict] = []
    noisy = OracleDetector(ORACLE, misread=0.1, phantom=0.05, seed=3)
    TablePipeline(
        str(DEMO_VIDEO),
        players=PLAYERS,
        detector=noisy,
        on_event=events.append,
        realtime=False,
    ).run(threading.Event())
    assert len(noisy.noise_frames) > 100
    play = compare(truth(), events)["play"]
    assert play.matched == play.truth == play.detected


def test_fps_cap_skips_frames():
    events: list[dict] = []
    pipe = TablePipeline(
        str(DEMO_VIDEO),
        players=PLAYERS,
        detector=OracleDetector(ORACLE),
        on_event=events.append,
        realtime=False,
        fps=5,
    )
    pipe.run(threading.Event())
    assert 400 <= pipe.status()["frames"] <= 430  # 83 s at 5 frames a second


def test_missing_model_is_an_error_status(monkeypatch):
    def no_model():
        raise RuntimeError("the card detector could not load its model: none shipped")

    monkeypatch.setattr(pipeline_module, "load_default_detector", no_model)
    pipe = TablePipeline(str(DEMO_VIDEO), players=PLAYERS)
    pipe.run(threading.Event())
    assert pipe.status()["state"] == "error"
    assert "none shipped" in pipe.status()["message"]


class Unplugged(FrameSource):
    def __init__(self):
        super().__init__("0")

    def open(self):
        raise SourceError("camera 0 is unplugged", "camera_not_found")


def test_a_source_that_fails_is_retried_and_reported():
    pipe = TablePipeline(
        Unplugged(), players=PLAYERS, detector=OracleDetector(ORACLE), max_retries=2
    )
    states: list[str] = []
    original = pipe._set_status

    def spy(state, message, failure=None):
        states.append(state)
        original(state, message, failure)

    pipe._set_status = spy
    pipe.run(threading.Event())
    assert states.count("retrying") == 2 and states[-1] == "error"
    status = pipe.status()
    assert "unplugged" in status["message"]
    # the kind the source raised with, as a code the page can say in its language
    assert status["failure"] == "camera_not_found"


def test_stop_from_another_thread_ends_run():
    stop = threading.Event()
    pipe = TablePipeline(
        str(DEMO_VIDEO), players=PLAYERS, detector=OracleDetector(ORACLE), realtime=True
    )
    thread = threading.Thread(target=pipe.run, args=(stop,))
    thread.start()
    stop.wait(0.5)
    stop.set()
    thread.join(5)
    assert not thread.is_alive()
    assert 0 < pipe.status()["frames"] < 30  # paced at the video's 15 fps


def test_process_accepts_frames_of_another_size():
    events: list[dict] = []
    pipe = TablePipeline(
        str(DEMO_VIDEO),
        players=PLAYERS,
        detector=OracleDetector(ORACLE),
        on_event=events.append,
    )
    src = FrameSource(str(DEMO_VIDEO))
    src.open()
    for _ in range(60):  # the first card lands at 2.2 s
        frame = src.read()
        big = cv2.resize(frame.image, (1280, 960))
        pipe.process(Frame(frame.index, frame.t, big))
    assert pipe.geometry.image_size == (640, 480)
    assert [e["type"] for e in events] == ["start"]


class Hiccup(OracleDetector):
    """Fails on a few frames, like a detector meeting a frame it cannot read."""

    def detect_frame(self, frame):
        if frame.index in (30, 33, 201):
            raise ValueError("cannot read this frame")
        return super().detect_frame(frame)


def test_a_frame_that_fails_is_skipped_and_the_game_goes_on():
    events: list[dict] = []
    pipe = TablePipeline(
        str(DEMO_VIDEO),
        players=PLAYERS,
        detector=Hiccup(ORACLE),
        on_event=events.append,
        realtime=False,
        fps=5,  # every third frame: 30, 33 and 201 are among them
    )
    pipe.run(threading.Event())
    assert pipe.skipped_frames == 3 and pipe.status()["state"] == "ended"
    assert [e["type"] for e in events[:1]] == ["start"] and len(events) > 20


class Broken(OracleDetector):
    def detect_frame(self, frame):
        raise ValueError("the model file is corrupt")


def test_a_detector_that_always_fails_ends_in_an_error():
    pipe = TablePipeline(
        str(DEMO_VIDEO), players=PLAYERS, detector=Broken(ORACLE), realtime=False
    )
    pipe.run(threading.Event())
    assert pipe.status()["state"] == "error"
    assert "corrupt" in pipe.status()["message"]


class CountingDetector:
    """Reads pixels (marked for the motion gate) and counts its reads; names one
    red 7 wherever the frame is brightest."""

    motion_gate = True

    def __init__(self) -> None:
        self.reads = 0

    def detect(self, frame_bgr):
        from vision.detections import Detections

        self.reads += 1
        y, x = np.unravel_index(int(frame_bgr.sum(axis=2).argmax()), frame_bgr.shape[:2])
        box = [[x - 20, y - 30, x + 20, y + 30]]
        return Detections(np.array(box, np.float32), np.array([0.9]), np.array([0]))


def _table(spot: tuple[int, int] | None = None, noise: int = 0, seed: int = 0):
    image = np.full((480, 640, 3), 90, np.uint8)
    if noise:
        jitter = np.random.default_rng(seed).integers(-noise, noise + 1, image.shape)
        image = (image + jitter).astype(np.uint8)
    if spot is not None:
        x, y = spot
        cv2.rectangle(image, (x - 20, y - 30), (x + 20, y + 30), (255, 255, 255), -1)
    return image


def _gated_pipe(detector) -> TablePipeline:
    from vision.geometry import TableGeometry

    return TablePipeline(
        str(DEMO_VIDEO), players=PLAYERS, detector=detector,
        table=TableGeometry.default((640, 480), PLAYERS),
    )


def test_still_frames_reuse_the_last_read_and_a_change_is_read():
    """A frame that did not change since the detector's last read gets that
    read's cards again (sensor noise is no change); a card that moves is read
    at once; a still scene is read again every detector.gate_refresh_s."""
    detector = CountingDetector()
    pipe = _gated_pipe(detector)
    dt = 1 / 30
    t = 0.0
    for i in range(10):  # 1/3 s of a still table, a little noise on every frame
        pipe.process(Frame(i, t, _table((300, 200), noise=2, seed=i)))
        t += dt
    assert detector.reads == 1 and pipe.gated_frames == 9
    before = detector.reads
    pipe.process(Frame(10, t, _table((340, 200), noise=2, seed=10)))  # it moved
    assert detector.reads == before + 1
    tracks = pipe.stages["tracker"].tracks
    assert tracks  # the gated frames fed the tracker as reads do
    t += dt
    n = 0
    while t < 2.0:  # still again: read every detector.gate_refresh_s
        pipe.process(Frame(11 + n, t, _table((340, 200))))
        t, n = t + dt, n + 1
    expected = int(np.ceil((t - 11 * dt) / DetectorConfig().gate_refresh_s))
    assert abs((detector.reads - before - 1) - expected) <= 1


def test_a_detector_not_marked_for_the_gate_reads_every_frame():
    """Detectors that do not read only the pixels (an oracle reading by frame
    index, a test's scripted detector) are called on every frame."""
    detector = CountingDetector()
    detector.motion_gate = False
    pipe = _gated_pipe(detector)
    for i in range(8):
        pipe.process(Frame(i, i / 30, _table((300, 200))))
    assert detector.reads == 8 and pipe.gated_frames == 0


def test_a_30_fps_source_gives_its_tracks_history_s_of_reads(tmp_path, caplog):
    # tracking.history_s is seconds: 60 reads a track at 30 fps (30 at 15),
    # which holds the play stage's longest still-window, so no warning
    import logging

    from vision.config import PipelineConfig
    from vision.geometry import TableGeometry
    from vision.pipeline import TablePipeline
    from vision.sources import Frame, FrameSource

    caplog.set_level(logging.WARNING)
    for fps, frames in ((30.0, 60), (15.0, 30)):
        pipe = TablePipeline(FrameSource(str(tmp_path), fps=fps, realtime=False),
                             players=["A", "B", "C"],
                             table=TableGeometry.default((640, 480), ("A", "B", "C")),
                             detector=_NoCards(), realtime=False)
        pipe.process(Frame(0, 0.0, np.zeros((480, 640, 3), np.uint8)))
        assert pipe.stages["tracker"].history_frames == frames
    assert PipelineConfig().tracking.history_s == 2.0
    assert not [r for r in caplog.records if "history" in r.getMessage()]


class _NoCards:
    def detect(self, image):
        from vision.detections import Detections

        return Detections.empty()
