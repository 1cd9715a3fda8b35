"""vision.reread_tgus_t.CameraRereads: its jobs and its state as data (public API)."""

import json
import threading

import pytest

from vision.reread_tgus_t import CameraRereads, RereadWorker

HEADER = {"rules": "tgus-t", "players": ["A", "B", "C"]}


def rereads(changed=lambda: None):
    return CameraRereads(HEADER, threading.RLock(), lambda reading: None,
                         worker=RereadWorker("manual"), changed=changed)


def test_a_queued_re_read_is_a_job_until_done_and_then_changed_is_called():
    calls = []
    r = rereads(lambda: calls.append(list(r.jobs)))
    for t in range(3):
        r.camera({"type": "play", "player": "A", "cards": ["red-1"], "t": t})
    r.request(1)
    assert r.asked == [(1, 3, 0)] and r.jobs == []
    r.flush()
    assert r.jobs == [(1, 3, 0)] and r.asked == [(1, 3, 0)]
    r.stop("a person's change")  # the job then finds nothing
    r.worker.run_pending()
    assert r.jobs == [] and calls == [[]]


def test_a_failed_re_read_is_forgotten_and_not_tried_again(monkeypatch):
    calls = []
    r = rereads(lambda: calls.append(1))
    r.camera({"type": "play", "player": "A", "cards": ["red-1"]})
    r.request(0)
    r.flush()

    def fail(*a):
        raise RuntimeError("broken")
    monkeypatch.setattr(r, "_find", fail)
    r.worker.run_pending()
    assert r.jobs == [] and r.asked == [] and calls == [1]


def test_its_state_is_data_that_a_fresh_one_takes_up_whole():
    r = rereads()
    for t in range(4):
        r.camera({"type": "play", "player": "AB"[t % 2], "cards": ["red-1"], "t": t})
    r.heard({"type": "call", "player": "A", "source": "voice"})
    r.changes = {1: {"type": "play", "player": "B", "cards": ["gamble"],
                     "effect": "skip"}, 2: None}
    r.generation, r.spent = 2, 7.0
    r.request(3)
    r.flush()  # one job queued, not done
    r.request(4)  # one asked, not queued
    data = json.loads(json.dumps(r.state()))  # JSON-ready
    assert data["asked"] == [[3, 5, 2], [4, 5, 2]]

    fresh = rereads()
    fresh.restore(CameraRereads.parse_state(data))
    assert fresh.state() == data
    assert fresh.fed == r.fed and fresh.changes == r.changes
    assert fresh.jobs == []  # queued again by the next flush, in the order asked
    fresh.flush()
    assert fresh.jobs == [(3, 5, 2), (4, 5, 2)]
    fresh.request(3)  # asked already: not twice
    assert fresh.asked == [(3, 5, 2), (4, 5, 2)]


@pytest.mark.parametrize("bad", [
    {"changes": [[9, None]]}, {"asked": [[0, 99, 0]]}, {"asked": [[-1, 0, 0]]},
    {"span": "no"}, {"fed": None}, {"generation": "x"},
])
def test_state_that_names_events_it_does_not_keep_or_is_of_another_shape_is_refused(bad):
    r = rereads()
    r.camera({"type": "play", "player": "A", "cards": ["red-1"]})
    data = {**r.state(), **bad}
    with pytest.raises((ValueError, TypeError, KeyError)):
        CameraRereads.parse_state(data)


def test_each_event_kept_is_read_by_the_check_given():
    r = rereads()
    r.camera({"type": "play", "player": "A", "cards": ["red-1"]})

    def refuse(e):
        raise ValueError("not an event")
    with pytest.raises(ValueError):
        CameraRereads.parse_state(r.state(), refuse)
