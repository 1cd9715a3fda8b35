"""The readings of the log a camera table makes (vision.recoveries), kept by
LiveTable and by the page's camera path alike (tests/web/test_camera_recover.py
compares the two)."""

from __future__ import annotations

from tests.vision import test_handsfree_went_on as case
from tests.vision.live_events import live_table, uno_header
from vision.recoveries import Recoveries


def test_live_table_reads_through_the_shared_component():
    live = live_table(case.HEADER, *case.BEFORE, *case.AFTER[:4])
    assert isinstance(live.recoveries, Recoveries)
    assert live.went_on is live.recoveries.lines and len(live.went_on) == 1


def test_forgotten_a_round_end_is_not_read_again():
    live = live_table(case.HEADER, *case.BEFORE, *case.AFTER[:3])
    assert live.round_end is not None
    live.recoveries.forget()
    live.append(case.AFTER[3])
    assert live.went_on == [] and live.state()["phase"] == "scoring"


def test_a_tgus_t_table_keeps_its_own_re_reads():
    header = {**uno_header(4), "rules": "tgus-t1"}
    live = live_table(header)
    assert live.rereads is not None and not live.recoveries.on
    live.close()
