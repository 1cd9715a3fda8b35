"""What a recording's hearing learns from the camera's events (who went down
to one card and when, when a wild began to wait for its colour, the calls
just heard) read again from the game's log (:meth:`vision.hearing.Hearing.rebuild`,
a server started again on a stored game): the same as a hearing that followed
the game from its start."""

from __future__ import annotations

import io

import pytest

from tests.vision.live_events import cam, uno_header
from vision.hearing import Hearing
from vision.live import LiveTable

bridge = pytest.importorskip("voice.bridge")


def followed() -> LiveTable:
    """A game whose hearing followed it: A and B go down to one card by a
    play (A calls), then C with a wild whose colour is heard."""
    live = LiveTable(uno_header(3), out=io.StringIO())
    live.attribute = bridge.Attributor()
    live.append(cam("start", 1.0, card="red-7"))
    live.append(cam("play", 2.0, cards=["red-3"], reach_from="A"))
    live.append(cam("play", 4.0, cards=["red-4"], reach_from="B"))
    live.append(cam("play", 6.0, cards=["red-5"], reach_from="C"))
    live.hear({"type": "uno", "source": "voice", "t": 7.6})
    live.append(cam("play", 8.0, cards=["red-6"], reach_from="A"))
    live.append(cam("play", 10.0, cards=["red-9"], reach_from="B"))
    live.append(cam("play", 12.0, cards=["wild"], reach_from="C"))
    live.hear({"type": "color", "source": "voice", "t": 12.5, "color": "blue"})
    live.append(cam("draw", 15.0, count=1, reach_from="A"))
    return live


def test_the_log_read_again_gives_what_the_hearing_learnt():
    live = followed()
    hearing = live.hearing
    assert hearing.downs.at == {"A": 8.0, "B": 10.0, "C": 12.0}
    assert [e["player"] for e in live.referee.events if e["type"] == "uno"] == ["A"]

    again = Hearing(lambda e: [], lambda: {})
    again.attribute = bridge.Attributor()
    again.rebuild(live.referee)
    assert again.downs.at == hearing.downs.at
    assert again.downs.counts == hearing.downs.counts
    assert (again.attribute.clock.key, again.attribute.clock.since) == (
        hearing.attribute.clock.key, hearing.attribute.clock.since)
    heard = [e for e in live.referee.events if e.get("source") == "voice"]
    assert again.attribute.recent == heard


def test_what_was_noted_before_is_replaced():
    """A hearing that noted another game's players is set to this log's."""
    live = followed()
    again = Hearing(lambda e: [], lambda: {})
    again.attribute = bridge.Attributor()
    again.downs.at = {"A": 1.5, "Z": 3.0}
    again.attribute.clock.key, again.attribute.clock.since = ("wild", 9), 0.5
    again.rebuild(live.referee)
    assert again.downs.at == {"A": 8.0, "B": 10.0, "C": 12.0}
    assert again.attribute.clock.since == live.hearing.attribute.clock.since


def test_lines_of_no_camera_time_are_not_noted():
    """Entered lines (no ``t``) change the hands but are noted at the next
    camera line's time, as the hearing following the game notes them."""
    live = LiveTable(uno_header(2), out=io.StringIO())
    live.referee.append({"type": "start", "card": "red-7"})
    live.referee.append({"type": "play", "player": "A", "cards": ["red-3"]})
    again = Hearing(lambda e: [], lambda: {})
    again.rebuild(live.referee)
    assert again.downs.at == {} and again.downs.counts == {}


def holding() -> tuple[LiveTable, Hearing]:
    """A hearing holding a call the camera has not reached, a call waiting
    for the next play and a colour waiting for its wild."""
    live = followed()
    hearing = Hearing(lambda e: [], lambda: {})
    hearing.attribute = bridge.Attributor()
    hearing.hear({"type": "uno", "source": "voice", "t": 30.0})
    hearing.calls = [{"type": "uno", "source": "voice", "t": 14.0}]
    hearing.waiting = [{"type": "color", "source": "voice", "t": 14.5, "color": "red"}]
    return live, hearing


def test_a_new_game_drops_what_the_last_game_left_held_or_waiting():
    """Heard in the last game (as the listener's words still waiting, its
    rebuild's ``new_game``): nothing of it is let into the new game."""
    live, hearing = holding()
    appended = []
    hearing.append = lambda e: appended.append(e) or []
    hearing.rebuild(live.referee, new_game=True)
    assert (hearing.held, hearing.calls, hearing.waiting) == ([], [], [])
    hearing.state = live.referee.state
    hearing.finish()
    assert appended == []


def test_a_restart_keeps_what_the_game_holds():
    """A hearing's first game (a restart's: what was held is taken up from
    beside the store) keeps its held and waiting events."""
    live, hearing = holding()
    hearing.rebuild(live.referee)
    assert [e["t"] for e in hearing.held + hearing.calls + hearing.waiting] == [
        30.0, 14.0, 14.5]
