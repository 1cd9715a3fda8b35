"""A table the pile tests feed by hand: detections made frame by frame go
through a card tracker and the play detector on the default 560 x 420 mm table
(1 px = 1 mm), optionally with a referee's state."""

from __future__ import annotations

from typing import Any

import numpy as np

from referee.cards import CLASSES
from vision.config import PlayConfig
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.plays import UnoPlayDetector
from vision.tracking import CardTracker

PLAYERS = ("A", "B", "C")
PILE = (330.0, 210.0)  # centre of the default discard zone


def card(label: str, x: float, y: float, w: float = 56.0, h: float = 87.0,
         touched: bool = False) -> tuple:
    """One detection row: a card of ``label`` centred at (x, y) mm."""
    return (label, x, y, w, h, touched)


def dets(rows) -> Detections:  # noqa: ANN001
    """The frame's detections of ``rows`` (:func:`card`)."""
    if not rows:
        return Detections.empty()
    boxes = [(x - w / 2, y - h / 2, x + w / 2, y + h / 2) for _, x, y, w, h, _ in rows]
    return Detections(
        np.array(boxes),
        np.full(len(rows), 0.9),
        [CLASSES.index(r[0]) for r in rows],
        data={"touched": np.array([r[5] for r in rows], bool)},
    )


class PileTable:
    """Frames at ``fps`` through a tracker and the play detector; with
    ``state`` (a referee's state, kept as :attr:`state` and changeable) the
    detector sees it as the game's."""

    def __init__(self, config: PlayConfig, fps: float,
                 state: dict[str, Any] | None = None):
        self.state = state
        geo = TableGeometry.default((560, 420), PLAYERS)
        self.tracker = CardTracker(geo)
        self.plays = UnoPlayDetector(
            geo, config, game_state=None if state is None else (lambda: self.state))
        self.fps = fps
        self.t = 0.0
        #: (time, cards) of every play
        self.plays_seen: list[tuple[float, list[str]]] = []
        #: the cards of every start and play, in order
        self.seen: list[list[str]] = []
        #: every event the detector sent, in order
        self.events: list[dict[str, Any]] = []

    def frames(self, n: int, rows, reaches=()) -> list[tuple[float, list[str]]]:  # noqa: ANN001
        """``n`` frames showing ``rows`` with arms ``reaches``; the plays they
        made, with their times."""
        new = []
        for _ in range(n):
            tracked = self.tracker.update(dets(rows), self.t)
            for e in self.plays.update(tracked, self.t, self.tracker.tracks,
                                       list(reaches)):
                self.events.append(e)
                if e["type"] in ("start", "play"):
                    self.seen.append(e.get("cards") or [e["card"]])
                if e["type"] == "play":
                    self.plays_seen.append((self.t, e["cards"]))
                    new.append((self.t, e["cards"]))
            self.t += 1 / self.fps
        return new

    def frame(self, rows, reaches=()) -> None:  # noqa: ANN001
        """One frame (:meth:`frames`)."""
        self.frames(1, rows, reaches)


def lay_top(table: "PileTable", top) -> "PileTable":  # noqa: ANN001
    """red-7 on the pile of ``table`` (a :class:`PileTable` with a ``turn(seat,
    top)``), then ``top`` (label, x, y, w, h) put on by seat C and left alone;
    seat B to move."""
    from vision.hands import Reach

    table.frames(10, [card("red-7", *PILE)])
    table.frames(6, [], [Reach("C", PILE, 9000.0)])
    assert [c for _, c in table.frames(12, [card(*top)])] == [[top[0]]]
    table.turn("B", top[0])
    table.frames(8, [card(*top)])
    return table
