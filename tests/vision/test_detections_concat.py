"""Detections.concat: several sets of detections as one."""

import numpy as np

from vision.detections import Detections


def _dets(boxes, ids, **data):
    return Detections(np.array(boxes, float), np.full(len(ids), 0.9), np.array(ids),
                      data={k: np.array(v) for k, v in data.items()})


def test_rows_in_order_and_only_the_data_every_part_has():
    a = _dets([[0, 0, 10, 10]], [3], seen=[1], zoom=[1.0])
    b = _dets([[5, 5, 20, 20], [1, 1, 2, 2]], [7, 9], zoom=[0.5, 0.5])
    out = Detections.concat([a, b])
    assert out.class_id.tolist() == [3, 7, 9]
    assert out.xyxy[1].tolist() == [5, 5, 20, 20]
    assert set(out.data) == {"zoom"}
    assert out.data["zoom"].tolist() == [1.0, 0.5, 0.5]


def test_no_parts_is_empty_and_names_come_from_the_first_part():
    assert len(Detections.concat([])) == 0
    names = ["a", "b"]
    a = Detections(np.zeros((1, 4)), [0.5], [1], names=names)
    b = Detections(np.zeros((1, 4)), [0.5], [0], names=names)
    assert list(Detections.concat([a, b]).names) == names
