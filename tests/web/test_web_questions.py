"""The referee's questions answered in one tap (issue 25 items 4, 5): the page
shows each open question with its answers; an answer is one correction of the
log, durable and undoable; anything else a browser sends is a clear 4xx."""

from __future__ import annotations

import re

import pytest

from vision.handsfree import complete

UNO = {"game": "uno", "rules": "official", "players": ["A", "B", "C"],
       "dealer": "C", "hand_size": 5, "options": {}}


@pytest.fixture
def table(app, client):
    resp = client.post("/api/games", json=UNO)
    assert resp.status_code == 201, resp.get_json()
    return app.extensions["tableref.table"]


def camera(table, kind, **kw):
    """A camera event completed as ``serve`` does (vision.handsfree), then logged."""
    event = {"type": kind, "source": "vision", **kw}
    for e in complete(event, table.referee.state()):
        table.append(e, source="vision")


def asked(client):
    resp = client.get("/api/questions")
    assert resp.status_code == 200
    return resp.get_json()["questions"]


def answer(client, q, choice, **extra):
    body = {"answer": choice, "digest": q["digest"], **extra}
    return client.post(f"/api/questions/{q['line']}/answer", json=body)


def pending_questions(table):
    return [r for r in table.referee.rulings
            if r.ruling == "pending" and r.rule.endswith(".question")]


def wild_on_wild(table):
    camera(table, "start", card="red-7")
    camera(table, "play", cards=["wild"], reach_from="A")
    camera(table, "play", cards=["wild"], reach_from="B")


def test_a_colour_question_answered_blue_settles_it_and_the_blue_play_is_legal(
        client, table, store):
    wild_on_wild(table)
    [q] = asked(client)
    assert q["line"] == 3 and "which colour was named" in q["question"]
    assert [a["id"] for a in q["answers"]] == ["red", "yellow", "green", "blue",
                                               "no-colour"]
    assert [a["label"] for a in q["answers"]][:4] == ["Red", "Yellow", "Green", "Blue"]
    resp = answer(client, q, "blue")
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    assert body["action"] == "insert" and body["answered"]["answer"] == "blue"
    # durable: the store holds the colour before the held play
    events = store.events(table.gid)
    assert events[2] == {"type": "color", "color": "blue", "source": "manual",
                         "answered": "blue"}
    assert events[3]["cards"] == ["wild"]
    assert not pending_questions(table) and asked(client) == []
    colour = [r for r in table.referee.rulings if r.event == 3]
    assert colour[0].ruling == "ok" and "blue" in colour[0].text
    camera(table, "play", cards=["blue-3"], reach_from="C")
    assert table.referee.rulings[-1].ruling == "ok"
    assert table.referee.state()["turn"] == "A"


def test_an_answer_is_undone_like_any_correction(client, table):
    wild_on_wild(table)
    [q] = asked(client)
    assert answer(client, q, "green").status_code == 200
    assert asked(client) == []
    undo = client.post("/api/undo", json={})
    assert undo.status_code == 200 and undo.get_json()["undid"] == "insert"
    assert [e["type"] for e in table.referee.events] == ["start", "play", "play"]
    assert [x["line"] for x in asked(client)] == [3]


def out_of_turn(table):
    # A's turn; B's arm plays: was A's draw missed, or did B play out of turn?
    camera(table, "start", card="red-7")
    camera(table, "play", cards=["red-3"], reach_from="B")


def test_out_of_turn_answered_a_missed_draw_makes_the_play_legal(client, table):
    out_of_turn(table)
    [q] = asked(client)
    assert [a["id"] for a in q["answers"]] == ["missed-draw", "out-of-turn", "misread"]
    assert q["refused"]["rule"] == "official.turn"
    assert table.referee.state()["turn"] == "A"
    resp = answer(client, q, "missed-draw")
    assert resp.status_code == 200, resp.get_json()
    assert [(e["type"], e.get("player")) for e in table.referee.events] == [
        ("start", None), ("draw", "A"), ("play", "B")]
    assert not pending_questions(table)
    state = table.referee.state()
    assert state["turn"] == "C" and state["top"] == "red-3"
    assert state["hand_counts"] == {"A": 6, "B": 4, "C": 5}


def test_out_of_turn_answered_as_logged_lets_the_refusal_stand(client, table, store):
    out_of_turn(table)
    [q] = asked(client)
    resp = answer(client, q, "out-of-turn")
    assert resp.status_code == 200 and resp.get_json()["action"] == "correct"
    kept = store.events(table.gid)[1]
    assert "question" not in kept and "answers" not in kept
    assert kept["answered"] == "out-of-turn" and kept["cards"] == ["red-3"]
    assert not pending_questions(table)
    last = [r for r in table.referee.rulings if r.event == 2]
    assert [(r.ruling, r.rule) for r in last] == [("illegal", "official.turn")]
    assert last[0].text == q["refused"]["text"]
    assert table.referee.state()["turn"] == "A"


def test_out_of_turn_answered_misread_deletes_the_play(client, table):
    out_of_turn(table)
    [q] = asked(client)
    assert answer(client, q, "misread").get_json()["action"] == "delete"
    assert [e["type"] for e in table.referee.events] == ["start"]
    assert asked(client) == []


def test_a_stale_answer_is_refused_and_changes_nothing(client, table, store):
    wild_on_wild(table)
    [q] = asked(client)
    assert answer(client, q, "red").status_code == 200
    before = store.events(table.gid)
    again = answer(client, q, "red")  # a second tap, or a second referee's page
    assert again.status_code == 409
    assert "no open question on line 3" in again.get_json()["message"]
    assert store.events(table.gid) == before


def test_an_answer_for_an_event_that_changed_is_refused(client, table):
    out_of_turn(table)
    [q] = asked(client)
    event = dict(table.referee.events[1])
    event["t"] = 9.5  # corrected on another page: still a question, not the same event
    assert client.put("/api/events/2", json=event).status_code == 200
    resp = answer(client, q, "out-of-turn")
    assert resp.status_code == 409 and "reload" in resp.get_json()["message"]
    assert len(pending_questions(table)) == 1


@pytest.mark.parametrize("body, status, says", [
    ({"answer": "purple"}, 400, "has no answer 'purple'"),
    ({"answer": "\u00e9\u2028\U0001f600" * 30}, 400, "has no answer"),
    ({"answer": 3}, 400, "'answer'"),
    ({}, 400, "'answer'"),
    ({"answer": "blue", "digest": 7}, 400, "'digest'"),
    ({"answer": "blue", "digest": None}, 400, "'digest'"),
    ({"answer": "blue", "digest": "0000"}, 409, "not the one"),
])
def test_bogus_answers_get_a_clear_4xx(client, table, store, body, status, says):
    wild_on_wild(table)
    [q] = asked(client)
    before = store.events(table.gid)
    payload = {"digest": q["digest"], **body}
    resp = client.post("/api/questions/3/answer", json=payload)
    assert resp.status_code == status, resp.get_json()
    assert says in resp.get_json()["message"]
    assert store.events(table.gid) == before


def test_garbage_bodies_lines_and_unicode_are_4xx(client, table):
    wild_on_wild(table)
    [q] = asked(client)
    url = "/api/questions/3/answer"
    raw = [b'{"answer": "\\ud800", "digest": "x"}', b"not json", b"[1, 2]",
           b"\xff\xfe", b""]
    for data in raw:
        resp = client.post(url, data=data, content_type="application/json")
        assert 400 <= resp.status_code < 500, (data, resp.status_code)
    for line in ("1", "2", "99", "0", "-1", "x", "3.5"):
        resp = client.post(f"/api/questions/{line}/answer",
                           json={"answer": "blue", "digest": q["digest"]})
        assert resp.status_code in (404, 405, 409), (line, resp.status_code)
    # a question with no game running
    client.application.extensions["tableref.table"].referee = None
    resp = client.post(url, json={"answer": "blue", "digest": q["digest"]})
    assert resp.status_code == 409


def test_answers_need_the_token(app, client, table):
    app.config["TOKEN"] = "s3cret"
    wild_on_wild(table)
    resp = client.post("/api/questions/3/answer", json={"answer": "blue", "digest": "x"})
    assert resp.status_code == 403
    assert client.get("/api/questions").status_code == 403
    assert len(pending_questions(table)) == 1
    ok = client.get("/api/questions", headers={"X-Tableref-Token": "s3cret"})
    q = ok.get_json()["questions"][0]
    resp = client.post("/api/questions/3/answer", json={"answer": "blue",
                                                        "digest": q["digest"]},
                       headers={"X-Tableref-Token": "s3cret"})
    assert resp.status_code == 200


def buttons(html):
    return re.findall(r'<button type="button" class="answer[^"]*" data-answer="([^"]+)"'
                      r'[^>]*>([^<]*)</button>', html)


def test_the_referee_view_shows_each_open_question_with_its_buttons(client, table):
    wild_on_wild(table)
    html = client.get("/").get_data(as_text=True)
    assert "The referee asks" in html and "which colour was named" in html
    assert buttons(html) == [("red", "Red"), ("yellow", "Yellow"), ("green", "Green"),
                             ("blue", "Blue"), ("no-colour", "No colour was named")]
    assert 'data-post="/api/questions/3/answer"' in html
    table_view = client.get("/table").get_data(as_text=True)
    assert "data-answer" not in table_view  # the players' view offers no controls
    client.post("/api/questions/3/answer",
                json={"answer": "blue", "digest": asked(client)[0]["digest"]})
    part = client.get("/partials?view=referee&names=controls").get_json()["controls"]
    assert "data-answer" not in part and "The referee asks" not in part


def test_the_question_and_its_answers_are_said_in_japanese(client, table):
    out_of_turn(table)
    html = client.get("/?lang=ja").get_data(as_text=True)
    assert "審判からの質問" in html
    assert "Aの番にBが出したのをカメラが見ました" in html
    assert [label for _, label in buttons(html)] == [
        "Aが1枚引いてパスした", "Bが順番外に出した", "カードは出ていない（誤認識）"]
    html = client.get("/?lang=en").get_data(as_text=True)
    assert [label for _, label in buttons(html)] == [
        "A drew a card and passed", "B played out of turn",
        "No card was played (misread)"]


def test_a_question_from_a_log_without_answers_offers_keep_and_delete(client, table):
    client.post("/api/events", json={"type": "start", "card": "red-7"})
    client.post("/api/events", json={"type": "play", "player": "B", "cards": ["red-3"],
                                     "question": "Did B play out of turn?"})
    [q] = asked(client)
    assert [(a["id"], a["label"]) for a in q["answers"]] == [
        ("keep", "It happened as logged"), ("delete", "No such event (misread)")]
    assert answer(client, q, "keep").status_code == 200
    assert asked(client) == []
    assert table.referee.rulings[-1].rule == "official.turn"


def test_questions_are_a_fragment_of_their_own_that_needs_the_token(app, client, table):
    """A question refreshes in its own fragment, so one that arrives while the
    referee is typing in a control form still shows; it is the referee's."""
    wild_on_wild(table)
    part = client.get("/partials?view=referee&names=questions").get_json()["questions"]
    assert buttons(part)[0] == ("red", "Red")
    controls = client.get("/partials?view=referee&names=controls").get_json()["controls"]
    assert "data-answer" not in controls
    app.config["TOKEN"] = "s3cret"
    assert client.get("/partials?view=table&names=questions").status_code == 403


# -- a reveal read with doubt: its answers are whole hands (do: replace) ----------

SHORT = {**UNO, "hand_size": 1}


def unsure_reveal(read="red-6", alt="red-5", alt_event=None):
    from referee.camera_text import reveal_asking
    event = {"type": "reveal", "player": "B", "cards": [read],
             **reveal_asking("B", [read], [(read, alt, [alt], 5)])}
    if alt_event is not None:
        event["answers"][1]["event"] = alt_event
    return event


@pytest.fixture
def shown(app, client):
    resp = client.post("/api/games", json=SHORT)
    assert resp.status_code == 201, resp.get_json()
    table = app.extensions["tableref.table"]
    table.append({"type": "start", "card": "red-7"}, source="vision")
    table.append({"type": "play", "player": "A", "cards": ["red-3"]}, source="vision")
    return table


def test_a_reveal_question_answered_with_the_runner_up_rescores_and_is_undone(
        client, shown, store):
    shown.append(unsure_reveal(), source="vision")
    shown.append({"type": "reveal", "player": "C", "cards": ["blue-2"]}, source="vision")
    assert shown.referee.state()["scores"]["B"] == -6  # as read, until answered
    [q] = asked(client)
    assert q["line"] == 3 and "red-5" in q["question"]
    assert [(a["id"], a["do"]) for a in q["answers"]] == [("as-read", "replace"),
                                                          ("alt-1", "replace")]
    assert "red-5" in q["answers"][1]["label"]
    html = client.get("/").get_data(as_text=True)
    assert ("alt-1", "The red-6 is a red-5 (5 points in all)") in buttons(html)
    resp = answer(client, q, "alt-1")
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json()["action"] == "correct"
    kept = store.events(shown.gid)[2]  # durable
    assert kept["cards"] == ["red-5"] and kept["answered"] == "alt-1"
    assert "question" not in kept and "answers" not in kept
    assert asked(client) == [] and not pending_questions(shown)
    assert shown.referee.state()["scores"] == {"A": 7, "B": -5, "C": -2}
    undo = client.post("/api/undo", json={})
    assert undo.status_code == 200 and undo.get_json()["undid"] == "correct"
    assert shown.referee.state()["scores"]["B"] == -6
    assert [x["line"] for x in asked(client)] == [3]


def test_a_reveal_question_answered_as_read_keeps_the_score(client, shown):
    shown.append(unsure_reveal(), source="vision")
    [q] = asked(client)
    assert answer(client, q, "as-read").status_code == 200
    assert shown.referee.events[2]["cards"] == ["red-6"]
    assert asked(client) == []


def test_a_replacing_answer_of_another_deck_is_a_clear_400(client, shown, store):
    shown.append(unsure_reveal(alt="skip-bo-9"), source="vision")
    [q] = asked(client)
    before = store.events(shown.gid)
    resp = answer(client, q, "alt-1")
    assert resp.status_code == 400, resp.get_json()
    assert "deck" in resp.get_json()["message"]
    assert store.events(shown.gid) == before and len(pending_questions(shown)) == 1
    assert answer(client, q, "no-such-id").status_code == 400


def test_a_replacing_answer_for_another_player_is_not_offered(client, shown):
    other = {"type": "reveal", "player": "C", "cards": ["red-5"]}
    shown.append(unsure_reveal(alt_event=other), source="vision")
    [q] = asked(client)
    assert [a["id"] for a in q["answers"]] == ["as-read"]
    assert answer(client, q, "alt-1").status_code == 400
