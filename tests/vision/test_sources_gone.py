"""An ``OSError`` a source raises (a device that is not there) is a
:class:`vision.sources.SourceError` whose kind the source sets where it came
from: a camera's is ``camera_not_found``, a folder's or a file's is not (the
same number raised by a disk says no camera), and a live source retries it
instead of stopping the pipeline."""

from __future__ import annotations

import errno
import threading
from pathlib import Path

import cv2
import pytest

from vision.sources import FrameSource, RetryingSource, SourceError
from web.errors import failure_kind


@pytest.mark.parametrize("number", [errno.ENODEV, errno.ENXIO])
def test_a_camera_that_is_not_there_is_camera_not_found(monkeypatch, number):
    def gone(target):
        raise OSError(number, "No such device")

    monkeypatch.setattr(cv2, "VideoCapture", gone)
    source = FrameSource(0)
    with pytest.raises(SourceError) as raised:
        source.open()
    assert raised.value.kind == source.failure == "camera_not_found"
    assert isinstance(raised.value.__cause__, OSError)
    assert failure_kind(raised.value) == "camera_not_found"


def test_a_folder_on_a_disk_taken_away_is_no_camera(monkeypatch, tmp_path):
    real = Path.iterdir

    def gone(self):
        if self == tmp_path:
            raise OSError(errno.ENXIO, "No such device or address")
        return real(self)

    monkeypatch.setattr(Path, "iterdir", gone)
    source = FrameSource(str(tmp_path))
    with pytest.raises(SourceError) as raised:
        source.open()
    assert raised.value.kind == source.failure == "cannot_open_source"
    assert failure_kind(raised.value) == "cannot_open_source"
    assert "No such device or address" in str(raised.value)


class Unplugged:
    """A live source (not a FrameSource) whose reads raise an ``OSError``."""

    def __init__(self, kind: str):
        self.kind, self.live, self.failure = kind, True, None
        self.reads = 0

    def describe(self) -> str:
        return f"{self.kind} 0"

    def open(self) -> None:
        pass

    def close(self) -> None:
        pass

    def read(self):
        self.reads += 1
        raise OSError(errno.ENODEV, "No such device")


@pytest.mark.parametrize("kind, said", [("camera", "camera_not_found"),
                                        ("stream", "cannot_open_source")])
def test_a_live_source_raising_an_oserror_is_retried_by_its_kind(kind, said):
    source = Unplugged(kind)
    seen: list[tuple[str, str, str | None]] = []
    feed = RetryingSource(source, lambda state, message: seen.append(
        (state, message, source.failure)), first_delay=0.0, max_retries=2)
    assert list(feed.frames(threading.Event())) == []  # it gave up, raising nothing
    assert source.reads == 3
    assert [s for s, _, _ in seen] == ["starting", "retrying", "retrying", "error"]
    assert all(f == said for s, _, f in seen if s in ("retrying", "error"))
    assert "No such device" in seen[-1][1]


def test_a_camera_index_opencv_refuses_is_a_camera_not_found():
    """An index out of OpenCV's range raises its own error inside
    ``VideoCapture``: said as a camera that cannot be found, not as an
    unknown failure that stops the pipeline."""
    source = FrameSource("99999999999999999999")
    with pytest.raises(SourceError) as raised:
        source.open()
    assert raised.value.kind == source.failure == "camera_not_found"
    assert str(raised.value) == "OpenCV cannot open camera 99999999999999999999"
