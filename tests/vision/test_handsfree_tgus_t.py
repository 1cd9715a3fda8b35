"""Hands-free completion of a tgus-t table's camera events (vision.handsfree):
turned cards for a Hit+?, colours, targets, picture leftovers and passes."""

from __future__ import annotations

from referee.session import Referee
from vision.handsfree import complete
from vision.handsfree_tgus_t import TgusTHandsFree, complete_tgus_t, split_play
from tests.vision.live_events import cam

HEADER = {"type": "game", "game": "uno", "rules": "tgus-t1",
          "players": ["A", "B", "C"], "dealer": "C", "hand_size": 5, "options": {}}


def run(*events):
    ref = Referee(dict(HEADER))
    done = TgusTHandsFree()
    out = []
    for e in events:
        if e["type"] == "start":
            ref.append(e)
            continue
        for x in done(e, ref.state()):
            out.append(x)
            ref.append(x)
    return ref, out


def test_a_card_landing_while_a_hit_x_waits_is_turned_and_its_reach_no_draw():
    ref, out = run(cam("start", 1, card="red-5"),
                   cam("play", 2, cards=["wild-hit-x"], reach_from="A"),
                   cam("draw", 3, count=1, reach_from="A"),
                   cam("play", 4, cards=["blue-7"], reach_from="A"))
    kinds = [e["type"] for e in out]
    assert kinds == ["play", "turned"] and out[-1]["cards"] == ["blue-7"]
    assert "inferred" in out[-1] and "player" not in out[-1]
    assert ref.state()["pending_draw"] == 7 and ref.state()["turn"] == "B"


def test_the_next_coloured_play_names_the_waiting_colour():
    ref, out = run(cam("start", 1, card="red-5"),
                   cam("play", 2, cards=["wild"], reach_from="A"),
                   cam("play", 3, cards=["green-2"], reach_from="B"))
    colour = out[1]
    assert colour["type"] == "color" and colour["player"] == "A"
    assert colour["color"] == "green" and colour["inferred_msg"]["key"]
    assert not [r for r in ref.rulings if r.ruling == "illegal"]


def test_a_change_without_a_target_aims_at_the_next_player_said_as_inferred():
    ref, out = run(cam("start", 1, card="red-5"),
                   cam("play", 2, cards=["change"], reach_from="A"),
                   cam("play", 3, cards=["yellow-2"], reach_from="B"))
    change = out[0]
    assert change["target"] == "B" and change["target_from"] == "next"
    assert out[1] == {**out[1], "type": "color", "player": "B", "color": "yellow"}
    assert not [r for r in ref.rulings if r.ruling == "illegal"]


def test_a_draw_off_turn_owing_nothing_is_a_picture_leftover_of_two():
    ref, out = run(cam("start", 1, card="red-5"),
                   cam("play", 2, cards=["red-7"], reach_from="A"),
                   cam("draw", 3, count=1, reach_from="A"))
    assert [e["type"] for e in out] == ["play", "picture-leftover", "draw"]
    assert out[-1]["count"] == 2 and out[-1]["takes"] == 1
    assert ref.state()["hand_counts"]["A"] == 6
    assert not [r for r in ref.rulings if r.ruling == "illegal"]


def test_a_draw_once_the_game_is_over_is_no_picture_leftover():
    # the referee holds the game ended (no one on turn): a take the camera
    # sees then is counted as seen, not as a leftover report of two
    state = {"rules": "tgus-t1", "players": ["A", "B", "C"], "turn": None,
             "over": True, "owed": {}, "top": "red-5", "drew": False}
    out = complete_tgus_t(cam("draw", 9, count=1, reach_from="B"), state)
    assert [e["type"] for e in out] == ["draw"]
    assert out[0]["count"] == 1 and "takes" not in out[0]


def test_a_copy_of_the_top_card_right_after_its_seat_drew_is_no_play():
    # the drawing arm moved the top card's box: the pile reports it landing
    # again; the next seat's play then says the drawer passed
    ref, out = run(cam("start", 1, card="red-5"),
                   cam("draw", 2, count=1, reach_from="A"),
                   cam("play", 3, cards=["red-5"], reach_from="A"),
                   cam("play", 4, cards=["red-2"], reach_from="B"))
    assert [e["type"] for e in out] == ["draw", "pass", "play"]
    assert out[-1]["cards"] == ["red-2"] and ref.state()["hand_counts"]["A"] == 6
    assert not [r for r in ref.rulings if r.ruling == "illegal"]


def test_a_copy_seen_coming_in_from_a_hand_after_a_draw_is_played():
    ref, out = run(cam("start", 1, card="red-5"),
                   cam("draw", 2, count=1, reach_from="A"),
                   cam("play", 3, cards=["red-5"], reach_from="A", carried_in=True))
    assert [e["type"] for e in out] == ["draw", "play"]
    assert "carried_in" not in out[-1] and ref.state()["hand_counts"]["A"] == 5


def test_the_table_s_completion_keeps_a_copy_seen_coming_in_after_a_draw():
    from vision.handsfree import HandsFree

    ref = Referee(dict(HEADER))
    ref.append(cam("start", 1, card="red-5"))
    done = HandsFree(ref.state)
    out = []
    for e in (cam("draw", 2, count=1, reach_from="A"),
              cam("play", 3, cards=["red-5"], reach_from="A", carried_in=True),
              cam("play", 4, cards=["red-5"], reach_from="B")):
        for x in done(e, ref.state):
            out.append(x)
            ref.append(x)
    assert [e["type"] for e in out] == ["draw", "play", "play"]
    assert not any("carried_in" in e or "came_in" in e for e in out)
    assert ref.state()["hand_counts"]["A"] == 5


def test_a_copy_of_the_top_card_after_another_seat_drew_is_played():
    _, out = run(cam("start", 1, card="red-5"),
                 cam("draw", 2, count=1, reach_from="A"),
                 cam("play", 3, cards=["red-5"], reach_from="B"))
    assert [e["type"] for e in out] == ["draw", "pass", "play"]


def test_a_turn_draw_then_the_next_seat_playing_is_a_pass():
    ref, out = run(cam("start", 1, card="red-5"),
                   cam("draw", 2, count=1, reach_from="A"),
                   cam("play", 3, cards=["red-2"], reach_from="B"))
    assert [e["type"] for e in out] == ["draw", "pass", "play"]
    assert out[1]["player"] == "A" and "inferred" in out[1]
    assert not [r for r in ref.rulings if r.ruling == "illegal"]


def test_the_drawer_playing_the_drawn_card_is_no_pass():
    _, out = run(cam("start", 1, card="red-5"),
                 cam("draw", 2, count=1, reach_from="A"),
                 cam("play", 3, cards=["red-2"], reach_from="A"))
    assert [e["type"] for e in out] == ["draw", "play"]


def test_complete_takes_the_tgus_t_path_for_a_tgus_t_state_only():
    ref = Referee(dict(HEADER))
    ref.append(cam("start", 1, card="red-5"))
    ref.append(cam("play", 2, cards=["wild-hit-x"], reach_from="A", player="A"))
    event = cam("play", 3, cards=["blue-7"], reach_from="A")
    assert complete(event, ref.state()) == complete_tgus_t(event, ref.state())
    assert complete(event, ref.state())[-1]["type"] == "turned"
    standard = {**ref.state(), "rules": "official", "phase": "turn"}
    assert complete(event, standard)[-1]["type"] == "play"


def test_what_a_person_said_is_taken_as_given():
    ref = Referee(dict(HEADER))
    ref.append(cam("start", 1, card="red-5"))
    said = {"type": "play", "player": "A", "cards": ["change"], "source": "voice"}
    assert complete_tgus_t(said, ref.state()) == [said]


def test_a_play_that_matches_only_with_a_card_under_it_takes_that_card_first():
    # cards played together lie side by side; the camera saw only the top one
    ref, out = run(cam("start", 1, card="red-5"),
                   cam("play", 2, cards=["red-8"], reach_from="A"),
                   cam("play", 3, cards=["yellow-3"], reach_from="B"),
                   cam("play", 4, cards=["yellow-7"], reach_from="C"))
    assert out[1]["cards"] == ["red-3", "yellow-3"] and out[1]["hidden"] == ["red-3"]
    assert out[1]["inferred_msg"]["key"] == "camera.tgus-t.inferred-hidden"
    assert ref.state()["hand_counts"]["B"] == 3 and ref.state()["turn"] == "A"
    assert not [r for r in ref.rulings if r.ruling == "illegal"]


def test_a_play_that_matches_or_comes_off_turn_gets_no_hidden_card():
    _, out = run(cam("start", 1, card="red-5"),
                 cam("play", 2, cards=["yellow-5"], reach_from="A"),
                 cam("play", 3, cards=["green-2"], reach_from="C"))
    assert out[0]["cards"] == ["yellow-5"] and "hidden" not in out[0]
    assert out[1]["cards"] == ["green-2"] and "hidden" not in out[1]


def test_a_multi_play_seen_in_another_order_puts_the_matching_card_first():
    ref, out = run(cam("start", 1, card="red-5"),
                   cam("play", 2, cards=["yellow-reverse", "red-reverse"],
                       reach_from="A"))
    assert out[0]["cards"] == ["red-reverse", "yellow-reverse"]
    assert "hidden" not in out[0]
    assert ref.state()["hand_counts"]["A"] == 3
    assert not [r for r in ref.rulings if r.ruling == "illegal"]


def test_a_play_of_two_values_is_split_into_the_plays_of_the_seats_that_reached():
    pieces = split_play(cam("play", 5, cards=["green-skip", "green-4"],
                            pile_reaches=["A", "C"], reach_from="C", player="C"))
    assert [p["cards"] for p in pieces] == [["green-skip"], ["green-4"]]
    assert [p["reach_from"] for p in pieces] == ["A", "C"]
    assert all("player" not in p for p in pieces)
    one = cam("play", 5, cards=["green-4", "red-4"], pile_reaches=["A"],
              reach_from="A")
    assert split_play(one) == [one]
    ref = Referee(dict(HEADER))
    ref.append(cam("start", 1, card="green-5"))
    done = TgusTHandsFree()
    for piece in pieces:
        for e in done(piece, ref.state()):
            ref.append(e)
    assert not [r for r in ref.rulings if r.ruling == "illegal"]
    assert ref.state()["hand_counts"] == {"A": 4, "B": 5, "C": 4}


def test_the_rest_of_a_draw_counted_whole_at_its_first_take_is_no_new_draw():
    # a Wild Hit+4: the pipeline counts the 4 owed when it sees the first take;
    # the next reach of the same seat brings the other 3
    ref, out = run(cam("start", 1, card="red-5"),
                   cam("play", 2, cards=["wild-hit4"], reach_from="A"),
                   cam("draw", 3, count=4, takes=1, reach_from="B"),
                   cam("draw", 4, count=3, reach_from="B"),
                   cam("play", 5, cards=["green-5"], reach_from="C"))
    assert [e["type"] for e in out] == ["play", "draw", "color", "play"]
    assert ref.state()["hand_counts"] == {"A": 4, "B": 9, "C": 4}
    assert not [r for r in ref.rulings if r.ruling == "illegal"]


def test_a_draw_of_another_seat_after_a_draw_counted_whole_is_its_own():
    ref, out = run(cam("start", 1, card="red-5"),
                   cam("play", 2, cards=["red-7"], reach_from="A"),
                   cam("draw", 3, count=1, reach_from="A"),
                   cam("draw", 4, count=1, reach_from="B"))
    assert [e["type"] for e in out] == ["play", "picture-leftover", "draw", "draw"]
    assert ref.state()["hand_counts"] == {"A": 6, "B": 6, "C": 5}


def test_no_hidden_card_where_the_play_before_may_have_ended_on_its_colour():
    # green-1 and yellow-1 both match red-1: the camera cannot tell which lies
    # on top, so a green card next may be legal without any card under it
    _, out = run(cam("start", 1, card="red-1"),
                 cam("play", 2, cards=["green-1", "yellow-1"], reach_from="A"),
                 cam("play", 3, cards=["green-5"], reach_from="B"))
    assert out[-1]["cards"] == ["green-5"] and "hidden" not in out[-1]


def test_the_top_card_seen_again_beside_a_new_one_is_no_play():
    event = cam("play", 5, cards=["change", "red-5"], pile_reaches=["A"],
                reach_from="A")
    assert [p["cards"] for p in split_play(event, top="red-5")] == [["change"]]
    assert len(split_play(event, top="blue-5")) == 2
    two = {**event, "pile_reaches": ["C", "A"]}
    assert [p["cards"] for p in split_play(two, top="red-5")] == [["change"], ["red-5"]]


def test_the_top_card_peeking_out_beside_cards_of_its_value_is_no_play():
    # a blue 5 played on a multi-play whose yellow 5 lay on top: the yellow 5
    # peeks out beside it and is boxed as a card of its own
    event = cam("play", 5, cards=["blue-5", "yellow-5"], pile_reaches=["B"],
                reach_from="B")
    assert [p["cards"] for p in split_play(event, top="yellow-5")] == [["blue-5"]]
    # cards of its value played over another top card stay as seen
    assert split_play(event, top="red-5")[0]["cards"] == ["blue-5", "yellow-5"]
    # the top card alone, or twice (its twin played on it), is no card seen again
    # beside others here
    alone = {**event, "cards": ["yellow-5"]}
    assert split_play(alone, top="yellow-5")[0]["cards"] == ["yellow-5"]
    twins = {**event, "cards": ["yellow-5", "yellow-5", "blue-5"]}
    assert split_play(twins, top="yellow-5")[0]["cards"] == twins["cards"]


def test_a_multi_play_read_with_the_top_card_beside_it_is_refereed_as_played():
    from vision.handsfree import HandsFree

    ref = Referee(dict(HEADER))
    ref.append(cam("start", 1, card="yellow-5"))
    hands = HandsFree()
    seen = cam("play", 2, cards=["blue-5", "red-5", "yellow-5"], reach_from="A")
    for piece in hands.pieces(seen, ref.state()):
        for e in hands.complete(piece, ref.state()):
            ref.append(e)
    assert sorted(ref.events[-1]["cards"]) == ["blue-5", "red-5"]
    assert not [r for r in ref.rulings if r.ruling == "illegal"]


def test_a_colourless_card_on_a_colour_never_shown_names_it_for_the_game_to_go_on():
    ref, out = run(cam("start", 1, card="red-5"),
                   cam("play", 2, cards=["wild"], reach_from="A"),
                   cam("play", 3, cards=["gamble"], reach_from="B"),
                   cam("play", 4, cards=["blue-2"], reach_from="C"))
    assert [e["type"] for e in out] == ["play", "color", "play", "color", "play"]
    assert out[1]["player"] == "A" and out[1]["inferred_msg"]["key"].endswith(
        "colour-covered")
    assert out[3] == {**out[3], "player": "B", "color": "blue"}
    assert not [r for r in ref.rulings if r.ruling == "illegal"]


def test_a_play_out_of_turn_amends_an_earlier_play_with_a_hidden_card():
    # B put two Reverses down (the turn goes on to C); the camera saw one
    from vision.handsfree_tgus_t import amend_hidden

    ref = Referee(dict(HEADER))
    done = TgusTHandsFree()
    ref.append(cam("start", 1, card="red-5"))
    amended = []
    for e in (cam("play", 2, cards=["red-7"], reach_from="A"),
              cam("play", 3, cards=["red-reverse"], reach_from="B"),
              cam("play", 4, cards=["red-2"], reach_from="C")):
        for x in done(e, ref.state()):
            ref.append(x)
            amended.append(amend_hidden(ref))
    assert amended == [False, False, True]
    play = ref.events[2]
    # under the Reverse seen on top, the first card had to match red-7
    assert play["cards"] == ["red-reverse", "red-reverse"]
    assert play["hidden"] == ["red-reverse"] and "inferred_msg" in play
    assert not [r for r in ref.rulings if r.ruling == "illegal"]
    assert ref.state()["hand_counts"] == {"A": 4, "B": 3, "C": 4}


def test_an_illegal_play_no_hidden_card_explains_stays_illegal():
    from vision.handsfree_tgus_t import amend_hidden

    ref = Referee(dict(HEADER))
    ref.append(cam("start", 1, card="red-5"))
    ref.append({**cam("play", 2, cards=["red-7"]), "player": "A"})
    ref.append({**cam("play", 3, cards=["red-2"]), "player": "C"})
    before = [dict(e) for e in ref.events]
    assert not amend_hidden(ref)
    assert ref.events == before
    assert [r.ruling for r in ref.rulings].count("illegal") == 1


def test_a_play_out_of_turn_gives_an_earlier_gamble_the_effect_it_needs():
    # A's Gamble was said to skip (not heard): C plays next, not B
    from vision.handsfree_tgus_t import amend_hidden

    ref = Referee(dict(HEADER))
    done = TgusTHandsFree()
    ref.append(cam("start", 1, card="red-5"))
    for e in (cam("play", 2, cards=["gamble"], reach_from="A"),
              cam("play", 3, cards=["blue-2"], reach_from="C")):
        for x in done(e, ref.state()):
            ref.append(x)
            amend_hidden(ref)
    gamble = next(e for e in ref.events if e.get("cards") == ["gamble"])
    assert gamble["effect"] == "skip" and "inferred_msg" in gamble
    assert not [r for r in ref.rulings if r.ruling == "illegal"]
    assert ref.state()["turn"] == "A"


def test_the_top_card_reported_again_out_of_turn_is_taken_out_of_the_log():
    from vision.handsfree_tgus_t import amend_hidden

    ref = Referee(dict(HEADER))
    ref.append(cam("start", 1, card="red-5"))
    ref.append({**cam("play", 2, cards=["red-7"]), "player": "A"})
    ref.append({**cam("play", 3, cards=["red-7"]), "player": "C"})
    assert amend_hidden(ref)
    assert len(ref.events) == 2 and not [r for r in ref.rulings
                                         if r.ruling == "illegal"]


def test_a_draw_nobody_owed_gives_an_earlier_gamble_a_drawing_effect():
    from vision.handsfree_tgus_t import amend_hidden

    ref = Referee(dict(HEADER))
    done = TgusTHandsFree()
    ref.append(cam("start", 1, card="red-5"))
    for e in (cam("play", 2, cards=["gamble"], reach_from="A"),
              cam("draw", 3, count=1, reach_from="B"),
              cam("draw", 4, count=3, reach_from="B")):
        for x in done(e, ref.state()):
            ref.append(x)
            amend_hidden(ref)
    gamble = next(e for e in ref.events if e.get("cards") == ["gamble"])
    assert gamble.get("effect") == "wild-hit4"
    assert not [r for r in ref.rulings if r.ruling == "illegal"]
    assert ref.state()["hand_counts"]["B"] == 9


def test_how_far_back_an_amendment_looks_is_the_play_configs():
    # B's two Reverses (one seen) explain C's play: found within
    # play.hidden_back lines, not with 0; the Gamble likewise with gamble_back
    from vision.config import PlayConfig
    from vision.handsfree_tgus_t import amendment

    def table(*events):
        ref = Referee(dict(HEADER))
        done = TgusTHandsFree()
        ref.append(cam("start", 1, card="red-5"))
        for e in events:
            for x in done(e, ref.state()):
                ref.append(x)
        return ref

    reverse = table(cam("play", 2, cards=["red-7"], reach_from="A"),
                    cam("play", 3, cards=["red-reverse"], reach_from="B"),
                    cam("play", 4, cards=["red-2"], reach_from="C"))
    assert amendment(reverse, PlayConfig())[0] == "correct"
    assert amendment(reverse, PlayConfig(hidden_back=1))[0] == "correct"
    assert amendment(reverse, PlayConfig(hidden_back=0)) is None
    gamble = table(cam("play", 2, cards=["gamble"], reach_from="A"),
                   cam("play", 3, cards=["blue-2"], reach_from="C"))
    assert amendment(gamble, PlayConfig(hidden_back=0))[2]["effect"] == "skip"
    assert amendment(gamble, PlayConfig(hidden_back=0, gamble_back=0)) is None


def test_a_gamble_read_again_as_a_hit_x_turns_the_card_taken_for_a_play():
    # A's Gamble was said to be a Hit+? (not heard): the reach into the draw
    # pile and the card landing from A's seat were completed as a picture
    # leftover and a play out of turn; read again with the effect, they are
    # the turned card and B owes its value
    from vision.config import PlayConfig
    from vision.reread_tgus_t import camera_amendment, reread

    camera = [cam("start", 1, card="red-5"),
              cam("play", 2, cards=["gamble"], reach_from="A"),
              cam("draw", 3, count=1, reach_from="A"),
              cam("play", 4, cards=["blue-7"], reach_from="A")]
    ref, _, starts = reread(HEADER, camera)
    assert [r.ruling for r in ref.rulings][-1] == "illegal"
    assert len(starts) == len(camera)
    changes, again, _ = camera_amendment(HEADER, camera)
    assert list(changes) == [1] and changes[1]["effect"] == "wild-hit-x"
    assert "inferred_msg" in changes[1]
    assert [e["type"] for e in again.events] == ["start", "play", "turned"]
    assert not [r for r in again.rulings if r.ruling == "illegal"]
    assert again.state()["turn"] == "B" and again.state()["pending_draw"] == 7
    # play.reread_back bounds how far back a camera event is read again
    assert camera_amendment(HEADER, camera, config=PlayConfig(reread_back=1)) is None
    assert camera_amendment(HEADER, camera, config=PlayConfig(reread_back=2))


def test_reread_with_a_change_reads_that_camera_event_otherwise():
    from vision.reread_tgus_t import reread

    camera = [cam("start", 1, card="red-5"),
              cam("play", 2, cards=["red-7"], reach_from="A"),
              cam("play", 3, cards=["red-2"], reach_from="B")]
    ref, _, _ = reread(HEADER, camera, {1: {**camera[1], "cards": ["red-8"]}})
    assert [e.get("cards") for e in ref.events][1] == ["red-8"]
    assert ref.state()["hand_counts"] == {"A": 4, "B": 4, "C": 5}


def test_a_reading_read_on_from_a_copy_is_the_reading_from_the_start():
    from vision.reread_tgus_t import _read, reread

    camera = [cam("start", 1, card="red-5"),
              cam("play", 2, cards=["gamble"], reach_from="A"),
              cam("draw", 3, count=1, reach_from="A"),
              cam("play", 4, cards=["blue-7"], reach_from="A")]
    changes = {1: {**camera[1], "effect": "wild-hit-x"}}
    whole, _, starts = reread(HEADER, camera, changes)
    _, _, base_starts, kept = _read(HEADER, camera, {}, None, keep=frozenset({1}))
    on, _, _, _ = _read(HEADER, camera, changes, None, start=(1, kept[1]))
    assert on.events == whole.events and on.rulings == whole.rulings
    assert starts[:2] == base_starts[:2]
    assert kept[1][0].events == whole.events[:1]  # the copy was not read on


def test_camera_amendment_reads_heard_events_as_they_came_and_stops_at_last():
    from vision.reread_tgus_t import camera_amendment

    camera = [cam("start", 1, card="red-5"),
              cam("play", 2, cards=["gamble"], reach_from="A"),
              {"type": "color", "player": "A", "color": "green", "source": "voice",
               "t": 2.5},
              cam("draw", 3, count=1, reach_from="A"),
              cam("play", 4, cards=["blue-7"], reach_from="A")]
    changes, again, _ = camera_amendment(HEADER, camera)
    assert list(changes) == [1]
    assert [e["type"] for e in again.events] == ["start", "play", "color", "turned"]
    # the heard colour is not counted among the camera events looked back on
    from vision.config import PlayConfig

    assert camera_amendment(HEADER, camera, config=PlayConfig(reread_back=2))
    # nothing before the event named last is illegal: nothing to read again
    assert camera_amendment(HEADER, camera, last=1) is None


def test_a_first_card_landing_in_a_game_under_way_is_a_play_of_the_seat_on_turn():
    # the camera lost the pile and took the next card landing for a first card
    ref = Referee(dict(HEADER))
    done = TgusTHandsFree()
    out = []
    for e in (cam("start", 1, card="red-5"),
              cam("play", 2, cards=["red-7"], reach_from="A"),
              cam("start", 3, card="red-2")):
        for x in done(e, ref.state()):
            out.append(x)
            ref.append(x)
    assert [e["type"] for e in out] == ["start", "play", "play"]
    assert out[-1]["cards"] == ["red-2"] and out[-1]["inferred_msg"]["key"]
    state = ref.state()
    assert state["top"] == "red-2" and state["turn"] == "C"
    assert state["hand_counts"] == {"A": 4, "B": 4, "C": 5}
    assert not [r for r in ref.rulings if r.ruling == "illegal"]


def test_a_first_card_read_again_after_a_lost_pile_reads_on_as_a_play():
    from vision.reread_tgus_t import reread

    referee, _, _ = reread(HEADER, [cam("start", 1, card="red-5"),
                                    cam("play", 2, cards=["red-7"], reach_from="A"),
                                    cam("start", 3, card="red-2"),
                                    cam("play", 4, cards=["red-3"], reach_from="C")])
    assert [e["type"] for e in referee.events] == ["start", "play", "play", "play"]
    assert referee.state()["hand_counts"] == {"A": 4, "B": 4, "C": 4}
    assert not [r for r in referee.rulings if r.ruling == "illegal"]


def test_a_play_of_the_seat_after_the_one_on_turn_is_read_after_a_play_missed():
    # B's play landed unseen: C's play is out of turn until it is read after a
    # play of B's, a card legal on the top that C's card then matches
    from vision.reread_tgus_t import camera_amendment, reread

    camera = [cam("start", 1, card="red-5"),
              cam("play", 2, cards=["red-7"], reach_from="A"),
              cam("play", 4, cards=["blue-9"], reach_from="C")]
    ref, _, _ = reread(HEADER, camera)
    assert [r.ruling for r in ref.rulings][-1] == "illegal"
    changes, again, _ = camera_amendment(HEADER, camera)
    assert list(changes) == [2]
    assert changes[2]["unseen"] == {"seat": "B", "card": "red-9"}
    plays = [e for e in again.events if e["type"] == "play"]
    assert [(e.get("player"), e["cards"]) for e in plays] == [
        ("A", ["red-7"]), ("B", ["red-9"]), ("C", ["blue-9"])]
    assert plays[1]["unseen"] and plays[1]["inferred_msg"]["key"]
    assert not [r for r in again.rulings if r.ruling == "illegal"]
    assert again.state()["hand_counts"] == {"A": 4, "B": 4, "C": 4}


def test_a_play_of_the_top_card_before_an_illegal_line_is_read_as_it_seen_again():
    # the top card seen again as B's play: B's own play then comes out of turn
    from vision.reread_tgus_t import camera_amendment

    camera = [cam("start", 1, card="red-5"),
              cam("play", 2, cards=["red-7"], reach_from="A"),
              cam("play", 3, cards=["red-7"], reach_from="B"),
              cam("play", 4, cards=["red-3"], reach_from="B")]
    changes, again, _ = camera_amendment(HEADER, camera)
    assert changes == {2: None}
    assert [e.get("cards") for e in again.events if e["type"] == "play"] == [
        ["red-7"], ["red-3"]]
    assert not [r for r in again.rulings if r.ruling == "illegal"]
    assert again.state()["hand_counts"] == {"A": 4, "B": 4, "C": 5}


def test_unseen_cards_are_legal_on_the_top_and_make_the_seen_play_match():
    from vision.handsfree_tgus_t import unseen_cards

    state = {"color": "yellow", "top_effect": "2"}
    assert unseen_cards(["green-8"], state) == ["yellow-8", "green-2", "yellow-2"]
    assert unseen_cards(["wild"], state) == ["yellow-2"]


TWO = {**HEADER, "players": ["A", "B"], "dealer": "B"}
#: A plays down to one card, B keeps pace; the game is A's and B's alone
DOWN_TO_ONE = [("A", "red-7"), ("B", "red-8"), ("A", "red-1"), ("B", "red-2"),
               ("A", "red-3"), ("B", "red-4"), ("A", "red-6")]


def _two_seats(*plays):
    ref = Referee(dict(TWO))
    done = TgusTHandsFree()
    ref.append(cam("start", 1, card="red-5"))
    for k, (seat, card) in enumerate(plays):
        for x in done(cam("play", 2 + k, cards=[card], reach_from=seat), ref.state()):
            ref.append(x)
    return ref


def test_a_camera_play_after_the_games_end_contradicts_the_log():
    from vision.handsfree_tgus_t import contradicted, first_after_end

    ref = _two_seats(*DOWN_TO_ONE, ("B", "red-9"), ("A", "red-0"))
    assert ref.state()["over"] and not contradicted(ref, 0)
    end = len(ref.events)
    ref.append({"type": "uno", "player": "B", "source": "voice", "t": 20})
    assert not contradicted(ref, 0)  # what is heard after the end says nothing
    ref.append(cam("play", 21, cards=["red-9"], reach_from="B"))
    ref.append(cam("draw", 22, count=1, reach_from="B"))
    assert contradicted(ref, 0) and contradicted(ref, end + 2)
    assert not contradicted(ref, end + 3)
    # the first camera event after the end asks for a re-read, the next does not
    assert first_after_end(ref, end + 1, end + 2)
    assert not first_after_end(ref, end + 2, end + 3)


def test_no_hidden_card_is_taken_that_ends_the_game_before_a_later_camera_play():
    # A, one card left, is seen playing again out of turn: a second red-6
    # hidden under A's last play would make A go out and end the game, and
    # the play after it would come after the end: no amendment explains it
    from vision.handsfree_tgus_t import amendment

    ref = _two_seats(*DOWN_TO_ONE, ("A", "red-0"))
    assert ref.rulings[-1].ruling == "illegal"
    assert ref.state()["hand_counts"] == {"A": 1, "B": 2}
    assert amendment(ref) is None


def test_a_reading_that_ends_the_game_before_later_camera_plays_is_not_taken():
    # read again, a card hidden under A's play makes A go out; B is then seen
    # playing after the end: that reading leaves the log contradicted
    from vision.reread_tgus_t import camera_amendment, reread

    plays = [*DOWN_TO_ONE, ("A", "red-0"), ("B", "red-9")]
    camera = [cam("start", 1, card="red-5")] + [
        cam("play", 2 + k, cards=[card], reach_from=seat)
        for k, (seat, card) in enumerate(plays)]
    ref, _, _ = reread(TWO, camera)
    assert not ref.state()["over"]
    found = camera_amendment(TWO, camera)
    assert found is None or not found[1].state()["over"]


def test_a_contradiction_is_for_good_once_no_later_amendment_reaches_back_to_it():
    # a reading read on stops there (vision.reread_tgus_t._settled): an
    # amendment changes the last line, a play within play.hidden_back lines
    # before it, or an unsaid Gamble within play.gamble_back lines
    from vision.config import PlayConfig
    from vision.reread_tgus_t import _settled

    config = PlayConfig(hidden_back=2, gamble_back=6)
    for gamble, settled in ((False, [False, True, True, True]),
                            (True, [False, False, True, True])):
        ref = Referee(dict(HEADER))
        ref.append(cam("start", 1, card="red-5"))
        ref.append({**cam("play", 2, cards=["gamble" if gamble else "red-7"]),
                    "player": "A"})
        if gamble:
            ref.append({**cam("color", 2), "player": "A", "color": "red"})
        ref.append({**cam("play", 3, cards=["red-2"]), "player": "C"})  # out of turn
        bad = len(ref.events)
        assert [r.event for r in ref.rulings if r.ruling == "illegal"] == [bad]
        seen = [_settled(ref, 0, config)]
        for k in range(3):
            p = ref.state()["turn"]
            ref.append({**cam("draw", 4 + k, count=1), "player": p})
            ref.append({"type": "pass", "player": p})
            seen.append(_settled(ref, 0, config))
        assert seen == settled
        assert not _settled(ref, bad, config)  # nothing contradicts after it


def test_a_play_seen_after_another_arm_passed_over_the_pile_is_the_seat_on_turns():
    # B (on turn) reached onto the pile; the card was seen landing only after
    # A's arm passed over it on its way to the draw pile: B's play, not A's
    ref, out = run(cam("start", 1, card="red-5"),
                   cam("play", 2, cards=["red-7"], reach_from="A"),
                   cam("play", 4, cards=["red-hit2"], reach_from="A",
                       pile_reaches=["B", "A"]))
    assert out[-1]["player"] == "B" and out[-1]["reach_from"] == "B"
    assert not [r for r in ref.rulings if r.ruling == "illegal"]
    assert ref.state()["pending_target"] == "C"


def test_a_play_whose_reach_is_the_last_players_lingering_arm_is_the_seat_on_turns():
    # C's arm never reached the pile since A's play (not in pile_reaches): the
    # reach is A's arm lingering over its own play, the card B's
    ref, out = run(cam("start", 1, card="red-5"),
                   cam("play", 2, cards=["red-7"], reach_from="A"),
                   cam("play", 3, cards=["red-9"], reach_from="C",
                       pile_reaches=["B"]))
    assert out[-1]["player"] == "B"
    assert not [r for r in ref.rulings if r.ruling == "illegal"]
    assert ref.state()["turn"] == "C"


def test_a_play_no_arm_reached_for_is_the_seat_on_turns_while_a_hit_waits():
    # B answers A's Hit+2 but no arm was seen on the pile since A's play: the
    # reach named is A's, lingering over its own play, so the Hit+2 is B's
    ref, out = run(cam("start", 1, card="red-5"),
                   cam("play", 2, cards=["red-hit2"], reach_from="A"),
                   cam("play", 3, cards=["blue-hit2"], reach_from="A",
                       pile_reaches=[]))
    assert out[-1]["player"] == "B"
    assert not [r for r in ref.rulings if r.ruling == "illegal"]
    assert ref.state()["pending_target"] == "C"
    # a reach seen since the last play, or naming the seat after the one on
    # turn, stands
    for reach, reaches in (("A", ["A"]), ("C", [])):
        _, out = run(cam("start", 1, card="red-5"),
                     cam("play", 2, cards=["red-hit2"], reach_from="A"),
                     cam("play", 3, cards=["blue-hit2"], reach_from=reach,
                         pile_reaches=reaches))
        assert out[-1]["player"] == reach


def test_a_draw_right_after_the_seat_on_turn_drew_is_read_after_a_hit_missed():
    # B drew for its turn and played the card at once, a Reverse Hit+2 the
    # camera missed; A then takes the Hit's cards
    from vision.handsfree_tgus_t import unseen_hits
    from vision.reread_tgus_t import _unseen_readings, reread

    camera = [cam("start", 1, card="red-5"),
              cam("play", 2, cards=["red-7"], reach_from="A"),
              cam("draw", 3, count=1, reach_from="B", pile_reaches=[]),
              cam("draw", 4, count=1, reach_from="A", pile_reaches=["A"])]
    before, _, _ = reread(HEADER, camera[:3])
    state = before.state()
    assert unseen_hits(state) == ["red-reverse-hit2"]
    on_reverse = unseen_hits({**state, "top_effect": "reverse-hit2"})
    assert on_reverse[0] == "red-reverse-hit2" and sorted(on_reverse) == [
        "blue-reverse-hit2", "green-reverse-hit2", "red-reverse-hit2",
        "yellow-reverse-hit2"]
    readings = _unseen_readings(camera[3], state, ["A", "B", "C"], before.events[-1])
    assert [r["unseen"] for r, _ in readings] == [{"seat": "B", "card": "red-reverse-hit2"}]
    assert readings[0][1].data()["key"] == "camera.tgus-t.amended-unseen-hit"
    # not after a line other than the seat on turn's draw, nor for the next
    # seat's draw (B's pass and C's turn draw)
    assert _unseen_readings(camera[3], state, ["A", "B", "C"], before.events[-2]) == []
    assert _unseen_readings({**camera[3], "reach_from": "C"}, state, ["A", "B", "C"],
                            before.events[-1]) == []
    again, _, _ = reread(HEADER, camera, {3: readings[0][0]})
    plays = [e for e in again.events if e["type"] == "play"]
    assert [(e["player"], e["cards"]) for e in plays][-1] == ("B", ["red-reverse-hit2"])
    assert plays[-1]["unseen"]
    assert not [r for r in again.rulings if r.ruling == "illegal"]
    state = again.state()
    assert state["turn"] == "C"
    # one card of the Hit's two seen taken: A holds one more and owes one
    assert state["hand_counts"] == {"A": 5, "B": 5, "C": 5}
    assert state["owed"] == {"A": 1}


def test_a_play_of_the_next_seat_that_reached_keeps_its_reach():
    # the seat after the one on turn reached too: a missed move of B's (or
    # B's turn draw) may explain its play, so the reach stands
    _, out = run(cam("start", 1, card="red-5"),
                 cam("play", 2, cards=["red-7"], reach_from="A"),
                 cam("play", 3, cards=["red-9"], reach_from="C",
                     pile_reaches=["B", "C"]))
    assert out[-1]["player"] == "C"
    _, out = run(cam("start", 1, card="red-5"),
                 cam("draw", 2, count=1, reach_from="A"),
                 cam("play", 3, cards=["red-2"], reach_from="B",
                     pile_reaches=["A"]))
    assert [e["type"] for e in out] == ["draw", "pass", "play"]
    assert out[-1]["player"] == "B"


def test_a_card_hidden_under_a_fan_of_two_colours_is_first_a_twin_of_one_in_sight():
    # C put three Reverses down (the turn comes back to A); the detector's
    # second look names each label of a fan once, so the twin was not seen
    from vision.handsfree_tgus_t import amend_hidden, hidden_colours

    ref = Referee(dict(HEADER))
    done = TgusTHandsFree()
    ref.append(cam("start", 1, card="red-5"))
    for e in (cam("play", 2, cards=["red-reverse"], reach_from="A"),
              cam("play", 3, cards=["red-reverse", "blue-reverse"], reach_from="C"),
              cam("play", 4, cards=["blue-2"], reach_from="A")):
        for x in done(e, ref.state()):
            ref.append(x)
            amend_hidden(ref)
    play = ref.events[2]
    assert play["hidden"] == ["blue-reverse"]
    assert sorted(play["cards"]) == ["blue-reverse", "blue-reverse", "red-reverse"]
    assert not [r for r in ref.rulings if r.ruling == "illegal"]
    assert ref.state()["hand_counts"] == {"A": 3, "B": 5, "C": 2}
    # under a single card, another colour first
    from referee.cards import Card

    assert hidden_colours([Card.from_label("red-7")])[-1] == "red"


def test_two_cards_of_two_colours_none_matching_are_one_misread_not_a_third_hidden():
    # A put red-5 and blue-5 down; the half-covered red-5 was read yellow:
    # one of the two seen is the card that matched, not a third card under them
    ref, out = run(cam("start", 1, card="red-7"),
                   cam("play", 2, cards=["yellow-5", "blue-5"], reach_from="A"))
    play = out[-1]
    assert play["cards"] == ["red-5", "blue-5"] and play["misread"] == ["yellow-5"]
    assert "hidden" not in play and play["inferred_msg"]["key"].endswith("misread")
    assert not [r for r in ref.rulings if r.ruling == "illegal"]
    assert ref.state()["hand_counts"]["A"] == 3
    # a single card, or cards of one colour, still have one hidden under them
    _, out = run(cam("start", 1, card="red-7"),
                 cam("play", 2, cards=["blue-5"], reach_from="A"))
    assert out[-1]["cards"] == ["red-5", "blue-5"] and out[-1]["hidden"] == ["red-5"]


def test_the_card_taken_as_hidden_seen_once_it_peeks_out_is_no_new_play():
    # A put red-5 and blue-5 down; the camera saw blue-5 (red-5 taken as
    # hidden under it), then red-5 once A's arm lifted: the same card
    ref, out = run(cam("start", 1, card="red-7"),
                   cam("play", 2, cards=["blue-5"], reach_from="A"),
                   cam("play", 2.7, cards=["red-5"], reach_from="A",
                       pile_reaches=["B"]),
                   cam("play", 3.5, cards=["blue-3"], reach_from="B",
                       pile_reaches=["B"]))
    assert [(e["type"], e.get("player")) for e in out] == [("play", "A"), ("play", "B")]
    assert out[0]["hidden"] == ["red-5"]
    assert not [r for r in ref.rulings if r.ruling == "illegal"]
    assert ref.state()["hand_counts"] == {"A": 3, "B": 4, "C": 5}
    # an arm back on the pile brought a card of its own
    from vision.handsfree_tgus_t import hidden_seen

    seen = cam("play", 2.7, cards=["red-5"], reach_from="A", pile_reaches=["A"])
    assert not hidden_seen(seen, ("A", ["red-5"]))
    assert not hidden_seen({**seen, "pile_reaches": [], "cards": ["red-5", "blue-5"]},
                           ("A", ["red-5"]))


def test_the_hits_player_taking_cards_while_its_chain_waits_was_countered_unseen():
    # A's Hit+2 aims at B; B's Counter landed unseen and A takes the 2 back
    # (the camera counted one take)
    ref, out = run(cam("start", 1, card="red-5"),
                   cam("play", 2, cards=["red-hit2"], reach_from="A"),
                   cam("draw", 3.5, count=1, reach_from="A"))
    assert [(e["type"], e.get("player")) for e in out] == [
        ("play", "A"), ("play", "B"), ("draw", "A")]
    assert out[1]["cards"] == ["counter"] and out[1]["inferred_msg"]["key"].endswith(
        "inferred-counter")
    assert out[2]["count"] == 2 and out[2]["takes"] == 1
    assert not [r for r in ref.rulings if r.ruling == "illegal"]
    assert ref.state()["hand_counts"] == {"A": 6, "B": 4, "C": 5}
    # another seat taking cards while the chain waits is no Counter of B's
    _, out = run(cam("start", 1, card="red-5"),
                 cam("play", 2, cards=["red-hit2"], reach_from="A"),
                 cam("draw", 3.5, count=2, reach_from="C"))
    assert "counter" not in [c for e in out for c in e.get("cards", [])]
    # the Hit's player seen taking two: a picture leftover's 2, no Counter
    _, out = run(cam("start", 1, card="red-5"),
                 cam("play", 2, cards=["red-hit2"], reach_from="A"),
                 cam("draw", 3.5, count=2, reach_from="A"))
    assert [e["type"] for e in out] == ["play", "picture-leftover", "draw"]


def test_a_replace_aimed_at_the_next_player_is_aimed_elsewhere_when_a_hand_runs_out():
    # C's Replace was taken to aim at A (the next player); A is counted out
    # four plays later and plays on: only a Replace aimed at B explains it
    from vision.handsfree_tgus_t import amend_hidden

    ref = Referee(dict(HEADER))
    done = TgusTHandsFree()
    ref.append(cam("start", 1, card="red-5"))
    moves = [cam("draw", 2, count=1, reach_from="A"),
             cam("draw", 3, count=1, reach_from="B"),
             cam("play", 4, cards=["replace"], reach_from="C")]
    values = [2, 3, 4, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6]
    moves += [cam("play", 5 + k, cards=[f"red-{v}"], reach_from="ABC"[k % 3])
              for k, v in enumerate(values)]
    for e in moves:
        for x in done(e, ref.state()):
            ref.append(x)
            amend_hidden(ref)
    replace = next(e for e in ref.events if e.get("cards") == ["replace"])
    assert replace["target"] == "B" and replace["target_from"] == "amended"
    assert replace["inferred_msg"]["key"] == "camera.tgus-t.amended-target"
    assert not [r for r in ref.rulings if r.ruling == "illegal"]


def test_a_card_under_the_top_reported_again_out_of_turn_is_taken_out_of_the_log():
    # A's red-7 lies under B's red-3 and peeks out as an arm passes: the
    # camera reports it landing again, by A, out of turn (C is on turn)
    from vision.handsfree_tgus_t import amend_hidden, seen_again

    ref = Referee(dict(HEADER))
    ref.append(cam("start", 1, card="red-5"))
    ref.append({**cam("play", 2, cards=["red-7"]), "player": "A"})
    ref.append({**cam("play", 3, cards=["red-3"]), "player": "B"})
    ref.append({**cam("play", 4, cards=["red-7"]), "player": "A"})
    assert seen_again(ref, 4) and not seen_again(ref, 4, plays=1)
    assert amend_hidden(ref)
    assert [e.get("cards") for e in ref.events[1:]] == [["red-7"], ["red-3"]]
    assert not [r for r in ref.rulings if r.ruling == "illegal"]
    assert ref.state()["turn"] == "C"


def test_a_card_no_recent_play_put_down_reported_out_of_turn_stays_illegal():
    from vision.handsfree_tgus_t import amend_hidden, seen_again

    ref = Referee(dict(HEADER))
    ref.append(cam("start", 1, card="red-5"))
    ref.append({**cam("play", 2, cards=["red-7"]), "player": "A"})
    ref.append({**cam("play", 3, cards=["red-3"]), "player": "B"})
    ref.append({**cam("play", 4, cards=["red-7", "red-7"]), "player": "A"})
    assert not seen_again(ref, 4)  # red-7 lies once on the pile, not twice
    assert not amend_hidden(ref)
    assert [r.ruling for r in ref.rulings].count("illegal") == 1


ONE_CARD = {**HEADER, "players": ["A", "B"], "dealer": "B", "hand_size": 1}


def _fed(header, *events):
    ref = Referee(dict(header))
    done = TgusTHandsFree()
    for e in events:
        for x in done(e, ref.state()):
            ref.append(x)
    return ref


def test_a_first_card_after_cards_were_played_past_the_end_is_no_new_round():
    # A's last card ended the game in the log, but the camera sees B play on
    # and then takes a card landing on a pile it lost for a first card: the
    # players play on, so no new round is dealt
    ref = _fed(ONE_CARD, cam("start", 1, card="red-5"),
               cam("play", 2, cards=["red-7"], reach_from="A"),
               cam("play", 3, cards=["red-2"], reach_from="B"),
               cam("start", 4, card="blue-4"))
    assert ref.state()["over"] and ref.state()["rounds"] == 1
    assert [e["type"] for e in ref.events] == ["start", "play", "play", "play"]
    assert ref.events[-1]["cards"] == ["blue-4"] and "inferred_msg" in ref.events[-1]
    assert not [r for r in ref.rulings if r.ruling == "illegal"]


def test_a_first_card_after_the_end_with_no_play_since_is_a_new_round():
    ref = _fed(ONE_CARD, cam("start", 1, card="red-5"),
               cam("play", 2, cards=["red-7"], reach_from="A"),
               cam("draw", 3, count=1, reach_from="B"),
               cam("start", 4, card="blue-4"))
    assert ref.events[-1]["type"] == "start"
    assert ref.state()["rounds"] == 2 and not ref.state()["over"]
