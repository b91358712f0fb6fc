"""Averaging two detectors of one network: every weight lies between the two, as the share says,
and networks that differ are refused by name."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from vision.train.average import average  # noqa: E402
from vision.train.detector import offline  # noqa: E402


def checkpoint(path, seed: int, nc: int = 1):
    offline()
    from ultralytics.nn.tasks import OBBModel

    torch.manual_seed(seed)
    model = OBBModel("yolo11n-obb.yaml", nc=nc, verbose=False)
    torch.save({"model": model, "ema": None, "epoch": seed}, path)
    return model


def test_the_average_lies_between_the_two_by_the_share(tmp_path):
    a, b = checkpoint(tmp_path / "a.pt", 1), checkpoint(tmp_path / "b.pt", 2)
    average(tmp_path / "a.pt", tmp_path / "b.pt", tmp_path / "mix.pt", share=0.25)
    mixed = torch.load(tmp_path / "mix.pt", weights_only=False)
    assert mixed["epoch"] == 2  # the second's settings
    first, second, got = a.state_dict(), b.state_dict(), mixed["model"].state_dict()
    name = next(k for k, v in got.items() if v.is_floating_point() and not torch.equal(first[k], second[k]))
    assert torch.allclose(got[name], 0.75 * first[name] + 0.25 * second[name], atol=1e-6)
    counters = [k for k, v in got.items() if not v.is_floating_point()]
    assert all(torch.equal(got[k], second[k]) for k in counters)


def test_two_different_networks_are_refused(tmp_path):
    checkpoint(tmp_path / "a.pt", 1, nc=1)
    checkpoint(tmp_path / "b.pt", 2, nc=4)
    with pytest.raises(ValueError, match="not one network"):
        average(tmp_path / "a.pt", tmp_path / "b.pt", tmp_path / "mix.pt")


def test_a_checkpoint_saved_during_a_run_is_averaged_from_its_ema(tmp_path):
    # ultralytics saves last.pt during a run with the EMA network alone ("model" is None)
    a = checkpoint(tmp_path / "a.pt", 1)
    b = checkpoint(tmp_path / "b.pt", 2)
    torch.save({"model": None, "ema": b, "epoch": 3}, tmp_path / "b.pt")
    average(tmp_path / "a.pt", tmp_path / "b.pt", tmp_path / "mix.pt", share=0.5)
    mixed = torch.load(tmp_path / "mix.pt", weights_only=False)
    assert mixed["ema"] is None and mixed["epoch"] == 3
    first, second, got = a.state_dict(), b.state_dict(), mixed["model"].state_dict()
    name = next(k for k, v in got.items() if v.is_floating_point() and not torch.equal(first[k], second[k]))
    assert torch.allclose(got[name], 0.5 * first[name] + 0.5 * second[name], atol=1e-6)


def test_the_second_runs_optimiser_state_is_left_out(tmp_path):
    # a last.pt of a run holds its optimiser's state, far larger than the network
    checkpoint(tmp_path / "a.pt", 1)
    b = checkpoint(tmp_path / "b.pt", 2)
    optimiser = torch.optim.AdamW(b.parameters())
    torch.save(
        {"model": None, "ema": b, "epoch": 3, "optimizer": optimiser.state_dict(), "updates": 9}, tmp_path / "b.pt"
    )
    average(tmp_path / "a.pt", tmp_path / "b.pt", tmp_path / "mix.pt", share=0.75)
    mixed = torch.load(tmp_path / "mix.pt", weights_only=False)
    assert mixed["optimizer"] is None and mixed["updates"] is None
    assert mixed["epoch"] == 3
