"""The pipeline configuration: one object, every field named, from a file and
the command line."""

from __future__ import annotations

import ast
import json
import re
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest

from referee.cards import CLASSES
from tableref.cli import main
from vision.config import SECTIONS, ConfigError, PipelineConfig, PlayConfig
from vision.config_load import load_config, parse_set
from vision.detections import Detections
from vision.geometry import TableGeometry
from vision.plays import UnoPlayDetector
from vision.tracking import CardTracker

ROOT = Path(__file__).resolve().parents[2]
VISION = ROOT / "vision"
PILE = (330.0, 210.0)  # the default discard zone's centre on a 560 x 420 mm table
FPS = 15.0


def _dets(rows) -> Detections:
    boxes = [(x - 28, y - 43.5, x + 28, y + 43.5) for _, x, y in rows]
    return Detections(
        np.array(boxes, float),
        np.full(len(rows), 0.9),
        [CLASSES.index(label) for label, *_ in rows],
        data={"touched": np.zeros(len(rows), bool)},
    )


def _play_time(config: PlayConfig) -> float:
    """When a card put on the pile at 1.0 s counts as played."""
    geo = TableGeometry.default((560, 420), ("A", "B", "C"))
    tracker, plays = CardTracker(geo), UnoPlayDetector(geo, config)
    for k in range(60):
        t = k / FPS
        rows = [("red-7", *PILE)] + ([("red-3", 338.0, 205.0)] if t >= 1.0 else [])
        tracked = tracker.update(_dets(rows), t)
        for event in plays.update(tracked, t, tracker.tracks, []):
            if event["type"] == "play":
                return event["t"]
    raise AssertionError("no play")


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_settle_s_from_a_file_changes_when_a_card_counts_as_lying_still(
    tmp_path, suffix
):
    path = tmp_path / f"table{suffix}"
    if suffix == ".toml":
        path.write_text("[play]\nsettle_s = 0.5\n")
    else:
        path.write_text(json.dumps({"play": {"settle_s": 0.5}}))
    config = load_config(path)
    assert config.play.settle_s == 0.5
    default, slow = _play_time(PlayConfig()), _play_time(config.play)
    # the first frame at least settle_s after the card's first (frames of 1/15 s)
    assert default == pytest.approx(1.133, abs=1e-6)
    assert slow == pytest.approx(1.533, abs=1e-6)
    # the command line overrides the file
    again = load_config(path, ["play.settle_s=0.12"])
    assert _play_time(again.play) == default


def test_settle_s_is_found_by_name_in_one_hop():
    """The newcomer's path: the field name -> its definition (unit, meaning)
    in vision/config.py -> the one module that reads it."""
    defined = [
        p.relative_to(ROOT).as_posix()
        for p in VISION.rglob("*.py")
        if re.search(r"^\s+settle_s: float = ", p.read_text(), re.M)
    ]
    assert defined == ["vision/config.py"]
    field = next(f for f in fields(PlayConfig) if f.name == "settle_s")
    assert field.metadata["unit"] == "s" and "still" in field.metadata["help"]
    readers = sorted(
        p.relative_to(ROOT).as_posix()
        for p in VISION.rglob("*.py")
        if re.search(r"\bcfg\.settle_s\b|config\.play\.settle_s\b", p.read_text())
    )
    # the play's settle_s is read where the pile decides; the scan has its own
    # (scan.settle_s: how long a laid-out hand must stay unchanged)
    assert readers == ["vision/pile.py", "vision/scan.py"]
    assert "ScanConfig" in (VISION / "scan.py").read_text()


def test_every_field_has_a_unit_and_a_meaning_and_is_in_the_docs():
    docs = (ROOT / "docs" / "vision.md").read_text(encoding="utf-8")
    for dotted, value, f in PipelineConfig().items():
        assert f.metadata.get("unit"), dotted
        assert len(f.metadata.get("help", "")) > 10, dotted
        assert f"`{dotted}`" in docs, f"{dotted} is not in docs/vision.md"


@pytest.mark.parametrize(
    "sets, message",
    [
        (["play.setle_s=0.2"], "did you mean 'play.settle_s'"),
        (["plya.settle_s=0.2"], "unknown config section 'plya'"),
        (["play.settle_s=soon"], "play.settle_s must be a number"),
        (["play.settle_s=-1"], "play.settle_s must be at least 0"),
        (["detector.views=4"], "detector.views must be one of"),
        (["play.settle_s"], "SECTION.FIELD=VALUE"),
        (["tracking.history_frames=30"],
         "'tracking.history_frames' was renamed 'tracking.history_s' (seconds"),
    ],
)
def test_an_unknown_field_or_a_bad_value_is_named(sets, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_config(None, sets)


def test_a_bad_file_is_named(tmp_path):
    bad = tmp_path / "c.json"
    bad.write_text(json.dumps({"play": {"settle_frames": 2.5}}))
    with pytest.raises(ConfigError, match="play.settle_frames must be a whole number"):
        load_config(bad)
    bad.write_text("{not json")
    with pytest.raises(ConfigError, match="is not valid"):
        load_config(bad)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


def test_set_parses_by_the_fields_type():
    assert parse_set("scan.grid=1") == ("scan.grid", 1)
    assert parse_set(" tracking.keep_s = 0.8 ") == ("tracking.keep_s", 0.8)


def test_watch_lists_the_fields_and_refuses_an_unknown_one(capsys, tmp_path):
    with pytest.raises(SystemExit) as done:
        main(["watch", "--help-config"])
    assert done.value.code == 0
    listing = capsys.readouterr().out
    assert f"play.settle_s = {PipelineConfig().play.settle_s} s:" in listing
    assert len(listing.splitlines()) == len(list(PipelineConfig().items()))
    code = main(
        ["watch", str(tmp_path / "x.mp4"), "--players", "A,B", "--set", "play.x=1"]
    )
    assert code == 2
    assert "unknown config field 'play.x'" in capsys.readouterr().err


def test_serve_takes_the_config_and_refuses_a_bad_one(capsys):
    assert main(["serve", "--set", "hands.mm_px=0"]) == 2
    assert "hands.mm_px must be at least 0.5" in capsys.readouterr().err


def test_demo_refuses_a_bad_config(capsys):
    assert main(["demo", "--set", "scan.grid=0"]) == 2
    assert "scan.grid must be at least 1" in capsys.readouterr().err


def test_every_section_is_a_field_of_the_pipeline_config():
    assert [f.name for f in fields(PipelineConfig)] == list(SECTIONS)


def _imports(path: Path) -> set[str]:
    """The vision modules that ``path`` imports (at the top or inside a function)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            names = [mod] + [f"{mod}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        out |= {n for n in names if n.startswith("vision")}
    return out


def test_vision_imports_run_one_way():
    modules = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
        for p in VISION.rglob("*.py")
    }
    graph = {m: {i for i in _imports(p) if i in modules and i != m}
             for m, p in modules.items()}
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for n in graph[m]:
            if state.get(n) == 1:
                raise AssertionError(f"import circle: {' -> '.join(path + [m, n])}")
            if not state.get(n):
                visit(n, path + [m])
        state[m] = 2

    for m in sorted(graph):
        if not state.get(m):
            visit(m, [])
