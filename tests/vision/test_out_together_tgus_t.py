"""A tgus-t game whose last play held two cards of one value, seen as one:
at the end of the camera's source the game is still under way, and its last
play is read again with the player's last card under it
(vision.handsfree_tgus_t.out_together, vision.completion.Completion.finish)."""

from __future__ import annotations

import io

from referee.session import Referee
from vision.handsfree_tgus_t import TgusTHandsFree
from vision.live import LiveTable
from tests.vision.live_events import cam

HEADER = {"type": "game", "game": "uno", "rules": "tgus-t1",
          "players": ["A", "B"], "dealer": "B", "hand_size": 5, "options": {}}
THREE = {**HEADER, "players": ["A", "B", "C"], "dealer": "C"}
#: A plays down to one card, B down to two; B is on turn
DOWN = [("A", "red-7"), ("B", "red-8"), ("A", "red-1"), ("B", "red-2"),
        ("A", "red-3"), ("B", "red-4"), ("A", "red-6")]


def camera(*plays):
    return [cam("start", 1, card="red-5")] + [
        cam("play", 2 + k, cards=cards if isinstance(cards, list) else [cards],
            reach_from=seat) for k, (seat, cards) in enumerate(plays)]


def refereed(header, events):
    ref = Referee(dict(header))
    done = TgusTHandsFree()
    for e in events:
        if e["type"] == "start":
            ref.append(e)
            continue
        for x in done(e, ref.state()):
            ref.append(x)
    return ref


def test_the_last_play_of_a_game_left_under_way_holds_the_players_last_card():
    from vision.handsfree_tgus_t import out_together

    # B puts red-9 and another 9 down together, its last two cards, and the
    # game is over; the camera saw red-9 alone and the recording ends there
    ref = refereed(HEADER, camera(*DOWN, ("B", "red-9")))
    state = ref.state()
    assert not state["over"] and state["hand_counts"]["B"] == 1
    found = out_together(ref)
    assert found is not None
    assert not ref.state()["over"]  # the referee given is left as it was
    again = found.referee.state()
    assert again["over"] and again["hand_counts"]["B"] == 0
    assert again["ranking"] == ["B", "A"]
    line = found.referee.events[found.line - 1]
    # another colour first (two cards played together are most often of two);
    # on red-6 a yellow 9 can only have been put down after red-9
    assert line["cards"] == ["red-9", "yellow-9"] and line["hidden"] == ["yellow-9"]
    assert "inferred" in line
    assert not any(r.ruling == "illegal" for r in found.referee.rulings)


def test_a_player_counted_with_two_cards_left_put_three_down_together():
    from vision.config import PlayConfig
    from vision.handsfree_tgus_t import out_together

    # B is counted with three cards (not two) when it puts red-9 down last
    ref = refereed(HEADER, camera(*DOWN[:-2], ("A", "red-6"), ("B", "red-9")))
    assert ref.state()["hand_counts"]["B"] == 2 and not ref.state()["over"]
    found = out_together(ref)
    assert found is not None and found.referee.state()["over"]
    line = found.referee.events[found.line - 1]
    assert len(line["cards"]) == 3 and len(line["hidden"]) == 2
    assert all(c.endswith("-9") for c in line["cards"])
    # three cards left: no fan is taken to hide them all
    more = refereed(HEADER, camera(*DOWN[:-4], ("A", "red-6"), ("B", "red-9")))
    assert more.state()["hand_counts"]["B"] == 3
    assert out_together(more) is None
    assert out_together(more, PlayConfig(out_together_max=3)) is not None
    assert out_together(ref, PlayConfig(out_together_max=0)) is None


def test_the_live_table_ends_such_a_game_when_the_recording_ends():
    live = LiveTable(dict(HEADER), out=io.StringIO())
    for e in camera(*DOWN, ("B", "red-9")):
        live.append(e)
    assert not live.state()["over"]
    live.finish()
    state = live.state()
    assert state["over"] and state["ranking"] == ["B", "A"]
    assert "[amended]" in live.out.getvalue()


def test_a_game_whose_camera_a_person_stopped_is_not_read_as_over():
    # quitting `watch` mid-game (the camera stopped, not a recording played
    # out): what is held still goes in, but the last play is read as seen
    live = LiveTable(dict(HEADER), out=io.StringIO())
    for e in camera(*DOWN, ("B", "red-9")):
        live.append(e)
    live.close(ended=False)
    state = live.state()
    assert not state["over"] and state["hand_counts"]["B"] == 1
    assert "[amended]" not in live.out.getvalue()


def test_no_card_is_added_where_the_game_goes_on_or_is_over():
    from vision.handsfree_tgus_t import out_together

    # B keeps three cards: no fan is taken to have hidden them all
    assert out_together(refereed(HEADER, camera(*DOWN[:-3]))) is None
    # the game already over (A out with its last card)
    over = refereed(HEADER, camera(*DOWN, ("B", "red-9"), ("A", "red-0")))
    assert over.state()["over"] and out_together(over) is None
    # three players in: one going out would not end the game
    three = [("A", "red-7"), ("B", "red-8"), ("C", "red-1"), ("A", "red-2"),
             ("B", "red-3"), ("C", "red-4"), ("A", "red-6"), ("B", "red-9"),
             ("C", "red-0"), ("A", "red-2")]
    ref = refereed(THREE, camera(*three))
    assert ref.state()["hand_counts"]["A"] == 1 and not ref.state()["over"]
    assert out_together(ref) is None


def test_no_card_is_added_where_the_camera_saw_the_game_go_on():
    from vision.handsfree_tgus_t import out_together

    # a camera draw after B's play would come after the game's end
    events = camera(*DOWN, ("B", "red-9")) + [cam("draw", 20, count=1,
                                                  reach_from="A")]
    ref = refereed(HEADER, events)
    assert not ref.state()["over"]
    assert out_together(ref) is None


def _logged(header, plays):
    """A log of camera plays as the completion left them (seats given)."""
    ref = Referee(dict(header))
    ref.append(cam("start", 1, card="red-5"))
    for k, (seat, cards) in enumerate(plays):
        ref.append({**cam("play", 2 + k, cards=cards), "player": seat})
    return ref


#: A, B, C play down to two cards each, A to one (B is on turn)
THREE_DOWN = [("A", ["red-7"]), ("B", ["red-8"]), ("C", ["red-1"]),
              ("A", ["red-2"]), ("B", ["red-3"]), ("C", ["red-4"]),
              ("A", ["red-6"]), ("B", ["red-5"]), ("C", ["red-9"]),
              ("A", ["red-1"])]


def test_no_card_is_taken_as_hidden_that_the_deck_does_not_hold_twice():
    # a 0 is printed once a colour: red-0 under red-0 is no reading
    from vision.handsfree_tgus_t import amendment

    # B is counted one card too many (its red-0 emptied its hand) and is
    # seen skipped: C plays red-4, A draws and passes, C plays red-2. Only a second red-0
    # would keep the colour red: no reading, and the log stays as it is
    ref = _logged(THREE, THREE_DOWN + [("B", ["red-0"]), ("C", ["red-4"])])
    ref.append({**cam("draw", 30, count=1), "player": "A"})
    ref.append({"type": "pass", "player": "A"})
    ref.append({**cam("play", 31, cards=["red-2"]), "player": "C"})
    assert ref.state()["hand_counts"]["B"] == 1
    assert ref.rulings[-1].ruling == "illegal"
    found = amendment(ref)
    assert found is None or found[2] is None or found[2]["cards"].count("red-0") < 2


def test_a_play_holds_no_label_more_often_than_the_deck_prints_it():
    from vision.handsfree_tgus_t import deck_holds

    assert not deck_holds(["red-0", "red-0"], THREE)
    assert deck_holds(["red-0", "blue-0"], THREE)
    assert deck_holds(["red-9", "red-9"], THREE)
    assert not deck_holds(["red-9"] * 3, THREE)
    assert deck_holds(["red-0", "red-0"], {**THREE, "options": {"deck_size": 244}})
