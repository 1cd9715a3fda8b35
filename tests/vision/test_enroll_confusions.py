"""The enrollment evaluation's split of wrong names (``eval_enroll --confusions``)
and its written reads (``--dump``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.detections import Detections


@pytest.mark.parametrize("truth, said, kind", [
    ("green-7", "blue-7", "colour"),
    ("red-draw2", "yellow-draw2", "colour"),
    ("red-6", "red-0", "symbol"),
    ("yellow-draw2", "yellow-reverse", "symbol"),
    ("red-6", "blue-0", "both"),
    ("wild", "wild-draw4", "wild"),
    ("red-skip", "wild", "wild"),
    ("wild-draw4", "blue-draw2", "wild"),
])
def test_a_wrong_name_is_split_by_what_it_got_wrong(truth, said, kind) -> None:
    from benchmarks.eval_enroll import confusion_kind

    assert confusion_kind(truth, said) == kind


def test_confusions_count_each_kind_and_pair_beside_the_other_outcomes(
        monkeypatch) -> None:
    """Every read is counted once: a right name as ``ok``, a refusal or miss as
    such, a wrong name under its kind with its pair; collapsed, the counts are
    :func:`score`'s."""
    import benchmarks.eval_enroll as ev

    reads = {"a": ("green-7", "blue-7"), "b": ("red-6", "red-0"),
             "c": ("red-6", "red-0"), "d": ("red-6", "red-6"),
             "e": ("red-2", None), "f": ("wild", "wild-draw4")}

    def fake_outcome(detector, photo, zooms, degrade=None, harsh=False,  # noqa: ANN001
                     said=None):
        truth, name = reads[photo.path.stem]
        if name is None:
            return "refused"
        said.append(name)
        return "ok" if name == truth else "wrong"

    monkeypatch.setattr(ev, "outcome", fake_outcome)
    photos = [ev.Photo(Path(f"/nowhere/{k}.jpg"), truth, (0, 0, 1, 1), "phone")
              for k, (truth, _) in reads.items()]
    split = ev.confusions(object(), photos, (1.0,))
    assert split["ok"] == 1 and split["refused"] == 1 and split["miss"] == 0
    assert (split["wrong-colour"], split["wrong-symbol"], split["wrong-both"],
            split["wrong-wild"]) == (1, 2, 0, 1)
    assert split["pairs"] == {"green-7>blue-7": 1, "red-6>red-0": 2,
                              "wild>wild-draw4": 1}
    assert ev.collapse(split) == {"ok": 1, "partial": 0, "miss": 0, "refused": 1,
                                  "wrong": 4}
    line = ev.split_line(split)
    assert line.startswith("colour 1, symbol 2, both 0, wild 1; refused 1")
    assert "pairs red-6>red-0 2, " in line


def test_a_dumped_read_holds_the_frame_box_names_and_probabilities(tmp_path,
                                                                    monkeypatch) -> None:
    import cv2

    import benchmarks.eval_enroll as ev
    from referee.cards import CLASSES

    frame = np.full((40, 60, 3), 90, np.uint8)
    probs = np.zeros((1, len(CLASSES)), np.float32)
    probs[0, CLASSES.index("red-0")] = 0.7
    best = Detections([[5, 6, 30, 38]], [0.7], [CLASSES.index("red-0")],
                      data={"probs": probs})
    monkeypatch.setattr(ev, "DUMP", tmp_path / "draw0")
    photo = ev.Photo(Path("/nowhere/card.jpg"), "red-6", (0, 0, 1, 1), "phone")
    ev._dump(object(), frame, best, photo, 7, "far", "wrong")
    record = json.loads((tmp_path / "draw0" / "far-card-7.json").read_text())
    assert record["truth"] == "red-6" and record["said"] == "red-0"
    assert record["result"] == "wrong"
    assert record["box"] == [5, 6, 30, 38]
    assert record["probs"][CLASSES.index("red-0")] == pytest.approx(0.7)
    np.testing.assert_array_equal(cv2.imread(str(tmp_path / "draw0" / "far-card-7.png")),
                                  frame)
