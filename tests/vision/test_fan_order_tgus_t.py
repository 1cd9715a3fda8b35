"""Cards played together lie fanned, and the camera does not see which of
them went down last (the top card, whose colour is then in play): a tgus-t
play ruled illegal after a multi-play of several colours is read with
another card of the fan on top (vision.handsfree_tgus_t.reordered, adopted
by vision.completion.Completion; one line: vision.handsfree_tgus_t.amendment),
and failing that, a play in one of the fan's colours with a card of its own
hidden under it."""

from __future__ import annotations

import io

from tests.vision.live_events import cam
from vision.live import LiveTable

THREE = {"type": "game", "game": "uno", "rules": "tgus-t1",
         "players": ["A", "B", "C"], "dealer": "C", "hand_size": 5, "options": {}}


def table(*events):
    live = LiveTable(dict(THREE), out=io.StringIO(), reread_mode="manual")
    for e in events:
        live.append(e)
    live.wait_rereads()
    return live


def play(t, seat, *cards):
    return cam("play", t, cards=list(cards), reach_from=seat, pile_reaches=[seat])


def plays(live):
    return [(e.get("player"), e.get("cards")) for e in live.referee.events
            if e.get("type") == "play"]


def illegal(live):
    return [r for r in live.referee.rulings if r.ruling == "illegal"]


def test_a_fan_is_read_with_the_card_the_next_play_needs_on_top():
    # B's 7s seen together, yellow last as the camera listed them; C's
    # green-2 is legal only on green-7: one correction of B's play
    live = table(cam("start", 1, card="red-5"), play(2, "A", "red-7"),
                 play(3.5, "B", "green-7", "yellow-7"), play(5, "C", "green-2"))
    assert plays(live)[1:] == [("B", ["yellow-7", "green-7"]), ("C", ["green-2"])]
    assert not illegal(live)
    assert live.state()["hand_counts"] == {"A": 4, "B": 3, "C": 4}
    assert "put green-7 down last" in live.out.getvalue()


def test_draws_between_leave_the_fan_on_top():
    # C draws and passes; A's green-2 tells the fan's top card all the same
    live = table(cam("start", 1, card="red-5"), play(2, "A", "red-7"),
                 play(3.5, "B", "green-7", "yellow-7"),
                 cam("draw", 4.5, count=1, reach_from="C", pile_reaches=["C"]),
                 play(6, "A", "green-2"))
    assert plays(live)[-2:] == [("B", ["yellow-7", "green-7"]), ("A", ["green-2"])]
    assert not illegal(live)


def test_a_colour_inferred_from_the_fans_first_card_follows_it():
    # A plays a wild and says no colour: the colour is inferred from B's
    # first card (blue-7, which matches nothing else), and named again when
    # C's blue-3, legal only on blue-7, puts yellow-7 first
    live = table(cam("start", 1, card="red-5"), play(2, "A", "wild"),
                 play(3.5, "B", "blue-7", "yellow-7"), play(5, "C", "blue-3"))
    assert not illegal(live)
    colours = [(e["player"], e["color"]) for e in live.referee.events
               if e.get("type") == "color"]
    assert colours == [("A", "yellow")]
    assert plays(live)[1:] == [("B", ["yellow-7", "blue-7"]), ("C", ["blue-3"])]


def test_a_play_in_a_colour_of_the_fan_before_it_may_hide_a_card_itself():
    # on yellow-5, B's blue-7 and yellow-7 went down yellow first (blue on
    # top); C's yellow-2 is legal under no order of B's fan: C put blue-2
    # down with it, hidden under it
    live = table(cam("start", 1, card="yellow-5"), play(2, "A", "yellow-5"),
                 play(3.5, "B", "blue-7", "yellow-7"), play(5, "C", "yellow-2"))
    assert not illegal(live)
    assert plays(live)[1:] == [("B", ["yellow-7", "blue-7"]),
                               ("C", ["blue-2", "yellow-2"])]
    assert live.referee.events[-1]["hidden"] == ["blue-2"]


def test_a_fan_the_referee_refused_is_not_read_again():
    from referee.session import Referee
    from vision.handsfree_tgus_t import amendment, reordered

    # A's 7s out of turn (B's turn): ruled illegal, they left the pile as it
    # was, so no order of them explains B's illegal play after them
    ref = Referee(dict(THREE))
    ref.append(cam("start", 1, card="red-5"))
    ref.append({**play(2, "B", "green-7", "yellow-7"), "player": "B"})
    ref.append({**play(3, "A", "green-7", "yellow-7"), "player": "A"})
    ref.append({**play(4, "C", "green-2"), "player": "C"})
    assert ref.rulings[-1].ruling == "illegal"
    assert any(r.event == 3 and r.ruling == "illegal" for r in ref.rulings)
    assert reordered(ref) is None
    found = amendment(ref)
    assert found is None or found[1] != 3
