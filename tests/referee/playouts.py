"""Random legal playouts the referee's tests replay, as table-log lines."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator


def tgus_t_lines(rules: str, seeds: Iterable[int]) -> Iterator[list[str]]:
    """A tgus-t1/t2 playout a seed (3 to 5 players), as the lines of its log:
    the header, then every event played (a playout the simulator cannot
    finish keeps what was played)."""
    from referee.tgus_t.sim import Simulator

    for seed in seeds:
        sim = Simulator(rules, 3 + seed % 3, seed)
        try:
            playout = sim.run()
        except Exception:  # noqa: BLE001 - keep what was played
            playout = sim.out
        lines = [json.dumps(sim.game.header.to_dict(), ensure_ascii=False)]
        yield lines + [json.dumps(e, ensure_ascii=False) for e in playout.events]
