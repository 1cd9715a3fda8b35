"""Attributing a heard UNO call to a player from the referee's state."""

from __future__ import annotations

from referee.session import Referee
from voice.attribution import attribute, previous_player

PLAYERS = ["A", "B", "C", "D"]


def state(counts, turn, direction=1, uno=(), catchable=None, players=True):
    s = {"hand_counts": dict(zip(PLAYERS, counts)), "turn": turn,
         "direction": direction, "uno": list(uno)}
    if players:
        s["players"] = PLAYERS
    if catchable is not None:
        s["catchable"] = list(catchable)
    return s


def test_previous_player_follows_the_direction():
    assert previous_player(state([7] * 4, "C")) == "B"
    assert previous_player(state([7] * 4, "C", direction=-1)) == "D"
    assert previous_player(state([7] * 4, "A")) == "D"
    assert previous_player(state([7] * 4, None)) is None


def test_catchable_player_is_the_caller():
    result = attribute(state([5, 1, 4, 6], "C", catchable=["B"]))
    assert result.player == "B" and "one card" in result.reason


def test_catchable_prefers_the_one_who_just_played():
    result = attribute(state([1, 1, 4, 6], "C", catchable=["A", "B"]))
    assert result.player == "B"


def test_player_to_move_with_two_cards_calls_with_the_next_to_last_card():
    result = attribute(state([5, 3, 2, 6], "C"))
    assert result.player == "C" and "two cards" in result.reason


def test_player_who_just_played_down_to_one_without_catchable_field():
    result = attribute(state([5, 1, 4, 6], "C", direction=1))
    assert result.player == "B"
    reverse = attribute(state([5, 4, 4, 1], "C", direction=-1))
    assert reverse.player == "D"


def test_nobody_near_the_end_gives_no_player_and_a_reason():
    result = attribute(state([5, 4, 4, 6], "C"))
    assert result.player is None and "one or two cards" in result.reason


def test_someone_with_one_card_who_is_neither_mover_nor_last_player_is_not_guessed():
    result = attribute(state([1, 4, 4, 6], "C"))
    assert result.player is None and "A" in result.reason


def test_player_who_already_called_is_not_credited_twice():
    result = attribute(state([5, 1, 4, 6], "C", uno=["B"]))
    assert result.player is None and "already called" in result.reason


def test_recent_voice_event_counts_as_already_called_within_the_repeat_window():
    s = state([5, 1, 4, 6], "C")
    recent = [{"type": "uno", "player": "B", "source": "voice", "t": 10.0}]
    assert attribute(s, recent, now=11.5).player is None
    assert attribute(s, recent, now=30.0).player == "B"


def test_no_hands_yet():
    result = attribute({"turn": None})
    assert result.player is None and "no hands" in result.reason


def test_players_default_to_the_order_of_hand_counts():
    result = attribute(state([5, 1, 4, 6], "C", players=False))
    assert result.player == "B"


def test_with_the_real_referee_state():
    ref = Referee({"type": "game", "game": "uno", "rules": "official",
                   "players": ["A", "B", "C"], "dealer": "A", "hand_size": 2})
    ref.append({"type": "start", "card": "red-5"})
    before = attribute(ref.state())  # B to move with two cards
    assert before.player == "B"
    ref.append({"type": "play", "player": "B", "cards": ["red-7"]})
    assert attribute(ref.state()).player == "B"  # down to one, catchable
    rulings = ref.append({"type": "uno", "player": "B", "source": "voice", "t": 3.0})
    assert [r.rule for r in rulings] == ["official.uno-call"]
    assert rulings[0].ruling == "ok"
    after = attribute(ref.state())  # B called; now C moves with two cards
    assert after.player == "C"


def test_the_down_clock_notes_when_a_player_went_down_to_one_card():
    from voice.attribution import LIKELY_PLAY_S, DownClock

    clock = DownClock()
    clock.observe({"hand_counts": {"A": 1, "B": 2}}, 1.0)  # first look: no change
    assert clock.at == {}
    clock.observe({"hand_counts": {"A": 2, "B": 2}}, 2.0)  # A drew
    clock.observe({"hand_counts": {"A": 1, "B": 2}}, 3.0)  # A played down to one
    assert clock.at == {"A": 3.0}
    assert clock.near("A", 3.0 + LIKELY_PLAY_S) and clock.near("A", 3.0 - LIKELY_PLAY_S)
    assert not clock.near("A", 3.1 + LIKELY_PLAY_S) and not clock.near("B", 3.0)
    clock.observe({"hand_counts": {"A": 1, "B": 1}}, 5.0)
    assert clock.at == {"A": 3.0, "B": 5.0}
    clock.observe({}, 6.0)  # a state without hands changes nothing
    assert clock.counts == {"A": 1, "B": 1}
