"""The camera's questions and inferences as data (issue 25 items 4, 5): each
question carries its message and its answers, each inferred reason its
message; the referee says them in the viewer's language."""

from __future__ import annotations

import io
import json

from referee.session import Referee
from referee.text import render_data
from vision.handsfree import complete
from vision.live import LiveTable

HEADER = {"type": "game", "game": "uno", "rules": "official",
          "players": ["A", "B", "C", "D"], "dealer": "D", "hand_size": 5,
          "options": {}}


def cam(kind, **kw):
    return {"type": kind, "source": "vision", "t": 1.0, **kw}


def state(**kw):
    base = {"players": ["A", "B", "C", "D"], "direction": 1, "turn": "A",
            "phase": "turn", "top": "red-7", "color": "red", "options": {}}
    return {**base, **kw}


def only(events):
    [event] = [e for e in events if "question" in e]
    return event


def test_out_of_turn_question_as_data_with_a_missed_draw_answer():
    [ev] = complete(cam("play", cards=["red-3"], reach_from="B"), state())
    assert render_data(ev["question_msg"], "en") == ev["question"] == (
        "The camera saw B play while it was A's turn: was a play, draw or pass of "
        "A's missed, or did B play out of turn?")
    assert render_data(ev["question_msg"], "ja").startswith(
        "Aの番にBが出したのをカメラが見ましたが、")
    assert [(a["id"], a["do"], a.get("event")) for a in ev["answers"]] == [
        ("missed-draw", "insert", {"type": "draw", "player": "A", "count": 1}),
        ("out-of-turn", "keep", None),
        ("misread", "delete", None)]
    labels = [render_data(a["label"], "en") for a in ev["answers"]]
    assert labels == ["A drew a card and passed", "B played out of turn",
                      "No card was played (misread)"]
    assert [render_data(a["label"], "ja") for a in ev["answers"]] == [
        "Aが1枚引いてパスした", "Bが順番外に出した", "カードは出ていない（誤認識）"]


def test_no_missed_draw_answer_where_one_draw_cannot_explain_the_seat():
    # C is two seats on from A: one missed draw of A's would not make it C's turn
    [ev] = complete(cam("play", cards=["red-3"], reach_from="C"), state())
    assert [a["id"] for a in ev["answers"]] == ["out-of-turn", "misread"]
    # A drew already: the next seat's play is A's pass, and nothing is asked ...
    out = complete(cam("play", cards=["red-3"], reach_from="B"), state(phase="drawn"))
    assert [e["type"] for e in out] == ["pass", "play"] and "question" not in out[1]
    # ... but a seat further on is asked about, again without a missed draw
    [ev] = complete(cam("play", cards=["red-3"], reach_from="D"), state(phase="drawn"))
    assert [a["id"] for a in ev["answers"]] == ["out-of-turn", "misread"]


def test_wild_colour_question_offers_each_colour_as_an_inserted_colour_event():
    ev = only(complete(cam("play", cards=["wild-draw4"], reach_from="A"),
                       state(top="wild", color=None)))
    assert ev["question"] == render_data(ev["question_msg"], "en") == (
        "No colour was heard for the wild and the wild-draw4 played on it does not "
        "show one: which colour was named?")
    assert render_data(ev["question_msg"], "ja") == (
        "ワイルドの色が聞こえず、その上に出たワイルドドロー4でも色が分からず、"
        "何色が指定されましたか？")
    assert [(a["id"], a["do"], a.get("event")) for a in ev["answers"]] == [
        ("red", "insert", {"type": "color", "color": "red"}),
        ("yellow", "insert", {"type": "color", "color": "yellow"}),
        ("green", "insert", {"type": "color", "color": "green"}),
        ("blue", "insert", {"type": "color", "color": "blue"}),
        ("no-colour", "keep", None)]
    assert [render_data(a["label"], "ja") for a in ev["answers"]] == [
        "赤", "黄", "緑", "青", "色は指定されなかった"]
    assert len(json.dumps(ev["answers"], ensure_ascii=False)) < 2000  # a page field


def test_an_out_of_turn_play_on_a_wild_asks_about_the_turn_only():
    out = complete(cam("play", cards=["wild"], reach_from="C"),
                   state(top="wild", color=None))
    ev = only(out)
    assert "while it was A's turn" in ev["question"]
    assert [a["id"] for a in ev["answers"]] == ["out-of-turn", "misread"]


def test_inferred_reasons_carry_their_message():
    passed, play = complete(cam("draw", count=1, reach_from="B"), state(phase="drawn"))
    assert passed["inferred"] == render_data(passed["inferred_msg"], "en") == (
        "A drew and the next seat, B, drew")
    assert render_data(passed["inferred_msg"], "ja") == "Aが引いた後、次の席のBも引いたため"
    colour, play = complete(cam("play", cards=["green-3"], reach_from="A"),
                            state(top="wild-draw4", color=None))
    assert colour["inferred"] == render_data(colour["inferred_msg"], "en") == (
        "no colour was heard and the next play, green-3, is legal on the wild-draw4 "
        "only if green was named")
    assert render_data(colour["inferred_msg"], "ja") == (
        "色が聞こえず、次に出た緑の3はワイルドドロー4に緑が指定された場合だけ出せるため")
    assert "question" not in play


def test_the_referee_says_the_question_and_the_inference_in_japanese():
    live = LiveTable(dict(HEADER), out=io.StringIO())
    for e in (cam("start", card="red-7"), cam("draw", count=1, reach_from="A"),
              cam("play", cards=["red-3"], reach_from="B"),
              cam("play", cards=["red-4"], reach_from="A")):
        live.append(e)
    passed = next(r for r in live.referee.rulings if r.rule.endswith("pass")
                  or r.extra.get("inferred"))
    assert "（推定: Aが引いた後、次の席のBが出したため）" in passed.text.render("ja")
    held = live.referee.rulings[-1]
    assert (held.ruling, held.rule) == ("pending", "official.question")
    assert held.text.render("ja").startswith("Cの番にAが出したのをカメラが見ましたが、")
    assert held.text == live.referee.events[-1]["question"]
    [asked] = live.asked
    assert asked["open"] and asked["line"] == 5
    assert [a["id"] for a in asked["answers"]] == ["out-of-turn", "misread"]
    printed = live.out.getvalue().splitlines()[-1]
    assert printed.endswith("(A played out of turn / No card was played (misread))")


def test_a_moot_question_is_kept_but_not_open():
    live = LiveTable(dict(HEADER), out=io.StringIO())
    live.append(cam("start", card="red-7"))
    event = complete(cam("play", cards=["red-3"], reach_from="B"),
                     live.referee.state())[-1]
    live.append({"type": "draw", "player": "A", "count": 1, "source": "manual"})
    live._append(event)  # the missed draw came first: the play is B's, legal
    assert live.referee.rulings[-1].ruling == "ok"
    assert [q["open"] for q in live.asked] == [False]


def test_a_replayed_log_says_the_question_without_the_camera():
    live = LiveTable(dict(HEADER), out=io.StringIO())
    for e in (cam("start", card="red-7"), cam("play", cards=["red-3"], reach_from="C")):
        live.append(e)
    again = Referee(dict(HEADER))
    for e in json.loads(json.dumps(live.referee.events)):  # through JSON, as stored
        again.append(e)
    held = again.rulings[-1]
    assert held.ruling == "pending"
    assert held.text.render("ja").startswith("Aの番にCが出したのをカメラが見ましたが、")
