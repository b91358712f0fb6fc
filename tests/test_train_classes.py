"""Widening a trained detector's classes keeps what it learnt: its tile scores do not move."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("ultralytics")

from vision.train.classes import widen_classes  # noqa: E402
from vision.train.detector import IGNORED_CLASSES, offline  # noqa: E402

NAMES = dict(enumerate(("tile", *IGNORED_CLASSES)))


@pytest.fixture
def one_class_model():
    offline()
    from ultralytics.nn.tasks import OBBModel

    torch.manual_seed(0)
    model = OBBModel("yolo11n-obb.yaml", nc=1, verbose=False)
    model.names = {0: "tile"}
    return model.eval()


def scores(model, image):
    with torch.no_grad():
        out = model(image)
    out = out[0] if isinstance(out, (tuple, list)) else out
    return out[:, 4 : 4 + model.model[-1].nc, :]  # (batch, classes, anchors), after the boxes


def test_widened_model_scores_tiles_as_before(one_class_model):
    image = torch.rand(1, 3, 128, 160)
    before = scores(one_class_model, image)
    widen_classes(one_class_model, NAMES)
    after = scores(one_class_model, image)
    assert after.shape[1] == 4
    torch.testing.assert_close(after[:, :1], before)
    # the new classes start near ultralytics' prior: no anchor is sure of them yet
    assert float(after[:, 1:].max()) < 0.05
    head = one_class_model.model[-1]
    assert (head.nc, head.no, one_class_model.names, one_class_model.yaml["nc"]) == (4, 4 + 64, NAMES, 4)


def test_widen_refuses_classes_that_do_not_begin_with_its_own(one_class_model):
    with pytest.raises(ValueError, match="must begin with"):
        widen_classes(one_class_model, {0: "face_down", 1: "tile"})
    with pytest.raises(ValueError, match="run 0"):
        widen_classes(one_class_model, {0: "tile", 2: "printed"})


def test_widen_to_the_same_classes_changes_nothing(one_class_model):
    conv = one_class_model.model[-1].cv3[0][-1]
    widen_classes(one_class_model, {0: "tile"})
    assert one_class_model.model[-1].cv3[0][-1] is conv
