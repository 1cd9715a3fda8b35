"""What a :class:`vision.pipeline.TablePipeline` is built from: the bundled demo
(video and table-log header), the shipped detector set up by its configuration,
and the stage that turns tracks into a game's events.

:mod:`vision.pipeline` re-exports these names.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Protocol

import numpy as np

from .config import DetectorConfig, PlayConfig
from .detections import Detections
from .geometry import TableGeometry
from .plays import UnoPlayDetector

DEMO_DIR = Path(__file__).resolve().parent / "demo" / "data"
DEMO_VIDEO = DEMO_DIR / "demo-table.mp4"
DEMO_LOG = DEMO_DIR / "demo-table.jsonl"
#: OpenCV's threads in a process running the live pipeline, set when its
#: detector loads (:func:`load_default_detector`): every stage's resizes, warps
#: and blob searches run on one thread, which costs the least CPU a frame
CV_THREADS = 1


class DetectorLike(Protocol):
    """A card detector; one with a ``conf`` attribute (its label threshold)
    also takes ``detect(frame, conf=...)``, a threshold for that call only."""

    def detect(self, frame_bgr: np.ndarray) -> Detections: ...


def bundled_demo() -> tuple[Path, dict[str, Any]]:
    """The bundled demo video and its table-log header (for ``tableref serve``)."""
    import json

    with DEMO_LOG.open(encoding="utf-8") as fh:
        header = json.loads(fh.readline())
    return DEMO_VIDEO, header


def load_default_detector(config: DetectorConfig | None = None) -> DetectorLike:
    """The shipped detector (``vision.detector.Detector``) set up by ``config``,
    its video frames outside the round-end scan read by the finder
    ``detector.live_finder`` names (:func:`vision.detector.live_model`);
    with ``config.deck``, the detector of that enrolled deck
    (:func:`vision.decks.open_detector`: the shipped finder, the deck's classifier).
    The live pipeline's detector: OpenCV's threads are set to
    :data:`CV_THREADS` (:func:`use_cv_threads`).

    Raises:
        RuntimeError: the detector module or its model is missing, or no such
            enrolled deck, saying so.
    """
    try:
        from .detector import (  # type: ignore[import-not-found]
            Detector,
            finder_crop,
            live_model,
        )
    except ImportError as exc:
        raise RuntimeError(f"the card detector is not installed ({exc})") from None
    cfg = config or DetectorConfig()
    use_cv_threads(CV_THREADS)
    try:
        # the finder of the video frames outside the round-end scan
        # (detector.live_finder)
        live = live_model(cfg.live_finder)
    except FileNotFoundError as exc:
        raise RuntimeError(
            f"the card detector could not load its model: {exc}") from None
    if cfg.deck:
        from .decks import DeckError, open_detector

        try:
            return open_detector(cfg.deck, imgsz=cfg.imgsz, conf=cfg.conf, iou=cfg.iou,
                                 max_det=cfg.max_det, box_conf=cfg.box_conf,
                                 views=cfg.views, threads=cfg.threads,
                                 reuse_px=cfg.reuse_px, reuse_level=cfg.reuse_level,
                                 reuse_cell=cfg.reuse_cell,
                                 still_cell=cfg.finder_still_cell,
                                 still_level=cfg.finder_still_level,
                                 **finder_crop(cfg),
                                 classifier_precision=cfg.classifier_precision,
                                 live_model=live)
        except DeckError as exc:
            raise RuntimeError(str(exc)) from None
        except Exception as exc:  # a broken deck file
            raise RuntimeError(
                f"the enrolled deck {cfg.deck!r} could not load: {exc}") from None
    try:
        return Detector(
            imgsz=cfg.imgsz,
            conf=cfg.conf,
            iou=cfg.iou,
            max_det=cfg.max_det,
            box_conf=cfg.box_conf,
            views=cfg.views,
            threads=cfg.threads,
            reuse_px=cfg.reuse_px,
            reuse_level=cfg.reuse_level,
            reuse_cell=cfg.reuse_cell,
            still_cell=cfg.finder_still_cell,
            still_level=cfg.finder_still_level,
            **finder_crop(cfg),
            classifier_precision=cfg.classifier_precision,
            live_model=live,
        )
    except Exception as exc:  # a missing or broken model file
        raise RuntimeError(
            f"the card detector could not load its model: {exc}"
        ) from None


def use_cv_threads(threads: int) -> None:
    """OpenCV's threads for the process (0: OpenCV's default, every core).
    The live pipeline's stages each work on one small image a frame (a
    640-px frame, a 256-px letterbox, the hand tracker's top-down view): on
    one thread they give the same pixels and cost less CPU than split over
    several, whose hand-offs cost more than they save."""
    import cv2

    cv2.setNumThreads(int(threads) if threads > 0 else -1)


def make_interpreter(
    game: str,
    geometry: TableGeometry,
    options: dict[str, Any],
    attribute_players: bool = False,
    game_state: Callable[[], dict[str, Any]] | None = None,
    config: PlayConfig | None = None,
):
    """The stage that turns tracks into events for ``game``.

    UNO plays are grouped over ``config.multi_group_s`` when the header's
    options allow several cards a turn (``multi_play`` other than ``off`` or
    false, ``two_card``). A preset that allows them without saying so in the
    options (the 東幻符闘祭 deck's) keeps ``config.group_s``: its players put a
    multi-play's cards down together and the next turn follows close, so a
    wider window takes the next player's card into the play (a camera play
    holding two turns is split again by the table,
    :func:`vision.handsfree_tgus_t.split_play`).
    """
    config = config or PlayConfig()
    if game == "uno":
        several = options.get("multi_play") not in (None, False, "off")
        if several or options.get("two_card"):
            config = replace(config, group_s=config.multi_group_s)
        return UnoPlayDetector(
            geometry,
            config,
            attribute_players=attribute_players,
            game_state=game_state,
        )
    from .interpreters import interpreter_for

    return interpreter_for(game, geometry, config)


