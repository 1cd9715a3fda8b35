"""A reveal whose hand the camera read with doubt carries a question: the
referee scores the hand as read and keeps a pending question open until the
table picks one of its answers (issue 25)."""

from __future__ import annotations

from referee.camera_text import reveal_asking
from referee.session import Referee
from referee.text import render_data

HEADER = {"type": "game", "game": "uno", "rules": "official", "players": ["A", "B", "C"],
          "dealer": "C", "hand_size": 1, "options": {}}


def unsure_reveal(read: str = "red-6", alt: str = "red-5") -> dict:
    return {"type": "reveal", "player": "B", "cards": [read], "source": "vision",
            **reveal_asking("B", [read], [(read, alt, [alt], 5)])}


def play_out(ref: Referee) -> None:
    ref.append({"type": "start", "card": "red-7"})
    ref.append({"type": "play", "player": "A", "cards": ["red-3"]})


def questions(ref: Referee) -> list:
    return [r for r in ref.rulings if r.ruling == "pending" and r.rule.endswith(".question")]


def test_an_unsure_reveal_is_scored_as_read_and_its_question_stays_open():
    ref = Referee(HEADER)
    play_out(ref)
    ref.append(unsure_reveal())
    ref.append({"type": "reveal", "player": "C", "cards": ["blue-2"]})
    [q] = questions(ref)
    assert q.event == 3 and "red-5" in q.text
    assert ref.state()["scores"] == {"A": 8, "B": -6, "C": -2}


def test_the_same_reveal_without_a_question_asks_nothing():
    ref = Referee(HEADER)
    play_out(ref)
    plain = {k: v for k, v in unsure_reveal().items()
             if k not in ("question", "question_msg", "answers")}
    ref.append(plain)
    assert questions(ref) == []


def test_the_corrected_hand_changes_the_score_and_closes_the_question():
    ref = Referee(HEADER)
    play_out(ref)
    ref.append(unsure_reveal())
    ref.append({"type": "reveal", "player": "C", "cards": ["blue-2"]})
    ref.correct(3, {"type": "reveal", "player": "B", "cards": ["red-5"], "answered": "alt-1"})
    assert questions(ref) == []
    assert ref.state()["scores"] == {"A": 7, "B": -5, "C": -2}


def test_the_question_and_answers_are_said_in_english_and_japanese():
    event = unsure_reveal()
    en = render_data(event["question_msg"], "en", "")
    ja = render_data(event["question_msg"], "ja", "")
    assert "B" in en and "red-6" in en and "red-5" in en and "?" in en
    assert "赤の6" in ja and "赤の5" in ja and ja != en
    label = render_data(event["answers"][1]["label"], "ja", "")
    assert "赤の5" in label and "5点" in label
