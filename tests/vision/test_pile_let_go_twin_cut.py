"""Let go for a twin laid on a copy whose box was cut: the top card's box can
measure under a card's size (cut by an edge, or boxed tight), and a twin
lying on it is boxed whole. Judged grown (``play.let_go_twin_grow``) against
the top card's box taken as at least ``play.let_go_twin_from`` card
sizes, it counts at let go; a copy held over the pile, nearer the camera,
still measures grown and waits for the hand. Hand-made detections at 30 fps
with a referee's state."""

from __future__ import annotations

from tests.vision.pile_table import card
from tests.vision.test_pile_let_go_twin import NEAR, pile_with, reach
from vision.card_scale import card_scale
from vision.config import PlayConfig

CARD = (56.0, 87.0)
CUT = ("red-3", 327.0, 206.0, 52.0, 80.0)  # the copy's box, under a card's size
WHOLE = (58.0, 90.0)  # the twin lying on it, 6 mm off, boxed whole


def twin(y: float = 211.0, touched: bool = True) -> tuple:
    return card("red-3", 331.0, y, *WHOLE, touched=touched)


def sway_then_rest(config: PlayConfig, wh) -> list:  # noqa: ANN001
    """The copy on the pile; seat B's hand brings a red-3 in, seen moving for
    four frames (not shown still from under the hand), then resting on it
    with the hand lingering; the plays made while the hand is there."""
    table = pile_with(config, CUT)
    table.frames(5, [], reach("B", NEAR))
    for y in (202, 205, 208, 211):  # seen in the hand, moving, before it stops
        table.frames(1, [card("red-3", 331.0, y, *wh, touched=True)], reach("B", NEAR))
    return table.frames(20, [card("red-3", 331.0, 214.0, *wh, touched=True)],
                        reach("B", NEAR))


def test_the_sizes_are_as_the_tests_say():
    config = PlayConfig()
    assert card_scale(*CUT[3:], CARD) < 0.95
    grow_old = card_scale(*WHOLE, CARD) - card_scale(*CUT[3:], CARD)
    assert grow_old > config.let_go_twin_grow
    assert card_scale(*WHOLE, CARD) - config.let_go_twin_from <= config.let_go_twin_grow


def test_a_whole_twin_on_a_cut_copy_counts_at_let_go():
    played = sway_then_rest(PlayConfig(), WHOLE)
    assert [c for _, c in played] == [["red-3"]]


def test_a_copy_held_over_a_cut_copy_measuring_larger_waits_for_the_hand():
    held = (66.0, 100.0)  # nearer the camera: grown over a card's size too
    config = PlayConfig()
    assert card_scale(*held, CARD) - config.let_go_twin_from > config.let_go_twin_grow
    assert card_scale(*held, CARD) <= config.let_go_scale
    assert sway_then_rest(config, held) == []


def test_with_the_floor_off_the_cut_box_is_the_reference():
    assert sway_then_rest(PlayConfig(let_go_twin_from=0.0), WHOLE) == []
