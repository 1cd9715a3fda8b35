"""Real-browser tests: Debian's chromium driven by Playwright against a live server.

The app is served by werkzeug on 127.0.0.1 (ephemeral port) in a thread, with
the real UNO engine and the durable store in a temporary folder. The demo is
the bundled demo table log replayed event by event (as the camera would send
it), so rulings arrive over SSE while the page is open. A screenshot of the
live view is saved to ``tests/web/artifacts/``.
"""

from __future__ import annotations

import json
import threading

import pytest
from browser_support import ARTIFACTS, TIMEOUT, needs_chromium


pytestmark = needs_chromium
playwright_api = pytest.importorskip("playwright.sync_api")

from referee.data import DEMO_LOG  # noqa: E402
from referee.game import replay  # noqa: E402
from web import create_app  # noqa: E402
from web.camera import LogPlayer, read_demo_log  # noqa: E402



@pytest.fixture
def served(tmp_path):
    """(app, base URL) of a live server with an empty durable store."""
    from werkzeug.serving import make_server

    app = create_app(
        {
            "DATABASE": str(tmp_path / "db" / "tableref.sqlite3"),
            "EVIDENCE_DIRS": [str(tmp_path / "evidence")],
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


@pytest.fixture
def page(browser, served):
    """A page that records every request, to prove nothing leaves the machine."""
    _, url = served
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT)
    pg.requests = []
    pg.errors = []
    pg.on("request", lambda req: pg.requests.append(req.url))
    pg.on("pageerror", lambda exc: pg.errors.append(str(exc)))
    pg.on(
        "console",
        lambda m: (
            m.type == "error"
            and "Failed to load resource" not in m.text  # a 4xx the test asked for
            and pg.errors.append(m.text)
        ),
    )
    yield pg
    context.close()
    assert pg.errors == [], "script errors or blocked content (CSP) in the page"
    outside = [
        u for u in pg.requests if not (u.startswith(url) or u.startswith("data:"))
    ]
    assert outside == [], f"the page fetched from the network: {outside}"


def demo_game(app):
    """Start the demo game (header only); returns its events."""
    header, events = read_demo_log(DEMO_LOG)
    app.extensions["tableref.table"].new_game(header)
    return events


def test_demo_rulings_arrive_live_and_screenshot(served, page):
    app, url = served
    events = demo_game(app)
    with open(DEMO_LOG, encoding="utf-8") as fh:
        expected = replay(fh)
    page.goto(url + "/")
    page.wait_for_selector("#rulings", state="attached")
    assert page.locator("#rulings li").count() == 0
    table = app.extensions["tableref.table"]
    LogPlayer(events, lambda e: table.append(e, source="vision"), interval=0.02).start()
    rulings = page.locator("#rulings li")
    playwright_api.expect(rulings).to_have_count(len(expected.rulings), timeout=TIMEOUT)
    shown = page.locator("#rulings li code.rule").all_inner_texts()
    assert shown == [r.rule for r in reversed(expected.rulings)]
    state = expected.state()
    playwright_api.expect(page.locator("#top-card")).to_have_attribute(
        "data-card", state["top"]
    )
    playwright_api.expect(page.locator("#turn")).to_have_text(state["turn"] or "—")
    rounds = page.locator("#scoreboard tr.round")
    playwright_api.expect(rounds).to_have_count(len(state["rounds"]))
    totals = page.locator("#scoreboard tfoot td[data-player]").all_inner_texts()
    assert totals == [str(state["scores"][p]) for p in state["players"]]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "live-view.png"), full_page=True)
    page.click("a.lang")
    playwright_api.expect(page.locator("section.rulings h2")).to_contain_text("裁定")
    page.screenshot(path=str(ARTIFACTS / "live-view-ja.png"), full_page=True)


def events_of(app):
    return app.extensions["tableref.table"].referee.events


def test_controls_record_events_and_corrections_show_what_changed(served, page):
    app, url = served
    table = app.extensions["tableref.table"]
    prefix = demo_game(app)[:8]  # the first moves of the demo round
    for event in prefix:
        table.append(event, source="vision")
    players = list(table.referee.header.players)
    n = len(prefix)
    page.goto(url + "/")
    rulings = page.locator("#rulings li")
    before = rulings.count()

    page.click(f"button.uno:has-text('{players[1]}')")
    playwright_api.expect(rulings).to_have_count(before + 1)
    assert events_of(app)[-1] == {
        "type": "uno",
        "player": players[1],
        "source": "manual",
    }

    play = page.locator("form[data-type=play]")
    play.locator("select[name=player]").select_option(players[1])
    play.locator("input[name=cards]").fill("B5")
    play.locator("select[name=color]").select_option("blue")
    play.locator("button[type=submit]").click()
    playwright_api.expect(page.locator("ol.events li")).to_have_count(n + 2)
    assert (
        events_of(app)[-1]["cards"] == ["B5"] and events_of(app)[-1]["color"] == "blue"
    )

    draw = page.locator("form[data-type=draw]")
    draw.locator("input[name=count]").fill("2")
    draw.locator("button[type=submit]").click()
    playwright_api.expect(page.locator("ol.events li")).to_have_count(n + 3)
    drawn = events_of(app)[-1]  # the form names the player on turn, or who owes
    assert (drawn["type"], drawn["count"]) == ("draw", 2) and drawn["player"] in players

    catch = page.locator("form[data-type=catch]")
    catch.locator("select[name=player]").select_option(players[0])
    catch.locator("select[name=target]").select_option(players[2])
    catch.locator("button[type=submit]").click()
    playwright_api.expect(page.locator("ol.events li")).to_have_count(n + 4)
    assert events_of(app)[-1]["target"] == players[2]

    page.locator("form[data-type=challenge] button").click()
    playwright_api.expect(page.locator("ol.events li")).to_have_count(n + 5)
    reveal = page.locator("form[data-type=reveal]")
    reveal.locator("input[name=cards]").fill("R1, W4")
    reveal.locator("button").click()
    playwright_api.expect(page.locator("ol.events li")).to_have_count(n + 6)
    assert events_of(app)[-1]["cards"] == ["R1", "W4"]

    raw = page.locator("form.raw-event")
    raw.locator("input[name=event]").fill(
        json.dumps({"type": "pass", "player": players[0]})
    )
    raw.locator("button").click()
    playwright_api.expect(page.locator("ol.events li")).to_have_count(n + 7)
    assert events_of(app)[-1] == {
        "type": "pass",
        "player": players[0],
        "source": "manual",
    }
    page.click("button:has-text('Undo last')")
    playwright_api.expect(page.locator("ol.events li")).to_have_count(n + 6)
    playwright_api.expect(page.locator("#change-summary")).to_contain_text("Undo")
    assert events_of(app)[-1]["cards"] == ["R1", "W4"]

    # correct line 2 into a Wild naming green; the page shows what a replay changes
    old_log = table.referee.log_lines()
    row = page.locator("ol.events li[data-line='2']")
    edited = json.loads(row.locator("input[name=event]").input_value())
    edited.update(cards=["wild"], color="green")
    row.locator("input[name=event]").fill(json.dumps(edited))
    row.locator("button.do-correct").click()
    playwright_api.expect(page.locator("#change-summary")).to_contain_text("Correct")
    assert events_of(app)[1]["cards"] == ["wild"]
    new_log = old_log[:2] + [json.dumps(edited)] + old_log[3:]
    was = {r.to_json() for r in replay(old_log).rulings}
    now = {r.to_json() for r in replay(new_log).rulings}
    removed = {json.loads(t)["text"] for t in was - now}
    added = {json.loads(t)["text"] for t in now - was}
    assert removed and added
    shown_removed = {
        t.split(" ", 1)[1] for t in page.locator("ul.removed li").all_inner_texts()
    }
    shown_added = {
        t.split(" ", 1)[1] for t in page.locator("ul.added li").all_inner_texts()
    }
    assert shown_removed == removed and shown_added == added
    store = app.extensions["tableref.store"]
    assert store.events(table.gid) == events_of(app)

    # a correction that is not JSON is refused in the page, nothing sent
    row = page.locator("ol.events li[data-line='1']")
    row.locator("input[name=event]").fill("{oops")
    row.locator("button.do-correct").click()
    playwright_api.expect(page.locator("#status")).to_contain_text("JSON")
    row.locator("input[name=event]").fill('{"type": ""}')
    row.locator("button.do-correct").click()
    playwright_api.expect(page.locator("#status")).to_contain_text(
        "400: an event needs"
    )
    assert events_of(app)[0]["type"] == "start"

    count = len(events_of(app))
    row = page.locator(f"ol.events li[data-line='{count}']")
    row.locator("button.do-delete").click()
    page.click("#confirm-ok")  # a delete asks first
    playwright_api.expect(page.locator("ol.events li")).to_have_count(count - 1)

    page.click("button:has-text('Pause')")
    playwright_api.expect(page.locator("p.paused")).to_be_visible()
    assert table.paused
    page.click("button:has-text('Resume')")
    playwright_api.expect(page.locator("p.paused")).to_have_count(0)


def test_setup_a_game_and_check_the_scoreboard(served, page):
    app, url = served
    page.goto(url + "/setup")
    page.fill("textarea[name=players]", "あいこ\n<b>Ben</b>")
    page.select_option("select[name=rules]", label="uno · official")
    page.fill("input[name=hand_size]", "2")
    page.check("input[name=scoring][value=japan]")
    page.fill("input[name=rounds]", "3")
    page.click("#setup button[type=submit]")
    page.wait_for_url(url + "/")
    header = app.extensions["tableref.table"].referee.header
    assert header.players == ("あいこ", "<b>Ben</b>")
    assert header.options == {"scoring": "japan", "rounds": 3}
    assert page.locator("b", has_text="Ben").count() == 0  # a name is text, not markup

    def send(form, **fields):
        f = page.locator(f"form[data-type={form}]")
        for name, value in fields.items():
            target = f.locator(f"[name={name}]")
            if target.evaluate("el => el.tagName") == "SELECT":
                target.select_option(value)
            else:
                target.fill(value)
        count = page.locator("ol.events li").count()
        f.locator("button[type=submit]").click()
        playwright_api.expect(page.locator("ol.events li")).to_have_count(count + 1)

    send("start", card="red-7")
    send("play", player="あいこ", cards="red-3")
    send("play", player="<b>Ben</b>", cards="R4")
    page.click("button.uno:has-text('あいこ')")
    playwright_api.expect(page.locator("ol.events li")).to_have_count(4)
    send("play", player="あいこ", cards="red-5")
    send("reveal", player="<b>Ben</b>", cards="B9")
    board = page.locator("#scoreboard")
    playwright_api.expect(board.locator("tr.round")).to_have_count(1)
    cells = board.locator("tr.round td").all_inner_texts()
    assert cells[1:3] == ["+9", "-9"]

    page.goto(url + "/scores")
    totals = page.locator("#scoreboard tfoot td[data-player]").all_inner_texts()
    assert totals == ["9", "-9"]
    assert page.locator("#chart polyline.series").count() == 2
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "scoreboard.png"), full_page=True)
    page.goto(url + "/table")
    assert page.locator("section.controls").count() == 0
    assert page.locator("ol.events").count() == 0
    playwright_api.expect(page.locator("#rulings li").first).to_contain_text("9")
