"""The HTML pages, fragments, SSE stream, video and evidence, via the test client."""

from __future__ import annotations

import re
import threading

import pytest
from webtest_game import PLAYERS

from web.pages import SHOWN
from web.scores import build_board

A, B, C = PLAYERS


def play_round(client):
    for event in (
        {"type": "start", "card": "red-7"},
        {"type": "play", "player": A, "cards": ["red-1"]},
        {"type": "play", "player": B, "cards": ["red-2"]},
        {"type": "play", "player": C, "cards": ["red-3"]},
        {"type": "play", "player": A, "cards": ["red-4"]},
    ):
        assert client.post("/api/events", json=event).status_code == 201


def test_every_page_renders_without_a_game(client):
    for url in ("/", "/table", "/scores", "/setup", "/partials?view=referee"):
        resp = client.get(url)
        assert resp.status_code == 200, url
    assert "No game is running" in client.get("/").get_data(as_text=True)


def test_player_names_are_escaped_everywhere(client, game):
    play_round(client)
    for url in ("/", "/table", "/scores", "/scores?view=referee", "/setup"):
        html = client.get(url).get_data(as_text=True)
        assert "<b>Ben</b>" not in html, url
        assert "&lt;b&gt;Ben&lt;/b&gt;" in html, url
        assert "あいこ" in html, url
    frags = client.get("/partials?view=referee").get_json()
    assert all("<b>Ben</b>" not in html for html in frags.values())
    # in the UNO button the name sits in a JSON attribute, escaped for HTML as well
    assert "\\u003cb\\u003eBen\\u003c/b\\u003e" in frags["state"] + client.get(
        "/"
    ).get_data(as_text=True)


def test_referee_view_has_controls_and_table_view_has_none(client, game):
    client.post("/api/events", json={"type": "start", "card": "red-7"})
    referee = client.get("/").get_data(as_text=True)
    table = client.get("/table").get_data(as_text=True)
    for marker in (
        'data-type="catch"',
        'data-type="challenge"',
        'data-type="reveal"',
        'data-type="play"',
        'data-post="/api/undo"',
        'class="uno"',
        'data-post="/api/pause"',
        'data-partial="events"',
    ):
        assert marker in referee, marker
        assert marker not in table, marker
    assert referee.count('class="uno"') == len(PLAYERS)


def test_state_panel_shows_top_card_turn_and_hand_counts(client, game):
    client.post("/api/events", json={"type": "start", "card": "red-7"})
    client.post("/api/events", json={"type": "play", "player": A, "cards": ["red-1"]})
    frags = client.get("/partials?view=table&names=display,state").get_json()
    display, html = frags["display"], frags["state"]
    chip = r'id="top-card" class="card big c-red" data-card="red-1">red 1<'
    assert re.search(chip, display)
    assert re.search(r'id="turn">&lt;b&gt;Ben&lt;/b&gt;<', display)
    assert 'id="pending-draw">none<' in display
    counts = re.findall(r'<td class="count">(\d+)</td>', html)
    assert counts == ["1", "2", "2"]


def test_rulings_fragment_lists_newest_first(client, game):
    client.post("/api/events", json={"type": "start", "card": "red-7"})
    client.post("/api/events", json={"type": "play", "player": C, "cards": ["red-1"]})
    html = client.get("/partials?names=rulings").get_json()["rulings"]
    rules = re.findall(r'<code class="rule">([^<]+)</code>', html)
    assert rules == ["webtest.turn", "webtest.start"]


def test_partials_refuse_unknown_names_and_views(client):
    assert client.get("/partials?names=secret").status_code == 404
    assert client.get("/partials?view=admin").status_code == 400


def test_scoreboard_shows_rounds_totals_and_chart(client, game):
    play_round(client)
    html = client.get("/scores").get_data(as_text=True)
    assert "Japan scoring (rounds: 2)" in html
    row = re.search(r'<tr class="round">(.*?)</tr>', html, re.S).group(1)
    assert re.findall(r">([+-]\d+)<", row) == ["+10", "-5", "-5"]
    totals = dict(re.findall(r'<td data-player="([^"]+)">(-?\d+)</td>', html))
    assert totals == {A: "10", "&lt;b&gt;Ben&lt;/b&gt;": "-5", C: "-5"}
    assert html.count('<polyline class="series"') == 3
    assert "http" not in re.search(r"<svg.*?</svg>", html, re.S).group(0).replace(
        'xmlns="http://www.w3.org/2000/svg"', ""
    )


def test_board_for_international_scoring():
    state = {
        "players": ["A", "B"],
        "scores": {"A": 30, "B": 0},
        "rounds": [{"round": 1, "winner": "A", "deltas": {"A": 30, "B": 0}}],
    }
    board = build_board(state, {"options": {"scoring": "international", "target": 200}})
    assert board.scoring == "international" and board.limit == 200
    assert board.rounds[0]["totals"] == {"A": 30, "B": 0}
    lines = {line["player"]: line for line in board.chart["lines"]}
    # A's line rises above B's flat line (SVG y grows downwards)
    a_end, b_end = (float(lines[p]["points"].split()[-1].split(",")[1]) for p in "AB")
    assert a_end < b_end
    assert abs(lines["A"]["ly"] - lines["B"]["ly"]) >= 12


def test_language_switch_by_query_and_cookie(client, game):
    resp = client.get("/?lang=ja")
    html = resp.get_data(as_text=True)
    assert 'lang="ja"' in html and "裁定" in html and "スコアボード" in html
    assert "tableref_lang=ja" in resp.headers["Set-Cookie"]
    assert "裁定" in client.get("/table").get_data(as_text=True)  # the cookie remembers
    assert "Rulings" in client.get("/table?lang=en").get_data(as_text=True)
    assert 'lang="en"' in client.get("/table?lang=xx").get_data(as_text=True)


def test_setup_page_lists_presets_and_stored_games(client, game):
    html = client.get("/setup").get_data(as_text=True)
    assert 'data-game="webtest"' in html and ">webtest · webtest-plus<" in html
    assert f"#{game}" in html
    assert "&lt;b&gt;Ben&lt;/b&gt;" in html


def read_stream(client, url="/api/stream", headers=None):
    resp = client.get(url, headers=headers or {})
    assert resp.status_code == 200
    assert resp.mimetype == "text/event-stream"
    return resp.get_data(as_text=True)


def test_sse_sends_messages_with_ids_and_heartbeats(client, game):
    client.post("/api/events", json={"type": "start", "card": "red-7"})
    text = read_stream(client, "/api/stream?last=0")
    ids = [int(i) for i in re.findall(r"^id: (\d+)$", text, re.M)]
    assert ids == sorted(ids) and len(ids) == 2
    assert "event: game" in text and "event: ruling" in text
    assert '"rule": "webtest.start"' in text
    assert ": heartbeat" in text


def test_sse_resumes_after_last_event_id(client, game):
    client.post("/api/events", json={"type": "start", "card": "red-7"})
    first = read_stream(client, "/api/stream?last=0")
    last = int(re.findall(r"^id: (\d+)$", first, re.M)[-1])
    client.post("/api/events", json={"type": "play", "player": A, "cards": ["red-1"]})
    client.delete("/api/events/2")
    text = read_stream(client, headers={"Last-Event-ID": str(last)})
    kinds = re.findall(r"^event: (\w+)$", text, re.M)
    assert kinds == ["ruling", "change"]
    assert min(int(i) for i in re.findall(r"^id: (\d+)$", text, re.M)) == last + 1


def test_sse_delivers_an_event_posted_while_waiting(app, game):
    table = app.extensions["tableref.table"]
    seen: list[tuple] = []
    start = table.seq
    thread = threading.Thread(
        target=lambda: seen.extend(table.messages_after(start, 5))
    )
    thread.start()
    table.append({"type": "uno", "player": A})
    thread.join(5)
    assert [kind for _, kind, _ in seen] == ["ruling"]


def test_sse_tells_a_client_that_fell_behind_to_reload(app, game):
    from web import table as table_module

    table = app.extensions["tableref.table"]
    first = table.seq + 1
    for _ in range(table_module.FEED_SIZE + 5):
        table.append({"type": "uno", "player": A})
    assert table.messages_after(first + 1, 0) == [(table.seq, "reset", {"game": table.gid})]
    kept = table.messages_after(table.seq - 3, 0)  # still in the feed: no reset
    assert [m[0] for m in kept] == [table.seq - 2, table.seq - 1, table.seq]


class FakeCamera:
    def __init__(self, jpeg=b"\xff\xd8fake-jpeg\xff\xd9"):
        self.frame = jpeg

    def status(self):
        return {
            "state": "running",
            "message": "ok",
            "source": "fake",
            "fps": 9.5,
            "frames": 3,
        }

    def jpeg(self):
        return self.frame


def test_video_is_mjpeg_from_the_latest_frame(app, client, game):
    assert client.get("/video.mjpeg").status_code == 404
    assert client.get("/frame.jpg").status_code == 404
    app.extensions["tableref.table"].camera = FakeCamera()
    resp = client.get("/video.mjpeg")
    assert resp.mimetype == "multipart/x-mixed-replace"
    chunk = next(resp.response)
    assert (
        chunk.startswith(b"--frame\r\nContent-Type: image/jpeg")
        and b"fake-jpeg" in chunk
    )
    resp.close()
    assert client.get("/frame.jpg").data == b"\xff\xd8fake-jpeg\xff\xd9"
    html = client.get("/").get_data(as_text=True)
    assert 'src="/video.mjpeg"' in html and "9.5 fps" in html


def test_evidence_frames_are_served_only_from_evidence_folders(
    app, client, game, tmp_path
):
    evidence = tmp_path / "evidence" / "0001-play.jpg"
    evidence.write_bytes(b"\xff\xd8frame")
    outside = tmp_path / "secret.jpg"
    outside.write_bytes(b"secret")
    table = app.extensions["tableref.table"]
    table.append(
        {"type": "start", "card": "red-7", "evidence": str(evidence)}, "vision"
    )
    table.append({"type": "uno", "player": A, "evidence": str(outside)}, "vision")
    table.append({"type": "uno", "player": B})
    assert client.get("/evidence/1").data == b"\xff\xd8frame"
    assert client.get("/evidence/2").status_code == 403
    assert client.get("/evidence/3").status_code == 404
    assert client.get("/evidence/9").status_code == 404
    html = client.get("/").get_data(as_text=True)
    assert 'href="/evidence/1"' in html and 'href="/evidence/3"' not in html


@pytest.mark.parametrize("url", ["/", "/table", "/scores", "/setup"])
def test_pages_send_a_strict_content_security_policy(client, url):
    csp = client.get(url).headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp


def registered():
    from web.table import game_presets

    return [(name, presets[0]) for name, presets in game_presets() if name != "webtest"]


@pytest.mark.parametrize("name, rules", registered())
def test_every_registered_game_renders_and_hides_its_secrets(client, name, rules):
    resp = client.post(
        "/api/games",
        json={"game": name, "rules": rules, "players": ["A", "B", "C", "D"]},
    )
    assert resp.status_code == 201, resp.get_json()
    referee = client.get("/").get_data(as_text=True)
    table = client.get("/table").get_data(as_text=True)
    game = client.application.extensions["tableref.table"].referee
    hidden = set(game.state()) - set(game.public_view())
    for key in set(game.public_view()) - SHOWN:
        assert f'data-key="{key}"' in table, key
    for key in hidden:
        assert f'data-key="{key}"' in referee, key
        assert f'data-key="{key}"' not in table, key
    assert client.get("/scores").status_code == 200


def test_message_catalogue_is_complete_in_both_languages():
    from web.i18n import LANGS, MESSAGES

    for key, texts in MESSAGES.items():
        assert set(texts) == set(LANGS), key
        assert all(texts.values()), key
    from referee.rulings import KINDS

    assert all(f"kind_{kind}" in MESSAGES for kind in KINDS)


def test_uno_controls_only_for_games_with_uno_calls_and_raw_entry_for_all(client):
    resp = client.post(
        "/api/games", json={"game": "overflow", "players": ["A", "B", "C"]}
    )
    assert resp.status_code == 201
    html = client.get("/").get_data(as_text=True)
    assert 'class="uno"' not in html and 'data-type="catch"' not in html
    assert 'class="row raw-event"' in html
    resp = client.post("/api/events", json={"type": "limit", "card": "red-2"})
    assert resp.status_code == 201 and resp.get_json()["rulings"]


def test_sse_tells_a_client_of_an_earlier_server_run_to_reload(client, game):
    text = read_stream(client, headers={"Last-Event-ID": "987654"})
    assert re.findall(r"^event: (\w+)$", text, re.M) == ["reset"]  # once, then quiet
    assert ": heartbeat" in text
