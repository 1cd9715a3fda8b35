"""The camera pipeline's configuration: every threshold, with its unit and meaning.

One frozen dataclass per stage, gathered in :class:`PipelineConfig`::

    detector  -> the shipped card detector (sizes, confidences)
    tracking  -> cards followed over frames (vision/tracking.py)
    hands     -> arms and hands found by background subtraction (vision/hands.py)
    play      -> when a card counts as played or drawn (vision/pile.py, plays.py)
    scan      -> the round-end scan of laid-out hands (vision/scan.py)
    listen    -> heard events matched to the camera's (vision/live.py)

Every field carries ``help`` (one sentence) and ``unit`` in its metadata, like
the house-rule options of ``referee/uno/options.py``. A configuration is read
from a JSON or TOML file (``{"play": {"settle_s": 0.2}}`` or ``[play]
settle_s = 0.2``) and overridden on the command line
(``--set play.settle_s=0.2``) by :mod:`vision.config_load`; ``tableref watch
--help-config`` lists every field. An unknown field or a bad value raises
:class:`ConfigError` naming it.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field, fields, replace
from typing import Any, Iterator, Mapping


class ConfigError(ValueError):
    """A configuration field that does not exist, or a value it cannot take."""


def _f(
    default: Any,
    unit: str,
    help_: str,
    *,
    choices: tuple[Any, ...] = (),
    minimum: float | None = 0,
    maximum: float | None = None,
) -> Any:
    meta: dict[str, Any] = {"unit": unit, "help": help_}
    if choices:
        meta["choices"] = choices
    if minimum is not None:
        meta["minimum"] = minimum
    if maximum is not None:
        meta["maximum"] = maximum
    return field(default=default, metadata=meta)


class _Section:
    """Checks every field's type and range when a section is made."""

    def __post_init__(self) -> None:
        for f in fields(self):  # type: ignore[arg-type]
            object.__setattr__(self, f.name, _checked(self, f, getattr(self, f.name)))


def _checked(section: Any, f: Any, value: Any) -> Any:
    name = f"{SECTION_NAMES.get(type(section), '?')}.{f.name}"
    kind = type(f.default)
    if kind is bool:
        ok = isinstance(value, bool)
    elif kind is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        value = float(value) if ok else value
    elif kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, kind)
    if not ok:
        raise ConfigError(
            f"{name} must be {kind_name(kind)} ({f.metadata['unit']}), got {value!r}"
        )
    meta = f.metadata
    if "choices" in meta and value not in meta["choices"]:
        raise ConfigError(f"{name} must be one of {meta['choices']}, got {value!r}")
    if meta.get("minimum") is not None and value < meta["minimum"]:
        raise ConfigError(f"{name} must be at least {meta['minimum']}, got {value!r}")
    if meta.get("maximum") is not None and value > meta["maximum"]:
        raise ConfigError(f"{name} must be at most {meta['maximum']}, got {value!r}")
    return value


def kind_name(kind: type) -> str:
    return {bool: "true or false", float: "a number", int: "a whole number"}.get(
        kind, "text"
    )


@dataclass(frozen=True)
class DetectorConfig(_Section):
    """The shipped card detector (used when the pipeline loads it itself)."""

    work_width: int = _f(640, "px", "frames wider than this are scaled down to it "
                         "before every stage", minimum=64)
    imgsz: int = _f(256, "px", "the square the detector letterboxes a frame into "
                    "(the size the model was trained at)", minimum=32)
    conf: float = _f(0.35, "probability", "least confidence of a card the detector "
                     "returns", maximum=1)
    box_conf: float = _f(0.5, "score", "least YOLO score of a box before the crop "
                         "classifier names it", maximum=1)
    iou: float = _f(0.5, "IoU", "boxes overlapping more than this are one card "
                    "(non-maximum suppression)", maximum=1)
    max_det: int = _f(50, "cards", "most cards returned per frame", minimum=1)
    views: int = _f(3, "crops", "crops the classifier averages for a box it is "
                    "unsure of: 1 the box, 2 also turned 180 degrees, 3 also 4 % "
                    "larger", choices=(1, 2, 3))
    threads: int = _f(1, "threads", "OpenVINO inference threads of each stage (0: "
                      "every core for one frame, OpenVINO's latency choice; one "
                      "thread costs the least CPU a frame)", minimum=0)
    reuse_px: float = _f(1.0, "px", "a box of the previous frame again, each side "
                         "within this ...")
    reuse_level: float = _f(2.0, "grey levels", "... and the frame's pixels where "
                            "the card was read (its crop in blocks reuse_cell "
                            "pixels wide) within this (mean difference), keeps its "
                            "class probabilities")
    reuse_cell: int = _f(4, "px", "... the blocks' width in the classifier's 64-px "
                         "crop (they average a webcam's pixel noise out)", minimum=1)
    classifier_precision: str = _f("bf16", "precision", "the crop classifier's "
                                   "OpenVINO inference precision (bf16: about a third "
                                   "less CPU a crop, probabilities within 0.02; f32 "
                                   "where the CPU lacks bf16)", choices=("bf16", "f32"),
                                   minimum=None)
    gate_cell: int = _f(8, "px", "the motion gate compares thumbnails of the "
                        "working image, a pixel the mean of a block this wide ...",
                        minimum=1)
    gate_level: float = _f(6.0, "grey levels", "... a frame none of whose thumbnail "
                           "pixels moved more than this from the frame the "
                           "detector last read reuses that read ...")
    gate_refresh_s: float = _f(0.5, "s", "... and the detector reads a still scene "
                               "at least this often")
    finder_still_cell: int = _f(8, "px", "the detector compares thumbnails of each "
                                "frame, a pixel the mean of a block this wide (its "
                                "grey) ...", minimum=1)
    finder_still_level: float = _f(3.0, "grey levels", "... a frame none of whose "
                                   "thumbnail pixels moved more than this from the "
                                   "frame the finder last ran on keeps the finder's "
                                   "boxes of that frame (the classifier still checks "
                                   "each; negative: the finder runs on every frame)",
                                   minimum=None)
    finder_crop_margin: float = _f(96.0, "px", "a frame where only some of those "
                                   "blocks moved: the finder searches a crop of it, "
                                   "the moved blocks' bounding box grown by this on "
                                   "each side (working-image px: at least a card's "
                                   "longest box, held cards included, at a 640-px "
                                   "working width); negative: the whole frame. A "
                                   "crop's box of a "
                                   "card can differ from the whole frame's by a "
                                   "pixel or more (the network sees less around "
                                   "it), which the pile would read as a twin put "
                                   "on its copy: see finder_crop_snap_iou, "
                                   "finder_crop_context_px and finder_crop_hold_px "
                                   "(and the play stage's play.twin_pixels) ...",
                                   minimum=None)
    finder_crop_edge_px: float = _f(3.0, "px", "... a box the crop takes (overlapping "
                                    "the moved blocks' bounding box) within this of a crop side that is "
                                    "not the frame's was cut by the crop: the whole "
                                    "frame is searched instead ...", minimum=0)
    finder_crop_share: float = _f(0.6, "fraction", "... as it is when the crop is over "
                                  "this share of the whole frame's network input "
                                  "(the finder's cost grows with the crop's area) ...",
                                  maximum=1)
    finder_crop_strides: int = _f(2, "strides", "... the crop's sides, in network "
                                  "strides (32 px of the network's input, 80 px of a "
                                  "640-px frame), rounded up to a multiple of this, "
                                  "the crop grown to fill them: each shape is a model "
                                  "compiled when first needed (~0.3 s CPU, ~25 MB), so "
                                  "few shapes ...", minimum=1)
    finder_whole_every: int = _f(15, "searches", "... and after this many crop "
                                 "searches in a row the finder searches the whole "
                                 "frame (0: only when the rules above say)", minimum=0)
    finder_crop_snap_iou: float = _f(0.85, "IoU", "... with the crop search on, a "
                                     "box found (by a crop or the whole frame) that "
                                     "matches one found before of the same card at "
                                     "least this well, the blocks under it as they "
                                     "were then (within finder_still_level), gets that "
                                     "box: the same pixels give a card the same box "
                                     "whichever search ran (above 1: never)",
                                     minimum=0)
    finder_crop_context_px: float = _f(24.0, "px", "... the finder's box of a card "
                                       "depends on what lies around it too: whether "
                                       "a box moved (kept or taken from the crop) and "
                                       "whether its blocks are as they were (the snap) "
                                       "are judged on the blocks under the box grown "
                                       "by this on each side (working-image px)",
                                       minimum=0)
    finder_crop_hold_px: float = _f(4.0, "px", "... and a box found within this "
                                    "(each side) of a box the classifier read a card "
                                    "at (in the detector's last call, or among the "
                                    "last reads of frames of that shape), the card's "
                                    "crop there again the one read (reuse_level), is "
                                    "given back exactly as read: a card whose pixels "
                                    "did not change keeps its box, however the "
                                    "finder's fit moved with what lies beside it, "
                                    "and after a hand passed over it (negative: "
                                    "never)", minimum=None)
    finder_crop_hold_level: float = _f(16.0, "grey levels", "... (a box beyond "
                                       "reuse_px) where no block of the card's crop "
                                       "(reuse_cell) moved more than this either: a "
                                       "card slid by a pixel or two moves the blocks "
                                       "along its sides, not the crop's mean")
    deck: str = _f("", "name", "an enrolled deck whose classifier names the cards "
                   "('tableref decks'; --deck NAME); empty: the shipped classifier",
                   minimum=None)
    photo_model: str = _f("uno-yolo11n-photo", "name", "the card finder of still "
                          "photos (tableref detect, enrollment, the multi-scale "
                          "pass): a model in models/ (its OpenVINO folder "
                          "NAME_openvino_model, else NAME.pt), trained on cards "
                          "near the camera too; empty or absent: the live finder",
                          minimum=None)
    live_finder: str = _f("int8", "finder", "the finder of the live pipeline's "
                          "video frames outside the round-end scan: 'int8' (models/"
                          "uno-yolo11n-int8_openvino_model, the float finder "
                          "quantised by benchmarks/export_int8.py --float-box 1; "
                          "loads with OpenVINO alone), 'float' (the finder every "
                          "other read uses) or an OpenVINO export's folder; the "
                          "scan, its close-ups and still photos use the float "
                          "finder", minimum=None)
    photo_retry_conf: float = _f(1.0, "score", "still photos of one card (enrollment, "
                                 "vision.multiscale): a photo where no zoom finds a "
                                 "card is looked at again with the least box score "
                                 "lowered to this (1: no second look)", maximum=1)
    photo_refused_floor: float = _f(1.0, "probability", "... a photo whose every box "
                                    "is called no card: its largest box is named "
                                    "with the likeliest card when that card's "
                                    "probability is at least this (1: never)",
                                    maximum=1)
    photo_card_share: float = _f(0.2, "fraction", "... or when that card's share "
                                 "of the card probabilities ('no card' left out) "
                                 "is at least this (1: never)", maximum=1)
    photo_window_share: float = _f(1.0, "fraction", "... a photo whose every box "
                                   "is called no card, or with no box: windows in "
                                   "its middle are named by the same share rule "
                                   "at this share (1: never)", maximum=1)
    photo_corner: float = _f(1.0, "power", "a still photo of one card (tableref "
                             "detect --one, vision.multiscale.read_card): each card's "
                             "probability times its corner index's symbol's "
                             "probability (vision.corner_index, models/uno-corner.pt) "
                             "to this power (0: off, the reader not loaded)")
    photo_recolour: bool = _f(True, "on/off", "... its name's colour read again from "
                              "the box's pixels where they strongly show another "
                              "colour the classifier makes a candidate "
                              "(vision.card_colour)")
    photo_balance: bool = _f(True, "on/off", "... its box named from its crop "
                             "white-balanced (each channel's bright end taken as the "
                             "card's white)")


@dataclass(frozen=True)
class TrackingConfig(_Section):
    """Cards followed over frames on the table plane (:mod:`vision.tracking`)."""

    match_mm: float = _f(35.0, "mm", "farthest a detection may lie from a track's "
                         "last position and still continue it")
    label_penalty_mm: float = _f(15.0, "mm", "added to that distance when the labels "
                                 "differ, so a card meets a track of its own label "
                                 "first")
    keep_s: float = _f(0.6, "s", "a track unseen for longer is dropped")
    history_s: float = _f(2.0, "s", "reads kept per track, as many frames as this "
                          "spans at the frame rate the pipeline is fed (a video "
                          "file's own, 15 fps where the source does not say, "
                          "the fps cap when lower: 30 reads at 15 fps, 60 at "
                          "30 fps): a track's label is weighed over all of them, "
                          "and no still-window of the play stage sees further "
                          "back (the pipeline warns when the longest window is "
                          "longer)", minimum=0.001)
    cover_share: float = _f(0.15, "fraction", "a box counts as covered when a "
                            "card in a hand overlaps at least this share of it",
                            maximum=1)
    gap_s: float = _f(0.2, "s", "a track unseen for longer than this between two "
                      "reads may show another card after it (one put on it under "
                      "the hand that hid it): a still-window does not reach across",
                      minimum=0.001)


@dataclass(frozen=True)
class HandsConfig(_Section):
    """Arms and hands found by background subtraction (:mod:`vision.hands`)."""

    mm_px: float = _f(4.0, "mm/px", "millimetres per pixel of the top-down "
                      "working image", minimum=0.5)
    min_area_mm2: float = _f(1500.0, "mm²", "smaller foreground blobs are noise")
    threshold: float = _f(60.0, "BGR levels", "summed colour difference from the "
                          "background that is foreground")
    card_core: float = _f(0.85, "scale", "the part of a card's box (scaled about "
                          "its centre) taken out of the foreground as card, not "
                          "hand", maximum=1)
    card_rim: float = _f(1.1, "scale", "a blob mostly inside the cards' boxes grown "
                         "by this is the rim of a card just laid, not a hand")
    touch_ring: float = _f(1.35, "scale", "a card is touched when hand pixels lie "
                           "in its box grown by this")
    edge_share: float = _f(0.2, "fraction", "a blob is an arm when it comes within "
                           "this share of the table's depth of its edge", maximum=1)
    orphan_s: float = _f(3.0, "s", "a hand whose arm faded into the background stays "
                         "a hand this long after its pixels were last part of an arm")
    orphan_mm2: float = _f(3000.0, "mm²", "least area of such a hand")
    orphan_share: float = _f(0.25, "fraction", "share of such a blob that must "
                             "overlap last frame's hands (grown by orphan_grow_mm), "
                             "and have been arm within orphan_s", maximum=1)
    orphan_grow_mm: float = _f(24.0, "mm", "last frame's hands grown by this for "
                               "that overlap: a hand moving while its sleeve fades "
                               "into the background moves a few cm a frame (0: "
                               "last frame's hands as they are)")
    rim_share: float = _f(0.6, "fraction", "a blob with at least this share inside "
                          "the grown card boxes is a card's rim", maximum=1)
    light_s: float = _f(30.0, "s", "time constant of the brightness reference (a "
                        "lamp switched on is divided out)", minimum=0.001)
    fast_s: float = _f(1.3, "s", "time constant of the background where the frame "
                       "matches it", minimum=0.001)
    slow_s: float = _f(6.6, "s", "time constant of the background where it does "
                       "not (a lasting change fades in, a moving hand stays "
                       "foreground)", minimum=0.001)


@dataclass(frozen=True)
class PlayConfig(_Section):
    """When a card counts as played, drawn or gathered (:mod:`vision.pile`,
    :mod:`vision.plays`, :mod:`vision.interpreters`)."""

    settle_frames: int = _f(3, "frames", "a card counts as lying still once it has "
                            "lain still and untouched for this many frames ...",
                            minimum=1)
    settle_s: float = _f(0.09, "s", "... spanning at least this long: the time a "
                         "card must lie still before it counts as played")
    move_mm: float = _f(8.0, "mm", "reads whose position and size stay within this "
                        "of the newest lie still")
    evidence_s: float = _f(0.5, "s", "reads of a still card back to this long are "
                           "the evidence for its label (at least settle_s + "
                           "still_margin_s)")
    still_margin_s: float = _f(0.25, "s", "a lain-still check for a longer time "
                               "(unsure_s, loose_s) looks this much further back, so "
                               "a frame older than the time is in it at any frame "
                               "rate")
    decide_margin: float = _f(1.0, "log-probability", "a card whose best label leads "
                              "the runner-up by less waits for more reads (up to "
                              "unsure_s); labels that close are remembered as torn")
    unsure_s: float = _f(0.8, "s", "longest a card with disagreeing reads waits "
                         "before the best label is taken")
    legal_margin: float = _f(1.6, "log-probability", "a legal label within this of "
                             "an illegal best one is taken instead (the referee's "
                             "prior; 1.6 is a fifth of the probability)")
    min_scale: float = _f(0.75, "card sizes", "a smaller box is part of a card (one "
                          "under others or a hand), not a card that landed")
    max_scale: float = _f(1.26, "card sizes", "a larger box is a card held above the "
                          "table (nearer the camera) ...")
    loose_scale: float = _f(1.45, "card sizes", "... unless it is at most this large, "
                            "within the pile's extent, and has lain still loose_s: a "
                            "loose box taking in the edges of the cards below")
    loose_s: float = _f(0.6, "s", "how long a loose box on the pile must lie still, "
                        "with no hand reaching into the zone")
    loose_edge_mm: float = _f(3.0, "mm", "a loose box reaching out past the pile's "
                              "extent at one end counts when its other end lies "
                              "within this of the same end of a pile card (a card "
                              "laid off the pile, boxed with the edge of one it half "
                              "covers; 0: never)")
    same_spot_mm: float = _f(10.0, "mm", "a box lying and measuring within this of "
                             "where a pile card lay is in that card's place")
    same_card_mm: float = _f(22.0, "mm", "a box of a pile card's label within this of "
                             "it is that card, unless a second copy is seen coming")
    same_size_mm: float = _f(15.0, "mm", "a second copy measuring this much "
                             "differently (turned) after a hand reached in is new")
    twin_moved_mm: float = _f(3.0, "mm", "a copy of the top card lying this far from "
                              "it after a hand reached in is a twin put on it ...")
    twin_size_mm: float = _f(3.0, "mm", "... or one measuring this much differently "
                             "(turned a few degrees)")
    twin_pixels: float = _f(6.0, "grey levels", "... and only when the top card's "
                            "pixels changed: a copy of the top card is no twin "
                            "where the top's region, top-down in grey, differs on "
                            "average by at most this from how it lay untouched "
                            "since taken (brightness matched; hands left out; a "
                            "card laid on it shows another print a few mm or "
                            "degrees off, a box shifting while an arm passes "
                            "beside the pile the same pixels; 0: off)", minimum=0)
    twin_px_mm: float = _f(2.0, "mm/px", "... the region compared at this many mm "
                           "a pixel")
    twin_px_share: float = _f(0.5, "fraction", "... compared only where at least "
                              "this share of it shows with no hand over it, now "
                              "and as kept (less: the pixels are not asked)",
                              maximum=1)
    look_mm: float = _f(2.0, "mm", "a box of the top card's label lying and "
                        "measuring within this of a look the detector gave of the "
                        "top card since it was taken is that card again")
    max_looks: int = _f(64, "looks", "most looks of the top card remembered",
                        minimum=1)
    flicker_reads: int = _f(2, "reads", "up to this many untouched reads in a "
                            "row whose box differs do not end a card's still window "
                            "or its look's stay, when an older read shows the newest "
                            "look again within look_mm (the box flickering while an "
                            "arm withdraws; 0: off)", minimum=0)
    twin_pixels_sure: float = _f(8.0, "grey levels", "a copy of the top card laid "
                                 "on it is a play however its box lies when the top "
                                 "card's pixels differ from its print by at least this "
                                 "in each of the box's newest settle_frames reads, "
                                 "having matched the print after the arm before the "
                                 "last one left (twin_ok, the reach and taken-back "
                                 "still apply; 0: off)", minimum=0)
    shown_loose: bool = _f(True, "on/off", "a box a hand still touches, within the "
                           "stacked pile's extent, over max_scale and at most "
                           "loose_scale, counts at let go once it has shown still "
                           "from under the hand that hid it (a card put down, boxed "
                           "with the fingers lingering on it or the edges of the "
                           "cards below; with no arm seen, or off, it waits as a "
                           "loose box: for the hand to leave, or loose_s)")
    own_box: bool = _f(True, "on/off", "a box of another label than the top card's, "
                       "covered only by touched boxes of its own label (the card and "
                       "the fingers on it, boxed twice), is judged at let go, the "
                       "hand's box standing for the arm's tip (off: it waits for the "
                       "hand to leave)")
    loose_left: bool = _f(True, "on/off", "a loose box on the pile counts after the "
                          "settle time instead of loose_s once the arm that last "
                          "reached in is seen out of the zone, its tip farther than "
                          "let_go_tip_mm from the box, while the box lay as it lies, "
                          "untouched (off: it waits loose_s with no arm in the zone)")
    cover_sure: bool = _f(True, "on/off", "a box of a lower card's label lying on the "
                          "hidden top card, under a hand still at it, covers the top "
                          "card when the top card's pixels are sure a card lies on it "
                          "(twin_pixels_sure; off: only once no arm is in the zone "
                          "and its newest read is untouched)")
    laid_sure: bool = _f(True, "on/off", "a copy of the top card taken while the "
                         "top card's pixels are sure a card lies on it "
                         "(twin_pixels_sure) is a second card, as one seen coming "
                         "in: the hands-free completion rules it at once instead of "
                         "holding it for the camera's next move")
    cut_min_mm: float = _f(3.0, "mm", "a box of the top card's label shorter than "
                           "it on one side only by at least this, lying within its "
                           "box, is that card cut by an edge (no twin); less is a "
                           "box's jitter")
    let_go_mm: float = _f(0.6, "mm", "a card a hand still touches counts as let go "
                          "when it lies within this of its newest read for the "
                          "settle time (0: off; a card counts once untouched) ...")
    let_go_size_px: float = _f(1.0, "px", "... and measures within let_go_mm of "
                               "its newest size, or within this many of the "
                               "frame's pixels at its spot where that is more (a "
                               "box's size moves by both its edges' jitter, about a "
                               "pixel between reads of a card lying still; a hand "
                               "trembling moves the card's place, which stays "
                               "within let_go_mm; 0: let_go_mm alone)", minimum=0)
    let_go_scale: float = _f(1.15, "card sizes", "... and measures at most this "
                             "(a card held above the table measures larger), or "
                             "at most max_scale lying within the pile's extent")
    let_go_frames: int = _f(4, "frames", "... for at least this many frames (and "
                            "settle_frames; a hand holding a card over the pile "
                            "pauses at the end of a sway for about a settle)",
                            minimum=1)
    let_go_tip_mm: float = _f(100.0, "mm", "... while an arm's tip lies within this "
                              "of it, where arms are seen (an arm passing over the "
                              "pile on its way elsewhere is no hand lingering at a "
                              "card it let go of)")
    let_go_loose_scale: float = _f(1.26, "card sizes", "a box a hand still "
                                   "touches lying within the pile's extent and "
                                   "measuring over this (a loose one on the pile, "
                                   "boxed with the edges of the cards below, or a card "
                                   "held a little above it) ...")
    let_go_loose_s: float = _f(0.25, "s", "... must lie that still this long "
                               "before it counts at let go")
    let_go_hover_s: float = _f(0.15, "s", "a card a hand still touches, that the "
                               "hand held over the spot where it lies at least this "
                               "long before it paused, must lie still "
                               "let_go_hover_still_s before it counts at let go (a "
                               "card brought in and put down is over its spot for a "
                               "frame or two, about 0.1 s)")
    let_go_hover_still_s: float = _f(0.4, "s", "how long such a card must lie still "
                                     "(at least let_go_loose_s): a hand resting a "
                                     "card it held over the pile pauses longer than "
                                     "at the end of a sway")
    let_go_sway_s: float = _f(0.0, "s", "a box a hand still touches measuring as "
                              "a card held up (over let_go_scale, at most "
                              "max_scale, sticking out of the pile's extent; or "
                              "a copy of the top card over let_go_twin_grow "
                              "larger than it) counts at let go once it has lain "
                              "that still this long (a card held in the air "
                              "sways within that time; fingers lingering in a "
                              "card's box grow it; 0, the default: such a box "
                              "waits for the hand to leave, as a card held still "
                              "over the pile and taken back must)")
    let_go_hidden_s: float = _f(0.1, "s", "... unless it has lain that still in "
                                "every read since it showed after going unseen "
                                "at least this long (the hand put it down over "
                                "the pile, hiding it; a card held over the pile "
                                "shows swaying first): then the settle time is "
                                "enough (0: always wait "
                                "let_go_loose_s)")
    reach_box_conf: float = _f(0.25, "score", "while an arm's tip lies on the "
                               "discard pile and the frame's read boxes no card "
                               "within let_go_tip_mm of it, the frame is read again "
                               "at this finder threshold and the cards it adds in "
                               "the zone are kept (a hand lingering on the card it "
                               "let go of covers part of it; 1: never)", maximum=1)
    top_look: bool = _f(True, "on/off", "... and likewise while the discard pile "
                        "holds cards, an arm reached onto it since its top card "
                        "was taken, no arm's tip lies within let_go_tip_mm of "
                        "that card and the frame's read boxes none whose centre "
                        "lies within same_card_mm of the top card's (a card put "
                        "neatly on the pile, the edge of the one below showing, "
                        "can get a finder score under its threshold after the "
                        "hand has left; a pile is gathered, never emptied in a "
                        "frame); off: only under an arm")
    top_unreached: bool = _f(True, "on/off", "... the top card is looked for so "
                             "also when no arm reached onto the pile since it was "
                             "last boxed (a still card's finder score can fall "
                             "under the threshold once the hand that played it "
                             "has gone; a pile is not gathered without a hand); "
                             "off: only after a reach")
    let_go_twin: bool = _f(True, "on/off", "a copy of the top card a hand still "
                           "touches is judged at let go too (the pile memory's "
                           "twin check decides) when the referee expects a twin "
                           "from the arm that reached in and the top is not the "
                           "card that hand put down; off: it waits for the hand "
                           "to leave")
    let_go_twin_grow: float = _f(0.05, "card sizes", "... one measuring more than "
                                 "this larger than the top card (a copy held over "
                                 "the pile is nearer the camera) only when it has "
                                 "lain still since it showed after going unseen "
                                 "let_go_hidden_s")
    let_go_twin_from: float = _f(1.0, "card sizes", "... judged against the top "
                                 "card's box taken as at least this large (a box of "
                                 "the top card under a card's size is that card cut "
                                 "by an edge or boxed tight; a twin lying on it "
                                 "measures a whole card; 0: the box as it is)",
                                 minimum=0)
    round_grow: float = _f(0.03, "fraction", "a card held above the table grows on "
                           "every side; a box larger than the top card's by at most "
                           "this share on its least-grown side has not grown so: on "
                           "the pile, a box over max_scale (up to loose_scale) within "
                           "the pile's extent is a card lying on it, and a copy of the "
                           "top card is not grown whatever let_go_twin_grow says (0: "
                           "off)", maximum=0.5)
    edge_let_go: bool = _f(True, "on/off", "a box a hand still touches, at most "
                           "max_scale, that sticks out of the stacked pile's extent "
                           "at one end while its other end lies within loose_edge_mm "
                           "of the same end of a pile card (a card laid off the pile, "
                           "boxed with the edge of the one it half covers; a card "
                           "held up grows all round and its ends follow no pile "
                           "card's edge) is judged at let go as one sticking out "
                           "toward the hand (off: it waits for the hand to leave)")
    handed_grow: float = _f(0.03, "fraction", "a box a hand still touches that "
                            "sticks out of the pile only toward the hand, over "
                            "max_scale (at most loose_scale), is judged as one up to "
                            "max_scale when it is larger than the top card's box by "
                            "at most this on its least grown side: fingers at the "
                            "card's near end lengthen its box on that side only, a "
                            "card held up grows on every side (0: off)", minimum=0)
    let_go_edge_mm: float = _f(6.0, "mm", "at let go, a read whose box lies as the "
                               "newest's on three edges (each within let_go_mm) "
                               "counts as lying still when its fourth edge lies "
                               "within this of the newest's: the detector refits one "
                               "edge of a card lying still, a card swayed over the "
                               "pile moves every edge (0: off)", minimum=0)
    settle_grow_mm: float = _f(20.0, "mm", "an untouched read since the arm last "
                               "reached in whose box lies within move_mm of the "
                               "newest's on three edges counts as lying still when "
                               "the newest box reaches out past it on the fourth by "
                               "at most this: the card's end showing once the hand "
                               "has cleared it (0: off)", minimum=0)
    hand_side: float = _f(0.25, "fraction", "a box a hand still touches that sticks "
                          "out of the stacked pile's extent (same_spot_mm to spare) "
                          "only at ends the arm comes from, by no more than "
                          "same_card_mm, is the card plus the fingers at its end, "
                          "judged at let go as one within the extent: an end counts "
                          "when the way back along the nearest arm, tip to where it "
                          "enters, points toward it with at least this share along "
                          "that side of the table (0: off)", maximum=1)
    start_s: float = _f(0.06, "s", "the first card on the empty discard pile (the "
                        "start card a dealer turns) counts, once the hand has left "
                        "it, when it has lain within start_mm for settle_frames "
                        "frames spanning this, its reads under the hand included "
                        "(the dealer's hand covers it as it lets go; nothing lies "
                        "below to peek out or be twinned; 0: as any card)")
    start_mm: float = _f(3.0, "mm", "... the start card's reads within this of the "
                         "newest (a fingertip still on its edge moves its box a "
                         "couple of mm)")
    shrunk: float = _f(0.85, "fraction", "a box under this share of a pile card's "
                       "size, lying on it, is that card partly covered", maximum=1)
    whole_min: float = _f(0.95, "card sizes", "a pile card's own box is taken as at "
                          "least this large when judging shrunk ...")
    extent_whole: bool = _f(True, "on/off", "the stacked pile's extent takes each "
                            "card's box as at least whole_min card sizes about its "
                            "centre (a card the finder boxed short still covers a "
                            "whole card)")
    twin_under_hand: bool = _f(True, "on/off", "a box of the top card's label smaller "
                               "than shrunk, under the hand that let go of it, is a "
                               "twin where the referee expects one, an arm reached in "
                               "since the top card was taken and the top card's pixels "
                               "are sure a card lies on it (twin_pixels_sure; off: it "
                               "waits for the hand to leave)")
    whole_max: float = _f(1.05, "card sizes", "... and at most this large")
    top_visible_share: float = _f(0.8, "fraction", "the top card is in view when a "
                                  "box of its label shows this share of its area",
                                  maximum=1)
    carry_mm: float = _f(200.0, "mm", "a card of a pile card's label seen in a hand or "
                         "moving within this of it marks a second copy on its way in")
    carry_scale: float = _f(0.85, "card sizes", "a carried box smaller than this is "
                            "part of a card, not one held up")
    carry_conf: float = _f(0.6, "probability", "least confidence of a carried card's "
                           "read", maximum=1)
    carry_memory_s: float = _f(3.0, "s", "how long a carried card is remembered")
    group_s: float = _f(0.0, "s", "cards landing within this of each other form one "
                        "play (0: only cards of the same frame)")
    multi_group_s: float = _f(1.0, "s", "group_s used when the house rules allow "
                              "several cards a turn (multi_play, two_card)")
    reach_memory_s: float = _f(3.0, "s", "an arm seen on the discard pile this "
                               "recently names the seat of the card that lands")
    arrival_gap_s: float = _f(0.3, "s", "of several arms on the discard pile the one "
                              "that came last names the seat; an arm unseen there "
                              "for less than this has not left (it keeps its arrival)")
    clear_s: float = _f(3.0, "s", "a discard pile that stays empty and unreached this "
                        "long was gathered for a new round")
    trick_clear_s: float = _f(1.5, "s", "junocos: the trick area empty this long "
                              "was gathered")
    field_clear_s: float = _f(3600.0, "s", "narabe-runo: the field empty this long "
                              "was gathered (never, within a round)")
    draw_dwell_s: float = _f(0.25, "s", "an arm's tip resting on the draw pile this "
                             "long, then leaving, took a card")
    draw_still_mm_s: float = _f(250.0, "mm/s", "a tip slower than this rests (an arm "
                                "passing over the pile does not)")
    draw_leave_s: float = _f(0.095, "s", "the arm has left the draw pile once unseen "
                             "there this long")
    draw_group_s: float = _f(1.5, "s", "takes by one seat within this form one draw "
                             "event with their count")
    hidden_back: int = _f(8, "log lines", "tgus-t: a camera play or draw ruled "
                          "illegal is explained by a card hidden under an earlier "
                          "camera play among this many lines before it (0: never)")
    gamble_back: int = _f(40, "log lines", "tgus-t: ... failing that, by the effect "
                          "of a camera Gamble (only said), or another target of a "
                          "Change or Replace, among this many lines before it "
                          "(0: never)")
    seen_again_plays: int = _f(3, "plays", "tgus-t: ... failing both, a camera play "
                               "of cards all put down by the pile's last this many "
                               "legal plays is those cards seen again (peeking out "
                               "from under the pile) and is taken out of the log "
                               "(1: the top card alone)")
    out_together_max: int = _f(2, "cards", "tgus-t: where the camera's source ran "
                               "out with the game under way, its last play is read "
                               "as its player's last cards put down together where "
                               "that player is still counted with at most this "
                               "many, hidden by the fan (0: never)")
    gone_out_plays: int = _f(2, "camera moves", "tgus-t: the seat on turn is taken "
                             "as gone out unseen (its hand counted too high: two "
                             "cards of one value read as one) when every other seat "
                             "still in made at least this many camera moves since "
                             "its last ...", minimum=1)
    gone_out_stuck: int = _f(3, "camera plays", "... and the referee has held it on "
                             "turn through at least this many camera plays of the "
                             "others (the one now too)", minimum=1)
    reread_back: int = _f(12, "camera events", "tgus-t: ... failing that, by one "
                          "of this many camera events before it read otherwise "
                          "(a Gamble's effect, a target, a hidden card) and the "
                          "events after it completed again (0: never)")
    reread_per_event: float = _f(100.0, "camera events", "tgus-t: a table's re-reads "
                                 "read at most this many camera events again for "
                                 "each camera event kept (past it a search ends and "
                                 "none is run)")
    went_on_plays: int = _f(2, "camera plays", "the referee ruled a round won on a "
                            "camera play, no hand was shown, and at least this many "
                            "of the camera's plays after it are legal once the "
                            "player who went out by the count is given a card more: "
                            "the count was short, the round goes on; likewise a play "
                            "asked about as out of turn is taken as the next seat's "
                            "after a missed draw and pass when it and the plays "
                            "after it, this many, are then legal (0: never)",
                            minimum=0)
    answer_plays: int = _f(6, "camera plays", "... a play asked about as out of "
                           "turn that this many camera plays (itself included) "
                           "did not answer so is left to a person", minimum=1)


@dataclass(frozen=True)
class ScanConfig(_Section):
    """The round-end scan of laid-out hands (:mod:`vision.scan`)."""

    settle_s: float = _f(1.0, "s", "a seat's cards must stay unchanged this long, "
                         "and lie still when sent, before they are its hand (a card "
                         "of the seat moving up to twice still_s keeps the time; "
                         "a longer move starts it over)")
    recount_s: float = _f(2.0, "s", "... this long when they are not as many as the "
                          "referee counts (its count is then in doubt)")
    woken_recount_s: float = _f(1.0, "s", "... this long instead when the scan "
                                "started by itself (the referee missed the round's "
                                "end: its counts are in doubt anyway)")
    still_s: float = _f(0.5, "s", "a card lies still when its reads of this long ...")
    move_mm: float = _f(8.0, "mm", "... stay within this")
    min_age_s: float = _f(0.4, "s", "a card counts once tracked this long")
    before_s: float = _f(2.0, "s", "a card seen first more than this before the scan "
                         "began lay there all along: nobody's hand")
    box_conf: float = _f(0.25, "score", "the detector's box_conf while the scan runs "
                         "(small, far hands get weak proposals)", maximum=1)
    grid: int = _f(2, "tiles", "the seats are also detected in grid x grid tiles (1: "
                   "off) while a hand is still to be read", minimum=1)
    overlap: float = _f(0.25, "fraction", "how much neighbouring tiles overlap",
                        maximum=0.9)
    tile_edge_px: float = _f(2.0, "px", "a tile's box this near an inner edge is a "
                             "card the tile cuts")
    merge_iou: float = _f(0.5, "IoU", "two tiles' boxes overlapping more are one card",
                          maximum=1)
    span_inside: float = _f(0.75, "fraction", "a seat close-up's box over two cards "
                            "is dropped: two other boxes, each at least as sure, "
                            "each lie at least this share inside it, and not this "
                            "much inside each other ...", maximum=1)
    span_grow: float = _f(1.3, "ratio", "... and it is at least this many times the "
                          "larger of them in area (the same ratio for a card boxed "
                          "twice)", minimum=1)
    twice_inside: float = _f(0.9, "fraction", "a box read as the same label as a "
                             "larger box lying at least this share inside it is the "
                             "same card (its showing part): the less sure box goes",
                             maximum=1)
    faint_box_conf: float = _f(0.1, "score", "a seat's close-up also takes the "
                               "finder's boxes down to this score (under box_conf) ...",
                               maximum=1)
    faint_sure: float = _f(0.8, "probability", "... and keeps one the classifier names "
                           "at least this sure, where no box of its label touches it "
                           "and no other overlaps it more than merge_iou (a wild's "
                           "black face, mostly covered in a fanned hand; 0: off)",
                           maximum=1)
    replace_iou: float = _f(0.2, "IoU", "a whole-frame box overlapping a close-up's "
                            "more is replaced by it", maximum=1)
    wake_s: float = _f(1.0, "s", "the scan starts by itself when new cards have lain "
                       "still in the seats this long while the referee is in play "
                       "(0: never)")
    wake_cards: int = _f(2, "cards", "... at least this many of them", minimum=1)
    wake_within_s: float = _f(6.0, "s", "... each seen first at most this long ago "
                              "(what lay there all along is no hand)")
    probe_s: float = _f(0.5, "s", "while the scan sleeps, the referee plays on and "
                        "a player holds few cards, the frame is also detected this "
                        "often at box_conf for hands laid out that the normal "
                        "threshold misses (0: never)")
    probe_cards: int = _f(1, "cards", "... few: at most this many by the referee's "
                          "count", minimum=0)
    seat_close_up: bool = _f(True, "on/off", "each seat holding cards is also "
                             "detected in a window around them while a hand is "
                             "still to be read")
    seat_pad: float = _f(0.5, "card sizes", "a seat's window reaches this far past "
                         "its cards")
    seat_min_px: float = _f(12.0, "px", "... and at least this far")
    seat_max_area: float = _f(0.5, "fraction", "no window for a seat whose window "
                              "would cover more of the frame", maximum=1)
    seat_piece_aspect: float = _f(1.5, "ratio", "a seat's window longer than this "
                                  "many times its other side is detected in "
                                  "overlapping pieces about this long (a long row "
                                  "of cards; 0: one window)")
    seat_piece_overlap: float = _f(1.1, "card lengths", "... each overlapping the "
                                   "next by this many times a card's long side")
    fan_visible_min: float = _f(0.2, "fraction", "a seat's card whose neighbour "
                                "covers it from one side, leaving between this and "
                                "fan_visible_max of its box showing, is also read "
                                "with its covered corner filled by its showing "
                                "corner turned 180 degrees", maximum=1)
    fan_visible_max: float = _f(0.85, "fraction", "... (0: never)", maximum=1)
    fan_row: float = _f(0.6, "fraction", "... a neighbour: its box spans at least "
                        "this much of the card's across the row", maximum=1)
    fan_corner: float = _f(0.2, "fraction", "... the corner: this much of the crop "
                           "at the covered end", maximum=0.5)
    fan_keep: float = _f(0.2, "probability", "a seat's close-up keeps such a covered "
                         "card read at least this sure", maximum=1)
    gap_fit: float = _f(0.2, "fraction", "a gap in a seat's fanned row holds cards "
                        "the finder missed when it is a whole number (2 or more) of "
                        "the row's stride, within this share of a stride per card; "
                        "each is read from a box a whole card long from its showing "
                        "edge and kept at least fan_keep sure (0: never)", maximum=0.5)
    gap_reread: bool = _f(True, "on/off", "each covered card of a seat's fanned row is "
                          "also read from a box a whole card long from its showing "
                          "edge, its own read and that one averaged")
    fresh_close_ups: bool = _f(True, "on/off", "the seat close-ups read each frame "
                               "anew: the detector's boxes and reads kept for reuse "
                               "are dropped before each call (a hand laid out while an "
                               "arm showed near it is otherwise read, frame after frame, "
                               "through that frame's boxes)")
    ask_below: float = _f(0.7, "probability", "a shown card read less sure than "
                          "this is asked about (reveal question) when a runner-up "
                          "label would change the hand's points", maximum=1)
    ask_answers: int = _f(3, "answers", "... in at most this many answers, the hand "
                          "as read one of them", minimum=2)
    turn_sure: float = _f(0.9, "probability", "a seat's 0, 6 or 9 read less sure "
                          "than this, another of its colour's one-loop digits (0, 6, "
                          "9) the runner-up, is read by which end of the digit its "
                          "loop is at, the card upright toward its seat: a 6 or a 9 "
                          "(a loop at the digit's centre, a 0's, stays as read; 0: "
                          "off)", maximum=1)
    turn_keep: float = _f(0.15, "probability", "a seat's close-up keeps a card read "
                          "at least this sure as a 6 or 9 when it and its turned "
                          "twin together pass the detector's conf", maximum=1)
    loop_offset: float = _f(0.06, "digit heights", "the loop's centre lies at least "
                            "this far from the digit's centre toward one end")
    facing_cos: float = _f(0.7, "cosine", "a shown card faces its seat when the seat "
                           "lies this near its long axis (else it reads upright to "
                           "the camera)", maximum=1)


@dataclass(frozen=True)
class ListenConfig(_Section):
    """How long heard events wait for the camera (:class:`vision.live.LiveTable`)."""

    colour_wait_s: float = _f(3.0, "s", "a heard colour waits this long of the "
                              "camera's clock for the camera to see its wild")
    uno_wait_s: float = _f(5.0, "s", "a heard UNO call waits this long of the "
                           "camera's clock for the play it comes with")
    colour_after_s: float = _f(6.0, "s", "a heard colour names the wild waiting "
                               "for its colour only this long after the camera "
                               "first saw that wild (later: table talk)")
    likely_play_s: float = _f(2.0, "s", "a likely UNO call (heard only by the "
                              "listener's lower decision) counts only at a play "
                              "that leaves its player with one card at most this "
                              "long from it, before or after (a call said with a "
                              "play comes within a second or so of the card "
                              "landing); anywhere else it is dropped", minimum=0)


SECTIONS: dict[str, type] = {
    "detector": DetectorConfig,
    "tracking": TrackingConfig,
    "hands": HandsConfig,
    "play": PlayConfig,
    "scan": ScanConfig,
    "listen": ListenConfig,
}
SECTION_NAMES = {cls: name for name, cls in SECTIONS.items()}


@dataclass(frozen=True)
class PipelineConfig:
    """Every threshold of the camera pipeline, one section per stage."""

    detector: DetectorConfig = field(default_factory=DetectorConfig)
    tracking: TrackingConfig = field(default_factory=TrackingConfig)
    hands: HandsConfig = field(default_factory=HandsConfig)
    play: PlayConfig = field(default_factory=PlayConfig)
    scan: ScanConfig = field(default_factory=ScanConfig)
    listen: ListenConfig = field(default_factory=ListenConfig)

    def items(self) -> Iterator[tuple[str, Any, Any]]:
        """``("section.field", value, dataclass field)`` for every field."""
        for name in SECTIONS:
            section = getattr(self, name)
            for f in fields(section):
                yield f"{name}.{f.name}", getattr(section, f.name), f

    def updated(self, values: Mapping[str, Any]) -> PipelineConfig:
        """A copy with ``{"section.field": value}`` set (values already typed).

        Raises:
            ConfigError: an unknown field, or a value it cannot take.
        """
        changes: dict[str, dict[str, Any]] = {}
        for dotted, value in values.items():
            section, name = split_name(dotted)
            changes.setdefault(section, {})[name] = value
        out = self
        for section, sets in changes.items():
            out = replace(out, **{section: replace(getattr(out, section), **sets)})
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "") -> PipelineConfig:
        """A configuration from ``{"section": {"field": value}}`` (a file's shape)."""
        if not isinstance(data, Mapping):
            raise ConfigError(
                f"{where or 'a configuration'} must be a table of sections"
            )
        flat: dict[str, Any] = {}
        for section, values in data.items():
            if not isinstance(values, Mapping):
                split_name(f"{section}.x")  # an unknown section is named as such
                raise ConfigError(f"[{section}] must be a table of fields")
            for name, value in values.items():
                flat[f"{section}.{name}"] = value
        return cls().updated(flat)


#: fields that were renamed: the old dotted name -> (the new one, what to write
#: there instead of the old value)
RENAMED = {
    "tracking.history_frames": (
        "tracking.history_s",
        "seconds of reads kept per track, not frames: the old value divided by "
        "the video's frames per second (30 frames at 15 fps is 2.0)",
    ),
}


def split_name(dotted: str) -> tuple[str, str]:
    """``"play.settle_s"`` -> ``("play", "settle_s")``, checked against the fields."""
    section, _, name = dotted.partition(".")
    if section not in SECTIONS:
        hint = difflib.get_close_matches(section, SECTIONS, 1)
        raise ConfigError(
            f"unknown config section {section!r} in {dotted!r}"
            + (f" (did you mean {hint[0]!r}?)" if hint else "")
            + f"; sections: {', '.join(SECTIONS)}"
        )
    known = [f.name for f in fields(SECTIONS[section])]
    if dotted in RENAMED and name not in known:
        new, how = RENAMED[dotted]
        raise ConfigError(f"config field {dotted!r} was renamed {new!r} ({how})")
    if name not in known:
        hint = difflib.get_close_matches(name, known, 1)
        raise ConfigError(
            f"unknown config field {dotted!r}"
            + (f" (did you mean '{section}.{hint[0]}'?)" if hint else "")
            + f"; 'tableref watch --help-config' lists every field"
        )
    return section, name
