"""kill -9 the real ``tableref serve`` N times during a fast event stream.

Each cycle: start the server on the same database, check that every event the
client got a 2xx for is stored in order and that the state and rulings the
restarted server reports equal a clean ``referee.game.replay`` of its exported
log, then POST a legal UNO game (the project's simulator) as fast as the server
answers and ``kill -9`` it after a random delay (``--max-delay``). A game that
runs out of events is followed by a new one in the same database.

Prints kills, events acknowledged, events lost (must be 0) and the resume time
(ms from process start to the first good ``/api/state`` answer). Exit status 1
if anything was lost or a restart did not match a clean replay.

    .venv/bin/python -m benchmarks.fault_kill9 [--kills 50] [--seed 1] [--undo-every 4]

The server harness is the fault tests' (``tests/faults/faults_server.py``).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tests.faults.faults_server import KillReport, event_stream, kill_cycles
from tests.faults.faults_sse import percentile


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-delay", type=float, default=0.5,
                    help="longest random time (s) between a restart and its kill")
    ap.add_argument("--per-game", type=int, default=10, help="kills per stored game")
    ap.add_argument("--undo-every", type=int, default=0,
                    help="also undo every Nth event and post it again (0: never)")
    ap.add_argument("--db", help="database to use (default: a temporary folder)")
    args = ap.parse_args(argv)

    report = KillReport()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="tableref-kill9-") as tmp:
        db = Path(args.db or Path(tmp) / "kill9.sqlite3")
        game = 0
        while report.kills < args.kills:
            seed = args.seed * 1000 + game
            header, events = event_stream(seed, 4000)
            before = report.kills
            kills = min(args.per_game, args.kills - report.kills)
            kill_cycles(db, header, events, kills, seed, args.max_delay, report,
                        undo_every=args.undo_every)
            game += 1
            print(f"game {game}: {report.kills - before} kills, {report.stored} events "
                  f"stored, {report.lost} lost so far", flush=True)
    elapsed = time.monotonic() - started
    resume = report.resume_ms
    print(f"python {platform.python_version()}, {platform.machine()}, "
          f"{elapsed:.1f} s in all")
    print(f"kills: {report.kills}")
    print(f"requests acknowledged (events{' and undos' if args.undo_every else ''}): "
          f"{report.acked}")
    print(f"events lost: {report.lost}")
    print(f"restarts checked against a clean replay: {len(resume)}")
    print(f"resume time ms: median {statistics.median(resume):.0f}, "
          f"p95 {percentile(resume, 95):.0f}, max {max(resume):.0f} "
          f"(process start -> first good state)")
    for problem in report.problems:
        print(f"PROBLEM: {problem}")
    return 1 if report.lost or report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
