"""eval_handsfree's let go -> ruling: a held copy is ruled at the camera's next
move, a copy set aside is never ruled, every other play when it comes; the
late plays ``--verbose`` lists."""

from __future__ import annotations

import pytest

from benchmarks.eval_handsfree import late_plays, ruling_latencies


def play(t, card, **kw):
    return {"type": "play", "t": t, "cards": [card], **kw}


def test_a_held_copy_is_ruled_at_the_move_that_settled_it():
    truth = [{"type": "start", "t": 0.0, "card": "red-1"}, play(1.0, "red-2"),
             play(3.0, "red-2"), play(6.0, "red-5"), play(9.0, "blue-5")]
    seen = [{"type": "start", "t": 0.2, "card": "red-1"}, play(1.3, "red-2"),
            play(3.4, "red-2"), play(6.5, "red-5"), play(9.1, "blue-5"),
            play(12.0, "green-9")]  # the last matches nothing
    ruled = [{"event": seen[2], "t": 6.5, "stood": True},  # ruled 3.1 s later
             {"event": seen[4], "t": 10.0, "stood": False}]  # set aside
    latency, ruling, unruled = ruling_latencies(truth, seen, ruled, end=20.0)
    assert latency == pytest.approx([0.2, 0.3, 0.4, 0.5, 0.1])
    assert ruling == pytest.approx([0.2, 0.3, 3.5, 0.5])
    assert unruled == 1
    # a copy still held at the end is ruled at the end
    ruled = [{"event": seen[3], "t": None, "stood": True}]
    assert ruling_latencies(truth, seen, ruled, end=20.0)[1] == pytest.approx(
        [0.2, 0.3, 0.4, 14.0, 0.1])


def test_the_late_plays_are_those_ruled_over_the_bar_with_their_let_go_time():
    truth = [{"type": "start", "t": 0.0, "card": "red-1"}, play(1.0, "red-2"),
             play(3.0, "red-2"), play(6.0, "red-5"), play(9.0, "blue-5")]
    seen = [{"type": "start", "t": 0.2, "card": "red-1"}, play(1.3, "red-2"),
            play(3.4, "red-2"), play(6.5, "red-5"), play(9.1, "blue-5")]
    ruled = [{"event": seen[2], "t": 6.5, "stood": True},
             {"event": seen[4], "t": 10.0, "stood": False}]  # set aside: never ruled
    late = late_plays(truth, seen, ruled, end=20.0, over=0.3)
    assert [(c, round(at, 3), round(s, 3)) for c, at, s in late] == [
        ("red-2", 3.0, 3.5), ("red-5", 6.0, 0.5)]
    assert [c for c, _, _ in late_plays(truth, seen, ruled, end=20.0, over=1.0)] == [
        "red-2"]
