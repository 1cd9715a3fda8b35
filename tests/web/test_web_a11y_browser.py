"""Accessibility checks in a real browser (Debian's chromium, Playwright).

- every control (button, input, select, textarea, link) has a name a screen
  reader can say: its text, a label, ``aria-label`` or ``title``;
- the focus order follows the layout: no positive ``tabindex``, the panels
  are visited in the order they are laid out (top to bottom, left to right),
  and inside a panel Tab never jumps back up;
- the computed colours of the main texts, the card chips of every colour,
  the turn highlight, the highlighted rulings and the buttons have a contrast
  of at least 4.5:1 (WCAG AA), and the turn highlight stands out from its
  panel by at least 3:1.
"""

from __future__ import annotations

import re
import threading

import pytest
from browser_support import TIMEOUT, needs_chromium


pytestmark = needs_chromium
pw = pytest.importorskip("playwright.sync_api")

from web import create_app  # noqa: E402

PLAYERS = ["Aiko", "Ben", "Chie"]
VIEWPORTS = {
    "desktop": {"width": 1366, "height": 768},
    "phone": {"width": 390, "height": 844},
}


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    """A live server with a game in its first round (a few rulings, one illegal)."""
    from werkzeug.serving import make_server

    tmp = tmp_path_factory.mktemp("a11y")
    app = create_app(
        {
            "DATABASE": str(tmp / "tableref.sqlite3"),
            "EVIDENCE_DIRS": [str(tmp / "evidence")],
            "SSE_SECONDS": 5,
        }
    )
    table = app.extensions["tableref.table"]
    table.new_game(
        {"game": "uno", "rules": "official", "players": PLAYERS, "hand_size": 3}
    )
    for event in (
        {"type": "start", "card": "green-7"},
        {"type": "play", "player": "Aiko", "cards": ["green-3"]},
        {"type": "play", "player": "Ben", "cards": ["red-4"]},
    ):
        table.append(event)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.socket.close()


@pytest.fixture(params=sorted(VIEWPORTS))
def page(request, browser):
    context = browser.new_context(viewport=VIEWPORTS[request.param])
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT)
    yield pg
    context.close()


UNNAMED = """() => Array.from(document.querySelectorAll(
    'button, input:not([type=hidden]), select, textarea, a[href]'))
  .filter(el => !el.closest('dialog:not([open])'))
  .filter(el => {
    const label = Array.from(el.labels || []).map(l => l.textContent).join(' ');
    const by = (el.getAttribute('aria-labelledby') || '').split(/\\s+/)
      .map(id => document.getElementById(id)).filter(Boolean)
      .map(e => e.textContent).join(' ');
    const own = ['BUTTON', 'A'].includes(el.tagName) ? el.textContent : '';
    const name = [label, by, own, el.getAttribute('aria-label') || '',
                  el.getAttribute('title') || ''].join(' ');
    return name.trim() === '';
  })
  .map(el => el.outerHTML.slice(0, 80))"""


@pytest.mark.parametrize("path", ["/", "/table", "/setup", "/scores", "/?lang=ja"])
def test_every_control_has_a_label(page, url, path):
    page.goto(url + path)
    page.wait_for_selector("main")
    assert page.evaluate(UNNAMED) == []


PANELS = """() => Array.from(document.querySelectorAll('main section.panel'))
  .filter(el => el.offsetParent !== null)
  .map(el => { const r = el.getBoundingClientRect();
               return [el.className, r.top + window.scrollY, r.left]; })"""

FOCUSED = """() => { const el = document.activeElement;
  if (!el || el === document.body) return null;
  const panel = el.closest('main section.panel');
  const r = el.getBoundingClientRect();
  let scrolled = 0;  // a list scrolled inside its panel moves what follows up
  for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
    scrolled += e.scrollTop;
  }
  return [panel ? panel.className : (el.closest('header') ? 'header' : 'other'),
          r.top + window.scrollY + scrolled, r.left, el.tabIndex]; }"""


def test_focus_order_follows_the_layout(page, url):
    page.goto(url + "/")
    page.wait_for_selector("#last-ruling")
    positive = "[tabindex]:not([tabindex^='-']):not([tabindex='0'])"
    assert page.locator(positive).count() == 0
    panels = page.evaluate(PANELS)
    # the panels as laid out: by row (a 40 px band), then left to right
    rows = sorted(panels, key=lambda p: (round(p[1] / 40), p[2]))
    laid_out = [name for name, _, _ in rows]
    assert laid_out == [name for name, _, _ in panels], laid_out  # = document order
    visited: list[str] = []
    last: dict[str, float] = {}
    for _ in range(400):
        page.keyboard.press("Tab")
        info = page.evaluate(FOCUSED)
        if info is None:
            break
        panel, top, _left, _ = info
        if panel in ("header", "other"):
            if visited:
                break  # wrapped around to the top
            continue
        if not visited or visited[-1] != panel:
            assert panel not in visited, f"focus came back to {panel} after {visited}"
            visited.append(panel)
        elif panel in last:
            assert top >= last[panel] - 8, f"focus jumped up inside {panel}"
        last[panel] = top
    focusable = [n for n in laid_out if any(n == v for v in visited)]
    assert visited == focusable, (visited, laid_out)
    assert len(visited) >= 3


COLOURS = """() => {
  const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const background = el => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  // samples of what the page shows in other states, built from its classes
  const box = document.createElement('section');
  box.className = 'panel';
  box.id = 'samples';
  box.innerHTML = ['red', 'yellow', 'green', 'blue', 'none']
      .map(c => `<span class="card c-${c}">${c} 7</span>`).join('') +
    '<div class="last-ruling alert k-illegal"><p class="headline">x</p>' +
    '<p class="rule-name"><span class="label">rule</span> <code>r</code></p></div>' +
    '<div class="last-ruling alert k-penalty"><p class="headline">x</p></div>' +
    '<div class="last-ruling k-round-end"><p class="headline">x</p></div>' +
    '<ol class="rulings"><li class="ruling k-illegal"><span class="kind">x</span>' +
    '<code class="rule">r</code></li><li class="ruling k-penalty">' +
    '<span class="kind">x</span></li>' +
    '<li class="ruling k-ok"><span class="kind">x</span></li>' +
    '<li class="ruling k-pending"><span class="kind">x</span></li>' +
    '<li class="ruling k-round-end"><span class="kind">x</span></li></ol>' +
    '<p class="next-step">x</p>' +
    '<p class="status good">x</p><p class="status bad">x</p>' +
    '<span class="tag uno">x</span><span class="tag catch">x</span>' +
    '<button class="primary">x</button><button class="danger">x</button>' +
    '<button class="uno">x</button><button>x</button><small>x</small>' +
    '<p class="empty">x</p><p class="over">x</p>';
  document.querySelector('main').appendChild(box);
  const picks = Array.from(document.querySelectorAll(
    '#top-card, #turn, .big-facts dt, .big-facts dd, .last-ruling .headline, ' +
    '.last-ruling .sentence, table.hands tr.turn th, table.hands tr.turn td, ' +
    'table.hands th, caption, .ruling .text, .ruling .kind, .ruling .rule, ' +
    '.ruling .line, header.top a, .brand, .controls label, button, select, ' +
    '#samples *'));
  const out = picks.filter(el => el.offsetParent !== null && el.textContent.trim())
    .map(el => [el.outerHTML.slice(0, 70), rgb(getComputedStyle(el).color).slice(0, 3),
                background(el)]);
  const turn = document.querySelector('table.hands tr.turn th');
  const extra = turn ? [[background(turn), background(turn.closest('section'))]] : [];
  box.remove();
  return [out, extra];
}"""


def luminance(rgb) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_luminance_formula_matches_the_issue_numbers():
    """White on the old chips: yellow #e0a100 2.27:1, green #2a9d3f 3.5:1."""
    assert round(contrast((255, 255, 255), (0xE0, 0xA1, 0x00)), 2) == 2.27
    assert round(contrast((255, 255, 255), (0x2A, 0x9D, 0x3F)), 1) == 3.5


@pytest.mark.parametrize("path", ["/", "/table"])
def test_contrast_of_texts_chips_and_highlights(page, url, path):
    page.goto(url + path)
    page.wait_for_selector("#top-card")
    pairs, extra = page.evaluate(COLOURS)
    assert len(pairs) > 30
    low = [
        (html, fg, bg, round(contrast(fg, bg), 2))
        for html, fg, bg in pairs
        if contrast(fg, bg) < 4.5
    ]
    assert low == [], low
    for highlight, panel in extra:  # the turn stands out from its panel
        assert contrast(highlight, panel) >= 3, (highlight, panel)
    chips = [p for p in pairs if re.search(r'class="card (big )?c-', p[0])]
    assert len(chips) >= 6  # the top card and a chip of each colour
