"""A second copy of a card lying deep in the pile, put on the top card under
a hand that lingers on it: its box (smaller than a whole card, within the
lower copy's) is the card put down, not the lower copy peeking out, when the
top card's pixels are sure a card lies on it (``PileMemory._pixels_sure``);
without that it waits for the hand to leave."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.vision.test_pile_covers_top import NEW, _pile
from tests.vision.test_pile_twins import card, reach
from vision.pile_memory import PileMemory


@pytest.mark.parametrize("sure, plays", [(True, True), (False, False)])
def test_a_small_box_under_the_hand_covers_the_top_card_when_the_pixels_are_sure(
    monkeypatch, sure, plays
):
    table = _pile()
    assert table.plays.watcher.memory.config.cover_sure  # the default
    monkeypatch.setattr(PileMemory, "_pixels_sure", lambda self: sure)
    # B's arm brings the card in and lets go, its hand lingering on it
    events = table.frames(15, [card(*NEW, touched=True)], reach("B"))
    assert [e["cards"] for e in events] == ([["wild-draw4"]] if plays else [])


def test_with_cover_sure_off_it_waits_for_the_hand(monkeypatch):
    table = _pile()
    monkeypatch.setattr(PileMemory, "_pixels_sure", lambda self: True)
    memory = table.plays.watcher.memory
    memory.config = replace(memory.config, cover_sure=False)
    assert table.frames(15, [card(*NEW, touched=True)], reach("B")) == []
