"""Replay speed of the uno referee in events per second (goal: >= 100k events/s).

A long game is simulated once (referee/uno/simulate.py, seeded, no checks),
written as a table log, then replayed from its text lines: reading and JSON
parsing included ("replay"), once more with the rulings written as JSON lines
as ``tableref replay`` does, and once from already parsed events ("engine
only"). Best of ``--repeat`` runs. Prints numbers; asserts nothing.

Each figure is printed twice: per wall-clock second and per CPU second of this
process (``time.process_time``). On a shared, loaded machine the CPU-second
figure is the comparable one (the wall clock also counts time the scheduler
gave to other jobs); the goal is read against it.

    .venv/bin/python -m benchmarks.bench_replay [--events 200000] [--players 4]
        [--rules official|tgus-1|tgus-2|tgus-3]
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import platform
import sys
import time

from referee.game import apply_safely, new_game, replay
from referee.log import read_log
from referee.uno.simulate import simulate
from referee.uno.tgus_simulate import simulate_tgus
from tableref.game_commands import _write_replay


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=200_000, help="events in the log")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rules", default="official",
                    help="preset: official, tgus-1, tgus-2 or tgus-3")
    ap.add_argument("--options", default=None,
                    help="header options as JSON (rounds is set very high); default "
                    '{"stacking": true} under official, {} under a tgus preset')
    args = ap.parse_args(argv)

    if args.options is None:
        args.options = '{"stacking": true}' if args.rules == "official" else "{}"
    options = {**json.loads(args.options), "rounds": 10**9, "scoring": "japan"}
    t0 = time.perf_counter()
    if args.rules == "official":
        sim = simulate(
            args.seed, args.players, options, check=False, max_events=args.events)
    else:
        sim = simulate_tgus(args.seed, args.players, args.rules, options,
                            check=False, max_events=args.events)
    lines = sim.lines()
    made = time.perf_counter() - t0
    n = len(lines) - 1
    rounds = len(sim.game.s.rounds)
    print(
        f"log: {n} events, {rounds} rounds, {args.players} players, rules "
        f"{args.rules}, options {args.options} (simulated in {made:.1f} s)")

    best = best_cpu = float("inf")
    rulings = 0
    for _ in range(args.repeat):
        t, c = time.perf_counter(), time.process_time()
        result = replay(lines)
        best = min(best, time.perf_counter() - t)
        best_cpu = min(best_cpu, time.process_time() - c)
        rulings = len(result.rulings)
    print(f"replay (read + parse + referee): {n / best:,.0f} events/s wall clock "
          f"({best:.3f} s for {n} events, {rulings} rulings); "
          f"{n / best_cpu:,.0f} events per CPU second")

    best_out = best_out_cpu = float("inf")
    for _ in range(args.repeat):
        out = io.StringIO()
        t, c = time.perf_counter(), time.process_time()
        _write_replay(lines, None, out)  # what `tableref replay LOG` does
        best_out = min(best_out, time.perf_counter() - t)
        best_out_cpu = min(best_out_cpu, time.process_time() - c)
    print(f"replay + rulings written as JSON lines (tableref replay): "
          f"{n / best_out:,.0f} events/s wall clock; {n / best_out_cpu:,.0f} events "
          "per CPU second")

    log = read_log(lines)
    best_engine = best_engine_cpu = float("inf")
    gc.disable()  # as replay() does
    for _ in range(args.repeat):
        game = new_game(log.header)
        t, c = time.perf_counter(), time.process_time()
        for event in log.events:
            apply_safely(game, event)
        best_engine = min(best_engine, time.perf_counter() - t)
        best_engine_cpu = min(best_engine_cpu, time.process_time() - c)
    gc.enable()
    print(f"engine only (events already parsed): {n / best_engine:,.0f} events/s wall "
          f"clock; {n / best_engine_cpu:,.0f} events per CPU second")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{os.cpu_count()} CPUs, load average {load:.2f} when finished "
          "(other jobs slow the wall-clock figures down; compare the CPU-second ones)")
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"best of {args.repeat}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
