"""Hands-free refereeing: the live table completes the camera's events (issue 25)."""

from __future__ import annotations


from vision.handsfree import complete
from tests.vision.live_events import cam, live_table, uno_header

HEADER = uno_header(5)


def table(*events, header=HEADER):
    return live_table(header, *events)


def lines(live):
    return live.out.getvalue().splitlines()


def test_a_play_belongs_to_the_arm_that_reached_not_to_the_turn():
    # A's turn; B's arm places the card: ruled out of turn for B, not given to A
    live = table(cam("start", 1, card="red-7"), cam("play", 2, cards=["red-3"],
                                                  reach_from="B"))
    play = live.referee.events[-1]
    assert play["player"] == "B" and play["player_from"] == "reach"
    assert live.referee.rulings[-1].extra["refused"]["rule"] == "official.turn"
    assert live.state()["turn"] == "A" and live.state()["hand_counts"]["A"] == 5
    assert live.questions and "B play while it was A's turn" in live.questions[0][1]


def test_an_unattributed_play_says_so_and_falls_back_to_the_turn():
    live = table(cam("start", 1, card="red-7"), cam("play", 2, cards=["red-3"]))
    play = live.referee.events[-1]
    assert "player" not in play and play["player_from"] == "turn"
    assert "player taken from the turn" in live.referee.rulings[-1].text


def test_a_jump_in_is_no_question_where_the_option_allows_it():
    header = {**HEADER, "options": {"jump_in": True}}
    live = table(cam("start", 1, card="red-7"),
                 cam("play", 2, cards=["red-7"], reach_from="C"), header=header)
    assert live.referee.rulings[-1].rule.endswith("jump-in")
    assert not live.questions


def test_a_pass_is_inferred_when_the_next_seat_plays_after_a_draw():
    live = table(
        cam("start", 1, card="red-7"),
        cam("draw", 2, count=1, reach_from="A"),
        cam("play", 4, cards=["red-3"], reach_from="B"),
    )
    kinds = [(e["type"], e.get("player")) for e in live.referee.events]
    assert kinds[-2:] == [("pass", "A"), ("play", "B")]
    passed = live.referee.events[-2]
    assert passed["inferred"] == "A drew and the next seat, B, played"
    assert any("inferred: A drew and the next seat, B, played" in x
               for x in lines(live))
    assert live.state()["turn"] == "C"


def test_a_pass_is_inferred_when_the_next_seat_draws_too():
    live = table(
        cam("start", 1, card="red-7"),
        cam("draw", 2, count=1, reach_from="A"),
        cam("draw", 4, count=1, reach_from="B"),
    )
    assert [e["type"] for e in live.referee.events] == ["start", "draw", "pass", "draw"]
    assert live.state()["turn"] == "B" and live.state()["phase"] == "drawn"


def test_no_pass_when_the_drawer_plays_the_drawn_card():
    live = table(
        cam("start", 1, card="red-7"),
        cam("draw", 2, count=1, reach_from="A"),
        cam("play", 4, cards=["red-3"], reach_from="A"),
    )
    assert [e["type"] for e in live.referee.events] == ["start", "draw", "play"]


def test_a_draw_is_counted_for_the_seat_that_reached():
    # A plays a Draw Two; B's arm takes the cards: B's draw of 2, turn to C
    live = table(
        cam("start", 1, card="red-7"),
        cam("play", 2, cards=["red-draw2"], reach_from="A"),
        cam("draw", 4, count=2, reach_from="B"),
    )
    draw = live.referee.events[-1]
    assert (draw["player"], draw["count"]) == ("B", 2)
    assert live.state()["hand_counts"]["B"] == 7 and live.state()["turn"] == "C"


def test_a_wild_colour_is_inferred_from_the_next_play():
    live = table(
        cam("start", 1, card="red-7"),
        cam("play", 2, cards=["wild"], reach_from="A"),
        cam("play", 4, cards=["blue-3"], reach_from="B"),
    )
    colour = live.referee.events[-2]
    assert colour["type"] == "color" and colour["color"] == "blue"
    assert "blue-3" in colour["inferred"]
    assert live.referee.rulings[-1].ruling == "ok"


def test_a_wild_on_a_wild_leaves_the_colour_to_a_question():
    live = table(
        cam("start", 1, card="red-7"),
        cam("play", 2, cards=["wild"], reach_from="A"),
        cam("play", 4, cards=["wild"], reach_from="B"),
    )
    assert "color" not in [e["type"] for e in live.referee.events]
    assert "which colour was named" in live.questions[-1][1]


def test_a_heard_colour_is_not_overridden():
    live = table(
        cam("start", 1, card="red-7"),
        cam("play", 2, cards=["wild"], reach_from="A"),
        {"type": "color", "color": "green", "source": "voice", "t": 2.5},
        cam("play", 4, cards=["green-3"], reach_from="B"),
    )
    assert [e.get("inferred") for e in live.referee.events if e["type"] == "color"] \
        == [None]


def test_spoken_and_clicked_events_are_taken_as_given():
    state = {"players": ["A", "B"], "turn": "A", "phase": "drawn"}
    said = {"type": "play", "cards": ["red-3"], "source": "voice", "reach_from": "B"}
    assert complete(said, state) == [said]


def test_heard_events_of_a_recording_wait_for_the_camera_to_reach_them():
    live = table(cam("start", 1, card="red-7"))
    live.hear({"type": "uno", "player": "A", "source": "voice", "t": 3.0})
    live.append(cam("play", 2, cards=["red-3"], reach_from="A"))
    assert [e["type"] for e in live.referee.events] == ["start", "play"]
    live.append(cam("play", 4, cards=["red-4"], reach_from="B"))
    assert [e["type"] for e in live.referee.events] == ["start", "play", "uno", "play"]
    live.hear({"type": "uno", "player": "B", "source": "voice", "t": 9.0})
    live.finish()
    assert live.referee.events[-1]["type"] == "uno"


def test_a_twin_the_camera_missed_is_inferred_from_the_arm_on_the_pile():
    # A's arm reached onto the pile but no card of A's was seen land; then B,
    # the next seat, plays: A put a copy of the red-7 on it
    live = table(cam("start", 1, card="red-7"),
                 cam("play", 3, cards=["red-3"], reach_from="B",
                     pile_reaches=["A", "B"]))
    kinds = [(e["type"], e.get("player"), tuple(e.get("cards") or ()))
             for e in live.referee.events]
    assert kinds[-2:] == [("play", "A", ("red-7",)), ("play", "B", ("red-3",))]
    assert "a twin put on its copy" in live.referee.events[-2]["inferred"]
    assert "pile_reaches" not in live.referee.events[-1]
    assert not live.questions
    counts = live.state()["hand_counts"]
    assert (counts["A"], counts["B"], live.state()["turn"]) == (4, 4, "C")


def test_no_twin_without_the_arm_the_seat_after_the_copy_or_before_a_draw():
    start = cam("start", 1, card="red-7")
    # A's arm never reached the pile: asked, as before
    live = table(start, cam("play", 3, cards=["red-3"], reach_from="B",
                            pile_reaches=["B"]))
    assert live.questions and live.state()["hand_counts"]["A"] == 5
    # C is not the seat a copy of a number hands the turn to
    live = table(start, cam("play", 3, cards=["red-3"], reach_from="C",
                            pile_reaches=["A", "C"]))
    assert live.questions and live.state()["hand_counts"]["A"] == 5
    # A copy of a skip hands it two seats on, to C
    state = {"players": ["A", "B", "C"], "direction": 1, "turn": "A",
             "phase": "turn", "top": "red-skip", "color": "red", "options": {},
             "hand_counts": {"A": 5, "B": 5, "C": 5}}
    out = complete(cam("play", 3, cards=["red-3"], reach_from="C",
                       pile_reaches=["A"]), state)
    assert [(e["type"], e.get("player")) for e in out] == [("play", "A"),
                                                          ("play", "C")]
    # with one card A's copy would have won the round: asked instead
    one = {**state, "hand_counts": {"A": 1, "B": 5, "C": 5}}
    out = complete(cam("play", 3, cards=["red-3"], reach_from="C",
                       pile_reaches=["A"]), one)
    assert len(out) == 1 and "question" in out[0]
    # A drew: the next seat's play is A's pass, no twin
    out = complete(cam("play", 3, cards=["red-3"], reach_from="B",
                       pile_reaches=["A"]), {**state, "top": "red-7",
                                             "phase": "drawn"})
    assert [e["type"] for e in out] == ["pass", "play"]


def test_a_missed_twin_is_inferred_when_the_next_seat_draws():
    live = table(cam("start", 1, card="red-7"),
                 cam("draw", 3, count=1, reach_from="B", pile_reaches=["A"]))
    kinds = [(e["type"], e.get("player")) for e in live.referee.events]
    assert kinds[-2:] == [("play", "A"), ("draw", "B")]
    assert live.state()["hand_counts"]["A"] == 4


def test_a_missed_twin_of_a_draw_card_is_inferred_when_the_next_seat_draws():
    """A's Draw Two laid on B's unseen: C, the next seat, draws what it owes."""
    start = (cam("start", 1, card="red-7"),
             cam("play", 2, cards=["red-3"], reach_from="A"),
             cam("play", 3, cards=["red-draw2"], reach_from="B"),
             cam("draw", 4, count=2, reach_from="C"))  # C pays; A's turn
    live = table(*start, cam("draw", 6, count=2, reach_from="B",
                             pile_reaches=["A", "B"]))
    kinds = [(e["type"], e.get("player"), tuple(e.get("cards") or ()))
             for e in live.referee.events]
    assert kinds[-2:] == [("play", "A", ("red-draw2",)), ("draw", "B", ())]
    assert "a twin put on its copy" in live.referee.events[-2]["inferred"]
    state = live.state()
    assert state["turn"] == "C" and state["hand_counts"]["B"] == 6
    assert not live.questions
    # a Wild Draw Four's copy: its colour from the next play, the rest of the
    # debt taken when the seat after moves
    live = table(cam("start", 1, card="red-7"),
                 cam("play", 2, cards=["wild-draw4"], reach_from="A"),
                 cam("draw", 3, count=4, reach_from="B"),
                 cam("draw", 5, count=2, reach_from="A", pile_reaches=["C", "A"]),
                 cam("play", 7, cards=["green-4"], reach_from="B"))
    kinds = [(e["type"], e.get("player"), bool(e.get("inferred")))
             for e in live.referee.events]
    assert kinds[-5:] == [("play", "C", True), ("draw", "A", False),
                          ("color", None, True), ("draw", "A", True),
                          ("play", "B", False)]
    assert live.state()["hand_counts"]["A"] == 8 and not live.questions
    # the next seat plays instead: no copy of a draw card (asked)
    live = table(*start, cam("play", 6, cards=["red-5"], reach_from="B",
                             pile_reaches=["A", "B"]))
    assert live.questions and [e["type"] for e in live.referee.events][-1] == "play"
    # without A's arm on the pile: the draw as it came (refused)
    live = table(*start, cam("draw", 6, count=2, reach_from="B",
                             pile_reaches=["B"]))
    assert [e["type"] for e in live.referee.events][-2:] == ["draw", "draw"]


def test_the_rest_of_a_draw_cards_debt_is_taken_when_the_next_seat_moves():
    # A's Draw Two: the camera saw B take one card (two taken together); C plays
    live = table(
        cam("start", 1, card="red-7"),
        cam("play", 2, cards=["red-draw2"], reach_from="A"),
        cam("draw", 4, count=1, reach_from="B"),
        cam("play", 6, cards=["red-3"], reach_from="C"),
    )
    kinds = [(e["type"], e.get("player"), e.get("count")) for e in live.referee.events]
    assert kinds[-3:] == [("draw", "B", 1), ("draw", "B", 1), ("play", "C", None)]
    assert "still owed 1" in live.referee.events[-2]["inferred"]
    assert live.state()["hand_counts"]["B"] == 7 and not live.questions
    assert live.state()["turn"] == "A"
    # the debt paid in full: nothing inferred
    live = table(
        cam("start", 1, card="red-7"),
        cam("play", 2, cards=["red-draw2"], reach_from="A"),
        cam("draw", 4, count=2, reach_from="B"),
        cam("play", 6, cards=["red-3"], reach_from="C"),
    )
    assert [e["type"] for e in live.referee.events].count("draw") == 1


def test_a_missed_wild_on_a_wild_takes_its_colour_from_the_next_play():
    live = table(cam("start", 1, card="red-7"),
                 cam("play", 2, cards=["wild"], reach_from="A"),
                 {"type": "color", "color": "green", "player": "A", "t": 2.5,
                  "source": "voice"},
                 cam("play", 5, cards=["blue-3"], reach_from="C",
                     pile_reaches=["B", "C"]))  # B's wild on the wild: blue
    kinds = [(e["type"], e.get("player"), e.get("color")) for e in
             live.referee.events]
    assert kinds[-3:] == [("play", "B", None), ("color", None, "blue"),
                          ("play", "C", None)]
    assert live.referee.events[-3]["cards"] == ["wild"]
    assert not live.questions and live.state()["turn"] == "A"


def test_a_drawer_passed_and_the_next_seats_missed_twin_is_inferred():
    # A drew and passed; B put a red-7 on the red-7 unseen; C plays
    live = table(cam("start", 1, card="red-7"),
                 cam("draw", 2, count=1, reach_from="A"),
                 cam("play", 5, cards=["red-3"], reach_from="C",
                     pile_reaches=["B", "C"]))
    kinds = [(e["type"], e.get("player")) for e in live.referee.events]
    assert kinds[-4:] == [("draw", "A"), ("pass", "A"), ("play", "B"), ("play", "C")]
    assert not live.questions and live.state()["hand_counts"]["B"] == 4
    # without B's arm on the pile: asked, nothing inferred
    live = table(cam("start", 1, card="red-7"),
                 cam("draw", 2, count=1, reach_from="A"),
                 cam("play", 5, cards=["red-3"], reach_from="C",
                     pile_reaches=["C"]))
    assert live.questions and [e["type"] for e in live.referee.events][-2:] == [
        "draw", "play"]


def test_a_copy_of_a_skip_right_after_a_draw_waits_for_the_next_move():
    start = (cam("start", 1, card="green-3"),
             cam("play", 2, cards=["green-skip"], reach_from="A"),  # B skipped
             cam("draw", 3, count=1, reach_from="C"))
    # the camera says C put a green skip on the green skip after drawing; then
    # A, the next seat, draws: C passed, the copy was the top card's box moving
    live = table(*start, cam("play", 4, cards=["green-skip"], reach_from="C"))
    assert live.doubt is not None and live.referee.events[-1]["type"] == "draw"
    live.append(cam("draw", 6, count=1, reach_from="A"))
    kinds = [(e["type"], e.get("player")) for e in live.referee.events]
    assert kinds[-3:] == [("draw", "C"), ("pass", "C"), ("draw", "A")]
    assert [e["cards"] for e in live.set_aside] == [["green-skip"]]
    # ... or B moves next: the drawn card was that copy, played (A skipped)
    live = table(*start, cam("play", 4, cards=["green-skip"], reach_from="C"),
                 cam("play", 6, cards=["green-4"], reach_from="B"))
    kinds = [(e["type"], e.get("player")) for e in live.referee.events]
    assert kinds[-3:] == [("draw", "C"), ("play", "C"), ("play", "B")]
    assert not live.set_aside and not live.questions
    # nothing after it: it stands
    live = table(*start, cam("play", 4, cards=["green-skip"], reach_from="C"))
    live.finish()
    assert live.referee.events[-1]["cards"] == ["green-skip"]


def test_a_copy_of_a_number_right_after_a_draw_is_set_aside_if_the_drawer_plays():
    start = (cam("start", 1, card="green-3"), cam("draw", 2, count=1, reach_from="A"))
    live = table(*start, cam("play", 3, cards=["green-3"], reach_from="A"),
                 cam("play", 4, cards=["green-8"], reach_from="A"))
    kinds = [(e["type"], e.get("player"), tuple(e.get("cards") or ()))
             for e in live.referee.events]
    assert kinds[-2:] == [("draw", "A", ()), ("play", "A", ("green-8",))]
    assert live.set_aside and live.state()["turn"] == "B"
    # the next seat moving says nothing for a number's copy: it stands
    live = table(*start, cam("play", 3, cards=["green-3"], reach_from="A"),
                 cam("play", 4, cards=["green-8"], reach_from="B"))
    kinds = [(e["type"], e.get("player")) for e in live.referee.events]
    assert kinds[-3:] == [("draw", "A"), ("play", "A"), ("play", "B")]


def test_a_copy_seen_coming_in_from_a_hand_right_after_a_draw_is_ruled_at_once():
    # the pile saw a card of the top card's label in the drawer's hand on its
    # way in (carried_in): a second card, not the top card's box moved by the
    # drawing arm, so it is not held for the camera's next move
    start = (cam("start", 1, card="green-3"), cam("draw", 2, count=1, reach_from="A"))
    live = table(*start, cam("play", 3, cards=["green-3"], reach_from="A",
                             carried_in=True))
    assert live.doubt is None and not live.handsfree.ruled
    last = live.referee.events[-1]
    assert (last["type"], last["player"], last["cards"]) == ("play", "A", ["green-3"])
    assert "carried_in" not in last  # said to the completion, not logged
    assert live.state()["turn"] == "B"
    # a skip's copy too: B is skipped at once
    start = (cam("start", 1, card="green-3"),
             cam("play", 2, cards=["green-skip"], reach_from="A"),
             cam("draw", 3, count=1, reach_from="C"))
    live = table(*start, cam("play", 4, cards=["green-skip"], reach_from="C",
                             carried_in=True))
    assert live.doubt is None and live.state()["turn"] == "B"
    kinds = [(e["type"], e.get("player")) for e in live.referee.events]
    assert kinds[-2:] == [("draw", "C"), ("play", "C")]


def test_the_shared_completion_holds_a_copy_and_calls_the_hook_once_it_stands():
    # HandsFree itself (serve's camera calls it as here): the events it yields
    # are appended one by one; the move after a copy that stood is completed
    # from the state after it, and the hook runs in between
    from referee.session import Referee
    from vision.handsfree import HandsFree

    referee = Referee(dict(HEADER))
    seen_by_hook = []

    def hook(held, move):  # the copy, the move, and the log's last play then
        seen_by_hook.append((held["cards"], move["t"],
                             referee.events[-1].get("cards")))

    done = HandsFree(state=referee.state, on_stood=hook)

    def feed(event):
        for e in done(event, referee.state()):
            referee.append(e)

    for e in (cam("start", 1, card="green-3"),
              cam("play", 2, cards=["green-skip"], reach_from="A"),
              cam("draw", 3, count=1, reach_from="C")):
        feed(e)
    copy = cam("play", 4, cards=["green-skip"], reach_from="C")
    feed(copy)
    assert done.held is not None and done.held[0] is copy
    assert referee.events[-1]["type"] == "draw"
    feed(cam("play", 6, cards=["green-4"], reach_from="B"))
    assert seen_by_hook == [(["green-skip"], 6, ["green-skip"])]
    kinds = [(e["type"], e.get("player")) for e in referee.events]
    assert kinds[-3:] == [("draw", "C"), ("play", "C"), ("play", "B")]
    assert done.ruled == [{"event": copy, "t": 6, "stood": True}]
    # without a way to read the state again it cannot hold: at once, as it came
    once = HandsFree()
    referee = Referee(dict(HEADER))
    for e in (cam("start", 1, card="green-3"), cam("draw", 2, count=1, reach_from="A"),
              cam("play", 3, cards=["green-3"], reach_from="A")):
        for x in once(e, referee.state()):
            referee.append(x)
    assert once.held is None and referee.events[-1]["cards"] == ["green-3"]
