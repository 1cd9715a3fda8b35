"""A second copy of a card lying deep in the pile, put on the top card: its
box may measure less than a whole card (``play.shrunk`` of the lower copy's
size) and lie within that copy's box, as a part of the lower copy peeking out
would. But it lies on the top card, no other whole card shows there (the top
card is covered) and no hand is over it: it covers the top card, so it is a
card put down, not the lower copy peeking out from under the cards above."""

from __future__ import annotations

from tests.vision.test_pile_twins import card, pile_with, reach

TOP = ("green-6", 331.0, 212.0, 58.0, 88.0)
# the new copy's box: 0.82 card sizes, 12 mm off the lower copy (which lies at
# the pile's centre, a whole card's box), within its box, on the top card
NEW = ("wild-draw4", 332.0, 198.0, 50.0, 74.0)


def _pile():
    """The lower copy, a red-7 on it, then the top card (green-6): B to move."""
    table = pile_with(("red-7", 330, 210, 57, 88), below=("red-3", "wild-draw4"))
    table.frames(4, [], reach("C"))
    assert [e["cards"] for e in table.frames(8, [card(*TOP)])] == [["green-6"]]
    table.turn("B", "green-6")
    table.frames(8, [card(*TOP)])
    return table


def test_a_small_box_covering_the_top_card_is_a_play_of_a_lower_cards_label():
    table = _pile()
    # B's arm brings the card in and lets go, then leaves
    table.frames(3, [card(*NEW, touched=True)], reach("B"))
    events = table.frames(12, [card(*NEW)])
    assert [e["cards"] for e in events] == [["wild-draw4"]]


def test_a_lower_copy_peeking_out_beside_the_top_card_in_view_is_no_play():
    """The top card in view, whole: a small box of the lower copy's label is
    that copy peeking out."""
    table = _pile()
    table.frames(3, [card(*TOP)], reach("B"))
    peek = ("wild-draw4", 322.0, 198.0, 50.0, 74.0)
    events = table.frames(12, [card(*TOP), card(*peek)])
    assert events == []
