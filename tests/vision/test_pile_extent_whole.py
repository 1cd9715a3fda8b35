"""The stacked pile's extent takes each card's box as at least
``play.whole_min`` card sizes about its centre
(:meth:`vision.pile.PileWatcher._whole_wh`): a round's first card boxed short
by the finder still covers a whole card, and a card put on it measuring a
little over ``play.let_go_scale`` (a card lying flat under the fingers that
let go of it) lies within that card's extent, judged at let go; one sticking
out past a whole card's extent still waits for the hand to leave.
Hand-made detections at 30 fps with a referee's state."""

from __future__ import annotations

from tests.vision.pile_table import PILE, card
from tests.vision.test_pile_lingering_twin import Table, reach
from vision.card_scale import card_scale
from vision.config import PlayConfig

CARD = (56.0, 87.0)
SHORT = (48.0, 75.0)  # the round's first card, boxed short by the finder
PUT = (65.0, 101.0)  # the card put on it, under the fingers that let go of it
TIP = (PILE[0], PILE[1] + 45.0)  # the lingering hand's tip at the card's near end


def test_the_boxes_are_as_the_tests_say():
    config = PlayConfig()
    assert card_scale(*SHORT, CARD) < config.whole_min
    assert config.let_go_scale < card_scale(*PUT, CARD) < config.max_scale
    # the card put on the pile sticks out of the short box's extent at both
    # ends (same_spot_mm to spare), and lies within a whole card's
    spare = config.same_spot_mm
    assert PUT[1] / 2 > SHORT[1] / 2 + spare
    whole = CARD[1] * config.whole_min
    assert PUT[1] / 2 <= whole / 2 + spare


def played(dy: float = 0.0, config: PlayConfig | None = None) -> tuple[list, float]:
    """red-7 alone on the pile, boxed short; seat B's hand hides the pile,
    then rests with a red-2 under its fingers (``dy`` mm off the pile's
    centre); the plays while the hand lingers, and when it came to rest."""
    table = Table("C", "red-7", config)
    table.frames(12, [card("red-7", *PILE, *SHORT)])
    table.turn("B", "red-7")
    table.frames(8, [card("red-7", *PILE, *SHORT)])
    table.frames(5, [], reach("B", TIP))
    rest = table.t
    put = [card("red-2", PILE[0], PILE[1] + dy, *PUT, touched=True)]
    return table.frames(20, put, reach("B", TIP)), rest


def test_a_card_on_a_pile_boxed_short_is_a_play_at_let_go():
    plays, rest = played()
    assert [c for _, c in plays] == [["red-2"]]
    assert plays[0][0] - rest < 0.3


def test_off_it_waits_for_the_hand():
    plays, _ = played(config=PlayConfig(extent_whole=False))
    assert plays == []


def test_one_sticking_out_past_a_whole_cards_extent_waits_for_the_hand():
    plays, _ = played(dy=-20.0)
    assert plays == []


def test_a_box_short_on_one_side_is_grown_on_that_side_only():
    # boxed short at one end, or along one edge: only that side is grown, to
    # play.whole_min of the card's side; a card's whole side stays as it is
    watcher = Table("C", "red-7").plays.watcher
    floor = PlayConfig().whole_min
    assert watcher._whole_wh((56.0, 70.0)).tolist() == [56.0, floor * 87.0]
    assert watcher._whole_wh((40.0, 87.0)).tolist() == [floor * 56.0, 87.0]
    assert watcher._whole_wh((87.0, 40.0)).tolist() == [87.0, floor * 56.0]
    assert watcher._whole_wh((60.0, 90.0)).tolist() == [60.0, 90.0]
    off = Table("C", "red-7", PlayConfig(extent_whole=False)).plays.watcher
    assert off._whole_wh((56.0, 70.0)).tolist() == [56.0, 70.0]
