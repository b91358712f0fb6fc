"""Cutting a smaller detector from a trained one: the split C2f blocks compute what the originals
did, and pruning leaves a network that runs and does less work."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torch_pruning")

from vision.train.detector import offline  # noqa: E402
from vision.train.prune import is_pruned, prune, unsplit  # noqa: E402


def network():
    offline()
    from ultralytics.nn.tasks import OBBModel

    torch.manual_seed(0)
    model = OBBModel("yolo11n-obb.yaml", nc=1, verbose=False)
    return model.eval()


def test_split_c2f_blocks_compute_the_same():
    model = network()
    x = torch.rand(1, 3, 128, 160)
    with torch.no_grad():
        before = model(x)[0]
        unsplit(model)
        model.eval()
        after = model(x)[0]
    assert is_pruned(model)
    assert torch.allclose(before, after, atol=1e-5)


def test_pruning_halves_the_channels_and_the_network_still_reads():
    model = network()
    x = torch.rand(1, 3, 128, 160)
    with torch.no_grad():
        shape = model(x)[0].shape
    before, after = prune(model, 0.5, x)
    assert after < 0.6 * before
    with torch.no_grad():
        assert model.eval()(x)[0].shape == shape  # the same boxes per anchor: the head's outputs kept whole


def test_a_ratio_outside_zero_to_one_is_refused():
    with pytest.raises(ValueError, match="between 0 and 1"):
        prune(network(), 1.0, torch.rand(1, 3, 64, 64))
