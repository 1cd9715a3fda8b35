"""``tableref serve`` started again on the same store goes on as if it had not
stopped (web.pending): what the camera path held between camera events (a
drawn copy waiting for the camera's next move, a round the count ended while
the plays went on, heard events waiting for the camera) is kept beside the
stored game and taken up by the resumed game's camera path."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tests.vision import test_handsfree_went_on as went_on_case
from tests.web.test_web_undo_restart import Server as StoreServer
from vision.hearing import Hearing
from vision.live import LiveTable
from web.camera import Camera
from web.commands import _camera_ended, _camera_event

UNO = {"game": "uno", "rules": "official", "players": ["A", "B", "C"],
       "dealer": "C", "hand_size": 5, "options": {}}


def cam(kind, t, **kw):
    return {"type": kind, "source": "vision", "t": t, **kw}


SKIP = (cam("start", 1, card="green-3"),
        cam("play", 2, cards=["green-skip"], reach_from="A"),  # B skipped
        cam("draw", 3, count=1, reach_from="C"),
        cam("play", 4, cards=["green-skip"], reach_from="C"))  # a copy? held
# B moves next: C played the drawn copy, skipping A
STOOD = (cam("play", 6, cards=["green-4"], reach_from="B"),)
WENT_ON = (*went_on_case.BEFORE, *went_on_case.AFTER)


class Server(StoreServer):
    """``tableref serve`` on one store with a camera, started again by
    :meth:`restart`."""

    def start(self):
        client = super().start()
        client.application.extensions["tableref.table"].camera = Camera()
        return client

    @property
    def app(self):
        return self.client.application

    @property
    def table(self):
        return self.app.extensions["tableref.table"]

    def feed(self, events) -> None:
        table = self.table
        for e in events:
            _camera_event(table, table.camera, dict(e))
        assert not table.camera.refused, table.camera.last_refusal


def played(header, events, stop: int, tmp_path: Path, durable: bool) -> Server:
    """A game started with ``header``, fed ``events`` with a restart of the
    server after the first ``stop``, the camera's source ended."""
    server = Server(tmp_path, durable)
    client = server.app.test_client()
    assert client.post("/api/games", json=header).status_code == 201
    server.feed(events[:stop])
    server.restart()
    assert server.table.referee is not None  # the game was resumed
    server.feed(events[stop:])
    _camera_ended(server.table, server.table.camera)
    return server


def uninterrupted(header, events) -> list[dict]:
    live = LiveTable({"type": "game", **header}, out=io.StringIO())
    for e in events:
        live.append(dict(e))
    live.finish()
    return live.referee.events


@pytest.mark.parametrize("durable", [True, False], ids=["sqlite", "memory"])
@pytest.mark.parametrize("header, events, stop", [
    (UNO, (*SKIP, *STOOD), len(SKIP)),
    (went_on_case.HEADER, WENT_ON, len(went_on_case.BEFORE) + 2),
], ids=["copy-held", "round-went-on"])
def test_a_restarted_server_goes_on_as_if_it_had_not_stopped(
        tmp_path, header, events, stop, durable):
    server = played(header, events, stop, tmp_path, durable)
    table = server.table
    assert table.referee.events == uninterrupted(header, events)
    assert table.store.events(table.gid) == table.referee.events
    client = server.app.test_client()
    for url in ("/", "/table", "/api/events", "/api/state", "/api/camera",
                "/api/public", "/partials?view=table"):
        resp = client.get(url)
        assert resp.status_code < 500, (url, resp.status_code)


def test_a_copy_held_at_the_restart_stands_at_the_end_of_the_source(tmp_path):
    server = played(UNO, SKIP, len(SKIP), tmp_path, durable=True)
    assert server.table.referee.events == uninterrupted(UNO, SKIP)
    assert server.table.referee.events[-1]["cards"] == ["green-skip"]


def test_the_round_read_again_after_a_restart_is_scored_when_it_really_ends(
        tmp_path):
    server = played(went_on_case.HEADER, WENT_ON, len(went_on_case.BEFORE) + 1,
                    tmp_path, durable=True)
    state = server.table.referee.state()
    assert state["round_winner"] == "C"
    assert state["scores"] == {"A": -3, "B": -3, "C": 6}
    assert any("the round went on" in str(e.get("inferred"))
               for e in server.table.referee.events)


def test_a_persons_change_before_the_restart_still_wins(tmp_path):
    """A correction on the page drops what was kept to read again: after the
    restart the round is not read again behind the person's back."""
    server = Server(tmp_path, durable=True)
    client = server.app.test_client()
    assert client.post("/api/games", json=went_on_case.HEADER).status_code == 201
    server.feed(went_on_case.BEFORE)
    line = len(server.table.referee.events)
    resp = client.put(f"/api/events/{line}", json=dict(went_on_case.BEFORE[-1]))
    assert resp.status_code == 200, resp.get_json()
    server.restart()
    server.feed(went_on_case.AFTER[:3])
    assert not any("the round went on" in str(e.get("inferred"))
                   for e in server.table.referee.events)


class Attributor:
    """A listener's attributor that names every heard call the turn's."""

    def __call__(self, heard, state):
        return {**heard, "player": state.get("turn")}


def test_heard_events_waiting_for_the_camera_survive_a_restart(tmp_path):
    server = Server(tmp_path, durable=True)
    client = server.app.test_client()
    assert client.post("/api/games", json=UNO).status_code == 201
    table = server.table
    table.hearing = Hearing(lambda e: [], lambda: {})
    table.hearing.attribute = Attributor()
    server.feed(SKIP[:2])
    with table.lock:  # as serve's listener holds a heard event, ahead of the camera
        table.hearing.hear({"type": "color", "color": "red", "t": 3.5,
                            "source": "voice"})
    server.feed(SKIP[2:3])  # the camera has not reached it yet
    assert table.hearing.held
    server.restart()
    table = server.table
    table.hearing = Hearing(lambda e: [], lambda: {})
    table.hearing.attribute = Attributor()
    server.feed(SKIP[3:])
    heard = [e for e in table.referee.events if e.get("source") == "voice"]
    assert [(e["type"], e["t"]) for e in heard] == [("color", 3.5)]


def test_unreadable_saved_state_is_not_used_and_the_game_goes_on(tmp_path):
    server = Server(tmp_path, durable=True)
    client = server.app.test_client()
    assert client.post("/api/games", json=UNO).status_code == 201
    server.feed(SKIP)
    gid = server.table.gid
    saved = Path(f"{server.database}-camera") / f"game-{gid}.json"
    assert json.loads(saved.read_text())["camera"]["held"]  # the copy is kept
    saved.write_text("{not json")
    server.restart()
    server.feed(STOOD)
    client = server.app.test_client()
    assert client.get("/api/events").status_code == 200
    assert server.table.referee.events[-1]["cards"] == ["green-4"]


def test_a_table_paused_when_the_server_stopped_stays_paused(tmp_path):
    server = Server(tmp_path, durable=True)
    client = server.app.test_client()
    assert client.post("/api/games", json=UNO).status_code == 201
    server.feed(SKIP[:2])
    assert client.post("/api/pause", json={"paused": True}).status_code == 200
    server.restart()
    table = server.table
    assert table.paused
    server.feed(SKIP[2:3])  # not recorded while paused
    assert len(table.referee.events) == 2 and table.dropped == 1
    client = server.app.test_client()
    assert client.get("/api/state").status_code < 500
    assert client.post("/api/pause", json={"paused": False}).status_code == 200
    server.restart()
    assert not server.table.paused


def test_the_tgus_t_completions_memory_is_kept_whole():
    """What the tgus-t completion remembers between camera events (a turn
    draw, the rest of a draw, a multi-play's colours, the last take, the
    cards taken as hidden under the last play, cards played after the log's
    end) comes back as it was saved, through the saved file's JSON: every
    field it has."""
    from types import SimpleNamespace

    from vision.handsfree_tgus_t import TgusTHandsFree
    from web.pending import Pending

    table = SimpleNamespace(referee=None, gid=1)
    memory = TgusTHandsFree()
    memory.drawer, memory.rest = "P2", ("P2", 1)
    memory.multi_colours, memory.last = ["red", "blue"], ("draw", "P2")
    memory.hidden, memory.after_end = ("P3", ["red-5"]), True
    memory.moved, memory.stuck = ["P1", "P3", "P1"], ("P2", 2)
    # every field but the settings (``config``, the table's own)
    assert set(vars(memory)) - {"config"} == {
        "drawer", "rest", "multi_colours", "last", "hidden", "after_end", "moved",
        "stuck"}
    saved = Pending(table)._camera_data(SimpleNamespace(
        handsfree=SimpleNamespace(held=None, tgus_t=memory)))
    resumed = SimpleNamespace(handsfree=SimpleNamespace(held=None, tgus_t=TgusTHandsFree()))
    Pending(table)._camera(resumed, json.loads(json.dumps(saved)))
    got = resumed.handsfree.tgus_t
    assert vars(got) == vars(memory)
