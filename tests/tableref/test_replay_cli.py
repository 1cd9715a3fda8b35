"""``tableref replay LOG --state FILE``, ``replay -``, ``rules``, ``demo``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from tableref.cli import main
from referee.data import DEMO_LOG

LOG = [{"type": "game", "game": "uno", "rules": "official", "players": ["A", "B"],
        "dealer": "B", "options": {"rounds": 1}},
       {"type": "start", "card": "red-5"},
       {"type": "play", "cards": ["red-6"]},
       "not json",
       {"type": "play", "player": "B", "cards": ["blue-6"]}]


def write_log(tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text(
        "\n".join(x if isinstance(x, str) else json.dumps(x) for x in LOG) + "\n",
        encoding="utf-8")
    return path


def test_replay_writes_rulings_and_state(tmp_path, capsys):
    log = write_log(tmp_path)
    state = tmp_path / "state.json"
    assert main(["replay", str(log), "--state", str(state)]) == 0
    rulings = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["event"] for r in rulings] == [1, 2, 3, 4]
    assert rulings[2]["rule"] == "log.malformed"
    assert "player taken from the turn" in rulings[1]["text"]
    final = json.loads(state.read_text())
    for key in ("turn", "direction", "top", "color", "pending_draw", "hand_counts",
                "scores"):
        assert key in final
    assert final["turn"] == "A" and final["top"] == "blue-6"
    assert final["hand_counts"] == {"A": 6, "B": 6}


def test_replay_reads_stdin(tmp_path, monkeypatch, capsys):
    text = write_log(tmp_path).read_text()
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert main(["replay", "-"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 4


def test_replay_missing_file(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_replay_as_a_subprocess(tmp_path):
    log = write_log(tmp_path)
    out = subprocess.run(
        [sys.executable, "-m", "tableref", "replay", "-"], input=log.read_text(),
        capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(out.stdout.splitlines()[-1])["ruling"] == "ok"


def test_rules_lists_presets_and_describes_official(capsys):
    assert main(["rules"]) == 0
    text = capsys.readouterr().out
    assert "official" in text and "stack_answers" in text
    assert main(["rules", "official"]) == 0
    text = capsys.readouterr().out
    assert "catch_window = next-plays" in text and "source: 001" in text
    assert main(["rules", "nonsense"]) == 2


def test_demo_log_shows_off_the_rules(capsys):
    from referee.game import replay

    with open(DEMO_LOG, encoding="utf-8") as fh:
        result = replay(fh)
    rules = {(r.rule, r.ruling) for r in result.rulings}
    for need in [("official.wd4-challenge", "pending"),
                 ("official.wd4-challenge", "penalty"),
                 ("official.uno-call", "ok"), ("official.uno-missed", "penalty"),
                 ("official.draw2", "pending"), ("official.skip", "ok"),
                 ("official.reverse", "ok"), ("official.scoring", "round-end"),
                 ("official.game-end", "game-end")]:
        assert need in rules, need
    assert not [r for r in result.rulings if r.rule.startswith("log.")]
    assert len(result.state()["rounds"]) >= 2 and len(result.state()["players"]) >= 3
    assert main(["replay", str(DEMO_LOG)]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out[-1]["ruling"] == "game-end" and out[-1]["scores"]


def test_rules_listing_is_generic_over_registered_games(monkeypatch):
    from dataclasses import dataclass, field

    from referee import game as game_module
    from referee.presets_doc import describe, overview

    @dataclass(frozen=True)
    class ToyOptions:
        speed: int = field(
            default=3, metadata={"help": "how fast", "source": "toy seed"})

    class Toy(game_module.Game):
        """A toy game for the listing test."""

        name = "toy"

        @classmethod
        def presets(cls):
            return {"toy-fast": ToyOptions()}

    monkeypatch.setattr(game_module, "_REGISTRY", list(game_module.games()) + [Toy])
    monkeypatch.setattr(game_module, "_load_builtin_games", lambda: None)
    assert "toy-fast" in overview() and "how fast" in overview()
    text = describe("toy-fast")
    assert "speed = 3" in text and "toy seed" in text
