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


# -- the whole refereed log against the truth ----------------------------------------
#: every event type a table log holds, scored by :func:`score_log`
LOG_TYPES = ("start", "play", "draw", "pass", "color", "uno", "catch", "reveal")
#: how late (and early) a refereed event may be against the truth's, in seconds:
#: an inferred pass or colour is written at the next seat's action
LOG_WINDOW = {"pass": (-1.0, 8.0), "color": (-1.0, 30.0)}


def _log_items(events: Iterable[dict[str, Any]]) -> list[tuple[str, tuple, float]]:
    """(type, key, t) per event; a play's colour is also a ``color`` item."""
    out = []
    for e in events:
        kind, t = e.get("type"), float(e.get("t", 0))
        if kind == "start":
            out.append(("start", (e.get("card"),), t))
        elif kind == "play":
            cards = tuple(e.get("cards") or [e.get("card")])
            out.append(("play", (e.get("player"), cards), t))
            if e.get("color"):
                out.append(("color", (e["color"],), t))
        elif kind == "draw":
            out.append(("draw", (e.get("player"), int(e.get("count", 1))), t))
        elif kind in ("pass", "uno"):
            out.append((kind, (e.get("player"),), t))
        elif kind == "color":
            out.append(("color", (e.get("color"),), t))
        elif kind == "catch":
            out.append(("catch", (e.get("player"), e.get("target")), t))
        elif kind == "reveal":
            out.append(("reveal", (e.get("player"), tuple(sorted(e["cards"]))), t))
    return out


def score_log(
    truth: Iterable[dict[str, Any]], log: Iterable[dict[str, Any]]
) -> dict[str, Score]:
    """Every event type of a refereed table log against the truth's.

    An event matches the first unmatched truth event of its type with the same
    content (the player too: who played, drew, passed, called) within the
    type's time window. A play whose player the log leaves out (taken as the
    turn's) counts under the player the referee took only if that is the
    truth's, so a log where every play is booked one seat off scores 0.
    """
    gt, seen = _log_items(truth), _log_items(log)
    scores = {k: Score(k) for k in LOG_TYPES}
    used: set[int] = set()
    for kind, _, _ in gt:
        scores[kind].truth += 1
    for kind, key, t in seen:
        s = scores[kind]
        s.detected += 1
        lo, hi = LOG_WINDOW.get(kind, (-1.0, 5.0))
        hit = next(
            (
                i
                for i, (k, g, gt_t) in enumerate(gt)
                if i not in used and k == kind and g == key and lo <= t - gt_t <= hi
            ),
            None,
        )
        if hit is None:
            s.extra.append({"type": kind, "key": key, "t": t})
            continue
        used.add(hit)
        s.matched += 1
        s.latencies.append(t - gt[hit][2])
    for i, (kind, key, t) in enumerate(gt):
        if i not in used:
            scores[kind].missed.append({"type": kind, "key": key, "t": t})
    return scores


def with_players(
    header: dict[str, Any], log: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The log replayed: events that leave ``player`` out (play, draw, pass)
    get the player whose turn it was, as the referee takes it; and the final
    scores."""
    from referee.session import Referee

    referee = Referee(header)
    out = []
    for e in log:
        if "player" not in e and e.get("type") in ("play", "draw", "pass"):
            e = {**e, "player": referee.state().get("turn")}
        referee.append(e)
        out.append(e)
    return out, referee.state().get("scores", {})


def handsfree_lines(
    truth: list[dict[str, Any]],
    header: dict[str, Any],
    log: list[dict[str, Any]],
    expected: dict[str, Any],
) -> list[str]:
    """Per event type: truth, refereed, matched, precision, recall; then the
    final scores against ``expected``, and where the log's events came from."""
    log, final = with_players(header, log)
    scores = score_log(truth, log)
    lines = []
    for kind in LOG_TYPES:
        s = scores[kind]
        if not s.truth and not s.detected:
            continue
        lines.append(
            f"{kind:<7} truth {s.truth:>3}  refereed {s.detected:>3}  right "
            f"{s.matched:>3}  precision {s.precision:.3f}  recall {s.recall:.3f}"
        )
        for e in s.missed[:6]:
            lines.append(f"    missed: {e['key']} at {e['t']:.2f} s")
        for e in s.extra[:6]:
            lines.append(f"    wrong:  {e['key']} at {e['t']:.2f} s")
    same = "equal to" if final == expected else "DIFFERENT from"
    lines.append(f"final scores {final} {same} the truth's {expected}")
    sources: dict[str, int] = {}
    for e in log:
        what = str(e.get("source", "?")) + (" inferred" if e.get("inferred") else "")
        sources[what] = sources.get(what, 0) + 1
    lines.append(
        "events by source: "
        + ", ".join(f"{k} {v}" for k, v in sorted(sources.items()))
        + " (none from the ground truth)"
    )
    return lines
