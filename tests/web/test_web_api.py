"""The JSON API through Flask's test client, on the fake ``webtest`` game."""

from __future__ import annotations

import json

from webtest_game import PLAYERS, header

A, B, C = PLAYERS


def post(client, url, obj=None):
    return client.post(url, json={} if obj is None else obj)


def test_new_game_is_stored_and_current(client, store, game):
    assert store.header(game)["players"] == PLAYERS
    data = client.get("/api/games").get_json()
    assert data["current"] == game
    assert [g["id"] for g in data["games"]] == [game]
    assert data["games"][0]["players"] == PLAYERS


def test_event_is_stored_before_it_is_acknowledged(client, store, game):
    resp = post(client, "/api/events", {"type": "start", "card": "red-7"})
    assert resp.status_code == 201
    body = resp.get_json()
    assert body["line"] == 1
    assert store.events(game) == [
        {"type": "start", "card": "red-7", "source": "manual"}
    ]
    assert [r["rule"] for r in body["rulings"]] == ["webtest.start"]


def test_rulings_and_state_follow_the_events(client, game):
    post(client, "/api/events", {"type": "start", "card": "red-7"})
    post(client, "/api/events", {"type": "play", "cards": ["red-3"]})
    resp = post(
        client, "/api/events", {"type": "play", "player": C, "cards": ["red-4"]}
    )
    assert resp.get_json()["rulings"][0]["ruling"] == "illegal"
    state = client.get("/api/state").get_json()["state"]
    assert state["top"] == "red-3" and state["turn"] == B
    assert state["hand_counts"][A] == 1
    rulings = client.get("/api/rulings").get_json()["rulings"]
    assert [r["index"] for r in rulings] == [0, 1, 2]
    later = client.get("/api/rulings?since=1").get_json()["rulings"]
    assert [r["rule"] for r in later] == ["webtest.turn"]


def test_events_endpoint_lists_lines_in_order(client, game):
    post(client, "/api/events", {"type": "start", "card": "red-7"})
    post(client, "/api/events", {"type": "uno", "player": A})
    events = client.get("/api/events").get_json()["events"]
    assert [e["type"] for e in events] == ["start", "uno"]


def test_correct_replays_and_reports_what_changed(client, store, game):
    post(client, "/api/events", {"type": "start", "card": "red-7"})
    post(client, "/api/events", {"type": "play", "player": A, "cards": ["blue-3"]})
    assert client.get("/api/state").get_json()["state"]["top"] == "red-7"
    resp = client.put(
        "/api/events/2", json={"type": "play", "player": A, "cards": ["red-3"]}
    )
    assert resp.status_code == 200
    change = resp.get_json()
    assert change["action"] == "correct" and change["line"] == 2
    assert [r["ruling"] for r in change["removed"]] == ["illegal"]
    assert [r["rule"] for r in change["added"]] == ["webtest.play"]
    assert store.events(game)[1]["cards"] == ["red-3"]
    assert client.get("/api/state").get_json()["state"]["top"] == "red-3"
    assert client.get("/api/state").get_json()["last_change"] == change


def test_insert_delete_and_undo(client, store, game):
    post(client, "/api/events", {"type": "start", "card": "red-7"})
    post(client, "/api/events", {"type": "play", "player": B, "cards": ["red-3"]})
    # B played out of turn because A's play was forgotten: insert it.
    resp = client.post(
        "/api/events/2/before", json={"type": "play", "player": A, "cards": ["red-1"]}
    )
    assert resp.status_code == 201
    assert [e.get("player") for e in store.events(game)] == [None, A, B]
    assert client.get("/api/state").get_json()["state"]["turn"] == C
    resp = client.delete("/api/events/3")
    assert resp.status_code == 200 and resp.get_json()["action"] == "delete"
    assert len(store.events(game)) == 2
    deleted = store.events(game)
    # undo takes back the delete: B's play is back on line 3, nothing else moves
    resp = post(client, "/api/undo")
    body = resp.get_json()
    assert body["action"] == "undo" and body["undid"] == "delete" and body["line"] == 3
    assert [e.get("player") for e in store.events(game)] == [None, A, B]
    # then the insert, then the two events, newest first
    assert post(client, "/api/undo").get_json()["undid"] == "insert"
    assert [e.get("player") for e in store.events(game)] == [None, B]
    assert post(client, "/api/undo").get_json()["undid"] == "append"
    assert store.events(game) == deleted[:1]


def test_unknown_lines_are_404_with_a_reason(client, game):
    post(client, "/api/events", {"type": "start", "card": "red-7"})
    for method, url in (
        ("put", "/api/events/5"),
        ("delete", "/api/events/9"),
        ("put", "/api/events/0"),
        ("post", "/api/events/7/before"),
        ("put", "/api/events/abc"),
        ("delete", "/api/events/-1"),
    ):
        resp = getattr(client, method)(url, json={"type": "uno", "player": A})
        assert resp.status_code == 404, (method, url)
        assert resp.is_json and resp.get_json()["message"]


def test_undo_with_nothing_recorded_is_409(client, game):
    resp = post(client, "/api/undo")
    assert resp.status_code == 409
    assert "no event" in resp.get_json()["message"]


def test_events_before_any_game_are_409(client):
    resp = post(client, "/api/events", {"type": "uno", "player": "A"})
    assert resp.status_code == 409
    assert "setup" in resp.get_json()["message"]
    assert client.get("/api/state").get_json() == {"game": None}


def test_pause_drops_camera_events_but_not_manual_ones(app, client, game):
    table = app.extensions["tableref.table"]
    assert post(client, "/api/pause", {"paused": True}).get_json() == {"paused": True}
    assert table.append({"type": "start", "card": "red-7"}, source="vision") == (0, [])
    assert table.dropped == 1
    assert (
        post(client, "/api/events", {"type": "start", "card": "red-7"}).status_code
        == 201
    )
    post(client, "/api/pause", {"paused": False})
    line, _ = table.append({"type": "uno", "player": A}, source="vision")
    assert line == 2
    assert post(client, "/api/pause", {"paused": "yes"}).status_code == 400


def test_round_end_reaches_the_scores_and_finishes_the_game(client, store, game):
    for event in (
        {"type": "start", "card": "red-7"},
        {"type": "play", "player": A, "cards": ["red-1"]},
        {"type": "play", "player": B, "cards": ["red-2"]},
        {"type": "play", "player": C, "cards": ["red-3"]},
        {"type": "play", "player": A, "cards": ["red-4"]},
    ):
        post(client, "/api/events", event)
    state = client.get("/api/state").get_json()["state"]
    assert state["rounds"][0]["winner"] == A
    assert state["scores"] == {A: 10, B: -5, C: -5}
    assert store.last_game() == game  # japan, 2 rounds: not over yet
    for event in (
        {"type": "start", "card": "blue-7"},
        {"type": "play", "player": B, "cards": ["blue-1"]},
        {"type": "play", "player": C, "cards": ["blue-2"]},
        {"type": "play", "player": A, "cards": ["blue-3"]},
        {"type": "play", "player": B, "cards": ["blue-4"]},
    ):
        post(client, "/api/events", event)
    assert client.get("/api/state").get_json()["state"]["over"] is True
    assert store.last_game() is None  # finished games are not resumed


def test_new_game_rejects_bad_headers(client):
    for bad, why in (
        ({"game": "webtest", "players": ["A"]}, "2 to 10"),
        ({"game": "webtest", "players": ["A", "A"]}, "same name"),
        ({"game": "webtest", "players": ["A", 3]}, "string"),
        ({"game": "nosuchgame", "players": ["A", "B"]}, "unknown game"),
        ({"game": "webtest", "rules": "nope", "players": ["A", "B"]}, "preset"),
        ({"game": "webtest", "players": ["A", "B"], "options": [1]}, "options"),
        ({"game": "webtest", "players": ["A", "B"], "camera": 5}, "camera"),
    ):
        resp = post(client, "/api/games", bad)
        assert resp.status_code == 400, bad
        assert why in resp.get_json()["message"], (bad, resp.get_json())


def test_resume_a_stored_game_and_export_its_log(client, store, game):
    post(client, "/api/events", {"type": "start", "card": "red-7"})
    other = post(client, "/api/games", header()).get_json()["game"]
    assert client.get("/api/state").get_json()["events"] == []
    assert post(client, f"/api/games/{game}/resume").get_json() == {"game": game}
    assert client.get("/api/state").get_json()["state"]["top"] == "red-7"
    lines = client.get(f"/api/games/{game}/log").get_data(as_text=True).splitlines()
    assert json.loads(lines[0])["players"] == PLAYERS
    assert json.loads(lines[1])["card"] == "red-7"
    assert post(client, "/api/games/99/resume").status_code == 404
    assert client.get("/api/games/99/log").status_code == 404
    assert other != game


def test_public_view_hides_the_games_secret(client, game):
    post(client, "/api/events", {"type": "start", "card": "red-7"})
    post(client, "/api/events", {"type": "play", "player": A, "cards": ["red-1"]})
    public = client.get("/api/public").get_json()
    assert "box" not in public["state"] and "events" not in public
    assert client.get("/api/state").get_json()["state"]["box"] == 1


def test_presets_lists_registered_games(client):
    games = {
        g["game"]: g["presets"] for g in client.get("/api/presets").get_json()["games"]
    }
    assert games["webtest"] == ["webtest", "webtest-plus"]


def test_camera_status_without_a_camera(client):
    assert client.get("/api/camera").get_json()["state"] == "unavailable"


def test_restart_resumes_the_last_game_from_the_store(store, game, client):
    from web import create_app

    post(client, "/api/events", {"type": "start", "card": "red-7"})
    post(client, "/api/events", {"type": "play", "player": A, "cards": ["red-1"]})
    again = create_app({"TESTING": True, "STORE": store}).test_client()
    snap = again.get("/api/state").get_json()
    assert snap["game"] == game
    assert snap["state"]["top"] == "red-1" and len(snap["rulings"]) == 2
