"""``tableref serve`` started again on the same store goes on re-reading a
tgus-t game as if it had not stopped (web.reread, web.pending): the events
kept as they came, the readings in force and the re-reads asked for and not
yet done are kept beside the stored game; a re-read is not made twice, and a
person's change (before or after the restart, or an answer on the page) still
wins over a reading."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

import vision.reread_tgus_t as reread_tgus_t
from tests.web.test_camera_reread import GAMBLE, TGUS_T, cam
from tests.web.test_camera_restart import Server as CameraServer
from web import corrections
from web.commands import _camera_ended

# A's Gamble was said to be a Hit+? (not heard): read as it came, the lines
# after it are ruled illegal; read again, the Gamble had the effect
# wild-hit-x and B owes 7 (test_camera_reread's GAMBLE)
OWED = (cam("draw", 6, count=7, reach_from="B"),)


class Server(CameraServer):
    """serve on one store whose camera's re-reads run as ``mode`` says."""

    mode = "manual"

    def start(self):
        client = super().start()
        client.application.extensions["tableref.table"].camera.reread_mode = self.mode
        return client

    def wait(self) -> None:
        """Every re-read asked for made (none where the camera keeps none)."""
        rereads = self.table.camera.rereads
        if rereads is not None:
            rereads.wait()


def begun(tmp_path: Path, durable: bool, mode: str = "manual") -> Server:
    server = Server.__new__(Server)
    server.mode = mode
    Server.__init__(server, tmp_path, durable)
    assert server.app.test_client().post("/api/games", json=TGUS_T).status_code == 201
    return server


def uninterrupted(tmp_path: Path, events, mode: str = "manual") -> list[dict]:
    server = begun(tmp_path / "uninterrupted", True, mode)
    server.feed(events)
    server.wait()
    return server.table.referee.events


@pytest.fixture(params=["sqlite", "memory"])
def durable(request, tmp_path):
    (tmp_path / "uninterrupted").mkdir()
    return request.param == "sqlite"


def test_a_re_read_asked_before_the_restart_is_made_after_it(tmp_path, durable):
    server = begun(tmp_path, durable)
    server.feed(GAMBLE)  # the re-read is asked for, not run yet
    assert server.table.camera.rereads.worker.pending == 1
    server.restart()
    server.feed(OWED)
    server.wait()
    events = server.table.referee.events
    assert events == uninterrupted(tmp_path, GAMBLE + OWED)
    assert events[1]["effect"] == "wild-hit-x"
    assert [e["t"] for e in server.table.camera.rereads.fed] == [
        e["t"] for e in GAMBLE + OWED]
    assert server.table.store.events(server.table.gid) == events
    assert not [r for r in server.table.referee.rulings if r.ruling == "illegal"]


def test_a_re_read_asked_before_the_restart_is_made_when_the_source_ends(
        tmp_path, durable):
    """serve's own worker (a thread): the re-read asked for before the
    restart runs after it, though no camera event comes again."""
    server = begun(tmp_path, durable)
    server.feed(GAMBLE)
    server.mode = "thread"
    server.restart()
    table = server.table
    _camera_ended(table, table.camera)
    table.camera.rereads.worker.close()
    assert table.referee.events == uninterrupted(tmp_path, GAMBLE)
    assert table.referee.events[1]["effect"] == "wild-hit-x"


def test_lines_entered_on_the_page_are_read_again_as_they_came(tmp_path, durable):
    """A line entered between camera events, before or after the restart, is
    kept where it came among the events read again."""
    said = {"type": "uno", "player": "A"}
    ref = begun(tmp_path / "uninterrupted", True, "inline")
    ref.feed(GAMBLE[:2])
    assert ref.app.test_client().post("/api/events", json=said).status_code == 201
    assert ref.app.test_client().post("/api/events", json=said).status_code == 201
    ref.feed(GAMBLE[2:])
    server = begun(tmp_path, durable, "inline")
    server.feed(GAMBLE[:2])
    client = server.app.test_client()
    assert client.post("/api/events", json=said).status_code == 201
    server.restart()
    client = server.app.test_client()
    assert client.post("/api/events", json=said).status_code == 201
    server.feed(GAMBLE[2:])
    assert server.table.camera.rereads.fed == ref.table.camera.rereads.fed
    assert server.table.referee.events == ref.table.referee.events


def test_a_camera_event_that_failed_part_way_is_kept_as_it_was_left(
        tmp_path, durable, monkeypatch):
    """A camera event refused after its line went in (its amendment failed):
    what the camera path then holds is saved all the same, so the restarted
    server reads the game again as the running one would."""
    import web.commands as commands

    amend = commands._amend
    failed = []

    def failing(table, event, play=None):
        if event.get("cards") == ["blue-7"] and not failed:
            failed.append(event)
            raise RuntimeError("the amendment failed")
        return amend(table, event, play)

    monkeypatch.setattr(commands, "_amend", failing)
    ref = begun(tmp_path / "uninterrupted", True)
    for e in GAMBLE + OWED:
        commands._camera_event(ref.table, ref.table.camera, dict(e))
    ref.wait()
    assert failed and ref.table.camera.refused
    failed.clear()
    server = begun(tmp_path, durable)
    table = server.table
    for e in GAMBLE:
        commands._camera_event(table, table.camera, dict(e))
    assert failed and table.camera.refused
    server.restart()
    server.feed(OWED)
    server.wait()
    assert server.table.camera.rereads.fed == ref.table.camera.rereads.fed
    assert server.table.referee.events == ref.table.referee.events


def test_a_resumed_tgus_t_game_is_still_re_read(tmp_path, durable):
    server = begun(tmp_path, durable, "inline")
    server.feed(GAMBLE[:1])
    server.restart()
    server.feed(GAMBLE[1:] + OWED)
    events = server.table.referee.events
    assert events == uninterrupted(tmp_path, GAMBLE + OWED, "inline")
    assert events[1]["effect"] == "wild-hit-x"


def test_the_readings_taken_before_the_restart_are_kept_and_not_made_again(
        tmp_path, durable, monkeypatch):
    server = begun(tmp_path, durable, "inline")
    server.feed(GAMBLE)  # read again and taken
    before = server.table.camera.rereads
    assert before.changes and before.generation == 1
    kept = (json.loads(json.dumps(before.fed)), json.loads(json.dumps(
        {str(k): v for k, v in before.changes.items()})), before.spent)
    server.restart()
    searches = []
    search = reread_tgus_t.camera_amendment
    monkeypatch.setattr(reread_tgus_t, "camera_amendment",
                        lambda *a, **kw: searches.append(a) or search(*a, **kw))
    server.feed(OWED)
    after = server.table.camera.rereads
    assert after is not None and after.stopped is None
    assert (after.fed[:len(kept[0])], {str(k): v for k, v in after.changes.items()},
            after.spent) == kept
    assert after.generation == 1
    assert searches == []  # the camera event the reading settled asks nothing again
    assert server.table.referee.events == uninterrupted(tmp_path, GAMBLE + OWED,
                                                        "inline")


def test_a_persons_correction_before_the_restart_still_wins(tmp_path, durable):
    server = begun(tmp_path, durable)
    server.feed(GAMBLE)
    server.table.delete(4)  # the person's word stands
    server.restart()
    server.feed(OWED)
    server.wait()
    assert "effect" not in server.table.referee.events[1]
    assert server.table.camera.rereads is None or server.table.camera.rereads.stopped


def test_a_persons_change_after_the_restart_drops_the_kept_re_reads(
        tmp_path, durable):
    server = begun(tmp_path, durable)
    server.feed(GAMBLE)  # a re-read asked for, kept for the restart
    server.restart()
    resp = server.app.test_client().delete("/api/events/4")
    assert resp.status_code == 200, resp.get_json()
    server.feed(OWED)
    server.wait()
    assert "effect" not in server.table.referee.events[1]
    server.restart()  # and that is kept too
    server.feed(OWED)
    server.wait()
    assert "effect" not in server.table.referee.events[1]


def test_an_answer_on_the_page_wins_over_a_reading_found_later(tmp_path):
    """A change of the log's lines by anything but the camera path (the
    page's answer to a question corrects a line as a person does) ends the
    re-reads: the reading found is not stored over it."""
    server = begun(tmp_path, True)
    server.feed(GAMBLE)
    table = server.table
    line = len(table.referee.events)
    answered = {**table.referee.events[line - 1], "answered": "as-seen"}
    with table.lock:  # as web.questions.answer stores an answer
        corrections.correct(table, line, answered)
    server.wait()
    events = table.referee.events
    assert "effect" not in events[1]
    assert events[line - 1].get("answered") == "as-seen"
    assert table.camera.rereads.stopped


def test_the_camera_paths_own_amendment_does_not_end_the_re_reads(
        tmp_path, monkeypatch):
    """A camera event's amendment corrects an earlier line (a card hidden
    under a play): the camera path's own change, the re-reads go on."""
    import web.commands as commands

    amend = commands._amend

    def amending(table, event, play=None):
        if event.get("type") == "draw" and event.get("player") == "A":
            first = {**table.referee.events[0], "amended": "as the camera's own"}
            corrections.correct(table, 1, first)
        return amend(table, event, play)

    monkeypatch.setattr(commands, "_amend", amending)
    server = begun(tmp_path, True, "inline")
    server.feed(GAMBLE + OWED)
    assert server.table.camera.rereads.stopped is None
    assert server.table.referee.events[1]["effect"] == "wild-hit-x"


# -- what is saved beside the store, unreadable or of another shape ------------------
GARBAGE = {
    "truncated": '{"format": 1, "paused": false, "camera": {"held": [{"type": "pl',
    "empty": "",
    "not-utf8": b"\xff\xfe\x00garbage",
    "a-list": "[1, 2, 3]",
    "a-string": '"format"',
    "other-format": '{"format": 99, "paused": true}',
    "parts-of-another-shape": json.dumps({
        "format": 1, "paused": "yes", "camera": "held", "hearing": [1],
        "rereads": {"format": 1, "stopped": None, "lines": "many"}}),
    "held-copy-not-an-event": json.dumps({
        "format": 1, "paused": False,
        "camera": {"held": [[1], {}], "tgus_t": None, "recoveries": None}}),
    "held-copy-of-no-cards": json.dumps({
        "format": 1, "paused": False,
        "camera": {"held": [{"type": "play", "cards": 5, "source": "vision"},
                            {"drawer": "A", "next": "B", "expect": "C"}]}}),
    "re-read-event-of-no-cards": json.dumps({
        "format": 1, "paused": False,
        "rereads": {"format": 1, "stopped": None, "lines": 0, "digest": "",
                    "fed": [{"type": "play", "cards": 5, "source": "vision"}],
                    "changes": [], "generation": 0, "spent": 0, "span": [0, 0],
                    "still": [], "asked": []}}),
    "re-reads-naming-unkept-events": json.dumps({
        "format": 1, "paused": False, "camera": None, "hearing": None,
        "rereads": {"format": 1, "stopped": None, "lines": 0, "digest": "",
                    "fed": [], "changes": [[7, None]], "generation": 0,
                    "spent": 0, "span": [0, 0], "still": [], "asked": [[3, 9, 0]]}}),
    "deeply-nested": "[" * 100000 + "]" * 100000,
}


@pytest.mark.parametrize("text", GARBAGE.values(), ids=GARBAGE.keys())
def test_a_malformed_saved_file_is_said_in_the_log_and_the_game_goes_on(
        tmp_path, text, caplog):
    server = begun(tmp_path, True, "inline")
    server.feed(GAMBLE[:2])
    saved = Path(f"{server.database}-camera") / f"game-{server.table.gid}.json"
    assert saved.is_file()
    if isinstance(text, bytes):
        saved.write_bytes(text)
    else:
        saved.write_text(text)
    with caplog.at_level(logging.INFO, logger="web.pending"):
        server.restart()
        table = server.table
        assert not table.paused  # a malformed file pauses nothing
        server.feed(GAMBLE[2:] + OWED)
    said = [r.getMessage() for r in caplog.records if r.name == "web.pending"
            and r.levelno >= logging.WARNING]
    assert said and all("goes on without it" in m for m in said), said
    assert len(table.referee.events) > 2  # the camera's events went in
    client = server.app.test_client()
    for url in ("/api/events", "/api/state", "/api/camera", "/api/public",
                "/api/rulings"):
        assert client.get(url).status_code == 200, url
    saved_now = json.loads(saved.read_text())  # written whole again
    assert saved_now["format"] == 1


def test_a_saved_part_it_cannot_use_changes_nothing_of_what_is_held():
    """Saved heard events of which a part is not what was written: none of
    them is taken up (not the first lists alone)."""
    from types import SimpleNamespace

    from vision.hearing import Hearing
    from web.pending import Pending

    hearing = Hearing(lambda e: [], lambda: {})
    table = SimpleNamespace(referee=None, gid=1, hearing=hearing, camera=None,
                            paused=False)
    pending = Pending(table)
    pending.loaded = {"gid": 1, "hearing": {
        "held": [{"type": "color", "color": "red", "t": 2.0, "source": "voice"}],
        "waiting": ["not an event"], "calls": []}}
    pending.take_up(None)
    assert hearing.held == [] and hearing.waiting == [] and pending.loaded is None
