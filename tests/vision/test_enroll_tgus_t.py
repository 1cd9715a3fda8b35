"""A deck with cards the shipped classifier has no class for (the tgus-t deck's
Counter, Hit+2, Change) is enrolled through the same path and read back."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

# Stand-in prints: a classic wild's frame with a coloured panel and a word.
STAND_INS = {"counter": ("CT", (40, 40, 40)), "red-hit2": ("H+2", (30, 30, 220)),
             "change": ("CH", (200, 60, 160))}


def _stand_in(text: str, colour: tuple, seed: int) -> np.ndarray:
    from datasets.cards import render_card

    rng = np.random.default_rng(seed)
    frame = np.empty((480, 640, 3), np.uint8)
    frame[:] = rng.integers(60, 200, 3)
    frame = cv2.add(frame, rng.integers(0, 30, frame.shape).astype(np.uint8))
    height = int(480 * rng.uniform(0.6, 0.8))
    rgba = np.asarray(render_card("wild", "classic", height=height))
    h, w = rgba.shape[:2]
    face = np.ascontiguousarray(rgba[:, :, 2::-1])
    panel = (int(w * .12), int(h * .1)), (int(w * .88), int(h * .9))
    cv2.rectangle(face, *panel, colour, -1)
    cv2.putText(face, text, (int(w * .16), int(h * .58)), cv2.FONT_HERSHEY_DUPLEX,
                w / 90, (255, 255, 255), max(2, w // 40))
    alpha = rgba[:, :, 3:] / 255.0
    y, x = (480 - h) // 2, (640 - w) // 2 + int(rng.integers(-30, 31))
    frame[y:y + h, x:x + w] = face * alpha + frame[y:y + h, x:x + w] * (1 - alpha)
    return frame


@pytest.fixture(scope="module")
def tgus_deck(tmp_path_factory):
    """Two photos of each stand-in enrolled as deck ``tgus``: (store, output)."""
    import contextlib
    import io

    from tableref.cli import main

    photos = tmp_path_factory.mktemp("tgus-photos")
    for i, (label, (text, colour)) in enumerate(STAND_INS.items()):
        (photos / label).mkdir()
        for j in range(3):
            photo = _stand_in(text, colour, 10 * i + j)
            cv2.imwrite(str(photos / label / f"{j}.png"), photo)
    store = tmp_path_factory.mktemp("store")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["enroll", "--deck", "tgus", str(photos), "--steps", "40",
                     "--decks-dir", str(store / "decks")])
    assert code == 0, out.getvalue()
    return store, photos, out.getvalue()


def test_tgus_t_labels_get_their_own_classes(tgus_deck) -> None:
    from referee.cards import CLASSES
    from referee.tgus_t.cards import deck_counts

    store, _, text = tgus_deck
    manifest = json.loads((store / "decks" / "tgus" / "deck.json").read_text())
    assert manifest["labels"][: len(CLASSES)] == list(CLASSES)
    assert {"counter", "red-hit2", "change"} <= set(manifest["labels"])
    # The deck it should have is the tgus-t deck: its other cards are missing.
    assert set(manifest["missing"]) == set(deck_counts()) - set(STAND_INS)
    assert "missing labels:" in text and "wild-hit4" in text


def test_detect_reads_a_tgus_t_card_with_the_enrolled_deck(
    tgus_deck, monkeypatch, capsys,
) -> None:
    from tableref.cli import main

    store, _, _ = tgus_deck
    monkeypatch.setenv("TABLEREF_DB", str(store / "tableref.sqlite3"))
    unseen = store / "new.png"
    cv2.imwrite(str(unseen), _stand_in("CT", (40, 40, 40), 99))
    assert main(["detect", "--deck", "tgus", str(unseen)]) == 0
    cards = json.loads(capsys.readouterr().out)["cards"]
    assert [c["label"] for c in cards] == ["counter"]
    assert main(["detect", str(unseen)]) == 0  # the shipped reader: no card it knows
    assert json.loads(capsys.readouterr().out)["cards"] == []


def test_enrolling_the_same_photos_again_gives_the_same_deck(
    tgus_deck, tmp_path
) -> None:
    # seeded: the augmentation, the batches and the finder's boxes; a second
    # enrollment of the same photos in another process state reads the same
    import contextlib
    import io

    import torch

    from tableref.cli import main

    store, photos, _ = tgus_deck
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["enroll", "--deck", "tgus", str(photos), "--steps", "40",
                     "--decks-dir", str(tmp_path / "decks")]) == 0
    first = torch.load(str(store / "decks" / "tgus" / "cardnet.pt"),
                       weights_only=True)
    again = torch.load(str(tmp_path / "decks" / "tgus" / "cardnet.pt"),
                       weights_only=True)
    assert first["labels"] == again["labels"]
    for a, b in zip(first["members"], again["members"], strict=True):
        assert a.keys() == b.keys()
        assert all(torch.equal(a[k], b[k]) for k in a)
    manifest = [json.loads((root / "decks" / "tgus" / "deck.json").read_text())
                for root in (store, tmp_path)]
    assert manifest[0]["confused"] == manifest[1]["confused"]
