"""Issue 26: bodies with lone surrogates are a 400 and never stored; scan's 409."""

from __future__ import annotations

import types

import pytest
from webtest_game import PLAYERS, header

from web.camera import Camera

A = PLAYERS[0]
LONE = [b'"\\ud800"', b'"\\udfff"', b'"a\\ud83d"', b'"\\ud800\\ud800"']


def send(client, method, url, data: bytes):
    return client.open(url, method=method, data=data, content_type="application/json")


def pages_still_work(client) -> None:
    for url in ("/", "/table", "/setup", "/scores", "/api/camera", "/api/state",
                "/api/public", "/api/games", "/api/rulings", "/partials"):
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("lone", LONE)
@pytest.mark.parametrize(
    "method, url, template",
    [
        ("POST", "/api/events", b'{"type": "uno", "player": %s}'),
        ("POST", "/api/events", b'{"type": %s}'),
        ("POST", "/api/events", b'{"type": "uno", %s: 1}'),
        ("POST", "/api/events", b'{"type": "play", "cards": [%s]}'),
        ("POST", "/api/events", b'{"type": "uno", "x": {"y": [%s]}}'),
        ("PUT", "/api/events/1", b'{"type": "start", "card": %s}'),
        ("POST", "/api/events/1/before", b'{"type": "uno", "player": %s}'),
        ("POST", "/api/games", b'{"game": "webtest", "players": [%s, "B"]}'),
        ("POST", "/api/games", b'{"game": "webtest", "players": ["A", "B"], "x": %s}'),
        ("POST", "/api/games", b'{"game": "webtest", "players": ["A", "B"], '
                               b'"options": {"rounds": %s}}'),
        ("POST", "/api/games", b'{"game": "webtest", "players": ["A", "B"], '
                               b'"camera": %s}'),
        ("POST", "/api/pause", b'{"paused": %s}'),
        ("POST", "/api/undo", b'{"why": %s}'),
    ],
)
def test_lone_surrogates_are_a_400_and_never_stored(
    client, game, store, method, url, template, lone
):
    client.post("/api/events", json={"type": "start", "card": "red-7"})
    games_before = client.get("/api/games").get_json()
    events_before = client.get("/api/events").get_json()
    resp = send(client, method, url, template % lone)
    assert resp.status_code == 400, resp.get_data(as_text=True)[:300]
    assert "surrogate" in resp.get_json()["message"]
    assert client.get("/api/events").get_json() == events_before
    assert client.get("/api/games").get_json() == games_before
    pages_still_work(client)


def test_the_event_checks_refuse_surrogates_from_any_source(app, game):
    """The camera and voice listener call the table directly: same check."""
    from web.events import EventError, check_event, check_header

    with pytest.raises(EventError, match="surrogate"):
        check_event({"type": "uno", "player": "\ud800"})
    with pytest.raises(EventError, match="surrogate"):
        check_event({"type": "uno", "\udc00": 1})
    with pytest.raises(EventError, match="surrogate"):
        check_header({**header(), "options": {"x": ["\ud800"]}})
    table = app.extensions["tableref.table"]
    with pytest.raises(EventError):
        table.append({"type": "uno", "player": "\ud800"}, source="vision")
    assert table.referee.events == []


def test_proper_unicode_still_passes(client, game):
    event = {"type": "uno", "player": A, "note": "🂡 é"}
    ok = client.post("/api/events", json=event)
    assert ok.status_code == 201
    ok = send(client, "POST", "/api/events", b'{"type": "uno", "n": "\\ud83c\\udca1"}')
    assert ok.status_code == 201  # a surrogate pair is one character: fine
    pages_still_work(client)


@pytest.mark.parametrize(
    "status",
    [
        {"state": "error", "message": "the card detector is not installed"},
        {"state": "ended", "message": "end of video"},
    ],
)
def test_scan_with_the_camera_in_error_is_a_409_with_the_reason(
    app, client, game, status
):
    """docs/api.md: 409 without a (working) camera; today: 200 in error."""
    made = []
    cam = Camera()
    cam.pipeline = types.SimpleNamespace(set_scan=made.append, status=lambda: status)
    cam.error = None
    app.extensions["tableref.table"].camera = cam
    resp = client.post("/api/camera/scan", json={"on": True})
    assert resp.status_code == 409, resp.get_json()
    assert status["message"] in resp.get_json()["message"]
    assert made == []


def test_scan_with_a_camera_that_failed_to_start_is_a_409(app, client, game):
    cam = Camera()
    cam.pipeline = types.SimpleNamespace(set_scan=lambda on: None)
    cam.error = "the camera could not start on 7: no such device"
    app.extensions["tableref.table"].camera = cam
    resp = client.post("/api/camera/scan", json={"on": True})
    assert resp.status_code == 409 and "no such device" in resp.get_json()["message"]


def test_a_stored_game_with_a_lone_surrogate_breaks_no_page(store, tmp_path):
    """A store written before this check may hold one: it is not resumed, and
    the list of games still shows (with the character replaced)."""
    from web import create_app

    store.create_game({**header(), "players": ["\ud800", "B", "C"]})
    app = create_app({"TESTING": True, "STORE": store})
    client = app.test_client()
    assert app.extensions["tableref.table"].gid is None  # not resumed
    for url in ("/", "/table", "/setup", "/api/camera", "/api/games", "/scores"):
        assert client.get(url).status_code == 200, url
    listed = client.get("/api/games").get_json()["games"][0]["players"]
    assert listed[1:] == ["B", "C"] and listed[0] != "\ud800"
    gid = client.get("/api/games").get_json()["games"][0]["id"]
    resp = client.post(f"/api/games/{gid}/resume", json={})
    assert resp.status_code == 409 and "surrogate" in resp.get_json()["message"]
