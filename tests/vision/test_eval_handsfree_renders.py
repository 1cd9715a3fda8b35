"""eval_handsfree tells whether a game's render is the reference render: the
same game drawn a few pixels otherwise on another machine is another
measurement."""

from benchmarks.eval_handsfree import (
    load_fingerprints,
    record_fingerprints,
    render_fingerprint,
    render_verdict,
)


def game(tmp_path, video=b"frames", track=b"sound"):
    folder = tmp_path / "game"
    folder.mkdir(exist_ok=True)
    (folder / "demo-table.mp4").write_bytes(video)
    (folder / "demo-table.flac").write_bytes(track)
    return folder


def test_a_recorded_render_is_the_reference_and_one_changed_pixel_differs(tmp_path):
    ref = tmp_path / "prints.json"
    record_fingerprints([render_fingerprint(game(tmp_path), 7, 15, 10.0)], ref)
    reference = load_fingerprints(ref)
    assert render_verdict(reference, render_fingerprint(game(tmp_path), 7, 15, 10.0)) == "same"
    other = render_fingerprint(game(tmp_path, video=b"frameS"), 7, 15, 10.0)
    assert render_verdict(reference, other) == "differs"
    louder = render_fingerprint(game(tmp_path, track=b"Sound"), 7, 15, 10.0)
    assert render_verdict(reference, louder) == "differs"


def test_a_game_rate_or_snr_without_a_reference_is_unknown(tmp_path):
    ref = tmp_path / "prints.json"
    record_fingerprints([render_fingerprint(game(tmp_path), 7, 15, 10.0)], ref)
    reference = load_fingerprints(ref)
    for seed, fps, snr in ((8, 15, 10.0), (7, 30, 10.0), (7, 15, 5.0), (7, 15, None)):
        assert render_verdict(reference, render_fingerprint(game(tmp_path), seed, fps, snr)) \
            == "unknown"


def test_recording_keeps_other_games_and_names_the_machine(tmp_path):
    ref = tmp_path / "prints.json"
    record_fingerprints([render_fingerprint(game(tmp_path), 7, 15, 10.0)], ref)
    record_fingerprints([render_fingerprint(game(tmp_path, b"x"), 8, 15, 10.0)], ref)
    data = load_fingerprints(ref)
    assert set(data["games"]) == {"s7-15fps-10dB", "s8-15fps-10dB"}
    assert {"cpu", "opencv", "numpy", "pillow"} <= set(data["machine"])


def test_a_missing_or_broken_reference_file_means_no_reference(tmp_path):
    broken = tmp_path / "prints.json"
    broken.write_text("{not json")
    for path in (broken, tmp_path / "absent.json"):
        assert render_verdict(load_fingerprints(path),
                              render_fingerprint(game(tmp_path), 7, 15, 10.0)) == "unknown"
