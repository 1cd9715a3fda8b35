"""The table display, safe corrections, the setup page and Japanese (issue 26).

Flask test client against the real UNO engine (3 players): what the display
fragment shows, which player each control form starts on, undo restoring
what a change removed, the setup page's defaults and camera list.
"""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from web import create_app
from web.display import (
    card_name,
    form_defaults,
    headline,
    owed_draws,
    table_display,
    to_reveal,
)
from web.memstore import MemoryStore

PLAYERS = ["Aiko", "Ben", "Chie"]


@pytest.fixture
def uno(tmp_path):
    videos = tmp_path / "videos"
    videos.mkdir()
    (videos / "table.mp4").write_bytes(b"")
    (videos / "notes.txt").write_text("not a video")
    app = create_app(
        {"TESTING": True, "STORE": MemoryStore(), "VIDEO_DIRS": [str(videos)]}
    )
    client = app.test_client()
    resp = client.post(
        "/api/games",
        json={"game": "uno", "rules": "official", "players": PLAYERS, "hand_size": 2},
    )
    assert resp.status_code == 201
    return client


def send(client, **event):
    resp = client.post("/api/events", json=event)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()["rulings"]


def fragment(client, name, view="referee", lang=None):
    url = f"/partials?view={view}&names={name}" + (f"&lang={lang}" if lang else "")
    return client.get(url).get_json()[name]


def text_of(html: str, element_id: str) -> str:
    m = re.search(rf'id="{element_id}"[^>]*>(.*?)</(dd|span|p)>', html, re.S)
    assert m, element_id
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", m.group(1))).split())


def selected(html: str, form: str, name: str = "player") -> str | None:
    block = re.search(rf'data-type="{form}".*?</form>', html, re.S).group(0)
    select = re.search(rf'<select name="{name}".*?</select>', block, re.S).group(0)
    m = re.search(r'<option value="([^"]*)" selected>', select)
    return unescape(m.group(1)) if m else None


def test_penalties_show_as_owed_not_zero(uno):
    send(uno, type="start", card="red-7")
    send(uno, type="play", player="Aiko", cards=["red-3"])  # one card, no call
    html = fragment(uno, "display", "table")
    assert text_of(html, "uno-watch") == "Aiko"
    send(uno, type="catch", player="Ben", target="Aiko")
    html = fragment(uno, "display", "table")
    assert text_of(html, "pending-draw") == "Aiko draws 2 (penalty)"
    assert 'class="last-ruling k-penalty alert"' in html
    send(uno, type="draw", player="Aiko", count=2)
    send(uno, type="play", player="Ben", cards=["wild-draw4"], color="blue")
    assert text_of(fragment(uno, "display"), "pending-draw") == "Chie draws 4"
    send(uno, type="challenge", player="Chie")
    send(uno, type="reveal", player="Ben", cards=["red-1"])  # upheld
    html = fragment(uno, "display", "table")
    assert text_of(html, "pending-draw") == "Ben draws 4 (penalty)"
    assert "Draw owed 0" not in html and ">0<" not in html


def test_the_display_highlights_illegal_rulings_and_says_the_next_step(uno):
    html = fragment(uno, "display", "table")
    assert 'id="next-step"' in html and "first card" in html
    send(uno, type="start", card="red-7")
    assert 'id="next-step"' not in fragment(uno, "display")
    send(uno, type="play", player="Aiko", cards=["blue-4"])
    html = fragment(uno, "display")
    assert 'class="last-ruling k-illegal alert"' in html
    assert "Illegal · Play · Aiko" in unescape(html)


def test_forms_start_on_the_sensible_player(uno):
    send(uno, type="start", card="red-7")
    html = fragment(uno, "controls")
    assert selected(html, "play") == selected(html, "pass") == "Aiko"
    send(uno, type="play", player="Aiko", cards=["red-3"])
    html = fragment(uno, "controls")
    assert selected(html, "play") == "Ben"
    # Catch: the player who can be caught, by the player on turn (not herself)
    assert selected(html, "catch", "target") == "Aiko"
    assert selected(html, "catch", "player") == "Ben"
    send(uno, type="catch", player="Ben", target="Aiko")
    assert selected(fragment(uno, "controls"), "draw") == "Aiko"  # she owes 2
    send(uno, type="draw", player="Aiko", count=2)
    send(uno, type="play", player="Ben", cards=["wild-draw4"], color="blue")
    html = fragment(uno, "controls")
    # Challenge: by the player hit, against the player of the Wild Draw Four
    assert selected(html, "challenge") == "Chie"
    assert 'data-accused="Ben"' in html and "against Ben" in html
    send(uno, type="challenge", player="Chie")
    assert selected(fragment(uno, "controls"), "reveal") == "Ben"


def test_new_round_mid_round_and_delete_ask_first(uno):
    html = fragment(uno, "controls")
    assert 'class="row first-card"' in html and "new-round" not in html
    send(uno, type="start", card="red-7")
    html = fragment(uno, "controls")
    assert re.search(r'class="row new-round" data-confirm="confirm_new_round"', html)
    events = fragment(uno, "events")
    assert 'data-confirm="confirm_delete"' in events
    assert "first card red 7" in unescape(events)  # the event said plainly


@pytest.mark.parametrize(
    "change, url, method, body",
    [
        ("delete", "/api/events/2", "DELETE", None),
        ("correct", "/api/events/2", "PUT", {"type": "play", "cards": ["red-9"]}),
        ("insert", "/api/events/2/before", "POST", {"type": "uno", "player": "Aiko"}),
        ("append", "/api/events", "POST", {"type": "pass", "player": "Ben"}),
    ],
)
def test_undo_restores_exactly_what_a_change_removed(uno, change, url, method, body):
    for event in (
        {"type": "start", "card": "red-7"},
        {"type": "play", "player": "Aiko", "cards": ["red-3"]},
        {"type": "play", "player": "Ben", "cards": ["red-5"]},
    ):
        send(uno, **event)
    before = uno.get("/api/events").get_json()["events"]
    rulings = uno.get("/api/rulings").get_json()["rulings"]
    resp = uno.open(url, method=method, json=body)
    assert resp.status_code in (200, 201), resp.get_json()
    assert uno.get("/api/events").get_json()["events"] != before
    undone = uno.post("/api/undo", json={}).get_json()
    assert undone["undid"] == change
    assert uno.get("/api/events").get_json()["events"] == before
    assert uno.get("/api/rulings").get_json()["rulings"] == rulings


def test_undo_on_a_resumed_game_removes_the_last_event(uno):
    send(uno, type="start", card="red-7")
    send(uno, type="play", player="Aiko", cards=["red-3"])
    table = uno.application.extensions["tableref.table"]
    table.resume(table.gid)  # as after a restart: no steps, only the log
    assert uno.post("/api/undo", json={}).get_json()["undid"] == "append"
    assert len(uno.get("/api/events").get_json()["events"]) == 1


def test_setup_offers_the_games_defaults_and_a_camera_list(uno):
    # the running game has a hand size of 2; the setup starts from the preset's own
    html = uno.get("/setup").get_data(as_text=True)
    official = re.search(r'<option value="official"[^>]*>', html).group(0)
    defaults = json.loads(re.search(r"data-defaults='([^']*)'", official).group(1))
    assert defaults == {"hand_size": 7, "rounds": 5, "scoring": "japan", "target": 500}
    choice = re.search(r'<select name="camera_choice".*?</select>', html, re.S).group(0)
    values = re.findall(r'<option value="([^"]*)" data-kind="(\w+)"', choice)
    kinds = [k for _, k in values]
    assert kinds[0] == "keep" and kinds[-1] == "other"
    assert any(v.endswith("table.mp4") and k == "file" for v, k in values)
    assert not any(v.endswith("notes.txt") for v, _ in values)
    # no status string pre-filled anywhere: the free-text source starts empty
    assert re.search(r'<input name="camera"[^>]*>', html).group(0).count("value=") == 0


def test_japanese_card_names_status_and_setup(uno):
    send(uno, type="start", card="yellow-draw2")
    html = fragment(uno, "display", "table", lang="ja")
    assert text_of(html, "top-card") == "黄のドロー2"
    assert re.search(r'data-color="yellow"><span class="label">色</span> 黄<', html)
    assert "Aikoが2枚引く" in text_of(html, "pending-draw")
    camera = fragment(uno, "camera_status", "table", lang="ja")
    assert "カメラは起動されていません" in camera
    page = uno.get("/?lang=ja").get_data(as_text=True)
    assert "記録しました" in unescape(page)  # the status bar's messages
    setup = uno.get("/setup?lang=ja").get_data(as_text=True)
    for text in ("配る枚数", "得点方式", "ラウンド数", "目標点", "カメラ入力"):
        assert text in setup


@pytest.mark.parametrize(
    "label, lang, name",
    [
        ("yellow-draw2", "ja", "黄のドロー2"),
        ("red-7", "ja", "赤の7"),
        ("B5", "ja", "青の5"),
        ("wild-draw4", "ja", "ワイルドドロー4"),
        ("green-skip", "en", "green Skip"),
        ("W", "en", "Wild"),
        ("tgus-t-x", "ja", "tgus-t-x"),  # another deck's label stays as it is
    ],
)
def test_card_names(label, lang, name):
    assert card_name(label, lang) == name


def test_headline_from_the_rulings_data():
    ruling = {"ruling": "penalty", "rule": "official.uno-missed", "player": "A"}
    ruling["draw"] = 2
    assert headline(ruling, "ja") == "ペナルティ · ウノ忘れ · Aが2枚引く"
    assert headline(ruling, "en") == "Penalty · UNO not called · A draws 2"
    assert headline({"ruling": "ok", "rule": "x.new-rule"}, "en") == "OK"


def test_owed_and_defaults_on_any_state():
    assert owed_draws({}) == []
    state = {"turn": "B", "pending_draw": 2, "owed": {"A": 4, "C": 0}}
    assert owed_draws(state) == [
        {"player": "B", "count": 2, "why": "stack"},
        {"player": "A", "count": 4, "why": "penalty"},
    ]
    d = form_defaults({"turn": "A", "catchable": ["A"]}, [], [], ["A", "B", "C"])
    assert d["catch_target"] == "A" and d["catcher"] == "B"
    assert form_defaults({}, [], [], [])["turn"] == ""


def test_draw_starts_on_the_count_owed_and_reveal_on_who_still_shows():
    names = ["A", "B", "C"]
    d = form_defaults({"turn": "B", "owed": {"A": 2}}, [], [], names)
    assert (d["draw"], d["draw_count"]) == ("A", "2")
    d = form_defaults({"turn": "B", "pending_draw": 4}, [], [], names)
    assert (d["draw"], d["draw_count"]) == ("B", "4")
    assert form_defaults({"turn": "B"}, [], [], names)["draw_count"] == "1"
    scoring = {
        "phase": "scoring",
        "turn": None,
        "round_winner": "B",
        "revealed": {"A": ["red-1"]},
        "hand_counts": {"A": 1, "B": 0, "C": 2},
    }
    assert to_reveal(scoring, names) == ["C"]
    assert form_defaults(scoring, [], [], names)["reveal"] == "C"
    assert to_reveal({**scoring, "revealed": {}}, names) == ["A", "C"]
    assert to_reveal({**scoring, "phase": "turn"}, names) == []
    shown = table_display({**scoring, "players": names}, [], "ja")
    assert shown["to_reveal"] == ["C"] and shown["challenge"] is None
    waiting = {"turn": "B", "challenge": {"challenger": "B", "accused": "A"}}
    expected = {"accused": "A", "challenger": "B"}
    assert table_display(waiting, [])["challenge"] == expected


@pytest.mark.parametrize(
    "message, failure, ja",
    [
        ("no camera was started", None, "カメラは起動されていません"),
        ("reading file demo.mp4", None, "ファイル demo.mp4 を読み込み中"),
        ("file x.mp4 has ended", None, "ファイル x.mp4 は終わりました"),
        # the camera's own words: their kind (given with them), the words in
        # parentheses
        ("cannot open 0; retry 2 in 1.5 s", "cannot_open_source",
         "カメラの入力を開けない（cannot open 0）（1.5秒後に2回目の再試行）"),
        ("cannot open 0; retry 2 in 1.5 s", None,
         "カメラのエラー（cannot open 0）（1.5秒後に2回目の再試行）"),
        (
            "no camera; replaying the demo table log instead", None,
            "カメラなし。代わりにデモの記録を再生中",
        ),
        (
            "cannot open 0; the demo table log has ended", "cannot_open_source",
            "カメラの入力を開けない（cannot open 0）。デモの記録の再生は終わりました",
        ),
        (
            "no camera source; the demo table log has ended", None,
            "カメラ入力がないため、デモの記録の再生は終わりました",
        ),
        ("something new", None, "something new"),  # unknown: as the camera said it
    ],
)
def test_camera_messages_in_japanese(uno, message, failure, ja):
    from flask import g

    from web.i18n import camera_message

    with uno.application.test_request_context("/"):
        g.lang = "ja"
        assert camera_message(message, failure=failure) == ja
        g.lang = "en"
        assert camera_message(message, failure=failure) == message
