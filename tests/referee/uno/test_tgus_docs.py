"""The TGUS documentation stays in step with the code: options, rule names, sources."""

from __future__ import annotations

import re
from dataclasses import fields

from referee.presets_doc import describe
from referee.uno.options import PRESETS
from referee.uno.tgus_presets import PRESET_SOURCES, TGUS_PRESETS, TgusOptions
from referee.uno.tgus_simulate import simulate_tgus

from test_tgus_support import ROOT

RULES_DOC = (ROOT / "docs" / "rules-tgus.md").read_text(encoding="utf-8")
EVENTS_DOC = (ROOT / "docs" / "events-tgus.md").read_text(encoding="utf-8")
CORE_RULES = {
    "first-card",
    "match",
    "draw",
    "pass",
    "turn",
    "skip",
    "reverse",
    "draw2",
    "wild",
    "wd4",
    "stacking",
    "uno-call",
    "uno-missed",
    "wd4-challenge",
    "reveal",
    "scoring",
    "game-end",
    "game-over",
    "round-end",
    "reshuffle",
    "multi-play",
    "drawn-card",
    "hand-count",
    "options",
    "players",
    "unknown-event",
    "going-out",
    "jump-in",
}


def test_every_option_a_tgus_preset_changes_is_in_the_options_table():
    official = TgusOptions()
    assert official.to_dict() == {**TgusOptions().to_dict(),
                                  **PRESETS["official"].to_dict()}
    for name in ("tgus-1", "tgus-2", "tgus-3"):
        for f in fields(TgusOptions):
            if getattr(TGUS_PRESETS[name], f.name) != getattr(official, f.name):
                assert f"| `{f.name}` |" in RULES_DOC, f.name


def test_every_seed_section_source_names_its_preset_section():
    for preset, table in PRESET_SOURCES.items():
        assert table, preset
        for option, source in table.items():
            assert re.match(r"000 TGUS-TGC-UNO\.[123]: ", source), (preset, option)


def test_tableref_rules_shows_where_each_tgus3_option_comes_from():
    text = describe("tgus-3")
    for f in fields(TgusOptions):
        assert f"  {f.name} = " in text
    assert "[tgus-3 sets it: 000 TGUS-TGC-UNO.3: " in text  # face_down, own section
    assert "[tgus-3 sets it: 000 TGUS-TGC-UNO.1: " in text  # play_to_last, inherited


def test_every_rule_named_in_playouts_is_documented():
    names = set()
    for rules in ("tgus-1", "tgus-2", "tgus-3"):
        for seed in range(3):
            sim = simulate_tgus(seed, 4, rules, {"rounds": 1})
            names |= {r.rule.split(".", 1)[1] for r in sim.rulings}
    for rule in sorted(names - CORE_RULES):
        assert f"`{rule}`" in RULES_DOC, rule


def test_every_new_event_type_is_documented():
    for kind in (
        "direction",
        "picture-leftover",
        "face-down",
        "doubt",
        "shuffle-hands",
        "stop",
    ):
        assert f'{{"type": "{kind}"' in EVENTS_DOC, kind


def test_tableref_rules_lists_each_tgus_preset_with_one_line():
    from referee.presets_doc import overview

    text = overview()
    for n in (1, 2, 3):
        assert f"  tgus-{n}: 000 TGUS-TGC-UNO.{n}: " in text
