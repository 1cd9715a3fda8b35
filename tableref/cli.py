"""The ``tableref`` command line.

Each subcommand is a pair of functions ``<name>_arguments(parser)`` and
``<name>(args) -> int`` in the module named in :data:`COMMANDS`: the referee's
own in this package, the camera's, page's, voice's, data sets' and training's in
the package they drive. Only the module of the subcommand being run is imported,
so ``tableref replay`` never loads torch or OpenCV
(``tests/tableref/test_cli.py`` checks it).
"""

from __future__ import annotations

import argparse
import importlib
import sys

_GAME = "tableref.game_commands"
_STORE = "tableref.store_commands"
_VISION = "vision.commands"
_TRAINING = "training.commands"

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "replay": (_GAME, "replay a table log and print the rulings as JSON lines"),
    "rules": (_GAME, "list rule presets and options, or show one preset"),
    "simulate": (_GAME, "print the table log of a seeded random UNO playout"),
    "demo": (_VISION, "run the referee on the bundled demo table"),
    "synth": ("datasets.commands", "render synthetic table scenes for training"),
    "train": (_TRAINING, "train the card detector or crop classifier"),
    "detect": ("vision.detector_cli", "detect cards in images, one JSON line each"),
    "enroll": ("vision.enroll_cli", "teach the card reader your own deck from photos"),
    "decks": ("vision.enroll_cli", "list the enrolled decks"),
    "evaluate": (_TRAINING, "measure the detector on real and synthetic images"),
    "markers": (_VISION, "write a printable sheet of ArUco calibration markers"),
    "calibrate": (_VISION, "calibrate the table geometry from a camera frame"),
    "watch": (_VISION, "referee a live table from a camera or video (headless)"),
    "serve": ("web.commands", "serve the referee's page (live table, rulings, scores)"),
    "listen": ("voice.commands", "listen for UNO calls on a microphone or audio file"),
    "history": (_STORE, "list stored games, or show one game's rulings"),
    "export": (_STORE, "export a stored game as a table log"),
    "import": (_STORE, "import a table log into the game store"),
}


def _usage() -> str:
    width = max(len(n) for n in COMMANDS)
    lines = ["usage: tableref COMMAND [ARGS...]", "", "commands:"]
    lines += [f"  {name.ljust(width)}  {text}" for name, (_, text) in COMMANDS.items()]
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
        print(f"tableref {name}: not available in this installation ({exc})",
              file=sys.stderr)
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
