"""Bad requests get a clear 4xx (never a 500); cross-site, token and host guards."""

from __future__ import annotations

import errno

import pytest
from webtest_game import PLAYERS, header

from web import create_app
from web.memstore import MemoryStore

A = PLAYERS[0]


def raw(client, method, url, data, content_type="application/json"):
    return client.open(url, method=method, data=data, content_type=content_type)


@pytest.mark.parametrize(
    "data, why",
    [
        (b"", "empty"),
        (b"{", "not valid JSON"),
        (b"\xff\xfe\x00garbage", "UTF-8"),
        (b"[1, 2, 3]", "JSON object"),
        (b'"play"', "JSON object"),
        (b"[" * 20000 + b"]" * 20000, "not valid JSON"),
        (b'{"type": 5}', "'type'"),
        (b'{"type": "game", "players": ["x"]}', "header"),
        (b'{"type": "play", "cards": "red-3"}', "'cards'"),
        (b'{"type": "play", "cards": []}', "'cards'"),
        (b'{"type": "play", "cards": [7]}', "cards[]"),
        (b'{"type": "draw", "count": "two"}', "'count'"),
        (b'{"type": "draw", "count": true}', "'count'"),
        (b'{"type": "draw", "count": 1e9}', "'count'"),
        (b'{"type": "draw", "count": 99999999}', "'count'"),
        (b'{"type": "uno", "player": ["A"]}', "'player'"),
        (b'{"type": "uno", "player": "' + b"x" * 500 + b'"}', "characters"),
        (b'{"type": "uno", "t": "now"}', "'t'"),
        (b'{"type": "uno", "t": NaN}', "not valid JSON"),
        (b'{"type": "uno", "x": -Infinity}', "not valid JSON"),
    ],
)
def test_garbage_event_bodies_are_400_with_a_reason(client, game, data, why):
    resp = raw(client, "POST", "/api/events", data)
    assert resp.status_code == 400, resp.get_data(as_text=True)
    body = resp.get_json()
    assert body["status"] == 400 and why in body["message"], body
    assert client.get("/api/events").get_json()["events"] == []


def test_same_garbage_on_corrections_and_inserts(client, game):
    client.post("/api/events", json={"type": "start", "card": "red-7"})
    for method, url in (("PUT", "/api/events/1"), ("POST", "/api/events/1/before")):
        for data in (b"nope", b"[]", b'{"type": ""}', b'{"cards": ["red-1"]}'):
            assert raw(client, method, url, data).status_code == 400, (
                method,
                url,
                data,
            )
    assert client.get("/api/events").get_json()["events"][0]["card"] == "red-7"


def test_unknown_event_types_and_cards_become_info_rulings(client, game):
    """Well-formed events the game cannot read are the referee's business, not a 4xx."""
    resp = client.post("/api/events", json={"type": "dance", "player": A})
    assert resp.status_code == 201
    assert resp.get_json()["rulings"][0]["rule"] == "log.malformed"


def test_huge_bodies_are_413(client, game):
    resp = raw(
        client, "POST", "/api/events", b'{"type": "uno", "x": "' + b"a" * 70000 + b'"}'
    )
    assert resp.status_code == 413
    assert resp.get_json()["status"] == 413
    assert resp.get_json()["message"] == "the request body is over 64 KiB"


def test_too_many_fields_and_oversized_values(client, game):
    many = {"type": "uno", **{f"f{i}": i for i in range(40)}}
    assert client.post("/api/events", json=many).status_code == 400
    nested = {"type": "uno", "extra": ["x" * 150] * 100}
    assert client.post("/api/events", json=nested).status_code == 400


def test_wrong_methods_and_unknown_urls_are_json_4xx(client):
    assert client.get("/api/undo").status_code == 405
    assert client.get("/api/undo").get_json()["status"] == 405
    assert client.get("/api/nothing").get_json()["status"] == 404
    assert client.get("/api/rulings?since=x").status_code == 400
    assert (
        client.get("/api/stream", headers={"Last-Event-ID": "abc"}).status_code == 400
    )


def test_posts_must_be_json(client, game):
    """A cross-site HTML form (urlencoded or text/plain) cannot act on the table."""
    for ctype in (
        "application/x-www-form-urlencoded",
        "text/plain",
        "multipart/form-data",
    ):
        resp = raw(client, "POST", "/api/events", b'{"type": "uno"}', ctype)
        assert resp.status_code == 415, ctype
    assert client.get("/api/events").get_json()["events"] == []


def test_foreign_origin_or_referer_is_refused(client, game):
    event = {"type": "uno", "player": A}
    evil = client.post(
        "/api/events", json=event, headers={"Origin": "http://evil.example"}
    )
    assert evil.status_code == 403 and "cross-site" in evil.get_json()["message"]
    evil = client.post(
        "/api/events", json=event, headers={"Referer": "http://evil.example/page"}
    )
    assert evil.status_code == 403
    evil = client.delete("/api/events/1", headers={"Origin": "http://localhost:1234"})
    assert evil.status_code == 403  # another port is another origin
    ok = client.post("/api/events", json=event, headers={"Origin": "http://localhost"})
    assert ok.status_code == 201


def test_unknown_host_is_refused(client):
    """DNS rebinding: a page on another name that resolves here is refused."""
    resp = client.get("/api/state", headers={"Host": "evil.example"})
    assert resp.status_code == 400 and "Host" in resp.get_json()["message"]
    assert (
        client.get("/api/state", headers={"Host": "127.0.0.1:8000"}).status_code == 200
    )


@pytest.fixture
def guarded():
    app = create_app(
        {
            "TESTING": True,
            "STORE": MemoryStore(),
            "TOKEN": "s3cret",
            "ALLOWED_HOSTS": None,
        }
    )
    client = app.test_client()
    resp = client.post(
        "/api/games", json=header(), headers={"X-Tableref-Token": "s3cret"}
    )
    assert resp.status_code == 201
    return client


def test_token_guards_controls_and_the_referee_view(guarded):
    event = {"type": "start", "card": "red-7"}
    assert guarded.post("/api/events", json=event).status_code == 403
    assert (
        guarded.post(
            "/api/events", json=event, headers={"X-Tableref-Token": "wrong"}
        ).status_code
        == 403
    )
    assert guarded.get("/api/state").status_code == 403
    assert guarded.get("/").status_code == 403
    assert guarded.get("/setup").status_code == 403
    assert guarded.get("/partials?view=referee").status_code == 403
    # what the players may see stays open
    assert guarded.get("/table").status_code == 200
    assert guarded.get("/api/public").status_code == 200
    assert guarded.get("/scores").status_code == 200
    ok = guarded.post("/api/events", json=event, headers={"X-Tableref-Token": "s3cret"})
    assert ok.status_code == 201


def test_token_url_sets_a_strict_cookie(guarded):
    resp = guarded.get("/?token=s3cret")
    # the first visit sets the cookie and sends the browser to the same page
    # without the token, so it stays out of the history and the access log
    assert resp.status_code == 303
    assert resp.headers["Location"].endswith("/") and "token" not in resp.headers[
        "Location"
    ]
    cookie = resp.headers["Set-Cookie"]
    assert "tableref_token=s3cret" in cookie and "SameSite=Strict" in cookie
    assert "HttpOnly" in cookie
    assert guarded.get(resp.headers["Location"]).status_code == 200
    assert (
        guarded.post("/api/events", json={"type": "uno", "player": A}).status_code
        == 201
    )


def test_errors_never_leak_a_traceback(client, game, monkeypatch):
    table = client.application.extensions["tableref.table"]

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(table.referee, "state", broken)
    resp = client.get("/api/state")
    assert resp.status_code == 500
    assert "Traceback" not in resp.get_data(as_text=True)
    assert resp.get_json()["message"].startswith("the referee hit")


def test_engine_failure_on_an_event_is_a_422_and_the_table_goes_on(
    client, game, monkeypatch
):
    table = client.application.extensions["tableref.table"]
    real = table.referee.game.apply

    def flaky(event):
        if event.type == "reveal":
            raise TypeError("engine bug")
        return real(event)

    monkeypatch.setattr(table.referee.game, "apply", flaky)
    resp = client.post(
        "/api/events", json={"type": "reveal", "player": A, "cards": ["R1"]}
    )
    assert resp.status_code == 422 and "delete" in resp.get_json()["message"]
    assert (
        client.post("/api/events", json={"type": "start", "card": "red-7"}).status_code
        == 201
    )
    assert client.delete("/api/events/1").status_code == 200


def test_a_failing_store_records_nothing_and_says_so(client, game, monkeypatch):
    store = client.application.extensions["tableref.store"]

    def full(*args, **kwargs):  # the disk full, by its code (web.errors.failure_kind)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store, "append", full)
    resp = client.post("/api/events", json={"type": "start", "card": "red-7"})
    assert resp.status_code == 507  # Insufficient Storage
    assert "not recorded" in resp.get_json()["message"]
    table = client.application.extensions["tableref.table"]
    assert table.referee.events == [] and table.rulings() == []


def test_a_correction_the_store_refuses_changes_nothing(client, game, monkeypatch):
    client.post("/api/events", json={"type": "start", "card": "red-7"})
    store = client.application.extensions["tableref.store"]

    def locked(*args, **kwargs):
        raise RuntimeError("database is locked")

    monkeypatch.setattr(store, "set_events", locked)
    resp = client.put("/api/events/1", json={"type": "start", "card": "blue-1"})
    assert resp.status_code == 503
    state = client.get("/api/state").get_json()
    assert state["state"]["top"] == "red-7" and state["events"][0]["card"] == "red-7"


def test_a_correction_the_engine_cannot_replay_changes_nothing(
    client, store, game, monkeypatch
):
    from webtest_game import WebTestGame

    client.post("/api/events", json={"type": "start", "card": "red-7"})
    real = WebTestGame.apply

    def fragile(self, event):
        if event.get("card") == "blue-1":
            raise KeyError("engine bug")
        return real(self, event)

    monkeypatch.setattr(WebTestGame, "apply", fragile)
    resp = client.put("/api/events/1", json={"type": "start", "card": "blue-1"})
    assert (
        resp.status_code == 422 and "nothing was changed" in resp.get_json()["message"]
    )
    assert store.events(game)[0]["card"] == "red-7"
    assert client.get("/api/state").get_json()["state"]["top"] == "red-7"
