"""Give a trained detector more classes without losing what it learnt (needs the training extra).

The bundled detector knows one class, the face-up tile. Teaching it what is *not* a tile (backs,
tiles on edge, printed pictures: `vision.train.detector.IGNORED_CLASSES`) from scratch would
throw away its training; ultralytics, given a data set with more classes, keeps only the weights
whose shapes still fit, which drops the last layer of every class branch. Instead the class
branches' last 1x1 convolutions are widened in place: the old classes keep their rows exactly,
the new ones start at ultralytics' own prior (about one object in a hundred anchors), so the
widened network boxes tiles as before from its first step and learns the new classes on top.
"""

from __future__ import annotations

import math
from typing import Any

import torch
from torch import nn


def class_heads(head: Any) -> list[nn.Conv2d]:
    """The last convolution of each class branch of a detection head (and of its one-to-one
    branches, where the head has them)."""
    branches = [head.cv3]
    if getattr(head, "one2one_cv3", None) is not None:
        branches.append(head.one2one_cv3)
    return [branch[-1] for group in branches for branch in group]


def widen_classes(model: Any, names: dict[int, str]) -> None:
    """Widen `model` (an ultralytics DetectionModel, OBB included) in place to the classes `names`.

    `names` must begin with the model's own classes, in order: class 0 stays class 0.
    """
    head = model.model[-1]
    old = int(head.nc)
    new = len(names)
    if sorted(names) != list(range(new)):
        raise ValueError(f"class indices must run 0..{new - 1}, got {sorted(names)}")
    kept = {i: model.names[i] for i in range(old)}
    if {i: names[i] for i in range(min(old, new))} != kept or new < old:
        raise ValueError(f"the new classes {names} must begin with the model's own {kept}")
    if new == old:
        return
    for i, conv in enumerate(class_heads(head)):
        wider = nn.Conv2d(conv.in_channels, new, 1).to(conv.weight.device, conv.weight.dtype)
        with torch.no_grad():
            nn.init.normal_(wider.weight, std=0.01)
            wider.weight[:old] = conv.weight
            stride = float(head.stride[i % len(head.stride)])
            wider.bias[:] = math.log(5 / new / (640 / stride) ** 2)  # ultralytics' Detect.bias_init
            wider.bias[:old] = conv.bias
        _replace_last(head, conv, wider)
    head.nc = new
    head.no = new + head.reg_max * 4
    model.nc = new
    model.names = dict(names)
    model.yaml["nc"] = new


def _replace_last(head: Any, conv: nn.Conv2d, wider: nn.Conv2d) -> None:
    for group in (head.cv3, getattr(head, "one2one_cv3", None) or []):
        for branch in group:
            if branch[-1] is conv:
                branch[-1] = wider
                return
    raise LookupError("class convolution not found in the head")
