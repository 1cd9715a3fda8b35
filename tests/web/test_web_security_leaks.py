"""Issue 26: no route shows the event log or hidden cards without the token.

A real UNO game with an upheld Wild Draw Four challenge: the challenged hand
(``red-5`` ... ``red-skip``) is shown to the challenger only, so neither the
cards nor their names ("red 5") may reach anyone without the token.
"""

from __future__ import annotations

import json

import pytest

from web import create_app
from web.memstore import MemoryStore

TOKEN = "s3cret"
AUTH = {"X-Tableref-Token": TOKEN}
HAND = ["red-5", "green-2", "blue-9", "yellow-1", "green-3", "red-skip"]
EVENTS = [
    {"type": "start", "card": "red-7"},
    {"type": "play", "player": "A", "cards": ["wild-draw4"], "color": "blue"},
    {"type": "challenge", "player": "B"},
    {"type": "reveal", "player": "A", "cards": HAND},
    {"type": "draw", "player": "A", "count": 4, "cards": ["yellow-8"] * 4},
]
SECRETS = ["red-5", "red 5", "green-2", "blue-9", "yellow-8", "yellow 8", "red-skip"]


@pytest.fixture
def guarded(tmp_path):
    evidence = tmp_path / "evidence"
    evidence.mkdir()
    (evidence / "f.jpg").write_bytes(b"\xff\xd8\xff\xe0jpeg")
    app = create_app(
        {
            "TESTING": True,
            "STORE": MemoryStore(),
            "TOKEN": TOKEN,
            "ALLOWED_HOSTS": None,
            "SSE_HEARTBEAT": 0.05,
            "SSE_SECONDS": 0.2,
            "EVIDENCE_DIRS": [str(evidence)],
        }
    )
    client = app.test_client()
    resp = client.post(
        "/api/games",
        json={"game": "uno", "players": ["A", "B", "C"], "hand_size": 7},
        headers=AUTH,
    )
    assert resp.status_code == 201
    for event in EVENTS:
        event = {**event, "evidence": str(evidence / "f.jpg")}
        assert client.post("/api/events", json=event, headers=AUTH).status_code == 201
    full = client.get("/api/rulings").get_json()  # sanity: the referee's text names it
    assert client.get("/api/state", headers=AUTH).status_code == 200
    assert full["rulings"]
    return client


def since_start(client) -> str:
    """``last`` for /api/stream that replays the whole feed of the fixture."""
    table = client.application.extensions["tableref.table"]
    return str(table.feed[0][0] - 1)


def get(client, url, **kw):
    return client.get(url.replace("LAST", since_start(client)), **kw)


def leaks(text: str) -> list[str]:
    return [s for s in SECRETS if s in text]


def test_the_referee_still_sees_everything(guarded):
    events = guarded.get("/api/events", headers=AUTH).get_json()["events"]
    assert events[3]["cards"] == HAND
    page = guarded.get("/", headers=AUTH).get_data(as_text=True)
    assert "red 5" in page  # the referee view keeps the full ruling
    part = guarded.get("/partials?view=referee&names=events,rulings", headers=AUTH)
    assert "red-5" in part.get_data(as_text=True)


@pytest.mark.parametrize("view", ["table", "referee", ""])
def test_partials_without_the_token_show_no_events(guarded, view):
    """Today: /partials?view=table&names=events returns the whole event log."""
    url = "/partials?names=events" + (f"&view={view}" if view else "")
    resp = guarded.get(url)
    assert resp.status_code == 403, resp.get_data(as_text=True)[:300]
    resp = guarded.get(f"/partials?view=table&names=change")
    assert resp.status_code == 403


@pytest.mark.parametrize(
    "url",
    [
        "/table",
        "/scores",
        "/scores?view=table",
        "/partials?view=table",
        "/partials?view=table&names=state,rulings,scores,camera_status",
        "/api/public",
        "/api/rulings",
        "/api/rulings?since=0",
        "/api/stream?last=LAST",
        "/api/games",
        "/api/camera",
    ],
)
def test_public_routes_never_name_a_hidden_card(guarded, url):
    """Today: the upheld challenge's text on the table view names 'the red 5'."""
    resp = get(guarded, url)
    assert resp.status_code == 200, url
    text = resp.get_data(as_text=True)
    assert leaks(text) == [], (url, text[:2000])


def test_public_rulings_keep_their_structure(guarded):
    rulings = guarded.get("/api/rulings").get_json()["rulings"]
    full = guarded.get("/api/rulings", headers=AUTH).get_json()["rulings"]
    assert len(rulings) == len(full)
    for pub, ref in zip(rulings, full):
        for key in ("index", "event", "ruling", "rule", "player", "draw"):
            assert pub.get(key) == ref.get(key), key
    upheld = rulings[3]
    assert upheld["ruling"] == "penalty" and upheld["player"] == "A"
    assert upheld["draw"] == 4 and "4" in upheld["text"] and "A" in upheld["text"]
    assert "red 5" in full[3]["text"]  # the referee's own text is unchanged


@pytest.mark.parametrize(
    "url", ["/evidence/4", "/frame.jpg", "/video.mjpeg", "/api/events", "/api/state"]
)
def test_event_bound_routes_need_the_token(guarded, url):
    resp = guarded.get(url)
    assert resp.status_code == 403, (url, resp.status_code)


def test_a_correction_shown_on_the_table_names_no_hidden_card(guarded):
    fix = {"type": "reveal", "player": "A", "cards": [*HAND, "blue-4"]}
    resp = guarded.put("/api/events/4", json=fix, headers=AUTH)
    assert resp.status_code == 200
    assert "red 5" in json.dumps(resp.get_json())  # the referee sees the change
    for url in ("/partials?view=table", "/table", "/api/stream?last=LAST"):
        text = get(guarded, url).get_data(as_text=True)
        assert leaks(text) == [], (url, text[:2000])
    stream = get(guarded, "/api/stream?last=LAST", headers=AUTH).get_data(as_text=True)
    assert "red 5" in stream  # the referee's stream keeps the full texts


def test_a_scoring_reveal_is_public_and_stays_so():
    """Hands laid out for scoring are seen by everyone: their rulings keep their
    text on the table view (only hands shown to one player are re-worded)."""
    app = create_app({"TESTING": True, "STORE": MemoryStore()})
    client = app.test_client()
    uno = {"game": "uno", "players": ["A", "B"], "hand_size": 2}
    assert client.post("/api/games", json=uno).status_code == 201
    for event in (
        {"type": "start", "card": "red-7"},
        {"type": "play", "player": "A", "cards": ["red-1"]},
        {"type": "uno", "player": "A"},
        {"type": "play", "player": "B", "cards": ["red-2"]},
        {"type": "play", "player": "A", "cards": ["red-3"]},
        {"type": "reveal", "player": "B", "cards": ["blue-9"]},
    ):
        assert client.post("/api/events", json=event).status_code == 201
    table = app.extensions["tableref.table"]
    assert table.secret == [False] * 6
    assert table.rulings(public=True) == table.rulings()
    again = {"type": "play", "player": "A", "cards": ["red-1"]}
    assert client.put("/api/events/2", json=again).status_code == 200
    assert table.secret == [False] * 6  # the same after a correction's replay


def test_the_decision_is_kept_on_resume(guarded):
    """A server restarted on the same store hides the same texts."""
    app = guarded.application
    store = app.extensions["tableref.store"]
    again = create_app({"TESTING": True, "STORE": store, "TOKEN": TOKEN,
                        "ALLOWED_HOSTS": None})
    table = again.extensions["tableref.table"]
    assert table.secret == app.extensions["tableref.table"].secret
    assert table.secret == [False, False, False, True, True]
    text = again.test_client().get("/api/rulings").get_data(as_text=True)
    assert leaks(text) == []


def test_is_secret_from_the_two_views():
    from web.privacy import is_secret, public_rulings

    reveal = {"type": "reveal", "player": "B", "cards": ["red-1", "blue-2"]}
    kept = {"revealed": {}, "for_the_challenger": {"B": ["red-1", "blue-2"]}}
    shown = {"revealed": {"B": ["blue-2", "red-1"]}}
    assert is_secret(reveal, lambda: (kept, {"revealed": {}})) is True
    assert is_secret(reveal, lambda: (shown, shown)) is False
    # a game that forgets the challenged hand at once: shown to one player
    assert is_secret(reveal, lambda: ({}, {})) is True
    assert is_secret(reveal, lambda: ({}, {}), ["ok", "round-end"]) is False
    assert is_secret(reveal, lambda: (kept, {}), ["round-end"]) is True
    assert is_secret({"type": "draw", "cards": ["red-1"]}, lambda: ({}, {})) is True
    assert is_secret({"type": "play", "cards": ["red-1"]}, lambda: ({}, {})) is False
    assert is_secret({"type": "uno", "player": "B"}, lambda: ({}, {})) is False
    assert is_secret({"type": "face-down", "card": "red-1"}, lambda: ({}, {}))
    ruling = {"event": 1, "ruling": "ok", "rule": "x.reveal", "text": "B shows red 1"}
    assert public_rulings([ruling], [reveal], [False])[0]["text"] == "B shows red 1"
    hidden = public_rulings([ruling], [reveal], [True])[0]
    assert "red 1" not in hidden["text"] and hidden["hidden"] is True
    unknown = public_rulings([ruling], [reveal], [])[0]  # not decided: hidden
    assert unknown["hidden"] is True
