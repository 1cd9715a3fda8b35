"""eval_enroll's report reads only the rows it is asked for."""

from __future__ import annotations

import pytest


def test_an_unknown_report_row_is_refused_before_any_work(capsys) -> None:  # noqa: ANN001
    from benchmarks.eval_enroll import main

    with pytest.raises(SystemExit) as exc:
        main(["--rows", "webcam,held"])
    assert exc.value.code == 2
    assert "unknown rows ['held']" in capsys.readouterr().err


def test_the_report_reads_only_the_rows_asked(monkeypatch, tmp_path, capsys) -> None:  # noqa: ANN001
    """With ``--rows webcam --ks 3`` the report enrolls once a repeat and reads
    the webcam row alone."""
    import benchmarks.eval_enroll as ev
    import vision.decks  # noqa: F401 - imported before its base class is stubbed

    photo = ev.Photo(tmp_path / "a.jpg", "red-1", (0, 0, 1, 1), "webcam")
    kinds = {"webcam": photo, "phone": ev.Photo(tmp_path / "b.jpg", "red-1",
                                                 (0, 0, 1, 1), "phone")}
    monkeypatch.setattr(ev, "photos", lambda data, split: list(kinds.values()))
    monkeypatch.setattr("vision.detector.Detector", lambda **kw: object())
    monkeypatch.setattr("vision.detector.photo_model", lambda: None)
    monkeypatch.setattr("vision.enroll.find_shots",
                        lambda d, *a, **k: [type("S", (), {"box": [0, 0, 1, 1]})()
                                            for _ in next(iter(d.values()))])
    read = []
    monkeypatch.setattr(ev, "enrolled_detector", lambda *a, **k: (object(), 1.0))
    monkeypatch.setattr(ev, "score", lambda det, items, zooms, degrade=False: (
        read.append([p.kind for p in items])
        or {"ok": len(items), "wrong": 0, "partial": 0, "miss": 0, "refused": 0}))
    assert ev.main(["--rows", "webcam", "--ks", "3", "--repeats", "1", "--no-zero"]) == 0
    assert read == [["webcam"]]
    assert "webcam" in capsys.readouterr().out
