"""A window search converts only the window's part of the letterboxed input:
the same values as cutting the window from the whole frame's input."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("cv2")

from tests.vision.test_detector_partial import MODEL, needs_openvino  # noqa: E402
from vision.openvino_runtime import OpenVinoFinder  # noqa: E402


@needs_openvino
@pytest.mark.parametrize("shape", [(480, 640), (640, 480), (256, 256), (300, 500)])
def test_a_windows_input_is_the_whole_inputs_part(shape) -> None:
    finder = OpenVinoFinder(MODEL, 256, threads=1)
    rng = np.random.default_rng(sum(shape))
    frame = rng.integers(0, 256, (*shape, 3), dtype=np.uint8)
    whole, gains = finder.letterbox(frame)
    h, w = shape
    for region in [(0, 0, 50, 50), (200, 150, 260, 240), (w - 40, h - 40, w, h),
                   (0, 0, w, h), (w / 2, 0, w / 2 + 10, h)]:
        window = finder.window(h, w, region, 2)
        y1, y2, x1, x2 = window
        out = np.full((1, 3, y2 - y1, x2 - x1), -1.0, np.float32)
        got = finder.letterbox_window(frame, window, out)
        assert np.array_equal(out, whole[:, :, y1:y2, x1:x2]), (shape, region)
        assert got == gains
