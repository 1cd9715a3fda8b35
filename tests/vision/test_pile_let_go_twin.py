"""Let go for the slow cases of issue 25's latency: a twin put on its copy by
a hand that lingers on it, and a card whose box takes in more than the card
(fingers, the edges of the cards below) under that hand. Each counts at let
go when the evidence says the top changed or the card came to rest; a card
held over the pile, or the top card under a hand that brought nothing, does
not. Hand-made detections at 30 fps with a referee's state."""

from __future__ import annotations

from tests.vision.pile_table import PILE, PileTable, card, lay_top
from vision.config import PlayConfig
from vision.hands import Reach

FPS = 30.0
NEAR = (PILE[0] - 40, PILE[1] + 40)  # a lingering hand's tip, beside its card


class Table(PileTable):
    """Frames through a tracker and the play detector, with a referee's state."""

    def __init__(self, config: PlayConfig, seat: str, top: str):
        super().__init__(config, FPS, state={})
        self.turn(seat, top)

    def turn(self, seat: str, top: str) -> None:
        self.state.update(phase="turn", turn=seat, top=top,
                          color=top.split("-")[0], pending_draw=0)


def reach(seat: str, tip=PILE) -> list[Reach]:
    return [Reach(seat, tip, 9000.0)]


def pile_with(config: PlayConfig, top) -> Table:
    """red-7 on the pile, then ``top`` (label, x, y, w, h) put on by seat C
    and left alone; seat B to move."""
    return lay_top(Table(config, "C", "red-7"), top)


COPY = ("red-3", 327.0, 206.0, 84.0, 107.0)
TWIN = card("red-3", 331.0, 211.0, 84.0, 107.0, touched=True)  # 6 mm off


def test_a_twin_under_the_hand_that_put_it_down_counts_before_the_hand_leaves():
    config = PlayConfig()
    table = pile_with(config, COPY)
    table.frames(5, [], reach("B", NEAR))  # the hand brings it in over the pile
    let_go = table.t
    played = table.frames(20, [TWIN], reach("B", NEAR))  # the hand stays on it
    assert [c for _, c in played] == [["red-3"]]
    assert played[0][0] - let_go <= 0.2  # a settle time, not the 0.67 s it stays
    leave = card(*TWIN[:5])  # the hand leaves: the same card, no second play
    assert table.frames(12, [leave]) == []


def test_with_let_go_twin_off_the_twin_waits_for_the_hand_to_leave():
    config = PlayConfig(let_go_twin=False)
    table = pile_with(config, COPY)
    table.frames(5, [], reach("B", NEAR))
    assert table.frames(20, [TWIN], reach("B", NEAR)) == []
    assert [c for _, c in table.frames(12, [card(*TWIN[:5])])] == [["red-3"]]


def test_the_top_card_under_a_hand_that_brought_nothing_is_no_play():
    """The player to move rests a hand on the pile (or pauses there on the way
    to the draw pile): the top card shows where it lay, touched, still."""
    config = PlayConfig()
    table = pile_with(config, COPY)
    rest = card(*COPY, touched=True)
    assert table.frames(20, [rest], reach("B", NEAR)) == []
    assert table.frames(12, [card(*COPY)]) == []


def test_a_copy_from_a_seat_not_expected_to_play_waits_for_the_hand_to_leave():
    """Seat A is not to move: the referee expects no twin from its arm, so a
    copy of the top card under its hand is not judged at let go."""
    config = PlayConfig()
    table = pile_with(config, COPY)
    table.frames(5, [], reach("A", NEAR))
    assert table.frames(20, [TWIN], reach("A", NEAR)) == []


# a box about 1.2 card sizes (over let_go_scale, under max_scale): a card
# under a hand, the box taking in fingers and the edges of the cards below
LOOSE = (79.0, 113.0)


def test_a_loose_box_that_shows_still_from_under_the_hand_counts_after_the_settle():
    config = PlayConfig()
    table = pile_with(config, ("red-3", *PILE, 84.0, 107.0))
    table.frames(5, [], reach("B", NEAR))  # the hand over the pile hides it
    let_go = table.t
    played = table.frames(20, [card("red-5", 328, 207, *LOOSE, True)], reach("B", NEAR))
    assert [c for _, c in played] == [["red-5"]]
    assert played[0][0] - let_go < config.let_go_loose_s


def test_a_loose_box_swaying_before_it_pauses_waits_let_go_loose_s():
    """A card held over the pile shows swaying, then pauses for a settle's
    frames: with let_go_hidden_s it still must lie still let_go_loose_s
    (where a box that size waits: ``let_go_loose_scale`` under it)."""
    config = PlayConfig(let_go_loose_scale=1.15)
    table = pile_with(config, ("red-3", *PILE, 84.0, 107.0))
    table.frames(2, [], reach("B", NEAR))
    for x in (322, 325, 328, 331, 334, 331):  # swaying with the hand
        table.frames(1, [card("red-5", x, 207, *LOOSE, True)], reach("B", NEAR))
    pause = int(config.let_go_loose_s * FPS) - 1
    held = card("red-5", 328, 207, *LOOSE, True)
    assert table.frames(pause, [held], reach("B", NEAR)) == []
    table.frames(4, [card("red-5", 333, 207, *LOOSE, True)], reach("B", NEAR))
    # lying still the loose time: a card that came to rest after all
    played = table.frames(int(config.let_go_loose_s * FPS) + 6,
                          [card("red-5", 333, 207, *LOOSE, True)], reach("B", NEAR))
    assert [c for _, c in played] == [["red-5"]]


def test_with_let_go_hidden_off_a_loose_box_waits_let_go_loose_s():
    config = PlayConfig(let_go_hidden_s=0.0, let_go_loose_scale=1.15)
    table = pile_with(config, ("red-3", *PILE, 84.0, 107.0))
    table.frames(5, [], reach("B", NEAR))
    let_go = table.t
    played = table.frames(20, [card("red-5", 328, 207, *LOOSE, True)], reach("B", NEAR))
    assert [c for _, c in played] == [["red-5"]]
    assert played[0][0] - let_go >= config.let_go_loose_s - 1e-6


def test_a_twin_boxed_larger_than_its_copy_counts_when_it_shows_still_from_under_the_hand():
    """The twin's box takes in the fingers over it (0.08 card sizes more than
    its copy's): it counts at let go only when it showed still from under the
    hand that hid the pile; shown swaying in the hand first, it waits."""
    config = PlayConfig()
    grown = card("red-3", 325.0, 210.0, 88.0, 113.0, touched=True)
    table = pile_with(config, COPY)
    table.frames(5, [], reach("B", NEAR))
    assert [c for _, c in table.frames(20, [grown], reach("B", NEAR))] == [["red-3"]]
    table = pile_with(config, COPY)
    table.frames(5, [], reach("B", NEAR))
    for y in (204, 207, 210, 213):  # seen in the hand, moving, before it stops
        table.frames(1, [card("red-3", 325.0, y, 88.0, 113.0, True)], reach("B", NEAR))
    assert table.frames(20, [grown], reach("B", NEAR)) == []


def test_by_default_a_loose_box_within_the_pile_counts_after_the_let_go_frames():
    """A card put on the pile, boxed with the edges of the cards below, under
    the hand that let go of it: with ``let_go_loose_scale`` at its default
    (``max_scale``) it counts as soon as it lay still ``let_go_frames`` reads,
    not ``let_go_loose_s``; a smaller ``let_go_loose_scale`` makes it wait."""
    for loose_scale, wait in ((PlayConfig().let_go_loose_scale, False), (1.15, True)):
        config = PlayConfig(let_go_hidden_s=0.0, let_go_loose_scale=loose_scale)
        assert config.let_go_frames / FPS < config.let_go_loose_s
        table = pile_with(config, ("red-3", *PILE, 84.0, 107.0))
        table.frames(5, [], reach("B", NEAR))
        let_go = table.t
        played = table.frames(20, [card("red-5", 328, 207, *LOOSE, True)], reach("B", NEAR))
        assert [c for _, c in played] == [["red-5"]]
        waited = played[0][0] - let_go >= config.let_go_loose_s - 1e-6
        assert waited == wait, (loose_scale, played[0][0] - let_go)
