"""Compare the events the pipeline saw with a ground-truth table log.

Events are matched in time order: a detected event matches the first
unmatched ground-truth event of the same kind and content (the same cards for
``start``/``play``, the same count for ``draw``, the same player and cards for
``reveal``) whose time lies within a window around it. Precision is matched /
detected, recall is matched / ground truth, latency is detected ``t`` minus
the ground truth's ``t`` (the moment the card landed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

VISIBLE = ("start", "play", "draw", "reveal")
WINDOW = {
    "start": (-0.3, 2.0),
    "play": (-0.3, 2.0),
    "draw": (-1.0, 4.0),
    "reveal": (-0.5, 4.0),
}


def _key(event: dict[str, Any]) -> tuple:
    kind = event["type"]
    if kind == "start":
        return ("play", (event.get("card"),))
    if kind == "play":
        cards = event.get("cards") or [event.get("card")]
        return ("play", tuple(cards))
    if kind == "draw":
        return ("draw", event.get("count", 1))
    if kind == "reveal":
        return ("reveal", event.get("player"), tuple(sorted(event.get("cards", []))))
    return (kind,)


@dataclass
class Score:
    """Matching result for one kind of event."""

    kind: str
    truth: int = 0
    detected: int = 0
    matched: int = 0
    latencies: list[float] = field(default_factory=list)
    missed: list[dict[str, Any]] = field(default_factory=list)
    extra: list[dict[str, Any]] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.matched / self.detected if self.detected else 1.0

    @property
    def recall(self) -> float:
        return self.matched / self.truth if self.truth else 1.0


def compare(
    truth: Iterable[dict[str, Any]], seen: Iterable[dict[str, Any]]
) -> dict[str, Score]:
    """Scores per kind (``play`` covers ``start`` too, ``draw``, ``reveal``)."""
    gt = [e for e in truth if e.get("type") in VISIBLE]
    det = [e for e in seen if e.get("type") in VISIBLE]
    scores: dict[str, Score] = {}
    used: set[int] = set()
    for e in gt:
        scores.setdefault(_key(e)[0], Score(_key(e)[0])).truth += 1
    for d in det:
        key = _key(d)
        score = scores.setdefault(key[0], Score(key[0]))
        score.detected += 1
        lo, hi = WINDOW[d["type"]]
        match = None
        for i, e in enumerate(gt):
            if i in used or _key(e) != key:
                continue
            if lo <= float(d.get("t", 0)) - float(e.get("t", 0)) <= hi:
                match = i
                break
        if match is None:
            score.extra.append(d)
            continue
        used.add(match)
        score.matched += 1
        score.latencies.append(float(d.get("t", 0)) - float(gt[match].get("t", 0)))
    for i, e in enumerate(gt):
        if i not in used:
            scores[_key(e)[0]].missed.append(e)
    return scores


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank) of ``values``; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, int(round(q / 100 * len(ordered) + 0.5)) - 1))
    return ordered[rank]


def summary_lines(scores: dict[str, Score]) -> list[str]:
    """Human-readable lines: per kind, precision, recall and latency."""
    lines = []
    for kind in ("play", "draw", "reveal"):
        s = scores.get(kind)
        if s is None:
            continue
        line = (
            f"{kind:<7} ground truth {s.truth:>3}  seen {s.detected:>3}  matched "
            f"{s.matched:>3}  precision {s.precision:.3f}  recall {s.recall:.3f}"
        )
        if kind == "play" and s.latencies:
            line += (
                f"  latency median {percentile(s.latencies, 50) * 1000:.0f} ms, "
                f"p95 {percentile(s.latencies, 95) * 1000:.0f} ms"
            )
        lines.append(line)
        for e in s.missed:
            lines.append(f"    missed: {brief(e)}")
        for e in s.extra:
            lines.append(f"    extra:  {brief(e)}")
    return lines


def brief(e: dict[str, Any]) -> str:
    what = e.get("cards") or e.get("card") or e.get("count", "")
    return f"{e['type']} {what} at {float(e.get('t', 0)):.2f} s"
