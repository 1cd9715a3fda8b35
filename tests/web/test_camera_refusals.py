"""A camera event the table refused is not lost silently: the camera's
message says how many were not recorded and the kind of the last, in the
viewer's language, on the referee's page and the table's; why it was refused
(words that may name a card) is the referee's alone (``/api/camera`` with the
token)."""

from __future__ import annotations

import pytest

from web import create_app
from web.camera import Camera
from web.commands import _camera_event
from web.memstore import MemoryStore

TOKEN = "s3cret"
AUTH = {"X-Tableref-Token": TOKEN}
UNO = {"game": "uno", "rules": "official", "players": ["A", "B", "C"]}


@pytest.fixture
def client():
    app = create_app({"TESTING": True, "STORE": MemoryStore(), "TOKEN": TOKEN,
                      "ALLOWED_HOSTS": None})
    client = app.test_client()
    assert client.post("/api/games", json=UNO, headers=AUTH).status_code == 201
    table = app.extensions["tableref.table"]
    table.camera = Camera()
    table.camera.error = "no camera"
    return client


def feed(client, event) -> None:
    table = client.application.extensions["tableref.table"]
    _camera_event(table, table.camera, {"source": "vision", "t": 1.0, **event})


def test_a_refused_camera_event_is_said_in_the_viewers_language(client):
    feed(client, {"type": "start", "card": "red-7"})
    feed(client, {"type": "play", "player": "A", "cards": "red-3"})  # not a list
    status = client.get("/api/camera", headers=AUTH).get_json()
    assert status["refused"] == 1 and "cards" in status["last_refusal"]
    assert status["message"] == "no camera · 1 camera event was not recorded (a play)"
    ja = client.get("/api/camera?lang=ja", headers=AUTH).get_json()["message"]
    assert ja == "カメラなし · カメラのイベント1件を記録できませんでした（出した札）"
    feed(client, {"type": "draw", "player": "B", "count": "two"})
    page = client.get("/?lang=ja", headers=AUTH).get_data(as_text=True)
    assert "カメラのイベント2件を記録できませんでした（最後: ドロー）" in page
    assert "2 camera events were not recorded (the last: a draw)" in client.get(
        "/table?lang=en").get_data(as_text=True)


def test_why_a_camera_event_was_refused_is_the_referees_alone(client):
    table = client.application.extensions["tableref.table"]
    table.camera.refusal("draw refused: B does not hold the yellow-9", "draw")
    for url in ("/api/camera", "/table", "/partials?view=table",
                "/partials?view=table&names=camera_status", "/scores?view=table"):
        resp = client.get(url)
        assert resp.status_code == 200, url
        text = resp.get_data(as_text=True)
        assert "yellow-9" not in text and "yellow 9" not in text, url
        if "camera" in url or url == "/table":  # the camera's status is shown
            assert "1 camera event was not recorded (a draw)" in text, url
    status = client.get("/api/camera", headers=AUTH).get_json()
    assert "yellow-9" in status["last_refusal"]
