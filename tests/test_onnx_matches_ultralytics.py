"""The companion's own pre- and post-processing around the exported ONNX detector finds the same
tiles as ultralytics running the checkpoint it was exported from, on the same photos.

Both letterbox the photo to the same input (800 x 608 for the 4:3 photos read at 800; ultralytics
is told that size and `rect=False`; the photos are rendered at twice the reading size, where our
area shrink and ultralytics' bilinear one give the same picture) and suppress overlapping boxes the same way (Fast-NMS on probabilistic IoU, which
`vision.read.detector` ports to numpy and the first test checks against ultralytics' own). The comparison is
of the boxes scored well above the threshold, so a score a hair either side of it changes nothing:
each one either side finds must be found by the other, in the same place, of the same size and turn.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.read.detector import ObbModel
from vision.read.models import CHECKPOINT, DEFAULT_DETECTOR
from vision.synth.dataset import make_sample

CONF, IOU, SURE = 0.25, 0.5, 0.3

needs_checkpoint = pytest.mark.skipif(
    not (CHECKPOINT.is_file() and DEFAULT_DETECTOR.is_file()), reason="no detector checkpoint and export in models/"
)


@pytest.mark.parametrize("seed", range(5))
def test_our_rotated_nms_keeps_what_ultralytics_keeps(seed):
    """Overlapping, touching and crossing tiles of every size and turn, many near duplicates."""
    pytest.importorskip("ultralytics")
    import torch
    from ultralytics.utils.metrics import batch_probiou
    from ultralytics.utils.nms import TorchNMS

    from vision.read.detector import fast_nms, probiou

    rng = np.random.default_rng(seed)
    n = 60
    centres = rng.uniform(0, 300, (n // 3, 2)).repeat(3, axis=0) + rng.normal(0, 6, (n, 2))
    sizes = np.stack([rng.uniform(30, 120, n), rng.uniform(15, 60, n)], axis=1)
    boxes = np.column_stack([centres, sizes, rng.uniform(-math.pi / 2, math.pi, n)])
    scores = rng.uniform(0.25, 1.0, n)
    theirs = TorchNMS.fast_nms(torch.from_numpy(boxes), torch.from_numpy(scores), IOU, iou_func=batch_probiou)
    assert np.allclose(probiou(boxes), batch_probiou(boxes, boxes).numpy(), atol=1e-6)
    # two sets, as box voting measures the kept boxes against the pool
    assert np.allclose(probiou(boxes[:7], boxes[7:]), batch_probiou(boxes[:7], boxes[7:]).numpy(), atol=1e-6)
    kept = fast_nms(boxes, scores, IOU)
    assert 0 < len(kept) < n
    assert kept.tolist() == theirs.tolist()


def test_the_exported_box_head_gives_ultralytics_numbers():
    """The export lays the box head's bins last for a quicker softmax: the same distances."""
    pytest.importorskip("ultralytics")
    import torch
    from ultralytics.nn.modules.block import DFL

    from vision.train.detector import _bins_last

    head, original = DFL(16), DFL.forward
    logits = torch.randn(2, 4 * 16, 300) * 3
    theirs = head(logits)
    with _bins_last():
        assert DFL.forward is not original
        ours = head(logits)
    assert DFL.forward is original  # put back afterwards
    assert ours.shape == theirs.shape == (2, 4, 300)
    assert torch.allclose(ours, theirs, atol=1e-5)


def ultralytics_boxes(
    image: np.ndarray, size: tuple[int, int]
) -> list[tuple[float, float, float, float, float, float]]:
    pytest.importorskip("ultralytics")
    from vision.train.detector import offline

    offline()
    from ultralytics import YOLO

    result = YOLO(str(CHECKPOINT), task="obb").predict(
        image, imgsz=list(size), conf=CONF, iou=IOU, rect=False, verbose=False, device="cpu"
    )[0]
    xywhr = result.obb.xywhr.numpy()
    return [(*map(float, row), float(c)) for row, c in zip(xywhr, result.obb.conf.numpy(), strict=False)]


def same_box(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    (ax, ay, aw, ah, ar), (bx, by, bw, bh, br) = a[:5], b[:5]
    if math.hypot(ax - bx, ay - by) > 2.0:
        return False
    # A box turned a quarter with its sides swapped is the same box.
    if abs(aw - bh) + abs(ah - bw) < abs(aw - bw) + abs(ah - bh):
        bw, bh, br = bh, bw, br + math.pi / 2
    turn = abs((ar - br + math.pi / 2) % math.pi - math.pi / 2)
    return abs(aw - bw) <= 0.03 * aw + 1 and abs(ah - bh) <= 0.03 * ah + 1 and turn < 0.03


@needs_checkpoint
@pytest.mark.parametrize("index", [0, 1, 2])
def test_onnx_and_ultralytics_find_the_same_tiles(index):
    model = ObbModel(DEFAULT_DETECTOR)
    width = 2 * model.side
    image = cv2.imdecode(
        np.frombuffer(make_sample(4242, index, width, width * 3 // 4).jpeg, np.uint8), cv2.IMREAD_COLOR
    )
    theirs = ultralytics_boxes(image, model.input_size(*image.shape[:2]))
    ours = [(*d.center, *d.size, d.angle, d.confidence) for d in model.predict(image, conf=CONF, iou=IOU)]
    assert any(box[5] >= SURE for box in theirs), "the checkpoint finds no tile at all: nothing to compare"
    for box in theirs:
        if box[5] >= SURE:
            assert any(same_box(box, other) for other in ours), f"ultralytics found {box}, ONNX did not"
    for box in ours:
        if box[5] >= SURE:
            assert any(same_box(box, other) for other in theirs), f"ONNX found {box}, ultralytics did not"
