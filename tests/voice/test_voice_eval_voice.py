"""``benchmarks/eval_voice.py`` measures the game's listener with its likely
calls: they count as calls heard and as false alarms, and the gated false
alarms are the ungated ones through the share of play a call can be
attributed."""

from __future__ import annotations

import pytest

from benchmarks.eval_voice import (GATE_SHARE, LIKELY_GATE_SHARE, gated, gated_fa,
                                   listener_config, score_neural)
from voice.kws import KwsModel
from voice.spotter import SpotterConfig


def _trace(cuts: list[float], t0: float = 1.0) -> list[tuple]:
    return [(t0 + 0.05 * i, 0.1, -30.0, None, c) for i, c in enumerate(cuts)]


def test_the_listeners_setting_has_its_likely_calls():
    model = KwsModel()
    assert listener_config(model).likely_cut_threshold == \
        SpotterConfig().likely_cut_threshold
    assert listener_config(model, likely=False).likely_cut_threshold is None


def test_likely_calls_count_as_heard_and_as_false_alarms():
    model = KwsModel()
    under = _trace([0.0, 0.84, 0.83, 0.85] + [0.0] * 26)  # a cut view under 0.9
    pos = [{"snr": 10, "kind": "chatter", "marks": [(0.6, 1.0, "en")],
            "trace": under}]
    neg = [{"what": "talk", "trace": under, "seconds": 3600.0},
           {"what": "whitenoise", "trace": _trace([0.0] * 30), "seconds": 3600.0}]
    conf = {"marks": [], "trace": []}
    game = score_neural(listener_config(model), pos, neg, conf)
    listing = score_neural(listener_config(model, likely=False), pos, neg, conf)
    assert game["det"][10] == 1.0 and listing["det"][10] == 0.0
    assert game["fa"]["talk"][1] == 1.0 and listing["fa"]["talk"][1] == 0.0


def test_the_gated_figure_is_the_ungated_one_through_the_gate():
    assert 0 < GATE_SHARE < 1
    assert gated(5.0) == pytest.approx(5.0 * GATE_SHARE)


def test_likely_false_alarms_pass_only_their_narrower_gate():
    """A likely call counts only near a play down to one card, a narrower
    share of play than the attributor's gate (both counted as if nobody had
    called: 0.253 of play for the attributor on the same logs)."""
    assert 0 < LIKELY_GATE_SHARE < 0.253
    model = KwsModel()
    under = _trace([0.0, 0.84, 0.83, 0.85] + [0.0] * 26)  # a likely call
    sure = _trace([0.0, 0.99, 0.99, 0.99] + [0.0] * 26)  # a call
    neg = [{"what": "talk", "trace": under, "seconds": 3600.0},
           {"what": "talk", "trace": sure, "seconds": 3600.0},
           {"what": "whitenoise", "trace": _trace([0.0] * 30), "seconds": 3600.0}]
    r = score_neural(listener_config(model), [], neg, {"marks": [], "trace": []})
    assert r["fa"]["talk"][0] == 2 and r["fa_likely"] == {"talk": 1, "noise": 0}
    assert gated_fa(r, "talk") == pytest.approx((GATE_SHARE + LIKELY_GATE_SHARE) / 2)
    assert gated_fa(r, "noise") == 0
