"""Enrolling a 54-card deck through the page wizard in a real browser (Debian's
chromium, Playwright), with a fake camera that a stand-in person drives: a card
skipped and taken later, the wrong card shown once (flagged unsure, tapped to
take it again, the finger down while the page refreshes), a switch to laying
out the printed sheet's pages, then Enroll with its progress, and the deck
listed with the command that plays with it.
Screenshots go to ``tests/web/artifacts/`` (git-ignored), ``enroll-*.png``. A
failure prints the wizard's last prompts as the stand-in person saw them.
"""

from __future__ import annotations

import threading
import time
from collections import deque

import pytest
from browser_support import ARTIFACTS, TIMEOUT, needs_chromium
from enroll_fakes import FakeCamera, FakeTrainer, fake_tools


pytestmark = needs_chromium
pw = pytest.importorskip("playwright.sync_api")

from vision.enroll_camera import GuideConfig  # noqa: E402
from web import create_app  # noqa: E402

FAST = GuideConfig(steady=2, shots=2, gap=1, away=2)


class Person:
    """Does what the wizard's prompt says: shows the card asked for (the wrong
    card once for ``mistake``), takes it away, lays out a sheet page; nothing
    until ``active`` is set."""

    def __init__(self, app, camera: FakeCamera, mistake: tuple[str, str]) -> None:
        self.app, self.camera, self.mistake = app, camera, mistake
        self.active = threading.Event()
        self.stop = threading.Event()
        self.made_mistake = False
        self.keep_mistake = False  # the wrong card stays up until asked to clear
        self.showing: list[str] = []  # what the fake camera really shows
        self.log: deque[str] = deque(maxlen=60)  # the prompts seen, what was done
        self.t0 = time.monotonic()
        self._seen: tuple | None = None
        self.thread = threading.Thread(target=self.run, daemon=True)

    def note(self, text: str) -> None:
        self.log.append(f"{time.monotonic() - self.t0:8.3f} {text}")

    def history(self) -> str:
        return "\n".join(self.log)

    def run(self) -> None:
        while not self.stop.wait(0.01):
            holder = self.app.extensions.get("tableref.enroll")
            wizard = holder.wizard if holder else None
            if wizard is None or not self.active.is_set():
                continue
            snap = wizard.snapshot()
            key, target = snap["say"]["key"], snap["target"]
            seen = (key, snap["say"]["args"], target[:4], snap["mode"], snap["news"])
            if seen != self._seen:
                self._seen = seen
                self.note(f"prompt {key} {snap['say']['args']} target={target[:4]} "
                          f"mode={snap['mode']} news={snap['news']} seq={snap['frame_seq']}")
            if key == "clear":
                self.keep_mistake = False
                if self.showing:
                    self.camera.clear()
                    self.showing = []
                    self.note("clears")
            elif target and (key == "show"
                             or (key == "hold" and snap["mode"] != "sheet")):
                # one card at a time, "hold" too: a card asked for while another
                # is still up is answered even when the prompt has already moved
                # on to "hold" (a sheet page's "hold" is the whole page laid out)
                want = target[0]
                if want == self.mistake[0] and not self.made_mistake:
                    want = self.mistake[1]
                    self.made_mistake = self.keep_mistake = True
                elif self.keep_mistake and want == self.mistake[0]:
                    want = self.mistake[1]
                if self.showing != [want]:
                    self.camera.one(want)
                    self.showing = [want]
                    self.note(f"shows {want}")
            elif key in ("lay", "sheet_found", "sheet_rows") and target \
                    and self.showing != target:
                self.camera.grid(target)
                self.showing = list(target)
                self.keep_mistake = False


@pytest.fixture
def served(tmp_path):
    from werkzeug.serving import make_server

    camera = FakeCamera()
    trainer = FakeTrainer(hold=True)
    app = create_app({
        "DATABASE": str(tmp_path / "db" / "tableref.sqlite3"),
        "EVIDENCE_DIRS": [str(tmp_path / "evidence")],
        "DECKS_DIR": str(tmp_path / "decks"),
        "ENROLL_SOURCE": lambda spec: camera,
        "ENROLL_TOOLS": fake_tools,
        "ENROLL_TRAINER": trainer,
        "ENROLL_GUIDE": FAST,
    })
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    person = Person(app, camera, ("red-3", "red-8"))
    person.thread.start()
    yield app, f"http://127.0.0.1:{server.server_port}", person, trainer
    person.stop.set()
    holder = app.extensions.get("tableref.enroll")
    if holder is not None and holder.wizard is not None:
        holder.wizard.close()
    server.shutdown()
    server.socket.close()


def shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"enroll-{name}.png"), full_page=True)


def tap_across_a_refresh(page, locator) -> None:
    """A person's tap on ``locator`` with the finger down while the page
    refreshes its state (it asks every 400 ms; a tap lasts a tenth of a second
    or more): the tap counts only if the button under the finger is the same
    button when it lifts."""
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    for _ in range(2):  # the next state is asked for only once one was drawn
        with page.expect_response(lambda r: r.url.endswith("/api/enroll")):
            pass
    page.mouse.up()


def test_enroll_a_deck_in_the_browser(browser, served):
    app, base, person, trainer = served
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        walk_through(page, base, app, person, trainer)
    except BaseException:
        # what the wizard said last and what the person did: a failure says why
        print("the wizard's last prompts, as the stand-in person saw them:")
        print(person.history())
        holder = app.extensions.get("tableref.enroll")
        if holder is not None and holder.wizard is not None:
            snap = holder.wizard.snapshot()
            print("now:", snap["state"], snap["say"], "target", snap["target"],
                  "news", snap["news"], "frames", snap["frame_seq"])
            print("cards not taken surely:", [
                (c["label"], c["status"], c["read"]) for c in snap["cards"]
                if c["status"] != "captured"])
        raise
    assert errors == []
    context.close()


def walk_through(page, base, app, person, trainer) -> None:
    page.goto(f"{base}/setup")
    page.locator("a[href='/enroll']").click()
    page.wait_for_url(f"{base}/enroll")
    page.fill("input[name=deck]", "kitchen")
    page.select_option("select[name=labels]", "uno")
    assert "labels=uno" in page.get_attribute("#sheet-link", "href")
    page.click("#enroll-start button[type=submit]")
    page.wait_for_selector("#wizard:not([hidden])")
    page.wait_for_function(
        "() => document.querySelector('#prompt').dataset.key === 'show'")
    assert page.inner_text("#prompt") == "Show red 0"
    assert page.inner_text("#n-missing") == "54"

    # red 0 is not at hand: skipped, then the person starts showing cards
    page.click("#skip")
    page.wait_for_selector("button.enroll-card.skipped[data-label='red-0']")
    assert page.inner_text("#n-skipped") == "1"
    person.active.set()

    # red 3 asked for, red 8 shown: the page flags it; a tap takes it again
    unsure = page.locator("button.enroll-card.unsure[data-label='red-3']")
    unsure.wait_for()
    assert "≈ red 8" in unsure.inner_text()
    assert int(page.inner_text("#n-unsure")) == 1
    shot(page, "unsure")
    person.note("the test taps red-3 (take it again)")
    tap_across_a_refresh(page, unsure)
    page.wait_for_selector("button.enroll-card.captured[data-label='red-3']")

    # the rest laid out as the printed sheet shows
    page.wait_for_function("() => Number(document.querySelector('#n-captured')"
                           ".textContent) >= 6")
    page.select_option("#mode", "sheet")
    page.wait_for_selector("#page-pick:not([hidden])")
    page.wait_for_function(
        "() => document.querySelector('#prompt').dataset.key === 'done'")
    assert page.inner_text("#n-captured") == "53"
    assert page.inner_text("#n-unsure") == "0"
    # the skipped card after all: its sheet page is laid out again
    page.click("button.enroll-card.skipped[data-label='red-0']")
    page.wait_for_selector("button.enroll-card.captured[data-label='red-0']")
    page.wait_for_function(
        "() => document.querySelector('#prompt').dataset.key === 'done'")
    assert page.inner_text("#n-captured") == "54"
    assert page.inner_text("#n-missing") == "0"
    assert page.locator("#enroll-frame").is_visible()
    shot(page, "all-taken")

    page.click("#train")
    page.wait_for_function(
        "() => document.querySelector('#job-text').textContent.includes('50 %')")
    assert page.locator("#job-progress").is_visible()
    trainer.go.set()
    page.wait_for_function(
        "() => document.querySelector('#job-text').dataset.state === 'done'")
    text = page.inner_text("#job-text")
    assert "Deck kitchen enrolled: 54 cards" in text
    assert "tableref serve --deck kitchen" in text
    assert "Missing" not in text  # wild-shuffle and wild-custom were not asked for
    shot(page, "enrolled")
    assert sorted({s.label for s in trainer.shots}) == sorted(
        c["label"] for c in app.extensions["tableref.enroll"].wizard.snapshot()["cards"])

    page.goto(f"{base}/enroll?lang=ja")
    assert "kitchen: 54枚" in page.inner_text("#decks")
    assert page.inner_text("h1") == "デッキの登録"
