"""A camera's failure is said by its kind, a code set where it was raised
(``vision.sources.SourceError.kind``, an ``OSError``'s number, an
``ImportError``), never by the words of its message: the camera's status
(``/api/camera``) gives the kind as ``failure``, and the page says it in
Japanese, the camera's own words after it in parentheses."""

from __future__ import annotations

import errno
from types import SimpleNamespace

import pytest

from vision.sources import FrameSource, SourceError
from web import create_app
from web.camera import Camera
from web.memstore import MemoryStore

UNO = {"game": "uno", "rules": "official", "players": ["A", "B", "C"]}


@pytest.fixture
def page():
    app = create_app({"TESTING": True, "STORE": MemoryStore()})
    client = app.test_client()
    assert client.post("/api/games", json=UNO).status_code == 201
    camera = app.extensions["tableref.table"].camera = Camera()
    camera.error = None
    return client, camera


def shown(client) -> tuple[dict, str]:
    """The camera's status and its part of the page, in Japanese."""
    status = client.get("/api/camera?lang=ja").get_json()
    html = client.get("/partials?names=camera_status&lang=ja").get_json()
    return status, html["camera_status"]


def pipeline(state: str, message: str, **more) -> SimpleNamespace:
    """A pipeline stand-in whose status is ``state``, ``message`` and
    ``more`` (its ``failure``, as :meth:`vision.pipeline.TablePipeline.status`
    gives it)."""
    return SimpleNamespace(
        status=lambda: {"state": state, "message": message, **more},
        set_scan=lambda on: None)


def test_a_source_the_pipeline_gave_up_on_is_said_by_its_failures_kind(page, tmp_path):
    """The real pipeline on a video file that is not there: its status gives
    the kind its source raised (a code), said in Japanese; the scan is
    refused with it."""
    from vision.pipeline import TablePipeline

    client, camera = page
    camera.pipeline = TablePipeline(
        FrameSource(str(tmp_path / "gone.mp4")), players=["A", "B", "C"],
        detector=SimpleNamespace(detect=lambda image: None), max_retries=0)
    camera.stop.clear()
    camera._run()
    assert camera.pipeline.status()["failure"] == "video_missing"
    status, html = shown(client)
    assert status["failure"] == "video_missing" and status["ended"] == "lost"
    assert "動画ファイルが見つからない（no such video file" in html
    said = client.post("/api/camera/scan?lang=ja", json={"on": True}).get_json()
    assert said["code"] == "scan_refused" and said["failure"] == "video_missing"
    assert "動画ファイルが見つからない" in said["message"]


def test_the_kind_is_not_read_from_the_words(page):
    """A message whose words once named a kind, with no code: a camera's error."""
    client, camera = page
    camera.pipeline = pipeline(
        "retrying", "OpenCV cannot open camera 0; retry 1 in 0.5 s")
    status, html = shown(client)
    assert "failure" not in status
    assert "カメラのエラー（OpenCV cannot open camera 0）" in html
    assert "カメラが見つからない" not in html


def test_the_status_is_the_one_place_of_a_failures_kind(page):
    """A status that gives no kind says none, whatever its source says now
    (that may be of another moment: a source reopened since the message)."""
    client, camera = page
    camera.pipeline = pipeline("retrying", "reading camera 0 failed; retry 1 in 0.5 s")
    camera.pipeline.source = SimpleNamespace(failure="camera_not_found")
    status, html = shown(client)
    assert "failure" not in status and "カメラが見つからない" not in html
    camera.pipeline = pipeline("retrying", "OpenCV cannot open camera 0; retry 1 in "
                               "0.5 s", failure="camera_not_found")
    status, html = shown(client)
    assert status["failure"] == "camera_not_found"
    assert "カメラが見つからない（OpenCV cannot open camera 0）" in html


def test_a_running_camera_says_no_failure(page):
    client, camera = page
    camera.pipeline = pipeline("running", "reading camera 0")
    status, html = shown(client)
    assert "failure" not in status and "カメラ 0 を読み込み中" in html


def test_the_pipelines_own_kind_comes_first(page):
    """A pipeline status that gives its failure's kind (its own: a detector
    that cannot load) is said by it."""
    client, camera = page
    camera.pipeline = pipeline("error", "the card detector is not installed",
                               failure="detector_missing")
    status, html = shown(client)
    assert status["failure"] == "detector_missing"
    assert "カードを見つけるモデルを読み込めない（the card detector" in html


@pytest.mark.parametrize("exc, kind, ja", [
    # a number raised by no camera source (a disk's): no camera's failure
    (OSError(errno.ENODEV, "No such device"), "device_missing",
     "ディスクか装置が見つからない"),
    (SourceError("OpenCV cannot open camera 7", "camera_not_found"),
     "camera_not_found", "カメラが見つからない"),
    (ValueError("no such device"), None, "カメラのエラー"),
], ids=["enodev", "source-error", "words"])
def test_a_camera_that_cannot_start_says_why_by_its_kind(page, monkeypatch, exc,
                                                         kind, ja):
    import vision.pipeline

    client, camera = page

    def refused(*args, **kwargs):
        raise exc

    monkeypatch.setattr(vision.pipeline, "TablePipeline", refused)
    assert not camera.start("7", {"players": ["A", "B", "C"]}, lambda e: None)
    assert camera.failure == kind
    status = client.get("/api/camera?lang=ja").get_json()
    assert status.get("failure") == kind
    assert status["message"] == f"7 でカメラを起動できません: {ja}（{exc}）"
    en = client.get("/api/camera?lang=en").get_json()["message"]
    assert en == f"the camera could not start on 7: {exc}"


class Lost:
    """A pipeline whose run stops on ``exc`` (raised by what it loads, not by
    its camera source)."""

    def __init__(self, exc: BaseException):
        self.exc = exc

    def run(self, stop):
        raise self.exc

    def status(self):
        return {"state": "running", "message": "reading camera 0"}


@pytest.mark.parametrize("exc, kind, ja", [
    (OSError(errno.ENXIO, "No such device or address: '/mnt/usb/model.xml'"),
     "device_missing", "ディスクか装置が見つからない"),
    (SourceError("camera 0 failed: [Errno 19] No such device", "camera_not_found"),
     "camera_not_found", "カメラが見つからない"),
], ids=["disk", "camera"])
def test_a_camera_lost_on_a_device_error_is_said_by_where_it_came_from(
        page, exc, kind, ja):
    client, camera = page
    camera.pipeline = Lost(exc)
    camera._run()
    assert camera.ended == "lost" and camera.failure == kind
    status = client.get("/api/camera?lang=ja").get_json()
    assert status["failure"] == kind
    assert status["message"] == f"カメラ処理が止まりました: {ja}（{exc}）"
    if kind != "camera_not_found":
        assert "カメラが見つからない" not in status["message"]
    for url in ("/", "/?lang=ja", "/table?lang=ja", "/partials?view=table"):
        assert client.get(url).status_code == 200, url


class Unplugged(FrameSource):
    """A camera unplugged mid-game: its reads and its reopening raise the
    ``OSError`` the device's driver gives (ENODEV)."""

    def __init__(self):
        super().__init__(0)

    def open(self):
        pass

    def read(self):
        raise OSError(errno.ENODEV, "No such device")


def test_a_camera_unplugged_mid_game_is_retried_and_said_as_not_found(page):
    """The real pipeline keeps retrying it (it is not lost), its status says
    the kind its source set (``camera_not_found``), the page says it in
    Japanese, and the game's lines stay as they were."""
    import threading
    import time

    from vision.pipeline import TablePipeline

    client, camera = page
    assert client.post("/api/events", json={"type": "start", "card": "red-7"}
                       ).status_code == 201
    camera.pipeline = TablePipeline(
        Unplugged(), players=["A", "B", "C"],
        detector=SimpleNamespace(detect=lambda image: None))
    camera.stop.clear()
    runs = threading.Thread(target=camera._run, daemon=True)
    runs.start()
    try:
        for _ in range(100):
            if camera.pipeline.status().get("state") == "retrying":
                break
            time.sleep(0.02)
        status, html = shown(client)
        assert status["state"] == "retrying" and status["failure"] == "camera_not_found"
        assert "再試行中: カメラが見つからない（camera 0 failed: [Errno 19] No such device）" \
            in html, html
        assert camera.ended is None  # not lost: it comes back when plugged in
    finally:
        camera.stop.set()
        runs.join(5)
    assert [e["type"] for e in client.get("/api/events").get_json()["events"]] == [
        "start"]
