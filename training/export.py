"""Ship a trained card finder: its weights and OpenVINO model into ``models/``."""

from __future__ import annotations

import shutil
from pathlib import Path


def ship(weights: Path, imgsz: int, photo: bool = False) -> Path:
    """Copy ``weights`` to ``models/`` (stripped) and export the OpenVINO model:
    the live finder's files, or with ``photo`` the still-photo finder's."""
    from vision.detector import MODEL_DIR, PHOTO_PT_NAME, PT_NAME
    from vision.ultralytics_setup import setup

    setup()
    from ultralytics import YOLO
    from ultralytics.utils.torch_utils import strip_optimizer

    MODEL_DIR.mkdir(exist_ok=True)
    target = MODEL_DIR / (PHOTO_PT_NAME if photo else PT_NAME)
    shutil.copyfile(weights, target)
    strip_optimizer(str(target))  # EMA weights in half precision, no optimizer state
    model = YOLO(str(target))
    exported = Path(
        # a dynamic input: the runtime compiles it for imgsz x imgsz (or, with
        # rect, each frame's own shape); models/MODEL_CARD.md, Speed
        model.export(format="openvino", imgsz=imgsz, half=False, dynamic=True)
    )
    final = MODEL_DIR / exported.name
    if exported.resolve() != final.resolve():
        if final.exists():
            shutil.rmtree(final)
        shutil.move(str(exported), final)
    print(f"shipped: {target} and {final}")
    return final
