"""A smaller detector cut from a trained one: structured channel pruning (needs the training extra).

Most of a read's time is the detector's network, and a network trained from scratch
at a smaller width needs the many epochs a CPU session cannot give. Pruning keeps what the
trained network has learnt: torch-pruning (Torch-Pruning's dependency graph) removes the same
fraction of channels from every prunable layer, those with the smallest weights, and fixes up
every layer that reads them; the network then trains on (`spinner train detector --model
PRUNED.pt`) to win back what the cut cost.

Two parts of yolo11 are left whole: the attention block (C2PSA, whose heads reshape channels),
and each head branch's last convolution, whose outputs are the boxes, scores and angles. C2f
blocks (and C3k2, which is one) split their first convolution's output in two with `chunk`,
which the dependency graph cannot follow; `unsplit` rebuilds them with two convolutions that give
the same numbers (`SplitC2f`).
"""

from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Any

import torch
from torch import nn


class SplitC2f(nn.Module):
    """A C2f block whose first convolution is two (`cv0`, `cv1`), one for each half of its output."""

    def __init__(self, block: nn.Module) -> None:
        super().__init__()
        self.c = block.c
        self.cv0 = _half_of(block.cv1, slice(0, block.c))
        self.cv1 = _half_of(block.cv1, slice(block.c, 2 * block.c))
        self.cv2 = block.cv2
        self.m = block.m
        # ultralytics' sequential forward reads where each layer takes its input from
        for attribute in ("f", "i", "type", "np"):
            if hasattr(block, attribute):
                setattr(self, attribute, getattr(block, attribute))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = [self.cv0(x), self.cv1(x)]
        y.extend(m(y[-1]) for m in self.m)
        return self.cv2(torch.cat(y, 1))


def _half_of(conv_block: nn.Module, part: slice) -> nn.Module:
    """A copy of an ultralytics Conv (conv, batch norm, activation) keeping the output channels `part`."""
    half = copy.deepcopy(conv_block)
    conv, norm = conv_block.conv, conv_block.bn
    half.conv = nn.Conv2d(
        conv.in_channels,
        part.stop - part.start,
        conv.kernel_size,
        conv.stride,
        conv.padding,
        conv.dilation,
        conv.groups,
        bias=False,
    )
    half.conv.weight.data = conv.weight.data[part].clone()
    half.bn = nn.BatchNorm2d(part.stop - part.start, eps=norm.eps, momentum=norm.momentum)
    half.bn.weight.data = norm.weight.data[part].clone()
    half.bn.bias.data = norm.bias.data[part].clone()
    half.bn.running_mean = norm.running_mean[part].clone()
    half.bn.running_var = norm.running_var[part].clone()
    return half


def unsplit(model: nn.Module) -> nn.Module:
    """Replace every C2f block (C3k2 included) by a `SplitC2f` computing the same; in place."""
    from ultralytics.nn.modules.block import C2f

    for name, child in model.named_children():
        if isinstance(child, C2f):
            setattr(model, name, SplitC2f(child))
        else:
            unsplit(child)
    return model


def prune(model: nn.Module, ratio: float, example: torch.Tensor) -> tuple[float, float]:
    """Remove `ratio` of the channels of every prunable layer (by L2 magnitude); in place.

    Returns the multiply-adds of one forward pass of `example` before and after.
    """
    import torch_pruning as tp
    from ultralytics.nn.modules.block import C2PSA

    if not 0.0 < ratio < 1.0:
        raise ValueError(f"the pruning ratio must lie between 0 and 1, not {ratio}")
    unsplit(model)
    model.eval()  # the new blocks' batch norms, too: their statistics are the trained ones
    for parameter in model.parameters():
        parameter.requires_grad_(True)
    head = model.model[-1]
    kept_whole: list[nn.Module] = [head.dfl] if hasattr(head, "dfl") else []
    for branch in (getattr(head, name) for name in ("cv2", "cv3", "cv4") if hasattr(head, name)):
        kept_whole += [sequence[-1] for sequence in branch]
    kept_whole += [m for m in model.modules() if isinstance(m, C2PSA)]
    before, _ = tp.utils.count_ops_and_params(model, example)
    pruner = tp.pruner.MagnitudePruner(
        model,
        example,
        importance=tp.importance.MagnitudeImportance(p=2),
        pruning_ratio=ratio,
        ignored_layers=kept_whole,
        round_to=8,
    )
    pruner.step()
    after, _ = tp.utils.count_ops_and_params(model, example)
    return float(before), float(after)


def prune_checkpoint(weights: Path, out: Path, ratio: float, imgsz: int = 800) -> dict[str, Any]:
    """Prune an ultralytics checkpoint of the detector and save it as one `spinner train detector`
    goes on from (the network itself is saved: no yaml describes it)."""
    from vision.train.detector import offline

    offline()
    checkpoint = torch.load(weights, map_location="cpu", weights_only=False)
    model = (checkpoint["ema"] if checkpoint.get("ema") is not None else checkpoint["model"]).float()
    # its work counted on a 4:3 photo's input at the reading size (800 x 608 at 800)
    before, after = prune(model, ratio, torch.zeros(1, 3, math.ceil(imgsz * 3 / 4 / 32) * 32, imgsz))
    saved = {key: value for key, value in checkpoint.items() if key not in ("optimizer", "ema", "updates")}
    saved.update(model=model.half(), ema=None, optimizer=None, pruned={"from": str(weights), "ratio": ratio})
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(saved, out)
    return {
        "weights": str(out),
        "ratio": ratio,
        "gmacs_before": round(before / 1e9, 3),
        "gmacs_after": round(after / 1e9, 3),
        "parameters": sum(p.numel() for p in model.parameters()),
    }


def is_pruned(model: nn.Module) -> bool:
    """Whether a network holds blocks no model yaml describes (and must train as it is)."""
    return any(isinstance(m, SplitC2f) for m in model.modules())
