"""The tgus-t deck's labels go through enrollment's label parsing unchanged."""

from __future__ import annotations

import pytest

from referee.cards import CLASSES, Card
from referee.tgus_t.cards import deck_counts
from vision.enroll_photos import (
    EnrollError,
    canonical_label,
    deck_labels,
    read_photo_folder,
)


@pytest.mark.parametrize("label", sorted(deck_counts()))
def test_every_tgus_t_label_round_trips(label) -> None:
    assert canonical_label(label) == label
    assert canonical_label(label.upper()) == label
    assert canonical_label(Card.from_label(label).short) == label


@pytest.mark.parametrize("short, label", [
    ("RH2", "red-hit2"), ("BRH2", "blue-reverse-hit2"), ("CO", "counter"),
    ("WHX", "wild-hit-x"), ("GB", "gamble"), ("WH4", "wild-hit4"),
])
def test_short_forms_name_the_deck_cards(short, label) -> None:
    assert canonical_label(short) == label


def test_a_tgus_t_folder_gives_the_deck_its_own_classes(tmp_path) -> None:
    for name in ("RH2", "counter", "red-7"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "a.jpg").write_bytes(b"")
    photos = read_photo_folder(tmp_path)
    assert sorted(photos) == ["counter", "red-7", "red-hit2"]
    labels, wanted = deck_labels(list(photos))
    assert labels[: len(CLASSES)] == list(CLASSES)
    assert {"red-hit2", "counter", "wild-hit-x"} <= set(labels[len(CLASSES):])
    assert sorted(wanted) == sorted(deck_counts())
    # a deck of standard cards only keeps the shipped classes
    assert deck_labels(["red-7"]) == (list(CLASSES), list(CLASSES))


def test_a_hit_label_of_no_colour_is_refused() -> None:
    with pytest.raises(EnrollError):
        canonical_label("purple-hit2")
