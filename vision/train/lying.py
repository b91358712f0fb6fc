"""Teach the box refiner to say whether a box holds a tile lying face up (needs the training extra).

The detector reads a tile's face and little round it, so a tile standing on edge with its face to
the camera (a player's own hand, photographed from behind) is boxed as a tile with no doubt, and
so is a printed picture of one. The refiner's crop shows the box's surroundings (`refine.frame_crop`:
the box and as much again across), and its features, learnt for moving boxes onto tiles, hold
where the tile's edges and sides lie: a flat tile's side shows below its face, a standing tile's
top above it. One logistic unit on those features, with the refiner itself left as it is (its
offsets unchanged to the bit), is added to its ONNX graph as a second output, `lying`.

Examples are the tiles the reader reads on synthetic photos, each cut as the reader cuts it
(`Reader.mark_not_lying`: the tile's corners as read, from the photo as read) and labelled by the
truth: a labelled face-up tile is lying; a tile on edge or a printed picture is not; backs and
anything else are left out (the reader sets backs aside itself). Each crop is also learnt once more
in another light, sharpness and compression (`other_look`), so that the unit leans on the shape
round the tile more than on how the renderer draws it. The unit is fitted with an L2 penalty
(`STRENGTH`), each class weighing the same, and the score under which a box is held is the one
`SHARE` of the training tiles fall under.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.read.refine import LYING, LYING_LEAST, OFFSETS, BoxFrame, frame_crop, to_batch

#: what a read tile lies on (`vision.evaluate.photos.lies_on`) -> lying (1) or not (0); others left out
LABELS = {"tile": 1, "edge": 0, "printed": 0}
#: the L2 penalty on the unit's weights (features standardised): the strongest that still holds
#: most standing faces, so that tiles of sets the renderer does not draw are held as seldom as
#: possible (models/README.md, "Is it lying face up?")
STRENGTH = 0.2
#: the share of the training photos' face-up tiles whose score falls under the line
SHARE = 0.005


@dataclass
class Examples:
    crops: np.ndarray  # (N, CROP_ACROSS, CROP_ALONG, 3) uint8 BGR
    lying: np.ndarray  # (N,) 1 lying face up, 0 not
    kinds: list[str]  # what each lies on ("tile", "edge", "printed")


def collect(
    dataset: Path, split: str, reader: Any, limit: int | None = None, log: Callable[[str], None] = print
) -> Examples:
    """The reader's tiles on a split's photos, cut as `Reader.mark_not_lying` cuts them."""
    from vision.evaluate import read_truth
    from vision.evaluate.photos import lies_on
    from vision.read.reader import load_photo

    truth_files = sorted((dataset / "truth" / split).glob("*.json"))[:limit]
    if not truth_files:
        raise FileNotFoundError(
            f"no truth JSON under {dataset / 'truth' / split}: make the data with `spinner dataset synth`"
        )
    crops: list[np.ndarray] = []
    kinds: list[str] = []
    for path in truth_files:
        truth = read_truth(path)
        photo = load_photo(dataset / "images" / split / f"{path.stem}.jpg")
        reader.sets = int(truth.get("params", {}).get("sets", 1))
        for tile in reader.read(photo, path.stem).tiles:
            kind = lies_on(tile, truth)
            if kind in LABELS:
                crops.append(frame_crop(photo, BoxFrame.around(tile.corners)))
                kinds.append(kind)
    log(f"{dataset.name}/{split}: {len(truth_files)} photos, {len(kinds)} tiles read ({kinds.count('edge')} on edge)")
    return Examples(
        np.stack(crops) if crops else np.zeros((0, 40, 64, 3), np.uint8),
        np.asarray([LABELS[k] for k in kinds], dtype=np.float32),
        kinds,
    )


def other_look(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The crop in another light (gamma, contrast, brightness, white balance), sometimes softer,
    smaller and enlarged again, noisier or compressed harder."""
    x = crop.astype(np.float32) / 255.0
    x = x ** rng.uniform(0.6, 1.6)
    x = (x - x.mean()) * rng.uniform(0.6, 1.3) + x.mean() + rng.uniform(-0.12, 0.12)
    x = x * rng.uniform(0.85, 1.15, size=3)
    if rng.random() < 0.4:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.4, 1.2))
    if rng.random() < 0.4:
        f = rng.uniform(0.35, 0.8)
        small = cv2.resize(x, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        x = cv2.resize(small, (crop.shape[1], crop.shape[0]), interpolation=cv2.INTER_LINEAR)
    x = x + rng.normal(0, rng.uniform(0, 0.04), x.shape)
    out = np.clip(x * 255, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        _, encoded = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 90))])
        out = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return out


def _features_output(model: Any) -> str:
    """The name of the tensor the refiner's head reads: the flattened features."""
    flattened = [n.output[0] for n in model.graph.node if n.op_type == "Flatten"]
    if len(flattened) != 1:
        raise ValueError(f"the box refiner's graph has {len(flattened)} Flatten nodes, expected one")
    return flattened[0]


def features(refiner: Path, crops: np.ndarray, batch: int = 512) -> np.ndarray:
    """(N, F) the refiner's flattened features of each crop."""
    import onnx
    import onnxruntime as ort

    model = onnx.load(str(refiner))
    name = _features_output(model)
    model.graph.output.append(onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None))
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    parts = [
        session.run([name], {session.get_inputs()[0].name: to_batch(list(crops[i : i + batch]))})[0]
        for i in range(0, len(crops), batch)
    ]
    return np.concatenate(parts) if parts else np.zeros((0, 0), np.float32)


def fit(x: np.ndarray, y: np.ndarray, strength: float = STRENGTH) -> tuple[np.ndarray, float]:
    """An L2-penalised logistic unit on standardised features, each class weighing the same;
    returned as weights and bias on the features as they are."""
    import torch

    xs = torch.from_numpy(x.astype(np.float32))
    ys = torch.from_numpy(y.astype(np.float32))
    mean, spread = xs.mean(0), xs.std(0) + 1e-3
    xs = (xs - mean) / spread
    weight = torch.zeros(xs.shape[1], requires_grad=True)
    bias = torch.zeros(1, requires_grad=True)
    lying = float(ys.sum())
    balance = torch.where(ys == 1, 1.0, lying / max(1.0, len(ys) - lying))
    optimiser = torch.optim.LBFGS([weight, bias], max_iter=300, line_search_fn="strong_wolfe")

    def closure() -> Any:
        optimiser.zero_grad()
        loss = torch.nn.functional.binary_cross_entropy_with_logits(xs @ weight + bias, ys, weight=balance)
        loss = loss + strength * (weight * weight).sum()
        loss.backward()
        return loss

    optimiser.step(closure)
    with torch.no_grad():
        folded = weight / spread
        return folded.numpy().astype(np.float32), float(bias - (weight * mean / spread).sum())


def scores(x: np.ndarray, weight: np.ndarray, bias: float) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-(x @ weight + bias)))


def attach(refiner: Path, out: Path, weight: np.ndarray, bias: float, least: float) -> Path:
    """The refiner with the unit added as its output `lying` and the line kept in its metadata
    (an earlier unit replaced)."""
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(refiner))
    graph = model.graph
    ours = {f"{LYING}_weight", f"{LYING}_bias", f"{LYING}_logit"}
    kept_nodes = [n for n in graph.node if not (set(n.output) & (ours | {LYING}))]
    del graph.node[:]
    graph.node.extend(kept_nodes)
    kept_inits = [i for i in graph.initializer if i.name not in ours]
    del graph.initializer[:]
    graph.initializer.extend(kept_inits)
    kept_outputs = [o for o in graph.output if o.name == OFFSETS]
    del graph.output[:]
    graph.output.extend(kept_outputs)
    graph.initializer.extend(
        [
            numpy_helper.from_array(weight.reshape(-1, 1).astype(np.float32), f"{LYING}_weight"),
            numpy_helper.from_array(np.asarray([bias], np.float32), f"{LYING}_bias"),
        ]
    )
    graph.node.extend(
        [
            helper.make_node("Gemm", [_features_output(model), f"{LYING}_weight", f"{LYING}_bias"], [f"{LYING}_logit"]),
            helper.make_node("Sigmoid", [f"{LYING}_logit"], [LYING]),
        ]
    )
    graph.output.append(helper.make_tensor_value_info(LYING, onnx.TensorProto.FLOAT, ["boxes", 1]))
    kept_meta = [p for p in model.metadata_props if p.key != LYING_LEAST]
    del model.metadata_props[:]
    model.metadata_props.extend(kept_meta)
    onnx.helper.set_model_props(model, {LYING_LEAST: f"{least:.6f}"})
    onnx.checker.check_model(model)
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(out))
    return out


def train(
    datasets: Sequence[Path],
    refiner: Path,
    out: Path,
    limit: int | None = None,
    strength: float = STRENGTH,
    share: float = SHARE,
    seed: int = 0,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Fit the unit on the sets' train splits and write the refiner with it to `out`; figures
    on their validation splits (where they have one)."""
    from vision.read.reader import DEFAULT_DETECTOR, Reader

    started = time.time()
    # the tiles as the reader reads them, without the check itself
    reader = Reader(DEFAULT_DETECTOR, refiner=refiner, checker=None)
    parts = [collect(d, "train", reader, limit, log) for d in datasets]
    crops = np.concatenate([p.crops for p in parts])
    lying = np.concatenate([p.lying for p in parts])
    rng = np.random.default_rng(seed)
    crops = np.concatenate([crops, np.stack([other_look(c, rng) for c in crops])])
    lying = np.concatenate([lying, lying])
    x = features(refiner, crops)
    weight, bias = fit(x, lying, strength)
    least = float(np.quantile(scores(x[lying == 1], weight, bias), share))
    attach(refiner, out, weight, bias, least)
    figures: dict[str, Any] = {
        "train_tiles": int(lying.sum()) // 2,
        "train_not_lying": int((lying == 0).sum()) // 2,
        "lying_least": round(least, 6),
        "strength": strength,
    }
    held: dict[str, list[int]] = {}
    for d in datasets:
        if not (d / "truth" / "val").is_dir() or not any((d / "truth" / "val").glob("*.json")):
            continue
        val = collect(d, "val", reader, limit, log)
        below = scores(features(refiner, val.crops), weight, bias) < least
        for kind, flag in zip(val.kinds, below):
            held.setdefault(kind, [0, 0])
            held[kind][0] += int(flag)
            held[kind][1] += 1
    figures["val_held"] = {kind: f"{n} of {total}" for kind, (n, total) in held.items()}
    figures["seconds"] = round(time.time() - started)
    log(json.dumps(figures))
    return figures
