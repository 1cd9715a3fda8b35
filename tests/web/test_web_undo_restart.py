"""Issue 26: undo takes back exactly the last change, also after a restart.

The undo steps are saved beside the stored game at every change (web.undo):
a new app on the same store (``tableref serve`` started again) resumes them,
so a delete made before the restart is undone by putting the event back.
Steps that are missing, unreadable or do not match the stored log are not
used: undo then removes the last event, as before, says so, and never
answers 5xx.
"""

from __future__ import annotations

import json
from html import unescape
from pathlib import Path

import pytest

from web import create_app
from web.memstore import MemoryStore

PLAYERS = ["Aiko", "Ben", "Chie"]
EVENTS = [
    {"type": "start", "card": "red-7"},
    {"type": "play", "player": "Aiko", "cards": ["red-3"]},
    {"type": "play", "player": "Ben", "cards": ["red-5"]},
]
CHANGES = [
    ("delete", "/api/events/2", "DELETE", None),
    ("correct", "/api/events/2", "PUT", {"type": "play", "cards": ["red-9"]}),
    ("insert", "/api/events/2/before", "POST", {"type": "uno", "player": "Aiko"}),
    ("append", "/api/events", "POST", {"type": "pass", "player": "Chie"}),
]


class Server:
    """``tableref serve`` on one store, started again by :meth:`restart`."""

    def __init__(self, tmp_path: Path, durable: bool):
        self.tmp_path = tmp_path
        self.database = tmp_path / "games.sqlite3"
        self.memory = None if durable else MemoryStore()
        self.client = self.start()

    def start(self):
        config = {"TESTING": True, "EVIDENCE_DIRS": [str(self.tmp_path)]}
        if self.memory is not None:
            config["STORE"] = self.memory
        else:
            config["DATABASE"] = str(self.database)
        return create_app(config).test_client()

    def restart(self):
        store = self.client.application.extensions["tableref.store"]
        if self.memory is None:
            store.close()
        self.client = self.start()
        return self.client

    @property
    def undo_file(self) -> Path:
        gid = self.client.application.extensions["tableref.table"].gid
        return Path(f"{self.database}-undo") / f"game-{gid}.json"

    def events(self):
        return self.client.get("/api/events").get_json()["events"]

    def rulings(self):
        return self.client.get("/api/rulings").get_json()["rulings"]


@pytest.fixture(params=["durable", "memory"])
def server(request, tmp_path):
    srv = Server(tmp_path, request.param == "durable")
    uno = {"game": "uno", "rules": "official", "players": PLAYERS, "hand_size": 2}
    assert srv.client.post("/api/games", json=uno).status_code == 201
    for event in EVENTS:
        assert srv.client.post("/api/events", json=event).status_code == 201
    return srv


def change(client, url, method, body):
    resp = client.open(url, method=method, json=body)
    assert resp.status_code in (200, 201), resp.get_json()


def undo(client, status=200):
    resp = client.post("/api/undo", json={})
    assert resp.status_code == status, resp.get_data(as_text=True)[:300]
    return resp.get_json()


@pytest.mark.parametrize("action, url, method, body", CHANGES)
def test_undo_after_a_restart_takes_back_the_last_change(server, action, url, method,
                                                         body):
    before, rulings = server.events(), server.rulings()
    change(server.client, url, method, body)
    changed = server.events()
    server.restart()
    assert server.events() == changed  # the same game was resumed
    undone = undo(server.client)
    assert undone["undid"] == action and "lost" not in undone
    assert server.events() == before
    assert server.rulings() == rulings


def test_a_delete_before_the_restart_is_undone_by_putting_the_event_back(server):
    deleted = server.events()[1]
    change(server.client, "/api/events/2", "DELETE", None)
    server.restart()
    undone = undo(server.client)
    assert undone["undid"] == "delete" and undone["line"] == 2
    events = server.events()
    assert len(events) == 3 and events[1] == deleted  # not a second event removed


def test_several_changes_are_taken_back_in_order_across_restarts(server):
    logs = [server.events()]
    change(server.client, "/api/events/2", "DELETE", None)
    logs.append(server.events())
    server.restart()
    change(server.client, "/api/events/1", "PUT", {"type": "start", "card": "blue-7"})
    logs.append(server.events())
    change(server.client, "/api/events", "POST", {"type": "pass", "player": "Aiko"})
    server.restart()
    assert undo(server.client)["undid"] == "append"
    assert server.events() == logs[2]
    server.restart()
    assert undo(server.client)["undid"] == "correct"
    assert server.events() == logs[1]
    assert undo(server.client)["undid"] == "delete"
    assert server.events() == logs[0]


def test_a_new_game_starts_with_nothing_to_undo(server):
    uno = {"game": "uno", "rules": "official", "players": PLAYERS, "hand_size": 2}
    assert server.client.post("/api/games", json=uno).status_code == 201
    server.restart()
    assert undo(server.client, 409)["message"]


def spoil(server, how: str) -> None:
    """Make the saved steps of the running game missing, unreadable or stale."""
    table = server.client.application.extensions["tableref.table"]
    store, gid = table.store, table.gid
    if how == "stale":  # the log changed behind the page's back
        events = store.events(gid)
        store.set_events(gid, events[:-1], reason="by hand")
        return
    if server.memory is not None:
        game = server.memory._games[gid]
        if how == "missing":
            game.pop("undo", None)
        else:
            game["undo"] = '{"format": 1, "steps": [{"action": "fly"'
        return
    assert server.undo_file.exists()
    if how == "missing":
        server.undo_file.unlink()
    else:
        server.undo_file.write_bytes(b"\x00\xffnot json")


@pytest.mark.parametrize("how", ["missing", "unreadable", "stale"])
def test_lost_undo_history_falls_back_to_the_last_event_and_says_so(server, how):
    change(server.client, "/api/events/2", "DELETE", None)
    spoil(server, how)
    client = server.restart()
    events = server.events()
    undone = undo(client)
    assert undone["undid"] == "append" and undone["lost"] == how
    assert "undo removed the last event" in undone["note"]
    assert server.events() == events[:-1]
    html = unescape(client.get("/partials?view=referee&names=change")
                    .get_json()["change"])
    assert 'id="undo-note"' in html and f"(line {len(events)})" in html
    ja = unescape(client.get("/partials?view=referee&names=change&lang=ja")
                  .get_json()["change"])
    assert f"最後のイベント（{len(events)}行目）を削除しました" in ja
    public = unescape(client.get("/partials?view=table").get_data(as_text=True))
    assert public  # the table view still renders
    # a change made after the restart is saved and undone exactly again
    after = server.events()
    change(client, "/api/events/1/before", "POST", {"type": "uno", "player": "Ben"})
    again = undo(client)
    assert again["undid"] == "insert" and "lost" not in again
    assert server.events() == after


def test_a_change_is_kept_when_its_undo_history_cannot_be_saved(monkeypatch, tmp_path):
    store = MemoryStore()
    app = create_app({"TESTING": True, "STORE": store})
    client = app.test_client()
    uno = {"game": "uno", "rules": "official", "players": PLAYERS, "hand_size": 2}
    assert client.post("/api/games", json=uno).status_code == 201
    assert client.post("/api/events", json=EVENTS[0]).status_code == 201

    def full(gid, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store, "save_undo", full)
    resp = client.post("/api/events", json=EVENTS[1])
    assert resp.status_code == 201
    monkeypatch.undo()
    again = create_app({"TESTING": True, "STORE": store}).test_client()
    undone = undo(again)
    assert undone["lost"] == "stale" and undone["undid"] == "append"
    assert len(again.get("/api/events").get_json()["events"]) == 1


def test_the_saved_file_sits_beside_the_database(tmp_path):
    srv = Server(tmp_path, durable=True)
    uno = {"game": "uno", "rules": "official", "players": PLAYERS, "hand_size": 2}
    assert srv.client.post("/api/games", json=uno).status_code == 201
    assert srv.client.post("/api/events", json=EVENTS[0]).status_code == 201
    data = json.loads(srv.undo_file.read_text())
    assert data["events"] == 1 and data["steps"] == [{"action": "append", "line": 1}]
    assert srv.undo_file.parent == Path(f"{srv.database}-undo")


def test_the_kept_digests_agree_with_a_fresh_digest_after_every_change():
    from web.undo import Digests, digest

    events = [{"type": "play", "player": "A", "cards": [f"red-{i}"]} for i in range(9)]
    kept = Digests()
    assert kept(events) == digest(events)
    for changed in (
        events + [{"type": "pass"}],  # an append
        events[:3] + [{"type": "uno", "player": "B"}] + events[3:],  # an insert
        events[:4] + events[5:],  # a delete
        events[:2] + [{"type": "play", "player": "A", "cards": ["blue-1"]}]
        + events[3:],  # a correction
        events[::-1],  # the same events in another order
    ):
        assert kept(changed) == digest(changed) != digest(events)
    assert kept([dict(e) for e in events]) == digest(events)  # copies, JSON alike
