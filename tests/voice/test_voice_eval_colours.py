"""``benchmarks/eval_colours.py``'s gated figure: talk through the gate's open
share of the hour, plus the wrong colours made at the wild itself."""

from __future__ import annotations

import math

from benchmarks.eval_colours import Neural, at_the_wild, gated, score


def _job(marks, trace, snr=10):
    return {"snr": snr, "marks": marks, "hits": {"trace": trace}, "seconds": 10.0}


def _said(t0: float, parts: list[float], n: int = 6) -> list[tuple]:
    return [(t0 + 0.05 * i, sum(parts), -30.0, parts) for i in range(n)]


def test_a_colour_away_from_the_words_counts_at_every_wild_not_only_in_talk():
    quiet = [0.0, 0.0, 0.0, 0.0]
    word = (2.0, 2.4, "red", "en")
    right = _job([word], _said(2.45, [0.9, 0.0, 0.0, 0.0]))
    lead = _job([word], _said(0.5, [0.0, 0.9, 0.0, 0.0])
                + _said(2.45, [0.9, 0.0, 0.0, 0.0]))
    talk = [_job([], _said(1.0, quiet))]
    cfg = Neural(0.7, 4)
    clean, stray = score(cfg, [right], talk), score(cfg, [lead], talk)
    assert clean["right"][10] == stray["right"][10] == 1.0
    assert at_the_wild(clean) == 0.0 and at_the_wild(stray) == 1.0
    assert stray["strays"] == {10: 1} and stray["wrong"] == {10: 0}
    # no talk colour: the gated figure is the wilds' own wrong colours
    assert math.isclose(gated(0.0, 1.0, 100.0, per_wild=at_the_wild(stray)), 100.0)


def test_the_gate_takes_a_share_of_the_talk_that_grows_with_the_words_missed():
    heard, missed = gated(36.0, 1.0, 100.0, 2.0), gated(36.0, 0.0, 100.0, 2.0)
    assert 0 < heard < missed < 36.0
    assert math.isclose(gated(36.0, 1.0, 100.0, 2.0, per_wild=0.01), heard + 1.0)
