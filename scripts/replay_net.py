"""The replay safety net: table logs replayed before and after a change.

A refactoring of the referee must not change a single ruling except the fixes it
sets out to make. This tool keeps a corpus of table logs and compares the rulings
that two versions of the code give for them.

    # 1. gather logs (once, on the code before the change)
    .venv/bin/python scripts/replay_net.py capture CORPUS     # every game the tests play
    .venv/bin/python scripts/replay_net.py simulate CORPUS    # seeded simulator playouts
    # 2. replay the corpus with a version of the code
    .venv/bin/python scripts/replay_net.py snapshot CORPUS before.jsonl
    ... change the code ...
    .venv/bin/python scripts/replay_net.py snapshot CORPUS after.jsonl
    # 3. compare
    .venv/bin/python scripts/replay_net.py compare before.jsonl after.jsonl

``capture`` runs the referee, web and vision interpreter tests with a pytest
plugin that records every game they build (its header and each event it is
given) and writes each as a table log. ``simulate`` writes playouts of the
official rules with local-rule options, the TGUS presets and the tgus-t deck.
``snapshot`` replays every log with :func:`referee.game.replay` (as ``tableref
replay`` does) and writes one line per log: its name and every ruling as JSON.
``compare`` prints the logs whose rulings differ, with the first difference, and
exits 1 when any do.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


# -- capture: a pytest plugin --------------------------------------------------------
class _Recorder:
    """Wraps every game class's ``apply`` to record the events a game is given."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.games: list[tuple[Any, list[dict[str, Any]]]] = []
        self.count = 0

    def install(self) -> None:
        from referee import game as game_module

        game_module.games()  # register the built-in games
        base = game_module.Game
        original_init = base.__init__
        recorder = self

        def init(self, header, *args, **kwargs):  # noqa: ANN001
            original_init(self, header, *args, **kwargs)
            if "_net_events" not in self.__dict__:
                self.__dict__["_net_events"] = []
                self.__dict__["_net_depth"] = 0
                recorder.games.append((header, self.__dict__["_net_events"]))
                if len(recorder.games) >= 200:
                    recorder.flush()

        base.__init__ = init
        seen: set[type] = set()
        todo = [base]
        while todo:
            cls = todo.pop()
            if cls in seen:
                continue
            seen.add(cls)
            todo += cls.__subclasses__()
            if "apply" in cls.__dict__:
                cls.apply = self._wrap(cls.__dict__["apply"])

    @staticmethod
    def _wrap(apply):  # noqa: ANN001, ANN205
        def wrapped(self, event):  # noqa: ANN001
            d = self.__dict__
            depth = d.get("_net_depth", 0)
            if depth == 0 and "_net_events" in d:
                d["_net_events"].append(dict(event.data))
            d["_net_depth"] = depth + 1
            try:
                return apply(self, event)
            finally:
                d["_net_depth"] = depth

        return wrapped

    def flush(self) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        for header, events in self.games:
            if not events:
                continue
            try:
                lines = [json.dumps(header.to_dict(), ensure_ascii=False)]
                lines += [json.dumps(e, ensure_ascii=False) for e in events]
            except (TypeError, ValueError, AttributeError):
                continue
            self.count += 1
            name = self.out / f"test-{os.getpid()}-{self.count:06d}.jsonl"
            name.write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.games.clear()


_RECORDER: _Recorder | None = None


def pytest_configure(config) -> None:  # noqa: ANN001
    global _RECORDER
    out = os.environ.get("REPLAY_NET_OUT")
    if out:
        _RECORDER = _Recorder(Path(out))
        _RECORDER.install()


def pytest_unconfigure(config) -> None:  # noqa: ANN001
    if _RECORDER is not None:
        _RECORDER.flush()


def capture(corpus: Path, tests: list[str]) -> int:
    env = dict(os.environ, REPLAY_NET_OUT=str(corpus / "tests"),
               PYTHONPATH=f"{ROOT / 'scripts'}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
           "-p", "replay_net", *tests]
    return subprocess.call(cmd, cwd=ROOT, env=env)


# -- simulate ----------------------------------------------------------------------
UNO_OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"stacking": True},
    {"jump_in": True},
    {"multi_play": "same", "multi_out": "allowed"},
    {"multi_play": "pairs", "out_on_action": False},
    {"scoring": "international", "doubling": True},
    {"catch_window": "next-acts", "referee_catches": True, "uno_penalty": 4},
    {"wd4_guilty_takeback": False, "first_action_returned": True},
    {"stacking": True, "challenge": False, "deck": 112},
]


def simulate(corpus: Path, count: int) -> int:
    """Seeded playouts, written as table logs (the simulators check their own
    invariants; a playout that fails its checks is written all the same)."""
    out = corpus / "sim"
    out.mkdir(parents=True, exist_ok=True)
    written = 0

    def save(name: str, lines: list[str]) -> None:
        nonlocal written
        (out / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        written += 1

    from referee.uno.simulate import Simulator
    from referee.uno.tgus_simulate import TgusSimulator

    for k, options in enumerate(UNO_OPTION_SETS):
        for seed in range(count):
            sim = Simulator(seed, 2 + seed % 4, options, check=False).run()
            save(f"uno-{k}-{seed}", sim.lines())
    for rules in ("tgus-1", "tgus-2", "tgus-3"):
        for seed in range(count):
            sim = TgusSimulator(seed, 3 + seed % 3, None, rules=rules, check=False).run()
            save(f"{rules}-{seed}", sim.lines())
    from referee.tgus_t.sim import Simulator as TSimulator

    for rules in ("tgus-t1", "tgus-t2"):
        for seed in range(count):
            sim = TSimulator(rules, 3 + seed % 3, seed)
            try:
                playout = sim.run()
            except Exception:  # noqa: BLE001 - keep what was played
                playout = sim.out
            header = sim.game.header.to_dict()
            save(f"{rules}-{seed}", [json.dumps(header, ensure_ascii=False)]
                 + [json.dumps(e, ensure_ascii=False) for e in playout.events])
    print(f"{written} simulator logs in {out}")
    return 0


# -- snapshot and compare ------------------------------------------------------------
def snapshot(corpus: Path, dest: Path) -> int:
    from referee.game import replay

    logs = sorted(corpus.rglob("*.jsonl"))
    with dest.open("w", encoding="utf-8") as fh:
        for path in logs:
            with path.open(encoding="utf-8") as src:
                result = replay(src)
            rulings = [r.to_dict() for r in result.rulings]
            fh.write(json.dumps({"log": str(path.relative_to(corpus)),
                                 "rulings": rulings}, ensure_ascii=False) + "\n")
    print(f"{len(logs)} logs replayed into {dest}")
    return 0


def compare(before: Path, after: Path, show: int, renames: Path | None = None) -> int:
    """Logs whose rulings differ. ``renames`` (JSON: old rule -> new rule, either
    whole names such as ``"official.over"`` or the part after the preset such as
    ``"over"``) maps the before snapshot's rule names onto the new vocabulary."""
    names = json.loads(renames.read_text(encoding="utf-8")) if renames else {}

    def rename(r: dict) -> dict:
        rule = r.get("rule", "")
        prefix, _, short = rule.partition(".")
        new = names.get(rule) or (names.get(short) and f"{prefix}.{names[short]}")
        return {**r, "rule": new} if new else r

    def plain(r: dict) -> dict:
        # ``msg`` is the structured form of ``text``: the English text is compared
        r = {k: v for k, v in r.items() if k != "msg"}
        if isinstance(r.get("refused"), dict):
            r["refused"] = {k: v for k, v in r["refused"].items() if k != "msg"}
        return r

    def load(p: Path, mapped: bool) -> dict[str, list]:
        with p.open(encoding="utf-8") as fh:
            return {d["log"]: [plain(rename(r)) if mapped and names else plain(r)
                               for r in d["rulings"]] for d in map(json.loads, fh)}

    a, b = load(before, True), load(after, False)
    differ = []
    for name in sorted(set(a) | set(b)):
        if a.get(name) != b.get(name):
            differ.append(name)
    for name in differ[:show]:
        ra, rb = a.get(name) or [], b.get(name) or []
        i = next((k for k in range(max(len(ra), len(rb)))
                  if k >= len(ra) or k >= len(rb) or ra[k] != rb[k]), 0)
        print(f"{name}: ruling {i}")
        print(f"  before: {json.dumps(ra[i] if i < len(ra) else None, ensure_ascii=False)}")
        print(f"  after:  {json.dumps(rb[i] if i < len(rb) else None, ensure_ascii=False)}")
    print(f"{len(differ)} of {len(set(a) | set(b))} logs differ")
    return 1 if differ else 0


def languages(corpus: Path, game: str | None, show: int) -> int:
    """Rulings not yet said in every language: a text that is not a
    :class:`referee.text.Text`, or whose Japanese still holds English words
    (runs of 4+ Latin letters other than the players' names and what is
    quoted as written in 「」).
    Counted by rule; ``game`` keeps the rules that start with it."""
    import re
    from collections import Counter

    from referee.game import replay
    from referee.text import Text

    word = re.compile(r"[A-Za-z][A-Za-z'-]{3,}")
    plain: Counter[str] = Counter()
    english: Counter[str] = Counter()
    examples: dict[str, str] = {}
    total = 0
    for path in sorted(corpus.rglob("*.jsonl")):
        with path.open(encoding="utf-8") as src:
            result = replay(src)
        names = set()
        for p in getattr(result.log.header, "players", None) or []:
            names.update(str(p).replace("-", " ").split())
        for r in result.rulings:
            if game and not r.rule.startswith(game):
                continue
            total += 1
            if not isinstance(r.text, Text):
                plain[r.rule] += 1
                examples.setdefault(r.rule, r.text)
                continue
            ja = re.sub(r"「[^」]*」", "", r.text.render("ja"))  # quoted as written
            left = [w for w in word.findall(ja) if w not in names]
            if left:
                english[r.rule] += 1
                examples.setdefault(r.rule, ja)
    for title, counter in (("plain str (no message)", plain),
                           ("Japanese with English words", english)):
        print(f"{title}: {sum(counter.values())} rulings")
        for rule, n in counter.most_common(show):
            print(f"  {n:6d}  {rule}: {examples[rule][:150]}")
    print(f"{total} rulings checked")
    return 1 if plain or english else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("capture", help="record every game the tests play")
    c.add_argument("corpus", type=Path)
    c.add_argument("tests", nargs="*",
                   default=["tests/referee", "tests/web", "tests/vision/test_interpreters_games.py",
                            "tests/vision/test_plays_uno.py"])
    s = sub.add_parser("simulate", help="write seeded simulator playouts")
    s.add_argument("corpus", type=Path)
    s.add_argument("--count", type=int, default=60)
    n = sub.add_parser("snapshot", help="replay a corpus, one line of rulings per log")
    n.add_argument("corpus", type=Path)
    n.add_argument("dest", type=Path)
    m = sub.add_parser("compare", help="compare two snapshots")
    m.add_argument("before", type=Path)
    m.add_argument("after", type=Path)
    m.add_argument("--show", type=int, default=20)
    m.add_argument("--renames", type=Path, default=None,
                   help="JSON map of renamed rules (old -> new) applied to BEFORE")
    g = sub.add_parser("languages", help="rulings not yet said in every language")
    g.add_argument("corpus", type=Path)
    g.add_argument("--game", default=None, help="only rules starting with this")
    g.add_argument("--show", type=int, default=40)
    args = ap.parse_args(argv)
    if args.cmd == "capture":
        return capture(args.corpus, args.tests)
    if args.cmd == "simulate":
        return simulate(args.corpus, args.count)
    if args.cmd == "languages":
        return languages(args.corpus, args.game, args.show)
    if args.cmd == "snapshot":
        return snapshot(args.corpus, args.dest)
    return compare(args.before, args.after, args.show, args.renames)


if __name__ == "__main__":
    sys.exit(main())
