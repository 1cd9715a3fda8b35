"""The referee's subcommands ``replay``, ``rules`` and ``simulate``.

``demo`` lives in ``vision.commands``.

Both import only :mod:`referee`, which is pure Python.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from referee.game import replay as replay_log


def replay_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", help="table log (JSON lines); '-' reads standard input")
    p.add_argument("--state", metavar="FILE", help="write the final state JSON here")


def _write_replay(lines, state_path: str | None, out=None) -> int:
    out = out if out is not None else sys.stdout
    result = replay_log(lines)
    # one write per 4096 rulings: per-line writes cost a third of the replay time
    rulings = result.rulings
    for i in range(0, len(rulings), 4096):
        out.write("".join(r.to_json() + "\n" for r in rulings[i:i + 4096]))
    if state_path:
        text = json.dumps(result.state(), ensure_ascii=False, indent=2)
        Path(state_path).write_text(text + "\n", encoding="utf-8")
    return 0 if result.game is not None else 1


def replay(args: argparse.Namespace) -> int:
    """Replay a table log and write rulings as JSON lines on stdout."""
    if args.log == "-":
        return _write_replay(sys.stdin, args.state)
    path = Path(args.log)
    try:
        with path.open(encoding="utf-8", errors="replace", newline="") as fh:
            return _write_replay(fh, args.state)
    except OSError as exc:
        print(f"tableref replay: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 2


def rules_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", nargs="?",
                   help="a preset (official, tgus-1 ...) or game name")


def rules(args: argparse.Namespace) -> int:
    """List presets and options, or show one preset's options and their sources."""
    from referee.presets_doc import describe, overview

    if args.name is None:
        print(overview())
        return 0
    try:
        print(describe(args.name))
    except KeyError as exc:
        print(f"tableref rules: {exc.args[0]}", file=sys.stderr)
        return 2
    return 0


def simulate_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=1, help="random seed of the playout")
    p.add_argument("--players", type=int, default=4, help="number of players (2-10)")
    p.add_argument("--rules", default="official",
                   help="preset: official, tgus-1, tgus-2 or tgus-3")
    p.add_argument("--options", default="{}", metavar="JSON",
                   help="header options as a JSON object, e.g. '{\"stacking\": true}'")


def simulate(args: argparse.Namespace) -> int:
    """Print the table log of a seeded random UNO playout (known hands, every
    invariant checked), e.g. to try a rule or feed ``tableref replay``."""
    from referee.uno.simulate import SimulationError, Simulator
    from referee.uno.tgus_simulate import TgusSimulator

    try:
        options = json.loads(args.options)
    except ValueError as exc:
        print(f"tableref simulate: --options is not JSON: {exc}", file=sys.stderr)
        return 2
    if not isinstance(options, dict) or not 2 <= args.players <= 10:
        print("tableref simulate: --options must be a JSON object and --players "
              "2 to 10", file=sys.stderr)
        return 2
    if args.rules == "official":
        sim = Simulator(args.seed, args.players, options)
    elif args.rules in ("tgus-1", "tgus-2", "tgus-3"):
        sim = TgusSimulator(args.seed, args.players, options, rules=args.rules)
    else:
        print(f"tableref simulate: no simulator for preset {args.rules!r}",
              file=sys.stderr)
        return 2
    try:
        lines = sim.run().lines()
    except SimulationError as exc:
        print(f"tableref simulate: the playout broke an invariant: {exc}",
              file=sys.stderr)
        return 1
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
