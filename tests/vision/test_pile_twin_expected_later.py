"""A decided box judged again when the referee comes to expect a twin.

A copy of the top card laid by a seat the referee does not expect to play
yet (the pass of the player before it still unheard, a draw still being
counted) is taken for the top card: its box settles and is decided. When
the referee's state changes and a twin from that arm becomes expected, the
box is judged again, as the pile memory's twin checks would have judged it
then; the top card under an arm that only passed stays the top card.
Hand-made detections at 30 fps with a referee's state."""

from __future__ import annotations

from tests.vision.pile_table import card
from tests.vision.test_pile_let_go_twin import COPY, NEAR, TWIN, pile_with, reach
from vision.config import PlayConfig


def laid_unexpected(config: PlayConfig, rows_in_hand, rows_after):  # noqa: ANN001
    """The copy on the pile, seat A to move; seat B's arm comes in with
    ``rows_in_hand`` and leaves ``rows_after``; the table, and the plays
    made meanwhile."""
    table = pile_with(config, COPY)
    table.turn("A", COPY[0])
    table.frames(5, [], reach("B", NEAR))
    played = table.frames(10, rows_in_hand, reach("B", NEAR))
    played += table.frames(12, rows_after)
    return table, played


def test_a_twin_settled_before_it_was_expected_counts_once_it_is():
    config = PlayConfig()
    table, played = laid_unexpected(config, [TWIN], [card(*TWIN[:5])])
    assert played == []  # not B's turn: the box is the top card
    table.turn("B", COPY[0])  # A's pass heard: B was to move after all
    played = table.frames(6, [card(*TWIN[:5])])
    assert [c for _, c in played] == [["red-3"]]
    assert table.frames(20, [card(*TWIN[:5])]) == []  # and once only


def test_the_top_card_an_arm_only_passed_stays_the_top_card():
    config = PlayConfig()
    top = card(*COPY)
    table, played = laid_unexpected(config, [card(*COPY, touched=True)], [top])
    assert played == []
    table.turn("B", COPY[0])
    assert table.frames(20, [top]) == []


def test_no_change_in_the_referee_no_second_judgement():
    config = PlayConfig()
    table, played = laid_unexpected(config, [TWIN], [card(*TWIN[:5])])
    assert played == []
    assert table.frames(20, [card(*TWIN[:5])]) == []
