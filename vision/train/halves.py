"""Train the half classifier on crops cut from the synthetic photos' truth (needs the training extra).

Each labelled half of each rendered photo is cut out as the reader will cut it at run time
(`crops.rectify`), several times, turned by a multiple of 90 degrees (a tile lies any way round)
and with its box as a detector gives it, never exact. Every other copy has the half's own corners
shaken by a few percent (a good box); the others cut the tile's box moved, stretched and turned
the way a detector's boxes miss the truth (`BOX_ERROR`, the spread of a trained detector's boxes
on synth-v1's validation photos: the centre off by a median 6 % of the tile's width and 33 % at
the 95th percentile, each side 5-8 % long or short, the turn 2 degrees off, 16 at the 95th
percentile)
and split in two as the reader splits it (`reading.split_halves`), so that the classifier has
seen the halves the reader will really show it.

With `detector` (an exported tile detector, the one the classifier will be bundled with), each
photo is also read by it as the reader reads it, and the halves of its own boxes that lie on a
labelled tile are cut too, each labelled with the true half it mostly shows: the detector's
misses are not the Gaussian `BOX_ERROR` alone (a tile seen steeply is boxed with its side face,
so its halves slide toward the camera; models/README.md, "Data").

With `not_halves`, crops that show no tile's half are cut too (`NOT_A_HALF`): a half mostly hidden
(a finger, a hand, another tile over it) and the end of a box run off its tile onto the table. No
value is right for them, so the classifier is taught to spread its belief evenly over the seven
(outlier exposure: Hendrycks et al., "Deep anomaly detection with outlier exposure", 2019), and
the reader, which is sure of a tile only where the classifier is, asks about them. Read as blank
with no doubt, such a half was the commonest sure misread (CHANGELOG, 2026-11-28).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.read.crops import HALF_SIZE, rectify
from vision.read.reading import split_halves

VALUES = 7
#: the label of a crop that shows no tile's half (`collect(not_halves=True)`): trained toward an
#: even belief over the seven values, never counted in the validation accuracy
NOT_A_HALF = -1
#: the share of labelled tiles whose box is also cut run off one end (`_off_tile`), per photo
OFF_TILE_SHARE = 0.3
#: a detector box's miss, as standard deviations: the centre along and across the tile (share of
#: the tile's width), each side's length (share), the turn (degrees); scaled per copy by one of
#: ERROR_SCALES, so that most boxes are near and a few far, like the detector's
BOX_ERROR = {"along": 0.10, "across": 0.06, "length": 0.06, "turn": 3.0}
ERROR_SCALES = (0.5, 1.0, 2.5)


@dataclass
class CropSet:
    images: np.ndarray  # (N, 32, 32, 3) uint8 BGR
    values: np.ndarray  # (N,) int64


def collect(
    dataset: Path,
    split: str,
    copies: int,
    seed: int,
    limit: int | None = None,
    detector: Any = None,
    detected_copies: int = 1,
    not_halves: bool = False,
) -> CropSet:
    """Cut every labelled half of a split `copies` times with jitter; reproducible from `seed`.
    With `detector` (an `obb.ObbModel`), also the halves of its boxes on labelled tiles, each
    `detected_copies` times (turned differently). With `not_halves`, also `NOT_A_HALF` crops
    (`not_half_quads`), each once."""
    rng = np.random.default_rng(seed)
    images: list[np.ndarray] = []
    values: list[int] = []
    truth_files = sorted((dataset / "truth" / split).glob("*.json"))[:limit]
    if not truth_files:
        raise FileNotFoundError(
            f"no truth JSON under {dataset / 'truth' / split}: make the data with `spinner dataset synth`"
        )
    for truth_path in truth_files:
        truth = json.loads(truth_path.read_text())
        photo = cv2.imread(str(dataset / "images" / split / f"{truth_path.stem}.jpg"))
        if photo is None:
            continue
        for tile in truth["tiles"]:
            labelled = [h for h in tile["halves"] if h.get("labelled")]
            for copy in range(copies):
                if copy % 2 == 0:
                    cut = [(np.asarray(h["corners"], dtype=np.float32), h) for h in labelled]
                    cut = [
                        (
                            q
                            + rng.normal(0.0, 0.05 * float(np.linalg.norm(q[1] - q[0])), size=(4, 2)).astype(
                                np.float32
                            ),
                            h,
                        )
                        for q, h in cut
                    ]
                else:
                    cut = _as_detected(tile, labelled, rng)
                for quad, half in cut:
                    crop = rectify(photo, quad)
                    images.append(np.rot90(crop, int(rng.integers(4))).copy())
                    values.append(int(half["value"]))
        if not_halves:
            for quad in not_half_quads(truth, photo.shape[1], photo.shape[0], rng):
                images.append(np.rot90(rectify(photo, quad), int(rng.integers(4))).copy())
                values.append(NOT_A_HALF)
        if detector is not None:
            for quad, half in detected_cuts(photo, truth, detector):
                crop = rectify(photo, quad)
                for turn in rng.permutation(4)[:detected_copies]:
                    images.append(np.rot90(crop, int(turn)).copy())
                    values.append(int(half["value"]))
    return CropSet(np.stack(images) if images else np.zeros((0, HALF_SIZE, HALF_SIZE, 3), np.uint8), np.asarray(values))


def not_half_quads(truth: dict, width: int, height: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Quads in the photo that show no tile's half as the reader would cut one: each face-up half
    inside the photo but less than `MIN_VISIBLE` of it in view (something lies over it), and, for
    `OFF_TILE_SHARE` of the labelled tiles, the end of the tile's box moved along the tile by about
    half its length where that end lies on no half of any tile (the table beyond it)."""
    from vision.synth.labels import MIN_VISIBLE

    halves = [h for t in truth["tiles"] for h in t["halves"]]
    centres = np.asarray([h["center"] for h in halves], dtype=np.float32).reshape(-1, 2)
    # whatever may show pips or a tile's face over a point: a crop there is not "no half"
    faces = [
        np.asarray(thing["corners"], dtype=np.float32)
        for kind in ("tiles", "face_down", "on_edge", "printed")
        for thing in truth.get(kind, [])
    ]
    out = []
    for tile in truth["tiles"]:
        if len(tile["halves"]) != 2:
            continue
        own = np.asarray(tile["corners"], dtype=np.float32)
        for half in tile["halves"]:
            quad = np.asarray(half["corners"], dtype=np.float32)
            hidden = float(half.get("visible", 1.0)) < MIN_VISIBLE
            if hidden and _inside(quad, width, height) and not _on_any(quad.mean(axis=0), faces, skip=own):
                out.append(quad)
        if not tile.get("labelled") or rng.random() >= OFF_TILE_SHARE:
            continue
        box = np.asarray(tile["corners"], dtype=np.float32)
        (cx, cy), (w, h), degrees = cv2.minAreaRect(box)
        if w < h:
            w, h, degrees = h, w, degrees + 90.0
        theta = np.radians(degrees)
        shift = float(rng.choice((-1.0, 1.0)) * rng.uniform(0.45, 0.6) * w)
        moved = box + shift * np.array([np.cos(theta), np.sin(theta)], dtype=np.float32)
        # the half of the moved box farther from the tile's centre: past the tile's end
        end = max(split_halves(moved), key=lambda q: float(np.linalg.norm(q.mean(axis=0) - (cx, cy))))
        clear = np.linalg.norm(centres - end.mean(axis=0), axis=1).min() > 0.6 * h
        if clear and _inside(end, width, height) and not _on_any(end.mean(axis=0), faces):
            out.append(end)
    return out


def _on_any(point: np.ndarray, polygons: list[np.ndarray], skip: np.ndarray | None = None) -> bool:
    """Whether `point` lies within any of `polygons` but `skip` (the hidden half's own tile)."""
    where = (float(point[0]), float(point[1]))
    return any(
        cv2.pointPolygonTest(poly, where, False) >= 0
        for poly in polygons
        if skip is None or poly.shape != skip.shape or not np.array_equal(poly, skip)
    )


def _inside(quad: np.ndarray, width: int, height: int) -> bool:
    return bool(
        (quad[:, 0] >= 0).all()
        and (quad[:, 0] < width).all()
        and (quad[:, 1] >= 0).all()
        and (quad[:, 1] < height).all()
    )


def _as_detected(tile: dict, labelled: list[dict], rng: np.random.Generator) -> list[tuple[np.ndarray, dict]]:
    """The tile's box missed as a detector misses it, split into halves as the reader splits it;
    each cut half with the true half whose centre is nearest (the one it mostly shows)."""
    if not labelled or len(tile["halves"]) != 2:
        return []
    (cx, cy), (w, h), degrees = cv2.minAreaRect(np.asarray(tile["corners"], dtype=np.float32))
    if w < h:
        w, h, degrees = h, w, degrees + 90.0  # w along the tile, h across
    k = float(rng.choice(ERROR_SCALES))
    theta = np.radians(degrees)
    along, across = np.array([np.cos(theta), np.sin(theta)]), np.array([-np.sin(theta), np.cos(theta)])
    centre = (
        np.array([cx, cy])
        + along * rng.normal(0, k * BOX_ERROR["along"]) * h
        + across * rng.normal(0, k * BOX_ERROR["across"]) * h
    )
    size = (w * (1 + rng.normal(0, k * BOX_ERROR["length"])), h * (1 + rng.normal(0, k * BOX_ERROR["length"])))
    box = cv2.boxPoints(
        (
            (float(centre[0]), float(centre[1])),
            (max(size[0], 2.0), max(size[1], 2.0)),
            degrees + rng.normal(0, k * BOX_ERROR["turn"]),
        )
    ).astype(np.float32)
    out = []
    centres = np.asarray([half["center"] for half in tile["halves"]], dtype=np.float32)
    for quad in split_halves(box):
        nearest = tile["halves"][int(np.linalg.norm(centres - quad.mean(axis=0), axis=1).argmin())]
        if nearest.get("labelled"):
            out.append((quad, nearest))
    return out


def detected_cuts(photo: np.ndarray, truth: dict, detector: Any) -> list[tuple[np.ndarray, dict]]:
    """The halves of the detector's boxes (found as the reader finds them) that lie on a labelled
    tile: the box's centre within half the tile's short side of the tile's, as `spinner eval`
    matches them. Each cut half goes with the true half whose centre is nearest, if labelled."""
    from vision.read.reader import BOX_CONFIDENCE, BOX_VOTING, NMS_OVERLAP

    tiles = [t for t in truth["tiles"] if t.get("labelled") and len(t["halves"]) == 2]
    if not tiles:
        return []
    centres = np.asarray([t["center"] for t in tiles], dtype=np.float32)
    out = []
    for box in detector.predict(photo, conf=BOX_CONFIDENCE, iou=NMS_OVERLAP, voting=BOX_VOTING):
        distance = np.linalg.norm(centres - np.asarray(box.center, dtype=np.float32), axis=1)
        tile = tiles[int(distance.argmin())]
        (_, _), (w, h), _ = cv2.minAreaRect(np.asarray(tile["corners"], dtype=np.float32))
        if distance.min() > 0.5 * min(w, h):
            continue
        halves = np.asarray([half["center"] for half in tile["halves"]], dtype=np.float32)
        for quad in split_halves(box.corners()):
            nearest = tile["halves"][int(np.linalg.norm(halves - quad.mean(axis=0), axis=1).argmin())]
            if nearest.get("labelled"):
                out.append((quad, nearest))
    return out


def build_model(width: int = 24):  # noqa: ANN201 - torch is imported lazily
    """The classifier, its first layer `width` channels wide (the later ones 2 and 4 times)."""
    import torch.nn as nn

    def block(cin: int, cout: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    # 32 -> 16 -> 8 -> 4, then global pooling: at width 24 about 16.6 million multiply-adds a
    # crop (growing as the width's square; 7.5 at 16), so the 80 halves of a 40-tile table are one
    # batched call of a few milliseconds.
    return nn.Sequential(
        *block(3, width),
        nn.MaxPool2d(2),
        *block(width, 2 * width),
        *block(2 * width, 2 * width),
        nn.MaxPool2d(2),
        *block(2 * width, 4 * width),
        *block(4 * width, 4 * width),
        nn.MaxPool2d(2),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Dropout(0.2),
        nn.Linear(4 * width, VALUES),
    )


@dataclass(frozen=True, slots=True)
class Looks:
    """How a training batch's crops are varied beyond the light and colour cast every crop gets,
    each with its own chance per crop. The rendered sets hold a few tile colours, pip colours and
    cameras; a player's set is any of them, so the classifier learns that a half's value is its
    pips' number and place, whatever their colours, the crop's sharpness or its noise: pips and
    body swapped (black tiles with white pips from white ones with black), the colour channels in
    another order (other pip colours), grey, blurred, noisy, faded."""

    #: the light (times 1 -/+ this) and a colour cast (-/+ this), every crop
    light: float = 0.25
    cast: float = 0.05
    inverted: float = 0.1
    channels_swapped: float = 0.3
    grey: float = 0.1
    blurred: float = 0.25
    #: the blur's sigma, crop pixels (a half is 32 x 32)
    most_blur: float = 1.3
    noisy: float = 0.2
    most_noise: float = 0.06
    faded: float = 0.2
    #: a faded crop keeps at least this share of its contrast
    least_contrast: float = 0.35


#: the light and colour cast alone (`spinner train halves --no-looks`)
PLAIN_LOOKS = Looks(inverted=0.0, channels_swapped=0.0, grey=0.0, blurred=0.0, noisy=0.0, faded=0.0)


def jitter(batch, looks: Looks):  # noqa: ANN001, ANN201 - torch is imported lazily
    """The batch (N, 3, H, W, RGB in [0, 1]) varied as `looks` says (`torch`'s generator)."""
    import torch
    from torchvision.transforms.functional import gaussian_blur

    n, device = len(batch), batch.device

    def chosen(share: float) -> torch.Tensor:
        # a look that is off draws nothing, so `PLAIN_LOOKS` trains as before the looks were added
        if share <= 0:
            return torch.zeros(n, dtype=torch.bool, device=device)
        return torch.rand(n, device=device) < share

    out = batch * (1 - looks.light + 2 * looks.light * torch.rand(n, 1, 1, 1, device=device))
    out = out + looks.cast * (2 * torch.rand(n, 3, 1, 1, device=device) - 1)
    out = out.clamp(0, 1)
    pick = chosen(looks.inverted)
    out[pick] = 1 - out[pick]
    pick = chosen(looks.channels_swapped)
    if pick.any():
        out[pick] = out[pick][:, torch.randperm(3, device=device)]
    pick = chosen(looks.grey)
    out[pick] = out[pick].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
    pick = chosen(looks.blurred)
    if pick.any():
        sigma = float(0.3 + (looks.most_blur - 0.3) * torch.rand(1))
        out[pick] = gaussian_blur(out[pick], kernel_size=5, sigma=sigma)
    pick = chosen(looks.faded)
    if pick.any():
        keep = looks.least_contrast + (1 - looks.least_contrast) * torch.rand(int(pick.sum()), 1, 1, 1, device=device)
        mean = out[pick].mean(dim=(1, 2, 3), keepdim=True)
        out[pick] = mean + (out[pick] - mean) * keep
    pick = chosen(looks.noisy)
    if pick.any():
        spread = looks.most_noise * torch.rand(int(pick.sum()), 1, 1, 1, device=device)
        out[pick] = out[pick] + spread * torch.randn_like(out[pick])
    return out.clamp_(0, 1)


def _tensor(crops: CropSet):  # noqa: ANN202
    import torch

    x = torch.from_numpy(crops.images[..., ::-1].copy()).permute(0, 3, 1, 2).float().div_(255.0)
    return x, torch.from_numpy(crops.values).long()


def collect_all(
    datasets: Sequence[Path],
    split: str,
    copies: int,
    seed: int,
    limit: int | None = None,
    detector: Any = None,
    detected_copies: int = 1,
    not_halves: bool = False,
) -> CropSet:
    """`collect` from each dataset in turn (its own seed: `seed` + 7 times its place), as one set."""
    sets = [
        collect(d, split, copies, seed + 7 * i, limit, detector, detected_copies, not_halves)
        for i, d in enumerate(datasets)
    ]
    return CropSet(np.concatenate([s.images for s in sets]), np.concatenate([s.values for s in sets]))


def train(
    dataset: Path | Sequence[Path],
    out: Path,
    epochs: int = 8,
    copies: int = 3,
    batch: int = 256,
    seed: int = 0,
    limit: int | None = None,
    log=print,  # noqa: ANN001
    detector: Path | None = None,
    detected_copies: int = 2,
    looks: Looks | None = None,
    width: int = 24,
    not_halves: bool = False,
) -> dict[str, float]:
    """Train on one dataset or several; export ONNX to `out` at each epoch better on the validation
    crops. Returns figures. With `detector`, the halves of its own boxes are cut too (`collect`), in
    training and validation. `looks`: how each training batch is varied (`jitter`; default
    `Looks()`); `width`: the classifier's (`build_model`); `not_halves`: also teach doubt on crops
    that show no half (`not_half_quads`, `loss`)."""
    import torch
    from torch import nn

    looks = looks or Looks()
    torch.manual_seed(seed)
    random.seed(seed)
    torch.set_num_threads(max(1, torch.get_num_threads()))
    started = time.time()
    boxes = None
    if detector is not None:
        from vision.read.detector import ObbModel

        boxes = ObbModel(detector)
    datasets = [dataset] if isinstance(dataset, Path) else list(dataset)
    train_set = collect_all(datasets, "train", copies, seed, limit, boxes, detected_copies, not_halves)
    val_set = collect_all(datasets, "val", 1, seed + 1, limit, boxes, 1)
    doubted = int((train_set.values == NOT_A_HALF).sum())
    log(
        f"crops: {len(train_set.values)} train ({doubted} no half), {len(val_set.values)} val"
        f" ({time.time() - started:.0f} s)"
    )
    x, y = _tensor(train_set)
    vx, vy = _tensor(val_set)
    # The crops stay in host memory (several GB); each batch goes to the GPU where there is one.
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = build_model(width).to(device)
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = epochs * max(1, (len(y) + batch - 1) // batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    best_accuracy, best_state = -1.0, None
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(y))
        total = 0.0
        for i in range(0, len(y), batch):
            idx = order[i : i + batch]
            xb = jitter(x[idx].to(device), looks)
            optimiser.zero_grad()
            loss = batch_loss(model(xb), y[idx].to(device), loss_fn)
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * len(idx)
        accuracy = evaluate(model, vx, vy)
        log(f"epoch {epoch + 1}/{epochs}: loss {total / len(y):.4f}, val per-half accuracy {accuracy:.4%}")
        if accuracy > best_accuracy:
            best_accuracy = accuracy
            best_state = {k: v.clone() for k, v in model.state_dict().items()}
            # Exported at once, so a run cut short (a CPU session ends) still leaves its best epoch.
            export(model, out)
    assert best_state is not None
    model.load_state_dict(best_state)
    return {
        "val_accuracy": best_accuracy,
        "train_crops": float(len(y)),
        "val_crops": float(len(vy)),
        "seconds": time.time() - started,
    }


def batch_loss(logits, values, on_values):  # noqa: ANN001, ANN201 - torch is imported lazily
    """`on_values` (a cross-entropy) over the crops with a value; a `NOT_A_HALF` crop's loss is its
    cross-entropy against an even belief over the seven, so it is least where the classifier
    doubts every value alike. Each crop weighs the same."""
    import torch

    shown = values != NOT_A_HALF
    total = logits.new_zeros(())
    if shown.any():
        total = total + on_values(logits[shown], values[shown]) * shown.sum()
    if (~shown).any():
        total = total - torch.log_softmax(logits[~shown], dim=1).mean(dim=1).sum()
    return total / len(values)


def evaluate(model, x, y) -> float:  # noqa: ANN001
    import torch

    model.eval()
    device = next(model.parameters()).device
    with torch.no_grad():
        predicted = torch.cat([model(x[i : i + 1024].to(device)).argmax(1).cpu() for i in range(0, len(y), 1024)])
    return float((predicted == y).float().mean()) if len(y) else 0.0


def export(model, out: Path) -> None:  # noqa: ANN001
    import torch

    model.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, HALF_SIZE, HALF_SIZE, device=next(model.parameters()).device)
    torch.onnx.export(
        model,
        dummy,
        str(out),
        input_names=["crops"],
        output_names=["logits"],
        dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
