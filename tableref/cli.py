"""The ``tableref`` command line.

Each subcommand lives in the package it belongs to, as a pair of functions
``<name>_arguments(parser)`` and ``<name>(args) -> int`` in the module named in
:data:`COMMANDS`. Only the module of the subcommand being run is imported, so
``tableref replay`` never loads torch or OpenCV.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "replay": ("referee.commands", "replay a table log and print the rulings as JSON lines"),
    "rules": ("referee.commands", "list rule presets and options, or show one preset"),
    "demo": ("vision.commands", "run the referee on the bundled demo table"),
    "synth": ("datasets.commands", "render synthetic table scenes for training"),
    "train": ("vision.detector_cli", "train the card detector from synthetic data"),
    "detect": ("vision.detector_cli", "detect cards in images, one JSON line per image"),
    "evaluate": ("vision.detector_cli", "measure the detector on real and synthetic images"),
    "markers": ("vision.commands", "write a printable sheet of ArUco calibration markers"),
    "calibrate": ("vision.commands", "calibrate the table geometry from a camera frame"),
    "watch": ("vision.commands", "referee a live table from a camera or video (headless)"),
    "serve": ("web.commands", "serve the referee's page (live table, rulings, scores)"),
    "listen": ("voice.commands", "listen for UNO calls on a microphone or audio file"),
    "history": ("referee.store_cli", "list stored games, or show one game's rulings"),
    "export": ("referee.store_cli", "export a stored game as a table log"),
    "import": ("referee.store_cli", "import a table log into the game store"),
}


def _usage() -> str:
    width = max(len(n) for n in COMMANDS)
    lines = ["usage: tableref COMMAND [ARGS...]", "", "commands:"]
    lines += [f"  {name.ljust(width)}  {help_}" for name, (_, help_) in COMMANDS.items()]
    lines += ["", "Run 'tableref COMMAND --help' for a command's arguments."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``tableref`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(_usage())
        return 0
    name = argv[0]
    if name not in COMMANDS:
        print(f"tableref: unknown command {name!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module_name, help_ = COMMANDS[name]
    try:
        module = importlib.import_module(module_name)
        add_arguments = getattr(module, f"{name}_arguments")
        run = getattr(module, name.replace("-", "_") if name != "import" else "import_")
    except (ImportError, AttributeError) as exc:
        print(f"tableref {name}: not available in this installation ({exc})", file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog=f"tableref {name}", description=help_)
    add_arguments(parser)
    args = parser.parse_args(argv[1:])
    try:
        return int(run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
