"""``tableref serve``'s camera path reads its log again as ``tableref watch``
does (web.recover and vision.live.LiveTable share vision.recoveries): a round
the referee's count ended while the camera's plays went on, and a question
the plays after it answered, give the page the same log and rulings as the
command line on the same camera events; a person's word still wins, undo
takes a reading back, and the table view names no hidden card."""

from __future__ import annotations

import io

import pytest

from tests.vision import test_handsfree_answered as answered_case
from tests.vision import test_handsfree_went_on as went_on_case
from vision.live import LiveTable
from web.camera import Camera
from web.commands import _camera_event

WENT_ON = (*went_on_case.BEFORE, *went_on_case.AFTER)
ANSWERED = (
    *answered_case.START,
    answered_case.cam("play", 7, cards=["red-9"], reach_from="A"),
    answered_case.cam("draw", 9, count=1, reach_from="B"),
    answered_case.cam("play", 11, cards=["red-2"], reach_from="C"),
)


class Pipeline:
    """What the page asks of a running pipeline here: the round-end scan."""

    def __init__(self) -> None:
        self.scan: list[bool] = []

    def set_scan(self, on: bool) -> None:
        self.scan.append(on)


def page(app, client, header, events):
    """The page's table with ``header`` started, fed the camera ``events``
    as ``serve``'s camera sends them; returns the table and its camera."""
    resp = client.post("/api/games", json=header)
    assert resp.status_code == 201, resp.get_json()
    table = app.extensions["tableref.table"]
    table.camera = camera = Camera()
    camera.pipeline = Pipeline()
    for e in events:
        _camera_event(table, camera, dict(e))
    assert not camera.refused, camera.last_refusal
    return table, camera


def cli(header, events) -> LiveTable:
    live = LiveTable(dict(header), out=io.StringIO())
    for e in events:
        live.append(dict(e))
    return live


def rulings(referee) -> list[tuple]:
    return [(r.event, r.ruling, r.rule, r.text) for r in referee.rulings]


@pytest.mark.parametrize("header, events", [
    (went_on_case.HEADER, WENT_ON),
    (answered_case.HEADER, ANSWERED),
], ids=["round-went-on", "question-answered"])
def test_the_page_rules_the_camera_as_the_command_line(app, client, header, events):
    table, _ = page(app, client, header, events)
    live = cli(header, events)
    assert live.went_on  # the case is one where the log is read again
    assert table.referee.events == live.referee.events
    assert rulings(table.referee) == rulings(live.referee)
    assert table.referee.state() == live.state()
    # the store holds what the referee rules
    assert table.store.events(table.gid) == table.referee.events


def test_the_round_that_went_on_is_scored_when_it_really_ends(app, client):
    table, camera = page(app, client, went_on_case.HEADER, WENT_ON)
    state = table.referee.state()
    assert state["round_winner"] == "C"
    assert state["scores"] == {"A": -3, "B": -3, "C": 6}
    assert not [r for r in table.referee.rulings if r.ruling == "illegal"]
    # the scan ran while the hands were awaited, and stopped once the round
    # was read as going on
    assert camera.pipeline.scan[:2] == [True, False]


def test_a_reading_is_announced_and_the_table_view_names_no_hidden_card(
        app, client):
    """A's draw is entered on the page with the card drawn (hidden from the
    table) while the round is read again: it is kept as entered, and the
    table's views name no hidden card."""
    table, camera = page(app, client, went_on_case.HEADER,
                         [*went_on_case.BEFORE, went_on_case.AFTER[0]])
    drawn = {"type": "draw", "player": "A", "count": 1, "cards": ["green-9"]}
    assert client.post("/api/events", json=drawn).status_code == 201
    for e in went_on_case.AFTER[2:4]:
        _camera_event(table, camera, dict(e))
    assert not camera.refused
    assert any("the round went on" in str(e.get("inferred"))
               for e in table.referee.events)
    assert drawn["cards"] == next(e for e in table.referee.events
                                  if e.get("cards") == ["green-9"])["cards"]
    change = [m for m in table.feed if m[1] == "change"]
    assert change and any("the round went on" in r["text"]
                          for r in change[-1][2]["added"])
    assert "green 9" in client.get("/").get_data(as_text=True)  # the referee's
    for url in ("/table", "/partials?view=table", "/api/public",
                f"/api/stream?last={table.feed[0][0] - 1}"):
        resp = client.get(url)
        assert resp.status_code == 200, url
        text = resp.get_data(as_text=True)
        assert "green-9" not in text and "green 9" not in text, url


def test_undo_takes_a_reading_back_line_by_line(app, client):
    table, _ = page(app, client, went_on_case.HEADER, WENT_ON[:-4])
    live = cli(went_on_case.HEADER, WENT_ON[:-4])
    assert live.went_on and table.referee.events == live.referee.events
    # the page before the reading: the camera events up to the one that
    # made it, ruled as they came
    before = cli(went_on_case.HEADER, ())
    before.recoveries.on = False
    for e in WENT_ON[:-4]:
        before.append(dict(e))
    n = len(table.steps)
    while table.referee.events != before.referee.events:
        table.undo()
        assert len(table.steps) < n
        n = len(table.steps)
    assert rulings(table.referee) == rulings(before.referee)


def test_a_person_answering_first_keeps_the_answer(app, client):
    """The question is answered on the page before the plays could: the
    camera path reads nothing again afterwards."""
    table, camera = page(app, client, answered_case.HEADER, answered_case.START)
    line = next(i for i, e in enumerate(table.referee.events, start=1)
                if e.get("question"))
    table.delete(line)  # a misread, the person says
    for e in ANSWERED[len(answered_case.START):]:
        _camera_event(table, camera, dict(e))
    assert not camera.refused
    assert not any("as if B had drawn" in str(e.get("inferred"))
                   for e in table.referee.events)


def test_a_paused_table_reads_nothing_again(app, client):
    resp = client.post("/api/games", json=went_on_case.HEADER)
    assert resp.status_code == 201
    table = app.extensions["tableref.table"]
    camera = Camera()
    for e in went_on_case.BEFORE:
        _camera_event(table, camera, dict(e))
    table.set_paused(True)
    for e in went_on_case.AFTER[:4]:
        _camera_event(table, camera, dict(e))
    assert table.referee.state()["phase"] == "scoring"
    assert not any("the round went on" in str(e.get("inferred"))
                   for e in table.referee.events)


@pytest.mark.parametrize("old, new", [
    ("abcdef", "abXcdYf"),
    ("abc", ""),
    ("", "xyz"),
    ("abcabc", "cbacba"),
    ("aabbcc", "abcabcabc"),
])
def test_steps_between_two_logs_are_undone_back_to_the_first(old, new):
    from web.undo import steps_between, take_back

    old_log = [{"type": "x", "n": c} for c in old]
    new_log = [{"type": "x", "n": c} for c in new]
    log = list(new_log)
    for step in reversed(steps_between(old_log, new_log)):
        log = take_back(step, log)[0]
    assert log == old_log


def test_a_copy_still_held_when_the_video_ends_stands_as_in_watch(
        app, client, monkeypatch):
    """The camera's source ends with a drawn copy of the top card held for
    the camera's next move: it stands, as ``watch`` stands it at its end."""
    import sys
    import types

    from tests.web.test_camera_handsfree import SKIP, UNO, Replay
    from web.commands import _camera_ended, _game_state

    assert client.post("/api/games", json=UNO).status_code == 201
    table = app.extensions["tableref.table"]
    monkeypatch.setitem(sys.modules, "vision.pipeline",
                        types.SimpleNamespace(TablePipeline=Replay))
    monkeypatch.setattr(Replay, "events", list(SKIP))
    table.camera = camera = Camera()
    assert camera.start("0", table.referee.header.to_dict(),
                        lambda e: _camera_event(table, camera, e),
                        game_state=lambda: _game_state(table),
                        on_end=lambda: _camera_ended(table, camera))
    camera.thread.join(10)
    assert not camera.thread.is_alive() and not camera.refused
    live = cli({"type": "game", **UNO}, SKIP)
    live.finish()
    assert camera.handsfree.held is None
    assert table.referee.events == live.referee.events
    assert table.referee.events[-1]["cards"] == ["green-skip"]
    assert rulings(table.referee) == rulings(live.referee)
