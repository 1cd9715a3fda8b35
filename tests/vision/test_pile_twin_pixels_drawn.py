"""After the player to move drew (its pass not told yet), the next seat draws
too and, while that draw is still being counted, plays the card it drew: a
copy of the top card, laid neatly on it. Its drawing arm passing over the
pile may shift the top card's box just as such a copy would, so the copy is
expected only where the top card's pixels are sure a card lies on it
(``PileMemory.twin_if_laid``, :meth:`vision.pile_memory.PileMemory._pixels_sure`)."""

from __future__ import annotations

from tests.vision.test_pile_twin_pixels import PILE, PLAYERS, print_of, scene, with_top
from vision.hands import Reach

DRAW = (202.0, 210.0)  # the default draw zone's centre on a 560 x 420 mm table


def _c_draws(table, laid):  # noqa: ANN001, ANN202
    """B drew and passed unheard; C's arm dwells on the draw pile, then
    reaches onto the discard pile: C's draw is still being counted."""
    table.state.update(phase="drawn", turn="B", players=list(PLAYERS), direction=1)
    table.frames(8, laid, ("red-5", PILE), [Reach("C", DRAW, 8000.0)])
    table.frames(3, laid, ("red-5", PILE))
    seven = print_of(7)
    table.frames(3, scene([(seven, *PILE, 0)]), None, [Reach("C", PILE, 9000.0)])
    assert table.plays._pending_draw is not None
    assert table.plays._pending_draw["seat"] == "C"


def test_a_copy_drawn_and_played_at_once_is_a_play_by_its_pixels():
    table, seven, five, laid = with_top()
    _c_draws(table, laid)
    xy = (PILE[0] + 0.4, PILE[1])
    twin = scene([(seven, *PILE, 0), (five, *PILE, 0), (print_of(5), *xy, 2.0)])
    assert table.frames(10, twin, ("red-5", xy)) == [["red-5"]]


def test_the_top_shifted_by_the_drawing_arm_with_its_pixels_unchanged_is_no_twin():
    """C's arm passed over the pile and the finder's box of the top card
    settles 4 mm off: the pixels are those the top card showed, so C laid
    nothing there (the box's shift alone does not count for C's copy)."""
    table, _, _, laid = with_top()
    _c_draws(table, laid)
    shifted = (PILE[0] + 4.0, PILE[1])
    assert table.frames(10, laid, ("red-5", shifted)) == []


def test_a_card_of_another_label_needs_no_pixels():
    """C plays the card it drew, not a copy of the top card: a play as before."""
    table, seven, five, laid = with_top()
    _c_draws(table, laid)
    xy = (PILE[0] + 6.0, PILE[1] + 3.0)
    other = scene([(seven, *PILE, 0), (five, *PILE, 0), (print_of(9), *xy, 5.0)])
    assert table.frames(10, other, ("red-9", xy)) == [["red-9"]]
