"""The live finder (``detector.live_finder``): another export of the finder
reads the frames detected inside :meth:`Detector.live_frames` (the live
pipeline's video frames), with its own kept boxes and reads; every other
frame is read by the detector's own finder exactly as without it."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision import detector as detector_module  # noqa: E402

MODEL = detector_module.default_model()
# any other export of a one-class finder stands in for the INT8 one here
OTHER = detector_module.MODEL_DIR / detector_module.PHOTO_OPENVINO_NAME
needs_models = pytest.mark.skipif(
    MODEL.suffix == ".pt" or not (OTHER / "metadata.yaml").exists()
    or not (detector_module.MODEL_DIR / detector_module.CLASSIFIER_NAME).exists(),
    reason="the shipped OpenVINO finders or the classifier are absent",
)


def _frames() -> list[np.ndarray]:
    """A short table clip: scenes, each held for two frames, then one
    changed in a corner (the kept boxes and the crop search come into play)."""
    from datasets.scenes import compose_scene

    rng = np.random.default_rng(5)
    out = []
    for _ in range(3):
        scene = compose_scene(rng, 640, empty_fraction=0.0)
        frame = cv2.resize(scene.image, (640, 480), interpolation=cv2.INTER_AREA)
        moved = frame.copy()
        moved[:80, :80] = 255 - moved[:80, :80]
        out += [frame, frame.copy(), moved]
    return out


def _same(a, b) -> None:  # noqa: ANN001
    np.testing.assert_array_equal(a.xyxy, b.xyxy)
    np.testing.assert_array_equal(a.confidence, b.confidence)
    np.testing.assert_array_equal(a.class_id, b.class_id)


def test_live_model_names_the_folder(tmp_path, monkeypatch) -> None:
    assert detector_module.live_model("float") is None
    assert detector_module.live_model("") is None
    folder = tmp_path / "live"
    folder.mkdir()
    (folder / "metadata.yaml").write_text("names: {0: item}\n")
    assert detector_module.live_model(str(folder)) == folder
    with pytest.raises(FileNotFoundError):
        detector_module.live_model(str(tmp_path / "missing"))
    monkeypatch.setattr(detector_module, "MODEL_DIR", tmp_path)
    monkeypatch.setattr(detector_module, "INT8_OPENVINO_NAME", "live")
    assert detector_module.live_model("int8") == folder
    assert detector_module.live_model("live") == folder  # a name in models/
    # the default (detector.live_finder): the float finder, or the INT8 export
    default = detector_module._DEFAULTS.live_finder
    assert detector_module.live_model() == (None if default in ("", "float") else folder)
    monkeypatch.setattr(detector_module, "INT8_OPENVINO_NAME", "gone")
    with pytest.raises(FileNotFoundError):
        detector_module.live_model("int8")


@needs_models
def test_live_frames_are_the_live_finders_and_the_rest_as_without_it() -> None:
    """Frames read in and out of the block, interleaved: outside, the same
    detections as a detector without a live finder reading those frames alone;
    inside, the same as a detector of the live finder reading the others."""
    both = detector_module.Detector(live_model=OTHER)
    alone = detector_module.Detector()
    live_alone = detector_module.Detector(OTHER)
    frames = _frames()
    differ = 0
    for frame in frames:
        out = both.detect(frame)
        _same(out, alone.detect(frame))
        with both.live_frames():
            inside = both.detect(frame)
            with both.live_frames():  # nested: still the live finder
                again = both.detect(frame)
        _same(inside, live_alone.detect(frame))
        _same(again, live_alone.detect(frame))
        differ += not (len(out) == len(inside) and np.array_equal(out.xyxy, inside.xyxy))
    assert differ  # the two finders do box these cards differently
    assert both.model is not None and both.live_path == OTHER
    # forget() drops both finders' kept boxes: the next frame is searched by each
    both.forget()
    alone.forget()
    live_alone.forget()
    searched = (both.finder_whole, both.finder_cropped)
    _same(both.detect(frames[0]), alone.detect(frames[0]))
    with both.live_frames():
        _same(both.detect(frames[0]), live_alone.detect(frames[0]))
    assert both.finder_whole == searched[0] + 2 and both.finder_cropped == searched[1]


@needs_models
def test_without_a_live_finder_the_block_changes_nothing() -> None:
    detector = detector_module.Detector()
    alone = detector_module.Detector()
    for frame in _frames()[:3]:
        with detector.live_frames():
            _same(detector.detect(frame), alone.detect(frame))
    assert detector.live_path is None


INT8 = detector_module.MODEL_DIR / detector_module.INT8_OPENVINO_NAME


@pytest.mark.skipif(
    MODEL.suffix == ".pt" or not (INT8 / "metadata.yaml").exists()
    or not (detector_module.MODEL_DIR / detector_module.CLASSIFIER_NAME).exists(),
    reason="the INT8 export, the float finder or the classifier is absent",
)
def test_the_int8_export_of_models_reads_live_frames_without_nncf(monkeypatch) -> None:
    """``detector.live_finder`` 'int8': the export in ``models/`` loads with
    OpenVINO alone (NNCF made it and is no dependency) and boxes the cards of
    table scenes as the float finder does, label for label, within a few
    pixels."""
    import sys

    monkeypatch.setitem(sys.modules, "nncf", None)  # importing it fails
    assert detector_module.live_model("int8") == INT8
    both = detector_module.Detector(live_model=detector_module.live_model("int8"))
    alone = detector_module.Detector()
    matched = 0
    for frame in _frames():
        want = alone.detect(frame)
        with both.live_frames():
            got = both.detect(frame)
        assert len(got) == len(want)
        for box, label in zip(want.xyxy, want.class_id):
            near = np.abs(got.xyxy - box).max(axis=1)
            k = int(np.argmin(near))
            assert near[k] <= 6.0 and got.class_id[k] == label
            matched += 1
    assert matched
