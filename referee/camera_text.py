"""What the camera and the microphone say about their evidence, in every language.

The table log's events may carry why they were inferred (``inferred`` with
``inferred_msg``) and what the table must settle (``question`` with
``question_msg``, and ``answers``: the choices the page offers, each with a
``label`` message): the English sentence beside its message data
(:mod:`referee.text`). The messages are defined here, in the referee, so that
a replay of any log can say them in the viewer's language; the functions
below build them (``vision.handsfree`` writes their ``str`` as the English
field and their ``data()`` beside it).

A card is named by its label in English, as the camera's sentences always
said it ("the wild-draw4"), and by its name in other languages (``@camera-card``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .text import Text, cap, card_name, color, define, formatter, join

define({
    # -- questions: the evidence cannot decide ------------------------------------
    "camera.question-out-of-turn": {
        "en": "The camera saw {player} play while it was {turn}'s turn: was a play, "
              "draw or pass of {turn}'s missed, or did {player} play out of turn?",
        "ja": "{turn}の番に{player}が出したのをカメラが見ましたが、{turn}の出す・引く・"
              "パスを見落としたのでしょうか、それとも{player}が順番外に出したのでしょうか？",
    },
    "camera.question-wild-colour": {
        "en": "No colour was heard for the {top} and the {card} played on it does not "
              "show one: which colour was named?",
        "ja": "{top}の色が聞こえず、その上に出た{card}でも色が分からず、"
              "何色が指定されましたか？",
    },
    "camera.question-reveal": {
        "en": "The camera is not sure of {player}'s shown hand: it read {read}, but "
              "it may be {alt}. Which is right?",
        "ja": ("{player}の公開された手札をカメラが読み切れず、"
               "{read}と読みましたが{alt}かもしれないので、どれが正しいですか？"),
    },
    # -- why an event was inferred ------------------------------------------------
    "camera.inferred-pass-played": {
        "en": "{player} drew and the next seat, {next}, played",
        "ja": "{player}が引いた後、次の席の{next}が出したため",
    },
    "camera.inferred-pass-drew": {
        "en": "{player} drew and the next seat, {next}, drew",
        "ja": "{player}が引いた後、次の席の{next}も引いたため",
    },
    "camera.inferred-colour": {
        "en": "no colour was heard and the next play, {card}, is legal on the {top} "
              "only if {color} was named",
        "ja": "色が聞こえず、次に出た{card}は{top}に{color}が指定された場合だけ出せるため",
    },
    # -- the answers the page offers ----------------------------------------------
    "camera.answer-missed-draw": {
        "en": "{player} drew a card and passed",
        "ja": "{player}が1枚引いてパスした",
    },
    "camera.answer-out-of-turn": {
        "en": "{player} played out of turn",
        "ja": "{player}が順番外に出した",
    },
    "camera.answer-misread": {
        "en": "No card was played (misread)",
        "ja": "カードは出ていない（誤認識）",
    },
    "camera.answer-as-read": {
        "en": "As read: {cards}",
        "ja": "読み取りどおり: {cards}",
    },
    "camera.answer-card-is": {
        "en": "The {read} is a {card} ({points} points in all)",
        "ja": "{read}ではなく{card}（合計{points}点）",
    },
    "camera.answer-no-colour": {
        "en": "No colour was named",
        "ja": "色は指定されなかった",
    },
})


@formatter("camera-card")
def _camera_card(args: Mapping[str, Any], lang: str) -> str:
    """A card as the camera's sentences say it: its label in English (today's
    wording), its name in other languages."""
    label = str(args["label"])
    if lang == "en":
        return label
    return card_name(label, lang, str(args.get("deck", "uno")))


def camera_card(label: Any, deck: str = "uno") -> Text:
    """``label`` as the camera's sentences say it (see ``@camera-card``)."""
    return Text("@camera-card", label=str(label), deck=deck)


# -- questions ---------------------------------------------------------------------

def out_of_turn_question(player: str, turn: str) -> Text:
    """A play seen from ``player``'s seat while it was ``turn``'s turn."""
    return Text("camera.question-out-of-turn", player=player, turn=turn)


def wild_colour_question(top: str, card: str) -> Text:
    """A wild ``top`` whose colour nobody named; ``card`` played on it shows none."""
    return Text("camera.question-wild-colour", top=camera_card(top),
                card=camera_card(card))


def reveal_question(player: str, read: list[str], alt: list[str],
                    deck: str = "uno") -> Text:
    """``player``'s shown hand has cards read with doubt: ``read`` (as read)
    and ``alt`` (each one's runner-up), said "red-6" / "red-5 or red-6"."""
    return Text("camera.question-reveal", player=player,
                read=_cards(read, deck), alt=_cards(alt, deck, " / "))


def _cards(labels: list[str], deck: str, sep: str = ", ") -> Text | str:
    if len(labels) == 1:
        return camera_card(labels[0], deck)
    return join(*(camera_card(x, deck) for x in labels), sep=sep)


# -- inferred ----------------------------------------------------------------------

def inferred_pass(player: str, next_seat: str, played: bool) -> Text:
    """``player`` drew and the next seat played (``played``) or drew."""
    key = "camera.inferred-pass-played" if played else "camera.inferred-pass-drew"
    return Text(key, player=player, next=next_seat)


def inferred_colour(card: str, top: str, colour: str) -> Text:
    """The next play ``card`` is legal on the wild ``top`` only in ``colour``."""
    return Text("camera.inferred-colour", card=camera_card(card), top=camera_card(top),
                color=color(colour))


# -- answer labels -------------------------------------------------------------------

def answer_missed_draw(player: str) -> Text:
    return Text("camera.answer-missed-draw", player=player)


def answer_out_of_turn(player: str) -> Text:
    return Text("camera.answer-out-of-turn", player=player)


def answer_misread() -> Text:
    return Text("camera.answer-misread")


def answer_colour(colour: str) -> Text:
    """A colour as an answer: "Blue", "青"."""
    return cap(color(colour))


def answer_as_read(cards: list[str], deck: str = "uno") -> Text:
    """The shown hand as the camera read it."""
    return Text("camera.answer-as-read", cards=_cards(cards, deck))


def answer_card_is(read: str, card: str, points: int, deck: str = "uno") -> Text:
    """The card read as ``read`` is ``card``; the hand is then worth ``points``."""
    return Text("camera.answer-card-is", read=camera_card(read, deck),
                card=camera_card(card, deck), points=points)


def reveal_asking(player: str, cards: list[str],
                  swaps: list[tuple[str, str, list[str], int | None]],
                  deck: str = "uno") -> dict:
    """The fields a ``reveal`` of ``player`` read as ``cards`` carries to ask
    about its doubtful cards: ``question``, ``question_msg`` and ``answers``,
    each answer a whole hand to ``replace`` the line with, the hand as read
    first, then one per swap ``(read, alt, hand, points)``: the card read as
    ``read`` is ``alt``, the hand then ``hand`` worth ``points`` (None: said
    as the hand)."""
    question = reveal_question(player, [w[0] for w in swaps], [w[1] for w in swaps],
                               deck)
    answers = [{"id": "as-read", "do": "replace",
                "label": answer_as_read(cards, deck).data(),
                "event": {"type": "reveal", "player": player, "cards": list(cards)}}]
    for n, (read, alt, hand, points) in enumerate(swaps, 1):
        answers.append({
            "id": f"alt-{n}", "do": "replace",
            "label": (answer_card_is(read, alt, points, deck) if points is not None
                      else answer_as_read(hand, deck)).data(),
            "event": {"type": "reveal", "player": player, "cards": list(hand)},
        })
    return {"question": str(question), "question_msg": question.data(),
            "answers": answers}


def answer_no_colour() -> Text:
    return Text("camera.answer-no-colour")
