"""Tracking cards over frames, and finding hands and arms on the table."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from referee.cards import CLASSES
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.config import TrackingConfig
from vision.hands import HandTracker
from vision.tracking import CardTracker, covered_by_held

PLAYERS = ("A", "B", "C", "D")
CLOTH = (60, 110, 50)
SKIN = (120, 160, 210)


def geometry() -> TableGeometry:
    return TableGeometry.default((560, 420), PLAYERS)  # one pixel is one millimetre


def dets(*cards) -> Detections:
    if not cards:
        return Detections.empty()
    boxes = [(x - 28, y - 43, x + 28, y + 43) for _, x, y in cards]
    return Detections(
        np.array(boxes), np.full(len(cards), 0.9), [CLASSES.index(c[0]) for c in cards]
    )


def test_a_card_keeps_its_track_while_it_moves_a_little():
    tracker = CardTracker(geometry())
    ids = [
        int(tracker.update(dets(("red-5", 100 + 3 * k, 100)), k / 15).tracker_id[0])
        for k in range(5)
    ]
    assert len(set(ids)) == 1
    out = tracker.update(dets(("red-5", 112, 100), ("blue-1", 400, 300)), 5 / 15)
    assert out.tracker_id[0] == ids[0] and out.tracker_id[1] != ids[0]
    assert out.data["table_xy"][1] == pytest.approx((400, 300), abs=0.5)
    assert out.data["table_wh"][0] == pytest.approx((56, 86), abs=1.0)


def test_one_misread_continues_the_track_and_keeps_its_label():
    tracker = CardTracker(geometry())
    for k in range(4):
        tracker.update(dets(("red-5", 100, 100)), k / 15)
    out = tracker.update(dets(("red-6", 101, 100)), 4 / 15)
    track = tracker.tracks[int(out.tracker_id[0])]
    assert track.label == "red-5" and len(tracker.tracks) == 1
    # the misread is outvoted by the evidence: it neither changes the card
    # nor delays it
    assert track.settled_label(4 / 15, 3, 0.12, 8.0) == "red-5"
    for k in range(5, 8):
        tracker.update(dets(("red-6", 101, 100)), k / 15)
    assert track.settled_label(7 / 15, 3, 0.12, 8.0) == "red-6"  # it is a red 6


def probs_dets(x, y, probs: dict[str, float]) -> Detections:
    row = np.full(len(CLASSES), 1e-4, np.float32)
    for label, p in probs.items():
        row[CLASSES.index(label)] = p
    best = max(probs, key=probs.get)
    return Detections(
        np.array([(x - 28, y - 43, x + 28, y + 43)]),
        [probs[best]],
        [CLASSES.index(best)],
        data={"probs": row[None, :]},
    )


def test_evidence_adds_up_over_frames_not_votes():
    # Three frames lean to blue-1 by a hair, two are sure of blue-7: a vote
    # says blue-1, the summed log-probabilities say blue-7.
    tracker = CardTracker(geometry())
    unsure = {"blue-1": 0.5, "blue-7": 0.45}
    reads = [unsure] * 3 + [{"blue-7": 0.97, "blue-1": 0.01}] * 2
    for k, probs in enumerate(reads):
        out = tracker.update(probs_dets(100, 100, probs), k / 15)
    track = tracker.tracks[int(out.tracker_id[0])]
    assert track.label == "blue-7"
    assert track.settled_label(4 / 15, 3, 0.12, 8.0) == "blue-7"


def test_a_missed_or_touched_frame_marks_the_track_disturbed():
    tracker = CardTracker(geometry())
    for k in range(4):
        out = tracker.update(dets(("red-5", 100, 100)), k / 15)
    track = tracker.tracks[int(out.tracker_id[0])]
    assert track.disturbed == 0.0
    tracker.update(dets(), 4 / 15)  # not seen
    tracker.update(dets(("red-5", 100, 100)), 5 / 15)
    assert track.disturbed == pytest.approx(4 / 15)
    touched = dets(("red-5", 100, 100))
    touched.data["touched"] = np.array([True])
    tracker.update(touched, 6 / 15)
    assert track.disturbed == pytest.approx(6 / 15)


def test_settled_needs_enough_time_and_stillness_and_no_hand():
    tracker = CardTracker(geometry())
    for k in range(3):
        out = tracker.update(dets(("red-5", 100, 100)), k / 30)
    track = tracker.tracks[int(out.tracker_id[0])]
    assert not track.settled(2 / 30, 3, 0.12, 8.0)  # 3 frames at 30 fps: too short
    touched = dets(("red-5", 100, 100))
    touched.data["touched"] = np.array([True])
    for k in range(3, 8):
        tracker.update(touched, k / 30)
    assert not track.settled(7 / 30, 3, 0.12, 8.0)


def test_a_card_shown_after_its_track_was_hidden_is_judged_on_its_own_reads():
    # A red 5 lies still; a hand hides it (no detection for 4 frames) and puts
    # a red 6 exactly where it lay: the track goes on, but the red 5's reads
    # are not the red 6's evidence, nor its time lying still.
    tracker = CardTracker(geometry())
    for k in range(10):
        out = tracker.update(dets(("red-5", 100, 100)), k / 15)
    track = tracker.tracks[int(out.tracker_id[0])]
    assert track.settled_label(9 / 15, 3, 0.12, 8.0) == "red-5"
    for k in range(10, 14):
        tracker.update(dets(), k / 15)  # hidden under the hand
    out = tracker.update(dets(("red-6", 100, 100)), 14 / 15)
    assert int(out.tracker_id[0]) == track.id  # the same track goes on
    assert track.settled_label(14 / 15, 3, 0.12, 8.0, evidence_s=0.5) is None
    for k in (15, 16):
        tracker.update(dets(("red-6", 100, 100)), k / 15)
    assert track.settled_label(16 / 15, 3, 0.12, 8.0, evidence_s=0.5) == "red-6"
    assert [r.label for r in track.still_reads(16 / 15, 3, 0.12, 8.0, 0.5)] == [
        "red-6"] * 3
    # a gap shorter than gap_s (one missed frame) joins the window
    tracker = CardTracker(geometry(), TrackingConfig(gap_s=0.2))
    for k in (0, 1, 2, 4):
        out = tracker.update(dets(("red-5", 100, 100)), k / 15)
    track = tracker.tracks[int(out.tracker_id[0])]
    assert len(track.still_reads(4 / 15, 3, 0.12, 8.0, 0.5)) == 4


def test_an_unseen_track_is_dropped():
    tracker = CardTracker(geometry(), TrackingConfig(keep_s=0.5))
    tracker.update(dets(("red-5", 100, 100)), 0.0)
    tracker.update(dets(), 0.3)
    assert len(tracker.tracks) == 1
    tracker.update(dets(), 0.7)
    assert tracker.tracks == {}


def frame(arm_to=None, gain=1.0, blob=None):
    img = np.zeros((420, 560, 3), np.uint8)
    img[:] = CLOTH
    if arm_to is not None:
        x, y = arm_to
        cv2.line(img, (0, y), (x, y), SKIN, 60)
    if blob is not None:
        cv2.circle(img, blob, 30, SKIN, -1)
    return np.clip(img.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def settle(hands: HandTracker, n=10):
    for k in range(n):
        hands.update(frame(), Detections.empty(), k / 15)


def test_an_arm_from_the_left_is_seat_b_with_its_tip_where_it_ends():
    hands = HandTracker(geometry())
    settle(hands)
    card_near = ("red-5", 225, 210)  # under the fingertips
    card_far = ("blue-2", 480, 100)
    out = hands.update(frame(arm_to=(200, 210)), dets(card_near, card_far), 1.0)
    assert len(hands.reaches) == 1
    reach = hands.reaches[0]
    assert reach.seat == "B"
    assert 180 <= reach.tip[0] <= 235 and abs(reach.tip[1] - 210) <= 32  # the arm end
    assert list(out.data["touched"]) == [True, False]
    assert hands.coverage("draw") > 0.05


def test_an_arm_says_where_it_enters_the_table():
    """The arm from the left enters at the table's left edge, level with it:
    the way back along it, from its tip, points to seat B's side."""
    hands = HandTracker(geometry())
    settle(hands)
    hands.update(frame(arm_to=(200, 210)), Detections.empty(), 1.0)
    (reach,) = hands.reaches
    assert reach.entry is not None
    assert reach.entry[0] <= 8 and abs(reach.entry[1] - 210) <= 8
    assert reach.entry[0] < reach.tip[0] - 150


def test_a_light_turned_down_is_no_hand():
    hands = HandTracker(geometry())
    settle(hands)
    for k in range(5):
        hands.update(frame(gain=0.7), Detections.empty(), 1 + k / 15)
        assert hands.reaches == []


def test_a_blob_in_the_middle_of_the_table_is_no_arm():
    hands = HandTracker(geometry())
    settle(hands)
    hands.update(frame(blob=(280, 210)), Detections.empty(), 1.0)
    assert hands.reaches == [] and not hands.mask.any()


def test_a_still_hand_fades_only_slowly():
    hands = HandTracker(geometry())
    settle(hands)
    for k in range(30):  # two seconds without moving
        hands.update(frame(arm_to=(200, 210)), Detections.empty(), 1 + k / 15)
    assert len(hands.reaches) == 1


def test_a_card_in_a_hand_covers_the_card_below_it():
    boxes = np.array([(0, 0, 60, 90), (30, 20, 90, 110), (200, 0, 260, 90)], float)
    touched = np.array([False, True, False])
    assert list(covered_by_held(boxes, touched)) == [True, False, False]
    assert not covered_by_held(boxes, np.zeros(3, bool)).any()


def test_the_tracker_tells_a_card_covered_by_another_label_at_its_cover_share():
    """The tracker marks a box covered by a touched box of another label (not
    the card itself boxed again with the fingers), at its configured share."""
    boxes = np.array([(100, 100, 160, 190), (100, 100, 160, 230),
                      (130, 100, 190, 190)], np.float32)
    ids = [CLASSES.index("red-2"), CLASSES.index("red-2"), CLASSES.index("green-1")]
    dets = Detections(boxes, np.full(3, 0.9), ids,
                      data={"touched": np.array([False, True, True])})
    geo = TableGeometry.default((560, 420), ("A", "B", "C"))
    out = CardTracker(geo).update(dets, 0.0)
    # the green 1 overlaps half the red 2's box: another label covers it
    assert list(out.data["covered"]) == [True, True, True]
    assert list(out.data["covered_other"]) == [True, True, True]
    # at a share over that half, only its own label (the box with the fingers) covers it
    strict = CardTracker(geo, TrackingConfig(cover_share=0.6)).update(dets, 0.0)
    assert bool(strict.data["covered"][0]) and not strict.data["covered_other"][0]


def test_the_hand_past_a_gap_in_the_sleeve_is_still_the_arm():
    hands = HandTracker(geometry())
    settle(hands)
    img = frame(arm_to=(200, 210))
    img[180:240, 98:104] = CLOTH  # the sleeve matches the cloth for a few mm
    hands.update(img, Detections.empty(), 1.0)
    assert len(hands.reaches) == 1 and hands.reaches[0].tip[0] >= 180


def test_a_hand_whose_arm_faded_still_touches_its_card_for_a_while():
    hands = HandTracker(geometry())
    settle(hands)
    held = dets(("red-5", 235, 210))  # the card at the fingertips
    out = hands.update(frame(arm_to=(200, 210)), held, 1.0)
    assert list(out.data["touched"]) == [True]

    def hand_only():  # the sleeve taken into the background: the hand is left
        img = frame()
        cv2.rectangle(img, (145, 175), (228, 245), SKIN, -1)
        return img

    out = hands.update(hand_only(), held, 1.1)
    assert hands.reaches == [] and list(out.data["touched"]) == [True]
    for k in range(50):  # a hand alone in mid-table is no hand for ever
        out = hands.update(hand_only(), held, 1.2 + k / 15)
    assert list(out.data["touched"]) == [False]


def test_a_hand_moving_while_its_sleeve_fades_is_still_a_hand():
    """A sleeve barely darker than the cloth fades into the background while
    the arm comes and goes; the hand at its end, moving a few cm a frame, may
    then not overlap last frame's hands at all, only the same hands grown by
    ``orphan_grow_mm``. It still touches the card at its fingertips."""
    from vision.config import HandsConfig

    def hand_only():  # the sleeve taken into the background: the hand is left
        img = frame()
        cv2.rectangle(img, (185, 180), (255, 240), SKIN, -1)
        return img

    card = dets(("red-5", 270, 210))  # at the fingertips
    touched = {}
    for grow in (0.0, HandsConfig().orphan_grow_mm):
        hands = HandTracker(geometry(), HandsConfig(orphan_grow_mm=grow))
        settle(hands)
        hands.update(frame(arm_to=(320, 210)), Detections.empty(), 1.0)  # reaching far
        hands.update(frame(arm_to=(150, 210)), Detections.empty(), 1.0 + 1 / 15)  # back
        out = hands.update(hand_only(), card, 1.0 + 2 / 15)  # 35 mm out again
        assert hands.reaches == []
        touched[grow] = bool(out.data["touched"][0])
    assert touched == {0.0: False, HandsConfig().orphan_grow_mm: True}


def test_a_gathered_pile_is_no_hand_once_its_arm_has_gone_however_busy_the_table():
    """The bare cloth where a pile lay stays foreground for seconds. It overlaps
    the hand that gathered it, but only that arm's visit counts: another seat's
    arm (or a hand laid out at the table's edge) reaching all along does not
    keep it a hand, so the start card turned onto it is untouched in time."""
    hands = HandTracker(geometry())

    def table(pile: bool, gather: bool = False, k: int = -1) -> np.ndarray:
        img = frame()
        if pile:
            cv2.rectangle(img, (240, 160), (330, 260), (235, 235, 235), -1)
        if gather:
            cv2.line(img, (0, 210), (300, 210), SKIN, 60)
        if k >= 0:  # another seat's arm, busy all along
            x = 500 + 15 * (k % 3)
            cv2.line(img, (x, 0), (x, 110), SKIN, 50)
        return img

    for k in range(15):
        hands.update(table(pile=True), Detections.empty(), k / 15)
    for k in range(3):  # the pile gathered
        hands.update(table(True, True, k), Detections.empty(), 1 + k / 15)
    start = dets(("blue-4", 285, 210))
    out = hands.update(table(False, k=3), start, 1.3)
    assert list(out.data["touched"]) == [True]  # just gathered: its hand may be there
    touched = []
    for k in range(60):  # four seconds, the other arm always there
        out = hands.update(table(False, k=k), start, 1.4 + k / 15)
        touched.append(bool(out.data["touched"][0]))
    assert len(hands.reaches) == 1 and hands.reaches[0].tip[1] < 140
    assert touched[-1] is False
    assert touched.index(False) <= 3.2 * 15  # within orphan_s of the arm leaving


def test_a_card_laid_on_bare_cloth_is_untouched_as_soon_as_its_arm_has_gone():
    """A card laid on bare cloth is foreground all over; the core of its box is
    "card", its rim (the box a little tight) is not. The arm that laid it passed
    over that rim a moment ago, but a rim inside the card's box is no hand."""
    hands = HandTracker(geometry())
    settle(hands)

    def table(arm: bool) -> np.ndarray:
        img = frame(arm_to=(300, 210) if arm else None)
        cv2.rectangle(img, (250, 160), (320, 260), (230, 230, 230), -1)  # 70 x 100
        cv2.rectangle(img, (262, 175), (308, 245), (200, 80, 30), -1)
        return img

    card = dets(("blue-4", 285, 210))  # a box of 56 x 86: a little tight
    for k in range(3):
        out = hands.update(table(arm=True), card, 1 + k / 15)
    assert list(out.data["touched"]) == [True]
    touched = []
    for k in range(6):
        out = hands.update(table(arm=False), card, 1.2 + k / 15)
        touched.append(bool(out.data["touched"][0]))
    assert touched[1:] == [False] * 5


def test_a_zone_taken_in_is_background_except_under_a_hand():
    hands = HandTracker(geometry())
    for k in range(15):  # a pile in the discard zone, then gone
        hands.update(frame(blob=(330, 210)), Detections.empty(), k / 15)
    hands.update(frame(), Detections.empty(), 1.0)
    bare = frame(arm_to=(200, 210))  # an arm over the draw pile meanwhile
    hands.update(bare, Detections.empty(), 1.1)
    before = hands.background.copy()
    hands.take_in("discard")
    diff = np.abs(hands.background - before).sum(axis=2)
    zone = hands.geometry.zones["discard"].polygon / hands.mm_px
    x, y = (int(v) for v in zone.mean(axis=0))
    assert diff[y, x] > 60  # the footprint is cloth now
    assert not (diff[hands.mask] > 0).any()  # the hand is not taken in
    hands.update(bare, Detections.empty(), 1.2)
    assert len(hands.reaches) == 1 and not hands.mask[y, x]


@pytest.mark.parametrize("fps", [15.0, 30.0])
def test_a_tracks_label_is_weighed_over_the_same_seconds_at_any_frame_rate(fps):
    # 1.3 s of clear red 5 reads, then 0.8 s read as red 6 (a hand's shadow):
    # over tracking.history_s (2 s) the red 5 still has more evidence, at 30
    # fps as at 15 (a history of frames would hold 1 s at 30 fps: the red 6)
    tracker = CardTracker(geometry(), TrackingConfig(), fps=fps)
    n5, n6 = round(1.3 * fps), round(0.8 * fps)
    for k in range(n5 + n6):
        out = tracker.update(dets(("red-5" if k < n5 else "red-6", 100, 100)), k / fps)
    track = tracker.tracks[int(out.tracker_id[0])]
    assert len(track.history) == round(TrackingConfig().history_s * fps)
    assert track.label == "red-5"
