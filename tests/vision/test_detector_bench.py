"""``benchmarks/bench_detector.py`` times the detector as the live pipeline runs it."""

from __future__ import annotations

import pytest

cv2 = pytest.importorskip("cv2")

from vision import detector as detector_module  # noqa: E402

MODEL = detector_module.default_model()


@pytest.mark.skipif(MODEL.suffix == ".pt" or not MODEL.exists(),
                    reason=f"shipped OpenVINO finder {MODEL} is absent")
def test_the_bench_runs_opencv_on_the_live_pipelines_threads() -> None:
    """OpenCV's resizes (letterbox, crops, thumbnails) run on the threads the
    live pipeline gives OpenCV (one), not OpenCV's default of every core."""
    from benchmarks.bench_detector import time_backend
    from vision.pipeline_parts import CV_THREADS

    before = cv2.getNumThreads()
    try:
        cv2.setNumThreads(-1)
        out = time_backend(str(MODEL), detector_module.IMGSZ, runs=2, warmup=1)
        assert cv2.getNumThreads() == CV_THREADS
    finally:
        cv2.setNumThreads(before)
    assert out["new"]["frames"] == 2 and out["new"]["searched"] == 1
    assert out["new"]["cpu_ms"] >= out["new"]["finder_ms"] > 0



@pytest.mark.skipif(MODEL.suffix == ".pt" or not MODEL.exists(),
                    reason=f"shipped OpenVINO finder {MODEL} is absent")
def test_the_bench_compiles_the_classifiers_batch_sizes_before_timing() -> None:
    """A video's first batch of a size is timed without compiling it: every
    batch size the classifier keeps is compiled before the first timed frame."""
    import numpy as np

    from benchmarks.bench_detector import warm_classifier

    det = detector_module.Detector(MODEL, threads=1)
    if det._classifier_ov is None:
        pytest.skip("OpenVINO could not take the classifier")
    warm_classifier(det)
    run = det._classifier_request()
    assert sorted(run._runs) == list(range(1, run.BUFFERS + 1))
    requests = {n: got[2] for n, got in run._runs.items()}
    run(np.zeros((3, det.crop, det.crop, 3), np.uint8))
    assert {n: got[2] for n, got in run._runs.items()} == requests
