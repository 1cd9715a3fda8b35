"""A live table of the tgus-t deck completes camera events with the table's own
memory (vision.handsfree.HandsFree): a turn draw then the next seat's play is a
pass, and the reach that turns a card for a Hit+? is part of the turned event."""

from __future__ import annotations

import io

from vision.config import PlayConfig
from vision.live import LiveTable
from tests.vision.live_events import blocking_reread, cam, live_table

HEADER = {"type": "game", "game": "uno", "rules": "tgus-t1",
          "players": ["A", "B", "C"], "dealer": "C", "hand_size": 5, "options": {}}


def table(*events):
    return live_table(HEADER, *events)


def logged(live):
    return [e.get("type") for e in live.referee.events]


def test_a_turn_draw_then_the_next_seat_playing_is_an_inferred_pass():
    live = table(cam("start", 1, card="red-5"),
                 cam("draw", 2, count=1, reach_from="A"),
                 cam("play", 3, cards=["red-2"], reach_from="B"))
    assert logged(live)[-3:] == ["draw", "pass", "play"]
    assert not [r for r in live.referee.rulings if r.ruling == "illegal"]


def test_the_reach_that_turns_a_card_for_a_hit_x_is_no_draw():
    live = table(cam("start", 1, card="red-5"),
                 cam("play", 2, cards=["wild-hit-x"], reach_from="A"),
                 cam("draw", 3, count=1, reach_from="A"),
                 cam("play", 4, cards=["blue-7"], reach_from="A"))
    assert logged(live)[-2:] == ["play", "turned"]
    assert "draw" not in logged(live)
    assert live.referee.state()["turn"] == "B"


def test_a_standard_table_completes_as_before():
    live = LiveTable({**HEADER, "rules": "official"}, out=io.StringIO())
    for e in (cam("start", 1, card="red-5"),
              cam("draw", 2, count=1, reach_from="A"),
              cam("play", 3, cards=["red-2"], reach_from="B")):
        live.append(e)
    assert logged(live)[-3:] == ["draw", "pass", "play"]


def test_a_play_holding_two_turns_is_split_into_the_seats_that_reached():
    live = table(cam("start", 1, card="green-3"),
                 cam("play", 2, cards=["green-skip", "green-4"],
                     pile_reaches=["A", "C"], reach_from="C"))
    plays = [(e.get("player"), e.get("cards")) for e in live.referee.events
             if e.get("type") == "play"]
    assert plays == [("A", ["green-skip"]), ("C", ["green-4"])]
    assert not [r for r in live.referee.rulings if r.ruling == "illegal"]


def test_the_top_card_seen_again_out_of_turn_is_taken_out_and_the_log_rewritten(
        tmp_path):
    import json

    path = tmp_path / "game.jsonl"
    out = io.StringIO()
    live = LiveTable(dict(HEADER), out=out, log_path=str(path))
    for e in (cam("start", 1, card="red-5"),
              cam("play", 2, cards=["red-7"], reach_from="A"),
              cam("play", 3, cards=["red-7"], reach_from="C")):
        live.append(e)
    assert logged(live) == ["start", "play"]
    assert not [r for r in live.referee.rulings if r.ruling == "illegal"]
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [x["type"] for x in lines] == ["game", "start", "play"]
    assert "[amended]" in out.getvalue()


def test_a_standard_table_keeps_nothing_to_read_again():
    live = LiveTable({**HEADER, "rules": "official"}, out=io.StringIO())
    for e in (cam("start", 1, card="red-5"),
              cam("play", 2, cards=["red-7"], reach_from="A")):
        live.append(e)
    assert live.fed == [] and live.changes == {}


def _gamble_said_hit_x(live, heard=()):
    # A's Gamble was said to be a Hit+? (not heard): the reach into the draw
    # pile and the card landing from A's seat are completed as a picture
    # leftover and a play out of turn, which no one-line amendment explains
    for e in (cam("start", 1, card="red-5"), *heard,
              cam("play", 3, cards=["gamble"], reach_from="A"),
              cam("draw", 4, count=1, reach_from="A"),
              cam("play", 5, cards=["blue-7"], reach_from="A")):
        live.append(e)
    return live


def test_a_play_legal_only_under_a_re_read_makes_the_table_carry_on_with_it(
        tmp_path):
    import json

    from referee.text import render_data

    path = tmp_path / "game.jsonl"
    out = io.StringIO()
    live = _gamble_said_hit_x(LiveTable(dict(HEADER), out=out, log_path=str(path),
                                        reread_mode="inline"))
    assert logged(live) == ["start", "play", "turned"]
    assert not [r for r in live.referee.rulings if r.ruling == "illegal"]
    gamble = live.referee.events[1]
    assert gamble["effect"] == "wild-hit-x"
    assert list(live.changes) == [1] and len(live.fed) == 4
    # the ruling says what was read otherwise, in English and Japanese
    printed = out.getvalue()
    assert "[amended]" in printed and "Gamble had the effect wild-hit-x" in printed
    assert "ギャンブル" in render_data(gamble["inferred_msg"], "ja")
    assert "B must draw 7" in printed.split("[amended]")[1]
    # the log file as the referee now holds it
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [x["type"] for x in lines] == ["game", "start", "play", "turned"]
    assert lines[2]["effect"] == "wild-hit-x"
    # the table goes on from the re-read: its completion reads the new referee
    state = live.state()
    assert state["turn"] == "B" and state["pending_draw"] == 7
    live.append(cam("draw", 6, count=7, reach_from="B"))
    assert logged(live)[-1] == "draw"
    assert live.state()["turn"] == "C"
    assert not [r for r in live.referee.rulings if r.ruling == "illegal"]
    assert len(path.read_text().splitlines()) == 5


def test_a_heard_event_is_read_again_as_it_came():
    heard = ({"type": "play", "source": "voice", "t": 2, "cards": ["red-7"],
              "player": "A"},)
    # a play a person entered is taken as given and never read otherwise:
    # B's Gamble is the one read again
    live = LiveTable(dict(HEADER), out=io.StringIO(), reread_mode="inline")
    for e in (cam("start", 1, card="red-5"), *heard,
              cam("play", 3, cards=["gamble"], reach_from="B"),
              cam("draw", 4, count=1, reach_from="B"),
              cam("play", 5, cards=["blue-7"], reach_from="B")):
        live.append(e)
    assert logged(live) == ["start", "play", "play", "turned"]
    assert live.referee.events[1]["source"] == "voice"
    assert list(live.changes) == [2]
    assert live.referee.events[2]["effect"] == "wild-hit-x"
    assert not [r for r in live.referee.rulings if r.ruling == "illegal"]


def test_a_re_read_looks_back_as_far_as_the_play_config_says():
    from vision.config import PlayConfig

    live = _gamble_said_hit_x(LiveTable(dict(HEADER), out=io.StringIO(),
                                        play=PlayConfig(reread_back=1)))
    live.finish()
    assert live.changes == {}
    assert [r for r in live.referee.rulings if r.ruling == "illegal"]


def test_the_camera_callback_asks_for_a_re_read_and_does_not_run_it():
    # the re-read waits for its worker: the append that asked returns with the
    # log as the camera read it, and the camera's next event goes in meanwhile
    live = _gamble_said_hit_x(LiveTable(dict(HEADER), out=io.StringIO(),
                                        reread_mode="manual"))
    assert live.rereads.worker.pending == 1
    assert logged(live)[:3] == ["start", "play", "picture-leftover"]
    assert "effect" not in live.referee.events[1]
    live.append(cam("draw", 6, count=7, reach_from="B"))
    assert len(live.fed) == 5
    live.wait_rereads()  # taken: the event that came meanwhile is read on after it
    assert logged(live) == ["start", "play", "turned", "draw"]
    assert live.referee.events[1]["effect"] == "wild-hit-x"
    assert live.referee.events[3]["player"] == "B"
    assert live.state()["turn"] == "C"
    assert not [r for r in live.referee.rulings if r.ruling == "illegal"]
    # the table goes on from the reading
    live.append(cam("play", 7, cards=["blue-2"], reach_from="C"))
    assert logged(live)[-1] == "play" and live.state()["turn"] == "A"


def test_a_re_read_taken_later_keeps_every_event_in_the_order_it_came(tmp_path):
    import json

    path = tmp_path / "game.jsonl"
    live = _gamble_said_hit_x(LiveTable(dict(HEADER), out=io.StringIO(),
                                        log_path=str(path), reread_mode="manual"))
    later = [cam("draw", 6, count=7, reach_from="B"),
             cam("play", 7, cards=["blue-2"], reach_from="C"),
             {"type": "uno", "source": "voice", "t": 7.5, "player": "A"}]
    for e in later:
        live.append(e)
    live.finish()
    assert [e.get("t") for e in live.referee.events] == sorted(
        e.get("t") for e in live.referee.events)
    assert logged(live) == ["start", "play", "turned", "draw", "play", "uno"]
    assert [e["t"] for e in live.fed] == [1, 3, 4, 5, 6, 7, 7.5]
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [x["type"] for x in lines[1:]] == logged(live)


def test_the_default_worker_re_reads_on_its_own_thread_and_finish_waits(
        monkeypatch):
    import threading

    started, release, threads = blocking_reread(monkeypatch)
    out = io.StringIO()
    live = _gamble_said_hit_x(LiveTable(dict(HEADER), out=out))
    assert started.wait(30)  # running, and the camera's callback has returned
    assert threads[0] is not threading.current_thread()
    live.append(cam("draw", 6, count=7, reach_from="B"))  # goes in meanwhile
    assert "[amended]" not in out.getvalue()
    release.set()
    live.close()  # waits for the re-read before the final log
    assert logged(live) == ["start", "play", "turned", "draw"]
    assert "[amended]" in out.getvalue()
    assert not [r for r in live.referee.rulings if r.ruling == "illegal"]


def test_a_re_read_asked_under_readings_that_moved_on_is_dropped_when_moot(
        monkeypatch):
    import vision.reread_tgus_t as reread

    calls = []
    real = reread.camera_amendment
    monkeypatch.setattr(reread, "camera_amendment",
                        lambda *a, **kw: calls.append(kw["last"]) or real(*a, **kw))
    # two camera events ask while the first re-read waits; the first reading,
    # read on over the second, leaves its lines legal: its job reads nothing
    live = _gamble_said_hit_x(LiveTable(dict(HEADER), out=io.StringIO(),
                                        reread_mode="manual"))
    live.append(cam("play", 5.5, cards=["blue-7"], reach_from="A"))
    assert live.rereads.worker.pending == 2
    live.wait_rereads()
    assert live.rereads.worker.pending == 0
    assert list(live.changes) == [1]  # one reading; the second job was moot
    assert calls == [3]
    assert not [r for r in live.referee.rulings if r.ruling == "illegal"]


def test_the_first_camera_play_after_the_games_end_asks_for_a_re_read():
    # a tgus-t game is played until one player is left: cards seen played
    # after the end say the log ended it too early; the first such event asks.
    # A move then seen by the seat the log had out first takes it back in
    # (a still-in, the game going on), and that asks a re-read of its own
    two = {**HEADER, "players": ["A", "B"], "dealer": "B"}
    live = LiveTable(dict(two), out=io.StringIO(), reread_mode="manual")
    live.append(cam("start", 1, card="red-5"))
    plays = [("A", "red-7"), ("B", "red-8"), ("A", "red-1"), ("B", "red-2"),
             ("A", "red-3"), ("B", "red-4"), ("A", "red-6"), ("B", "red-9"),
             ("A", "red-0")]
    for k, (seat, card) in enumerate(plays):
        live.append(cam("play", 2 + k, cards=[card], reach_from=seat))
    assert live.state()["over"] and live.rereads.worker.pending == 0
    live.append(cam("play", 20, cards=["red-9"], reach_from="B"))
    assert live.rereads.worker.pending == 1
    live.append(cam("draw", 21, count=1, reach_from="A"))
    assert [e["type"] for e in live.referee.events[-2:]] == ["still-in", "draw"]
    assert not live.state()["over"] and live.rereads.worker.pending == 2


def test_the_re_reads_read_no_more_camera_events_than_their_share():
    # each camera event kept lets the table's re-reads read so many events
    # again; a search stops once they have read more (the reading under way
    # read to its end), and a re-read asked for then is not run
    live = LiveTable(dict(HEADER), out=io.StringIO(), reread_mode="manual",
                     play=PlayConfig(reread_per_event=0.5))
    _gamble_said_hit_x(live)
    live.wait_rereads()
    assert live.changes == {}  # the reading of the Gamble was not reached
    assert [r for r in live.referee.rulings if r.ruling == "illegal"]
    assert live.rereads.spent == 4  # the first reading, from the start
    live.append(cam("play", 6, cards=["blue-8"], reach_from="A"))
    live.wait_rereads()
    assert live.rereads.spent == 4  # asked for, not run
    roomy = LiveTable(dict(HEADER), out=io.StringIO(), reread_mode="manual",
                      play=PlayConfig(reread_per_event=10.0))
    _gamble_said_hit_x(roomy)
    roomy.wait_rereads()
    assert list(roomy.changes) == [1]
