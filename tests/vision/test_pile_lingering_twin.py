"""A twin put down under a hand that lingers over the pile, and one card the
detector boxes twice as it lands.

A copy of the top card laid on it while the arm's tip stays in the discard
zone shows untouched for a settle's frames before the arm leaves: those reads
come after the arm came, so they are no look the top card showed before it
(``PileMemory._lay_before``), and the twin is a play. A look the top card
showed untouched before the arm came stays the top card's, however long the
arm lingers.

Among the cards landing in one frame, two boxes of one label whose centres
each lie inside the other's box are one card boxed twice (the card alone, and
the card with an edge of the one below): one card lands. Two copies laid side
by side in one frame are two.

Hand-made detections at 30 fps with a referee's state."""

from __future__ import annotations

from tests.vision.pile_table import PILE, PLAYERS, PileTable, card, lay_top
from vision.card_scale import card_scale
from vision.config import PlayConfig
from vision.geometry import TableGeometry
from vision.hands import Reach

FPS = 30.0
#: the top card, a wild draw four, lying whole on the pile
COPY = ("wild-draw4", 330.0, 210.0, 84.0, 107.0)
#: the twin laid on it: the same track continues, its box 9 mm larger each
#: way and 3 mm off (turned a little against its copy)
TWIN = ("wild-draw4", 332.0, 212.0, 93.0, 116.0)


class Table(PileTable):
    """Frames through a tracker and the play detector, with a referee's state."""

    def __init__(self, seat: str, top: str, config: PlayConfig | None = None):
        super().__init__(config or PlayConfig(), FPS, state={})
        self.turn(seat, top)

    def turn(self, seat: str, top: str) -> None:
        self.state.update(
            phase="turn", turn=seat, top=top, players=list(PLAYERS),
            color=top.split("-")[0], pending_draw=0, direction=1,
        )


def reach(seat: str, tip=PILE) -> list[Reach]:
    return [Reach(seat, tip, 9000.0)]


def pile_with(top) -> Table:
    """red-7 on the pile, then ``top`` (label, x, y, w, h) put on by seat C
    and left alone; seat B to move."""
    return lay_top(Table("C", "red-7"), top)


def plays(table: Table) -> list[tuple[list[str], str | None]]:
    """The cards of each play so far, and the seat whose arm played them."""
    return [
        (e["cards"], e.get("reach_from")) for e in table.events if e["type"] == "play"
    ]


def test_a_twin_laid_under_a_lingering_hand_is_a_play_of_the_seat_to_move():
    """B's hand lays the twin and stays over the pile, not touching the
    twin's box: the twin shows untouched for a settle's frames and more
    while the arm's tip is in the zone."""
    table = pile_with(COPY)
    before = len(plays(table))
    # B's hand comes over the top card with the twin and lays it
    table.frames(3, [card(*COPY, touched=True)], reach("B"))
    table.frames(2, [card(*TWIN, touched=True)], reach("B"))
    # the hand lingers: its tip stays in the zone, the twin shows untouched
    table.frames(10, [card(*TWIN)], reach("B"))
    table.frames(12, [card(*TWIN)])  # the arm has left
    assert plays(table)[before:] == [(["wild-draw4"], "B")]


def test_a_look_of_the_top_card_before_a_lingering_arm_came_is_no_twin():
    """The top card's box flips to another look of its own (the TWIN box,
    untouched) with no arm near; B's arm then reaches in, brushes the pile
    and lingers there, and leaves: no card that arm put down."""
    table = pile_with(COPY)
    before = len(plays(table))
    table.frames(10, [card(*TWIN)])
    table.frames(2, [card(*TWIN, touched=True)], reach("B"))
    table.frames(10, [card(*TWIN)], reach("B"))
    table.frames(12, [card(*TWIN)])
    assert plays(table)[before:] == []


# one card boxed twice as it lands: the card alone, and the card with an
# edge of the card below (IoU about 0.5: non-maximum suppression keeps both),
# each box's centre inside the other
ALONE = ("red-3", 330.0, 210.0, 76.0, 91.0)
LOOSE = ("red-3", 345.0, 228.0, 95.0, 111.0)


def _iou(a, b) -> float:  # noqa: ANN001
    """Intersection over union of two boxes (label, x, y, w, h)."""
    inter = 1.0
    for k in range(2):
        lo = max(a[1 + k] - a[3 + k] / 2, b[1 + k] - b[3 + k] / 2)
        hi = min(a[1 + k] + a[3 + k] / 2, b[1 + k] + b[3 + k] / 2)
        inter *= max(0.0, hi - lo)
    return inter / (a[3] * a[4] + b[3] * b[4] - inter)


def _scale(box) -> float:  # noqa: ANN001
    """How many card sizes a box (label, x, y, w, h) measures."""
    return card_scale(box[3], box[4], TableGeometry.default((560, 420), PLAYERS).card)


def test_one_card_boxed_twice_as_it_lands_is_one_card():
    """The box nearer a card's size is the one kept."""
    assert 0.45 < _iou(ALONE, LOOSE) < 0.55
    for a, b in ((ALONE, LOOSE), (LOOSE, ALONE)):  # each centre inside the other
        assert abs(a[1] - b[1]) <= b[3] / 2 and abs(a[2] - b[2]) <= b[4] / 2
    cfg = PlayConfig()
    # each measures as a whole card; the loose box nearer one card size
    assert all(cfg.min_scale <= _scale(b) <= cfg.max_scale for b in (ALONE, LOOSE))
    assert abs(_scale(LOOSE) - 1) < abs(_scale(ALONE) - 1)
    table = pile_with(("red-7", *PILE, 84.0, 107.0))
    before = len(plays(table))
    table.frames(6, [], reach("B"))  # the hand over the pile hides it
    table.frames(12, [card(*ALONE), card(*LOOSE)])
    assert plays(table)[before:] == [(["red-3"], "B")]
    top = table.plays.pile[-1]
    assert (top.label, top.wh) == ("red-3", LOOSE[3:5])


def test_two_copies_laid_side_by_side_in_one_frame_are_two_cards():
    """Two copies put down at once lie side by side (each centre off the
    other's box; one lying on the other would hide it): two cards."""
    left = ("red-3", 300.0, 210.0, 60.0, 90.0)
    right = ("red-3", 345.0, 214.0, 60.0, 90.0)  # overlapping left's edge
    assert _iou(left, right) > 0
    assert abs(left[1] - right[1]) > left[3] / 2
    table = pile_with(("red-7", *PILE, 84.0, 107.0))
    before = len(plays(table))
    table.frames(6, [], reach("B"))
    table.frames(12, [card(*left), card(*right)])
    assert plays(table)[before:] == [(["red-3", "red-3"], "B")]
