"""The companion's own pre- and post-processing around the exported ONNX detector finds the same
tiles as ultralytics running the checkpoint it was exported from, on the same photos.

Both letterbox the photo to a 640 square (ultralytics is told `rect=False`, as our export is a
fixed square). Their non-maximum suppression differs in kind (ultralytics: probabilistic IoU of
rotated boxes; ours: OpenCV's polygon IoU), so the comparison is of the confident boxes: each one
either side finds must be found by the other, in the same place, of the same size and turn.
"""
from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.obb import ObbModel
from vision.reader import DEFAULT_DETECTOR, MODELS
from vision.synth.dataset import make_sample

CHECKPOINT = MODELS / "checkpoints" / "detector.pt"
CONF, IOU, SURE = 0.25, 0.5, 0.5

pytestmark = pytest.mark.skipif(
    not (CHECKPOINT.is_file() and DEFAULT_DETECTOR.is_file()), reason="no detector checkpoint and export in models/"
)


def ultralytics_boxes(image: np.ndarray) -> list[tuple[float, float, float, float, float, float]]:
    pytest.importorskip("ultralytics")
    from vision.train_detector import offline

    offline()
    from ultralytics import YOLO

    result = YOLO(str(CHECKPOINT), task="obb").predict(image, imgsz=640, conf=CONF, iou=IOU, rect=False, verbose=False, device="cpu")[0]
    xywhr = result.obb.xywhr.numpy()
    return [(*map(float, row), float(c)) for row, c in zip(xywhr, result.obb.conf.numpy())]


def same_box(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    (ax, ay, aw, ah, ar), (bx, by, bw, bh, br) = a[:5], b[:5]
    if math.hypot(ax - bx, ay - by) > 2.0:
        return False
    # A box turned a quarter with its sides swapped is the same box.
    if abs(aw - bh) + abs(ah - bw) < abs(aw - bw) + abs(ah - bh):
        bw, bh, br = bh, bw, br + math.pi / 2
    turn = abs((ar - br + math.pi / 2) % math.pi - math.pi / 2)
    return abs(aw - bw) <= 0.03 * aw + 1 and abs(ah - bh) <= 0.03 * ah + 1 and turn < 0.03


@pytest.mark.parametrize("index", [0, 1, 2])
def test_onnx_and_ultralytics_find_the_same_tiles(index):
    image = cv2.imdecode(np.frombuffer(make_sample(4242, index, 1280, 960).jpeg, np.uint8), cv2.IMREAD_COLOR)
    theirs = ultralytics_boxes(image)
    ours = [(*d.center, *d.size, d.angle, d.confidence) for d in ObbModel(DEFAULT_DETECTOR).predict(image, conf=CONF, iou=IOU)]
    assert any(box[5] >= SURE for box in theirs), "the checkpoint finds no tile at all: nothing to compare"
    for box in theirs:
        if box[5] >= SURE:
            assert any(same_box(box, other) for other in ours), f"ultralytics found {box}, ONNX did not"
    for box in ours:
        if box[5] >= SURE:
            assert any(same_box(box, other) for other in theirs), f"ONNX found {box}, ultralytics did not"
