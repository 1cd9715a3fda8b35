"""16 concurrent viewers on the SSE rulings stream of a real ``tableref serve``.

Starts the server on a temporary database with a stored UNO game, opens
``--viewers`` streams (plain sockets, one thread each), POSTs a legal game's
events at ``--rate`` events/s, and reports the event-to-viewer latency (from
the moment the POST is sent to the moment a viewer has parsed the first
message about that event) as p50/p95/max ms over every viewer and event, and
whether every viewer received every ruling, in order. Exit status 1 if not.

    .venv/bin/python -m benchmarks.load_sse [--viewers 16] [--events 200] [--rate 20]

The server harness and viewers are the fault tests' (``tests/faults/``).
"""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
from pathlib import Path

from tests.faults.faults_server import Server, create_game, event_stream
from tests.faults.faults_sse import load, percentile


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--viewers", type=int, default=16)
    ap.add_argument("--events", type=int, default=200)
    ap.add_argument("--rate", type=float, default=20.0,
                    help="events per second (0: flat out)")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)

    header, events = event_stream(args.seed, args.events)
    with tempfile.TemporaryDirectory(prefix="tableref-sse-") as tmp:
        db = Path(tmp) / "sse.sqlite3"
        gid = create_game(db, header)
        server = Server(db).start()
        try:
            server.wait_state(lambda s: s.get("game") == gid)
            timeout = 60 + (len(events) / args.rate if args.rate else 0)
            result = load(server, events, args.viewers, args.rate or None, timeout)
        finally:
            server.stop()
    lat = result["latencies_ms"]
    print(f"python {platform.python_version()}, {platform.machine()}")
    print(f"viewers: {result['viewers']}, events: {result['events']} at "
          f"{args.rate or 'max'} /s, messages per viewer: {result['messages']}")
    print(f"posting took {result['post_seconds']:.2f} s "
          f"({result['events'] / result['post_seconds']:.0f} events/s acknowledged)")
    print(f"event-to-viewer latency ms: p50 {percentile(lat, 50):.1f}, "
          f"p95 {percentile(lat, 95):.1f}, max {max(lat):.1f} ({len(lat)} samples)")
    print(f"every viewer got every ruling in order: {result['complete']}")
    for problem in result["problems"]:
        print(f"PROBLEM: {problem}")
    return 0 if result["complete"] else 1


if __name__ == "__main__":
    sys.exit(main())
