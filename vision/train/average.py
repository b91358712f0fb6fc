"""Two trained detectors of one network, averaged weight by weight ("model soup").

A run that goes on from the bundled detector with new photos learns what they show and forgets a
little of what it knew: on the styles benchmark the run of 2026-11-26 found more tiles in blurred,
steep and far photos, but read twice as many of `ddd-board`'s printed pictures as sure tiles. Both
networks come from one set of weights, so the points between them are networks too; halfway kept
most of the new recall and read fewer printed pictures than either (models/README.md).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any


def average(first: Path, second: Path, out: Path, share: float = 0.5) -> dict[str, Any]:
    """Write to `out` the checkpoint whose every floating-point weight is (1 - `share`) of
    `first`'s and `share` of `second`'s; the rest (counters, the training's settings) is
    `second`'s, without its optimiser's state. Both must be one network: the same weights by name and shape."""
    import torch

    if not 0 <= share <= 1:
        raise ValueError(f"share must lie between 0 and 1, not {share}")
    checkpoints = [torch.load(p, map_location="cpu", weights_only=False) for p in (first, second)]
    nets = [_network(c, p) for c, p in zip(checkpoints, (first, second), strict=True)]
    weights = [n.state_dict() for n in nets]
    if {k: v.shape for k, v in weights[0].items()} != {k: v.shape for k, v in weights[1].items()}:
        raise ValueError(f"{first} and {second} are not one network: their weights differ in name or shape")
    mixed = {
        name: ((1 - share) * weights[0][name].float() + share * value.float()).to(value.dtype)
        if value.is_floating_point()
        else value
        for name, value in weights[1].items()
    }
    kept = copy.deepcopy(checkpoints[1])
    # the network the weights came from: a checkpoint saved during a run holds only the EMA
    network = _network(kept, second)
    network.load_state_dict(mixed)
    kept["model"], kept["ema"] = network, None  # the averaged network is the one to use and to go on from
    # The second run's optimiser state (three quarters of the file) never trained the average, and
    # a run going on from it (`--model`) starts an optimiser of its own: it is left out.
    for state in ("optimizer", "scaler", "updates"):
        if state in kept:
            kept[state] = None
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(kept, out)
    return {"first": str(first), "second": str(second), "share": share, "weights": len(mixed), "out": str(out)}


def _network(checkpoint: Any, path: Path) -> Any:
    network = checkpoint.get("ema") or checkpoint.get("model") if isinstance(checkpoint, dict) else None
    if network is None:
        raise ValueError(f"{path} holds no network (an ultralytics checkpoint has one under 'model')")
    return network
