"""Train the box refiner (`vision.read.refine`) on a synthetic set (needs the training extra: torch).

Examples, each a box and how its tile's true box differs (`refine.offsets_to`):
- every box the bundled detector finds on a labelled tile, found as the reader finds it (its
  second look at small tiles included): the misses the refiner is there to undo;
- each labelled tile's true box, missed on purpose (`JITTER`, a few times wider than the
  detector's usual miss, so the rarer large misses are learnt too), `jittered` times.

Both ends of a tile and both sides of its long axis look alike, so each example is also learnt
flipped (along: the centre's move along and the turn change sign; across: the move across and the
turn change sign).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.read.refine import CROP_ACROSS, CROP_ALONG, BoxFrame, frame_crop, offsets_to

#: a deliberate miss of a true box, as standard deviations, times one of `JITTER_SCALES`: the
#: centre along (box lengths) and across (box widths), length and width (log), turn (degrees)
JITTER = {"along": 0.10, "across": 0.12, "length": 0.06, "width": 0.08, "turn": 3.0}
JITTER_SCALES = (0.5, 1.0, 2.5)
#: a detector box further than this from a true tile's centre (in its lengths) is on no tile
MATCH = 0.35
#: offsets beyond these are not misses but another tile (left out of training)
LARGEST = np.array([0.5, 0.8, 0.7, 0.7, 0.6], dtype=np.float32)
#: the network's outputs are scaled by these, so each offset's loss weighs about the same
OUTPUT_SCALE = (0.05, 0.05, 0.1, 0.1, 0.05)


@dataclass
class Examples:
    crops: np.ndarray  # (N, CROP_ACROSS, CROP_ALONG, 3) uint8 BGR
    offsets: np.ndarray  # (N, 5) float32, `refine.Offsets` order


def true_frame(tile: dict[str, Any]) -> BoxFrame:
    return BoxFrame.around(tile["corners"])


def jittered(frame: BoxFrame, rng: np.random.Generator) -> BoxFrame:
    k = float(rng.choice(JITTER_SCALES))
    center = (
        frame.center
        + frame.along * rng.normal(0, k * JITTER["along"]) * frame.length
        + frame.across * rng.normal(0, k * JITTER["across"]) * frame.width
    )
    angle = frame.angle + float(np.radians(rng.normal(0, k * JITTER["turn"]))) + (np.pi if rng.random() < 0.5 else 0.0)
    size = (
        frame.length * float(np.exp(rng.normal(0, k * JITTER["length"]))),
        frame.width * float(np.exp(rng.normal(0, k * JITTER["width"]))),
    )
    return BoxFrame.of((float(center[0]), float(center[1])), size, angle)


def photo_examples(
    photo: np.ndarray, truth: dict[str, Any], boxes: Sequence[Any], jitters: int, rng: np.random.Generator
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """One photo's examples: its detector boxes on labelled tiles, and jittered true boxes."""
    tiles = [t for t in truth["tiles"] if t.get("labelled")]
    crops: list[np.ndarray] = []
    offsets: list[np.ndarray] = []
    if not tiles:
        return crops, offsets
    frames = [true_frame(t) for t in tiles]
    centres = np.asarray([f.center for f in frames])
    for box in boxes:
        frame = BoxFrame.of(box.center, box.size, box.angle)
        distance = np.linalg.norm(centres - frame.center, axis=1)
        nearest = int(distance.argmin())
        if distance[nearest] > MATCH * frames[nearest].length:
            continue
        crops.append(frame_crop(photo, frame))
        offsets.append(offsets_to(frame, frames[nearest]).as_array())
    for true in frames:
        for _ in range(jitters):
            missed = jittered(true, rng)
            crops.append(frame_crop(photo, missed))
            offsets.append(offsets_to(missed, true).as_array())
    return crops, offsets


def collect(
    dataset: Path,
    split: str,
    reader: Any,
    jitters: int,
    seed: int,
    limit: int | None = None,
    log: Callable[[str], None] = print,
) -> Examples:
    """Examples from every photo of a split; `reader` (a `reader.Reader`) finds the boxes."""
    from vision.read.reader import BOX_VOTING, NMS_OVERLAP, load_photo, set_aside
    from vision.read.zoom import look_again

    rng = np.random.default_rng(seed)
    truth_files = sorted((dataset / "truth" / split).glob("*.json"))[:limit]
    if not truth_files:
        raise FileNotFoundError(
            f"no truth JSON under {dataset / 'truth' / split}: make the data with `spinner dataset synth`"
        )
    crops: list[np.ndarray] = []
    offsets: list[np.ndarray] = []
    for n, path in enumerate(truth_files):
        truth = json.loads(path.read_text())
        photo = load_photo(dataset / "images" / split / f"{path.stem}.jpg")
        boxes = reader.detector.predict(photo, conf=reader.confidence, iou=NMS_OVERLAP, voting=BOX_VOTING)
        if reader.zoom is not None:
            boxes, _ = look_again(
                reader.detector,
                photo,
                boxes,
                reader.zoom,
                reader.confidence,
                NMS_OVERLAP,
                BOX_VOTING,
                reader.detector.names,
            )
        boxes, _ = set_aside(boxes, reader.detector.names, NMS_OVERLAP)  # as the reader refines them
        c, o = photo_examples(photo, truth, boxes, jitters, rng)
        crops += c
        offsets += o
        if (n + 1) % 500 == 0:
            log(f"{dataset.name}/{split}: {n + 1} of {len(truth_files)} photos, {len(crops)} examples")
    kept = [i for i, o in enumerate(offsets) if np.all(np.abs(o) < LARGEST)]
    return Examples(
        np.stack([crops[i] for i in kept]) if kept else np.zeros((0, CROP_ACROSS, CROP_ALONG, 3), np.uint8),
        np.stack([offsets[i] for i in kept]) if kept else np.zeros((0, 5), np.float32),
    )


def build_model():  # noqa: ANN201 - torch is imported lazily
    import torch
    from torch import nn

    def block(cin: int, cout: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    class Refiner(nn.Module):
        # 40 x 64 -> 20 x 32 -> 10 x 16 -> 5 x 8; the head keeps where things lie (no global
        # pooling: the answer is a position). About 21 million multiply-adds a box.
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                *block(3, 16),
                nn.MaxPool2d(2),
                *block(16, 32),
                *block(32, 32),
                nn.MaxPool2d(2),
                *block(32, 64),
                *block(64, 64),
                nn.MaxPool2d(2),
                *block(64, 96),
            )
            self.head = nn.Sequential(
                nn.Flatten(),
                nn.Linear(96 * (CROP_ACROSS // 8) * (CROP_ALONG // 8), 128),
                nn.ReLU(inplace=True),
                nn.Linear(128, 5),
            )
            self.register_buffer("scale", torch.tensor(OUTPUT_SCALE))

        def forward(self, x):  # noqa: ANN001, ANN202
            return self.head(self.features(x)) * self.scale

    return Refiner()


def _tensors(examples: Examples):  # noqa: ANN202
    import torch

    return (
        torch.from_numpy(examples.crops[..., ::-1].copy()).permute(0, 3, 1, 2).contiguous(),
        torch.from_numpy(examples.offsets.copy()),
    )


def flipped(x, y, rng_along, rng_across):  # noqa: ANN001, ANN201
    """The batch with some examples flipped end for end and some side for side (`rng_*`: masks)."""
    x, y = x.clone(), y.clone()
    x[rng_along] = x[rng_along].flip(3)
    y[rng_along, 0] *= -1
    y[rng_along, 4] *= -1
    x[rng_across] = x[rng_across].flip(2)
    y[rng_across, 1] *= -1
    y[rng_across, 4] *= -1
    return x, y


def train(
    datasets: Sequence[Path],
    out: Path,
    epochs: int = 8,
    jitters: int = 1,
    batch: int = 256,
    seed: int = 0,
    limit: int | None = None,
    detector: Path | None = None,
    log: Callable[[str], None] = print,
) -> dict[str, float]:
    """Train on the sets' train splits and export ONNX to `out` at each epoch better on their
    validation splits (mean absolute error of the offsets, in the output scale). Returns figures."""
    import torch
    from torch import nn

    from vision.read.reader import DEFAULT_DETECTOR, Reader

    torch.manual_seed(seed)
    started = time.time()
    reader = Reader(detector or DEFAULT_DETECTOR, refiner=None)  # the boxes as the detector gives them
    parts = [collect(d, "train", reader, jitters, seed + 7 * i, limit, log) for i, d in enumerate(datasets)]
    train_set = Examples(np.concatenate([p.crops for p in parts]), np.concatenate([p.offsets for p in parts]))
    parts = [collect(d, "val", reader, 0, seed + 1 + 7 * i, limit, log) for i, d in enumerate(datasets)]
    val_set = Examples(np.concatenate([p.crops for p in parts]), np.concatenate([p.offsets for p in parts]))
    log(
        f"examples: {len(train_set.offsets)} train, {len(val_set.offsets)} val (the detector's boxes; {time.time() - started:.0f} s)"
    )
    x, y = _tensors(train_set)
    vx, vy = _tensors(val_set)
    model = build_model()
    scale = torch.tensor(OUTPUT_SCALE)
    optimiser = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = epochs * max(1, (len(y) + batch - 1) // batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=2e-3, total_steps=steps, pct_start=0.15)
    generator = torch.Generator().manual_seed(seed)
    best = float("inf")
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(y), generator=generator)
        total = 0.0
        for i in range(0, len(y), batch):
            idx = order[i : i + batch]
            along = torch.rand(len(idx), generator=generator) < 0.5
            across = torch.rand(len(idx), generator=generator) < 0.5
            xb, yb = flipped(x[idx].float().div_(255.0), y[idx], along, across)
            # light photometric jitter: the crops already vary in geometry
            xb = (
                xb * (0.875 + 0.25 * torch.rand(len(idx), 1, 1, 1, generator=generator))
                + 0.1 * (torch.rand(len(idx), 1, 1, 1, generator=generator) - 0.5)
            ).clamp_(0, 1)
            loss = nn.functional.smooth_l1_loss(model(xb) / scale, yb / scale)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * len(idx)
        error = validation_error(model, vx, vy)
        log(
            f"epoch {epoch + 1}/{epochs}: loss {total / len(y):.4f}, val error {error:.4f} (the boxes as found: "
            f"{float((vy / scale).abs().mean()):.4f})"
        )
        if error < best:
            best = error
            export(model, out)  # at once: a run cut short still leaves its best epoch
    return {
        "val_error": best,
        "val_error_unrefined": float((vy / scale).abs().mean()),
        "train_examples": float(len(y)),
        "val_examples": float(len(vy)),
        "seconds": time.time() - started,
    }


def validation_error(model, x, y) -> float:  # noqa: ANN001
    """Mean absolute error of the offsets, each in its output scale."""
    import torch

    model.eval()
    scale = torch.tensor(OUTPUT_SCALE)
    with torch.no_grad():
        errors = [
            ((model(x[i : i + 512].float() / 255.0) - y[i : i + 512]) / scale).abs().sum().item()
            for i in range(0, len(y), 512)
        ]
    return sum(errors) / max(1, y.numel())


def export(model, out: Path) -> Path:  # noqa: ANN001
    import torch

    out.parent.mkdir(parents=True, exist_ok=True)
    model.eval()
    torch.onnx.export(
        model,
        torch.zeros(1, 3, CROP_ACROSS, CROP_ALONG),
        str(out),
        input_names=["crops"],
        output_names=["offsets"],
        dynamic_axes={"crops": {0: "boxes"}, "offsets": {0: "boxes"}},
        opset_version=17,
        dynamo=False,
    )
    model.train()
    return out
