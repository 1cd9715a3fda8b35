"""A new referee's 3-player round in a real browser (Debian's chromium, Playwright).

The walkthrough of issue 26: set up a game, turn up the first card, plays, an
illegal card, a forgotten UNO caught, a Wild Draw Four challenged and upheld,
a delete (confirmed) and its undo, a "New round" that asks first, the round's
end. At 1366x768 the newest ruling and the controls are on screen without
scrolling; on a 390x844 phone every control is at least 44 px and the event
text is not cut; in Japanese the display, the status bar, the setup and the
camera messages are Japanese. Screenshots go to ``tests/web/artifacts/``
(git-ignored), named ``walkthrough-*.png``.
"""

from __future__ import annotations

import re
import threading

import pytest
from browser_support import ARTIFACTS, TIMEOUT, needs_chromium


pytestmark = needs_chromium
pw = pytest.importorskip("playwright.sync_api")

from web import create_app  # noqa: E402

PLAYERS = ["Aiko", "Ben", "Chie"]
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def served(tmp_path):
    """(app, base URL) of a live server on a durable store in a temporary folder."""
    from werkzeug.serving import make_server

    videos = tmp_path / "videos"
    videos.mkdir()
    (videos / "table-cam.mp4").write_bytes(b"")
    app = create_app(
        {
            "DATABASE": str(tmp_path / "db" / "tableref.sqlite3"),
            "EVIDENCE_DIRS": [str(tmp_path / "evidence")],
            "VIDEO_DIRS": [str(videos)],
            "SSE_HEARTBEAT": 0.5,
            "SSE_SECONDS": 60,
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.socket.close()


def new_page(browser, viewport, errors):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page


def shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"walkthrough-{name}.png"))


def last_index(page) -> int:
    return int(page.locator("#last-ruling").get_attribute("data-index"))


def ruled(page, before: int) -> None:
    """Wait until the display shows a ruling newer than ``before``."""
    page.wait_for_function(
        "n => Number(document.querySelector('#last-ruling').dataset.index) > n",
        arg=before,
    )


def submit(page, form, **fields):
    """Fill a control form (selects chosen, inputs typed) and press its button."""
    f = page.locator(f"section.controls form[data-type={form}]")
    for name, value in fields.items():
        target = f.locator(f"[name={name}]")
        if target.evaluate("el => el.tagName") == "SELECT":
            target.select_option(value)
        else:
            target.fill(value)
    before = last_index(page)
    f.locator("button[type=submit]").click()
    ruled(page, before)


def chosen(page, form, name="player") -> str:
    sel = page.locator(f"section.controls form[data-type={form}] select[name={name}]")
    return sel.evaluate("el => el.value")


def in_view(page, selector) -> bool:
    """Whether ``selector`` shows at the top of the page without scrolling."""
    page.evaluate("window.scrollTo(0, 0)")
    box = page.locator(selector).first.bounding_box()
    vp = page.viewport_size
    return bool(box) and box["y"] >= 0 and box["y"] + min(box["height"], 40) <= vp[
        "height"
    ] and box["x"] + box["width"] <= vp["width"] + 1


def test_a_new_referee_referees_a_three_player_round(browser, served):
    app, url = served
    table = app.extensions["tableref.table"]
    # a demo-like game runs first: its hand size and rounds must not be inherited
    table.new_game(
        {
            "game": "uno",
            "rules": "official",
            "players": ["X", "Y"],
            "hand_size": 5,
            "options": {"scoring": "japan", "rounds": 2},
        }
    )
    errors: list[str] = []
    context, page = new_page(browser, DESKTOP, errors)

    # 1. setup: the game's own defaults, the camera from a list
    page.goto(url + "/setup")
    page.select_option("select[name=rules]", label="uno · official")
    assert page.input_value("input[name=hand_size]") == "7"
    assert page.input_value("input[name=rounds]") == "5"
    options = page.locator("#camera-choice option").all_inner_texts()
    assert any("table-cam.mp4" in o for o in options), options
    assert page.locator("#camera-choice").evaluate("el => el.value") == ""
    assert page.locator(".other-source").is_hidden()
    page.fill("textarea[name=players]", "\n".join(PLAYERS))
    page.fill("input[name=hand_size]", "2")  # a short round for the walkthrough
    shot(page, "01-setup")
    page.click("#setup button[type=submit]")
    page.wait_for_url(url + "/")
    header = table.referee.header
    assert list(header.players) == PLAYERS and header.hand_size == 2

    # 2. the next step is said, and the first-card form is first in the controls
    pw.expect(page.locator("#next-step")).to_contain_text("turn up the first card")
    submit(page, "start", card="red-7")
    pw.expect(page.locator("#top-card")).to_have_attribute("data-card", "red-7")
    pw.expect(page.locator("#turn")).to_have_text("Aiko")
    assert chosen(page, "play") == "Aiko"  # the form starts on the turn
    shot(page, "02-first-card")

    # 3. an illegal card: highlighted on the display
    submit(page, "play", cards="blue-4")
    pw.expect(page.locator("#last-ruling")).to_have_class(re.compile(r"\balert\b"))
    pw.expect(page.locator("#last-ruling")).to_have_class(re.compile(r"k-illegal"))
    # the form was reset: Enter would not record the same play again
    assert page.input_value("section.controls form[data-type=play] [name=cards]") == ""
    assert in_view(page, "#rulings li") and in_view(page, "section.controls h2")
    shot(page, "03-illegal")

    # 4. delete asks first; Cancel keeps the line, Delete removes it
    lines = len(table.referee.events)
    page.locator(f"ol.events li[data-line='{lines}'] button.do-delete").click()
    pw.expect(page.locator("#confirm")).to_be_visible()
    assert "Delete line 2" in page.locator("#confirm-text").inner_text()
    page.click("#confirm-cancel")
    assert len(table.referee.events) == lines
    page.locator(f"ol.events li[data-line='{lines}'] button.do-delete").click()
    page.click("#confirm-ok")
    pw.expect(page.locator("ol.events li")).to_have_count(lines - 1)
    deleted = {"type": "play", "player": "Aiko", "cards": ["blue-4"]}
    deleted["source"] = "manual"
    assert deleted not in table.referee.events
    # undo puts the deleted event back on its line (it removes nothing else)
    page.click("section.controls button.undo")
    pw.expect(page.locator("ol.events li")).to_have_count(lines)
    assert table.referee.events[lines - 1] == deleted
    pw.expect(page.locator("#status")).to_contain_text("deleted line 2 is back")
    page.click("section.controls button.undo")  # and now the play itself goes
    pw.expect(page.locator("ol.events li")).to_have_count(lines - 1)

    # 5. a forgotten UNO: the display watches Aiko; Catch starts on her
    submit(page, "play", cards="red-3")
    pw.expect(page.locator("#uno-watch")).to_contain_text("Aiko")
    assert chosen(page, "catch", "target") == "Aiko"
    assert chosen(page, "catch", "player") == "Ben"
    submit(page, "catch")
    pw.expect(page.locator("#pending-draw")).to_contain_text("Aiko draws 2 (penalty)")
    pw.expect(page.locator("#last-ruling")).to_have_class(re.compile(r"k-penalty"))
    assert chosen(page, "draw") == "Aiko"  # the draw form starts on who owes
    submit(page, "draw", count="2")
    pw.expect(page.locator("#pending-draw")).to_have_text("none")

    # 6. a Wild Draw Four challenged: the challenger and the accused are chosen
    submit(page, "play", cards="wild-draw4", color="blue")
    pw.expect(page.locator("#pending-draw")).to_contain_text("Chie draws 4")
    assert chosen(page, "challenge") == "Chie"
    pw.expect(page.locator("#accused")).to_have_text("against Ben")
    submit(page, "challenge")
    assert chosen(page, "reveal") == "Ben"
    submit(page, "reveal", cards="red-1")
    pw.expect(page.locator("#last-ruling")).to_have_class(re.compile(r"k-penalty"))
    pw.expect(page.locator("#pending-draw")).to_contain_text("Ben draws 4 (penalty)")
    assert in_view(page, "#last-ruling") and in_view(page, "#rulings li")
    shot(page, "04-challenge-upheld")
    submit(page, "draw", count="4")

    # 7. "New round" mid-round asks first; Cancel records nothing
    lines = len(table.referee.events)
    page.fill("section.controls form.new-round input[name=card]", "green-2")
    page.click("section.controls form.new-round button")
    pw.expect(page.locator("#confirm")).to_be_visible()
    assert "abandon" in page.locator("#confirm-text").inner_text()
    page.click("#confirm-cancel")
    assert len(table.referee.events) == lines

    # 8. the round plays out: Ben red-1, Chie red-5 (calls UNO), Aiko, Ben, Chie out
    submit(page, "play", cards="red-1")
    submit(page, "play", cards="red-5")
    before = last_index(page)
    page.click("section.controls button.uno:has-text('Chie')")
    ruled(page, before)
    submit(page, "play", cards="red-9")
    submit(page, "play", cards="red-2")
    submit(page, "play", cards="red-8")  # Chie goes out
    state = table.referee.state()
    assert state["phase"] in ("scoring", "setup"), state["phase"]
    for player in ("Aiko", "Ben"):
        if table.referee.state()["phase"] == "scoring":
            submit(page, "reveal", player=player, cards="blue-9 green-2")
    pw.expect(page.locator("#scoreboard tr.round")).to_have_count(1)
    pw.expect(page.locator("#next-step")).to_be_visible()  # the next round's card
    shot(page, "05-round-end")
    page.goto(url + "/table")
    pw.expect(page.locator("#last-ruling")).to_be_visible()
    shot(page, "06-table-view")
    context.close()
    assert errors == []


# Controls smaller than 44x44 px (a radio or a checkbox counts as its label).
SMALL_TARGETS = """() => Array.from(document.querySelectorAll(
    'main button, main select, main input, main textarea, main a.button, header a'))
  .filter(el => el.offsetParent !== null)
  .map(el => (['radio', 'checkbox'].includes(el.type) && el.labels.length)
               ? el.labels[0] : el)
  .map(el => [el.outerHTML.slice(0, 60), el.getBoundingClientRect()])
  .filter(([_, r]) => r.width < 44 || r.height < 44)
  .map(([h, r]) => `${h} ${r.width}x${r.height}`)"""


def test_phone_layout_targets_event_text_and_chart(browser, served):
    app, url = served
    table = app.extensions["tableref.table"]
    table.new_game({"game": "uno", "rules": "official", "players": PLAYERS})
    for event in (
        {"type": "start", "card": "yellow-draw2"},
        {"type": "draw", "player": "Aiko", "count": 2},
        {"type": "play", "player": "Ben", "cards": ["yellow-5"]},
    ):
        table.append(event)
    errors: list[str] = []
    context, page = new_page(browser, PHONE, errors)
    for path in ("/setup", "/table", "/"):  # the referee's page stays open
        page.goto(url + path)
        page.wait_for_selector("main")
        assert page.evaluate(SMALL_TARGETS) == [], path
    pw.expect(page.locator("#top-card")).to_have_text("yellow 5")
    # the controls come right after the display, under the thumb
    display = page.locator("section.display").bounding_box()
    controls = page.locator("section.controls").bounding_box()
    assert controls["y"] >= display["y"] + display["height"] - 1
    cut = page.evaluate(
        """() => Array.from(document.querySelectorAll('.event-text, .ruling .text'))
          .filter(el => el.scrollWidth > el.clientWidth + 1)
          .map(el => el.textContent)"""
    )
    assert cut == []
    assert "Ben plays yellow 5" in page.locator("ol.events li").first.inner_text()
    shot(page, "07-phone-referee")
    page.goto(url + "/scores")
    heights = page.evaluate(
        """() => Array.from(document.querySelectorAll('#chart text'))
          .map(t => t.getBoundingClientRect().height)"""
    )
    assert heights and min(heights) >= 12, heights
    page.goto(url + "/table")
    shot(page, "08-phone-table")
    context.close()
    assert errors == []


def test_japanese_display_status_setup_and_camera(browser, served):
    app, url = served
    table = app.extensions["tableref.table"]
    table.new_game({"game": "uno", "rules": "official", "players": PLAYERS})
    table.append({"type": "start", "card": "yellow-draw2"})
    errors: list[str] = []
    context, page = new_page(browser, PHONE, errors)
    page.goto(url + "/?lang=ja")
    pw.expect(page.locator("#top-card")).to_have_text("黄のドロー2")
    pw.expect(page.locator("#top-color")).to_contain_text("黄")
    pw.expect(page.locator("#pending-draw")).to_contain_text("Aikoが2枚引く")
    pw.expect(page.locator("section.video")).to_contain_text("カメラは起動されていません")
    brand = page.locator(".brand")
    lines = brand.evaluate("el => el.getClientRects().length")
    box = brand.bounding_box()
    assert lines == 1 and box["height"] < 40, box  # the title does not wrap
    submit(page, "draw", count="2")
    pw.expect(page.locator("#status")).to_contain_text("記録しました")
    pw.expect(page.locator("#last-ruling .headline")).to_contain_text("引く")
    assert in_view(page, "#status")  # the phone keeps the status by the thumb
    # a ruling with data (msg) is said in Japanese as it arrives: here the
    # inferred clause of a camera play whose player was taken from the turn
    table.append({"type": "play", "cards": ["yellow-5"], "inferred": "camera"})
    pw.expect(page.locator("#last-ruling .sentence")).to_contain_text("（推定: camera）")
    pw.expect(page.locator("#rulings li").first).to_contain_text("（推定: camera）")
    shot(page, "09-phone-ja")
    page.set_viewport_size(DESKTOP)
    shot(page, "10-desktop-ja")
    page.goto(url + "/setup")
    for text in ("配る枚数", "得点方式", "ラウンド数", "カメラ入力", "ゲーム開始"):
        pw.expect(page.locator("#setup")).to_contain_text(text)
    context.close()
    assert errors == []


def test_sound_is_off_by_default_and_alerts_flash(browser, served):
    app, url = served
    table = app.extensions["tableref.table"]
    table.new_game({"game": "uno", "rules": "official", "players": PLAYERS})
    table.append({"type": "start", "card": "red-7"})
    errors: list[str] = []
    context, page = new_page(browser, DESKTOP, errors)
    page.goto(url + "/table")
    toggle = page.locator("#sound-toggle")
    pw.expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    pw.expect(toggle).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("window.EventSource !== undefined")
    page.wait_for_timeout(500)  # the stream is open
    table.append({"type": "play", "player": "Aiko", "cards": ["blue-4"]}, "vision")
    pw.expect(page.locator("#last-ruling")).to_have_class(re.compile(r"\bflash\b"))
    assert int(page.evaluate("document.body.dataset.beeps || 0")) >= 2  # toggle, alert
    page.reload()
    pw.expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    context.close()
    assert errors == []


OBSERVE = """() => {
  window.__seen = Number(document.querySelector('#last-ruling').dataset.index);
  window.__clicks = []; window.__shown = [];
  document.addEventListener('submit', () => window.__clicks.push(performance.now()), true);
  new MutationObserver(() => {
    const el = document.querySelector('#last-ruling');
    if (el && Number(el.dataset.index) > window.__seen) {
      window.__seen = Number(el.dataset.index);
      window.__shown.push([performance.now(), Date.now(), el.className]);
    }
  }).observe(document.querySelector('[data-partial=display]'),
             {childList: true, subtree: true});
}"""


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def test_click_and_camera_rulings_reach_the_display_quickly(browser, served):
    """Issue 26's goals: click -> ruling <= 150 ms p95, camera -> highlighted
    <= 200 ms p95. Measured here and written to artifacts/timings.json; the
    test's own bound is looser, for a loaded 2-core machine."""
    import json
    import time

    app, url = served
    table = app.extensions["tableref.table"]
    table.new_game(
        {"game": "uno", "rules": "official", "players": PLAYERS, "hand_size": 12}
    )
    table.append({"type": "start", "card": "red-0"})
    errors: list[str] = []
    context, page = new_page(browser, DESKTOP, errors)
    page.goto(url + "/")
    page.wait_for_selector("#last-ruling")
    page.wait_for_timeout(500)  # the stream is open
    page.evaluate(OBSERVE)
    cards = page.locator("section.controls form[data-type=play] [name=cards]")
    for i in range(20):
        before = last_index(page)
        cards.fill(f"red-{1 + i % 9}")
        cards.press("Enter")  # the form's player is the turn
        ruled(page, before)
        cards = page.locator("section.controls form[data-type=play] [name=cards]")
    clicks = page.evaluate("window.__clicks")
    shown = page.evaluate("window.__shown")
    click_ms = [s[0] - c for c, s in zip(clicks, shown)]
    camera_ms = []
    for _ in range(20):
        before = last_index(page)
        sent = time.time() * 1000
        turn = table.referee.state()["turn"]
        table.append({"type": "play", "player": turn, "cards": ["blue-4"]}, "vision")
        ruled(page, before)
        last = page.evaluate("window.__shown[window.__shown.length - 1]")
        assert "alert" in last[2]
        camera_ms.append(last[1] - sent)
    timings = {
        "click_to_ruling_ms_p95": round(p95(click_ms), 1),
        "camera_to_highlight_ms_p95": round(p95(camera_ms), 1),
        "click_to_ruling_ms": [round(t, 1) for t in click_ms],
        "camera_to_highlight_ms": [round(t, 1) for t in camera_ms],
    }
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "timings.json").write_text(json.dumps(timings, indent=1))
    print(timings["click_to_ruling_ms_p95"], timings["camera_to_highlight_ms_p95"])
    assert len(click_ms) == 20
    assert timings["click_to_ruling_ms_p95"] < 1000
    assert timings["camera_to_highlight_ms_p95"] < 1000
    context.close()
    assert errors == []
