"""Frame sources: files, folders, bad frames, retries with back-off."""

from __future__ import annotations

import threading

import cv2
import numpy as np
import pytest

from vision.sources import (
    Frame,
    FrameSource,
    RetryingSource,
    SourceError,
    source_kind,
    valid_image,
)


def write_video(path, n=12, fps=10.0, size=(64, 48)):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, size)
    assert writer.isOpened()
    for i in range(n):
        writer.write(np.full((size[1], size[0], 3), 10 * i, np.uint8))
    writer.release()


@pytest.mark.parametrize(
    "spec,kind",
    [
        (0, "camera"),
        ("1", "camera"),
        ("rtsp://cam/live", "stream"),
        ("http://x/y.mjpg", "stream"),
        ("game.mp4", "file"),
    ],
)
def test_source_kind(spec, kind):
    assert source_kind(spec) == kind


def test_folder_source_is_folder(tmp_path):
    assert source_kind(str(tmp_path)) == "folder"


def test_video_file_frames_are_timed_by_its_frame_rate(tmp_path):
    path = tmp_path / "v.avi"
    write_video(path, n=12, fps=10.0)
    src = FrameSource(str(path))
    src.open()
    frames = []
    while (frame := src.read()) is not None:
        frames.append(frame)
    assert len(frames) == 12
    assert [f.index for f in frames] == list(range(12))
    assert frames[5].t == pytest.approx(0.5)
    assert frames[0].image.shape == (48, 64, 3)


def test_folder_skips_a_corrupt_image_and_goes_on(tmp_path):
    for i in range(3):
        cv2.imwrite(
            str(tmp_path / f"{i:02d}.png"), np.full((20, 30, 3), 50 * i, np.uint8)
        )
    (tmp_path / "01b.jpg").write_bytes(b"\xff\xd8 not really a jpeg")
    (tmp_path / "notes.txt").write_text("ignored")
    src = FrameSource(str(tmp_path), fps=5)
    src.open()
    frames = []
    while (frame := src.read()) is not None:
        frames.append(frame)
    assert len(frames) == 3
    assert src.skipped == 1
    assert frames[2].t == pytest.approx(3 / 5)  # the bad file keeps its slot in time


def test_empty_folder_and_missing_file_say_why(tmp_path):
    with pytest.raises(SourceError, match="no images"):
        FrameSource(str(tmp_path)).open()
    with pytest.raises(SourceError, match="no such video file"):
        FrameSource(str(tmp_path / "nope.mp4")).open()


def test_valid_image():
    assert valid_image(np.zeros((10, 10, 3), np.uint8))
    assert not valid_image(np.zeros((10, 10), np.uint8))
    assert not valid_image(np.zeros((10, 10, 3), np.float32))
    assert not valid_image(None)


class Flaky(FrameSource):
    """Fails to open ``fail_opens`` times, then gives ``frames`` frames and drops."""

    def __init__(self, fail_opens: int, frames: int, live: bool = True):
        super().__init__("rtsp://flaky")
        self.fail_opens, self.frames, self.opens, self.given = fail_opens, frames, 0, 0
        self._live = live

    def open(self):
        self.opens += 1
        if self.opens <= self.fail_opens:
            raise SourceError("camera unplugged")

    def read(self):
        if self.given >= self.frames:
            if self._live:
                raise SourceError("stream dropped")
            return None
        self.given += 1
        return Frame(self.given, self.given / 10, np.zeros((8, 8, 3), np.uint8))

    def close(self):
        pass


def test_failing_source_is_retried_with_back_off_and_reported():
    states = []
    feed = RetryingSource(
        Flaky(fail_opens=2, frames=3, live=False),
        lambda s, m: states.append((s, m)),
        first_delay=0.01,
    )
    frames = list(feed.frames(threading.Event()))
    assert len(frames) == 3
    kinds = [s for s, _ in states]
    assert kinds == ["starting", "retrying", "retrying", "running", "ended"]
    assert "camera unplugged" in states[1][1] and "retry 1 in" in states[1][1]
    assert "retry 2 in" in states[2][1]


def test_source_that_keeps_failing_gives_up_with_an_error():
    states = []
    feed = RetryingSource(
        Flaky(fail_opens=99, frames=0),
        lambda s, m: states.append(s),
        first_delay=0.001,
        max_retries=3,
    )
    assert list(feed.frames(threading.Event())) == []
    assert states[-1] == "error" and states.count("retrying") == 3


def test_dropped_stream_is_reopened():
    src = Flaky(fail_opens=0, frames=2)
    feed = RetryingSource(src, first_delay=0.001, max_retries=2)
    got = list(feed.frames(threading.Event()))
    assert src.opens == 3  # the first open, then one reopen per drop until giving up
    assert len(got) == 2 and feed.state == "error"


def test_stop_ends_the_loop():
    stop = threading.Event()
    stop.set()
    assert list(RetryingSource(Flaky(0, 5)).frames(stop)) == []


class _FakeCamera:
    """A capture that opens and says its frame rate (``rate``; 0: it does not say)."""

    rate = 30.0

    def __init__(self, target):
        self.target = target

    def isOpened(self):
        return True

    def get(self, prop):
        return self.rate if prop == cv2.CAP_PROP_FPS else 0.0

    def release(self):
        pass


@pytest.mark.parametrize("rate,expected", [(30.0, 30.0), (0.0, 15.0), (90000.0, 15.0)])
def test_a_camera_takes_the_rate_it_says(monkeypatch, rate, expected):
    """A 30 fps webcam is fed as 30 fps (the tracker's history is sized from it);
    a camera that says nothing, or an impossible rate, keeps the default."""
    import vision.sources as sources

    monkeypatch.setattr(_FakeCamera, "rate", rate)
    monkeypatch.setattr(sources.cv2, "VideoCapture", _FakeCamera)
    src = FrameSource(0)
    src.open()
    assert src.kind == "camera"
    assert src.fps == expected
    src.close()
