"""The game store's subcommands: ``history``, ``export``, ``import``."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from referee.game import replay
from referee.store import GameStore, StoreError, default_db_path


def _db_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=None,
                   help=f"game store (default: $TABLEREF_DB or {default_db_path()})")


def _open(args: argparse.Namespace) -> GameStore:
    return GameStore(args.db or default_db_path())


def history_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", type=int,
                   help="a game id: step through its rulings")
    _db_argument(p)


def history(args: argparse.Namespace) -> int:
    """List stored games, or print one game's events with the rulings each produced."""
    store = _open(args)
    try:
        if args.game is None:
            games = store.games()
            if not games:
                print("no games stored yet")
            for g in games:
                when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.created))
                status = "finished" if g.finished else "open"
                if g.damaged:
                    print(f"#{g.id:<4} {when}  damaged: its header cannot be read back "
                          f"({g.damaged}; the store keeps it)  {g.events} events  {status}")
                    continue
                scores = (g.summary or {}).get("scores")
                extra = f"  scores {scores}" if scores else ""
                print(f"#{g.id:<4} {when}  {g.game}/{g.rules}  {', '.join(g.players)}"
                      f"  {g.events} events  {status}{extra}")
            return 0
        lines = store.export(args.game)
    except StoreError as exc:
        print(f"tableref history: {exc}", file=sys.stderr)
        return 2
    result = replay(lines)
    by_event: dict[int, list] = {}
    for r in result.rulings:
        by_event.setdefault(r.event, []).append(r)
    for number, line in enumerate(lines):
        print(f"{number:>4}  {line}")
        for r in by_event.get(number, []):
            print(f"      -> {r.ruling}: {r.rule}: {r.text}")
    return 0


def export_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", type=int, help="game id (see 'tableref history')")
    p.add_argument("-o", "--out", help="write here instead of standard output")
    _db_argument(p)


def export(args: argparse.Namespace) -> int:
    """Write a stored game as a table log."""
    try:
        lines = _open(args).export(args.game)
    except StoreError as exc:
        print(f"tableref export: {exc}", file=sys.stderr)
        return 2
    text = "\n".join(lines) + "\n"
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def import_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", help="table log to import ('-' for standard input)")
    _db_argument(p)


def import_(args: argparse.Namespace) -> int:
    """Store a table log as a new game (malformed lines are reported and skipped)."""
    try:
        if args.log == "-":
            lines = sys.stdin.read().splitlines()
        else:
            text = Path(args.log).read_text(encoding="utf-8", errors="replace")
            lines = text.splitlines()
        gid, skipped = _open(args).import_log(lines)
    except (OSError, StoreError) as exc:
        print(f"tableref import: {exc}", file=sys.stderr)
        return 2
    for msg in skipped:
        print(f"tableref import: skipped {msg}", file=sys.stderr)
    print(f"imported as game #{gid}")
    return 0
