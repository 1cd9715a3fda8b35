"""The ``tableref`` command table: usage, unknown commands, lazy imports."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

from tableref.cli import COMMANDS, main


def test_usage_lists_every_command(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert f"  {name} " in out


def test_unknown_command_is_refused(capsys):
    assert main(["nonsense"]) == 2
    assert "unknown command 'nonsense'" in capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_its_two_functions(name):
    module = importlib.import_module(COMMANDS[name][0])
    assert callable(getattr(module, f"{name}_arguments"))
    assert callable(getattr(module, "import_" if name == "import" else name))


def test_referee_holds_no_command_line():
    import referee

    for gone in ("cli", "commands", "store_cli"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(f"referee.{gone}")
    assert referee.__file__


HEAVY = ("torch", "cv2", "numpy", "ultralytics", "openvino", "flask")
PROBE = """
import json, sys
from tableref.cli import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "heavy": sorted(m for m in %r if m in sys.modules)}))
""" % (HEAVY,)


@pytest.mark.parametrize("argv", [
    ["replay", "-"],
    ["rules", "official"],
    ["simulate", "--seed", "3", "--players", "3"],
    ["history", "--db", "{tmp}/games.db"],
])
def test_referee_commands_load_no_heavy_module(tmp_path, argv):
    """The referee's subcommands import only pure-Python modules."""
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    header = {"type": "game", "game": "uno", "rules": "official",
              "players": ["A", "B"], "dealer": "B"}
    done = subprocess.run([sys.executable, "-c", PROBE, *argv],
                          input=json.dumps(header) + "\n", capture_output=True,
                          text=True, timeout=60, check=True)
    report = json.loads(done.stdout.splitlines()[-1])
    assert report == {"code": 0, "heavy": []}, done.stderr


def test_simulate_prints_a_log_that_replays_to_a_finished_game(capsys):
    from referee.game import replay

    assert main(["simulate", "--seed", "5", "--players", "3",
                 "--options", '{"rounds": 1}']) == 0
    lines = capsys.readouterr().out.splitlines()
    assert json.loads(lines[0])["players"] == ["P1", "P2", "P3"]
    result = replay(lines)
    assert result.state()["phase"] == "over"
    assert not [r for r in result.rulings if r.rule == "log.malformed"]


@pytest.mark.parametrize("argv", [
    ["--options", "[1]"], ["--options", "{"], ["--players", "1"], ["--rules", "junocos"],
])
def test_simulate_refuses_bad_arguments(capsys, argv):
    assert main(["simulate", *argv]) == 2
    assert "tableref simulate:" in capsys.readouterr().err

