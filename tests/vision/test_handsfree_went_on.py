"""A round the referee's count ended while the table played on: the count of
the player who went out by it was short (a draw the camera missed), no hand
is shown, and the camera's plays keep landing from the seats in turn. The
round is read again with a card more for that player: passes are inferred and
twins judged again, and the round is scored when it really ends."""

from __future__ import annotations

from tests.vision.live_events import cam, live_table, uno_header
from vision.config import PlayConfig
from vision.handsfree import RoundEnd, went_on
from vision.live import LiveTable

HEADER = uno_header(4)

# B drew a card before the red 5 that the camera did not see: B holds one card
# more than the referee counts, and B's red 6 empties B's hand by the count
BEFORE = (
    cam("start", 1, card="red-7"),
    cam("play", 2, cards=["red-3"], reach_from="A"),
    cam("play", 3, cards=["red-5"], reach_from="B"),
    cam("play", 4, cards=["red-9"], reach_from="C"),
    cam("play", 5, cards=["red-1"], reach_from="A"),
    cam("play", 6, cards=["red-2"], reach_from="B"),
    cam("play", 7, cards=["red-0"], reach_from="C"),
    cam("draw", 8, count=1, reach_from="A"),
    cam("play", 9, cards=["red-8"], reach_from="B"),
    cam("draw", 10, count=1, reach_from="C"),
    cam("play", 11, cards=["red-3"], reach_from="A"),
    cam("play", 12, cards=["red-6"], reach_from="B"),  # B's last card by the count
)
# the table plays on: C plays, A draws, B draws and passes, C plays, A puts a
# twin of the red 4 on it unseen, B plays, C goes out; A's and B's hands shown
AFTER = (
    cam("play", 13, cards=["red-5"], reach_from="C"),
    cam("draw", 14, count=1, reach_from="A"),
    cam("draw", 15, count=1, reach_from="B"),
    cam("play", 16, cards=["red-4"], reach_from="C"),
    cam("play", 18, cards=["red-9"], reach_from="B", pile_reaches=["A"]),
    cam("play", 19, cards=["red-2"], reach_from="C"),
    cam("reveal", 21, player="A", cards=["blue-1", "green-2"], pile_reaches=[]),
    cam("reveal", 22, player="B", cards=["yellow-3"], pile_reaches=[]),
)


def kinds(live: LiveTable) -> list[tuple]:
    return [(e["type"], e.get("player"), tuple(e.get("cards") or ()),
             bool(e.get("inferred"))) for e in live.referee.events]


def test_a_round_the_count_ended_while_plays_went_on_is_read_again():
    live = live_table(HEADER, *BEFORE, *AFTER)
    log = kinds(live)
    # a draw of B's inferred before the red 6: the round did not end there
    at = log.index(("play", "B", ("red-6",), False))
    assert log[at - 1] == ("draw", "B", (), True)
    assert "the round went on" in live.referee.events[at - 1]["inferred"]
    assert live.went_on == [at]
    # after it: passes inferred again, the twin judged, every play ruled legal
    tail = log[at + 1:]
    assert tail == [
        ("play", "C", ("red-5",), False),
        ("draw", "A", (), False),
        ("pass", "A", (), True),
        ("draw", "B", (), False),
        ("pass", "B", (), True),
        ("play", "C", ("red-4",), False),
        ("play", "A", ("red-4",), True),
        ("play", "B", ("red-9",), False),
        ("play", "C", ("red-2",), False),
        ("reveal", "A", ("blue-1", "green-2"), False),
        ("reveal", "B", ("yellow-3",), False),
    ]
    refused = [r for r in live.referee.rulings
               if r.event > at and r.ruling == "illegal"]
    assert refused == []
    state = live.state()
    # C went out: the hands shown scored for C; the counts were right
    assert state["scores"] == {"A": -3, "B": -3, "C": 6}
    assert state["round_winner"] == "C"
    shown = [r.text for r in live.referee.rulings if r.rule.endswith(".reveal")]
    assert len(shown) == 2 and not any("counted" in t for t in shown)
    assert live.round_end is None


def test_it_is_read_again_as_soon_as_enough_plays_came():
    live = live_table(HEADER, *BEFORE, *AFTER[:3])
    assert live.state()["phase"] == "scoring"  # one play after it: not yet
    assert live.went_on == []
    live.append(AFTER[3])
    assert live.state()["phase"] == "turn" and live.state()["turn"] == "A"
    assert len(live.went_on) == 1
    out = live.out.getvalue()
    assert "[amended]" in out and "the round went on" in out


def test_a_hand_shown_keeps_the_round_won():
    """The hands are being shown: the round did end, whatever lands after."""
    live = live_table(HEADER, *BEFORE,
                      cam("reveal", 13, player="A", cards=["blue-1", "green-2"],
                          pile_reaches=[]),
                      *AFTER[:4])
    assert live.went_on == []
    assert live.state()["round_winner"] == "B"


def test_plays_that_the_count_does_not_explain_leave_the_round_won():
    """Cards that land after a round won but would not be legal in turn even
    with a card more for the winner (a misread, a card laid out) are no round
    going on."""
    live = live_table(HEADER, *BEFORE,
                      cam("play", 13, cards=["blue-5"], reach_from="A"),
                      cam("play", 14, cards=["green-8"], reach_from="A"),
                      cam("play", 15, cards=["yellow-1"], reach_from="C"))
    assert live.went_on == []
    assert live.state()["phase"] == "scoring"


def test_no_reading_again_when_switched_off():
    live = LiveTable(dict(HEADER), out=__import__("io").StringIO(),
                     play=PlayConfig(went_on_plays=0))
    for e in (*BEFORE, *AFTER[:4]):
        live.append(e)
    assert live.went_on == [] and live.state()["phase"] == "scoring"


def test_went_on_needs_the_play_that_emptied_the_hand_on_its_turn():
    live = live_table(HEADER, *BEFORE)
    end = live.round_end
    assert end is not None and live.referee.events[end.line - 1]["cards"] == ["red-6"]
    # too few plays after it
    assert went_on(live.referee, RoundEnd(end.line, [("camera", dict(AFTER[0]))]),
                   2) is None
    # a line that is no such play
    assert went_on(live.referee, RoundEnd(1, [("camera", dict(e)) for e in AFTER[:4]]),
                   2) is None


def test_a_count_short_by_two_is_read_again_at_each_early_end():
    """B drew twice unseen: B's count empties two plays early. Each early end
    is read again once the plays after it go on; B's real last card ends the
    round, scored from the hands shown."""
    before = [dict(e) for e in BEFORE]
    after = (
        cam("play", 13, cards=["red-5"], reach_from="C"),
        cam("play", 14, cards=["red-1"], reach_from="A"),
        cam("play", 15, cards=["red-4"], reach_from="B"),  # B's last by the count
        cam("play", 16, cards=["red-8"], reach_from="C"),
        cam("draw", 17, count=1, reach_from="A"),
        cam("play", 18, cards=["red-6"], reach_from="B"),  # B's last card
        cam("reveal", 20, player="A", cards=["blue-1", "green-2"], pile_reaches=[]),
        cam("reveal", 21, player="C", cards=["yellow-3"], pile_reaches=[]),
    )
    live = live_table(HEADER, *before, *after)
    log = kinds(live)
    first = log.index(("play", "B", ("red-6",), False))
    second = log.index(("play", "B", ("red-4",), False))
    assert live.went_on == [first, second]
    assert log[first - 1] == ("draw", "B", (), True)
    assert log[second - 1] == ("draw", "B", (), True)
    assert log[-4:-2] == [("pass", "A", (), True), ("play", "B", ("red-6",), False)]
    assert not [r for r in live.referee.rulings
                if r.event > first and r.ruling == "illegal"]
    state = live.state()
    assert state["round_winner"] == "B"
    assert state["scores"] == {"A": -3, "B": 6, "C": -3}
