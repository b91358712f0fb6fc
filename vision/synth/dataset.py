"""A dataset on disk: images, YOLO OBB labels, truth sidecars and data.yaml.

Image i of a dataset made with seed S is drawn from its own generator seeded by (S, i), so any
image can be made alone, in any worker process, in any order, and the bytes are the same.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .labels import CLASS_NAMES, build_truth, yolo_lines
from .render import render_scene
from .scene import TRAINING, build_scene

GENERATOR = "spinner-synth/5"  # /2: `scene.TRAINING` (blank halves favoured, painted dividers); /3: lettered boards; /4: dark words on light panels; /5: a logo band under the lead


@dataclass(frozen=True, slots=True)
class Sample:
    name: str
    jpeg: bytes
    label: str  # the .txt file's text
    truth: dict[str, Any]


def image_rng(seed: int, index: int) -> np.random.Generator:
    """The generator for image `index` of a dataset seeded `seed`."""
    return np.random.default_rng(np.random.SeedSequence([int(seed), int(index)]))


def encode_jpeg(image: np.ndarray, quality: int) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:  # pragma: no cover - OpenCV encodes any uint8 BGR image
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes()


def make_sample(seed: int, index: int, width: int = 1280, height: int = 960, name: str | None = None) -> Sample:
    """Render image `index` of dataset `seed`: photo, labels and truth."""
    rng = image_rng(seed, index)
    scene = build_scene(rng, width, height, TRAINING)
    rendered = render_scene(scene)
    params = {
        "generator": GENERATOR,
        "seed": int(seed),
        "index": int(index),
        "tile_style": scene.tile_style.name,
        "tile_back": scene.tile_style.back,
        "divider": "painted" if scene.tile_style.painted_divider else "groove",
        "table": scene.table,
        "board": scene.board is not None,
        "board_cells": scene.board is not None and scene.board.cells is not None,
        "cards": len(scene.cards),
        "sets": scene.sets,
        "packed": scene.packed,
        "camera": scene.camera.describe(),
        "light": {
            "azimuth_deg": round(float(np.degrees(scene.light.azimuth)), 1),
            "elevation_deg": round(float(np.degrees(scene.light.elevation)), 1),
            "ambient": round(scene.light.ambient, 3),
            "exposure": round(scene.light.exposure, 3),
            "cast_shadows": round(scene.light.shadow_strength, 3),
            "glare": round(scene.light.glare, 3),
        },
        "finish": {
            "defocus": round(scene.finish.defocus, 2),
            "motion": round(scene.finish.motion, 2),
            "noise": round(scene.finish.noise, 2),
            "jpeg_quality": scene.finish.jpeg_quality,
            "contrast": round(scene.finish.contrast, 3),
            "pivot": round(scene.finish.pivot, 1),
        },
        "hands": len(scene.hands),
    }
    truth = build_truth(scene, rendered, params)
    name = name or f"{index:06d}"
    truth["image"]["file"] = f"{name}.jpg"
    lines = yolo_lines(truth)
    return Sample(
        name, encode_jpeg(rendered.image, scene.finish.jpeg_quality), "".join(line + "\n" for line in lines), truth
    )


def split_of(seed: int, images: int, val_fraction: float) -> list[str]:
    """'train' or 'val' for each image: a fixed share, chosen by the seed."""
    k = int(round(images * val_fraction))
    if val_fraction > 0 and images > 1:
        k = max(1, min(k, images - 1))
    chosen = set(np.random.default_rng(np.random.SeedSequence([int(seed), 2**31 - 1])).permutation(images)[:k].tolist())
    return ["val" if i in chosen else "train" for i in range(images)]


def write_sample(out: Path, split: str, sample: Sample) -> None:
    (out / "images" / split / f"{sample.name}.jpg").write_bytes(sample.jpeg)
    (out / "labels" / split / f"{sample.name}.txt").write_text(sample.label)
    text = json.dumps(sample.truth, separators=(",", ":"))
    (out / "truth" / split / f"{sample.name}.json").write_text(text + "\n")


def data_yaml(out: Path) -> str:
    names = "".join(f"  {i}: '{n}'\n" for i, n in enumerate(CLASS_NAMES))
    return f"path: {out.resolve()}\ntrain: images/train\nval: images/val\nnames:\n{names}"


def _job(args: tuple[str, int, int, int, int, str, bool, str | None]) -> int:
    out, seed, index, width, height, split, styled, condition = args
    if styled:
        from .styles import make_styled_sample  # the styles module builds on this one

        write_sample(Path(out), split, make_styled_sample(seed, index, width, height, condition))
    else:
        write_sample(Path(out), split, make_sample(seed, index, width, height))
    return index


def _init_worker() -> None:
    cv2.setNumThreads(1)  # one process per core: OpenCV's own threads would only fight them


def generate_dataset(
    out: str | os.PathLike[str],
    images: int,
    seed: int,
    width: int = 1280,
    height: int = 960,
    val_fraction: float = 0.1,
    workers: int = 2,
    progress: bool = True,
    styled: bool = False,
    condition: str | None = None,
) -> Path:
    """Write `images` images (train and val) under `out`; returns the data.yaml path. `styled`:
    each photo takes one condition of the styles benchmark (`styles.make_styled_sample`), the
    training condition named `condition` when given."""
    root = Path(out)
    for kind in ("images", "labels", "truth"):
        for split in ("train", "val"):
            (root / kind / split).mkdir(parents=True, exist_ok=True)
    splits = split_of(seed, images, val_fraction)
    if condition is not None:
        from .styles import TRAINING_BY_NAME

        if condition not in TRAINING_BY_NAME:
            raise ValueError(f"no training condition {condition!r}: one of {', '.join(TRAINING_BY_NAME)}")
        styled = True
    jobs = [(str(root), int(seed), i, int(width), int(height), splits[i], styled, condition) for i in range(images)]
    bar = _bar(images, progress)
    if workers <= 1:
        _init_worker()
        for job in jobs:
            _job(job)
            bar.update(1)
    else:
        import multiprocessing as mp

        ctx = mp.get_context("spawn" if os.name == "nt" else "fork")
        with ctx.Pool(workers, initializer=_init_worker) as pool:
            for _ in pool.imap_unordered(_job, jobs, chunksize=1):
                bar.update(1)
    bar.close()
    yaml_path = root / "data.yaml"
    yaml_path.write_text(data_yaml(root))
    return yaml_path


def _bar(total: int, progress: bool) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, unit="img", desc="synth", disable=not progress)


def iter_samples(seed: int, count: int, width: int = 1280, height: int = 960) -> Iterator[Sample]:
    for i in range(count):
        yield make_sample(seed, i, width, height)
