"""A question from the camera answered in one tap, in a real browser (Debian's
chromium, Playwright): the referee view shows it at the top of the controls,
in sight at 1366x768, with one button (at least 44 px) per answer; a tap (or
Enter on the focused button) writes the answer to the log and the question
goes away; Undo brings it back. Screenshots go to ``tests/web/artifacts/``
(git-ignored), named ``questions-*.png``.
"""

from __future__ import annotations

import threading

import pytest
from browser_support import ARTIFACTS, TIMEOUT, needs_chromium


pytestmark = needs_chromium
pw = pytest.importorskip("playwright.sync_api")

from vision.handsfree import complete  # noqa: E402
from web import create_app  # noqa: E402

UNO = {"game": "uno", "rules": "official", "players": ["Aiko", "Ben", "Chie"],
       "dealer": "Chie", "hand_size": 5, "options": {}}


@pytest.fixture
def served(tmp_path):
    """(table, base URL) of a live server with a uno game started."""
    from werkzeug.serving import make_server

    app = create_app({
        "DATABASE": str(tmp_path / "db" / "tableref.sqlite3"),
        "EVIDENCE_DIRS": [str(tmp_path / "evidence")],
        "SSE_HEARTBEAT": 0.5,
        "SSE_SECONDS": 60,
        "RESUME": False,
    })
    table = app.extensions["tableref.table"]
    table.new_game(UNO)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield table, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.socket.close()


def camera(table, kind, **kw):
    """A camera event completed as ``serve`` does, then logged (its thread)."""
    for e in complete({"type": kind, "source": "vision", **kw}, table.referee.state()):
        table.append(e, source="vision")


def open_questions(table):
    return [r for r in table.referee.rulings
            if r.ruling == "pending" and r.rule.endswith(".question")]


def open_page(browser, url, width=1366, height=768):
    """A page of its own context at ``url``; the page's script errors gather
    in the list returned beside it."""
    errors: list[str] = []
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    return context, page, errors


def test_a_colour_question_is_answered_with_one_tap_and_undone(browser, served):
    table, base = served
    camera(table, "start", card="red-7")
    context, page, errors = open_page(browser, base + "/?lang=en")
    assert page.locator(".questions").count() == 0
    # the camera sees a wild on a wild while the page is open: the question arrives
    camera(table, "play", cards=["wild"], reach_from="Aiko")
    camera(table, "play", cards=["wild"], reach_from="Ben")
    box = page.locator(".questions")
    box.wait_for()
    assert "which colour was named" in box.locator(".question-text").inner_text()
    top = box.bounding_box()
    assert top["y"] + 120 < 768  # in sight without scrolling
    answers = box.locator("button.answer")
    assert answers.all_inner_texts() == ["Red", "Yellow", "Green", "Blue",
                                         "No colour was named"]
    for i in range(answers.count()):
        size = answers.nth(i).bounding_box()
        assert size["height"] >= 44 and size["width"] >= 44
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "questions-asked.png"))

    box.locator("button.answer[data-answer=blue]").click()
    page.locator(".questions").wait_for(state="detached")
    assert not open_questions(table)
    assert [e["type"] for e in table.referee.events] == ["start", "play", "color", "play"]
    assert table.referee.events[2]["color"] == "blue"
    assert "Answer recorded: Blue" in page.locator("#status").inner_text()
    # the focus went to Undo (no other question): Enter takes the answer back
    page.wait_for_function("document.activeElement.classList.contains('undo')")
    page.keyboard.press("Enter")
    page.locator(".questions").wait_for()
    assert [e["type"] for e in table.referee.events] == ["start", "play", "play"]
    assert len(open_questions(table)) == 1
    page.screenshot(path=str(ARTIFACTS / "questions-undone.png"))
    context.close()
    assert not errors, errors


def test_a_japanese_referee_answers_out_of_turn_from_the_keyboard(browser, served):
    table, base = served
    camera(table, "start", card="red-7")
    camera(table, "play", cards=["red-3"], reach_from="Ben")  # Aiko's turn
    context, page, _errors = open_page(browser, base + "/?lang=ja", 390, 844)
    box = page.locator(".questions")
    assert "審判からの質問" in box.inner_text()
    assert box.locator("button.answer").all_inner_texts() == [
        "Aikoが1枚引いてパスした", "Benが順番外に出した", "カードは出ていない（誤認識）"]
    # keyboard: the first answer is reachable with Tab from the page's top
    first = box.locator("button.answer").first
    for _ in range(40):
        page.keyboard.press("Tab")
        if first.evaluate("el => el === document.activeElement"):
            break
    else:
        pytest.fail("the first answer was never focused by Tab")
    page.keyboard.press("Tab")  # the second: Ben played out of turn
    page.keyboard.press("Enter")
    page.locator(".questions").wait_for(state="detached")
    kept = table.referee.events[-1]
    assert kept["answered"] == "out-of-turn" and "question" not in kept
    assert table.referee.rulings[-1].rule == "official.turn"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "questions-answered-ja.png"))
    context.close()


def test_a_shown_hand_read_with_doubt_is_corrected_with_one_tap(browser, served):
    """A reveal whose card the camera read with doubt: one tap on the runner-up
    hand replaces the line and the round is scored again."""
    from referee.camera_text import answer_as_read, answer_card_is, reveal_question

    table, base = served
    table.new_game({**UNO, "hand_size": 1})
    table.append({"type": "start", "card": "red-7"}, source="vision")
    table.append({"type": "play", "player": "Aiko", "cards": ["red-3"]}, source="vision")
    q = reveal_question("Ben", ["red-6"], ["red-5"])
    table.append({"type": "reveal", "player": "Ben", "cards": ["red-6"],
                  "question": str(q), "question_msg": q.data(),
                  "answers": [
                      {"id": "as-read", "do": "replace",
                       "label": answer_as_read(["red-6"]).data(),
                       "event": {"type": "reveal", "player": "Ben", "cards": ["red-6"]}},
                      {"id": "alt-1", "do": "replace",
                       "label": answer_card_is("red-6", "red-5", 5).data(),
                       "event": {"type": "reveal", "player": "Ben", "cards": ["red-5"]}}]},
                 source="vision")
    table.append({"type": "reveal", "player": "Chie", "cards": ["blue-2"]}, source="vision")
    assert table.referee.state()["scores"]["Ben"] == -6
    context, page, errors = open_page(browser, base + "/?lang=ja")
    box = page.locator(".questions")
    box.wait_for()
    assert "赤の5" in box.locator(".question-text").inner_text()
    box.locator("button.answer[data-answer=alt-1]").click()
    page.locator(".questions").wait_for(state="detached")
    assert not open_questions(table)
    assert table.referee.events[2]["cards"] == ["red-5"]
    assert table.referee.state()["scores"]["Ben"] == -5
    context.close()
    assert not errors, errors
