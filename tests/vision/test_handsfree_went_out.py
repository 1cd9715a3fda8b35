"""A last card the camera missed (issue 25): the player to move holds one card,
reaches onto the discard pile and no card of theirs is seen land (a twin laid
neatly on its copy), then the round's hands are shown. They went out with a
copy of the top card: inferred before the first reveal, and the round scored."""

from __future__ import annotations


from vision.geometry import TableGeometry
from vision.handsfree import complete
from vision.hands import Reach
from vision.pipeline import TablePipeline
from tests.vision.live_events import cam, live_table, uno_header

HEADER = uno_header(2)


def table(*events):
    return live_table(HEADER, *events)


# A plays down to one card; B and C play; the red-9 is on top and it is A's turn
ROUND = (
    cam("start", 1, card="red-7"),
    cam("play", 2, cards=["red-3"], reach_from="A"),
    {"type": "uno", "player": "A", "source": "voice", "t": 2.2},
    cam("play", 4, cards=["red-5"], reach_from="B"),
    cam("play", 6, cards=["red-9"], reach_from="C"),
)


def test_a_missed_last_twin_is_inferred_when_the_hands_are_shown():
    live = table(*ROUND,
                 cam("reveal", 9, player="B", cards=["blue-1"], pile_reaches=["A"]),
                 cam("reveal", 10, player="C", cards=["green-2"], pile_reaches=["A"]))
    kinds = [(e["type"], e.get("player"), tuple(e.get("cards") or ()))
             for e in live.referee.events]
    assert kinds[-3:] == [("play", "A", ("red-9",)), ("reveal", "B", ("blue-1",)),
                          ("reveal", "C", ("green-2",))]
    assert "went out with a copy of" in live.referee.events[-3]["inferred"]
    assert all("pile_reaches" not in e for e in live.referee.events)
    state = live.state()
    assert state["hand_counts"]["A"] == 0
    assert state["scores"]["A"] > 0  # A won the round: B's and C's hands scored


def test_no_last_twin_without_the_arm_one_card_or_another_seat_showing():
    state = {"players": ["A", "B", "C"], "direction": 1, "turn": "A",
             "phase": "turn", "top": "red-9", "color": "red", "options": {},
             "hand_counts": {"A": 1, "B": 1, "C": 1}}
    reveal = cam("reveal", 9, player="B", cards=["blue-1"], pile_reaches=["A"])
    out = complete(reveal, state)
    assert [(e["type"], e.get("player")) for e in out] == [("play", "A"),
                                                          ("reveal", "B")]
    # A's arm did not reach onto the pile: the reveal alone
    out = complete({**reveal, "pile_reaches": ["B"]}, state)
    assert [e["type"] for e in out] == ["reveal"] and "pile_reaches" not in out[0]
    # A holds two cards: a copy would not have ended the round
    out = complete(reveal, {**state, "hand_counts": {"A": 2, "B": 1, "C": 1}})
    assert [e["type"] for e in out] == ["reveal"]
    # A drew: a player who drew holds more than the card they went out with
    out = complete(reveal, {**state, "phase": "drawn"})
    assert [e["type"] for e in out] == ["reveal"]
    # the hand shown is A's own
    out = complete({**reveal, "player": "A"}, state)
    assert [e["type"] for e in out] == ["reveal"]
    # a reveal that did not come from the camera is taken as given
    out = complete({**reveal, "source": "voice"}, state)
    assert [e["type"] for e in out] == ["reveal"]


def test_the_pipeline_puts_the_pile_reaches_on_a_reveal(tmp_path):
    pipe = TablePipeline(str(tmp_path), players=["A", "B", "C"], realtime=False)
    pipe.geometry = TableGeometry.default((560, 420), ("A", "B", "C"))
    pipe._note_pile_reaches([Reach("A", (330.0, 210.0), 9000.0)])
    pipe._emit({"type": "reveal", "player": "B", "cards": [], "t": 0.0}, None)
    assert pipe.events[-1]["pile_reaches"] == ["A"]
