"""A card lying still whose box flickers for a frame or two (the finder's box
taking in, then leaving out, an edge of the card below while an arm withdraws)
and comes back to the very box is still lying still
(:meth:`vision.tracking.Track.still_reads` with ``flicker_reads``)."""

from __future__ import annotations

import numpy as np

from referee.cards import CLASSES
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.tracking import CardTracker

FPS = 30.0
A = (320.0, 214.0, 93.0, 114.0)  # one look of the card
B = (326.0, 215.0, 80.0, 114.0)  # another: 13 mm narrower (over move_mm)


def frames(looks, touched=()):  # noqa: ANN001, ANN201
    """A track fed one box a frame (centre, size in mm); ``touched``: the
    frames a hand touched."""
    tracker = CardTracker(TableGeometry.default((560, 420), ("A", "B", "C")))
    for k, (x, y, w, h) in enumerate(looks):
        found = Detections(
            np.array([(x - w / 2, y - h / 2, x + w / 2, y + h / 2)]),
            np.array([0.9]),
            [CLASSES.index("blue-4")],
            data={"touched": np.array([k in touched])},
        )
        out = tracker.update(found, k / FPS)
    return tracker.tracks[int(out.tracker_id[0])], (len(looks) - 1) / FPS


def still(track, now, flicker=2):  # noqa: ANN001, ANN201
    return track.still_reads(now, 3, 0.09, 8.0, 0.5, flicker_reads=flicker, look_mm=2.0)


def test_a_box_that_flickers_and_comes_back_is_still():
    track, now = frames([A, B, A, A])
    assert still(track, now, flicker=0) is None  # the window restarts at the last A
    reads = still(track, now)
    assert reads is not None and len(reads) == 4  # the flicker read is the card's


def test_two_flicker_reads_in_a_row_are_bridged_three_are_not():
    track, now = frames([A, B, B, A, A])
    assert still(track, now) is not None
    track, now = frames([A, B, B, B, A, A])
    assert still(track, now) is None


def test_only_the_very_look_coming_back_bridges_a_flicker():
    """The box before the flicker lies within move_mm of the newest but not
    within look_mm: the card is settling, not flickering."""
    near = (A[0] + 5.0, A[1], A[2], A[3])
    track, now = frames([near, B, A, A])
    assert still(track, now) is None


def test_a_touched_flicker_read_ends_the_window():
    track, now = frames([A, B, A, A], touched={1})
    assert still(track, now) is None


def test_no_flicker_is_bridged_where_touched_reads_count():
    track, now = frames([A, A, B, A, A, A])
    assert track.still_reads(now, 3, 0.06, 0.6, 0.5, touched_ok=True,
                             flicker_reads=2, look_mm=2.0)[0].t == 3 / FPS
