"""The tgus-t deck's stand-in faces, its rendered table and its enrollment photos."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.cards import render_card
from datasets.card_tgus_t import STAND_IN_VALUES, is_stand_in


def _rgb(label: str, design: str = "modern", variant: int = 0) -> np.ndarray:
    face = render_card(label, design, 120, variant).convert("RGB")
    return np.asarray(face, np.float32)


def test_every_card_of_the_tgus_t_deck_has_a_face() -> None:
    from referee.tgus_t.cards import deck_counts

    for label in deck_counts():
        for design in ("modern", "classic"):
            face = render_card(label, design, 100)
            assert face.mode == "RGBA" and face.height == 100


@pytest.mark.parametrize("a, b", [
    ("red-hit2", "red-reverse-hit2"),   # the deck's own coloured cards
    ("counter", "change"),              # its colourless cards
    ("replace", "gamble"),
    ("wild-hit4", "wild-hit-x"),
    ("red-hit2", "red-draw2"),          # not the standard draw two
    ("wild-hit4", "wild-draw4"),
])
def test_two_different_cards_have_clearly_different_faces(a, b) -> None:
    diff = np.abs(_rgb(a) - _rgb(b)).mean()
    assert diff > 12, f"{a} and {b} differ by {diff:.1f} on average"


def test_a_coloured_card_has_its_colour_in_the_field() -> None:
    red, blue = _rgb("red-hit2"), _rgb("blue-hit2")
    field = (slice(18, 24), slice(8, 12))  # beside the diamond's top
    assert red[field][..., 0].mean() > red[field][..., 2].mean() + 100
    assert blue[field][..., 2].mean() > blue[field][..., 0].mean() + 100


def test_standard_cards_keep_the_standard_look() -> None:
    assert not is_stand_in("red-7") and not is_stand_in("wild")
    assert not is_stand_in("red-draw2") and not is_stand_in("no such card")
    assert all(is_stand_in(v if v.startswith("wild") or v in (
        "counter", "change", "replace", "gamble") else f"green-{v}")
        for v in STAND_IN_VALUES)
    with pytest.raises(ValueError):
        render_card("purple-hit2")


def test_the_table_log_and_the_spoken_lines_follow_the_playout() -> None:
    from datasets.tgus_t_table import build_timeline, playout

    events = playout(6)
    tl, truth, said = build_timeline(events, 6)
    assert [{k: v for k, v in e.items() if k != "t"} for e in truth] == events
    times = [e["t"] for e in truth[1:]]
    assert times == sorted(times) and tl.duration > times[-1]
    # every colour, target and effect said is that of a play or a turned card
    spoken = [s["say"] for s in said if "say" in s]
    wanted = [{k: e[k] for k in ("color", "target", "effect") if k in e}
              for e in events[1:] if e["type"] in ("play", "turned")]
    assert spoken == [w for w in wanted if w]
    heard = [s["event"] for s in said if "event" in s]
    assert heard == [e for e in events[1:] if e["type"] in (
        "color", "call", "catch", "pass", "picture-leftover")]


def test_enrollment_photos_are_seeded_and_show_the_card(tmp_path) -> None:
    from datasets.tgus_t_table import enrollment_photo, enrollment_photos

    a = enrollment_photo("counter", np.random.default_rng(3))
    b = enrollment_photo("counter", np.random.default_rng(3))
    c = enrollment_photo("counter", np.random.default_rng(4))
    assert a.shape == (480, 640, 3) and np.array_equal(a, b)
    assert not np.array_equal(a, c)
    # the counter's purple field is in the middle of the photo
    middle = a[200:280, 280:360].reshape(-1, 3).astype(int)
    purple = (middle[:, 0] > middle[:, 1] + 30) & (middle[:, 2] > middle[:, 1] + 10)
    assert purple.any()
    assert enrollment_photos(tmp_path, ["red-hit2", "gamble"], per_label=2, far=1) == 6
    names = sorted(p.name for p in (tmp_path / "gamble").iterdir())
    assert names == ["0.jpg", "1.jpg", "2.jpg"]
    # the photo from a seat shows the card smaller than a close-up
    import cv2

    def card_share(path) -> float:  # the gold field's share of the photo
        hsv = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2HSV)
        gold = (hsv[..., 0] > 15) & (hsv[..., 0] < 30) & (hsv[..., 1] > 120)
        return float(gold.mean())

    assert card_share(tmp_path / "gamble" / "2.jpg") < min(
        card_share(tmp_path / "gamble" / n) for n in ("0.jpg", "1.jpg")) / 2


def test_table_photos_show_the_card_at_the_table_cameras_scale(tmp_path) -> None:
    import cv2

    from datasets.tgus_t_table import enrollment_photos, table_photo

    a = table_photo("gamble", np.random.default_rng(5))
    b = table_photo("gamble", np.random.default_rng(5))
    assert np.array_equal(a, b)
    # cut out of the 640x480 frame around the card, which is seen as small as
    # the table's camera sees it (a gold field, in the middle of the photo)
    assert a.shape[0] < 480 and a.shape[1] < 640
    hsv = cv2.cvtColor(a, cv2.COLOR_BGR2HSV)
    gold = (hsv[..., 0] > 15) & (hsv[..., 0] < 30) & (hsv[..., 1] > 120)
    h, w = gold.shape
    assert gold[h // 3: 2 * h // 3, w // 3: 2 * w // 3].any()
    assert 0.005 < gold.mean() < 0.3
    assert enrollment_photos(tmp_path, ["counter"], per_label=1, far=0, table=2) == 3
    photos = [cv2.imread(str(tmp_path / "counter" / f"{k}.jpg")) for k in range(3)]
    assert photos[0].shape == (480, 640, 3) and photos[1].shape[0] < 480
    assert photos[1].shape != photos[2].shape or not np.array_equal(*photos[1:])


def test_a_table_photo_may_show_the_card_last_of_a_multi_play(monkeypatch) -> None:
    # fan_share of the photos: the same value in other colours fanned under it
    import datasets.tgus_t_table as tt
    from vision.demo.render import Renderer

    shown: list = []
    real = Renderer.frame

    def frame(self, tl, t):
        shown.append([c[2].label for c in tl.changes if c[1] == "pile"])
        return real(self, tl, t)

    monkeypatch.setattr(Renderer, "frame", frame)
    for k in range(3):
        tt.table_photo("yellow-5", np.random.default_rng(k), fan_share=1.0)
    tt.table_photo("yellow-5", np.random.default_rng(0), fan_share=0.0)
    for labels in shown[:3]:
        assert labels[-1] == "yellow-5"
        assert any(x.endswith("-5") for x in labels[:-1])
    assert not any(x.endswith("-5") for x in shown[3][:-1])


def test_a_table_photo_may_lie_on_a_pile_spread_by_an_earlier_multi_play(
        monkeypatch) -> None:
    import math

    import datasets.tgus_t_table as tt
    from vision.demo.render import Renderer

    spreads: list = []
    real = Renderer.frame

    def frame(self, tl, t):
        xy = [c[2].xy for c in tl.changes if c[1] == "pile"]
        spreads.append(max(math.dist(a, b) for a in xy for b in xy) if len(xy) > 1
                       else 0.0)
        return real(self, tl, t)

    monkeypatch.setattr(Renderer, "frame", frame)
    for share in (1.0, 0.0):
        for k in range(3):
            tt.table_photo("red-1", np.random.default_rng(k), fan_share=0.0,
                           old_fan_share=share)
    assert min(spreads[:3]) >= tt.FAN_MM  # cards fanned out under it
    assert max(spreads[3:]) < tt.FAN_MM + 30  # a pile lying as played
