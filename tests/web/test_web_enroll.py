"""The deck enrollment wizard of the page (/enroll, web/enroll.py): cards taken
one by one or as laid out on the printed sheet move from missing to taken, an
unsure read is flagged, skip and take-again work, Enroll reports its progress
and saves a deck ``tableref decks`` lists; bad input gets a 4xx, every route
needs the token. A fake camera, finder, reader and trainer stand in for the
real ones (tests/web/enroll_fakes.py)."""

from __future__ import annotations

import argparse
import time

import numpy as np
import pytest
from enroll_fakes import FakeCamera, FakeTrainer, fake_tools, value_of

from vision.enroll_camera import GuideConfig
from web import create_app
from web.enroll_wizard import assign_cells, progress_fraction, sheet_pages

FAST = GuideConfig(steady=2, shots=2, gap=1, away=2)
WAIT = 20.0  # seconds: a loaded 2-core machine


@pytest.fixture
def camera():
    return FakeCamera()


@pytest.fixture
def trainer():
    return FakeTrainer()


def make_app(tmp_path, store, camera, trainer, **more):
    config = {
        "TESTING": True, "STORE": store,
        "EVIDENCE_DIRS": [str(tmp_path / "evidence")],
        "DECKS_DIR": str(tmp_path / "decks"),
        "ENROLL_SOURCE": lambda spec: camera,
        "ENROLL_TOOLS": fake_tools,
        "ENROLL_TRAINER": trainer,
        "ENROLL_GUIDE": FAST,
    }
    config.update(more)
    return create_app(config)


@pytest.fixture
def eapp(tmp_path, store, camera, trainer):
    app = make_app(tmp_path, store, camera, trainer)
    yield app
    holder = app.extensions.get("tableref.enroll")
    if holder is not None and holder.wizard is not None:
        holder.wizard.close()


@pytest.fixture
def ec(eapp):
    return eapp.test_client()


def state(client, lang="en"):
    resp = client.get(f"/api/enroll?lang={lang}")
    assert resp.status_code == 200
    return resp.get_json()


def until(client, test, what, timeout=WAIT):
    """Poll the wizard's state until ``test(state)``; fail saying ``what``."""
    end = time.monotonic() + timeout
    while True:
        data = state(client)
        if test(data):
            return data
        if time.monotonic() > end:
            said = data["wizard"] and data["wizard"]["text"]
            pytest.fail(f"timed out waiting for {what}: {said}")
        time.sleep(0.02)


def card(data, label):
    return next(c for c in data["wizard"]["cards"] if c["label"] == label)


def start(client, labels="red-0,red-1,red-2", mode="one", deck="kitchen"):
    body = {"deck": deck, "labels": labels, "camera": "0", "mode": mode}
    resp = client.post("/api/enroll/start", json=body)
    assert resp.status_code == 201, resp.get_json()
    return until(client, lambda d: d["wizard"]["target"], "the first card asked for")


def test_a_card_shown_moves_from_missing_to_taken(ec, camera):
    data = start(ec)
    w = data["wizard"]
    assert w["target"] == ["red-0"]
    assert w["counts"] == {"captured": 0, "unsure": 0, "missing": 3, "skipped": 0}
    data = until(ec, lambda d: d["wizard"]["say"]["key"] == "show", "the prompt")
    assert data["wizard"]["text"] == "Show red 0"
    camera.one("red-0", held=True)
    until(ec, lambda d: d["wizard"]["say"]["key"] == "hold", "the card seen")
    camera.held = False
    data = until(ec, lambda d: card(d, "red-0")["status"] == "captured", "red-0 taken")
    assert data["wizard"]["counts"]["captured"] == 1
    assert data["wizard"]["counts"]["missing"] == 2
    assert data["wizard"]["news_text"] == "Got red 0"
    assert card(data, "red-0")["shots"] == FAST.shots
    shots = ec.application.extensions["tableref.enroll"].wizard.shots()
    for shot in shots:  # the card and a margin kept, not the whole frame
        h, w = shot.frame.shape[:2]
        assert h < 360 and w < 480
        x1, y1, x2, y2 = shot.box
        assert 0 < x1 < x2 < w and 0 < y1 < y2 < h
        assert (shot.frame[int(y1) + 2 : int(y2) - 2, int(x1) + 2 : int(x2) - 2, 0]
                == value_of("red-0")).all()
    assert data["wizard"]["target"] == ["red-1"]
    # the card still lying there is not taken as red-1: the table must clear first
    time.sleep(0.2)
    data = state(ec)
    assert card(data, "red-1")["status"] == "missing"
    assert data["wizard"]["say"]["key"] == "clear"
    camera.clear()
    until(ec, lambda d: d["wizard"]["say"]["key"] == "show", "red-1 asked for")
    camera.one("red-1")
    until(ec, lambda d: card(d, "red-1")["status"] == "captured", "red-1 taken")
    # the preview shows the camera's frame
    resp = ec.get("/enroll/frame.jpg")
    assert resp.status_code == 200 and resp.mimetype == "image/jpeg"


def test_a_card_the_reader_reads_as_another_is_unsure(ec, camera):
    start(ec)
    until(ec, lambda d: d["wizard"]["say"]["key"] == "show", "the prompt")
    camera.one("blue-5")  # the wrong card shown for red-0
    data = until(ec, lambda d: card(d, "red-0")["shots"], "red-0 taken")
    c = card(data, "red-0")
    assert c["status"] == "unsure" and c["read"] == "blue-5"
    assert data["wizard"]["counts"]["unsure"] == 1
    assert data["wizard"]["news"]["key"] == "got_unsure"
    assert "blue 5" in data["wizard"]["news_text"]
    # taken again with the right card: no longer unsure
    assert ec.post("/api/enroll/redo", json={"label": "red-0"}).status_code == 200
    data = state(ec)
    assert card(data, "red-0")["status"] == "missing"
    assert data["wizard"]["target"] == ["red-0"]
    camera.clear()
    until(ec, lambda d: d["wizard"]["say"]["key"] == "show", "red-0 asked again")
    camera.one("red-0")
    data = until(ec, lambda d: card(d, "red-0")["shots"], "red-0 taken again")
    assert card(data, "red-0")["status"] == "captured"


def test_a_card_lying_there_when_another_is_picked_is_not_taken_as_it(ec, camera):
    start(ec)
    until(ec, lambda d: d["wizard"]["say"]["key"] == "show", "the prompt")
    camera.one("red-0", held=True)  # red-0 in the hand, not still yet
    until(ec, lambda d: d["wizard"]["say"]["key"] == "hold", "the card seen")
    ec.post("/api/enroll/redo", json={"label": "red-2"})  # the person picks red 2
    camera.held = False  # ... and red 0 lies still under the camera
    seq = state(ec)["wizard"]["frame_seq"]
    data = until(ec, lambda d: d["wizard"]["frame_seq"] >= seq + 10 * FAST.steady,
                 "the camera's frames")
    assert card(data, "red-2")["status"] == "missing"
    assert data["wizard"]["target"] == ["red-2"]
    assert data["wizard"]["say"]["key"] == "clear"
    camera.clear()
    until(ec, lambda d: d["wizard"]["say"]["key"] == "show", "red-2 asked for")
    camera.one("red-2")
    data = until(ec, lambda d: card(d, "red-2")["shots"], "red-2 taken")
    assert card(data, "red-2")["status"] == "captured"
    assert card(data, "red-0")["status"] == "missing"


def test_skip_and_take_again(ec, camera):
    start(ec)
    resp = ec.post("/api/enroll/skip", json={})
    assert resp.status_code == 200
    data = resp.get_json()
    assert card(data, "red-0")["status"] == "skipped"
    assert data["wizard"]["counts"]["skipped"] == 1
    data = until(ec, lambda d: d["wizard"]["target"] == ["red-1"], "red-1 asked for")
    # a named card skipped
    ec.post("/api/enroll/skip", json={"label": "red-2"})
    until(ec, lambda d: d["wizard"]["say"]["key"] == "show", "the prompt")
    camera.one("red-1")
    data = until(ec, lambda d: d["wizard"]["say"]["key"] == "done", "every card done")
    assert [c["status"] for c in data["wizard"]["cards"]] == ["skipped", "captured",
                                                              "skipped"]
    # the skipped card is taken after all
    ec.post("/api/enroll/redo", json={"label": "red-0"})
    data = until(ec, lambda d: d["wizard"]["target"] == ["red-0"], "red-0 asked again")
    assert card(data, "red-0")["status"] == "missing"
    camera.clear()
    until(ec, lambda d: d["wizard"]["say"]["key"] == "show", "the prompt")
    camera.one("red-0")
    until(ec, lambda d: card(d, "red-0")["status"] == "captured", "red-0 taken")


def test_any_order_takes_the_card_the_reader_names(ec, camera):
    ec.post("/api/enroll/start",
            json={"deck": "k", "labels": "red-0,red-1,red-2", "mode": "any"})
    data = until(ec, lambda d: d["wizard"]["say"]["key"] == "any", "the prompt")
    assert data["wizard"]["text"] == "Show any card not taken yet (3 to go)"
    camera.one("red-2")
    data = until(ec, lambda d: card(d, "red-2")["shots"], "red-2 taken")
    assert card(data, "red-2")["status"] == "captured"
    assert data["wizard"]["news_text"] == "Got red 2"
    assert all(s.label == "red-2"
               for s in ec.application.extensions["tableref.enroll"].wizard.shots())
    camera.clear()
    until(ec, lambda d: d["wizard"]["say"]["key"] == "any", "the next card")
    camera.one("red-2")  # the same card again (a deck holds two of most cards)
    data = until(ec, lambda d: (d["wizard"]["news"] or {}).get("key") == "got_again",
                 "said already taken")
    assert data["wizard"]["counts"]["captured"] == 1
    camera.clear()
    until(ec, lambda d: d["wizard"]["say"]["key"] == "any", "the next card")
    camera.one("blue-5")  # not a card of this enrollment: not taken
    data = until(ec, lambda d: (d["wizard"]["news"] or {}).get("key") == "got_unknown",
                 "said unknown")
    assert "blue 5" in data["wizard"]["news_text"]
    assert data["wizard"]["counts"]["captured"] == 1
    # a card picked by name is asked for by name
    camera.clear()
    ec.post("/api/enroll/redo", json={"label": "red-0"})
    data = until(ec, lambda d: d["wizard"]["say"]["key"] == "show", "red-0 by name")
    assert data["wizard"]["target"] == ["red-0"]
    camera.one("red-0")
    data = until(ec, lambda d: card(d, "red-0")["shots"], "red-0 taken")
    camera.clear()
    data = until(ec, lambda d: d["wizard"]["say"]["key"] == "any", "any order again")
    assert data["wizard"]["text"] == "Show any card not taken yet (1 to go)"


def test_a_sheet_page_names_each_card_by_its_place(ec, camera):
    labels = ["red-0", "red-1", "red-2", "red-3", "red-4", "red-5"]
    data = start(ec, labels=",".join(labels), mode="sheet")
    assert data["wizard"]["target"] == labels
    until(ec, lambda d: d["wizard"]["say"]["key"] == "lay", "the sheet prompt")
    camera.grid(labels[:5])  # one card short
    until(ec, lambda d: d["wizard"]["say"]["key"] == "sheet_found", "5 of 6 said")
    assert "5 of 6" in state(ec)["wizard"]["text"]
    camera.grid(labels)
    data = until(ec, lambda d: d["wizard"]["counts"]["captured"] == 6, "the page taken")
    assert data["wizard"]["news"]["key"] == "got_page"
    assert data["wizard"]["news_text"] == "Page taken: 6 cards (0 unsure)"
    holder = ec.application.extensions["tableref.enroll"]
    for shot in holder.wizard.shots():  # each box holds the card of its place
        x1, y1, x2, y2 = shot.box.astype(int)
        assert int(np.median(shot.frame[y1:y2, x1:x2, 0])) == value_of(shot.label)


def test_assign_cells_orders_rows_and_refuses_a_broken_layout():
    boxes = []
    for i in range(6):
        x, y = 10 + (i % 4) * 100, 10 + (i // 4) * 100
        boxes.append([x, y, x + 60, y + 84])
    boxes = np.array(boxes, np.float32)
    shuffled = boxes[[5, 2, 0, 4, 3, 1]]
    assert np.array_equal(assign_cells(shuffled, 6), boxes)
    assert assign_cells(boxes[:5], 6) is None  # a card missing
    crooked = boxes.copy()
    crooked[1, [1, 3]] += 60  # a card half a row down
    assert assign_cells(crooked, 6) is None
    assert [len(p) for p in sheet_pages([str(i) for i in range(54)])] == [12] * 4 + [6]


def test_enroll_reports_progress_and_saves_a_deck(tmp_path, store, camera, capsys):
    trainer = FakeTrainer(hold=True)
    app = make_app(tmp_path, store, camera, trainer)
    ec = app.test_client()
    assert ec.post("/api/enroll/train", json={}).status_code == 409  # nothing started
    start(ec, labels="red-0,red-1")
    assert ec.post("/api/enroll/train", json={}).status_code == 409  # nothing taken
    until(ec, lambda d: d["wizard"]["say"]["key"] == "show", "the prompt")
    camera.one("red-0")
    until(ec, lambda d: card(d, "red-0")["shots"], "red-0 taken")
    resp = ec.post("/api/enroll/train", json={})
    assert resp.status_code == 202
    assert camera.closed  # the camera is released for the fine-tuning
    assert trainer.half.wait(WAIT)
    data = until(ec, lambda d: d["job"]["fraction"] > 0, "progress")
    assert data["job"]["state"] == "training"
    assert data["job"]["fraction"] == pytest.approx(0.5)
    assert "50 %" in data["job"]["text"]
    assert ec.post("/api/enroll/train", json={}).status_code == 409  # already running
    trainer.go.set()
    data = until(ec, lambda d: d["job"]["state"] == "done", "the deck saved")
    job = data["job"]
    assert job["fraction"] == 1.0 and job["cards"] == 1 and job["photos"] == FAST.shots
    assert "red-1" in job["missing"]
    assert "tableref serve --deck kitchen" in job["text"]
    assert [s.label for s in trainer.shots] == ["red-0"] * FAST.shots
    from vision.decks import list_decks, load_manifest
    from vision.enroll_cli import decks

    manifest = load_manifest("kitchen", tmp_path / "decks")
    assert manifest.photos == {"red-0": FAST.shots}
    assert [m.name for m in list_decks(tmp_path / "decks")] == ["kitchen"]
    assert decks(argparse.Namespace(decks_dir=tmp_path / "decks")) == 0
    assert capsys.readouterr().out.startswith("kitchen\t")
    assert "kitchen: 1 cards" in ec.get("/enroll").get_data(as_text=True)


def test_a_failed_trainer_is_said_not_raised(tmp_path, store, camera):
    def broken(shots, progress):
        raise RuntimeError("out of memory")

    ec = make_app(tmp_path, store, camera, broken).test_client()
    start(ec, labels="red-0")
    until(ec, lambda d: d["wizard"]["say"]["key"] == "show", "the prompt")
    camera.one("red-0")
    until(ec, lambda d: card(d, "red-0")["shots"], "red-0 taken")
    assert ec.post("/api/enroll/train", json={}).status_code == 202
    data = until(ec, lambda d: d["job"]["state"] == "failed", "the failure")
    assert "out of memory" in data["job"]["text"]


def test_every_message_in_english_and_japanese_with_the_same_fields():
    import string

    from web.enroll import MESSAGES

    def fields(text):
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}

    for key, entry in MESSAGES.items():
        assert set(entry) == {"en", "ja"}, key
        assert fields(entry["en"]) == fields(entry["ja"]), key


def test_progress_fraction_reads_fine_tune_lines():
    assert progress_fraction("fine-tuning network 1/5: step 20/60 loss 1.0") == \
        pytest.approx(1 / 15)
    assert progress_fraction("fine-tuning network 5/5: step 60/60 loss 1.0") == 1.0
    assert progress_fraction("training crops: 900 (700 of cards)") is None


def test_prompts_in_japanese(ec, camera):
    start(ec)
    until(ec, lambda d: d["wizard"]["say"]["key"] == "show", "the prompt")
    data = state(ec, "ja")
    assert data["wizard"]["text"] == "赤の0を見せてください"
    assert card(data, "red-0")["name"] == "赤の0"
    page = ec.get("/enroll?lang=ja").get_data(as_text=True)
    assert "デッキの登録" in page and "Enroll a deck" not in page


def test_the_tgus_t_deck_is_asked_for_with_its_own_card_names(ec, camera):
    from referee.tgus_t.cards import deck_counts

    ec.post("/api/enroll/start", json={"deck": "t1", "labels": "tgus-t"})
    data = until(ec, lambda d: d["wizard"]["target"], "the first card")
    assert [c["label"] for c in data["wizard"]["cards"]] == list(deck_counts())
    assert card(state(ec, "ja"), "counter")["name"] == "カウンター"
    sheet = ec.get("/enroll/sheet?labels=tgus-t&lang=ja").get_data(as_text=True)
    assert "カウンター" in sheet and 'data-label="red-hit2"' in sheet


def test_no_camera_is_a_clear_4xx(tmp_path, store, trainer):
    from vision.sources import SourceError

    def missing(spec):  # as vision.sources.FrameSource raises it for a camera index
        raise SourceError(f"OpenCV cannot open camera {spec}", "camera_not_found")

    ec = make_app(tmp_path, store, None, trainer, ENROLL_SOURCE=missing).test_client()
    resp = ec.post("/api/enroll/start", json={"deck": "k", "camera": "3"})
    assert resp.status_code == 409
    assert resp.get_json()["message"] == "no camera: OpenCV cannot open camera 3"
    resp = ec.post("/api/enroll/start?lang=ja", json={"deck": "k", "camera": "3"})
    said = resp.get_json()  # the kind of failure; the camera's own words apart
    assert said["text"] == said["message"] == "カメラを開けません（カメラが見つからない）"
    assert said["failure"] == "camera_not_found"
    assert said["detail"] == "OpenCV cannot open camera 3"
    # the real source on a missing file says so too
    ec = make_app(tmp_path, store, None, trainer, ENROLL_SOURCE=None).test_client()
    resp = ec.post("/api/enroll/start", json={"deck": "k", "camera": "/no/such.mp4"})
    assert resp.status_code == 409
    assert "no such video file" in resp.get_json()["message"]
    resp = ec.post("/api/enroll/start?lang=ja", json={"deck": "k",
                                                      "camera": "/no/such.mp4"})
    assert resp.status_code == 409 and resp.get_json()["failure"] == "video_missing"
    assert "動画ファイルが見つからない" in resp.get_json()["message"]


def test_the_games_camera_in_use_is_a_clear_4xx(eapp, camera):
    class Running:
        source = "0"

        def status(self):
            return {"state": "running", "source": "0"}

    eapp.extensions["tableref.table"].camera = Running()
    ec = eapp.test_client()
    resp = ec.post("/api/enroll/start", json={"deck": "k", "camera": "0"})
    assert resp.status_code == 409
    assert "the game's camera is reading 0" in resp.get_json()["message"]
    assert not camera.frames
    resp = ec.post("/api/enroll/start", json={"deck": "k", "camera": "1"})
    assert resp.status_code == 201


def test_a_finder_that_fails_to_load_is_said(tmp_path, store, camera, trainer):
    def broken():
        raise FileNotFoundError("no detector model at models/x")

    ec = make_app(tmp_path, store, camera, trainer, ENROLL_TOOLS=broken).test_client()
    ec.post("/api/enroll/start", json={"deck": "k", "labels": "red-0"})
    data = until(ec, lambda d: d["wizard"]["state"] == "error", "the error")
    assert "no detector model" in data["wizard"]["text"]
    assert camera.closed


def test_frames_that_end_end_the_wizard(ec, camera):
    camera.limit = 5
    ec.post("/api/enroll/start", json={"deck": "k", "labels": "red-0"})
    data = until(ec, lambda d: d["wizard"]["state"] == "ended", "the end")
    assert data["wizard"]["text"] == "The camera's frames ended"


BAD = [
    ("start", {"deck": "../etc"}, 400),
    ("start", {"deck": ""}, 400),
    ("start", {"deck": 7}, 400),
    ("start", {"deck": "k", "labels": "purple-12"}, 400),
    ("start", {"deck": "k", "labels": ""}, 400),
    ("start", {"deck": "k", "labels": ["red-0"]}, 400),
    ("start", {"deck": "k", "mode": "juggle"}, 400),
    ("start", {"deck": "k", "camera": "x" * 5000}, 400),
    ("start", {"deck": "k", "camera": None}, 400),
    ("start", [1, 2], 400),
    ("start", "kitchen", 400),
]


@pytest.mark.parametrize(("route", "body", "code"), BAD)
def test_bad_input_is_a_4xx_with_a_message(ec, route, body, code):
    resp = ec.post(f"/api/enroll/{route}", json=body)
    assert resp.status_code == code, resp.get_json()
    assert resp.get_json()["message"]


def test_bad_actions_on_a_started_wizard(ec):
    for route in ("skip", "redo", "mode", "stop"):  # nothing started yet
        assert ec.post(f"/api/enroll/{route}", json={}).status_code == 409
    start(ec)
    cases = [
        ("skip", {"label": "blue-9"}), ("skip", {"label": 3}),
        ("redo", {}), ("redo", {"label": "red-9"}), ("redo", {"label": ["red-0"]}),
        ("mode", {}), ("mode", {"mode": "sheet", "page": 1}),
        ("mode", {"mode": "sheet", "page": True}),
        ("mode", {"mode": "sheet", "page": "0"}),
        ("mode", {"mode": "sheet", "page": -1}),
    ]
    for route, body in cases:
        resp = ec.post(f"/api/enroll/{route}", json=body)
        assert resp.status_code == 400, (route, body, resp.get_json())
    resp = ec.post("/api/enroll/mode", json={"mode": "sheet", "page": 0})
    assert resp.status_code == 200
    # not JSON at all
    resp = ec.post("/api/enroll/skip", data="label=red-0",
                   content_type="application/x-www-form-urlencoded")
    assert resp.status_code == 415
    resp = ec.post("/api/enroll/skip", data="{not json",
                   content_type="application/json")
    assert resp.status_code == 400
    assert ec.get("/enroll/sheet?labels=nope").status_code == 400


def test_garbage_never_gets_a_5xx(ec):
    start(ec)
    junk = [None, 0, -1, 1e308, "", "a" * 3000, [], {}, {"x": 1}, True, "\x00"]
    for route in ("start", "skip", "redo", "mode", "stop", "train"):
        for value in junk:
            for key in ("deck", "labels", "camera", "mode", "label", "page"):
                resp = ec.post(f"/api/enroll/{route}", json={key: value})
                assert resp.status_code < 500, (route, key, value, resp.get_json())
    queries = ("labels=" + "x" * 3000, "labels=%00", "labels=,,,", "deck=" + "y" * 999)
    for query in queries:
        assert ec.get(f"/enroll/sheet?{query}").status_code < 500


def test_every_route_needs_the_token(tmp_path, store, camera, trainer):
    app = make_app(tmp_path, store, camera, trainer, TOKEN="s3cret")
    c = app.test_client()
    for path in ("/enroll", "/enroll/sheet", "/enroll/frame.jpg", "/api/enroll"):
        assert c.get(path).status_code == 403, path
    for route in ("start", "skip", "redo", "mode", "stop", "train"):
        resp = c.post(f"/api/enroll/{route}", json={"deck": "k"})
        assert resp.status_code == 403, route
    assert not camera.frames  # nothing was started
    headers = {"X-Tableref-Token": "s3cret"}
    assert c.get("/enroll", headers=headers).status_code == 200
    resp = c.post("/api/enroll/start", json={"deck": "k", "labels": "red-0"},
                  headers=headers)
    assert resp.status_code == 201
    app.extensions["tableref.enroll"].wizard.close()


def test_setup_links_the_wizard(client):
    page = client.get("/setup").get_data(as_text=True)
    assert 'href="/enroll"' in page


class _Unplugged(FakeCamera):
    """A camera that stops delivering frames after a few (as
    vision.sources.FrameSource raises it, with its kind)."""

    def read(self):  # noqa: ANN201
        if self.frames >= 3:
            from vision.sources import SourceError

            raise SourceError("camera 0 stopped delivering frames", "frames_stopped")
        return super().read()


def _broken_tools():  # noqa: ANN202
    raise ImportError("No module named 'openvino'")


@pytest.mark.parametrize("case", ["camera", "finder"])
def test_a_wizard_stopped_by_a_failure_says_it_in_each_language(
        tmp_path, store, trainer, case):
    """Why the wizard stopped: its own words in English, its kind (from the
    failure's code) in Japanese, never English words inside the Japanese."""
    if case == "camera":
        app = make_app(tmp_path, store, _Unplugged(), trainer)
        words, kind, ja = ("camera 0 stopped delivering frames", "frames_stopped",
                           "停止しました。カメラが止まりました（カメラから画像が届かなくなった）")
        en = f"Stopped: the camera stopped: {words}"
    else:
        app = make_app(tmp_path, store, FakeCamera(), trainer,
                       ENROLL_TOOLS=_broken_tools)
        words, kind = "No module named 'openvino'", "module_missing"
        ja = ("停止しました。カードを見つけるモデルを読み込めませんでした"
              "（モジュールが見つからないか壊れている）")
        en = f"Stopped: the card finder did not load: {words}"
    client = app.test_client()
    try:
        resp = client.post("/api/enroll/start", json={
            "deck": "kitchen", "labels": "red-0,red-1", "camera": "0", "mode": "one"})
        assert resp.status_code < 300, resp.get_json()
        data = until(client, lambda d: d["wizard"]["state"] == "error", "the error")
        assert data["wizard"]["failure"] == kind
        assert data["wizard"]["detail"] == words
        assert data["wizard"]["text"] == en
        assert state(client, "ja")["wizard"]["text"] == ja
    finally:
        holder = app.extensions.get("tableref.enroll")
        if holder is not None and holder.wizard is not None:
            holder.wizard.close()


def test_a_failed_enrollment_says_why_by_its_kind_in_japanese(tmp_path, store):
    from web.enroll import _job_text
    from web.enroll_wizard import EnrollJob

    def full(shots, progress):  # noqa: ANN001, ANN202
        import errno

        raise OSError(errno.ENOSPC, "No space left on device")

    job = EnrollJob("kitchen", [], full, tmp_path)
    job._run()
    snap = job.snapshot()
    assert snap["state"] == "failed" and snap["failure"] == "disk_full"
    app = make_app(tmp_path, store, FakeCamera(), FakeTrainer())
    with app.test_request_context("/?lang=ja"):
        from flask import g

        g.lang = "ja"
        assert _job_text(snap) == "登録に失敗しました: ディスクがいっぱい"
    with app.test_request_context("/?lang=en"):
        from flask import g

        g.lang = "en"
        assert _job_text(snap) == ("Enrollment failed: [Errno 28] No space left "
                                   "on device")
