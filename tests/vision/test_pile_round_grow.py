"""A card held above the table is nearer the camera: its box grows on every
side. A box larger than a card on one side only lies on the pile, boxed with
what lies at that end (fingers lingering on it, the edges of the cards
below). Under the hand that put it down, such a box counts at let go:

- a copy of the top card whose box the fingers lengthen at one end, on a top
  card boxed tight, is not "grown" (``play.let_go_twin_grow``) over it;
- a card on a messy pile measuring over ``play.max_scale``, no larger on
  every side than the top card (boxed as loose), is no card held up.

A copy or a card held over the pile, larger on every side, still waits for
the hand. Hand-made detections at 30 fps with a referee's state."""

from __future__ import annotations

from tests.vision.pile_table import PILE, card
from tests.vision.test_pile_let_go_twin import FPS, NEAR, pile_with, reach
from vision import pile
from vision.card_scale import card_scale
from vision.config import PlayConfig

CARD = (56.0, 87.0)
TIGHT = ("red-3", 327.0, 206.0, 75.3, 99.9)  # the copy, boxed tight
FINGERS = (74.2, 103.3)  # the twin on it, its box lengthened at one end


def sway_then_rest(config: PlayConfig, top, label: str, wh, x: float = 331.0):  # noqa: ANN001
    """``top`` on the pile; seat B's hand brings a card of ``label`` in, seen
    moving for four frames (not shown still from under the hand), then
    resting on it with the hand lingering; the plays while the hand is there."""
    table = pile_with(config, top)
    table.frames(5, [], reach("B", NEAR))
    for y in (202, 205, 208, 211):  # seen in the hand, moving, before it stops
        table.frames(1, [card(label, x, y, *wh, touched=True)], reach("B", NEAR))
    return table.frames(20, [card(label, x, 214.0, *wh, touched=True)],
                        reach("B", NEAR))


def test_the_sizes_are_as_the_tests_say():
    config = PlayConfig()
    grow = card_scale(*FINGERS, CARD) - card_scale(*TIGHT[3:], CARD)
    assert grow > config.let_go_twin_grow  # grown by the scale alone
    assert card_scale(*FINGERS, CARD) <= config.let_go_scale
    assert pile.grown_round(FINGERS, TIGHT[3:]) < 0  # narrower: no lift


def test_a_twin_lengthened_at_one_end_by_fingers_counts_at_let_go():
    played = sway_then_rest(PlayConfig(), TIGHT, "red-3", FINGERS)
    assert [c for _, c in played] == [["red-3"]]


def test_a_copy_held_over_the_pile_larger_on_every_side_waits_for_the_hand():
    held = (79.5, 106.0)  # nearer the camera: every side larger
    config = PlayConfig()
    assert pile.grown_round(held, TIGHT[3:]) > PlayConfig().round_grow
    assert card_scale(*held, CARD) - card_scale(*TIGHT[3:], CARD) > config.let_go_twin_grow
    assert card_scale(*held, CARD) <= config.let_go_scale
    assert sway_then_rest(config, TIGHT, "red-3", held) == []


def test_with_the_round_check_off_the_fingers_make_the_twin_wait():
    assert sway_then_rest(PlayConfig(round_grow=0.0), TIGHT, "red-3", FINGERS) == []


LOOSE_TOP = ("red-3", *PILE, 84.0, 112.0)  # the top card, boxed with edges below
ON_IT = (86.0, 120.0)  # a card laid on it, boxed loose the same way


def test_a_loose_box_over_max_scale_on_a_loose_top_counts_at_let_go():
    config = PlayConfig()
    assert card_scale(*ON_IT, CARD) > config.max_scale
    assert card_scale(*ON_IT, CARD) <= config.loose_scale
    assert pile.grown_round(ON_IT, LOOSE_TOP[3:]) <= PlayConfig().round_grow
    played = sway_then_rest(config, LOOSE_TOP, "red-5", ON_IT, x=PILE[0])
    assert [c for _, c in played] == [["red-5"]]


def test_a_card_held_over_a_loose_top_larger_on_every_side_waits_for_the_hand():
    held = (90.0, 126.0)
    config = PlayConfig()
    assert card_scale(*held, CARD) > config.max_scale
    assert pile.grown_round(held, LOOSE_TOP[3:]) > PlayConfig().round_grow
    assert sway_then_rest(config, LOOSE_TOP, "red-5", held, x=PILE[0]) == []


def test_with_the_round_check_off_a_box_over_max_scale_waits_for_the_hand():
    assert sway_then_rest(PlayConfig(round_grow=0.0), LOOSE_TOP, "red-5", ON_IT,
                          x=PILE[0]) == []


def test_the_loose_box_once_the_hand_left_counts_at_the_settle_time():
    """Untouched, no hand in the zone: a box over max_scale measuring as the
    loose top card counts after the settle time, not ``play.loose_s``."""
    config = PlayConfig()
    table = pile_with(config, LOOSE_TOP)
    table.frames(5, [], reach("B", NEAR))
    left = table.t
    played = table.frames(int(config.loose_s * FPS), [card("red-5", *PILE, *ON_IT)])
    assert [c for _, c in played] == [["red-5"]]
    assert played[0][0] - left < config.loose_s / 2


def test_a_card_held_up_turned_a_quarter_from_the_top_card_has_grown_round():
    # a card held 1.3 times up over the pile, turned a quarter from the top
    # card: its box's long side lies along the top's short one
    top = (56.0, 87.0)
    held = (87.0 * 1.3, 56.0 * 1.3)
    assert pile.grown_round(held, top) > PlayConfig().round_grow
    # the same box lying flat, grown at one end only, has not
    assert pile.grown_round((87.0 * 1.1, 56.0), top) <= PlayConfig().round_grow
