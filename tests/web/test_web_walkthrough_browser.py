"""Issue 26's goal, walked by a newcomer in a real browser (Debian's chromium).

A 3-player official UNO round from the setup page: players and Start game,
the first card turned up, plays, an illegal card, a wild with its colour, a
forgotten UNO caught, a Wild Draw Four challenged and its hand shown, a
correction of a misread card, an undo of a mistaken tap, the round's end, the
hands scored and the scoreboard. Once at 1366x768 in English, once on a
390x844 phone in Japanese.

At each step the test asserts what a newcomer needs to go on without docs:
the next step is said, the newest ruling is on screen (the display's last
ruling at a desktop's size, the status bar by the thumb on a phone) in the
viewer's language and highlighted when it is illegal or a penalty, the cards
owed show on the display, the control forms start on the sensible player and
count, and the players' table view (another browser, no token) never shows a
hidden card. A screenshot per step goes to ``tests/web/artifacts/``
(git-ignored) as ``walkthrough-<run>-NN-<step>.png``.
"""

from __future__ import annotations

import json
import re
import threading

import pytest
from browser_support import ARTIFACTS, TIMEOUT, needs_chromium

TOKEN = "walkthrough-token"

pytestmark = needs_chromium
pw = pytest.importorskip("playwright.sync_api")

from web import create_app  # noqa: E402

PLAYERS = ["Aiko", "Ben", "Chie"]
RUNS = {
    "en-desktop": ("en", {"width": 1366, "height": 768}),
    "ja-phone": ("ja", {"width": 390, "height": 844}),
}

# What the newcomer reads at each step, in each language (parts of sentences).
SAYS = {
    "en": {
        "setup_next": "turn up the first card",
        "next_first": "turn up the first card",
        "first": "Round 1 starts with the red 7",
        "top_first": "red 7",
        "illegal": "cannot be played",
        "illegal_head": "Illegal",
        "played": "Aiko plays the red 3",
        "wild": "Ben plays the Wild and names green",
        "green": "green",
        "watch": "Aiko",
        "caught": "Aiko draws 2",
        "owed_catch": "Aiko draws 2 (penalty)",
        "penalty_head": "Penalty",
        "drew": "Aiko drew the 2 cards owed",
        "wd4": "Chie draws 4",
        "owed_wd4": "Chie draws 4",
        "accused": "against Ben",
        "challenge": "Chie challenges Ben's Wild Draw Four",
        "upheld": "Challenge upheld",
        "next_challenge": "Ben shows their hand to Chie",
        "owed_upheld": "Ben draws 4 (penalty)",
        "corrected": "Line {line} corrected.",
        "correct_said": "Ben plays the green 3",
        "misread": "Ben plays green 6",
        "fixed": "Ben plays green 3",
        "undone": "Undone: line {line} is removed.",
        "out": "Chie wins round 1",
        "next_reveal": "Aiko, Ben",
        "scored": "Chie wins round 1 and scores",
        "hidden": ("green 2",),
        "scores": "Scoreboard",
    },
    "ja": {
        "setup_next": "最初の札をめくって",
        "next_first": "最初の札をめくって",
        "first": "ラウンド1は赤の7で始まり",
        "top_first": "赤の7",
        "illegal": "出せず",
        "illegal_head": "反則",
        "played": "Aikoは赤の3を出し",
        "wild": "Benはワイルドを出して緑を指定し",
        "green": "緑",
        "watch": "Aiko",
        "caught": "Aikoは2枚引きます",
        "owed_catch": "Aikoが2枚引く（ペナルティ）",
        "penalty_head": "ペナルティ",
        "drew": "Aikoは引くべき2枚を引きました",
        "wd4": "Chieはチャレンジしなければ4枚引いて",
        "owed_wd4": "Chieが4枚引く",
        "accused": "Benに対して",
        "challenge": "ChieがBenのワイルドドロー4にチャレンジし",
        "upheld": "チャレンジ成功で",
        "next_challenge": "BenがChieに手札を見せます",
        "owed_upheld": "Benが4枚引く（ペナルティ）",
        "corrected": "{line}行目を修正しました。",
        "correct_said": "Benは緑の3を出し",
        "misread": "Ben 出す 緑の6",
        "fixed": "Ben 出す 緑の3",
        "undone": "取り消しました: {line}行目を削除しました。",
        "out": "ラウンド1はChieの勝ち",
        "next_reveal": "Aiko、Ben",
        "scored": "ラウンド1はChieの勝ちで",
        "hidden": ("緑の2", "green 2", "green-2"),
        "scores": "スコアボード",
    },
}

# A word of English in a Japanese page: a run of 4+ Latin letters that is not
# a player's name.
LATIN = re.compile(r"[A-Za-z]{4,}")


@pytest.fixture
def served(tmp_path):
    """(app, base URL) of a live server with a token, on a durable store."""
    from werkzeug.serving import make_server

    app = create_app(
        {
            "DATABASE": str(tmp_path / "db" / "tableref.sqlite3"),
            "EVIDENCE_DIRS": [str(tmp_path / "evidence")],
            "VIDEO_DIRS": [],
            "TOKEN": TOKEN,
            "SSE_HEARTBEAT": 0.5,
            "SSE_SECONDS": 120,
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.socket.close()


class Walk:
    """The referee's page, the players' table view, and what was checked."""

    def __init__(self, browser, url, run, lang, viewport):
        self.url, self.run, self.lang, self.viewport = url, run, lang, viewport
        self.says = SAYS[lang]
        self.errors: list[str] = []
        self.step = 0
        self.ctx = browser.new_context(viewport=viewport, locale=lang)
        self.page = self._page(self.ctx)
        # the players' screen: another browser without the token
        self.table_ctx = browser.new_context(viewport={"width": 1366, "height": 768})
        self.table = self._page(self.table_ctx)
        self.sentences: list[str] = []  # every ruling sentence the referee read

    def _page(self, ctx):
        page = ctx.new_page()
        page.set_default_timeout(TIMEOUT)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        return page

    def close(self):
        self.ctx.close()
        self.table_ctx.close()

    @property
    def phone(self) -> bool:
        return self.viewport["width"] < 1000

    def shot(self, name: str) -> None:
        self.step += 1
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"walkthrough-{self.run}-{self.step:02d}-{name}.png"
        self.page.screenshot(path=str(path))

    def form(self, kind: str):
        return self.page.locator(f"section.controls form[data-type={kind}]").first

    def chosen(self, kind: str, name: str = "player") -> str:
        return self.form(kind).locator(f"[name={name}]").evaluate("el => el.value")

    def last_index(self) -> int:
        return int(self.page.locator("#last-ruling").get_attribute("data-index"))

    def ruled(self, before: int) -> None:
        self.page.wait_for_function(
            "n => Number(document.querySelector('#last-ruling').dataset.index) > n",
            arg=before,
        )

    def submit(self, kind: str, **fields) -> None:
        """Fill a control form (selects chosen, inputs typed), press its button."""
        f = self.form(kind)
        for name, value in fields.items():
            target = f.locator(f"[name={name}]")
            if target.evaluate("el => el.tagName") == "SELECT":
                target.select_option(value)
            else:
                target.fill(value)
        before = self.last_index()
        f.locator("button[type=submit]").click()
        self.ruled(before)

    def tap(self, selector: str) -> None:
        before = self.last_index()
        self.page.locator(selector).first.click()
        self.ruled(before)

    def in_view(self, selector: str) -> bool:
        """Whether ``selector``'s top shows on screen as the page stands."""
        box = self.page.locator(selector).first.bounding_box()
        vp = self.viewport
        return (
            bool(box)
            and box["y"] >= 0
            and box["y"] + min(box["height"], 40) <= vp["height"]
            and box["x"] + box["width"] <= vp["width"] + 1
        )

    def sees_ruling(self, key: str, alert: str | None = None) -> None:
        """The newest ruling says ``key``'s words, in sight, highlighted if an
        alert; the list of rulings has it on top."""
        words = self.says[key]
        last = self.page.locator("#last-ruling")
        pw.expect(last.locator(".sentence")).to_contain_text(words)
        pw.expect(self.page.locator("#rulings li").first).to_contain_text(words)
        if alert:
            pw.expect(last).to_have_class(re.compile(r"\balert\b"))
            pw.expect(last).to_have_class(re.compile(rf"\bk-{alert}\b"))
            head = self.says["illegal_head" if alert == "illegal" else "penalty_head"]
            pw.expect(last.locator(".headline")).to_contain_text(head)
        else:
            pw.expect(last).not_to_have_class(re.compile(r"\balert\b"))
        if self.phone:
            # the form tapped may be far below the display: the status bar by
            # the thumb says the ruling, marked when it is an alert
            status = self.page.locator("#status")
            pw.expect(status).to_contain_text(words)
            assert self.in_view("#status")
            if alert:
                pw.expect(status).to_have_class(re.compile(r"\balert\b"))
        else:
            self.page.evaluate("window.scrollTo(0, 0)")
            assert self.in_view("#last-ruling .sentence"), key
            assert self.in_view("#rulings li")
        self.sentences.append(last.locator(".sentence").inner_text())

    def table_hides(self, secrets) -> None:
        """The players' view (live, no token) shows none of ``secrets``."""
        self.table.reload()
        self.table.wait_for_selector("#last-ruling")
        text = self.table.locator("body").inner_text()
        html = self.table.content()
        for secret in secrets:
            assert secret not in text and secret not in html, secret
        # and its live fragments answer no event log
        got = self.table.evaluate(
            """async () => (await fetch('/partials?view=table&names=events')).status"""
        )
        assert got == 403

    def english_left(self) -> list[str]:
        """Words of 4+ Latin letters in the rulings as the referee's page shows them."""
        texts = self.page.evaluate(
            """() => Array.from(document.querySelectorAll(
                '#rulings li .text, #rulings li .kind, #rulings li .refused,'
                + ' #last-ruling .headline, #last-ruling .sentence, #change li'))
              .map(el => el.textContent)"""
        )
        texts += self.sentences
        found = []
        for t in texts:
            for word in LATIN.findall(t):
                if word not in PLAYERS:
                    found.append(f"{word!r} in {t.strip()!r}")
        return sorted(set(found))


def walk(browser, app, url, run, lang, viewport) -> Walk:
    table = app.extensions["tableref.table"]
    # a demo-like game ran before: its hand size and rounds are not inherited
    table.new_game(
        {
            "game": "uno",
            "rules": "official",
            "players": ["X", "Y"],
            "hand_size": 5,
            "options": {"scoring": "international", "target": 200},
        }
    )
    w = Walk(browser, url, run, lang, viewport)
    page, says = w.page, w.says

    # -- 1. setup: players, the game, Start game --------------------------------
    page.goto(f"{url}/setup?token={TOKEN}&lang={lang}")
    page.select_option("select[name=rules]", label="uno · official")
    assert page.input_value("input[name=hand_size]") == "7"
    assert page.input_value("input[name=rounds]") == "5"
    assert page.locator("input[name=scoring][value=japan]").is_checked()
    pw.expect(page.locator("#setup .next-step")).to_contain_text(says["setup_next"])
    page.fill("textarea[name=players]", "\n".join(PLAYERS))
    page.fill("input[name=hand_size]", "3")  # a short round for the walkthrough
    w.shot("setup")
    page.locator("#setup button[type=submit]").click()
    page.wait_for_url(url + "/")
    header = table.referee.header
    assert list(header.players) == PLAYERS and header.hand_size == 3
    w.table.goto(url + "/table")

    # -- 2. the next step is said: turn up the first card -----------------------
    pw.expect(page.locator("#next-step")).to_contain_text(says["next_first"])
    pw.expect(w.form("start")).to_be_visible()
    first = w.form("start").locator("[name=card]")
    first.scroll_into_view_if_needed()
    w.shot("next-step-first-card")
    w.submit("start", card="red-7")
    pw.expect(page.locator("#top-card")).to_have_text(says["top_first"])
    pw.expect(page.locator("#turn")).to_have_text("Aiko")
    pw.expect(page.locator("#next-step")).to_have_count(0)
    w.sees_ruling("first")
    assert w.chosen("play") == "Aiko"  # the play form starts on the turn
    w.shot("first-card")

    # -- 3. an illegal card: highlighted; the form is empty again ---------------
    w.submit("play", cards="blue-4")
    w.sees_ruling("illegal", alert="illegal")
    assert w.form("play").locator("[name=cards]").input_value() == ""
    w.shot("illegal-card")

    # -- 4. plays and a wild with its colour --------------------------------------
    w.submit("play", cards="red-3")
    w.sees_ruling("played")
    assert w.chosen("play") == "Ben"
    w.submit("play", cards="wild", color="green")
    w.sees_ruling("wild")
    pw.expect(page.locator("#top-color")).to_contain_text(says["green"])
    pw.expect(page.locator("#turn")).to_have_text("Chie")
    assert w.chosen("play", "color") == ""  # the colour does not stick
    w.shot("wild-colour")

    # -- 5. a forgotten UNO: the display watches Aiko; Catch starts on her -----
    w.submit("play", cards="green-5")
    w.submit("play", cards="green-9")
    pw.expect(page.locator("#uno-watch")).to_contain_text(says["watch"])
    assert w.chosen("catch", "target") == "Aiko"
    assert w.chosen("catch", "player") == "Ben"
    w.shot("forgotten-uno")
    w.submit("catch")
    w.sees_ruling("caught", alert="penalty")
    pw.expect(page.locator("#pending-draw")).to_contain_text(says["owed_catch"])
    # the draw form starts on who owes, and on how many
    assert w.chosen("draw") == "Aiko"
    assert w.chosen("draw", "count") == "2"
    w.shot("uno-caught")
    w.submit("draw")
    w.sees_ruling("drew")
    pw.expect(page.locator("#pending-draw")).not_to_contain_text("Aiko")

    # -- 6. a Wild Draw Four, challenged; the hand shown --------------------------
    assert w.chosen("play") == "Ben"
    w.submit("play", cards="wild-draw4", color="blue")
    pw.expect(page.locator("#pending-draw")).to_contain_text(says["owed_wd4"])
    w.sees_ruling("wd4")
    w.tap("section.controls button.uno:has-text('Ben')")  # Ben calls UNO
    assert w.chosen("challenge") == "Chie"
    pw.expect(page.locator("#accused")).to_have_text(says["accused"])
    w.submit("challenge")
    w.sees_ruling("challenge")
    pw.expect(page.locator("#next-step")).to_contain_text(says["next_challenge"])
    assert w.chosen("reveal") == "Ben"  # the accused shows the hand
    # and the reveal form comes first in the controls, marked as the next step
    first_form = page.locator("section.controls form").first
    pw.expect(first_form).to_have_attribute("data-type", "reveal")
    w.shot("challenge")
    w.submit("reveal", cards="green-2")
    w.sees_ruling("upheld", alert="penalty")
    pw.expect(page.locator("#pending-draw")).to_contain_text(says["owed_upheld"])
    w.shot("challenge-upheld")
    w.table_hides(says["hidden"])
    w.table.screenshot(
        path=str(ARTIFACTS / f"walkthrough-{run}-{w.step:02d}b-table-after-reveal.png")
    )
    assert w.chosen("draw") == "Ben" and w.chosen("draw", "count") == "4"
    w.submit("draw")

    # -- 7. a misread card, corrected in the log ----------------------------------
    w.submit("play", cards="green-6")  # the referee typed 6; Ben played a 3
    line = len(table.referee.events)
    row = page.locator(f"ol.events li[data-line='{line}']")
    pw.expect(row).to_contain_text(says["misread"])
    # the line's cards are a field of their own: no JSON to edit
    fix = row.locator("input[name=fix_cards]")
    assert fix.input_value() == "green-6"
    fix.fill("green-3")
    before = w.last_index()
    fix.press("Enter")  # Enter corrects the line
    pw.expect(page.locator("#status")).to_contain_text(
        says["corrected"].format(line=line)
    )
    pw.expect(page.locator("#top-card")).to_have_attribute("data-card", "green-3")
    pw.expect(page.locator("#change-summary")).to_be_visible()
    pw.expect(page.locator("ul.added")).to_contain_text(says["correct_said"])
    assert w.last_index() >= before
    assert table.referee.events[line - 1]["cards"] == ["green-3"]
    assert len(table.referee.events) == line  # corrected, nothing added
    row = page.locator(f"ol.events li[data-line='{line}']")
    pw.expect(row).to_contain_text(says["fixed"])
    row.scroll_into_view_if_needed()
    w.shot("correction")

    # -- 8. Chie calls UNO; a mistaken Draw is undone -------------------------------
    w.submit("play", cards="green-8")
    w.tap("section.controls button.uno:has-text('Chie')")
    lines = len(table.referee.events)
    w.submit("draw")  # a slip: nobody drew
    page.locator("section.controls button.undo").click()
    pw.expect(page.locator("#status")).to_contain_text(
        says["undone"].format(line=lines + 1)
    )
    pw.expect(page.locator("ol.events li")).to_have_count(lines)
    page.evaluate("window.scrollTo(0, 0)")
    w.shot("undo")

    # -- 9. the round's end: Chie goes out; the hands are scored -----------------
    w.submit("play", cards="green-1")
    w.submit("play", cards="yellow-1")
    w.submit("play", cards="yellow-skip")
    w.sees_ruling("out")
    # the next step is said: who shows a hand; the form starts on the first
    pw.expect(page.locator("#next-step")).to_contain_text(says["next_reveal"])
    assert w.chosen("reveal") == "Aiko"
    first_form = page.locator("section.controls form").first
    pw.expect(first_form).to_have_attribute("data-type", "reveal")
    if not w.phone:
        page.evaluate("window.scrollTo(0, 0)")
        assert w.in_view("section.controls form[data-type=reveal] button")
    w.shot("round-won")
    w.submit("reveal", cards="blue-9 wild")
    assert w.chosen("reveal") == "Ben"  # Aiko has shown hers
    w.submit("reveal", cards="blue-1 red-5 green-7 yellow-draw2")
    w.sees_ruling("scored")
    pw.expect(page.locator("#scoreboard tr.round")).to_have_count(1)
    pw.expect(page.locator("#next-step")).to_contain_text(says["next_first"])
    w.shot("round-scored")

    # -- 10. the scoreboard, and the players' view ---------------------------------
    page.locator("header.top nav a", has_text=says["scores"]).click()
    pw.expect(page.locator("#scoreboard tr.round")).to_have_count(1)
    totals = page.locator("#scoreboard tfoot td[data-player]").all_inner_texts()
    assert [int(t) for t in totals] == [-59, -33, 92]
    w.shot("scoreboard")
    w.table_hides(says["hidden"])
    last = ARTIFACTS / f"walkthrough-{run}-{w.step + 1:02d}-table.png"
    w.table.screenshot(path=str(last))
    return w


def test_newcomer_referees_a_round_in_english_at_1366(browser, served):
    app, url = served
    lang, viewport = RUNS["en-desktop"]
    w = walk(browser, app, url, "en-desktop", lang, viewport)
    # the check the Japanese run makes finds English where there is some
    w.page.goto(url + "/")
    assert any("'wins'" in found for found in w.english_left())
    errors = w.errors
    w.close()
    assert errors == []


def test_newcomer_referees_a_round_in_japanese_on_a_phone(browser, served):
    app, url = served
    lang, viewport = RUNS["ja-phone"]
    w = walk(browser, app, url, "ja-phone", lang, viewport)
    # the ruling sentences the referee read hold no English
    w.page.goto(url + "/")
    english = w.english_left()
    (ARTIFACTS / "walkthrough-ja-english.json").write_text(
        json.dumps(english, ensure_ascii=False, indent=1)
    )
    errors = w.errors
    w.close()
    assert english == []
    assert errors == []
