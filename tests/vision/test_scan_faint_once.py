"""A seat's close-up asks the finder the same image twice, at the scan's
threshold and at the faint look's: the OpenVINO finder runs its network once
for both, and the cards read are those of two runs."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from tests.vision.test_detector_partial import MODEL, needs_openvino  # noqa: E402
from vision import detector as detector_module  # noqa: E402
from vision.config import ScanConfig  # noqa: E402
from vision.scan import _detect_twins  # noqa: E402


def windows() -> list[np.ndarray]:
    """Close-up-like images: parts of table scenes, some twice (a still
    table looked at again), of a few shapes."""
    from datasets.scenes import compose_scene

    out = []
    for seed in range(3):
        scene = compose_scene(np.random.default_rng([53, seed]), 640,
                              empty_fraction=0.0).image
        frame = cv2.resize(scene, (640, 480))
        for x1, y1, x2, y2 in ((0, 0, 400, 200), (200, 150, 600, 350),
                               (0, 0, 400, 200), (100, 50, 400, 400)):
            out.append(np.ascontiguousarray(frame[y1:y2, x1:x2]))
    return out


class Counted:
    """The finder's requests, their inferences counted."""

    def __init__(self, finder) -> None:  # noqa: ANN001
        self.runs = 0
        real = finder._request

        def request(shape):  # noqa: ANN001, ANN202
            compiled, req = real(shape)
            return compiled, _CountedRequest(req, self)

        finder._request = request


class _CountedRequest:
    def __init__(self, request, counter: Counted) -> None:  # noqa: ANN001
        self._request, self._counter = request, counter

    def infer(self) -> None:
        self._counter.runs += 1
        self._request.infer()

    def __getattr__(self, name: str):  # noqa: ANN204
        return getattr(self._request, name)


def _scan_detector() -> detector_module.Detector:
    det = detector_module.Detector(MODEL, threads=1)
    det.box_conf = ScanConfig().box_conf  # as the pipeline sets it while scanning
    return det


@needs_openvino
def test_the_faint_look_runs_the_network_once_and_reads_the_same_cards() -> None:
    cfg = ScanConfig()
    once, twice = _scan_detector(), _scan_detector()
    twice.model.remembering = None  # this one runs the network for each look
    runs_once, runs_twice = Counted(once.model), Counted(twice.model)
    cards = faint_asked = 0
    for image in windows():
        before = (runs_once.runs, runs_twice.runs)
        got = _detect_twins(once.detect, image, cfg, fan=True)
        want = _detect_twins(twice.detect, image, cfg, fan=True)
        assert np.array_equal(got.xyxy, want.xyxy)
        assert np.array_equal(got.confidence, want.confidence)
        assert np.array_equal(got.class_id, want.class_id)
        assert got.data.keys() == want.data.keys()
        for key in got.data:
            assert np.array_equal(got.data[key], want.data[key])
        cards += len(got)
        ran = (runs_once.runs - before[0], runs_twice.runs - before[1])
        assert ran[0] <= 1 and ran[0] <= ran[1]
        faint_asked += ran[1] == 2
        assert once.box_conf == cfg.box_conf
    assert cards >= 5
    assert faint_asked >= 3  # both looks searched: the network ran once for them
    assert once.model.reused >= faint_asked
    assert not once.model._last  # nothing kept once the close-up is read


@needs_openvino
def test_outside_the_close_up_an_equal_input_runs_the_network_again() -> None:
    det = _scan_detector()
    counted = Counted(det.model)
    image = windows()[0]
    for _ in range(2):
        det.model(image, 0.25, 0.5, 50, agnostic=True)
    assert counted.runs == 2 and det.model.reused == 0
    with det.model.remembering():
        a = det.model(image, 0.25, 0.5, 50, agnostic=True)
        b = det.model(image, 0.1, 0.5, 50, agnostic=True)
        with det.model.remembering():  # nested: still kept inside
            det.model(image, 0.1, 0.5, 50, agnostic=True)
        assert det.model._last
        changed = image.copy()
        changed[10:40, 10:40] = 255 - changed[10:40, 10:40]
        det.model(changed, 0.1, 0.5, 50, agnostic=True)
    assert counted.runs == 4 and det.model.reused == 2  # the changed image ran
    assert not det.model._last
    # the boxes over the scan's threshold are the faint look's first ones
    assert np.array_equal(b[0][: len(a[0])], a[0])
