"""``tableref rules``: every game listed once with all its presets."""

from __future__ import annotations

from referee.game import games
from referee.presets_doc import overview


def test_a_game_of_several_classes_is_listed_once_with_every_preset():
    text = overview()
    heads = [line.split(":")[0] for line in text.splitlines()
             if line and not line.startswith(" ") and ":" in line][1:]
    assert heads == sorted(set(heads), key=heads.index), heads  # each game once
    assert heads.count("uno") == 1
    uno = text.split("\nuno:")[1].split("\n\n")[0]
    for cls in games():
        if cls.name == "uno":
            for preset in cls.presets():
                assert f"\n  {preset}: " in uno, preset
    assert "  options of official (" in uno and "  options of tgus-t1, tgus-t2 (" in uno
