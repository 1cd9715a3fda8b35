"""The table's voice listener (``serve --listen``: a microphone, judging its
calls itself, :func:`voice.bridge.listen_into`) reads what it learnt of the
game (who went down to one card and when, for a likely UNO call) again from
the game's log once for each game and listener (``web.pending.Pending.listening``,
:meth:`voice.bridge.ListenHandle.rebuild`, the mechanism of
``vision.hearing.Hearing.rebuild``: :meth:`voice.attribution.DownClock.read`):
a resumed game's likely call is judged on what its log says, and a new
game's on nothing of the last one's."""

from __future__ import annotations

import queue
import threading

import pytest

from tests.web.test_camera_restart import Server
from voice.attribution import DownClock
from voice.detection import Detection

bridge = pytest.importorskip("voice.bridge")

TWO_EACH = {"game": "uno", "rules": "official", "players": ["A", "B", "C"],
            "dealer": "C", "hand_size": 2, "options": {}}


class Ears:
    """A microphone and a spotter in one: each chunk put in is heard with the
    words it carries; :meth:`hear` returns once the listener has taken it in
    (its state read, its clocks observed)."""

    def __init__(self) -> None:
        self.chunks: queue.Queue = queue.Queue()
        self.seconds = 0.0

    # the microphone
    def __call__(self, device=None):
        return self

    def __iter__(self):
        while True:
            item = self.chunks.get()
            if item is None:
                return
            yield item
            item[2].set()  # asked for the next: this one was taken in

    def close(self) -> None:
        pass

    # the spotter
    def spotter(self, *args, **kwargs):
        return self

    def feed(self, chunk):
        self.seconds += 0.1
        return [Detection(word, self.seconds - 0.3, self.seconds, 0, 20.0, 0.4,
                          0.0, 0.6, likely=likely) for word, likely in chunk[1]]

    def flush(self):
        return []

    def hear(self, *words) -> None:
        done = threading.Event()
        self.chunks.put((b"\0" * 3200, list(words), done))
        assert done.wait(5), "the listener did not take the chunk in"


@pytest.fixture
def ears(monkeypatch):
    ears = Ears()
    monkeypatch.setattr(bridge, "Microphone", ears)
    monkeypatch.setattr(bridge, "Spotter", ears.spotter)
    return ears


def listening(server: Server, ears: Ears):
    from web.commands import _listen

    handle = _listen(server.table, "0", likely_play=2.0)
    assert handle is not None
    server.table.listener = handle
    ears.hear()  # the listener runs
    return handle


def stopped(handle, ears: Ears) -> None:
    ears.chunks.put(None)
    handle.join(5)
    assert handle.error is None, handle.error


def post(server: Server, event: dict) -> None:
    resp = server.app.test_client().post("/api/events", json=event)
    assert resp.status_code == 201, resp.get_json()


def calls(server: Server) -> list:
    return [(e["player"], e.get("likely")) for e in server.table.referee.events
            if e["type"] == "uno"]


def test_a_new_game_starts_with_nothing_of_the_last_ones_downs(tmp_path, ears):
    """A went down to one card in the last game moments ago; in the new game
    A holds two cards, and a likely call is nobody's: no play near it took A
    down to one card (the call is dropped, not ruled for A)."""
    server = Server(tmp_path, durable=True)
    client = server.app.test_client()
    assert client.post("/api/games", json=TWO_EACH).status_code == 201
    handle = listening(server, ears)
    post(server, {"type": "start", "card": "red-7"})
    ears.hear()  # the listener hears on as the game goes (a chunk each 0.1 s)
    post(server, {"type": "play", "player": "A", "cards": ["red-3"]})
    ears.hear()  # the listener sees A go down to one card
    assert client.post("/api/games", json=TWO_EACH).status_code == 201
    post(server, {"type": "start", "card": "red-7"})
    ears.hear(("uno", True))  # A's turn, two cards: a likely call within 2 s
    stopped(handle, ears)
    assert calls(server) == []


def test_in_the_new_game_a_likely_call_at_a_play_down_to_one_card_counts(
        tmp_path, ears):
    server = Server(tmp_path, durable=True)
    client = server.app.test_client()
    assert client.post("/api/games", json=TWO_EACH).status_code == 201
    handle = listening(server, ears)
    post(server, {"type": "start", "card": "red-7"})
    ears.hear()
    assert client.post("/api/games", json=TWO_EACH).status_code == 201
    post(server, {"type": "start", "card": "red-7"})
    ears.hear()
    post(server, {"type": "play", "player": "A", "cards": ["red-3"]})
    ears.hear(("uno", True))
    stopped(handle, ears)
    assert calls(server) == [("A", True)]


def test_a_likely_call_waiting_when_a_new_game_begins_makes_no_event_in_it(
        tmp_path, ears):
    """A likely call heard in the last game waits (up to 2 s) for a play down
    to one card; the new game's first such play does not make it count (it
    was heard in the last game); one heard in the new game does."""
    server = Server(tmp_path, durable=True)
    client = server.app.test_client()
    assert client.post("/api/games", json=TWO_EACH).status_code == 201
    handle = listening(server, ears)
    post(server, {"type": "start", "card": "red-7"})
    ears.hear(("uno", True))  # A's turn, two cards: waits for A's play
    assert client.post("/api/games", json=TWO_EACH).status_code == 201
    post(server, {"type": "start", "card": "red-7"})
    ears.hear()
    post(server, {"type": "play", "player": "A", "cards": ["red-3"]})
    ears.hear()  # A down to one card within 2 s of the last game's call
    stopped(handle, ears)
    assert calls(server) == []


@pytest.mark.parametrize("durable", [True, False], ids=["sqlite", "memory"])
def test_a_resumed_games_likely_call_is_judged_on_its_log(tmp_path, ears, durable):
    """After a restart the listener knows the hands as the log left them: A's
    play down to one card after the restart makes A's likely call count."""
    server = Server(tmp_path, durable)
    assert server.app.test_client().post("/api/games", json=TWO_EACH).status_code == 201
    post(server, {"type": "start", "card": "red-7"})
    post(server, {"type": "play", "player": "A", "cards": ["red-3"]})
    post(server, {"type": "uno", "player": "A"})
    post(server, {"type": "play", "player": "B", "cards": ["red-4"]})
    post(server, {"type": "uno", "player": "B"})
    post(server, {"type": "draw", "player": "C", "count": 1})
    post(server, {"type": "pass", "player": "C"})
    server.restart()
    assert server.table.referee is not None  # the game was resumed
    handle = listening(server, ears)
    post(server, {"type": "draw", "player": "A", "count": 1})
    ears.hear()
    post(server, {"type": "play", "player": "A", "cards": ["red-5"]})
    ears.hear(("uno", True))  # A down to one card just now
    stopped(handle, ears)
    assert calls(server) == [("A", None), ("B", None), ("A", True)]


def test_the_listeners_clock_places_no_line_of_the_log_by_default():
    """A microphone's clock starts with the listener: what the log holds is
    read for the hands, but no down is noted at the old lines' times; lines
    its clock places are (as the hearing places the camera's)."""
    from referee.session import Referee

    referee = Referee({"type": "game", **TWO_EACH})
    for event in ({"type": "start", "card": "red-7", "source": "vision", "t": 1.0},
                  {"type": "play", "player": "A", "cards": ["red-3"],
                   "source": "vision", "t": 3.0}):
        referee.append(event)
    assert DownClock.read(referee, lambda e: None).at == {}
    placed = DownClock.read(referee, lambda e: e.get("t"))
    assert placed.at == {"A": 3.0} and placed.near("A", 4.5, 2.0)


def test_a_log_the_listener_cannot_read_again_leaves_it_listening(
        tmp_path, ears, monkeypatch, caplog):
    server = Server(tmp_path, durable=True)
    assert server.app.test_client().post("/api/games", json=TWO_EACH).status_code == 201

    def broken(self, referee, new_game=False):
        raise RuntimeError("broken")

    monkeypatch.setattr(bridge.ListenHandle, "rebuild", broken)
    handle = listening(server, ears)
    post(server, {"type": "start", "card": "red-7"})
    post(server, {"type": "play", "player": "A", "cards": ["red-3"]})
    ears.hear(("uno", False))
    stopped(handle, ears)
    assert calls(server) == [("A", None)]
    assert any("not read again from the log" in r.getMessage()
               for r in caplog.records)


def asked_while_the_listener_waits(ears, ask, what: str) -> None:  # noqa: ANN001
    """The page holds the table (the lock the listener's ``get_state`` takes)
    while the listener's thread is trying a waiting colour again, inside its
    own lock and waiting for the table; ``ask(handle)``, made then from
    another thread, must return at once instead of locking both threads (and
    the page) for ever."""
    table = threading.RLock()
    calls = {"n": 0, "block_at": None}
    waiting = threading.Event()

    def state():
        calls["n"] += 1
        said = {"top": "red-7", "turn": "A", "players": ["A", "B", "C"],
                "hand_counts": {"A": 3, "B": 3, "C": 3}}
        if calls["n"] != calls["block_at"]:
            return said
        waiting.set()  # the listener's thread, inside its retry
        with table:  # as the page's state waits for the table
            return said

    handle = bridge.listen_into(lambda e: None, state, device=0)
    ears.hear(("red", False))  # a colour with no wild on top: it waits
    with table:
        # next chunk: the state once, then the waiting colour tried again
        calls["block_at"] = calls["n"] + 2
        ears.chunks.put((b"\0" * 3200, [], threading.Event()))
        assert waiting.wait(5), "the listener did not try its colour again"
        asked = threading.Thread(target=ask, args=(handle,), daemon=True)
        asked.start()
        asked.join(2)
        assert not asked.is_alive(), f"{what} waited for the listener's thread"
    stopped(handle, ears)


def test_trying_the_colours_again_never_waits_for_the_listeners_thread(ears):
    """The camera's path asks the listener to try its waiting colours again
    while it holds the table."""
    asked_while_the_listener_waits(ears, lambda h: h.retry_colours(), "retry_colours")


def test_reading_the_game_again_never_waits_for_the_listeners_thread(ears):
    """The page reads a game again (``Pending.listening``) while it holds the
    table: the rebuild reads it aside and swaps its reading in."""
    from referee.session import Referee

    referee = Referee({"type": "game", **TWO_EACH})
    asked_while_the_listener_waits(ears, lambda h: h.rebuild(referee, True), "rebuild")
