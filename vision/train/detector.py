"""Train and export the tile detector with ultralytics, fully offline (needs the training extra).

The detector finds whole face-up tiles (one class, an oriented box each); the half classifier
reads the halves (`vision.train.halves`). Its labels are derived from the synthetic truth, not
from the generator's own label files, so the generator's label scheme and the model's stay
independent.

Offline: ultralytics is told where its settings live (a folder inside the repository), never to
reach the network or install anything, and finds its font there (matplotlib ships DejaVu Sans).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from vision.read.detector import ENLARGE_KEY, READ_ENLARGE, READ_SIDE

if TYPE_CHECKING:
    import torch

ROOT = Path(__file__).resolve().parents[2]
CONFIG_DIR = ROOT / ".yolo"
TILE_NAMES = {0: "tile"}


def offline(config_dir: Path = CONFIG_DIR) -> None:
    """Set up ultralytics so that it makes no network attempt. Call before importing it."""
    font_dir = config_dir / "Ultralytics"
    font_dir.mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_CONFIG_DIR"] = str(config_dir)
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "0"
    font = font_dir / "Arial.ttf"
    if not font.exists():
        import matplotlib

        shutil.copy(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf", font)
    from ultralytics import settings
    from ultralytics.utils import torch_utils

    settings.update({"sync": False})
    # ultralytics uses one CPU thread unless told; two are 1.6x faster on this 2-core machine.
    # The cores this process may run on, not all the machine's: `taskset -c 0 spinner train ...`
    # gives training one core of its own, which beats two threads fighting other work for both.
    torch_utils.NUM_THREADS = max(1, len(os.sched_getaffinity(0)))


#: what else the detector may learn to box (`prepare(ignored=True)`), classes 1-3 after the tile:
#: what is not a face-up tile is never a tile (issue 35), and a detector that has a class for a
#: back, a tile on edge or a printed picture puts those boxes there instead of on "tile"
IGNORED_CLASSES = ("face_down", "edge", "printed")
#: a back or a tile on edge is labelled only when at least this much of it is seen (as the tiles)
IGNORED_VISIBLE = 0.6


def prepare(synths: Path | list[Path], out: Path, ignored: bool = False) -> Path:
    """A tiles-only ultralytics OBB dataset beside the synthetic ones: images linked, labels derived.

    Several sets train together (each photo once per epoch); each gets its own folder under `out`,
    named after the set, and the data yaml lists them all. With `ignored`, face-down tiles, tiles
    on edge and printed pictures are labelled too, as classes 1-3 (`IGNORED_CLASSES`), from the
    truth every set already holds: no set needs rendering again.
    """
    synths = [synths] if isinstance(synths, Path) else list(synths)
    if not synths:
        raise ValueError("no synthetic set given to train on")
    names = [synth.resolve().name for synth in synths]
    if len(set(names)) != len(names):
        raise ValueError(f"two sets share a folder name ({', '.join(names)}): their images would mix")
    out = out.resolve()
    folders: dict[str, list[str]] = {"train": [], "val": []}
    for synth, name in zip(synths, names, strict=True):
        for split in ("train", "val"):
            folders[split].append(str(_prepare_split(synth.resolve(), out / name, split, ignored)))
    data = out / "data.yaml"
    names_yaml = "".join(f"  {i}: {n}\n" for i, n in enumerate(("tile", *IGNORED_CLASSES) if ignored else ("tile",)))
    data.write_text(
        f"path: {out}\ntrain: {json.dumps(folders['train'])}\nval: {json.dumps(folders['val'])}\nnames:\n" + names_yaml
    )
    return data


def data_names(data: Path) -> dict[int, str]:
    """The classes a data yaml lists, by index."""
    import yaml

    names = yaml.safe_load(Path(data).read_text())["names"]
    return dict(enumerate(names)) if isinstance(names, list) else {int(k): str(v) for k, v in names.items()}


def ignored_labels(truth: dict) -> list[tuple[int, list[list[float]]]]:  # type: ignore[type-arg]
    """(class, corners) of each face-down tile, tile on edge and printed picture worth a label: seen
    enough (`IGNORED_VISIBLE`) and lying inside the photo."""
    width, height = truth["image"]["width"], truth["image"]["height"]

    def inside(corners: list[list[float]]) -> bool:
        return all(-0.5 <= x <= width + 0.5 and -0.5 <= y <= height + 0.5 for x, y in corners)

    out = []
    for cls, key in enumerate(("face_down", "on_edge", "printed"), start=1):
        for item in truth.get(key, []):
            corners = edge_box(item) if key == "on_edge" else item["corners"]
            if item.get("visible", 1.0) >= IGNORED_VISIBLE and inside(corners):
                out.append((cls, corners))
    return out


def edge_box(item: dict) -> list[list[float]]:  # type: ignore[type-arg]
    """The box a tile on edge is labelled with: the least rectangle round all of it that is seen
    (its outline: face or back, top and side), not its top face alone. Labelled by the top strip,
    the detector learnt only that strip as "edge", and a standing tile whose face is turned to the
    camera (a player's own hand, seen from behind) was boxed as a face-up tile with no doubt
    (docs/styles.md, "Today's reader"). Truth without an outline keeps its top face."""
    outline = item.get("outline")
    if not outline or len(outline) < 3:
        return item["corners"]
    rect = cv2.minAreaRect(np.asarray(outline, dtype=np.float32))
    return [[round(float(x), 2), round(float(y), 2)] for x, y in cv2.boxPoints(rect)]


def _prepare_split(synth: Path, out: Path, split: str, ignored: bool = False) -> Path:
    """Link one split's photos into `out/images/split` and write their tile labels; return the folder."""
    images = synth / "images" / split
    truth_dir = synth / "truth" / split
    if not images.is_dir() or not truth_dir.is_dir():
        raise FileNotFoundError(f"{synth} has no {split} images and truth: make it with `spinner dataset synth`")
    # Hard links, not a linked folder: ultralytics resolves a linked folder to its real path
    # and would then find the generator's own labels beside it.
    linked = out / "images" / split
    if linked.is_symlink():
        linked.unlink()
    linked.mkdir(parents=True, exist_ok=True)
    # A set rendered again into the same folder has new photos under the old names: a link left
    # from before would pair an old photo with the new labels (it happened: a run's first losses
    # were those of a network that had never seen a tile). Every link is made afresh.
    for image in sorted(images.glob("*.jpg")):
        target = linked / image.name
        if target.exists() or target.is_symlink():
            if target.samefile(image):
                continue
            target.unlink()
        try:
            os.link(image, target)
        except OSError:  # another file system: copy
            shutil.copy2(image, target)
    # photos the set no longer has (rendered again with fewer) must not keep old labels' places
    names = {image.name for image in images.glob("*.jpg")}
    for stale in linked.glob("*.jpg"):
        if stale.name not in names:
            stale.unlink()
    labels = out / "labels" / split
    if labels.exists():
        shutil.rmtree(labels)
    labels.mkdir(parents=True)
    for truth_path in sorted(truth_dir.glob("*.json")):
        truth = json.loads(truth_path.read_text())
        width, height = truth["image"]["width"], truth["image"]["height"]
        lines = []
        for tile in truth["tiles"]:
            if tile.get("labelled"):
                coords = " ".join(f"{x / width:.6f} {y / height:.6f}" for x, y in tile["corners"])
                lines.append(f"0 {coords}")
        for cls, corners in ignored_labels(truth) if ignored else []:
            lines.append(f"{cls} " + " ".join(f"{x / width:.6f} {y / height:.6f}" for x, y in corners))
        (labels / f"{truth_path.stem}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
    return linked


def train(
    data: Path,
    project: Path,
    name: str = "detector",
    epochs: int = 100,
    imgsz: int = 640,
    batch: int = 16,
    resume: bool = False,
    device: str | None = None,
    workers: int = 2,
    model_cfg: str = "yolo11n-obb.yaml",
    hours: float | None = None,
    lr: float | None = None,
    freeze: int | None = None,
) -> Path:
    """Train and return best.pt: from scratch (a model yaml: no pretrained weights exist here),
    on from our own earlier weights (a .pt, with a fresh schedule), or resumed where it stopped.

    `hours` bounds the run by time instead of epochs: ultralytics then sizes the epochs and the
    learning-rate schedule to fit, which is what a CPU session needs.
    """
    offline()
    import torch
    from ultralytics import YOLO

    device = device or ("0" if torch.cuda.is_available() else "cpu")
    project = project.resolve()  # a relative project would land under runs/<task>/ instead
    last = project / name / "weights" / "last.pt"
    if resume:
        if not last.exists():
            raise FileNotFoundError(f"nothing to resume: {last} does not exist")
        resumed = YOLO(str(last))
        resumed.train(resume=True, device=device, workers=workers, **_as_it_is(resumed))
    else:
        model = YOLO(model_cfg)
        going_on = model_cfg.endswith(".pt")
        if going_on:
            names = data_names(data)
            if len(names) > model.model.nc:  # e.g. the one-class detector going on with --ignored
                from vision.train.classes import widen_classes

                widen_classes(model.model, names)
        model.train(
            **_as_it_is(model),
            data=str(data),
            epochs=epochs,
            imgsz=imgsz,
            batch=batch,
            device=device,
            workers=workers,
            project=str(project),
            name=name,
            exist_ok=True,
            amp=device != "cpu",
            # Going on from a .pt needs pretrained=True: with False, ultralytics builds the network
            # from the .pt's yaml with random weights (a yaml has none to load either way).
            pretrained=going_on,
            time=hours,
            plots=False,
            val=True,
            seed=0,
            deterministic=False,
            # Decoded, resized photos kept in memory (about 1 MB each at 640): decoding four
            # 1280x960 JPEGs for every mosaic otherwise doubles a CPU epoch.
            cache="ram",
            # The renders already vary light, angle and scale; keep the flips and mosaic.
            degrees=180.0,
            fliplr=0.5,
            flipud=0.5,
            mosaic=1.0,
            close_mosaic=5,
            # Warm-up steadies a network's first steps from random weights; weights that have
            # already trained need little (ultralytics keeps at least 100 steps). On a CPU session
            # of a few epochs the default three epochs of warm-up would be most of the run.
            warmup_epochs=0.5 if going_on else 3.0,
            # Ultralytics starts the biases' warm-up at 0.1 with a named optimizer (at 0 with its
            # own choice): with AdamW that moves every trained bias by about 0.1 a step for the
            # first hundred steps, and a network going on loses much of what it knew before
            # it learns again. Start them at zero, as ultralytics does for itself.
            **({"warmup_bias_lr": 0.0} if going_on else {}),
            # ultralytics' own `freeze`: the first N layers' weights take no steps
            **({"freeze": freeze} if freeze is not None else {}),
            # Each run starts its schedule again: from trained weights, ultralytics' automatic
            # AdamW at 0.002 first undoes some of the training (the first epoch's mAP dips).
            **({"optimizer": "AdamW", "lr0": lr} if lr is not None else {}),
        )
    best = project / name / "weights" / "best.pt"
    return best if best.exists() else last


def _as_it_is(model: Any) -> dict[str, Any]:
    """For a pruned network (`vision.train.prune`), a trainer that trains it as it is: ultralytics'
    own rebuilds the network from its yaml and loads only the weights whose shapes fit it."""
    from vision.train.prune import is_pruned

    if not is_pruned(model.model):
        return {}
    from ultralytics.models.yolo.obb import OBBTrainer

    class KeptNetworkTrainer(OBBTrainer):
        def get_model(self, cfg: Any = None, weights: Any = None, verbose: bool = True) -> Any:
            for parameter in weights.parameters():
                parameter.requires_grad_(True)
            return weights

    return {"trainer": KeptNetworkTrainer}


@contextmanager
def _bins_last() -> Iterator[None]:
    """Export the box head's distributions with their softmax over the last axis.

    The head turns each box side's 16-bin distribution into a distance: a softmax over the bins,
    then their expectation. Ultralytics lays the bins on axis 1 of (batch, bins, 4, anchors),
    which onnxruntime's Softmax handles slowly (its profiler shows it as a large share of the
    run); with the bins last it computes the same numbers (equal to the bit on a test input) in a
    fraction of the time. Only the exported graph changes: the weights and training are
    ultralytics' own.
    """
    from ultralytics.nn.modules.block import DFL

    original = DFL.forward

    def forward(self: DFL, x: torch.Tensor) -> torch.Tensor:
        batch, _, anchors = x.shape
        bins = x.view(batch, 4, self.c1, anchors).transpose(2, 3).softmax(-1)  # (batch, 4, anchors, bins)
        return (bins @ self.conv.weight.view(self.c1, 1)).view(batch, 4, anchors)  # the expectation

    DFL.forward = forward
    try:
        yield
    finally:
        DFL.forward = original


def export(weights: Path, out: Path, imgsz: int = READ_SIDE, enlarge: float = READ_ENLARGE) -> Path:
    """Export to ONNX (no simplifier: it would need the network) and copy it to `out`.

    The input's size is left free (`dynamic`): the companion gives each photo its own shape with
    `imgsz` as the long side (`vision.read.detector.canvas_shape`), so a 4:3 photo is read as 800 x 608,
    not padded to a square (a quarter of the work spent on grey), and a photo held upright is
    read as large as one held sideways. `imgsz` is kept in the model's metadata: it is the
    size the companion reads at, which need not be the training size. So is `enlarge`, how much
    a photo smaller than that is enlarged at most (`vision.read.detector.letterbox`).
    """
    offline()
    from ultralytics import YOLO

    with _bins_last():
        exported = Path(YOLO(str(weights)).export(format="onnx", imgsz=imgsz, simplify=False, dynamic=True))
    out.parent.mkdir(parents=True, exist_ok=True)
    if exported.resolve() != out.resolve():
        shutil.move(exported, out)  # ultralytics writes it beside the weights; only `out` is wanted
    stamp_enlarge(out, enlarge)
    return out


def stamp_enlarge(model: Path, enlarge: float) -> None:
    """Keep in an exported model's metadata how much a small photo is enlarged at most."""
    import onnx

    proto = onnx.load(str(model))
    kept = [p for p in proto.metadata_props if p.key != ENLARGE_KEY]
    del proto.metadata_props[:]
    proto.metadata_props.extend(kept)
    proto.metadata_props.add(key=ENLARGE_KEY, value=repr(float(enlarge)))
    onnx.save(proto, str(model))
