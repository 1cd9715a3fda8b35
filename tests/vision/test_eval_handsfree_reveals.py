"""eval_handsfree counts the reveals that ask, and whether one tap would have
settled them (the truth's hand among the answers)."""

from benchmarks.eval_handsfree import asked_reveals
from referee.camera_text import reveal_asking

TRUTH = [
    {"type": "reveal", "player": "B", "cards": ["red-5", "blue-2"]},
    {"type": "reveal", "player": "C", "cards": ["green-9"]},
]


def asking(player, cards, swaps):
    return {"type": "reveal", "player": player, "cards": cards,
            **reveal_asking(player, cards, swaps)}


def test_a_misread_hand_whose_runner_up_is_the_truth_is_offered():
    log = [asking("B", ["blue-2", "red-6"], [("red-6", "red-5", ["blue-2", "red-5"], 7)]),
           {"type": "reveal", "player": "C", "cards": ["green-9"]}]
    assert asked_reveals(TRUTH, log) == (1, 0, 1)


def test_a_hand_right_as_read_and_a_wrong_runner_up():
    log = [asking("B", ["red-5", "blue-2"], [("red-5", "red-6", ["blue-2", "red-6"], 8)]),
           asking("C", ["green-6"], [("green-6", "green-8", ["green-8"], 8)])]
    assert asked_reveals(TRUTH, log) == (2, 1, 1)


def test_no_question_no_count():
    assert asked_reveals(TRUTH, TRUTH) == (0, 0, 0)
