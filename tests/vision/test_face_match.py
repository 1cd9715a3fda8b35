"""A still photo's card compared with the deck's own enrolled photos
(vision.face_match), the faces kept at enrollment (vision.enroll.KEEP_FACES,
vision.corner_index.attach) and the still read that weighs by them
(vision.multiscale.FACES)."""

from __future__ import annotations

import numpy as np
import pytest

from referee.cards import CLASSES


def _card(label: str, height: int = 300, variant: int = 0) -> np.ndarray:
    from datasets.cards import render_card

    rgba = np.asarray(render_card(label, "modern", height, variant))
    return np.ascontiguousarray(rgba[:, :, 2::-1])


def _photo(label: str, angle: float = 0.0, card_h: int = 300, blur: float = 0.0,
           size: tuple[int, int] = (480, 640)) -> tuple[np.ndarray, np.ndarray]:
    """A frame of ``label``'s card, ``card_h`` pixels high, turned by ``angle``
    degrees in the middle of a grey frame, blurred: (frame, its box xyxy)."""
    import cv2

    card = _card(label, 2 * card_h)
    ch, cw = card_h, int(round(card.shape[1] * card_h / card.shape[0]))
    card = cv2.resize(card, (cw, ch), interpolation=cv2.INTER_AREA)
    h, w = size
    rot = cv2.getRotationMatrix2D((cw / 2, ch / 2), angle, 1.0)
    rot[:, 2] += np.array([w / 2 - cw / 2, h / 2 - ch / 2])
    frame = cv2.warpAffine(card, rot, (w, h), borderValue=(90, 110, 100))
    corners = np.array([[0, 0, 1], [cw, 0, 1], [cw, ch, 1], [0, ch, 1]], float) @ rot.T
    box = np.array([*corners.min(axis=0), *corners.max(axis=0)], np.float32)
    if blur > 0:
        frame = cv2.GaussianBlur(frame, (0, 0), blur)
    return frame, box


def test_face_of_stands_a_card_upright_at_the_kept_height() -> None:
    """A card photographed lying sideways is kept standing, FACE_HEIGHT high
    and about a card's width, white-balanced (its white border near white)."""
    from vision.face_match import FACE_HEIGHT, face_of

    frame, box = _photo("blue-7")
    sideways = np.ascontiguousarray(np.rot90(frame, 1))
    x1, y1, x2, y2 = box
    h, w = frame.shape[:2]
    turned_box = np.array([y1, w - x2, y2, w - x1], np.float32)
    face = face_of(sideways, turned_box)
    assert face.shape[0] == FACE_HEIGHT
    assert 0.5 < face.shape[1] / face.shape[0] < 0.8
    assert face.dtype == np.uint8
    assert face[0:2, face.shape[1] // 2].mean() > 200


@pytest.mark.parametrize("truth, other", [("red-9", "red-0"), ("yellow-3", "yellow-5"),
                                          ("green-7", "green-1")])
def test_a_small_turned_card_matches_its_own_face_best(truth: str, other: str) -> None:
    """A card 70 pixels high turned 12 degrees and blurred: the face of its
    own print, drawn at the box's size, matches it better than the face of a
    digit of the same colour."""
    from vision.face_match import face_of, match

    frame, box = _photo(truth, angle=12.0, card_h=70, blur=1.0)
    faces = []
    for label in (truth, other):
        photo, photo_box = _photo(label, card_h=300)
        faces.append(face_of(photo, photo_box))
    got = match(frame, box, faces)
    assert got.shape == (2,)
    assert got[0] > got[1]
    assert -1.0 <= got.min() and got.max() <= 1.0


def test_weigh_lifts_the_name_whose_face_matches_and_leaves_others_in_order() -> None:
    """The classifier calls a red 9 a red 0 (0.55 against 0.4): weighed by the
    faces, red 9 wins; strength 0, one candidate with a face, or faces of
    other names only: the probabilities as they were."""
    from vision.face_match import face_of, weigh

    frame, box = _photo("red-9", angle=-8.0, card_h=80, blur=0.8)
    faces = {}
    for label in ("red-9", "red-0", "red-6"):
        photo, photo_box = _photo(label)
        faces[label] = [face_of(photo, photo_box)]
    probs = np.zeros(len(CLASSES))
    probs[CLASSES.index("red-0")] = 0.55
    probs[CLASSES.index("red-9")] = 0.4
    probs[CLASSES.index("blue-4")] = 0.05
    out = weigh(probs, CLASSES, frame, box, faces, strength=30.0)
    assert CLASSES[int(out.argmax())] == "red-9"
    assert out[CLASSES.index("blue-4")] <= probs[CLASSES.index("blue-4")]
    assert np.array_equal(weigh(probs, CLASSES, frame, box, faces, strength=0.0), probs)
    only_one = {"red-0": faces["red-0"]}
    assert np.array_equal(weigh(probs, CLASSES, frame, box, only_one, 30.0), probs)
    assert np.array_equal(weigh(probs, CLASSES, frame, box, {}, 30.0), probs)
    # a name of another colour is never a candidate (a grey level tells no
    # colours apart): the red 0 against a blue 9's face stays as named
    other = {"red-0": faces["red-0"], "blue-9": faces["red-9"]}
    swapped = probs.copy()
    swapped[CLASSES.index("blue-9")], swapped[CLASSES.index("red-9")] = 0.4, 0.0
    assert np.array_equal(weigh(swapped, CLASSES, frame, box, other, 30.0), swapped)


def test_enrolled_faces_travel_in_the_checkpoint_and_attach_sets_them() -> None:
    """Each found shot's face is kept under its label as a uint8 tensor (a
    ``weights_only`` load reads it); attach hands them to the detector as
    arrays; a shot without a box keeps none."""
    import io

    import torch

    from vision.corner_index import attach
    from vision.enroll import Shot, enrolled_faces

    frame, box = _photo("green-2")
    shots = [Shot("green-2", frame, box, "a"), Shot("green-2", frame, box, "b"),
             Shot("red-1", frame, None, "c")]
    faces = enrolled_faces(shots)
    assert list(faces) == ["green-2"] and len(faces["green-2"]) == 2
    buf = io.BytesIO()
    torch.save({"faces": faces}, buf)
    buf.seek(0)
    loaded = torch.load(buf, weights_only=True)

    class Holder:
        pass

    det = attach(Holder(), loaded)
    assert isinstance(det.faces["green-2"][0], np.ndarray)
    assert det.faces["green-2"][0].dtype == np.uint8
    assert not hasattr(attach(Holder(), {}), "faces")


def test_the_still_read_weighs_by_faces_only_when_on_and_enrolled(monkeypatch) -> None:  # noqa: ANN001
    """vision.multiscale._face_weighed: FACES 0 or a detector without faces:
    the probabilities as they were; on with faces: the face's name wins."""
    import vision.multiscale as ms
    from vision.detections import Detections
    from vision.face_match import face_of

    frame, box = _photo("yellow-3", angle=6.0, card_h=90, blur=0.8)

    class Det:
        labels = list(CLASSES)

    det = Det()
    card = Detections(box[None], [0.6], [CLASSES.index("yellow-5")], names=list(CLASSES))
    probs = np.zeros(len(CLASSES))
    probs[CLASSES.index("yellow-5")] = 0.6
    probs[CLASSES.index("yellow-3")] = 0.4
    monkeypatch.setattr(ms, "FACES", 30.0)
    assert np.array_equal(ms._face_weighed(det, frame, card, probs), probs)
    det.faces = {}
    for label in ("yellow-3", "yellow-5"):
        photo, photo_box = _photo(label)
        det.faces[label] = [face_of(photo, photo_box)]
    assert CLASSES[int(ms._face_weighed(det, frame, card, probs).argmax())] == "yellow-3"
    monkeypatch.setattr(ms, "FACES", 0.0)
    assert np.array_equal(ms._face_weighed(det, frame, card, probs), probs)
